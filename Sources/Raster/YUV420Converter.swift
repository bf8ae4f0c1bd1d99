import Dispatch

// YUV420Converter: premultiplied RGBA (colour bytes as they are, i.e. over
// black; alpha dropped) to limited-range BT.709 yuv420p, byte for byte what
// swscale's bit-exact C path gives with transvid's flags (bicubic, accurate
// rounding, bit-exact), at a fraction of its time.
//
// swscale's arithmetic, folded into as few steps as give the same integers:
//   Y  = (RY·R + GY·G + BY·B + yBias) >> 15
//        (swscale: a 14-bit intermediate ⌊(Σ + 16·2¹⁵ + 2⁸) / 2⁹⌋, then
//        ⌊(i + 32) / 2⁶⌋; the two floors compose into one);
//   Ci = (RU·R₂ + GU·G₂ + BU·B₂ + 256·2¹⁵ + 2⁹) >> 10 per pair of pixels,
//        R₂ = R₀ + R₁ … (swscale's "half" input, chroma sited between the
//        two columns), one intermediate row per source row;
//   U  = clamp((2¹⁸ + Σⱼ 2·fⱼ·Ci[first + j]) >> 19, 0, 255) with
//        `YUV420ChromaFilter`'s taps fⱼ (swscale doubles Ci to 15 bits before
//        the vertical filter; the 2 is folded into the taps); V alike.
// The coefficients are swscale's `input_rgb2yuv_table` for BT.709 with a
// limited-range destination (its integer derivation from
// `sws_getCoefficients(SWS_CS_ITU709)`); tests hold the output equal to
// swscale's on synthetic frames, photos and screenshots.
//
// Every value is an integer and every intermediate fits 32 bits, so the
// result is the same on every machine and for any band split. The SIMD path
// does 8 pixels (luma) or 8 chroma samples (16 pixels) per step in 32-bit
// lanes whose operands fit 16 bits (so SSE2 multiplies them with pmaddwd);
// `KernelSet.reference` runs the scalar code the SIMD path is tested
// against. Rows are converted in bands of chroma rows spread over threads;
// each band keeps a ring of the last `taps` intermediate chroma rows (a few
// rows at each band's top are computed by both neighbours).

/// Destination planes of a yuv420p picture: Y is `width × height`, U and V
/// are `width/2 × height/2`, each with its own row stride in bytes.
public struct YUVPlanes: @unchecked Sendable {
  public var y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
  public var yStride: Int, uStride: Int, vStride: Int

  public init(
    y: UnsafeMutablePointer<UInt8>, yStride: Int, u: UnsafeMutablePointer<UInt8>, uStride: Int,
    v: UnsafeMutablePointer<UInt8>, vStride: Int
  ) {
    (self.y, self.u, self.v, self.yStride, self.uStride, self.vStride) = (y, u, v, yStride, uStride, vStride)
  }
}

/// Converts `width × height` RGBA bitmaps (sides even) to limited-range
/// BT.709 yuv420p exactly as swscale's bit-exact path does.
public struct YUV420Converter: Sendable {
  public let width: Int, height: Int
  /// SIMD or the scalar reference.
  public var kernels: KernelSet
  let filter: YUV420ChromaFilter

  /// Chroma rows per band of work (32 luma rows, as the compositor's bands).
  static let bandRows = 16

  static let ry: Int32 = 5983, gy: Int32 = 20127, by: Int32 = 2032
  static let ru: Int32 = -3298, gu: Int32 = -11094, bu: Int32 = 14392
  static let rv: Int32 = 14392, gv: Int32 = -13073, bv: Int32 = -1320
  static let yBias: Int32 = 16 << 15 + 256 + 16384
  static let cBias: Int32 = 256 << 15 + 512

