/// Encodes frames into ProRes 422 HQ (prores_ks, yuv422p10le, BT.709
/// limited range) in a QuickTime movie at a constant frame rate: the file
/// video editors and Keynote take. A `VideoWriter` that only chooses its
/// `Encoding`.
///
/// Alpha: with `alpha`, ProRes 4444 (yuva444p10le) with a 16-bit alpha
/// channel, the file editors lay over other footage.
///
/// Size: 4:2:2 needs an even width; the writer takes even sizes only, like
/// the MP4, so the caller pads both alike. The picture's own size (`shown`)
/// goes into the movie as its clean aperture (`CleanAperture`) on the sides
/// where the pixel format keeps every pixel's colour: both with alpha
/// (4:4:4), the height alone in 4:2:2, whose colour samples cover two
/// columns each: FFmpeg crops such a frame to an even width, which would
/// cut the picture's own last column.
///
/// Determinism: ProRes is intra-only (no frame depends on another), the
/// muxer and encoder run bit-exact (`MuxedEncoder`) and the caller fixes the
/// thread count; two renders of a job give the same bytes.
public final class MOVWriter: VideoWriter {
  /// Browsers other than Safari do not play ProRes: a page links the file.
  public static let fileType = OutputFileType(
    fileExtension: "mov", mimeType: "video/quicktime", presentation: .attachment)

  /// Opens the encoder and the temp file: ProRes 422 HQ, or 4444 with `alpha`.
  public init(
    path: String, width: Int, height: Int, fps: Int, threads: Int = 4, alpha: Bool = false, fractional: Bool = false,
    shown: (width: Int, height: Int)? = nil
  ) throws {
    let what = "MOV '\(path)'"
    let rate = VideoWriter.timing(fps, fractional: fractional)
    try VideoWriter.checkEvenSize(width, height, codec: "ProRes", what: what)
    try VideoWriter.checkRate(fps, what: what)
    guard threads >= 0 else { throw MediaError("open \(what)", "threads \(threads) is negative") }
    var aperture: (width: Int, height: Int)?
    if let shown {
      guard (1...width).contains(shown.width), (1...height).contains(shown.height) else {
        throw MediaError("open \(what)", "the picture \(shown.width)×\(shown.height) does not fit the frame \(width)×\(height)")
      }
      let cropped = (width: alpha ? shown.width : width, height: shown.height)
      if cropped != (width, height) { aperture = cropped }
    }
    try super.init(
      path: path, fps: fps,
      encoding: Encoding(
        container: "mov", codec: "prores_ks", pixelFormat: alpha ? .yuva444p10le : .yuv422p10le, width: width, height: height,
        timeBase: rate.timeBase, frameRate: rate.frames, frameRateDenominator: rate.denominator, taggedBT709: true, threads: threads,
        codecOptions: alpha ? [("profile", "4444"), ("alpha_bits", "16")] : [("profile", "hq")], cleanAperture: aperture,
        what: what))
  }
}
