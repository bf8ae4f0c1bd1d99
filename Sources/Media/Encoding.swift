import CFFmpeg

/// One codec in one container: everything that differs between transvid's
/// encoded formats. `MuxedEncoder` runs FFmpeg's encode-and-mux loop for any
/// of them, so a format is this value plus what it does with its frames.
///
/// Examples (the next formats are the same shape):
///
///     MP4   container "mp4",  codec "libx264",      yuv420p,      1/fps, BT.709, movflags +faststart
///     GIF   container "gif",  codec "gif",          pal8,         1/100, loop, final_delay
///     WebM  container "webm", codec "libvpx-vp9",   yuv420p,      1/fps, BT.709, crf, bit rate 0
///     MOV   container "mov",  codec "prores_ks",    yuv422p10le,  1/fps, BT.709, profile hq
///     APNG  container "apng", codec "apng",         rgba,         1/fps, plays
struct Encoding {
  /// libavformat's muxer name.
  var container: String
  /// libavcodec's encoder name.
  var codec: String
  var pixelFormat: PixelFormat
  var width: Int, height: Int
  /// Time base of the encoder and the stream, as (numerator, denominator):
  /// `(1, fps)` for constant-rate video, `(1, 100)` for GIF's centiseconds.
  var timeBase: (num: Int, den: Int)
  /// The constant frame rate to tag; nil for formats timed per frame (GIF).
  var frameRate: Int?
  /// The rate is `frameRate / frameRateDenominator` (1001 for 59.94 = 60000/1001).
  var frameRateDenominator = 1
  /// Tag the stream BT.709 primaries, transfer and matrix, limited range —
  /// what the YUV converter writes.
  var taggedBT709 = false
  /// Tag the stream sRGB (BT.709 primaries, the sRGB transfer function):
  /// libavcodec's PNG encoders write it as sRGB, cHRM and gAMA chunks, as
  /// `PNGWriter` tags a poster.
  var taggedSRGB = false
  /// Encoder threads; 0 lets the encoder choose (1 is libavcodec's default).
  var threads = 1
  /// The encoder's target bit rate; nil keeps libavcodec's default.
  var bitRate: Int? = nil
  /// 1 or 2 for a pass of a two-pass encode (`TwoPass`), 0 for one pass.
  var pass = 0
  /// What the first pass returned, for the second (libvpx); nil otherwise.
  var statsIn: String? = nil
  /// The encoder's private options (`av_opt_set` on `priv_data`), in order.
  var codecOptions: [(name: String, value: String)] = []
  /// The muxer's options for `avformat_write_header`.
  var muxerOptions: [(name: String, value: String)] = []
  /// The part of each frame to show, its top left, when smaller than the
  /// frame (a QuickTime movie's `CleanAperture`); nil shows it whole.
  var cleanAperture: (width: Int, height: Int)? = nil

  /// What an error message calls the file: `MP4 'out/a.mp4'`.
  var what: String
}

/// The pixel formats transvid's encoders take, by FFmpeg's names.
enum PixelFormat: String, Sendable {
  /// 8-bit 4:2:0, opaque: H.264, VP9.
  case yuv420p
  /// 8-bit 4:2:0 with an alpha plane: VP9 with alpha.
  case yuva420p
  /// 10-bit 4:2:2, opaque: ProRes 422 HQ.
  case yuv422p10le
  /// 10-bit 4:4:4 with alpha: ProRes 4444.
  case yuva444p10le
  /// 8-bit palette: GIF.
  case pal8
  /// Packed 8-bit straight RGBA: PNG, APNG.
  case rgba

  /// Whether the format stores alpha.
  var hasAlpha: Bool {
    switch self {
    case .yuva420p, .yuva444p10le, .rgba: true
    case .yuv420p, .yuv422p10le, .pal8: false
    }
  }

  var ffmpeg: AVPixelFormat {
    switch self {
    case .yuv420p: AV_PIX_FMT_YUV420P
    case .yuva420p: AV_PIX_FMT_YUVA420P
    case .yuv422p10le: AV_PIX_FMT_YUV422P10LE
    case .yuva444p10le: AV_PIX_FMT_YUVA444P10LE
    case .pal8: AV_PIX_FMT_PAL8
    case .rgba: AV_PIX_FMT_RGBA
    }
  }
}
