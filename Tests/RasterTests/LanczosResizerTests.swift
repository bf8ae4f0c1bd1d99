import Testing

@testable import Raster

/// The SIMD resizer against its scalar reference (swscale's own loops), any
/// split of the output rows, and the filter's shape. (`ResamplerTests` in
/// MediaTests holds both equal to swscale's output.)
@Suite struct LanczosResizerTests {
  /// How many bytes of `a` and `b` differ (a count, not the arrays, in a
  /// failure's message).
  func differing(_ a: [UInt8], _ b: [UInt8]) -> Int { a.count == b.count ? zip(a, b).filter { $0 != $1 }.count : -1 }

  /// `bitmap` resized by `resizer` in the bands `cuts` split its rows into.
  func resize(_ bitmap: Bitmap, _ resizer: LanczosResizer, cuts: [Int] = []) -> [UInt8] {
    var out = [UInt8](repeating: 0xEE, count: 4 * resizer.width * resizer.height)
    let bounds = [0] + cuts + [resizer.height]
    bitmap.bytes.withUnsafeBytes { pixels in
      out.withUnsafeMutableBytes { o in
        for (low, high) in zip(bounds, bounds.dropFirst()) {
          resizer.resize(
            rows: low..<high, of: pixels.baseAddress!, stride: bitmap.stride, into: o.baseAddress!,
            destinationStride: 4 * resizer.width)
        }
      }
    }
    return out
  }

  /// Shrinking by whole and fractional factors (8 to 152 taps), enlarging,
  /// one axis kept (the unscaled filter: one tap), widths with SIMD tails of
  /// every length, small frames; random bytes in every channel, alpha
  /// included (it is ignored).
  @Test(arguments: [
    (390, 844, 130, 281), (301, 203, 150, 101), (64, 48, 128, 96), (300, 90, 300, 10), (90, 300, 10, 300),
    (37, 29, 5, 3), (1000, 30, 41, 30), (8, 8, 3, 3), (129, 67, 43, 22), (17, 200, 61, 19),
  ])
  func simdEqualsTheScalarReference(sizes: (Int, Int, Int, Int)) throws {
    let (sw, sh, w, h) = sizes
    let bitmap = noiseBitmap(width: sw, height: sh, seed: UInt64(sw * 1000 + h), opaque: false)
    var resizer = try #require(LanczosResizer(from: sw, sh, to: w, h))
    resizer.kernels = .reference
    let reference = resize(bitmap, resizer)
    resizer.kernels = .simd
    let simd = resize(bitmap, resizer)
    let differing = zip(simd, reference).filter { $0 != $1 }.count
    #expect(differing == 0, "\(sw)×\(sh) → \(w)×\(h): \(differing) bytes differ")
    // Every pixel written, opaque.
    #expect(stride(from: 3, to: simd.count, by: 4).allSatisfy { simd[$0] == 255 })
  }

