// Media: everything that touches FFmpeg. The only module that imports CFFmpeg;
// no FFmpeg type appears in its public API.
//
// Design
//
// Ownership. Every FFmpeg object has exactly one Swift owner, a final class
// (`Frame`, `Packet`, `CodecContext`, `Scaler`, and the format context held by
// `MP4Writer`/`VideoReader`) that frees it in `deinit` (`av_frame_free`,
// `av_packet_free`, `avcodec_free_context`, `sws_freeContext`,
// `avformat_free_context`/`avformat_close_input`). Pointers never escape the
// owner's lifetime: C calls go through `withUnsafe…` or the owner's `pointer`
// while the owner is alive. Packets handed to `av_interleaved_write_frame` are
// owned by the muxer from then on (it resets them), as in FFmpeg's mux.c.
// Errors are `MediaError` (operation + `av_strerror` text), thrown, never
// trapped: a corrupt file or a bad frame size is an error, not a crash.
//
// Atomic writes. Sinks (`MP4Writer`, `PNGWriter`) write to a temp file beside
// the target (`dir/.<name>.tmp-<pid>-<n>`, same file system) and `rename()` it
// onto the target only when everything succeeded. On any error, on
// `cancel()`, or when a writer is dropped unfinished, the temp file is removed;
// the target is either the complete new file or whatever was there before.
//
// Colour pipeline. Frames are premultiplied sRGB RGBA8 (`Raster.Bitmap`).
// MP4: the colour bytes go to swscale as they are (= composited over black;
// transvid's frames are opaque) → yuv420p with the BT.709 matrix, limited range
// (`sws_setColorspaceDetails` with `sws_getCoefficients(SWS_CS_ITU709)`), and
// the stream is tagged BT.709 primaries/transfer/matrix, tv range, which is how
// players interpret sRGB-ish video. Decoding reverses it: YUV → RGBA with the
// frame's own matrix and range (BT.709 when untagged for video, BT.601 for
// still images as JPEG/WebP define). Images: decode → swscale to straight RGBA
// → premultiply. PNG out: un-premultiply → straight RGBA → png encoder.
// swscale always runs with `SWS_BITEXACT | SWS_ACCURATE_RND`, the encoder with
// `AV_CODEC_FLAG_BITEXACT` and the muxer with `fflags +bitexact`, so that the
// same frames give the same bytes on every run and machine.

import CFFmpeg

/// How much FFmpeg's own logging prints to stderr.
///
/// Media sets `.error` on first use, so that x264's banners and statistics stay
/// quiet; the reasons for failures are in the thrown `MediaError` either way.
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

  /// Sets FFmpeg's log level (process-wide).
  public static func setLevel(_ level: Level) {
    setUp()
    av_log_set_level(level.ffmpegLevel)
  }

  /// Applies the default level once, before the first FFmpeg call.
  static func setUp() { _ = defaultLevel }

  private static let defaultLevel: Void = av_log_set_level(AV_LOG_ERROR)
}
