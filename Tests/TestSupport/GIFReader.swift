import CFFmpeg
import Media
import Raster

/// Decodes a GIF file with libavformat/libavcodec into its images and their
/// delays, as a browser would show them (disposal and transparency applied by
/// FFmpeg's gif decoder). Test support only: what a written GIF shows.
public struct GIFReader {
  /// Each image as it appears on screen, RGBA (straight alpha), full size.
  public var frames: [Bitmap]
  /// The delay of each image in centiseconds, from the demuxer's packet
  /// durations (the graphic control extension's delay field).
  public var delays: [Int]

  /// Reads the whole file at `path`.
  public init(path: String) throws {
    MediaLog.setUp()
    var ic: UnsafeMutablePointer<AVFormatContext>?
    try check(avformat_open_input(&ic, path, nil, nil), "open GIF '\(path)'")
    defer { avformat_close_input(&ic) }
    let format = try allocated(ic, "open GIF '\(path)'")
    try check(avformat_find_stream_info(format, nil), "read stream info of '\(path)'")
    var decoder: UnsafePointer<AVCodec>?
    let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
    try check(index, "find a video stream in '\(path)'")
    let codecType = try allocated(decoder, "find a decoder for '\(path)'")
    let stream = try allocated(format.pointee.streams[Int(index)], "video stream")
    let codec = try CodecContext(codec: codecType)
    try check(avcodec_parameters_to_context(codec.pointer, stream.pointee.codecpar), "copy parameters")
    try check(avcodec_open2(codec.pointer, codecType, nil), "open decoder for '\(path)'")
    let timeBase = stream.pointee.time_base
    let packet = try Packet()
    let frame = try Frame()
    let scaler = Scaler()
    var frames: [Bitmap] = []
    var delays: [Int] = []

    func receive() throws {
      while true {
        let r = avcodec_receive_frame(codec.pointer, frame.pointer)
        if r == cff_averror_eagain() || r == cff_averror_eof() { return }
        try check(r, "decode '\(path)'")
        defer { av_frame_unref(frame.pointer) }
        frames.append(try scaler.rgba(from: frame, defaultMatrix: SWS_CS_ITU709))
      }
    }
    while true {
      let r = av_read_frame(format, packet.pointer)
      if r == cff_averror_eof() { break }
      try check(r, "read packet from '\(path)'")
      defer { av_packet_unref(packet.pointer) }
      guard packet.pointer.pointee.stream_index == index else { continue }
      let d = av_rescale_q(packet.pointer.pointee.duration, timeBase, AVRational(num: 1, den: 100))
      delays.append(Int(d))
      try check(avcodec_send_packet(codec.pointer, packet.pointer), "decode '\(path)'")
      try receive()
    }
    try check(avcodec_send_packet(codec.pointer, nil), "flush decoder of '\(path)'")
    try receive()
    self.frames = frames
    self.delays = delays
  }
}
