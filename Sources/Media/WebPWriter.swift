/// Encodes frames into an animated WebP (libwebp_anim, straight BGRA), lossy
/// at `quality` or lossless, looping forever or a given number of times.
/// Frame timestamps are the frames' own (`n/fps` s); libwebp's animation
/// encoder merges identical frames into one with a longer duration. A
/// `VideoWriter` that only chooses its `Encoding`.
///
/// Size: any, 1…16383 (WebP's limit).
public final class WebPWriter: VideoWriter {
  /// An animated WebP on a page is an animated `<img>`.
  public static let fileType = OutputFileType(fileExtension: "webp", mimeType: "image/webp", presentation: .animation)

  /// Opens the encoder and the temp file. `loop`: 0 loops forever, else how
  /// many times the animation plays.
  public init(
    path: String, width: Int, height: Int, fps: Int, quality: Int = 80, lossless: Bool = false, loop: Int = 0, fractional: Bool = false
  ) throws {
    let what = "WebP '\(path)'"
    let rate = VideoWriter.timing(fps, fractional: fractional)
    try VideoWriter.checkSize(width, height, what: what, maximum: 16383)
    try VideoWriter.checkRate(fps, what: what)
    guard (0...100).contains(quality) else { throw MediaError("open \(what)", "quality \(quality) is not in 0…100") }
    guard (0...65535).contains(loop) else { throw MediaError("open \(what)", "loop \(loop) is not in 0…65535") }
    try super.init(
      path: path, fps: fps,
      encoding: Encoding(
        container: "webp", codec: "libwebp_anim", pixelFormat: .bgra, width: width, height: height,
        timeBase: rate.timeBase, frameRate: rate.frames, frameRateDenominator: rate.denominator,
        codecOptions: [("lossless", lossless ? "1" : "0"), ("quality", "\(quality)")],
        muxerOptions: [("loop", "\(loop)")], what: what))
  }
}
