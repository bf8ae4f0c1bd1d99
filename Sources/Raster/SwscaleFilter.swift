#if canImport(Glibc)
import Glibc
#endif

// SwscaleFilter: one axis of a swscale resize, its taps computed as
// swscale's `initFilter` computes them (libswscale/utils.c, FFmpeg 5.1) for
// the flags transvid gives it (accurate rounding, bit-exact), so that
// transvid's own kernels (`YUV420Converter`, `LanczosResizer`) give
// swscale's bytes. The steps are swscale's, in its order and its integer
// and double arithmetic: taps sampled from the kernel in 2⁻¹⁷ steps,
// near-zero taps dropped at both ends (the row shifted left), the size
// rounded up to swscale's SIMD alignment (zero taps; with bit-exact flags
// the taps past the reduced size are zero), taps outside the source folded
// onto its first and last samples, then normalised to `one` carrying each
// tap's rounding error to the next. Lanczos calls `sin` from the C library,
// as swscale does; bicubic is integer only.

/// Per output sample: the first source sample it reads and its taps.
struct SwscaleFilter: Sendable {
  /// The kernels transvid asks swscale for.
  enum Kernel: Sendable {
    /// `SWS_BICUBIC`, swscale's default parameters (B = 0, C = 0.6).
    case bicubic
    /// `SWS_LANCZOS`, swscale's default parameter (3 lobes).
    case lanczos
  }

  /// Taps per output sample (a multiple of the alignment).
  let taps: Int
  /// The first source sample of output sample `i`.
  let first: [Int]
  /// `taps` coefficients per output sample, one output after another; each
  /// output's sum to `one` (swscale: 2¹⁴ horizontally, 2¹² vertically).
  let coefficients: [Int32]