  /// Black and white stay black and white; saturated primaries side by
  /// side overshoot and are clamped alike on both paths.
  @Test func extremesEqualTheScalarReference() throws {
    let colours: [Pixel] = [
      Pixel(r: 0, g: 0, b: 0, a: 255), Pixel(r: 255, g: 255, b: 255, a: 255), Pixel(r: 255, g: 0, b: 0, a: 255),
      Pixel(r: 0, g: 255, b: 0, a: 255), Pixel(r: 0, g: 0, b: 255, a: 255),
    ]
    var bitmap = Bitmap(width: 96, height: 72)
    for y in 0..<72 {
      for x in 0..<96 { bitmap[x, y] = colours[(x / 5 + y / 4) % colours.count] }
    }
    var resizer = try #require(LanczosResizer(from: 96, 72, to: 32, 24))
    let simd = resize(bitmap, resizer)
    resizer.kernels = .reference
    #expect(differing(simd, resize(bitmap, resizer)) == 0)
    var flat = Bitmap(width: 60, height: 60)
    flat.fill(Pixel(r: 255, g: 255, b: 255, a: 255))
    let white = resize(flat, try #require(LanczosResizer(from: 60, 60, to: 20, 20)))
    #expect(white.allSatisfy { $0 == 255 }, "white is not white")
    flat.fill(Pixel(r: 0, g: 0, b: 0, a: 255))
    let black = resize(flat, try #require(LanczosResizer(from: 60, 60, to: 20, 20)))
    #expect(stride(from: 0, to: black.count, by: 4).allSatisfy { black[$0] == 0 && black[$0 + 1] == 0 && black[$0 + 2] == 0 })
  }

  /// Flat UI: runs of equal rows 1 to 60 rows tall (some shorter, some
  /// longer than the vertical filter's taps), each row textured across;
  /// the SIMD path's reuse of repeated rows against the reference, which
  /// computes every row, whole and in bands cut inside runs.
  static func flatFrame(width: Int, height: Int, seed: UInt64) -> Bitmap {
    var bitmap = Bitmap(width: width, height: height)
    var state = seed, y = 0
    let heights = [1, 2, 60, 5, 19, 20, 21, 1, 40, 3, 37, 1, 1, 24]
    var k = 0
    while y < height {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let run = heights[k % heights.count]
      let row = (0..<width).map { x -> Pixel in
        let v = UInt8(truncatingIfNeeded: (state >> 24) &+ UInt64(x / 7 * 13))
        return Pixel(r: v, g: UInt8(truncatingIfNeeded: state >> 40), b: 255 &- v, a: 255)
      }
      for r in y..<min(height, y + run) {
        for x in 0..<width { bitmap[x, r] = row[x] }
      }
      y += run
      k += 1
    }
    return bitmap
  }

  @Test(arguments: [(390, 844, 130, 281), (301, 503, 150, 101), (64, 300, 128, 600), (390, 300, 390, 100)])
  func repeatedRowsEqualTheReference(sizes: (Int, Int, Int, Int)) throws {
    let (sw, sh, w, h) = sizes
    let bitmap = Self.flatFrame(width: sw, height: sh, seed: UInt64(sw + h))
    var resizer = try #require(LanczosResizer(from: sw, sh, to: w, h))
    resizer.kernels = .reference
    let reference = resize(bitmap, resizer)
    resizer.kernels = .simd
    #expect(differing(resize(bitmap, resizer), reference) == 0, "\(sw)×\(sh) → \(w)×\(h)")
    let bands = resize(bitmap, resizer, cuts: [1, h / 3, h / 3 + 1, h / 2])
    #expect(differing(bands, reference) == 0, "\(sw)×\(sh) → \(w)×\(h) in bands")
  }

  /// A band of output rows is the same whichever band it is made in.
  @Test func bandsGiveTheSameRows() throws {
    let bitmap = noiseBitmap(width: 390, height: 300, seed: 9, opaque: true)
    let resizer = try #require(LanczosResizer(from: 390, 300, to: 130, 100))
    let whole = resize(bitmap, resizer)
    #expect(differing(resize(bitmap, resizer, cuts: [1, 50, 51, 99]), whole) == 0)
    #expect(differing(resize(bitmap, resizer, cuts: [33, 66]), whole) == 0)
  }

  /// The rows an output row reads: each output row reads `rowTaps` rows
  /// from `rowFirst`, inside the source; `outputRows(reading:)` is exactly
  /// the rows whose window meets the changed rows.
  @Test func outputRowsAreThoseReadingTheChangedRows() throws {
    let resizer = try #require(LanczosResizer(from: 100, 300, to: 50, 100))
    for y in 0..<100 {
      #expect(resizer.rowFirst[y] >= 0 && resizer.rowFirst[y] + resizer.rowTaps <= 300)
    }
    for changed in [0..<1, 299..<300, 120..<121, 10..<200, 0..<300] {
      let rows = resizer.outputRows(reading: changed)
      for y in 0..<100 {
        let reads = resizer.rowFirst[y]..<(resizer.rowFirst[y] + resizer.rowTaps)
        #expect(rows.contains(y) == reads.overlaps(changed), "row \(y), changed \(changed)")
      }
    }
    #expect(resizer.outputRows(reading: 0..<0).isEmpty)
  }

  /// swscale's normalisation: every output's taps sum to its `one`; sizes it
  /// would not resize in one pass (170 taps or more: it cascades) are refused.
  @Test func tapsSumToOneAndTooSmallIsRefused() throws {
    // (The resizer's reuse of a row made from one run of equal rows rests
    // on every vertical filter row summing to the same.)
    for (source, destination) in [(1179, 393), (2556, 852), (1170, 360), (2532, 779), (64, 128), (300, 300), (3000, 130), (13, 5)] {
      for (one, align) in [(1 << 14, 4), (1 << 12, 2)] {
        let filter = try #require(SwscaleFilter(from: source, to: destination, kernel: .lanczos, one: Int64(one), align: align))
        #expect(filter.taps % align == 0 || filter.taps == 1)
        for i in 0..<destination {
          let sum = filter.coefficients[i * filter.taps..<(i + 1) * filter.taps].reduce(0, +)
          #expect(sum == one, "\(source) → \(destination), output \(i): taps sum to \(sum)")
          #expect(filter.first[i] >= 0 && filter.first[i] + filter.taps <= max(source, filter.taps))
        }
      }
    }
    #expect(SwscaleFilter(from: 1000, to: 9, kernel: .lanczos, one: 1 << 14, align: 4) == nil)
    #expect(LanczosResizer(from: 1000, 30, to: 9, 30) == nil)
    #expect(LanczosResizer(from: 3, 100, to: 1, 50) == nil)
    #expect(LanczosResizer(from: 100, 2, to: 50, 1) == nil)
  }
}
