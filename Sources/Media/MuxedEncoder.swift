import CFFmpeg

/// An encoder feeding a muxer that writes one file — FFmpeg's
/// `doc/examples/mux.c` loop, once for every format: open the codec with the
/// `Encoding`'s settings, add the stream, write the header; per frame
/// `avcodec_send_frame`, then `avcodec_receive_packet` until it asks for more,
/// each packet rescaled from the codec's to the stream's time base and written
/// with `av_interleaved_write_frame`; at the end flush with a null frame and
/// write the trailer.
///
/// FFmpeg is given only local files: a name it is handed is a URL, whose
/// first component up to a ':' names a protocol (`out:1/demo.mp4` is
/// protocol `out`, which it lacks; `http:host:8765/demo.mp4` would be sent
/// to that host). The temp file goes to it as `file:<path>`, which its file
/// protocol strips, and the muxer, which opens the file again to move the
/// index to the front (`+faststart`), may open no other protocol.
///
/// The file is written to a temp file beside `path`; `finish()` renames it
/// onto `path`. An error, `cancel()` or dropping the encoder unfinished
/// removes the temp file and leaves `path` as it was. After an error the
/// encoder is closed and every later call throws.
///
/// Determinism: the encoder runs with `AV_CODEC_FLAG_BITEXACT` and the muxer
/// with `fflags +bitexact`, so the same frames and settings give the same bytes.
final class MuxedEncoder {
  let path: String
  let encoding: Encoding
  /// Packets written so far.
  private(set) var packets = 0
  /// After `finish()` of a first pass: the stats the encoder returned in
  /// memory (libvpx), for the second pass; nil for encoders that write a file.
  private(set) var statsOut: String?

  private let tempPath: String
  private var format: UnsafeMutablePointer<AVFormatContext>?
  private let codec: CodecContext
  private let stream: UnsafeMutablePointer<AVStream>
  private let packet: Packet