  /// swscale's filter from `source` samples to `destination` with `kernel`;
  /// `align` is swscale's alignment of the size on this machine's SIMD (on
  /// x86: 4 horizontally, 2 vertically); both positions are in 1/256 of a
  /// sample relative to the left edge (`get_local_pos`: 128, the centre, for
  /// unsubsampled planes). nil where swscale would refuse the sizes or split
  /// the resize into a cascade of two.
  init?(from source: Int, to destination: Int, kernel: Kernel, one: Int64, align: Int,
        sourcePosition: Int64 = 128, destinationPosition: Int64 = 128) {
    guard source > 0, destination > 0 else { return nil }
    let srcW = source, dstW = destination
    let xInc = (Int64(srcW) << 16 + Int64(dstW >> 1)) / Int64(dstW)
    guard xInc >= 10, xInc <= Int64(Int32.max) else { return nil }
    // fone = 2^(54 − min(⌊log₂(srcW / dstW)⌋, 8)), av_log2(0) being 0.
    let ratio = srcW / dstW
    let log2Ratio = ratio > 0 ? Int.bitWidth - 1 - ratio.leadingZeroBitCount : 0
    let fone: Int64 = 1 << (54 - min(log2Ratio, 8))

    var size: Int
    var raw: [Int64]
    var pos = [Int](repeating: 0, count: dstW)
    if abs(xInc - 0x10000) < 10 && sourcePosition == destinationPosition {
      size = 1
      raw = [Int64](repeating: fone, count: dstW)
      for i in 0..<dstW { pos[i] = i }
    } else {
      let sizeFactor = kernel == .bicubic ? 4 : 6
      size = xInc <= 1 << 16 ? 1 + sizeFactor : 1 + (sizeFactor * srcW + dstW - 1) / dstW
      size = max(1, min(size, srcW - 2))
      raw = [Int64](repeating: 0, count: dstW * size)
      var xDstInSrc = ((destinationPosition * xInc) >> 7) - ((sourcePosition * 0x10000) >> 7)
      for i in 0..<dstW {
        // C's integer division truncates towards zero, as Swift's does.
        var xx = Int((xDstInSrc - Int64(size - 2) * (1 << 16)) / (1 << 17))
        pos[i] = xx
        for j in 0..<size {
          var d = abs(Int64(xx) * (1 << 17) - xDstInSrc) << 13
          if xInc > 1 << 16 { d = d * Int64(dstW) / Int64(srcW) }
          raw[i * size + j] = kernel == .bicubic ? Self.bicubic(d, fone: fone) : Self.lanczos(d, fone: fone)
          xx += 1
        }
        xDstInSrc += 2 * xInc
      }
    }

    // Drop near-zero taps on the left (shifting the row) and count those on
    // the right; the widest row sets the size (SWS_MAX_REDUCE_CUTOFF 0.002,
    // compared in double as C compares an int64 with a double).
    let cutOffLimit = 0.002 * Double(fone)
    var minSize = 0
    for i in stride(from: dstW - 1, through: 0, by: -1) {
      var cutOff: Int64 = 0
      for _ in 0..<size {
        cutOff += abs(raw[i * size])
        if Double(cutOff) > cutOffLimit { break }
        if i < dstW - 1 && pos[i] >= pos[i + 1] { break }
        for k in 1..<max(size, 1) { raw[i * size + k - 1] = raw[i * size + k] }
        raw[i * size + size - 1] = 0
        pos[i] += 1
      }
      cutOff = 0
      var count = size
      for j in stride(from: size - 1, to: 0, by: -1) {
        cutOff += abs(raw[i * size + j])
        if Double(cutOff) > cutOffLimit { break }
        count -= 1
      }
      minSize = max(minSize, count)
    }
    guard minSize > 0 else { return nil }
    // x86's special case: an unscaled vertical filter is not padded.
    let alignment = minSize == 1 && align == 2 ? 1 : align
    let n = (minSize + alignment - 1) & ~(alignment - 1)
    // MAX_FILTER_SIZE · 16 / APCK_SIZE (x86-64): swscale cascades beyond.
    guard n < 256 * 16 / 24 else { return nil }
    var f = [Int64](repeating: 0, count: dstW * n)
    for i in 0..<dstW {
      for j in 0..<min(minSize, size) { f[i * n + j] = raw[i * size + j] }
    }

    // Fold taps before the first sample onto it, and past the last onto it.
    for i in 0..<dstW {
      if pos[i] < 0 {
        for j in 1..<max(n, 1) {
          let left = max(j + pos[i], 0)
          f[i * n + left] += f[i * n + j]
          f[i * n + j] = 0
        }
        pos[i] = 0
      }
      if pos[i] + n > srcW {
        let shift = pos[i] + min(n - srcW, 0)
        var acc: Int64 = 0
        for j in stride(from: n - 1, through: 0, by: -1) where pos[i] + j >= srcW {
          acc += f[i * n + j]
          f[i * n + j] = 0
        }
        for j in stride(from: n - 1, through: 0, by: -1) {
          f[i * n + j] = j < shift ? 0 : f[i * n + j - shift]
        }
        pos[i] -= shift
        f[i * n + srcW - 1 - pos[i]] += acc
      }
      guard pos[i] >= 0, pos[i] < srcW else { return nil }
    }

    // Normalise to `one`, carrying each tap's rounding error to the next.
    func roundedDiv(_ a: Int64, _ b: Int64) -> Int64 { (a >= 0 ? a + (b >> 1) : a - (b >> 1)) / b }
    var out = [Int32](repeating: 0, count: dstW * n)
    for i in 0..<dstW {
      var sum: Int64 = 0
      for j in 0..<n { sum += f[i * n + j] }
      sum = (sum + one / 2) / one
      if sum == 0 { sum = 1 }
      var error: Int64 = 0
      for j in 0..<n {
        let v = f[i * n + j] + error
        let q = roundedDiv(v, sum)
        // C stores it in an int16_t.
        out[i * n + j] = Int32(Int16(truncatingIfNeeded: q))
        error = v - q * sum
      }
    }
    taps = n
    first = pos
    coefficients = out
  }

  /// The bicubic tap at distance `d` (2⁻³⁰ of a source sample), B = 0,
  /// C = 0.6 as 2⁻²⁴ integers (truncated as C truncates).
  private static func bicubic(_ d: Int64, fone: Int64) -> Int64 {
    let B: Int64 = 0, C: Int64 = 10_066_329
    guard d < 1 << 31 else { return 0 }
    let dd = (d * d) >> 30, ddd = (dd * d) >> 30
    let coeff: Int64
    if d < 1 << 30 {
      coeff = (12 * (1 << 24) - 9 * B - 6 * C) * ddd + (-18 * (1 << 24) + 12 * B + 6 * C) * dd
        + (6 * (1 << 24) - 2 * B) * (1 << 30)
    } else {
      coeff = (-B - 6 * C) * ddd + (6 * B + 30 * C) * dd + (-12 * B - 48 * C) * d + (8 * B + 24 * C) * (1 << 30)
    }
    return coeff / ((1 << 54) / fone)
  }

  /// The Lanczos tap (3 lobes) at distance `d`, in swscale's double
  /// expression and evaluation order, truncated to an integer as C does.
  private static func lanczos(_ d: Int64, fone: Int64) -> Int64 {
    let p = 3.0
    let floatd = Double(d) * (1.0 / Double(1 << 30))
    guard floatd <= p else { return 0 }
    guard d != 0 else { return fone }
    let value = sin(floatd * Double.pi) * sin(floatd * Double.pi / p) / (floatd * floatd * Double.pi * Double.pi / p)
    return Int64(value * Double(fone))
  }
}
