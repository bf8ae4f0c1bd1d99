import CFFmpeg
import Raster

/// What `VideoWriter.finish()` produced.
public struct VideoSummary: Hashable, Sendable {
  /// Pictures in the file, as a decoder counts them: a frame held by a
  /// longer delay (APNG, WebP, a variable-rate video) is none.
  public var frames: Int
  /// Duration in seconds: the frames shown, pictures and holds, `/ fps`.
  public var duration: Double
  /// Size of the file in bytes.
  public var bytes: Int

  public init(frames: Int, duration: Double, bytes: Int) {
    self.frames = frames
    self.duration = duration
    self.bytes = bytes
  }
}

/// A constant-frame-rate video: frames in, one file out, through
/// `MuxedEncoder`. A format is a subclass that only chooses the `Encoding`
/// (`MP4Writer`: libx264 yuv420p in mp4); everything else is here.
///
/// Frame `n` gets pts `n` in a time base of `1/fps` (of 1001/(fps × 1000)
/// for the NTSC rates, `fractional: true` in every writer's init). The file is written to a
/// temp file beside `path` and renamed onto `path` by `finish()`; an error,
/// `cancel()` or dropping the writer unfinished removes the temp file and
/// leaves whatever was at `path` untouched. After an error the writer is
/// closed and every later call throws.
///
/// Frames are premultiplied RGBA converted by swscale to the encoding's YUV
/// pixel format with the BT.709 matrix, limited range (`Scaler.yuv`), copied
/// as straight RGBA for APNG, or
/// converted elsewhere (`YUVFrame`, by a `YUVConverter` on a worker thread).
/// For a YUV format with alpha (VP9 yuva420p, ProRes 4444) the frame is made
/// straight first, with the colours of its edges spread into its fully
/// transparent pixels (`Alpha.bleed`), since those encoders store straight
/// colour and mix neighbours.
public class VideoWriter {
  /// Where the finished file goes.
  public let path: String
  /// Frame size in pixels.
  public let width: Int, height: Int
  /// Frames per second (the whole number; see `fractional`).
  public let fps: Int
  /// Whether the rate is `fps × 1000/1001` (59.94 = 60000/1001): frame `n`
  /// then has pts `n` in a time base of 1001/(fps × 1000).
  public let fractional: Bool

  private let encoder: MuxedEncoder
  private let frame: Frame
  private let scaler = Scaler()
  private var frameCount = 0
  /// Frames that are pictures (`frameCount` less the holds).
  private var pictureCount = 0
  /// Frames held (`hold()`) since the last picture.
  private var heldFrames = 0
  /// The straight-alpha copy of a frame, for YUV formats with alpha.
  private var straight: Bitmap?

  /// Opens the encoder and the temp file. `encoding` sets the size; its
  /// time base must be `1/fps`.
  init(path: String, fps: Int, encoding: Encoding) throws(MediaError) {
    MediaLog.setUp()
    self.path = path
    self.width = encoding.width
    self.height = encoding.height
    self.fps = fps
    self.fractional = encoding.frameRateDenominator == 1001
    encoder = try MuxedEncoder(path: path, encoding: encoding)
    frame = try Frame(width: width, height: height, format: encoding.pixelFormat.ffmpeg)
    if encoding.taggedBT709 {
      // Encoders that write colour into each frame (ProRes) read the frame's tags.
      frame.pointer.pointee.color_primaries = AVCOL_PRI_BT709
      frame.pointer.pointee.color_trc = AVCOL_TRC_BT709
      frame.pointer.pointee.colorspace = AVCOL_SPC_BT709
      frame.pointer.pointee.color_range = AVCOL_RANGE_MPEG
    }
    if encoding.taggedSRGB {
      // The PNG encoders write their colour chunks from the frame's tags.
      frame.pointer.pointee.color_primaries = AVCOL_PRI_BT709
      frame.pointer.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
    }
  }

  /// Encodes one frame. It must be `width × height`.
  public func append(_ bitmap: Bitmap) throws {
    MediaLog.setUp()
    try guardOpen("append frame")
    do {
      try checkSize(bitmap.width, bitmap.height)
      try check(av_frame_make_writable(frame.pointer), "make frame writable")
      let format = encoder.encoding.pixelFormat
      if format == .rgba {
        Alpha.unpremultiply(bitmap, into: frame.pointer.pointee.data.0!, stride: Int(frame.pointer.pointee.linesize.0))
      } else if format.hasAlpha {
        try scaler.yuv(from: straightBled(bitmap), into: frame)
      } else {
        try scaler.yuv(from: bitmap, into: frame)
      }
      try encode(frame)
    } catch {
      encoder.cancel()
      throw error
    }
  }

  /// Encodes a frame converted elsewhere (by a `YUVConverter`, typically on
  /// a worker thread). It must be `width × height`. The same frame may be
  /// appended again for a frame that shows the same picture (a hold): the
  /// encoder copies the pixels in, so nothing holds on to the frame after
  /// this returns, and the caller may convert the next picture into it.
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

  /// Whether pictures carry their own delays (APNG), so a hold is better
  /// written as a longer delay (`hold()`) than as a repeated picture.
  public var mergesHolds: Bool { false }

