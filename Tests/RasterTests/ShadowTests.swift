#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Raster
import TestSupport

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

  @Test func generalShadowMovesBySubpixelOffsets() {
    // Two boxes (not one box: the general, offscreen path) at [40, 60) and
    // [70, 80) × [40, 60), σ = 3, offset (2.5, 1.5): the shadow is the sum
    // of two blurred boxes moved by exactly that, not by whole pixels
    // (rounding would move it half a pixel off: up to 0.06 at these edges).
    var l = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    l.sublayers = [
      solidLayer(Rect(x: 40, y: 40, width: 20, height: 20), .white),
      solidLayer(Rect(x: 70, y: 40, width: 10, height: 20), .white),
    ]
    l.shadowOpacity = 1
    l.shadowOffset = Size(width: 2.5, height: 1.5)
    var bmp = Bitmap(width: 100, height: 100)
    Compositor(scale: 1).render(l, into: &bmp)
    func blurredBox(_ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double, _ xc: Double, _ yc: Double) -> Double {
      (phi((x1 + 2.5 - xc) / 3) - phi((x0 + 2.5 - xc) / 3)) * (phi((y1 + 1.5 - yc) / 3) - phi((y0 + 1.5 - yc) / 3))
    }
    for (x, y) in [(60, 50), (61, 50), (62, 50), (63, 50), (65, 50), (80, 50), (82, 50), (50, 60), (50, 62), (75, 61), (38, 50)] {
      let xc = Double(x) + 0.5, yc = Double(y) + 0.5
      let expected = blurredBox(40, 60, 40, 60, xc, yc) + blurredBox(70, 80, 40, 60, xc, yc)
      let got = Double(bmp[x, y].a) / 255
      #expect(abs(got - expected) < 0.02, "(\(x), \(y)): \(got) vs \(expected)")
    }
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

  /// Core Animation masks a layer's whole rendering, shadow included: a
  /// masked layer keeps its shadow only inside the mask, and masksToBounds
  /// clips the shadow to the bounds (why UIKit code puts a shadow on a
  /// container view). A translucent layer lets the shadow beneath show.
  @Test(arguments: [false, true]) func maskAndMasksToBoundsClipTheShadow(masksToBounds: Bool) {
    var l = solidLayer(Rect(x: 20, y: 20, width: 40, height: 40), Color(red: 1, green: 1, blue: 1, alpha: 0.5))
    l.shadowOpacity = 1
    l.shadowRadius = 1
    l.shadowOffset = Size(width: 10, height: 0)
    if masksToBounds {
      l.masksToBounds = true
    } else {
      // The mask: the left 30 points of the layer.
      l.mask = solidLayer(Rect(x: 0, y: 0, width: 30, height: 40), .black)
    }
    var bmp = Bitmap(width: 80, height: 80)
    Compositor(scale: 1).render(l, into: &bmp)
    // Inside the mask, beneath the half-transparent white: the shadow (alpha
    // 0.5, the content's) shows through, 0.5 + 0.5 · 0.5 = 0.75.
    let inside = bmp[35, 40]
    #expect(abs(Int(inside.a) - 191) <= 1 && abs(Int(inside.r) - 128) <= 1, "\(inside)")
    // The shadow's right part (x 60…70) lies outside the bounds and the mask: gone.
    #expect(bmp[65, 40] == .clear)
    #expect(bmp[62, 40] == .clear)
    if !masksToBounds {
      // Right of the mask's edge (x = 50), inside the bounds: neither layer nor shadow.
      #expect(bmp[55, 40] == .clear)
    }
  }
}

@Suite struct AnalyticShadowTests {
  /// The analytic (separable erf) shadow of an opaque box or rounded box
  /// matches the general path (rendered alpha, discrete separable blur):
  /// the same source drawn through a gradient paint, which the analytic
  /// path does not take.
  @Test(arguments: [0.0, 6.0, 30.0])
  func analyticMatchesGeneralBlur(radius: Double) {
    func scene(analytic: Bool) -> Layer {
      var root = solidLayer(Rect(x: 0, y: 0, width: 120, height: 100), .white)
      var card = Layer(frame: Rect(x: 25.25, y: 20.5, width: 60, height: 50))
      if analytic {
        card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
      } else {
        let c = Color(red: 0.2, green: 0.4, blue: 0.9)
        card.gradient = Gradient(colors: [c, c], startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 0))
      }
      card.cornerRadius = radius
      card.shadowOpacity = 0.7
      card.shadowRadius = 2.5
      card.shadowOffset = Size(width: 3, height: 4)
      root.sublayers = [card]
      return root
    }
    let comp = Compositor(scale: 2)
    let a = comp.snapshot(scene(analytic: true)), b = comp.snapshot(scene(analytic: false))
    // The general path rounds the offset to whole pixels (here it is whole) and samples the
    // Gaussian per pixel; the analytic one integrates it: a few levels apart at most.
    #expect(maxDifference(a, b) <= 4, "radius \(radius): \(maxDifference(a, b))")
    #expect(GoldenTests.psnr(a, b) >= 45, "radius \(radius): \(GoldenTests.psnr(a, b)) dB")
  }
}

