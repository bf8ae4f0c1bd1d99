import CFFmpeg
import Media
import Raster

/// Decodes the first video stream of a file into opaque RGBA `Bitmap`s.
///
/// YUV frames are converted with their own matrix and range tags (BT.709 when
/// untagged) to full-range RGB. Test support only (it ships in no product):
/// what an encoded file really shows, through Media's own decoder set-up.
public final class VideoReader {
  /// The file being read.
  public let path: String
  /// Frame size of the stream, in pixels.
  public let width: Int, height: Int
  /// Frame rate as a fraction (`avg_frame_rate`, or `r_frame_rate` if unset).
  public let frameRate: (numerator: Int, denominator: Int)
  /// Frames in the stream as the container declares them; 0 when unknown.
  public let frameCount: Int
  /// Codec name, e.g. `"h264"`.
  public let codecName: String

  private var format: UnsafeMutablePointer<AVFormatContext>?
  private let codec: CodecContext
  private let streamIndex: Int32
  private let frame: Frame
  private let packet: Packet
  private let scaler = Scaler()
  private var isDraining = false
  private var isFinished = false

  /// Frames per second (`frameRate` as a `Double`).
  public var fps: Double { Double(frameRate.numerator) / Double(frameRate.denominator) }

  /// Opens `path` and its video decoder.
  public init(path: String) throws {
    MediaLog.setUp()
    self.path = path
    var ic: UnsafeMutablePointer<AVFormatContext>?
    try check(avformat_open_input(&ic, path, nil, nil), "open video '\(path)'")
    let format = try allocated(ic, "open video '\(path)'")
    do {
      try check(avformat_find_stream_info(format, nil), "read stream info of '\(path)'")
      var decoder: UnsafePointer<AVCodec>?
      let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
      try check(index, "find a video stream in '\(path)'")
      let decoderCodec = try allocated(decoder, "find a video decoder for '\(path)'")
      let stream = try allocated(format.pointee.streams[Int(index)], "video stream")
      let codec = try CodecContext(codec: decoderCodec)
      try check(
        avcodec_parameters_to_context(codec.pointer, stream.pointee.codecpar),
        "copy stream parameters of '\(path)'")
      codec.pointer.pointee.thread_count = 1
      try check(avcodec_open2(codec.pointer, decoderCodec, nil), "open decoder for '\(path)'")

      var rate = stream.pointee.avg_frame_rate
      if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
      if rate.num <= 0 || rate.den <= 0 { rate = AVRational(num: 0, den: 1) }
      frameRate = (Int(rate.num), Int(rate.den))
      frameCount = Int(stream.pointee.nb_frames)
      width = Int(stream.pointee.codecpar.pointee.width)
      height = Int(stream.pointee.codecpar.pointee.height)
      codecName = String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
      self.codec = codec
      streamIndex = index
      frame = try Frame()
      packet = try Packet()
      self.format = format
    } catch {
      var f: UnsafeMutablePointer<AVFormatContext>? = format
      avformat_close_input(&f)
      throw error
    }
  }

  deinit { avformat_close_input(&format) }

  /// The next decoded frame, or `nil` after the last one.
  public func nextFrame() throws -> Bitmap? {
    MediaLog.setUp()
    let c = codec.pointer
    while !isFinished {
      let r = avcodec_receive_frame(c, frame.pointer)
      if r >= 0 {
        defer { av_frame_unref(frame.pointer) }
        return try scaler.rgba(from: frame, defaultMatrix: SWS_CS_ITU709)
      }
      if r == cff_averror_eof() {
        isFinished = true
        break
      }
      guard r == cff_averror_eagain() else { throw MediaError("decode '\(path)'", code: r) }
      try feed()
    }
    return nil
  }

  /// Every remaining frame.
  public func readAll() throws -> [Bitmap] {
    var frames: [Bitmap] = []
    while let f = try nextFrame() { frames.append(f) }
    return frames
  }

  /// Sends the next packet of the video stream, or the flush packet at the end.
  private func feed() throws(MediaError) {
    if isDraining { throw MediaError("decode '\(path)'", "decoder wants input after flush") }
    while true {
      let r = av_read_frame(format, packet.pointer)
      if r == cff_averror_eof() {
        isDraining = true
        try check(avcodec_send_packet(codec.pointer, nil), "flush decoder of '\(path)'")
        return
      }
      try check(r, "read packet from '\(path)'")
      defer { av_packet_unref(packet.pointer) }
      if packet.pointer.pointee.stream_index == streamIndex {
        try check(avcodec_send_packet(codec.pointer, packet.pointer), "decode '\(path)'")
        return
      }
    }
  }
}
