/// Encodes frames into a VP9 (libvpx-vp9, yuv420p, BT.709 limited range)
/// WebM at a constant frame rate, in constant-quality mode (`crf`, no
/// bitrate target): a `VideoWriter`, like `MP4Writer`, that only chooses
/// its `Encoding`.
///
/// Alpha: with `alpha`, yuva420p — libvpx encodes the alpha plane as a
/// second VP9 stream that WebM carries beside the colour (browsers and
/// FFmpeg's libvpx-vp9 decoder show it; FFmpeg's native vp9 decoder drops it).
///
/// Size: yuv420p needs even width and height; the caller crops or pads.
///
/// Determinism: bit-exact muxer and encoder flags (`MuxedEncoder`) and a
/// thread count fixed by the caller, as for the MP4; two renders of a job
/// give the same bytes (`WebFormatOutputTests`). Whether other thread counts
/// give the same bytes is not established, so callers fix it.
public final class WebMWriter: VideoWriter {
  /// A WebM on a page is a `<video>` source, listed before an MP4 fallback.
  public static let fileType = OutputFileType(fileExtension: "webm", mimeType: "video/webm", presentation: .video)

  /// Opens the encoder and the temp file.
  ///
  /// - Parameters:
  ///   - crf: VP9 quality, 0 … 63 (lower is better).
  ///   - speed: libvpx `cpu-used`, 0 … 5 (higher is faster and larger).
  ///   - threads: encoder threads.
  ///   - alpha: keep the frames' alpha (yuva420p).
  ///   - twoPass: one pass of an average-bit-rate encode instead of `crf`;
  ///     pass 1 writes no video (its file holds only the header) and leaves
  ///     its stats in `passStats`, which pass 2 takes as `stats`.
  public init(
    path: String, width: Int, height: Int, fps: Int, crf: Int = 31, speed: Int = 2, threads: Int = 4,
    alpha: Bool = false, twoPass: TwoPass? = nil, fractional: Bool = false
  ) throws {
    let what = "WebM '\(path)'"
    let rate = VideoWriter.timing(fps, fractional: fractional)
    try VideoWriter.checkEvenSize(width, height, codec: "VP9", what: what)
    try VideoWriter.checkRate(fps, what: what)
    guard (0...63).contains(crf) else { throw MediaError("open \(what)", "crf \(crf) is not in 0…63") }
    guard (0...5).contains(speed) else { throw MediaError("open \(what)", "speed \(speed) is not in 0…5") }
    guard threads >= 0 else { throw MediaError("open \(what)", "threads \(threads) is negative") }
    if let twoPass {
      guard (1...2).contains(twoPass.pass), twoPass.bitRate > 0, (twoPass.pass == 2) == (twoPass.stats != nil) else {
        throw MediaError("open \(what)", "a two-pass encode needs pass 1 or 2, a positive bit rate, and pass 1's stats in pass 2")
      }
    }
    let quality: [(name: String, value: String)] = twoPass == nil ? [("crf", "\(crf)")] : []
    try super.init(
      path: path, fps: fps,
      encoding: Encoding(
        container: "webm", codec: "libvpx-vp9", pixelFormat: alpha ? .yuva420p : .yuv420p, width: width, height: height,
        timeBase: rate.timeBase, frameRate: rate.frames, frameRateDenominator: rate.denominator, taggedBT709: true, threads: threads,
        // Bit rate 0 with a crf is libvpx's constant-quality mode (libavcodec's
        // default bit rate would make it constrained quality at 200 kb/s).
        bitRate: twoPass?.bitRate ?? 0, pass: twoPass?.pass ?? 0, statsIn: twoPass?.stats,
        codecOptions: quality + [("deadline", "good"), ("cpu-used", "\(speed)")],
        what: what))
  }
}