  /// Opens the encoder, the temp file and writes the container's header.
  init(path: String, encoding e: Encoding) throws(MediaError) {
    self.path = path
    self.encoding = e
    tempPath = Platform.temporaryPath(besides: path)
    try FFmpegLibrary.codec.require()
    try FFmpegLibrary.format.require()

    var oc: UnsafeMutablePointer<AVFormatContext>?
    let url = Self.fileURL(tempPath)
    try check(avformat_alloc_output_context2(&oc, nil, e.container, url), "create \(e.container) muxer")
    let format = try allocated(oc, "create \(e.container) muxer")
    // From here on a failure must free `format` (and the temp file, once opened).
    var opened = false
    do throws(MediaError) {
      guard let encoder = avcodec_find_encoder_by_name(e.codec) else {
        throw MediaError("open encoder \(e.codec)", "this FFmpeg build has no \(e.codec) encoder")
      }
      let codec = try CodecContext(codec: encoder)
      let c = codec.pointer
      c.pointee.width = Int32(e.width)
      c.pointee.height = Int32(e.height)
      c.pointee.pix_fmt = e.pixelFormat.ffmpeg
      c.pointee.time_base = AVRational(num: Int32(e.timeBase.num), den: Int32(e.timeBase.den))
      if let fps = e.frameRate {
        c.pointee.framerate = AVRational(num: Int32(fps), den: Int32(e.frameRateDenominator))
      }
      c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
      if e.taggedBT709 {
        c.pointee.color_primaries = AVCOL_PRI_BT709
        c.pointee.color_trc = AVCOL_TRC_BT709
        c.pointee.colorspace = AVCOL_SPC_BT709
        c.pointee.color_range = AVCOL_RANGE_MPEG
      }
      if e.taggedSRGB {
        c.pointee.color_primaries = AVCOL_PRI_BT709
        c.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
      }
      c.pointee.thread_count = Int32(e.threads)
      if let rate = e.bitRate { c.pointee.bit_rate = Int64(rate) }
      c.pointee.flags |= Int32(AV_CODEC_FLAG_BITEXACT)
      if e.pass == 1 { c.pointee.flags |= Int32(AV_CODEC_FLAG_PASS1) }
      if e.pass == 2 { c.pointee.flags |= Int32(AV_CODEC_FLAG_PASS2) }
      if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
        c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
      }
      for option in e.codecOptions {
        try check(
          av_opt_set(c.pointee.priv_data, option.name, option.value, 0),
          "set \(e.codec) \(option.name) \(option.value)")
      }
      // The encoder copies `stats_in` while it opens; the string is ours to free.
      let statsIn = e.statsIn.flatMap { av_strdup($0) }
      c.pointee.stats_in = statsIn
      defer {
        c.pointee.stats_in = nil
        av_free(statsIn)
      }
      try check(avcodec_open2(c, encoder, nil), "open encoder \(e.codec) for \(e.what)")

      let stream = try allocated(avformat_new_stream(format, nil), "add \(e.codec) stream")
      stream.pointee.time_base = c.pointee.time_base
      if e.frameRate != nil { stream.pointee.avg_frame_rate = c.pointee.framerate }
      try check(avcodec_parameters_from_context(stream.pointee.codecpar, c), "copy encoder parameters")

      format.pointee.flags |= AVFMT_FLAG_BITEXACT
      try check(av_opt_set(format, "protocol_whitelist", "file", 0), "restrict \(e.container) muxer to local files")
      // Created here as every file transvid writes is (FFmpeg's own open
      // is neither exclusive nor refuses a link); FFmpeg opens it to write.
      try Platform.createEmpty(tempPath, for: path)
      opened = true
      try check(avio_open(&format.pointee.pb, url, AVIO_FLAG_WRITE), "open temp file for \(e.what)")
      var options: OpaquePointer?
      defer { av_dict_free(&options) }
      for option in e.muxerOptions { av_dict_set(&options, option.name, option.value, 0) }
      try check(avformat_write_header(format, &options), "write \(e.container) header")

      self.codec = codec
      self.stream = stream
      self.packet = try Packet()
      self.format = format
    } catch {
      if format.pointee.pb != nil { _ = avio_closep(&format.pointee.pb) }
      avformat_free_context(format)
      if opened { Platform.remove(tempPath) }
      throw error
    }
  }

  deinit { close(removingTemp: true) }

  /// `path` as a URL FFmpeg opens as that local file, whatever its spelling.
  static func fileURL(_ path: String) -> String { "file:" + path }

  /// Whether the file is still being written (not finished, cancelled or failed).
  var isOpen: Bool { format != nil }

  /// Encodes `frame` (its `pts` in the encoding's time base) and writes every
  /// packet the encoder returns. On error the encoder closes.
  func encode(_ frame: Frame) throws(MediaError) {
    try guardOpen("encode frame")
    do throws(MediaError) { try send(frame) } catch {
      close(removingTemp: true)
      throw error
    }
  }

  /// Sets one of the muxer's own options (`final_delay`) after the header
  /// is written: for those it reads only at the trailer.
  func setMuxerOption(_ name: String, _ value: String) throws(MediaError) {
    try guardOpen("set \(name) of")
    guard let format else { return }
    try check(av_opt_set(format.pointee.priv_data, name, value, 0), "set \(encoding.container) muxer option \(name)=\(value)")
  }

  /// Flushes the encoder, writes the trailer and renames the temp file onto
  /// `path`; returns the file's size in bytes.
  func finish() throws(MediaError) -> Int {
    try guardOpen("finish")
    do throws(MediaError) {
      try send(nil)
      if encoding.pass == 1, let stats = codec.pointer.pointee.stats_out { statsOut = String(cString: stats) }
      // A first pass may return only stats (libvpx): its file is discarded.
      guard packets > 0 || encoding.pass == 1 else { throw MediaError("finish \(encoding.what)", "the encoder returned no packets") }
      try check(av_write_trailer(format), "write \(encoding.container) trailer to '\(tempPath)'")
      if let format { try check(avio_closep(&format.pointee.pb), "close '\(tempPath)'") }
      close(removingTemp: false)
      if let aperture = encoding.cleanAperture {
        try CleanAperture.write(
          width: aperture.width, height: aperture.height, codedWidth: encoding.width, codedHeight: encoding.height,
          into: tempPath)
      }
      try Platform.move(tempPath, to: path)
    } catch {
      close(removingTemp: true)
      // `close` does nothing once closed; the rename may have failed after it.
      Platform.remove(tempPath)
      throw error
    }
    return Platform.fileSize(path) ?? 0
  }

  /// Stops writing and removes the temp file; `path` is left as it was.
  /// Safe to call more than once, and after `finish()` (then it does nothing).
  func cancel() { close(removingTemp: true) }

  /// Sends `frame` (or `nil` to flush) and writes every packet the encoder returns.
  private func send(_ frame: Frame?) throws(MediaError) {
    let c = codec.pointer
    try check(avcodec_send_frame(c, frame?.pointer), "encode frame \(packets) of \(encoding.what)")
    while true {
      let r = avcodec_receive_packet(c, packet.pointer)
      if r == cff_averror_eagain() || r == cff_averror_eof() { return }
      try check(r, "encode frame of \(encoding.what)")
      av_packet_rescale_ts(packet.pointer, c.pointee.time_base, stream.pointee.time_base)
      packet.pointer.pointee.stream_index = stream.pointee.index
      // Takes ownership of the packet's data and resets it.
      try check(av_interleaved_write_frame(format, packet.pointer), "write packet to '\(tempPath)'")
      packets += 1
    }
  }

  private func guardOpen(_ operation: String) throws(MediaError) {
    guard isOpen else { throw MediaError("\(operation) \(encoding.what)", "the writer is already closed") }
  }

  /// Frees the muxer (closing the file if still open) and optionally the temp file.
  private func close(removingTemp: Bool) {
    guard let format else { return }
    if format.pointee.pb != nil { _ = avio_closep(&format.pointee.pb) }
    avformat_free_context(format)
    self.format = nil
    if removingTemp { Platform.remove(tempPath) }
  }
}
