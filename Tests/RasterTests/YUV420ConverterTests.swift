import Testing

@testable import Raster

/// The SIMD converter against its scalar reference, band splits, and the
/// chroma filter's shape. (`YUVConverterTests` in MediaTests holds both equal
/// to swscale's output.)
@Suite struct YUV420ConverterTests {
  /// Converts `bitmap` with `kernels` over `threads` into planes with row
  /// padding (strides wider than the planes); returns Y, U, V without it.
  func convert(_ bitmap: Bitmap, _ kernels: KernelSet, threads: Int = 1) -> [UInt8] {
    let (w, h) = (bitmap.width, bitmap.height)
    let (ys, cs) = (w + 13, w / 2 + 7)
    var y = [UInt8](repeating: 0xEE, count: ys * h), u = [UInt8](repeating: 0xEE, count: cs * h / 2)
    var v = u
    y.withUnsafeMutableBufferPointer { yp in
      u.withUnsafeMutableBufferPointer { up in
        v.withUnsafeMutableBufferPointer { vp in
          let planes = YUVPlanes(
            y: yp.baseAddress!, yStride: ys, u: up.baseAddress!, uStride: cs, v: vp.baseAddress!, vStride: cs)
          YUV420Converter(width: w, height: h, kernels: kernels).convert(bitmap, into: planes, threads: threads)
        }
      }
    }
    // The padding is left alone.
    #expect((0..<h).allSatisfy { r in y[r * ys + w..<r * ys + ys].allSatisfy { $0 == 0xEE } })
    func rows(_ p: [UInt8], _ stride: Int, _ width: Int, _ count: Int) -> [UInt8] {
      (0..<count).flatMap { r in p[r * stride..<r * stride + width] }
    }
    return rows(y, ys, w, h) + rows(u, cs, w / 2, h / 2) + rows(v, cs, w / 2, h / 2)
  }

  /// Sizes with SIMD tails of every length (widths not multiples of 16),
  /// tiny heights (fewer than eight taps) and a bench-sized frame; random
  /// bytes in every channel (alpha is ignored, colours need not be ≤ alpha).
  @Test(arguments: [(2, 2), (4, 4), (6, 8), (18, 10), (30, 12), (34, 14), (46, 22), (66, 40), (1170, 64)])
  func simdEqualsTheScalarReference(size: (Int, Int)) {
    let (w, h) = size
    let bitmap = noiseBitmap(width: w, height: h, seed: UInt64(w * 1000 + h), opaque: false)
    let reference = convert(bitmap, .reference)
    #expect(convert(bitmap, .simd) == reference, "\(w)×\(h)")
  }

  /// Extremes: black, white, saturated primaries side by side (the chroma
  /// filter's overshoot is clamped the same way on both paths).
  @Test func extremesEqualTheScalarReference() {
    let colours: [Pixel] = [
      Pixel(r: 0, g: 0, b: 0, a: 255), Pixel(r: 255, g: 255, b: 255, a: 255), Pixel(r: 255, g: 0, b: 0, a: 255),
      Pixel(r: 0, g: 255, b: 0, a: 255), Pixel(r: 0, g: 0, b: 255, a: 255), Pixel(r: 255, g: 0, b: 255, a: 0),
    ]
    var bitmap = Bitmap(width: 48, height: 36)
    for y in 0..<36 {
      for x in 0..<48 { bitmap[x, y] = colours[(x / 3 + y / 2) % colours.count] }
    }
    let simd = convert(bitmap, .simd)
    #expect(simd == convert(bitmap, .reference))
    // Black is Y 16, white Y 235 (limited range).
    #expect(simd[0] == 16 && simd[3] == 235)
  }

  /// Bands are independent: any thread count gives the same bytes.
  @Test func everyThreadCountGivesTheSameBytes() {
    let bitmap = noiseBitmap(width: 202, height: 150, seed: 7)
    let one = convert(bitmap, .simd)
    for threads in [2, 3, 5, 16] {
      #expect(convert(bitmap, .simd, threads: threads) == one, "\(threads) threads")
    }
  }

  /// Every output row's taps sum to 4096 (unity at 12 bits), read only rows
  /// of the picture, and rows away from the edges carry the interior taps.
  @Test(arguments: [2, 4, 6, 8, 10, 12, 14, 362, 2532])
  func chromaFilterRowsAreNormalisedAndInside(height: Int) {
    let f = YUV420ChromaFilter(height: height)
    #expect(f.first.count == height / 2 && f.coefficients.count == f.taps * height / 2)
    for i in 0..<height / 2 {
      let taps = f.coefficients[i * f.taps..<(i + 1) * f.taps]
      #expect(taps.reduce(0, +) == 4096, "row \(i) of \(height)")
      for (j, c) in taps.enumerated() where c != 0 {
        #expect((0..<height).contains(f.first[i] + j), "row \(i) of \(height) reads row \(f.first[i] + j)")
      }
    }
    if height >= 12 {
      #expect(f.taps == 8)
      // Only the two rows at each edge fold taps over the picture's edge.
      #expect(f.isInterior.filter { !$0 }.count == 4, "\(height)")
      #expect(f.isInterior[2] && f.first[2] == 1)
    }
  }
}