@Suite struct ShadowBlurTests {
  /// `Shadows.blur` shares the work of identical rows and columns and skips
  /// zero rows; it gives the bits of `blurReference`, which computes every
  /// row of both passes on its own: on a rounded box's alpha inside an
  /// empty margin (long runs of equal rows and columns), on rows that
  /// repeat in runs shorter and longer than the kernel's window, on columns
  /// that do with zero rows between them, at the edges, and with sub-pixel
  /// shifts.
  @Test(arguments: [(0.0, 0.0), (0.25, 0.75)])
  func sharedRowsGiveTheReferenceBits(shift: (Double, Double)) {
    var state: UInt64 = 7
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    // A rounded box (radius 9) of alpha 1 with antialiased corners, 12 px of margin.
    let w = 70, h = 90
    var box = [UInt8](repeating: 0, count: w * h)
    for y in 12..<(h - 12) {
      for x in 12..<(w - 12) {
        let dx = max(0, max(21 - Double(x) - 0.5, Double(x) + 0.5 - Double(w - 21)))
        let dy = max(0, max(21 - Double(y) - 0.5, Double(y) + 0.5 - Double(h - 21)))
        box[y * w + x] = UInt8((255 * min(1, max(0, 9.5 - (dx * dx + dy * dy).squareRoot()))).rounded())
      }
    }
    // Random rows, each repeated 1 to 40 times.
    var runs: [UInt8] = []
    while runs.count < w * h {
      let row = (0..<w).map { _ in UInt8(next() % 256) }
      for _ in 0..<Int(1 + next() % 40) { runs += row }
    }
    runs.removeLast(runs.count - w * h)
    // Random columns, each repeated 1 to 40 times, in rows of random
    // height; every fifth stretch of rows zero.
    var columns: [UInt8] = []
    while columns.count < w * h {
      var row: [UInt8] = []
      while row.count < w {
        let value = UInt8(next() % 256)
        row += [UInt8](repeating: value, count: Int(1 + next() % 40))
      }
      row.removeLast(row.count - w)
      if next() % 5 == 0 { row = [UInt8](repeating: 0, count: w) }
      for _ in 0..<Int(1 + next() % 12) { columns += row }
    }
    columns.removeLast(columns.count - w * h)
    #expect(columns.contains(0) && Set(columns).count > 20)
    for (input, sigma) in [(box, 2.0), (box, 5.0), (runs, 1.5), (runs, 4.0), (columns, 1.5), (columns, 4.0)] {
      let reach = Int((3 * sigma).rounded(.up))
      let fast = Shadows.blur(input, width: w, height: h, sigma: sigma, reach: reach, shift: shift)
      let reference = Shadows.blurReference(
        input.map(Shadows.level), width: w, height: h, sigma: sigma, reach: reach, shift: shift
      ).map { UInt8(min(max($0, 0), 1) * 255 + 0.5) }
      #expect(fast.count == reference.count)
      let differing = zip(fast, reference).filter { $0 != $1 }.count
      #expect(differing == 0, "σ \(sigma): \(differing) values differ")
    }
    // The box's shadow is not trivially zero.
    #expect(Shadows.blur(box, width: w, height: h, sigma: 5, reach: 15)[45 * w + 35] > 128)
  }

  /// A shadow without a blur draws its alpha as coverage: every level's
  /// coverage byte is the alpha byte it came from.
  @Test func aLevelsCoverageIsItsAlpha() {
    let levels = (0...255).map { Shadows.level(UInt8($0)) }
    var bytes = [UInt8](repeating: 0, count: 256)
    levels.withUnsafeBufferPointer { levels in
      bytes.withUnsafeMutableBufferPointer { Shadows.coverage(levels.baseAddress!, into: $0.baseAddress!, count: 256) }
    }
    #expect(bytes == (0...255).map { UInt8($0) })
    #expect(levels.allSatisfy { UInt8(min(max($0, 0), 1) * 255 + 0.5) == UInt8(($0 * 255).rounded()) })
  }
}
