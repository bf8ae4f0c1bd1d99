#if canImport(Glibc)
import Glibc
#endif

// LanczosResizer: premultiplied RGBA resized to opaque BGRA byte for byte as
// swscale resizes it with `Resampler`'s flags (Lanczos, accurate rounding,
// full chroma in and out, bit-exact) into planar G, B, R. Hand-written
// because swscale's bit-exact path does its vertical pass and its
// YUV → RGB output per pixel in C (more than half of a 3x → 1x GIF frame's
// resize), and its bytes are what transvid's GIFs, and the frames
// `scripts/gif-quality` gives FFmpeg, are made of.
//
// swscale's steps for an RGB → RGB resize, each kept with its rounding:
//  1. every source pixel to 14-bit Y, U, V with its default
//     `input_rgb2yuv_table` (BT.601, limited range; `ry` … `bv`):
//     Y = (RY·R + GY·G + BY·B + 2¹⁹ + 2⁸) >> 9, U and V with 2²² + 2⁸;
//  2. every source row filtered horizontally (`SwscaleFilter`, 14-bit taps
//     aligned to 4): min((Σ tap·sample) >> 13, 2¹⁵ − 1);
//  3. every output row filtered vertically (12-bit taps aligned to 2):
//     (2⁹ + Σ tap·row) >> 10, less 128·2¹⁹ before the shift for U and V;
//  4. to RGB with `ff_yuv2rgb_c_init_tables`' coefficients for BT.601
//     limited range: Y' = (Y − yOffset)·yCoeff + 2²¹, R = Y' + V·v2r,
//     G = Y' + V·v2g + U·u2g, B = Y' + U·u2b, each clamped to [0, 2³⁰) and
//     shifted down 22 bits.
// Every value is an integer that fits 32 bits: the same bytes on every
// machine and for any split of rows over threads. Like swscale, a band of
// output rows is made top to bottom, each source row converted and filtered
// once into a ring of as many rows as the vertical filter has taps (so the
// rows it reads are still in cache). The SIMD path multiplies 16-bit pairs into
// 32-bit sums (SSE2's pmaddwd: along the taps horizontally, two rows at a
// time vertically); `KernelSet.reference` runs swscale's own loops, which
// the SIMD path is tested against, and both are tested against swscale.

// Lane by lane, so the compiler always inlines them: the standard library's
// generic conversions are left as calls in the larger loops here.

