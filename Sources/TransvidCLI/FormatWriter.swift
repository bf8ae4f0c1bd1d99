import Jobs
import Media
import Rendering

/// One output format's writer, as a batch uses it: the file it makes, what
/// its bytes depend on, and how it turns a job's frames into that file.
///
/// Where the pieces live: `OutputFormat` (the name a job file and `--format`
/// use) is in Jobs, which parses it and cannot see Media; the encoders and
/// each format's `OutputFileType` are in Media, which cannot see a job. This
/// module sees both, so the conformance that reads a job's settings and
/// feeds its frames to the Media writer is here, and so is the registry
/// below. Adding a format: its writer in Media (an `Encoding` on
/// `MuxedEncoder` for a codec in a container), its case and settings in
/// Jobs, and a conformance registered here; the batch, the cache key, the
/// gallery, `--format` and the usage text follow from those.
protocol FormatWriter: Sendable {
  /// The file: extension, MIME type, how a page shows it.
  var fileType: OutputFileType { get }
  /// What the bytes depend on besides the job, its assets and transvid's
  /// version (the encoder and the settings transvid fixes); part of the
  /// job's cache key.
  var cacheKey: String { get }
  /// Files besides the job's assets whose bytes the output depends on (a
  /// font the writer draws with); their digests are part of the cache key.
  var inputFiles: [String] { get }
  /// Whether the write runs with the heap filled (`HeapFill`): every
  /// writer that hands frames to a libavcodec codec, whose buffers (a video
  /// pipeline's frame pool) may be made before the codec is opened.
  var fillsHeap: Bool { get }
  /// Renders the job and writes the file at `path` (a temp file renamed
  /// into place). `onFrame` runs after each rendered frame and may throw to stop.
  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary
}

extension FormatWriter {
  var inputFiles: [String] { [] }
  var fillsHeap: Bool { true }

  /// The video encoders' thread count (x264, libvpx, prores_ks). Thread
  /// counts change an encoder's decisions (and so the bytes), so it is fixed
  /// rather than taken from the machine: the same job gives the same file on
  /// a laptop and on a 64-core runner.
  static var encoderThreads: Int { 4 }
}

extension OutputFormat {
  /// The writer registered for the format. The switch is exhaustive, so a
  /// format without a writer does not compile.
  var writer: any FormatWriter {
    switch self {
    case .mp4: MP4Output()
    case .gif: GIFOutput()
    case .png: PosterOutput()
    case .sheet: SheetOutput()
    case .webm: WebMOutput()
    case .mov: MOVOutput()
    case .apng: APNGOutput()
    case .webp: WebPOutput()
    }
  }
}
