/// Encodes frames into an H.264 (High, yuv420p, BT.709 limited range) MP4 at a
/// constant frame rate, with `moov` before `mdat` (`+faststart`): libx264 in
/// libavformat's mp4 muxer, a `VideoWriter` (appending, finishing,
/// cancelling and the temp file are its).
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
/// `AV_CODEC_FLAG_BITEXACT`, swscale with `SWS_BITEXACT` (`YUVConverter`
/// gives its bytes in integer SIMD), x264's lookahead
/// runs inside each encode call (`sync-lookahead=0`), never on a thread
/// racing the caller, and new heap blocks are filled with one byte
/// (`HeapFill`), so the same frames, settings and `threads` give
/// byte-identical files however fast the frames arrive.
public final class MP4Writer: VideoWriter {
  /// An MP4 on a page is a `<video>`.
  public static let fileType = OutputFileType(fileExtension: "mp4", mimeType: "video/mp4", presentation: .video)

  /// Opens the encoder and the temp file.
  ///
  /// - Parameters:
  ///   - crf: x264 constant rate factor, 1 … 51 (lower is better); 18 is visually
  ///     lossless. 0 (lossless) is rejected: High profile cannot carry it.
  ///   - preset: one of x264's presets (`ultrafast` … `placebo`); x264 itself
  ///     rejects any other name.
  ///   - threads: encoder threads; 0 lets x264 choose from the CPU count.
  ///     Output is byte-identical for the same frames, settings and thread
  ///     count, but differs between thread counts (x264 writes its settings
  ///     into the stream and frame threads change its decisions; measured at
  ///     640×480). For the same bytes on every machine, pass a fixed count.
  ///   - twoPass: one pass of an average-bit-rate encode instead of `crf`;
  ///     its `stats` is the path of x264's stats file (x264 also writes
  ///     that path + `.mbtree`), the same for both passes.
  public init(
    path: String, width: Int, height: Int, fps: Int, crf: Int = 18, preset: String = "medium",
    threads: Int = 0, twoPass: TwoPass? = nil, fractional: Bool = false
  ) throws {
    let what = "MP4 '\(path)'"
    let rate = VideoWriter.timing(fps, fractional: fractional)
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
    guard threads >= 0 else { throw MediaError("open \(what)", "threads \(threads) is negative") }
    let rateControl: [(name: String, value: String)]
    if let twoPass {
      guard let stats = twoPass.stats, (1...2).contains(twoPass.pass), twoPass.bitRate > 0 else {
        throw MediaError("open \(what)", "a two-pass encode needs pass 1 or 2, a positive bit rate and a stats file")
      }
      rateControl = [("stats", stats)]
    } else {
      rateControl = [("crf", "\(crf)")]
    }
    try super.init(
      path: path, fps: fps,
      encoding: Encoding(
        container: "mp4", codec: "libx264", pixelFormat: .yuv420p, width: width, height: height,
        timeBase: rate.timeBase, frameRate: rate.frames, frameRateDenominator: rate.denominator, taggedBT709: true, threads: threads, bitRate: twoPass?.bitRate,
        pass: twoPass?.pass ?? 0,
        // x264's lookahead thread decides frame types from however many
        // frames are queued when it runs, so with frame threads the bytes
        // depended on timing; with sync-lookahead 0 it runs inside each
        // encode call, on exactly the frames submitted so far.
        codecOptions: [("profile", "high"), ("preset", preset)] + rateControl + [("x264-params", "sync-lookahead=0")],
        muxerOptions: [("movflags", "+faststart")], what: what))
  }
}
