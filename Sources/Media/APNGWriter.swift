/// Encodes frames into an animated PNG (libavcodec's apng encoder, straight
/// RGBA, lossless) that loops forever or a given number of times, tagged
/// sRGB as the poster PNG is (sRGB, cHRM and gAMA chunks), so a viewer that
/// colour-manages only tagged images shows the two alike. Holds are merged
/// as in the GIF (`mergesHolds`): a picture's delay is its pts gap, whole frames of `1/fps` s, exact where the fraction fits APNG's
/// 16-bit numerator and denominator, else the nearest that does (the
/// muxer's, and `finish`'s, `av_reduce` to 65535; at an NTSC rate a
/// picture of more than 65 frames may not fit), and
/// the last picture's runs to the clip's end (`final_delay`: one frame, or
/// more where the clip ends on a hold). A `VideoWriter` that only
/// chooses its `Encoding`.
///
/// Size: any, 1…16384.
public final class APNGWriter: VideoWriter {
  /// An APNG on a page is an animated `<img>`.
  public static let fileType = OutputFileType(fileExtension: "apng.png", mimeType: "image/apng", presentation: .animation)

  /// Opens the encoder and the temp file. `plays`: 0 loops forever, else
  /// how many times the animation plays.
  public init(path: String, width: Int, height: Int, fps: Int, plays: Int = 0, fractional: Bool = false) throws {
    let what = "APNG '\(path)'"
    let rate = VideoWriter.timing(fps, fractional: fractional)
    try VideoWriter.checkSize(width, height, what: what)
    try VideoWriter.checkRate(fps, what: what)
    guard (0...65535).contains(plays) else { throw MediaError("open \(what)", "plays \(plays) is not in 0…65535") }
    try super.init(
      path: path, fps: fps,
      encoding: Encoding(
        container: "apng", codec: "apng", pixelFormat: .rgba, width: width, height: height,
        timeBase: rate.timeBase, frameRate: rate.frames, frameRateDenominator: rate.denominator, taggedSRGB: true, muxerOptions: [("plays", "\(plays)"), ("final_delay", "\(rate.timeBase.num)/\(rate.timeBase.den)")],
        what: what))
  }

  public override var mergesHolds: Bool { true }
  public override var endsOnHold: Bool { true }
}