  /// Whether the clip may end on a hold: the last picture then stays on
  /// display to the clip's end (APNG's final delay). Elsewhere the last
  /// frame must be a picture, or the file would end early.
  public var endsOnHold: Bool { false }

  /// Keeps the picture on display one frame longer without encoding
  /// another: the next picture's pts is one frame later. After `append`.
  public func hold() throws {
    MediaLog.setUp()
    try guardOpen("hold frame")
    guard frameCount > 0 else {
      encoder.cancel()
      throw MediaError("hold frame of \(encoder.encoding.what)", "no picture is on display yet")
    }
    frameCount += 1
    heldFrames += 1
  }

  /// Flushes the encoder, writes the trailer and renames the temp file onto
  /// `path`. At least one frame must have been appended.
  @discardableResult
  public func finish() throws -> VideoSummary {
    MediaLog.setUp()
    try guardOpen("finish")
    guard frameCount > 0 else {
      encoder.cancel()
      throw MediaError("finish \(encoder.encoding.what)", "no frames were appended")
    }
    let rate = Self.timing(fps, fractional: fractional)
    if heldFrames > 0, endsOnHold {
      // The last picture's delay: itself and the frames held after it.
      var num: Int32 = 0, den: Int32 = 0
      av_reduce(&num, &den, Int64((heldFrames + 1) * rate.timeBase.num), Int64(rate.timeBase.den), 65535)
      do { try encoder.setMuxerOption("final_delay", "\(num)/\(den)") } catch {
        encoder.cancel()
        throw error
      }
    }
    let bytes = try encoder.finish()
    let duration = Double(frameCount) * Double(rate.denominator) / Double(rate.frames)
    return VideoSummary(frames: pictureCount, duration: duration, bytes: bytes)
  }

  /// After `finish()` of the first pass of a two-pass encode, the stats an
  /// encoder returns in memory (libvpx) for the second; nil otherwise.
  public var passStats: String? { encoder.statsOut }

  /// Stops writing and removes the temp file; `path` is left as it was.
  /// Safe to call more than once, and after `finish()` (then it does nothing).
  public func cancel() {
    encoder.cancel()
  }

  /// `bitmap` as straight RGBA with its edge colours spread into its fully
  /// transparent pixels (`Alpha.bleed`); alpha as it is.
  private func straightBled(_ bitmap: Bitmap) -> Bitmap {
    var out = straight ?? Bitmap(width: width, height: height)
    straight = nil  // Keeps `out`'s storage unshared, so it is written in place.
    out.bytes.withUnsafeMutableBufferPointer { Alpha.straightBled(bitmap, into: $0.baseAddress!) }
    straight = out
    return out
  }

  /// The time base and tagged rate of `fps` frames a second, or of
  /// `fps × 1000/1001` when `fractional`: (1, 60) and 60/1, or (1001, 60000)
  /// and 60000/1001.
  static func timing(_ fps: Int, fractional: Bool) -> (timeBase: (num: Int, den: Int), frames: Int, denominator: Int) {
    if fractional { return (timeBase: (num: 1001, den: fps * 1000), frames: fps * 1000, denominator: 1001) }
    return (timeBase: (num: 1, den: fps), frames: fps, denominator: 1)
  }

  /// Throws unless `fps` is in 1…1000.
  static func checkRate(_ fps: Int, what: String) throws(MediaError) {
    guard fps > 0, fps <= 1000 else { throw MediaError("open \(what)", "fps \(fps) is not in 1…1000") }
  }

  /// Throws unless `width × height` is within 1…`maximum` each way.
  static func checkSize(_ width: Int, _ height: Int, what: String, maximum: Int = 16384) throws(MediaError) {
    guard (1...maximum).contains(width), (1...maximum).contains(height) else {
      throw MediaError("open \(what)", "frame size \(width)×\(height) is not in 1…\(maximum) each way")
    }
  }

  /// Throws unless `width × height` is even each way, 2…16384 (4:2:0 and 4:2:2).
  static func checkEvenSize(_ width: Int, _ height: Int, codec: String, what: String) throws(MediaError) {
    guard width > 0, height > 0, width % 2 == 0, height % 2 == 0, width <= 16384, height <= 16384 else {
      throw MediaError(
        "open \(what)",
        "frame size \(width)×\(height) is not supported: \(codec) needs even width and height (2…16384)")
    }
  }

  /// Stamps `frame` with the next pts and encodes it.
  private func encode(_ frame: Frame) throws(MediaError) {
    frame.pointer.pointee.pts = Int64(frameCount)
    try encoder.encode(frame)
    frameCount += 1
    pictureCount += 1
    heldFrames = 0
  }

  private func checkSize(_ w: Int, _ h: Int) throws(MediaError) {
    guard w == width, h == height else {
      throw MediaError(
        "append frame \(frameCount) to \(encoder.encoding.what)", "frame is \(w)×\(h), expected \(width)×\(height)")
    }
  }

  private func guardOpen(_ operation: String) throws(MediaError) {
    guard encoder.isOpen else {
      throw MediaError("\(operation) \(encoder.encoding.what)", "the writer is already closed")
    }
  }
}
