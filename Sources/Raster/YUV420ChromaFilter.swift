// YUV420ChromaFilter: the vertical filter that halves the chroma rows of a
// 4:2:0 conversion, built exactly as swscale builds it (`initFilter` in
// libswscale/utils.c) for transvid's flags — bicubic (B = 0, C = 0.6), 2:1,
// source and destination chroma sited between two luma rows, bit-exact —
// so `YUV420Converter` gives swscale's bytes. All integer arithmetic: the
// same coefficients on every machine.

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

  /// The filter from `height` source rows to `height / 2` (height even, > 0).
  init(height: Int) {
    let srcH = height, dstH = height / 2
    let one: Int64 = 1 << 12
    // fone = 1 << (54 − log2(srcH / dstH)), the ratio being 2.
    let fone: Int64 = 1 << 53
    let xInc = (Int64(srcH) << 16 + Int64(dstH >> 1)) / Int64(dstH)
    // Both positions are 128 (`get_local_pos` of the default chroma siting).
    let srcPos: Int64 = 128, dstPos: Int64 = 128
    // Bicubic: size factor 4, downscaling.
    var size = 1 + (4 * srcH + dstH - 1) / dstH
    size = max(1, min(size, srcH - 2))
    let B: Int64 = 0, C: Int64 = 10_066_329  // Int64(0.6 · 2²⁴), truncated as C does
    var raw = [Int64](repeating: 0, count: dstH * size)
    var pos = [Int](repeating: 0, count: dstH)
    var xDstInSrc = ((dstPos * xInc) >> 7) - ((srcPos * 0x10000) >> 7)
    for i in 0..<dstH {
      // C division truncates towards zero.
      var xx = Int((xDstInSrc - Int64(size - 2) * (1 << 16)) / (1 << 17))
      pos[i] = xx
      for j in 0..<size {
        var d = abs(Int64(xx) * (1 << 17) - xDstInSrc) << 13
        if xInc > 1 << 16 { d = d * Int64(dstH) / Int64(srcH) }
        var coeff: Int64
        if d >= 1 << 31 {
          coeff = 0
        } else {
          let dd = (d * d) >> 30, ddd = (dd * d) >> 30
          if d < 1 << 30 {
            coeff = (12 * (1 << 24) - 9 * B - 6 * C) * ddd + (-18 * (1 << 24) + 12 * B + 6 * C) * dd
              + (6 * (1 << 24) - 2 * B) * (1 << 30)
          } else {
            coeff = (-B - 6 * C) * ddd + (6 * B + 30 * C) * dd + (-12 * B - 48 * C) * d + (8 * B + 24 * C) * (1 << 30)
          }
        }
        coeff /= (1 << 54) / fone
        raw[i * size + j] = coeff
        xx += 1
      }
      xDstInSrc += 2 * xInc
    }
    // Drop near-zero taps on the left (shifting the row) and count those on
    // the right; the widest row sets the size (SWS_MAX_REDUCE_CUTOFF 0.002).
    let cutOffLimit = Int64(0.002 * Double(fone))
    var minSize = 0
    for i in stride(from: dstH - 1, through: 0, by: -1) {
      var cutOff: Int64 = 0
      for _ in 0..<size {
        cutOff += abs(raw[i * size])
        if cutOff > cutOffLimit { break }
        if i < dstH - 1 && pos[i] >= pos[i + 1] { break }
        for k in 1..<size { raw[i * size + k - 1] = raw[i * size + k] }
        raw[i * size + size - 1] = 0
        pos[i] += 1
      }
      cutOff = 0
      var count = size
      for j in stride(from: size - 1, to: 0, by: -1) {
        cutOff += abs(raw[i * size + j])
        if cutOff > cutOffLimit { break }
        count -= 1
      }
      minSize = max(minSize, count)
    }
    // Bit-exact: taps past the reduced size are zero (alignment padding adds
    // only zero taps, which change nothing).
    let n = max(1, minSize)
    var f = [Int64](repeating: 0, count: dstH * n)
    for i in 0..<dstH {
      for j in 0..<min(n, size) { f[i * n + j] = raw[i * size + j] }
    }
    // Fold taps above the first row onto it, and below the last onto it.
    for i in 0..<dstH {
      if pos[i] < 0 {
        for j in 1..<max(1, n) {
          let left = max(j + pos[i], 0)
          f[i * n + left] += f[i * n + j]
          f[i * n + j] = 0
        }
        pos[i] = 0
      }
      if pos[i] + n > srcH {
        let shift = pos[i] + min(n - srcH, 0)
        var acc: Int64 = 0
        for j in stride(from: n - 1, through: 0, by: -1) where pos[i] + j >= srcH {
          acc += f[i * n + j]
          f[i * n + j] = 0
        }
        for j in stride(from: n - 1, through: 0, by: -1) {
          f[i * n + j] = j < shift ? 0 : f[i * n + j - shift]
        }
        pos[i] -= shift
        f[i * n + srcH - 1 - pos[i]] += acc
      }
    }
    // Normalise to `one`, carrying each tap's rounding error to the next.
    func roundedDiv(_ a: Int64, _ b: Int64) -> Int64 { (a >= 0 ? a + (b >> 1) : a - (b >> 1)) / b }
    var out = [Int32](repeating: 0, count: dstH * n)
    for i in 0..<dstH {
      var sum: Int64 = 0
      for j in 0..<n { sum += f[i * n + j] }
      sum = (sum + one / 2) / one
      if sum == 0 { sum = 1 }
      var error: Int64 = 0
      for j in 0..<n {
        let v = f[i * n + j] + error
        let q = roundedDiv(v, sum)
        out[i * n + j] = Int32(q)
        error = v - q * sum
      }
    }
    taps = n
    first = pos
    coefficients = out
    let (a, b, c, d) = Self.interiorHalf
    let interior: [Int32] = [a, b, c, d, d, c, b, a]
    isInterior = (0..<dstH).map { i in n == 8 && Array(out[i * 8..<i * 8 + 8]) == interior }
  }
}
