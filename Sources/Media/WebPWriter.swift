import CWebP
import Raster

/// Encodes frames into an animated WebP, lossy at `quality` or lossless,
/// looping forever or a given number of times: each picture encoded by
/// libwebp (`WebPEncode`) and the animation assembled by libwebpmux.
///
/// Every change reaches the file. A picture is the rectangle of the frame
/// that differs in any byte from the frame before (its offsets made even,
/// as WebP stores them), replacing what was there (no blending); a frame
/// equal to the one before lengthens the picture on display. In lossy mode
/// the rectangle also takes in the pixels at rest that an earlier picture,
/// encoded while something near them moved, left visibly off
/// (`WebPDisplay`), so a screen at rest shows as it was drawn, the last
/// frame's included. libwebp's own
/// animation encoder (`WebPAnimEncoder`, which FFmpeg's `libwebp_anim`
/// wraps) is not used: in lossy mode it takes pixels within a
/// quality-dependent distance of the frame before as unchanged and drops
/// frames whose every pixel is, measuring each frame against the one before
/// it rather than what is on display, so a slow fade never arrives (its end
/// state was 4 levels off on average at quality 80, 18 at 50, ghosts of the
/// old screen showing).
///
/// The file embeds the sRGB profile (`ColorProfile.sRGB`, an ICCP chunk),
/// as the poster PNG and the APNG are tagged sRGB, so a browser that
/// colour-manages only tagged images shows them alike.
///
/// Frames are straight RGBA with the edge colours spread into fully
/// transparent pixels (`Alpha.bleed`: lossy WebP is 4:2:0 inside). A
/// picture's duration is its frames' span in whole milliseconds, rounded
/// at each frame's time (`n/fps` s), so the durations sum to the clip's.
/// A picture may be written as more than one frame of the file (a lone
/// picture as two, a hold past 24 bits of milliseconds in parts, see
/// `assembled()`): `finish()` counts the file's frames, as a decoder does.
///
/// Size: any, 1…16383 (WebP's limit).
public final class WebPWriter: FrameSink {
  /// An animated WebP on a page is an animated `<img>`.
  public static let fileType = OutputFileType(fileExtension: "webp", mimeType: "image/webp", presentation: .animation)

  public let path: String
  public let width: Int, height: Int
  public var mergesHolds: Bool { true }
  /// The last picture lasts to the clip's end (its timestamps).
  public var endsOnHold: Bool { true }

  private let what: String
  private let rate: (timeBase: (num: Int, den: Int), frames: Int, denominator: Int)
  private let quality: Int, lossless: Bool, loop: Int
  /// The last frame appended and the one being appended, straight RGBA.
  private var previous: [UInt8], current: [UInt8]
  /// The encoded pictures: their bitstream, rectangle and first frame.
  private var pictures: [(data: [UInt8], x: Int, y: Int, width: Int, height: Int, start: Int)] = []
  /// Lossy only: what a decoder shows, to encode again the pixels at rest
  /// that a picture left off (`WebPDisplay`).
  private var display: WebPDisplay?
  private var frameCount = 0
  private var isDone = false

  /// Checks the settings. `loop`: 0 loops forever, else how many times
  /// the animation plays. `fractional`: the rate is `fps × 1000/1001`.
  public init(
    path: String, width: Int, height: Int, fps: Int, quality: Int = 80, lossless: Bool = false, loop: Int = 0,
    fractional: Bool = false
  ) throws {
    let what = "WebP '\(path)'"
    try VideoWriter.checkSize(width, height, what: what, maximum: 16383)
    try VideoWriter.checkRate(fps, what: what)
    guard (0...100).contains(quality) else { throw MediaError("open \(what)", "quality \(quality) is not in 0…100") }
    guard (0...65535).contains(loop) else { throw MediaError("open \(what)", "loop \(loop) is not in 0…65535") }
    self.path = path
    self.width = width
    self.height = height
    self.what = what
    self.quality = quality
    self.lossless = lossless
    self.loop = loop
    rate = VideoWriter.timing(fps, fractional: fractional)
    previous = [UInt8](repeating: 0, count: width * height * 4)
    current = previous
    if !lossless { display = WebPDisplay(width: width, height: height) }
  }

  /// Encodes the part of `bitmap` that differs from the frame before (all
  /// of the first); a frame equal to the one before is a `hold()`.
  public func append(_ bitmap: Bitmap) throws {
    try guardOpen("append frame")
    guard bitmap.width == width, bitmap.height == height else {
      throw MediaError(
        "append frame \(frameCount) to \(what)", "frame is \(bitmap.width)×\(bitmap.height), expected \(width)×\(height)")
    }
    current.withUnsafeMutableBufferPointer { Alpha.straightBled(bitmap, into: $0.baseAddress!) }
    var changed = frameCount == 0 ? (x: 0, y: 0, width: width, height: height) : changedRectangle()
    if frameCount > 0, display != nil {
      if changed != nil { display!.noteChanges(from: previous, to: current, frame: frameCount) }
      if let stale = display!.staleRectangle(of: current, frame: frameCount) {
        changed = changed.map { Self.union($0, stale) } ?? stale
      }
    }
    guard let changed else { return try hold() }
    try addPicture(changed, at: frameCount)
    frameCount += 1
    swap(&previous, &current)
  }

