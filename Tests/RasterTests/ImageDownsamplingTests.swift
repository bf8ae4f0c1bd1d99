// Large images are area-averaged to their on-screen size before the
// compositor samples them, so fine detail turns to its average, not noise.

import Geometry
import Testing

@testable import Raster

@Suite enum ImageDownsamplingTests {
  /// `width × height` pixels of 1 px black and white columns.
  static func stripes(_ width: Int, _ height: Int) -> Bitmap {
    var b = Bitmap(width: width, height: height, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
    for y in 0..<height {
      for x in stride(from: 1, to: width, by: 2) { b[x, y] = Pixel(r: 255, g: 255, b: 255, a: 255) }
    }
    return b
  }

  @Test static func weightsCoverEachSourcePixelOnce() {
    let taps = ImageDownsampling.Taps(from: 3, to: 2)
    let w = [taps.taps(0), taps.taps(1)]
    #expect(w[0].map(\.0) == [0, 1] && w[1].map(\.0) == [1, 2])
    #expect(abs(w[0][0].1 - 2.0 / 3) < 1e-6 && abs(w[0][1].1 - 1.0 / 3) < 1e-6)
    // Every source pixel's total weight × ratio is 1.
    let big = ImageDownsampling.Taps(from: 1000, to: 37)
    var total = [Float](repeating: 0, count: 1000)
    for o in 0..<37 { for (i, wt) in big.taps(o) { total[i] += wt * 1000 / 37 } }
    #expect(total.allSatisfy { abs($0 - 1) < 1e-3 })
  }

  @Test static func stripesAverageToGrey() {
    let small = ImageDownsampling.downsampled(stripes(400, 300), width: 40, height: 30)
    #expect(small.width == 40 && small.height == 30)
    for y in 0..<30 {
      for x in 0..<40 { #expect(small[x, y] == Pixel(r: 128, g: 128, b: 128, a: 255)) }
    }
  }

  @Test static func onlyMuchLargerImagesAreReduced() {
    let image = stripes(100, 100)
    let size = Size(width: 90, height: 90)
    #expect(ImageDownsampling.fitted(image, gravity: .resize, in: size, scale: 1) == image)
    #expect(ImageDownsampling.fitted(image, gravity: .center, in: Size(width: 10, height: 10), scale: 1) == image)
    let fill = ImageDownsampling.fitted(image, gravity: .resizeAspectFill, in: Size(width: 40, height: 20), scale: 1)
    #expect(fill.width == 40 && fill.height == 40)
    let fit = ImageDownsampling.fitted(image, gravity: .resizeAspect, in: Size(width: 40, height: 20), scale: 1)
    #expect(fit.width == 20 && fit.height == 20)
  }

  /// The banded SIMD path gives the scalar reference's bytes: noise (opaque
  /// and translucent) through ratios from just over 1 to 9, sides that do
  /// not divide, one output row, and outputs of several bands.
  @Test(arguments: [
    (400, 300, 40, 30), (1000, 999, 333, 101), (97, 211, 13, 200), (640, 480, 549, 77),
    (300, 700, 17, 1), (1, 40, 1, 9), (2016, 1512, 732, 549),
  ])
  static func simdMatchesReference(_ sizes: (Int, Int, Int, Int)) {
    let (sw, sh, w, h) = sizes
    for opaque in [true, false] {
      let image = noiseBitmap(width: sw, height: sh, seed: UInt64(sw * 7 + sh), opaque: opaque)
      let fast = ImageDownsampling.downsampled(image, width: w, height: h)
      let reference = ImageDownsampling.downsampled(image, width: w, height: h, kernels: .reference)
      #expect(fast.width == w && fast.height == h)
      #expect(fast == reference, "\(sw)×\(sh) → \(w)×\(h), opaque \(opaque): max difference \(maxDifference(fast, reference))")
    }
  }
}
