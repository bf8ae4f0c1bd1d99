// YUV420ChromaFilter: the vertical filter that halves the chroma rows of a
// 4:2:0 conversion, built exactly as swscale builds it (`SwscaleFilter`)
// for transvid's flags — bicubic (B = 0, C = 0.6), 2:1, source and
// destination chroma sited between two luma rows, bit-exact — so
// `YUV420Converter` gives swscale's bytes. All integer arithmetic: the same
// coefficients on every machine.

/// Per output chroma row: the first source row it reads and its taps (sum
/// 4096, swscale's 12-bit filter scale), edges folded onto the first and
/// last rows as swscale folds them.
struct YUV420ChromaFilter: Sendable {
  /// Taps per output row (8 for heights of 12 and more).
  let taps: Int
  /// The first source row of output row `i`.
  let first: [Int]
  /// `taps` coefficients per output row, row after row.
  let coefficients: [Int32]
  /// Whether output row `i` has the interior taps (`interiorHalf` mirrored).
  let isInterior: [Bool]

  /// The first half of the taps of every row away from the edges (the same
  /// for any height: a fixed 2:1 kernel, normalised alike); the second half
  /// mirrors it.
  static let interiorHalf: (Int32, Int32, Int32, Int32) = (-58, -172, 492, 1786)

  /// The filter from `height` source rows to `height / 2` (height even, > 0):
  /// swscale's bicubic (`SwscaleFilter`), aligned as swscale aligns a
  /// vertical filter on x86.
  init(height: Int) {
    let filter = SwscaleFilter(from: height, to: height / 2, kernel: .bicubic, one: 1 << 12, align: 2)!
    let n = filter.taps
    let out = filter.coefficients
    taps = n
    first = filter.first
    coefficients = out
    let dstH = height / 2
    let (a, b, c, d) = Self.interiorHalf
    let interior: [Int32] = [a, b, c, d, d, c, b, a]
    isInterior = (0..<dstH).map { i in n == 8 && Array(out[i * 8..<i * 8 + 8]) == interior }
  }
}