  /// Keeps the picture on display one frame longer; in lossy mode, encodes
  /// again the pixels of it at rest that are shown off (`WebPDisplay`).
  public func hold() throws {
    try guardOpen("hold frame")
    guard frameCount > 0 else { throw MediaError("hold frame of \(what)", "no picture is on display yet") }
    if let stale = display?.staleRectangle(of: previous, frame: frameCount) {
      // The frame on display is the one appended last.
      swap(&previous, &current)
      defer { swap(&previous, &current) }
      try addPicture(stale, at: frameCount)
    }
    frameCount += 1
  }

  /// Encodes `rectangle` of `current` as the picture starting at `frame`.
  private func addPicture(_ rectangle: (x: Int, y: Int, width: Int, height: Int), at frame: Int) throws {
    // WebP stores frame offsets halved: an odd edge takes one more column or row.
    let x = rectangle.x & ~1, y = rectangle.y & ~1
    let w = rectangle.width + rectangle.x - x, h = rectangle.height + rectangle.y - y
    let data = try encode(x: x, y: y, width: w, height: h)
    try display?.show(data, x: x, y: y, width: w, height: h, frame: frame)
    pictures.append((data, x, y, w, h, frame))
  }

  /// In lossy mode, encodes the last frame's pixels at rest that are shown
  /// off (`WebPDisplay`) with that frame's own picture: the last frame is
  /// what the WebP shows once it ends, for good when it does not loop, and
  /// no hold follows it to encode them again.
  private func refineLastFrame() throws {
    guard let stale = display?.staleRectangle(of: previous, frame: frameCount) else { return }
    let last = frameCount - 1
    var rectangle = stale
    if let picture = pictures.last, picture.start == last {
      rectangle = Self.union(rectangle, (picture.x, picture.y, picture.width, picture.height))
      pictures.removeLast()
    }
    // The last frame appended is `previous`; `encode` reads `current`.
    swap(&previous, &current)
    defer { swap(&previous, &current) }
    try addPicture(rectangle, at: last)
  }

  /// Assembles the animation and writes it to `path` atomically.
  @discardableResult
  public func finish() throws -> VideoSummary {
    try guardOpen("finish")
    isDone = true
    guard frameCount > 0 else { throw MediaError("finish \(what)", "no frames were appended") }
    try refineLastFrame()
    let (bytes, frames) = try assembled()
    try Platform.writeAtomically(bytes, to: path)
    let duration = Double(frameCount) * Double(rate.denominator) / Double(rate.frames)
    return VideoSummary(frames: frames, duration: duration, bytes: bytes.count)
  }

  /// Stops writing; `path` is left as it was (nothing is written before `finish`).
  public func cancel() {
    isDone = true
    pictures = []
  }

  /// The longest duration one frame can carry: 24 bits of milliseconds.
  public static let longestDuration = 0xFF_FFFF

  private func guardOpen(_ action: String) throws(MediaError) {
    if isDone { throw MediaError("\(action) of \(what)", "the writer is finished or cancelled") }
  }

  /// The smallest rectangle holding every pixel of `current` that differs
  /// from `previous`, or nil when none does.
  private func changedRectangle() -> (x: Int, y: Int, width: Int, height: Int)? {
    let rowBytes = width * 4
    return previous.withUnsafeBytes { a in
      current.withUnsafeBytes { b in
        func rowDiffers(_ y: Int) -> Bool { memcmp(a.baseAddress! + y * rowBytes, b.baseAddress! + y * rowBytes, rowBytes) != 0 }
        guard let top = (0..<height).first(where: rowDiffers) else { return nil }
        let bottom = (top..<height).last(where: rowDiffers)!
        // Row by row, each row read only outside the columns found so far.
        let pa = a.bindMemory(to: UInt32.self).baseAddress!, pb = b.bindMemory(to: UInt32.self).baseAddress!
        var left = width, right = -1
        for y in top...bottom {
          let ra = pa + y * width, rb = pb + y * width
          var x = 0
          while x < left && ra[x] == rb[x] { x += 1 }
          left = x
          var r = width - 1
          while r > right && ra[r] == rb[r] { r -= 1 }
          right = r
        }
        return (left, top, right - left + 1, bottom - top + 1)
      }
    }
  }

  /// The smallest rectangle holding both.
  private static func union(
    _ a: (x: Int, y: Int, width: Int, height: Int), _ b: (x: Int, y: Int, width: Int, height: Int)
  ) -> (x: Int, y: Int, width: Int, height: Int) {
    let x = min(a.x, b.x), y = min(a.y, b.y)
    return (x, y, max(a.x + a.width, b.x + b.width) - x, max(a.y + a.height, b.y + b.height) - y)
  }

