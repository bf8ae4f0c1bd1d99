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
/// constant frame rate, with `moov` before `mdat` (`+faststart`).
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
  /// The x264 presets `preset` accepts.
  public static let presets = [
    "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
    "veryslow", "placebo",
  ]

  /// Where the finished file goes.
  public let path: String
  /// Frame size in pixels.
  public let width: Int, height: Int
  /// Frames per second.
  public let fps: Int

  private let tempPath: String
  private var format: UnsafeMutablePointer<AVFormatContext>?
  private let codec: CodecContext
  private let stream: UnsafeMutablePointer<AVStream>
  private let frame: Frame
  private let packet: Packet
  private let scaler = Scaler()
  private var frameCount = 0
  private var isOpen = true

  /// Opens the encoder and the temp file.
  ///
  /// - Parameters:
  ///   - crf: x264 constant rate factor, 1 … 51 (lower is better); 18 is visually
  ///     lossless. 0 (lossless) is rejected: High profile cannot carry it.
  ///   - preset: one of `MP4Writer.presets`.
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
    guard Self.presets.contains(preset) else {
      throw MediaError(
        "open \(what)",
        "unknown x264 preset '\(preset)' (expected one of \(Self.presets.joined(separator: ", ")))")
    }
    guard threads >= 0 else { throw MediaError("open \(what)", "threads \(threads) is negative") }
    MediaLog.setUp()

    self.path = path
    self.width = width
    self.height = height
    self.fps = fps
    tempPath = Platform.temporaryPath(besides: path)

    // Muxer.
    var oc: UnsafeMutablePointer<AVFormatContext>?
    try check(avformat_alloc_output_context2(&oc, nil, "mp4", tempPath), "create mp4 muxer")
    let format = try allocated(oc, "create mp4 muxer")
    // From here on a failure must free `format` (and the temp file, once opened).
    var opened = false
    do {
      // Encoder.
      guard let encoder = avcodec_find_encoder_by_name("libx264") else {
        throw MediaError("open encoder libx264", "this FFmpeg build has no libx264 encoder")
      }
      let codec = try CodecContext(codec: encoder)
      let c = codec.pointer
      c.pointee.width = Int32(width)
      c.pointee.height = Int32(height)
      c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
      c.pointee.time_base = AVRational(num: 1, den: Int32(fps))
      c.pointee.framerate = AVRational(num: Int32(fps), den: 1)
      c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
      c.pointee.color_primaries = AVCOL_PRI_BT709
      c.pointee.color_trc = AVCOL_TRC_BT709
      c.pointee.colorspace = AVCOL_SPC_BT709
      c.pointee.color_range = AVCOL_RANGE_MPEG
      c.pointee.thread_count = Int32(threads)
      c.pointee.flags |= Int32(AV_CODEC_FLAG_BITEXACT)
      if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
        c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
      }
      try check(av_opt_set(c.pointee.priv_data, "profile", "high", 0), "set x264 profile high")
      try check(av_opt_set(c.pointee.priv_data, "preset", preset, 0), "set x264 preset \(preset)")
      try check(av_opt_set_double(c.pointee.priv_data, "crf", Double(crf), 0), "set x264 crf \(crf)")
      // x264's lookahead thread decides frame types from however many frames
      // are queued when it runs, so with frame threads the bytes depended on
      // timing. Without it the lookahead runs inside each encode call, on
      // exactly the frames submitted so far.
      try check(
        av_opt_set(c.pointee.priv_data, "x264-params", "sync-lookahead=0", 0), "set x264 sync-lookahead 0")
      try check(avcodec_open2(c, encoder, nil), "open encoder libx264")

      // Stream.
      let stream = try allocated(avformat_new_stream(format, nil), "add video stream")
      stream.pointee.time_base = c.pointee.time_base
      stream.pointee.avg_frame_rate = c.pointee.framerate
      try check(avcodec_parameters_from_context(stream.pointee.codecpar, c), "copy encoder parameters")

      // Output file and header.
      format.pointee.flags |= AVFMT_FLAG_BITEXACT
      try check(
        avio_open(&format.pointee.pb, tempPath, AVIO_FLAG_WRITE), "create temp file for \(what)")
      opened = true
      var options: OpaquePointer?
      defer { av_dict_free(&options) }
      av_dict_set(&options, "movflags", "+faststart", 0)
      try check(avformat_write_header(format, &options), "write mp4 header")

      self.codec = codec
      self.stream = stream
      self.frame = try Frame(width: width, height: height, format: AV_PIX_FMT_YUV420P)
      self.packet = try Packet()
      self.format = format
    } catch {
      if opened { avio_closep(&format.pointee.pb) }
      avformat_free_context(format)
      if opened { Platform.remove(tempPath) }
      throw error
    }
  }

  deinit { close(removingTemp: true) }

  /// Encodes one frame. It must be `width × height`.
  public func append(_ bitmap: Bitmap) throws {
    MediaLog.setUp()
    try guardOpen("append frame")
    do {
      guard bitmap.width == width, bitmap.height == height else {
        throw MediaError(
          "append frame \(frameCount) to MP4 '\(path)'",
          "frame is \(bitmap.width)×\(bitmap.height), expected \(width)×\(height)")
      }
      try check(av_frame_make_writable(frame.pointer), "make frame writable")
      try scaler.yuv(from: bitmap, into: frame)
      frame.pointer.pointee.pts = Int64(frameCount)
      try encode(frame)
      frameCount += 1
    } catch {
      close(removingTemp: true)
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
      guard yuv.width == width, yuv.height == height else {
        throw MediaError(
          "append frame \(frameCount) to MP4 '\(path)'",
          "frame is \(yuv.width)×\(yuv.height), expected \(width)×\(height)")
      }
      yuv.frame.pointer.pointee.pts = Int64(frameCount)
      try encode(yuv.frame)
      frameCount += 1
    } catch {
      close(removingTemp: true)
      throw error
    }
  }

  /// Flushes the encoder, writes the trailer (moving `moov` to the front) and
  /// renames the temp file onto `path`. At least one frame must have been appended.
  @discardableResult
  public func finish() throws -> MP4Summary {
    MediaLog.setUp()
    try guardOpen("finish")
    do {
      guard frameCount > 0 else { throw MediaError("finish MP4 '\(path)'", "no frames were appended") }
      try encode(nil)
      try check(av_write_trailer(format), "write mp4 trailer")
      if let format {
        try check(avio_closep(&format.pointee.pb), "close '\(tempPath)'")
      }
      close(removingTemp: false)
      try Platform.move(tempPath, to: path)
    } catch {
      close(removingTemp: true)
      // `close` does nothing once closed; the rename may have failed after it.
      Platform.remove(tempPath)
      throw error
    }
    return MP4Summary(
      frames: frameCount, duration: Double(frameCount) / Double(fps),
      bytes: Platform.fileSize(path) ?? 0)
  }

  /// Stops writing and removes the temp file; `path` is left as it was.
  /// Safe to call more than once, and after `finish()` (then it does nothing).
  public func cancel() {
    close(removingTemp: true)
  }

  /// Sends `frame` (or `nil` to flush) and writes every packet the encoder returns.
  private func encode(_ frame: Frame?) throws(MediaError) {
    let c = codec.pointer
    try check(avcodec_send_frame(c, frame?.pointer), "encode frame \(frameCount)")
    while true {
      let r = avcodec_receive_packet(c, packet.pointer)
      if r == cff_averror_eagain() || r == cff_averror_eof() { return }
      try check(r, "encode frame \(frameCount)")
      av_packet_rescale_ts(packet.pointer, c.pointee.time_base, stream.pointee.time_base)
      packet.pointer.pointee.stream_index = stream.pointee.index
      // Takes ownership of the packet's data and resets it.
      try check(av_interleaved_write_frame(format, packet.pointer), "write packet to '\(tempPath)'")
    }
  }

  private func guardOpen(_ operation: String) throws(MediaError) {
    guard isOpen else { throw MediaError("\(operation) MP4 '\(path)'", "the writer is already closed") }
  }

  /// Frees the muxer (closing the file if still open) and optionally the temp file.
  private func close(removingTemp: Bool) {
    guard isOpen else { return }
    isOpen = false
    if let format {
      if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
      avformat_free_context(format)
      self.format = nil
    }
    if removingTemp { Platform.remove(tempPath) }
  }
}
