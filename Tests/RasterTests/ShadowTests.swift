#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Raster

@Suite struct ShadowTests {
  /// Φ, the standard normal CDF.
  func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

  @Test func shadowOfABoxIsAGaussianBlur() {
    // A 20×20 opaque box at (40, 40) with shadow radius 3 (σ = 3 px at @1x),
    // offset (0, −3) (upwards), opacity 1, black; sampled where the box does not cover.
    var l = solidLayer(Rect(x: 40, y: 40, width: 20, height: 20), .white)
    l.shadowOpacity = 1
    var bmp = Bitmap(width: 100, height: 100)
    Compositor(scale: 1).render(l, into: &bmp)
    for (x, y) in [(50, 36), (50, 34), (37, 50), (62, 45), (50, 61), (30, 50)] {
      // Shadow source = box moved up 3: [40, 60) × [37, 57); value at pixel centre of the
      // blurred box, ≈ Φ-difference product (pixel-sampled Gaussian vs continuous: small error).
      let xc = Double(x) + 0.5, yc = Double(y) + 0.5
      let ax = phi((60 - xc) / 3) - phi((40 - xc) / 3)
      let ay = phi((57 - yc) / 3) - phi((37 - yc) / 3)
      let expected = ax * ay
      let got = Double(bmp[x, y].a) / 255
      #expect(abs(got - expected) < 0.03, "(\(x), \(y)): \(got) vs \(expected)")
      #expect(bmp[x, y].r == 0)
    }
    // Beneath the box: the box itself.
    #expect(bmp[50, 50] == Pixel(r: 255, g: 255, b: 255, a: 255))
  }

  @Test func shadowPathAndScale() {
    var l = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20))
    l.shadowOpacity = 0.5
    l.shadowRadius = 2
    l.shadowOffset = Size(width: 5, height: 0)
    l.shadowPath = Path(rect: Rect(x: 0, y: 0, width: 20, height: 20))
    var bmp = Bitmap(width: 120, height: 120)
    Compositor(scale: 3).render(l, into: &bmp)
    // Shadow centre at (10+5+10, 20)·3 = (75, 60): full shadow alpha 0.5.
    #expect(abs(Int(bmp[75, 60].a) - 128) <= 1)
    // Far outside.
    #expect(bmp[5, 5].a == 0)
  }

  @Test func groupOpacityIncludesShadow() {
    // An opaque layer with a shadow at opacity 0.5: beneath the layer the shadow stays hidden.
    var l = solidLayer(Rect(x: 10, y: 10, width: 20, height: 20), .white)
    l.shadowOpacity = 1
    l.shadowOffset = .zero
    l.opacity = 0.5
    var bmp = Bitmap(width: 40, height: 40, fill: Pixel(r: 0, g: 0, b: 255, a: 255))
    Compositor(scale: 1).render(l, into: &bmp)
    #expect(bmp[20, 20] == Pixel(r: 128, g: 128, b: 255, a: 255))
  }
}