  /// The rectangle of `current` as one WebP bitstream (VP8 or VP8L).
  private func encode(x: Int, y: Int, width w: Int, height h: Int) throws(MediaError) -> [UInt8] {
    var config = WebPConfig()
    guard WebPConfigInit(&config) != 0 else { throw MediaError("encode \(what)", "libwebp's configuration failed") }
    config.lossless = lossless ? 1 : 0
    config.quality = Float(quality)
    var picture = WebPPicture()
    guard WebPPictureInit(&picture) != 0 else { throw MediaError("encode \(what)", "libwebp's picture failed") }
    defer { WebPPictureFree(&picture) }
    picture.use_argb = 1
    picture.width = Int32(w)
    picture.height = Int32(h)
    let imported = current.withUnsafeBufferPointer { pixels in
      WebPPictureImportRGBA(&picture, pixels.baseAddress! + (y * width + x) * 4, Int32(width * 4))
    }
    guard imported != 0 else { throw MediaError("encode \(what)", "out of memory for a \(w)×\(h) picture") }
    var memory = WebPMemoryWriter()
    WebPMemoryWriterInit(&memory)
    defer { WebPMemoryWriterClear(&memory) }
    let encoded = withUnsafeMutablePointer(to: &memory) { writer in
      picture.writer = WebPMemoryWrite
      picture.custom_ptr = UnsafeMutableRawPointer(writer)
      return WebPEncode(&config, &picture)
    }
    guard encoded != 0, let bytes = memory.mem else {
      throw MediaError("encode \(what)", "libwebp error \(picture.error_code.rawValue) on frame \(frameCount)")
    }
    return Array(UnsafeBufferPointer(start: bytes, count: memory.size))
  }

  /// The pictures as one animated WebP (libwebpmux): each replaces its
  /// rectangle and stays until the next; loop count and canvas size. Returns
  /// the file and its frames (ANMF chunks), as a decoder counts them.
  private func assembled() throws(MediaError) -> (bytes: [UInt8], frames: Int) {
    guard let mux = WebPMuxNew() else { throw MediaError("finish \(what)", "libwebpmux's mux failed") }
    defer { WebPMuxDelete(mux) }
    /// Frame `n`'s time in whole milliseconds (rounded).
    func milliseconds(_ n: Int) -> Int {
      let numerator = n * 1000 * rate.denominator
      return (numerator + rate.frames / 2) / rate.frames
    }
    // Each picture's frames: its duration in parts of at most 24 bits of
    // milliseconds (WebP's field), and in two parts for a lone picture, which
    // libwebpmux would otherwise write as a still without its length and
    // loop count. A copy drawn again over what it left changes nothing.
    var frames = 0
    for (k, picture) in pictures.enumerated() {
      let end = k + 1 < pictures.count ? pictures[k + 1].start : frameCount
      var rest = max(1, milliseconds(end) - milliseconds(picture.start))
      var parts: [Int] = []
      while rest > Self.longestDuration {
        parts.append(Self.longestDuration)
        rest -= Self.longestDuration
      }
      parts.append(rest)
      if pictures.count == 1 && frameCount > 1 && parts.count == 1 && rest > 1 { parts = [rest / 2, rest - rest / 2] }
      for duration in parts {
        let status = picture.data.withUnsafeBufferPointer { data in
          var info = WebPMuxFrameInfo()
          info.bitstream = WebPData(bytes: data.baseAddress, size: data.count)
          info.x_offset = Int32(picture.x)
          info.y_offset = Int32(picture.y)
          info.duration = Int32(duration)
          info.id = WEBP_CHUNK_ANMF
          info.dispose_method = WEBP_MUX_DISPOSE_NONE
          info.blend_method = WEBP_MUX_NO_BLEND
          return WebPMuxPushFrame(mux, &info, 1)
        }
        guard status == WEBP_MUX_OK else { throw MediaError("finish \(what)", "libwebpmux error \(status.rawValue)") }
        frames += 1
      }
    }
    var params = WebPMuxAnimParams(bgcolor: 0xFFFF_FFFF, loop_count: Int32(loop))
    guard WebPMuxSetAnimationParams(mux, &params) == WEBP_MUX_OK,
      WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)) == WEBP_MUX_OK
    else { throw MediaError("finish \(what)", "libwebpmux refused the animation's settings") }
    let tagged = ColorProfile.sRGB.withUnsafeBufferPointer { profile in
      var chunk = WebPData(bytes: profile.baseAddress, size: profile.count)
      return profile.isEmpty || WebPMuxSetChunk(mux, "ICCP", &chunk, 1) == WEBP_MUX_OK
    }
    guard tagged else { throw MediaError("finish \(what)", "libwebpmux refused the sRGB profile") }
    var output = WebPData()
    guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else {
      throw MediaError("finish \(what)", "libwebpmux could not assemble the file")
    }
    defer { WebPDataClear(&output) }
    return (Array(UnsafeBufferPointer(start: bytes, count: output.size)), frames)
  }
}