  /// A converter for one picture size (both sides even and positive).
  public init(width: Int, height: Int, kernels: KernelSet = .simd) {
    precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "yuv420p sides must be even and positive")
    self.width = width
    self.height = height
    self.kernels = kernels
    filter = YUV420ChromaFilter(height: height)
  }

  /// Converts `bitmap` (this converter's size) into `planes`, bands of rows
  /// spread over `threads` threads; the bytes do not depend on `threads`.
  public func convert(_ bitmap: Bitmap, into planes: YUVPlanes, threads: Int = 1) {
    precondition(bitmap.width == width && bitmap.height == height, "bitmap is not \(width)×\(height)")
    bitmap.bytes.withUnsafeBufferPointer { src in
      convert(pixels: src.baseAddress!, stride: bitmap.stride, into: planes, threads: threads)
    }
  }

  /// Converts the RGBA rows at `pixels` (`stride` bytes apart).
  public func convert(pixels: UnsafePointer<UInt8>, stride: Int, into planes: YUVPlanes, threads: Int = 1) {
    let rows = height / 2
    let bands = (rows + Self.bandRows - 1) / Self.bandRows
    let threads = max(1, min(threads, bands))
    let job = UncheckedSendable(value: pixels)
    let next = BandCounter()
    let work: @Sendable (Int) -> Void = { _ in
      let ring = ChromaRing(width: width / 2, rows: filter.taps)
      defer { ring.deallocate() }
      while true {
        let band = next.take()
        guard band < bands else { break }
        let i0 = band * Self.bandRows
        convertBand(i0..<min(rows, i0 + Self.bandRows), pixels: job.value, stride: stride, planes: planes, ring: ring)
      }
    }
    if threads == 1 {
      work(0)
    } else {
      DispatchQueue.concurrentPerform(iterations: threads, execute: work)
    }
  }

  /// Chroma rows `band` and the luma rows beside them.
  func convertBand(_ band: Range<Int>, pixels: UnsafePointer<UInt8>, stride: Int, planes: YUVPlanes, ring: ChromaRing) {
    let taps = filter.taps, cw = width / 2
    var next = filter.first[band.lowerBound]
    filter.coefficients.withUnsafeBufferPointer { coefficients in
      for i in band {
        let first = filter.first[i]
        // Intermediate rows past the picture have zero taps; none is computed.
        let last = min(first + taps, height) - 1
        while next <= last {
          let (u, v) = ring.rows(next % taps)
          horizontalChroma(pixels + next * stride, u, v)
          next += 1
        }
        for j in 0..<taps {
          let (u, v) = ring.rows(min(first + j, height - 1) % taps)
          ring.uRows[j] = UnsafePointer(u)
          ring.vRows[j] = UnsafePointer(v)
        }
        let c = coefficients.baseAddress! + i * taps
        let interior = filter.isInterior[i]
        verticalChroma(ring.uRows, c, interior: interior, planes.u + i * planes.uStride, cw)
        verticalChroma(ring.vRows, c, interior: interior, planes.v + i * planes.vStride, cw)
        for y in 2 * i..<2 * i + 2 {
          luma(pixels + y * stride, planes.y + y * planes.yStride)
        }
      }
    }
  }

  // MARK: Luma

  func luma(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>) {
    var x = 0
    if kernels == .simd {
      let ry = SIMD8<UInt32>(repeating: UInt32(Self.ry)), gy = SIMD8<UInt32>(repeating: UInt32(Self.gy))
      let by = SIMD8<UInt32>(repeating: UInt32(Self.by)), bias = SIMD8<UInt32>(repeating: UInt32(Self.yBias))
      while x + 8 <= width {
        let p = UnsafeRawPointer(src + 4 * x).loadUnaligned(as: SIMD8<UInt32>.self)
        let r = p & 0xFF, g = (p &>> 8) & 0xFF, b = (p &>> 16) & 0xFF
        let y = (r &* ry &+ g &* gy &+ b &* by &+ bias) &>> 15
        UnsafeMutableRawPointer(dst + x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: y), as: SIMD8<UInt8>.self)
        x += 8
      }
    }
    while x < width {
      let s = src + 4 * x
      let r = Int32(s[0]), g = Int32(s[1]), b = Int32(s[2])
      dst[x] = UInt8(truncatingIfNeeded: (Self.ry * r + Self.gy * g + Self.by * b + Self.yBias) >> 15)
      x += 1
    }
  }

  // MARK: Chroma

  /// One source row's intermediate chroma (`Ci`), a sample per pixel pair.
  func horizontalChroma(_ src: UnsafePointer<UInt8>, _ u: UnsafeMutablePointer<Int16>, _ v: UnsafeMutablePointer<Int16>) {
    let cw = width / 2
    var x = 0
    if kernels == .simd {
      func splat(_ c: Int32) -> SIMD8<UInt32> { SIMD8(repeating: UInt32(bitPattern: c)) }
      let ru = splat(Self.ru), gu = splat(Self.gu), bu = splat(Self.bu)
      let rv = splat(Self.rv), gv = splat(Self.gv), bv = splat(Self.bv), bias = splat(Self.cBias)
      while x + 8 <= cw {
        // A pair of pixels per 64-bit lane, split into the two pixels.
        let p = UnsafeRawPointer(src + 8 * x).loadUnaligned(as: SIMD8<UInt64>.self)
        let e = SIMD8<UInt32>(truncatingIfNeeded: p), o = SIMD8<UInt32>(truncatingIfNeeded: p &>> 32)
        // (R, B) and (G, A) sums of the pair in 16-bit halves (≤ 510 each).
        let rb = (e & 0x00FF_00FF) &+ (o & 0x00FF_00FF)
        let ga = ((e &>> 8) & 0x00FF_00FF) &+ ((o &>> 8) & 0x00FF_00FF)
        let r = rb & 0xFFFF, b = rb &>> 16, g = ga & 0xFFFF
        // Wrapping 32-bit arithmetic: the true sums are positive (the bias
        // outweighs the negative terms), so the logical shift is exact.
        let cu = (r &* ru &+ g &* gu &+ b &* bu &+ bias) &>> 10
        let cv = (r &* rv &+ g &* gv &+ b &* bv &+ bias) &>> 10
        UnsafeMutableRawPointer(u + x).storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: cu), as: SIMD8<Int16>.self)
        UnsafeMutableRawPointer(v + x).storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: cv), as: SIMD8<Int16>.self)
        x += 8
      }
    }
    while x < cw {
      let s = src + 8 * x
      let r = Int32(s[0]) + Int32(s[4]), g = Int32(s[1]) + Int32(s[5]), b = Int32(s[2]) + Int32(s[6])
      u[x] = Int16(truncatingIfNeeded: (Self.ru * r + Self.gu * g + Self.bu * b + Self.cBias) >> 10)
      v[x] = Int16(truncatingIfNeeded: (Self.rv * r + Self.gv * g + Self.bv * b + Self.cBias) >> 10)
      x += 1
    }
  }

  /// One output chroma row from the intermediate rows `rows` and their taps.
  func verticalChroma(
    _ rows: UnsafeMutablePointer<UnsafePointer<Int16>>, _ taps: UnsafePointer<Int32>, interior: Bool,
    _ dst: UnsafeMutablePointer<UInt8>, _ count: Int
  ) {
    let n = filter.taps
    var x = 0
    if kernels == .simd && interior {
      // Every row but the two at each edge: swscale's interior taps, which
      // are symmetric, so rows are paired before multiplying. Each `Ci` is
      // below 2¹⁴ (it is at most 240·64 plus rounding), so a pair's sum
      // fits a 16-bit lane; multiplied by 16-bit constants, LLVM emits
      // pmaddwd (with taps held in variables it cannot, and multiplies in
      // 32 bits with four instructions per product).
      let (r0, r1, r2, r3, r4, r5, r6, r7) = (rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7])
      let bias = SIMD8<Int32>(repeating: 1 << 18)
      @inline(__always) func pair(_ a: UnsafePointer<Int16>, _ b: UnsafePointer<Int16>, _ x: Int) -> SIMD8<Int32> {
        let u = UnsafeRawPointer(a + x).loadUnaligned(as: SIMD8<Int16>.self)
        let v = UnsafeRawPointer(b + x).loadUnaligned(as: SIMD8<Int16>.self)
        return SIMD8<Int32>(truncatingIfNeeded: u &+ v)
      }
      let (c0, c1, c2, c3) = YUV420ChromaFilter.interiorHalf
      while x + 8 <= count {
        let acc =
          bias &+ pair(r0, r7, x) &* (2 * c0) &+ pair(r1, r6, x) &* (2 * c1) &+ pair(r2, r5, x) &* (2 * c2)
          &+ pair(r3, r4, x) &* (2 * c3)
        let out = (acc &>> 19).clamped(lowerBound: .zero, upperBound: SIMD8(repeating: 255))
        UnsafeMutableRawPointer(dst + x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: out), as: SIMD8<UInt8>.self)
        x += 8
      }
    } else if kernels == .simd {
      while x + 8 <= count {
        var acc = SIMD8<Int32>(repeating: 1 << 18)
        for j in 0..<n {
          let c = UnsafeRawPointer(rows[j] + x).loadUnaligned(as: SIMD8<Int16>.self)
          acc &+= SIMD8<Int32>(truncatingIfNeeded: c) &* (2 &* taps[j])
        }
        let out = (acc &>> 19).clamped(lowerBound: .zero, upperBound: SIMD8(repeating: 255))
        UnsafeMutableRawPointer(dst + x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: out), as: SIMD8<UInt8>.self)
        x += 8
      }
    }
    while x < count {
      var acc: Int32 = 1 << 18
      for j in 0..<n { acc += Int32(rows[j][x]) * 2 * taps[j] }
      dst[x] = UInt8(clamping: acc >> 19)
      x += 1
    }
  }
}

/// A worker's ring of intermediate chroma rows (source row `r` in slot
/// `r % rows`) and the row pointers of the output row being filtered.
final class ChromaRing {
  let width: Int, count: Int
  private let storage: UnsafeMutablePointer<Int16>
  let uRows: UnsafeMutablePointer<UnsafePointer<Int16>>
  let vRows: UnsafeMutablePointer<UnsafePointer<Int16>>

  init(width: Int, rows: Int) {
    self.width = width
    count = rows
    storage = .allocate(capacity: 2 * width * rows)
    storage.initialize(repeating: 0, count: 2 * width * rows)
    uRows = .allocate(capacity: rows)
    vRows = .allocate(capacity: rows)
    uRows.initialize(repeating: UnsafePointer(storage), count: rows)
    vRows.initialize(repeating: UnsafePointer(storage), count: rows)
  }

  /// The U and V rows of slot `slot`.
  func rows(_ slot: Int) -> (UnsafeMutablePointer<Int16>, UnsafeMutablePointer<Int16>) {
    let u = storage + 2 * width * slot
    return (u, u + width)
  }

  func deallocate() {
    storage.deallocate()
    uRows.deallocate()
    vRows.deallocate()
  }
}
