import CFFmpeg
import Raster

/// What `MP4Writer.finish()` produced.
public struct MP4Summary: Hashable, Sendable {
  /// Frames written.
  public var frames: Int
  /// Duration in seconds: `frames / fps`.
  public var duration: Double
  /// Size of the file in bytes.
  public var bytes: Int

  public init(frames: Int, duration: Double, bytes: Int) {
    self.frames = frames
    self.duration = duration
    self.bytes = bytes
  }
}

/// Encodes frames into an H.264 (High, yuv420p, BT.709 limited range) MP4 at a
/// constant frame rate, with `moov` before `mdat` (`+faststart`): libx264 in
/// libavformat's mp4 muxer, through `MuxedEncoder`.
///
/// Frame `n` gets pts `n` in a time base of `1/fps`. The file is written to a
/// temp file beside `path` and renamed onto `path` by `finish()`; an error,
/// `cancel()` or dropping the writer unfinished removes the temp file and leaves
/// whatever was at `path` untouched. After an error the writer is closed and
/// every later call throws.
///
/// Alpha: frames are premultiplied, and the writer uses their colour bytes as
/// they are, which is exactly the frame composited over opaque black. transvid's
/// frames are opaque, so this only matters for a caller that passes a
/// translucent frame.
///
/// Size: yuv420p needs even width and height; the writer does not pad or crop,
/// it throws a `MediaError` naming the size. The caller (the canvas) guarantees
/// even pixel sizes.
///
/// Determinism: the muxer runs with `fflags +bitexact` and the encoder with
/// `AV_CODEC_FLAG_BITEXACT`, swscale with `SWS_BITEXACT`, so the same frames,
/// settings and `threads` give byte-identical files.
public final class MP4Writer {
  /// An MP4 on a page is a `<video>`.
  public static let fileType = OutputFileType(fileExtension: "mp4", mimeType: "video/mp4", presentation: .video)

  /// Where the finished file goes.
  public let path: String
  /// Frame size in pixels.
  public let width: Int, height: Int
  /// Frames per second.
  public let fps: Int

  private let encoder: MuxedEncoder
  private let frame: Frame
  private let scaler = Scaler()
  private var frameCount = 0

  /// Opens the encoder and the temp file.
  ///
  /// - Parameters:
  ///   - crf: x264 constant rate factor, 1 … 51 (lower is better); 18 is visually
  ///     lossless. 0 (lossless) is rejected: High profile cannot carry it.
  ///   - preset: one of x264's presets (`ultrafast` … `placebo`); x264 itself
  ///     rejects any other name.
  ///   - threads: encoder threads; 0 lets x264 choose from the CPU count.
  ///     Output is byte-identical for the same frames, settings and thread
  ///     count, but differs between thread counts (x264 writes its settings
  ///     into the stream and frame threads change its decisions; measured at
  ///     640×480). For the same bytes on every machine, pass a fixed count.
  public init(
    path: String, width: Int, height: Int, fps: Int, crf: Int = 18, preset: String = "medium",
    threads: Int = 0
  ) throws {
    let what = "MP4 '\(path)'"
    guard width > 0, height > 0, width % 2 == 0, height % 2 == 0, width <= 16384,
      height <= 16384
    else {
      throw MediaError(
        "open \(what)",
        "frame size \(width)×\(height) is not supported: H.264 yuv420p needs even width and height (2…16384)"
      )
    }
    guard fps > 0, fps <= 1000 else { throw MediaError("open \(what)", "fps \(fps) is not in 1…1000") }
    guard (1...51).contains(crf) else {
      // crf 0 is lossless, which High profile cannot carry (x264 refuses it).
      throw MediaError("open \(what)", "crf \(crf) is not in 1…51 (0, lossless, needs High 4:4:4)")
    }
    guard threads >= 0 else { throw MediaError("open \(what)", "threads \(threads) is negative") }
    MediaLog.setUp()

    self.path = path
    self.width = width
    self.height = height
    self.fps = fps
    encoder = try MuxedEncoder(
      path: path,
      encoding: Encoding(
        container: "mp4", codec: "libx264", pixelFormat: .yuv420p, width: width, height: height,
        timeBase: (1, fps), frameRate: fps, taggedBT709: true, threads: threads,
        codecOptions: [("profile", "high"), ("preset", preset), ("crf", "\(crf)")],
        muxerOptions: [("movflags", "+faststart")], what: what))
    frame = try Frame(width: width, height: height, format: AV_PIX_FMT_YUV420P)
  }

  /// Encodes one frame. It must be `width × height`.
  public func append(_ bitmap: Bitmap) throws {
    MediaLog.setUp()
    try guardOpen("append frame")
    do {
      try checkSize(bitmap.width, bitmap.height)
      try check(av_frame_make_writable(frame.pointer), "make frame writable")
      try scaler.yuv(from: bitmap, into: frame)
      try encode(frame)
    } catch {
      encoder.cancel()
      throw error
    }
  }

  /// Encodes a frame converted elsewhere (by a `YUVConverter`, typically on
  /// a worker thread). It must be `width × height`. The same frame may be
  /// appended again for a frame that shows the same picture (a hold): x264
  /// copies the pixels in, so nothing holds on to the frame after this returns,
  /// and the caller may convert the next picture into it.
  public func append(_ yuv: YUVFrame) throws {
    MediaLog.setUp()
    try guardOpen("append frame")
    do {
      try checkSize(yuv.width, yuv.height)
      try encode(yuv.frame)
    } catch {
      encoder.cancel()
      throw error
    }
  }

  /// Flushes the encoder, writes the trailer (moving `moov` to the front) and
  /// renames the temp file onto `path`. At least one frame must have been appended.
  @discardableResult
  public func finish() throws -> MP4Summary {
    MediaLog.setUp()
    try guardOpen("finish")
    guard frameCount > 0 else {
      encoder.cancel()
      throw MediaError("finish MP4 '\(path)'", "no frames were appended")
    }
    let bytes = try encoder.finish()
    return MP4Summary(frames: frameCount, duration: Double(frameCount) / Double(fps), bytes: bytes)
  }

  /// Stops writing and removes the temp file; `path` is left as it was.
  /// Safe to call more than once, and after `finish()` (then it does nothing).
  public func cancel() {
    encoder.cancel()
  }

  /// Stamps `frame` with the next pts and encodes it.
  private func encode(_ frame: Frame) throws(MediaError) {
    frame.pointer.pointee.pts = Int64(frameCount)
    try encoder.encode(frame)
    frameCount += 1
  }

  private func checkSize(_ w: Int, _ h: Int) throws(MediaError) {
    guard w == width, h == height else {
      throw MediaError(
        "append frame \(frameCount) to MP4 '\(path)'", "frame is \(w)×\(h), expected \(width)×\(height)")
    }
  }

  private func guardOpen(_ operation: String) throws(MediaError) {
    guard encoder.isOpen else { throw MediaError("\(operation) MP4 '\(path)'", "the writer is already closed") }
  }
}
