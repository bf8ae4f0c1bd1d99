// Media: everything that touches FFmpeg. The only module that imports CFFmpeg
// (and the GIF writer's libimagequant and giflib, and CJPEG, libjpeg-turbo's
// decoder for JPEG images); no type of those libraries appears in its public
// API.
//
// Design
//
// Ownership. Every FFmpeg object has exactly one Swift owner, a final class
// (`Frame`, `Packet`, `CodecContext`, `Scaler`, and the format context held by
// `MuxedEncoder`/`VideoReader`) that frees it in `deinit` (`av_frame_free`,
// `av_packet_free`, `avcodec_free_context`, `sws_freeContext`,
// `avformat_free_context`/`avformat_close_input`). Pointers never escape the
// owner's lifetime: C calls go through `withUnsafe…` or the owner's `pointer`
// while the owner is alive. Packets handed to `av_interleaved_write_frame` are
// owned by the muxer from then on (it resets them), as in FFmpeg's mux.c.
// Errors are `MediaError` (operation + `av_strerror` text), thrown, never
// trapped: a corrupt file or a bad frame size is an error, not a crash.
//
// Encoding. One encode-and-mux loop (`MuxedEncoder`, FFmpeg's mux.c) serves
// every encoded format; a format is an `Encoding` (container, codec, pixel
// format, time base, options) plus what it does with its frames. A
// constant-rate video format is a `VideoWriter` that only picks its Encoding
// (`MP4Writer`). GIF is the exception: libimagequant chooses its palettes,
// pixels are mapped as libavfilter's `paletteuse` maps them (`PaletteTree`,
// the same search; `paletteuse` itself to dither) and giflib writes the file
// (`GIFFile`), because which pixels an image carries across palette changes is
// transvid's own decision, one lavc's gif encoder cannot express. Its
// whole file is built in memory and written with `Platform.writeAtomically`.
//
// Atomic writes. Whole-buffer files (`PNGWriter`, `GIFWriter`, and every report the CLI
// writes) go through `Platform.writeAtomically`: a new file made with
// `O_EXCL | O_NOFOLLOW` in a private `mkdtemp` folder beside the target, then
// `rename()`d onto it; a target that is not a regular file or link is refused.
// The streaming encoders (`MuxedEncoder`) write to a temp file
// beside the target (`dir/.<name>.tmp-<pid>-<n>`, in the runner's own staging
// folder) and rename it the same way (`Platform.move`). On any error, on
// `cancel()`, or when a writer is dropped unfinished, the temp file is removed;
// the target is either the complete new file or whatever was there before.
// Reading follows one rule too: only regular files, up to a byte cap
// (`Platform.readRegularFile`).
//
// Colour pipeline. Frames are premultiplied sRGB RGBA8 (`Raster.Bitmap`).
// MP4: the colour bytes go to swscale as they are (= composited over black;
// transvid's frames are opaque) → yuv420p with the BT.709 matrix, limited range
// (`sws_setColorspaceDetails` with `sws_getCoefficients(SWS_CS_ITU709)`; the
// render pipeline's `YUVConverter` gives the same bytes with Raster's own
// SIMD converter), and
// the stream is tagged BT.709 primaries/transfer/matrix, tv range, which is how
// players interpret sRGB-ish video. Decoding reverses it: YUV → RGBA with the
// frame's own matrix and range (BT.709 when untagged for video, BT.601 for
// still images as JPEG/WebP define). Images: decode → swscale to straight RGBA
// → premultiply. PNG out: un-premultiply → straight RGBA → png encoder.
// swscale always runs with `SWS_BITEXACT | SWS_ACCURATE_RND`, the encoder with
// `AV_CODEC_FLAG_BITEXACT` and the muxer with `fflags +bitexact`, and the
// heap hands out blocks filled with one fixed byte while a codec works
// (`HeapFill`: x264 reads memory it has not written; the GIF writer, which
// does not, runs unfilled), so that the same frames give the same bytes on
// every run and machine, whatever else the process is doing. The command
// line also keeps freed blocks of up to 32 MiB in the process (`HeapReuse`),
// so a frame reuses the memory of the frame before instead of faulting in
// fresh pages; that changes no byte, only the time.
//
// Loading. libswscale and libavutil are linked; libavcodec, libavformat and
// libavfilter, with the ~130 libraries Debian's builds of them need, are
// opened where a decode, an encode or a filter graph (a dithered GIF's)
// first needs them (`FFmpegLibrary.require`), so commands that encode
// nothing start without them, a GIF without dithering needs none of them,
// and a library that cannot be opened fails only the jobs that need it.