/// Sixteen-bit lanes sign-extended to 32 bits.
@inline(__always) func widened(_ v: SIMD8<Int16>) -> SIMD8<Int32> {
  SIMD8(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
}

/// Two halves of 32-bit lanes truncated to one vector of 16-bit lanes.
@inline(__always) func narrowed(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD8<Int16> {
  SIMD8(
    Int16(truncatingIfNeeded: a[0]), Int16(truncatingIfNeeded: a[1]), Int16(truncatingIfNeeded: a[2]),
    Int16(truncatingIfNeeded: a[3]), Int16(truncatingIfNeeded: b[0]), Int16(truncatingIfNeeded: b[1]),
    Int16(truncatingIfNeeded: b[2]), Int16(truncatingIfNeeded: b[3]))
}

/// A number of blocks of eight taps known to the compiler (0: given at run time).
protocol TapBlockCount { static var count: Int { get } }
enum TapBlocks: TapBlockCount { static var count: Int { 0 } }
enum TapBlocks1: TapBlockCount { static var count: Int { 1 } }
enum TapBlocks2: TapBlockCount { static var count: Int { 2 } }
enum TapBlocks3: TapBlockCount { static var count: Int { 3 } }
enum TapBlocks4: TapBlockCount { static var count: Int { 4 } }

/// swscale's Lanczos resize from `sourceWidth × sourceHeight` to
/// `width × height`, RGBA in, opaque BGRA out.
public struct LanczosResizer: Sendable {
  public let sourceWidth: Int, sourceHeight: Int
  public let width: Int, height: Int
  /// SIMD or the scalar reference.
  public var kernels: KernelSet = .simd

  /// Horizontal taps per output column, padded with zero taps to a multiple
  /// of 8 (the SIMD step); `columnTaps` of each are swscale's.
  let paddedTaps: Int, columnTaps: Int
  let columnFirst: [Int32]
  let columnWeights: [Int16]
  /// Vertical taps per output row (even), and their first source row.
  let rowTaps: Int
  let rowFirst: [Int]
  let rowWeights: [Int16]
  let conversion = ConversionTaps()

  /// The samples per filtered row (width rounded up to 8, the SIMD step;
  /// the samples past `width` are never written or read out).
  var planeStride: Int { (width + 7) & ~7 }

  // swscale's `input_rgb2yuv_table` for its default matrix (BT.601) and a
  // limited-range intermediate: ⌊c · 219/255 (Y) or 224/255 (U, V) · 2¹⁵ + ½⌋.
  static let ry: Int32 = 8414, gy: Int32 = 16519, by: Int32 = 3208
  static let ru: Int32 = -4865, gu: Int32 = -9528, bu: Int32 = 14392
  static let rv: Int32 = 14392, gv: Int32 = -12061, bv: Int32 = -2332
  // `ff_yuv2rgb_c_init_tables` for BT.601 limited range, contrast and
  // saturation 1: yCoeff = round(⌊2¹⁶·255/219⌋ · 2¹³ / 2¹⁶), yOffset =
  // round(16·2¹⁶ · 2⁹ / 2¹⁶), the others round(c · 2¹³ / 2¹⁶) of the
  // matrix's 104597 (v→r), −53279 (v→g), −25675 (u→g), 132201 (u→b).
  static let yCoeff: Int32 = 9539, yOffset: Int32 = 8192
  static let v2r: Int32 = 13075, v2g: Int32 = -6660, u2g: Int32 = -3209, u2b: Int32 = 16525

  /// nil where swscale would not resize these sizes in one pass (or not at
  /// all); the caller then asks swscale.
  public init?(from sourceWidth: Int, _ sourceHeight: Int, to width: Int, _ height: Int) {
    // swscale's x86 alignment: 4 taps horizontally, 2 vertically.
    guard sourceWidth >= 4, sourceHeight >= 4, width > 0, height > 0,
      let columns = SwscaleFilter(from: sourceWidth, to: width, kernel: .lanczos, one: 1 << 14, align: 4),
      let rows = SwscaleFilter(from: sourceHeight, to: height, kernel: .lanczos, one: 1 << 12, align: 2)
    else { return nil }
    (self.sourceWidth, self.sourceHeight, self.width, self.height) = (sourceWidth, sourceHeight, width, height)
    columnTaps = columns.taps
    paddedTaps = (columns.taps + 7) & ~7
    columnFirst = columns.first.map { Int32($0) }
    var weights = [Int16](repeating: 0, count: width * paddedTaps)
    for x in 0..<width {
      for j in 0..<columns.taps {
        weights[x * paddedTaps + j] = Int16(truncatingIfNeeded: columns.coefficients[x * columns.taps + j])
      }
    }
    columnWeights = weights
    // An odd count (an unscaled axis) takes one zero tap more.
    let taps = (rows.taps + 1) & ~1
    let starts = rows.first.map { Swift.min($0, sourceHeight - taps) }
    guard starts.allSatisfy({ $0 >= 0 }) else { return nil }
    var vertical = [Int16](repeating: 0, count: height * taps)
    for y in 0..<height {
      // A row moved up to make room for the extra tap keeps its taps in place.
      let offset = rows.first[y] - starts[y]
      for j in 0..<rows.taps {
        vertical[y * taps + offset + j] = Int16(truncatingIfNeeded: rows.coefficients[y * rows.taps + j])
      }
    }
    (rowTaps, rowFirst, rowWeights) = (taps, starts, vertical)
  }

  /// The output rows that read any of source rows `changed`.
  public func outputRows(reading changed: Range<Int>) -> Range<Int> {
    guard !changed.isEmpty else { return 0..<0 }
    // The rows' windows move down monotonically, so those reading form one range.
    func reads(_ y: Int) -> Bool { rowFirst[y] < changed.upperBound && rowFirst[y] + rowTaps > changed.lowerBound }
    guard let first = (0..<height).first(where: reads), let last = (0..<height).last(where: reads) else { return 0..<0 }
    return first..<(last + 1)
  }

  /// Output rows `rows` of `source` (RGBA, `stride` bytes per row), written
  /// into `destination` as opaque BGRA (`destinationStride` bytes per row).
  ///
  /// Flat UI repeats rows (80 % of the rows of the jobs' screens are their
  /// row above again), and equal pixels give equal results, so the SIMD
  /// path does no work twice: a source row equal to the one before takes
  /// its filtered rows; an output row whose taps all read one run of equal
  /// rows, as the row before did, is that row again (its taps sum to 4096,
  /// as every row's do: the sum is all that counts of them there). The
  /// scalar reference computes every row (the tests hold the two equal).
  public func resize(
    rows: Range<Int>, of source: UnsafeRawPointer, stride: Int, into destination: UnsafeMutableRawPointer,
    destinationStride: Int
  ) {
    guard !rows.isEmpty else { return }
    let ringRows = rowTaps, rowLength = planeStride, converted = sourceWidth + paddedTaps
    let repeats = kernels == .simd
    // The ring (three planes of `ringRows` filtered rows), one source row
    // converted (zeros past its end for the SIMD step's reads, which zero
    // taps read), and the rows each tap of an output row reads.
    let ring = UnsafeMutablePointer<Int16>.allocate(capacity: 3 * ringRows * rowLength + 3 * converted)
    defer { ring.deallocate() }
    ring.initialize(repeating: 0, count: 3 * ringRows * rowLength + 3 * converted)
    let y = ring + 3 * ringRows * rowLength, u = y + converted, v = u + converted
    let taps = UnsafeMutablePointer<UnsafePointer<Int16>>.allocate(capacity: 3 * rowTaps)
    defer { taps.deallocate() }
    // Per ring slot: the first row of the run of equal rows its row ends.
    let runs = UnsafeMutablePointer<Int>.allocate(capacity: ringRows)
    defer { runs.deallocate() }
    func slot(_ plane: Int, _ row: Int) -> UnsafeMutablePointer<Int16> {
      ring + (plane * ringRows + row % ringRows) * rowLength
    }
    columnFirst.withUnsafeBufferPointer { first in
      columnWeights.withUnsafeBufferPointer { weights in
        rowWeights.withUnsafeBufferPointer { rowWeights in
          var next = 0, filled = Int.max
          // The run the last output row's taps all read (-1: none).
          var lastRun = -1
          for row in rows {
            let top = rowFirst[row]
            if next < top { (next, filled) = (top, Int.max) }
            while next < top + rowTaps {
              let pixels = source + next * stride
              if repeats && next > filled && memcmp(pixels - stride, pixels, 4 * sourceWidth) == 0 {
                for plane in 0..<3 { slot(plane, next).update(from: slot(plane, next - 1), count: rowLength) }
                runs[next % ringRows] = runs[(next - 1) % ringRows]
              } else {
                switch kernels {
                case .simd:
                  Self.convertRow(pixels, sourceWidth, y, u, v, conversion)
                  filterRow(y, u, v, first.baseAddress!, weights.baseAddress!, slot(0, next), slot(1, next), slot(2, next))
                case .reference:
                  Self.convertRowReference(pixels, sourceWidth, y, u, v)
                  filterRowReference(y, u, v, first.baseAddress!, weights.baseAddress!, slot(0, next), slot(1, next), slot(2, next))
                }
                runs[next % ringRows] = next
              }
              filled = Swift.min(filled, next)
              next += 1
            }
            let out = destination + row * destinationStride
            let run = runs[(top + rowTaps - 1) % ringRows]
            let oneRun = repeats && run <= top
            if oneRun && run == lastRun {
              out.copyMemory(from: out - destinationStride, byteCount: 4 * width)
              continue
            }
            lastRun = oneRun ? run : -1
            for j in 0..<rowTaps {
              (taps[j], taps[rowTaps + j], taps[2 * rowTaps + j]) = (
                UnsafePointer(slot(0, top + j)), UnsafePointer(slot(1, top + j)), UnsafePointer(slot(2, top + j))
              )
            }
            let w = rowWeights.baseAddress! + row * rowTaps
            switch kernels {
            case .simd: composeRow(taps, taps + rowTaps, taps + 2 * rowTaps, w, out)
            case .reference: composeRowReference(taps, taps + rowTaps, taps + 2 * rowTaps, w, out)
            }
          }
        }
      }
    }
  }

  // MARK: - Source rows: to Y, U, V and filtered horizontally

  /// The operands of `convertRow`'s pmaddwd steps, made at run time: the
  /// taps as 16-bit pairs (R with B, G with A) and the mask that keeps a
  /// pixel's low bytes in 16-bit lanes. Were they constants, the compiler
  /// would see the zero bits and the zero taps and multiply lane by lane in
  /// 32 bits (SSE2's slow pmuludq) instead.
  struct ConversionTaps: Sendable {
    var yRB: SIMD8<Int16>, uRB: SIMD8<Int16>, vRB: SIMD8<Int16>
    var yG: SIMD8<Int16>, uG: SIMD8<Int16>, vG: SIMD8<Int16>
    var lowBytes: SIMD8<UInt16>

    init() {
      func pairs(_ a: Int32, _ b: Int32) -> SIMD8<Int16> {
        let (a, b) = (Int16(truncatingIfNeeded: a), Int16(truncatingIfNeeded: b))
        return SIMD8(a, b, a, b, a, b, a, b)
      }
      (yRB, uRB, vRB) = (pairs(ry, by), pairs(ru, bu), pairs(rv, bv))
      (yG, uG, vG) = (pairs(gy, 0), pairs(gu, 0), pairs(gv, 0))
      lowBytes = SIMD8(repeating: 0xFF)
    }
  }

  /// One row of RGBA to 14-bit Y, U, V, four pixels at a time: the pixels
  /// read as 16-bit lanes, R and B (their low bytes) and G and A (their
  /// high bytes) each against their pair of taps (pmaddwd; A's is 0).
  @inline(never)
  static func convertRow(
    _ pixels: UnsafeRawPointer, _ count: Int, _ y: UnsafeMutablePointer<Int16>, _ u: UnsafeMutablePointer<Int16>,
    _ v: UnsafeMutablePointer<Int16>, _ taps: ConversionTaps
  ) {
    let yBias = SIMD4<Int32>(repeating: 1 << 19 + 1 << 8), cBias = SIMD4<Int32>(repeating: 1 << 22 + 1 << 8)
    let (yRB, uRB, vRB) = (widened(taps.yRB), widened(taps.uRB), widened(taps.vRB))
    let (yG, uG, vG) = (widened(taps.yG), widened(taps.uG), widened(taps.vG))
    @inline(__always) func dot(_ a: SIMD8<Int32>, _ b: SIMD8<Int32>) -> SIMD4<Int32> {
      let p = a &* b
      return p.evenHalf &+ p.oddHalf
    }
    @inline(__always) func convert(_ at: Int) -> (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>) {
      let q = pixels.loadUnaligned(fromByteOffset: 4 &* at, as: SIMD8<UInt16>.self)
      let rb = widened(unsafeBitCast(q & taps.lowBytes, to: SIMD8<Int16>.self))
      let g = widened(unsafeBitCast(q &>> 8 & taps.lowBytes, to: SIMD8<Int16>.self))
      return (
        (dot(rb, yRB) &+ dot(g, yG) &+ yBias) &>> 9, (dot(rb, uRB) &+ dot(g, uG) &+ cBias) &>> 9,
        (dot(rb, vRB) &+ dot(g, vG) &+ cBias) &>> 9
      )
    }
    @inline(__always) func store(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>, _ out: UnsafeMutablePointer<Int16>) {
      UnsafeMutableRawPointer(out).storeBytes(of: narrowed(a, b), as: SIMD8<Int16>.self)
    }
    var x = 0
    while x &+ 8 <= count {
      let (a, b) = (convert(x), convert(x &+ 4))
      store(a.0, b.0, y + x)
      store(a.1, b.1, u + x)
      store(a.2, b.2, v + x)
      x &+= 8
    }
    if x < count { convertRowReference(pixels + 4 * x, count - x, y + x, u + x, v + x) }
  }

  /// swscale's `rgb32ToY_c` and `rgb32ToUV_c`, pixel by pixel (its form:
  /// R, G·2⁸, B against taps ·2⁸, a bias, >> 17; unsigned, as C adds an
  /// unsigned bias).
  static func convertRowReference(
    _ pixels: UnsafeRawPointer, _ count: Int, _ y: UnsafeMutablePointer<Int16>, _ u: UnsafeMutablePointer<Int16>,
    _ v: UnsafeMutablePointer<Int16>
  ) {
    for x in 0..<count {
      let px = pixels.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self).littleEndian
      let r = Int32(px & 0xFF), g = Int32(px & 0xFF00), b = Int32((px & 0xFF_0000) >> 16)
      let yRound: UInt32 = 32 << 22 + 1 << 16, cRound: UInt32 = 256 << 22 + 1 << 16
      let ys = UInt32(bitPattern: (ry << 8) &* r &+ gy &* g &+ (by << 8) &* b) &+ yRound
      let us = UInt32(bitPattern: (ru << 8) &* r &+ gu &* g &+ (bu << 8) &* b) &+ cRound
      let vs = UInt32(bitPattern: (rv << 8) &* r &+ gv &* g &+ (bv << 8) &* b) &+ cRound
      y[x] = Int16(truncatingIfNeeded: ys >> 17)
      u[x] = Int16(truncatingIfNeeded: us >> 17)
      v[x] = Int16(truncatingIfNeeded: vs >> 17)
    }
  }

  /// One converted row filtered horizontally, plane after plane.
  func filterRow(
    _ y: UnsafePointer<Int16>, _ u: UnsafePointer<Int16>, _ v: UnsafePointer<Int16>, _ first: UnsafePointer<Int32>,
    _ weights: UnsafePointer<Int16>, _ outY: UnsafeMutablePointer<Int16>, _ outU: UnsafeMutablePointer<Int16>,
    _ outV: UnsafeMutablePointer<Int16>
  ) {
    filterPlane(y, first, weights, outY)
    filterPlane(u, first, weights, outU)
    filterPlane(v, first, weights, outV)
  }

  /// One plane of a converted row filtered horizontally: per output column,
  /// eight taps at a time along the row (pmaddwd); four columns' sums
  /// reduced together. The common tap counts get loops of their own, which
  /// the compiler unrolls. (Functions of their own: inlined into one, the
  /// compiler leaves the SIMD conversions as calls.)
  @inline(never)
  func filterPlane(
    _ samples: UnsafePointer<Int16>, _ first: UnsafePointer<Int32>, _ weights: UnsafePointer<Int16>,
    _ out: UnsafeMutablePointer<Int16>
  ) {
    switch paddedTaps {
    case 8: filterPlane(samples, first, weights, out, TapBlocks1.self)
    case 16: filterPlane(samples, first, weights, out, TapBlocks2.self)
    case 24: filterPlane(samples, first, weights, out, TapBlocks3.self)
    case 32: filterPlane(samples, first, weights, out, TapBlocks4.self)
    default: filterPlane(samples, first, weights, out, TapBlocks.self, blocks: paddedTaps / 8)
    }
  }

  /// `filterPlane` with `B.count` blocks of eight taps (specialised per
  /// count, so each loop is unrolled), or `blocks` for `TapBlocks` itself.
  func filterPlane<B: TapBlockCount>(
    _ samples: UnsafePointer<Int16>, _ first: UnsafePointer<Int32>, _ weights: UnsafePointer<Int16>,
    _ out: UnsafeMutablePointer<Int16>, _: B.Type, blocks: Int = B.count
  ) {
    let blocks = B.count > 0 ? B.count : blocks
    let base = UnsafeRawPointer(samples)
    let taps = 8 * blocks
    @inline(__always) func column(_ x: Int) -> SIMD4<Int32> {
      let w = UnsafeRawPointer(weights + x &* taps)
      let p = base + 2 &* Int(first[x])
      var sum = SIMD4<Int32>.zero
      for k in 0..<blocks {
        let c = widened(w.loadUnaligned(fromByteOffset: 16 &* k, as: SIMD8<Int16>.self))
        let a = widened(p.loadUnaligned(fromByteOffset: 16 &* k, as: SIMD8<Int16>.self)) &* c
        sum &+= a.evenHalf &+ a.oddHalf
      }
      return sum
    }
    var x = 0
    while x &+ 4 <= width {
      let s = Self.sums(column(x), column(x &+ 1), column(x &+ 2), column(x &+ 3)) &>> 13
      let value = s.replacing(with: 32767, where: s .> 32767)
      UnsafeMutableRawPointer(out + x).storeBytes(of: narrowed(value, value).lowHalf, as: SIMD4<Int16>.self)
      x &+= 4
    }
    while x < width {
      out[x] = Int16(truncatingIfNeeded: Swift.min(column(x).wrappedSum() &>> 13, 32767))
      x &+= 1
    }
  }

  /// The lane sums of four vectors, as one.
  @inline(__always)
  static func sums(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>, _ c: SIMD4<Int32>, _ d: SIMD4<Int32>) -> SIMD4<Int32> {
    let ab = SIMD4(lowHalf: a.lowHalf &+ a.highHalf, highHalf: b.lowHalf &+ b.highHalf)
    let cd = SIMD4(lowHalf: c.lowHalf &+ c.highHalf, highHalf: d.lowHalf &+ d.highHalf)
    return SIMD4(lowHalf: ab.evenHalf &+ ab.oddHalf, highHalf: cd.evenHalf &+ cd.oddHalf)
  }

  /// swscale's `hScale16To15_c` for RGB input (shift 13), per plane.
  func filterRowReference(
    _ y: UnsafePointer<Int16>, _ u: UnsafePointer<Int16>, _ v: UnsafePointer<Int16>, _ first: UnsafePointer<Int32>,
    _ weights: UnsafePointer<Int16>, _ outY: UnsafeMutablePointer<Int16>, _ outU: UnsafeMutablePointer<Int16>,
    _ outV: UnsafeMutablePointer<Int16>
  ) {
    for (source, out) in [(y, outY), (u, outU), (v, outV)] {
      for x in 0..<width {
        let at = Int(first[x])
        var value: Int32 = 0
        for j in 0..<columnTaps {
          value &+= Int32(UInt16(bitPattern: source[at + j])) &* Int32(weights[x * paddedTaps + j])
        }
        out[x] = Int16(truncatingIfNeeded: Swift.min(value >> 13, (1 << 15) - 1))
      }
    }
  }

  // MARK: - Output rows: filtered vertically and to RGB

  /// One output row, eight columns at a time: two source rows' samples
  /// interleaved against their two taps (pmaddwd), then to RGB in 32-bit
  /// lanes.
  func composeRow(
    _ y: UnsafePointer<UnsafePointer<Int16>>, _ u: UnsafePointer<UnsafePointer<Int16>>,
    _ v: UnsafePointer<UnsafePointer<Int16>>, _ weights: UnsafePointer<Int16>, _ out: UnsafeMutableRawPointer
  ) {
    let taps = rowTaps
    var x = 0
    while x < width {
      var (yl, yh) = (SIMD4<Int32>(repeating: 1 << 9), SIMD4<Int32>(repeating: 1 << 9))
      let chromaBias = SIMD4<Int32>(repeating: 1 << 9 - 128 << 19)
      var (ul, uh, vl, vh) = (chromaBias, chromaBias, chromaBias, chromaBias)
      var j = 0
      while j < taps {
        let c = SIMD8<Int16>(weights[j], weights[j + 1], weights[j], weights[j + 1], weights[j], weights[j + 1], weights[j], weights[j + 1])
        Self.accumulate(y[j] + x, y[j + 1] + x, c, &yl, &yh)
        Self.accumulate(u[j] + x, u[j + 1] + x, c, &ul, &uh)
        Self.accumulate(v[j] + x, v[j + 1] + x, c, &vl, &vh)
        j += 2
      }
      let all = SIMD8(lowHalf: Self.bgra(yl, ul, vl), highHalf: Self.bgra(yh, uh, vh))
      if x + 8 <= width {
        out.storeBytes(of: all, toByteOffset: 4 * x, as: SIMD8<UInt32>.self)
      } else {
        for i in 0..<(width - x) { out.storeBytes(of: all[i], toByteOffset: 4 * (x + i), as: UInt32.self) }
      }
      x += 8
    }
  }

  /// Eight columns of two rows times their taps `c` (interleaved pairs),
  /// added to the low and high four.
  @inline(__always)
  static func accumulate(
    _ first: UnsafePointer<Int16>, _ second: UnsafePointer<Int16>, _ c: SIMD8<Int16>, _ low: inout SIMD4<Int32>,
    _ high: inout SIMD4<Int32>
  ) {
    let a = UnsafeRawPointer(first).loadUnaligned(as: SIMD8<Int16>.self)
    let b = UnsafeRawPointer(second).loadUnaligned(as: SIMD8<Int16>.self)
    let l = SIMD8<Int16>(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
    let h = SIMD8<Int16>(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    let cc = widened(c)
    let pl = widened(l) &* cc
    let ph = widened(h) &* cc
    low &+= pl.evenHalf &+ pl.oddHalf
    high &+= ph.evenHalf &+ ph.oddHalf
  }

  /// Channels in 2⁻²² steps clamped to [0, 2³⁰) and shifted to bytes
  /// (compare-and-select: the standard library's clamp is left as a call).
  @inline(__always)
  static func byte(_ v: SIMD4<Int32>) -> SIMD4<Int32> {
    let top = SIMD4<Int32>(repeating: (1 << 30) - 1)
    return v.replacing(with: 0, where: v .< 0).replacing(with: top, where: v .> top) &>> 22
  }

  /// Four filtered sums (before the 10-bit shift) to opaque BGRA.
  @inline(__always)
  static func bgra(_ ys: SIMD4<Int32>, _ us: SIMD4<Int32>, _ vs: SIMD4<Int32>) -> SIMD4<UInt32> {
    let yy = ((ys &>> 10) &- yOffset) &* yCoeff &+ (1 << 21)
    let (uu, vv) = (us &>> 10, vs &>> 10)
    let r = byte(yy &+ vv &* v2r), g = byte(yy &+ vv &* v2g &+ uu &* u2g), b = byte(yy &+ uu &* u2b)
    let packed: SIMD4<Int32> = b | g &<< 8 | r &<< 16
    return unsafeBitCast(packed, to: SIMD4<UInt32>.self) | 0xFF00_0000
  }

  /// swscale's `yuv2gbrp_full_X_c` (8-bit planes), pixel by pixel, written
  /// as opaque BGRA.
  func composeRowReference(
    _ y: UnsafePointer<UnsafePointer<Int16>>, _ u: UnsafePointer<UnsafePointer<Int16>>,
    _ v: UnsafePointer<UnsafePointer<Int16>>, _ weights: UnsafePointer<Int16>, _ out: UnsafeMutableRawPointer
  ) {
    func clip30(_ a: Int32) -> Int32 { a & ~((1 << 30) - 1) != 0 ? (~a >> 31) & ((1 << 30) - 1) : a }
    for x in 0..<width {
      var Y: Int32 = 1 << 9
      var U: Int32 = (1 << 9) - (128 << 19)
      var V: Int32 = (1 << 9) - (128 << 19)
      for j in 0..<rowTaps {
        Y &+= Int32(y[j][x]) &* Int32(weights[j])
        U &+= Int32(u[j][x]) &* Int32(weights[j])
        V &+= Int32(v[j][x]) &* Int32(weights[j])
      }
      Y >>= 10
      U >>= 10
      V >>= 10
      Y = (Y &- Self.yOffset) &* Self.yCoeff &+ (1 << 21)
      let R = clip30(Y &+ V &* Self.v2r)
      let G = clip30(Y &+ V &* Self.v2g &+ U &* Self.u2g)
      let B = clip30(Y &+ U &* Self.u2b)
      let bgra = UInt32(B >> 22) | UInt32(G >> 22) << 8 | UInt32(R >> 22) << 16 | 0xFF00_0000
      out.storeBytes(of: bgra.littleEndian, toByteOffset: 4 * x, as: UInt32.self)
    }
  }
}
