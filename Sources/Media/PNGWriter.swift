import CFFmpeg
import Raster

/// Encodes `Bitmap`s as 8-bit RGBA PNG with libavcodec's `png` encoder.
///
/// Pixels are un-premultiplied to straight alpha first (PNG stores straight
/// alpha); fully transparent pixels become (0, 0, 0, 0). The file is tagged
/// sRGB, and its pixels square (pHYs 1:1: libavcodec writes the chunk from
/// the sample aspect ratio, always, and 0:1 when it is not set). Output is
/// deterministic: the encoder runs with `AV_CODEC_FLAG_BITEXACT` and
/// writes no time or software chunks.
public enum PNGWriter {
  /// Changes whenever the bytes written for the same bitmap change, so
  /// output caches keyed on it do not keep earlier files. 1: pHYs 1:1.
  public static let revision = 1

  /// A PNG of one frame stands for the clip: the video's poster.
  public static let fileType = OutputFileType(fileExtension: "png", mimeType: "image/png", presentation: .still)

  /// The PNG file's bytes.
  public static func encode(_ bitmap: Bitmap) throws -> [UInt8] {
    MediaLog.setUp()
    let operation = "encode \(bitmap.width)×\(bitmap.height) PNG"
    try FFmpegLibrary.codec.require()
    guard let encoder = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
      throw MediaError(operation, "this FFmpeg build has no PNG encoder")
    }
    let codec = try CodecContext(codec: encoder)
    let c = codec.pointer
    c.pointee.width = Int32(bitmap.width)
    c.pointee.height = Int32(bitmap.height)
    c.pointee.pix_fmt = AV_PIX_FMT_RGBA
    c.pointee.time_base = AVRational(num: 1, den: 1)
    c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    c.pointee.color_primaries = AVCOL_PRI_BT709
    c.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
    c.pointee.flags |= Int32(AV_CODEC_FLAG_BITEXACT)
    // Paeth/sub/up chosen per row: the smallest files for UI pictures.
    try check(av_opt_set(c.pointee.priv_data, "pred", "mixed", 0), operation)
    try check(avcodec_open2(c, encoder, nil), "\(operation): open encoder")

    let frame = try Frame(width: bitmap.width, height: bitmap.height, format: AV_PIX_FMT_RGBA)
    frame.pointer.pointee.color_primaries = AVCOL_PRI_BT709
    frame.pointer.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
    let stride = Int(frame.pointer.pointee.linesize.0)
    guard let rows = frame.pointer.pointee.data.0 else {
      throw MediaError(operation, "frame has no pixel buffer")
    }
    Alpha.unpremultiply(bitmap, into: rows, stride: stride)

    try check(avcodec_send_frame(c, frame.pointer), operation)
    try check(avcodec_send_frame(c, nil), operation)
    let packet = try Packet()
    var bytes: [UInt8] = []
    while true {
      let r = avcodec_receive_packet(c, packet.pointer)
      if r == cff_averror_eof() || r == cff_averror_eagain() { break }
      try check(r, operation)
      let p = packet.pointer.pointee
      bytes.append(contentsOf: UnsafeBufferPointer(start: p.data, count: Int(p.size)))
      av_packet_unref(packet.pointer)
    }
    guard !bytes.isEmpty else { throw MediaError(operation, "the encoder returned no data") }
    return bytes
  }

  /// Encodes `bitmap` and writes it to `path` atomically (temp file beside it,
  /// then `rename`); on failure `path` is left as it was.
  public static func write(_ bitmap: Bitmap, to path: String) throws {
    try Platform.writeAtomically(try encode(bitmap), to: path)
  }
}