import CFFmpeg
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// FFmpeg's own log, routed through transvid.
///
/// Media installs a log callback on first use. It prints what is at or above
/// the level (`.error` by default, so that x264's banners and statistics stay
/// quiet) to stderr, and it remembers the last error line per thread so that
/// a `MediaError` can say *why* FFmpeg failed ("inflate returned error -3")
/// where the return code alone only says "Generic error in an external library".
public enum MediaLog {
  /// FFmpeg log levels, quietest first.
  public enum Level: Sendable {
    case quiet, error, warning, info, verbose

    var ffmpegLevel: Int32 {
      switch self {
      case .quiet: AV_LOG_QUIET
      case .error: AV_LOG_ERROR
      case .warning: AV_LOG_WARNING
      case .info: AV_LOG_INFO
      case .verbose: AV_LOG_VERBOSE
      }
    }
  }

  /// Sets what FFmpeg prints to stderr (process-wide).
  public static func setLevel(_ level: Level) {
    setUp()
    av_log_set_level(level.ffmpegLevel)
  }

  /// Installs the callback once and forgets this thread's last error: call at
  /// the start of every public operation.
  package static func setUp() {
    _ = installed
    let thread = UInt(pthread_self())
    _ = lastErrors.withLock { $0.removeValue(forKey: thread) }
  }

  /// The last error FFmpeg logged on this thread since `setUp()`, without the
  /// `[codec @ 0x…]` prefix; clears it.
  static func takeLastError() -> String? {
    let thread = UInt(pthread_self())
    return lastErrors.withLock { $0.removeValue(forKey: thread) }
  }

  private static let lastErrors = Mutex<[UInt: String]>([:])

  private static let installed: Void = {
    // Fill the heap's blocks while codecs work (see HeapFill).
    HeapFill.setUp()
    av_log_set_level(AV_LOG_ERROR)
    av_log_set_callback { context, level, format, arguments in
      let printed = av_log_get_level()
      guard level <= max(printed, AV_LOG_ERROR), let arguments else { return }
      var buffer = [CChar](repeating: 0, count: 1024)
      var printPrefix: Int32 = 1
      av_log_format_line2(context, level, format, arguments, &buffer, 1024, &printPrefix)
      MediaLog.record(buffer, level: level, printed: printed)
    }
  }()

  /// Prints a formatted FFmpeg log line if its level is shown, and keeps it
  /// as this thread's last error if it is one.
  private static func record(_ buffer: [CChar], level: Int32, printed: Int32) {
    let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if level <= printed {
      var bytes = Array(line.utf8)
      _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
    guard level <= AV_LOG_ERROR else { return }
    var text = Substring(line)
    if text.hasPrefix("["), let end = text.firstRange(of: "] ") { text = text[end.upperBound...] }
    let message = text.trimmingCharacters(in: " \n")
    guard !message.isEmpty else { return }
    let thread = UInt(pthread_self())
    lastErrors.withLock { $0[thread] = message }
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in characters: String) -> String {
    var s = self
    while let c = s.first, characters.contains(c) { s.removeFirst() }
    while let c = s.last, characters.contains(c) { s.removeLast() }
    return String(s)
  }
}
