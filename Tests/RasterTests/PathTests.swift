#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Raster
import TestSupport

@Suite struct PathTests {
  func fill(_ path: Path, rule: FillRule = .nonZero, size: Int = 40, scale: Double = 1) -> Bitmap {
    var l = Layer(frame: Rect(x: 0, y: 0, width: Double(size), height: Double(size)))
    l.path = path
    l.fillColor = .white
    l.fillRule = rule
    var b = Bitmap(width: Int(Double(size) * scale), height: Int(Double(size) * scale))
    Compositor(scale: scale).render(l, into: &b)
    return b
  }

  func mask(_ path: Path, rule: FillRule, size: Int) -> Bitmap {
    let m = PathRasterizer.coverage(
      path, rule: rule, map: .identity, clip: PixelBox(x0: 0, y0: 0, x1: size, y1: size))!
    var b = Bitmap(width: size, height: size)
    for y in 0..<m.height {
      for x in 0..<m.width {
        let a = m.alpha[y * m.width + x]
        b[m.x0 + x, m.y0 + y] = Pixel(r: a, g: a, b: a, a: a)
      }
    }
    return b
  }

  @Test func triangleCoverageSumsToArea() {
    let p = Path(elements: [
      .move(to: Point(x: 3.3, y: 2.1)), .line(to: Point(x: 35.7, y: 9.4)), .line(to: Point(x: 12.2, y: 37.9)), .close,
    ])
    let b = fill(p)
    var sum = 0.0
    for y in 0..<40 { for x in 0..<40 { sum += Double(b[x, y].a) / 255 } }
    let cross: Double = (35.7 - 3.3) * (37.9 - 2.1) - (12.2 - 3.3) * (9.4 - 2.1)
    let area = abs(cross) / 2
    #expect(abs(sum - area) < 0.5, "\(sum) vs \(area)")
    #expect(b[15, 15].a == 255)
    #expect(b[38, 38].a == 0)
  }

  /// Issue 20: NaN or infinite numbers that reach the rasterizer (a curve
  /// overflowing, a spring gone wrong) are dropped, never trapped on; huge
  /// finite ones are clamped, so a giant circle still covers the canvas.
  @Test func nonFinitePathsAreDroppedNotTrapped() {
    let box = PixelBox(x0: 0, y0: 0, x1: 40, y1: 40)
    for bad in [Double.nan, .infinity, -.infinity] {
      let circle = Path(circleCenter: Point(x: 20, y: 20), radius: bad)
      #expect(PathRasterizer.coverage(circle, rule: .nonZero, map: .identity, clip: box) == nil)
      let curve = Path(elements: [
        .move(to: Point(x: 0, y: 0)), .curve(to: Point(x: 40, y: 40), control1: Point(x: bad, y: 0), control2: Point(x: 0, y: 40)),
        .line(to: Point(x: 0, y: 40)), .close,
      ])
      #expect(PathRasterizer.coverage(curve, rule: .evenOdd, map: .identity, clip: box) == nil)
      #expect(fill(circle).bytes.allSatisfy { $0 == 0 })
    }
    // Second differences of 1e300 overflow to infinity: one segment, dropped.
    let overflowing = Path(elements: [
      .move(to: Point(x: 0, y: 0)), .curve(to: Point(x: 40, y: 0), control1: Point(x: 1e300, y: 1e300), control2: Point(x: -1e300, y: 1e300)),
      .close,
    ])
    _ = PathRasterizer.coverage(overflowing, rule: .nonZero, map: .identity, clip: box)
    #expect(PathRasterizer.segmentCount(.nan, tolerance: 0.05) == 1)
    #expect(PathRasterizer.segmentCount(.infinity, tolerance: 0.05) == 1)
    #expect(PathRasterizer.segmentCount(8 * 0.05 * 16, tolerance: 0.05) == 4)
    // A circle of radius 1e12 around the canvas covers all of it.
    let giant = Path(circleCenter: Point(x: 20, y: 20), radius: 1e12)
    let mask = PathRasterizer.coverage(giant, rule: .nonZero, map: .identity, clip: box)
    #expect(mask.map { $0.width == 40 && $0.height == 40 && $0.alpha.allSatisfy { $0 == 255 } } == true)
  }

  @Test func horizontalEdgeAtHalfPixel() {
    let p = Path(elements: [
      .move(to: Point(x: 2, y: 2)), .line(to: Point(x: 30, y: 2)), .line(to: Point(x: 17, y: 10.5)),
      .line(to: Point(x: 2, y: 10.5)), .close,
    ])
    let b = fill(p)
    #expect(b[3, 10].a == 128)
    #expect(b[3, 9].a == 255)
    #expect(b[3, 11].a == 0)
  }

  /// A pentagram centred at (`cx`, `cy`), its points `rx` and `ry` away.
  static func pentagram(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) -> Path {
    var els: [Path.Element] = []
    for i in 0..<5 {
      let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
      let p = Point(x: cx + rx * cos(a), y: cy + ry * sin(a))
      els.append(i == 0 ? .move(to: p) : .line(to: p))
    }
    els.append(.close)
    return Path(elements: els)
  }

  @Test func starFillRules() {
    // A pentagram: its centre has winding 2 — filled under non-zero, empty under even-odd.
    let p = Self.pentagram(20, 20, 18, 18)
    #expect(fill(p, rule: .nonZero)[20, 20].a == 255)
    #expect(fill(p, rule: .evenOdd)[20, 20].a == 0)
    // A star point is filled under both.
    #expect(fill(p, rule: .evenOdd)[20, 5].a == 255)
  }

  /// A tall mask is rasterized in bands of rows on several threads: each
  /// band starts from the edges crossing its first sub-scanline, and the
  /// bytes are those of one pass from the top (a screen with a circular
  /// hole wider than the screen, as zoom-expand's, and a pentagram
  /// crossing band edges, both fill rules, boxes that start between bands).
  @Test func bandsMatchOnePass() {
    var hole = Path(rect: Rect(x: 0, y: 0, width: 140, height: 300))
    hole.elements += Path(circleCenter: Point(x: 50.3, y: 120.6), radius: 171.4).elements
    var compared = 0
    for path in [Self.pentagram(70, 150, 66, 140), hole] {
      for rule in [FillRule.nonZero, .evenOdd] {
        for clip in [PixelBox(x0: 0, y0: 0, x1: 140, y1: 300), PixelBox(x0: 3, y0: 37, x1: 131, y1: 293)] {
          let banded = PathRasterizer.coverage(path, rule: rule, map: .identity, clip: clip)!
          #expect(banded.height > 3 * PathRasterizer.bandRows)
          var whole = [UInt8](repeating: 0, count: banded.alpha.count)
          let edges = PathRasterizer.edges(path, map: .identity)!.edges
          edges.withUnsafeBufferPointer { edges in
            whole.withUnsafeMutableBufferPointer { out in
              PathRasterizer.rasterizeRows(0..<banded.height, edges, rule: rule, box: banded.box, into: out.baseAddress!)
            }
          }
          let differing = zip(banded.alpha, whole).filter { $0 != $1 }.count
          #expect(differing == 0, "\(differing) bytes of the bands differ from one pass (\(rule), clip \(clip))")
          // (Under non-zero the hole, traced the rect's way round, is filled.)
          if rule == .evenOdd { #expect(whole.contains(0) && whole.contains(255) && Set(whole).count > 2) }
          compared += 1
        }
      }
    }
    #expect(compared == 8)
  }

  func rectMinusCircle(reversed: Bool, radius r: Double = 17.4) -> Path {
    var p = Path(rect: Rect(x: 0, y: 0, width: 60, height: 60))
    var c = Path(circleCenter: Point(x: 27.3, y: 31.6), radius: r)
    if reversed {
      // The same circle traced counter-clockwise.
      let k = 0.5522847498307936, cx = 27.3, cy = 31.6
      c = Path(elements: [
        .move(to: Point(x: cx + r, y: cy)),
        .curve(to: Point(x: cx, y: cy - r), control1: Point(x: cx + r, y: cy - k * r), control2: Point(x: cx + k * r, y: cy - r)),
        .curve(to: Point(x: cx - r, y: cy), control1: Point(x: cx - k * r, y: cy - r), control2: Point(x: cx - r, y: cy - k * r)),
        .curve(to: Point(x: cx, y: cy + r), control1: Point(x: cx - r, y: cy + k * r), control2: Point(x: cx - k * r, y: cy + r)),
        .curve(to: Point(x: cx + r, y: cy), control1: Point(x: cx + k * r, y: cy + r), control2: Point(x: cx + r, y: cy + k * r)),
      ])
    }
    p.elements += c.elements
    return p
  }

  @Test func rectMinusCircleAnalyticMatchesRasterizer() {
    for (rule, reversed) in [(FillRule.evenOdd, false), (.evenOdd, true), (.nonZero, true)] {
      let p = rectMinusCircle(reversed: reversed)
      let analytic = fill(p, rule: rule, size: 60)
      let raster = mask(p, rule: rule, size: 60)
      #expect(analytic[27, 31].a == 0)
      #expect(analytic[2, 2].a == 255)
      // Centre-distance coverage vs area coverage differ by ≤ 0.05 at 45° edges, plus 1/16 steps.
      #expect(maxDifference(analytic, raster) <= 24)
      #expect(psnr(analytic, raster) > 40)
    }
    // A hole past the rectangle's sides (zoom-expand's backdrop as the hole
    // grows): analytic too, where the rectangle covers the canvas.
    for (rule, reversed) in [(FillRule.evenOdd, false), (.evenOdd, true), (.nonZero, true)] {
      let p = rectMinusCircle(reversed: reversed, radius: 38.5)
      let analytic = fill(p, rule: rule, size: 60)
      let raster = mask(p, rule: rule, size: 60)
      #expect(analytic[27, 31].a == 0)
      #expect(analytic[59, 0].a == 255)
      // Not the rasterizer's mask: distance coverage differs from area coverage somewhere on the circle.
      #expect(maxDifference(analytic, raster) > 0)
      #expect(maxDifference(analytic, raster) <= 24)
      #expect(psnr(analytic, raster) > 40)
    }
    // Non-zero with both subpaths clockwise: no hole.
    let solid = fill(rectMinusCircle(reversed: false), rule: .nonZero, size: 60)
    #expect(solid[27, 31].a == 255)
  }

  @Test func circleAnalyticMatchesRasterizer() {
    let p = Path(ovalIn: Rect(x: 3.7, y: 5.2, width: 30.6, height: 30.6))
    let analytic = fill(p)
    let raster = mask(p, rule: .nonZero, size: 40)
    #expect(psnr(analytic, raster) > 40)
  }

  /// An oval in a rect of negative size, as an overshooting curve blends a
  /// big circle onto a small one point by point: its points are mirrored
  /// through the centre, the same oval traced the other way, which the
  /// non-zero rule fills (as the rasterizer does with the same points).
  @Test func anOvalOfNegativeSizeIsStillFilled() {
    let mirrored = Path(ovalIn: Rect(x: 34, y: 35.8, width: -30.6, height: -30.6))
    #expect(mirrored.circle?.radius == 15.3)
    let filled = fill(mirrored)
    #expect(psnr(filled, fill(Path(ovalIn: Rect(x: 3.4, y: 5.2, width: 30.6, height: 30.6)))) > 60)
    #expect(psnr(filled, mask(mirrored, rule: .nonZero, size: 40)) > 40)
  }

  /// A convex outline of straight lines is filled analytically, edge by
  /// edge (`Shape.polygon`): distance coverage where the rasterizer gives
  /// area coverage, so the two agree within the 45° bound above.
  @Test func convexPolygonAnalyticMatchesRasterizer() {
    let outlines: [[Point]] = [
      [Point(x: 3.3, y: 2.1), Point(x: 35.7, y: 9.4), Point(x: 12.2, y: 37.9)],
      (0..<5).map { k in
        let a = Double(k) * 2 * Double.pi / 5 + 0.3
        return Point(x: 30 + 24 * cos(a), y: 30 + 24 * sin(a))
      },
      // A page cut along a fold (partial curl): the rectangle less a corner, anticlockwise.
      [Point(x: 0, y: 0), Point(x: 0, y: 60), Point(x: 20.5, y: 60), Point(x: 60, y: 31.25), Point(x: 60, y: 0)],
    ]
    for corners in outlines {
      let p = Path(elements: [.move(to: corners[0])] + corners.dropFirst().map { .line(to: $0) } + [.close])
      #expect(p.convexPolygon == corners)
      for rule in [FillRule.nonZero, .evenOdd] {
        let analytic = fill(p, rule: rule, size: 60)
        let raster = mask(p, rule: rule, size: 60)
        #expect(maxDifference(analytic, raster) > 0)  // the analytic fill, not the mask
        #expect(maxDifference(analytic, raster) <= 24)
        #expect(psnr(analytic, raster) > 40)
      }
    }
  }

  @Test func convexPolygonDetection() {
    func lines(_ points: [(Double, Double)], close: Bool = true) -> Path {
      let p = points.map { Point(x: $0.0, y: $0.1) }
      return Path(elements: [.move(to: p[0])] + p.dropFirst().map { .line(to: $0) } + (close ? [.close] : []))
    }
    let square = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
    // A repeated corner, a corner on a straight side and the start repeated at the end are no corners.
    #expect(lines([(0, 0), (5, 0), (10, 0), (10, 0), (10, 10), (0, 10), (0, 0)]).convexPolygon == square)
    // Unclosed: a fill closes it.
    #expect(lines([(0, 0), (10, 0), (10, 10), (0, 10)], close: false).convexPolygon == square)
    // Concave (an arrow), self-crossing (a bow tie), a pentagram (turning twice round), a line.
    #expect(lines([(0, 0), (10, 5), (0, 10), (3, 5)]).convexPolygon == nil)
    #expect(lines([(0, 0), (10, 10), (10, 0), (0, 10)]).convexPolygon == nil)
    let star = (0..<5).map { k in
      let a = Double(2 * k % 5) * 2 * Double.pi / 5
      return (10 * cos(a), 10 * sin(a))
    }
    #expect(lines(star).convexPolygon == nil)
    #expect(lines([(0, 0), (5, 5), (10, 10)]).convexPolygon == nil)
    // A curve, or a second subpath.
    #expect(Path(ovalIn: Rect(x: 0, y: 0, width: 10, height: 10)).convexPolygon == nil)
    var two = lines([(0, 0), (10, 0), (10, 10)])
    two.elements += lines([(20, 20), (30, 20), (30, 30)]).elements
    #expect(two.convexPolygon == nil)
  }

  @Test func tracedCircleDetection() {
    #expect(Path(circleCenter: Point(x: 3, y: 4), radius: 5).subpaths[0].tracedCircle?.radius == 5)
    let t = rectMinusCircle(reversed: true).subpaths
    #expect(t.count == 2)
    #expect(t[1].tracedCircle != nil)
    #expect(t[0].tracedCircle == nil)
    #expect(t[0].axisAlignedRect == Rect(x: 0, y: 0, width: 60, height: 60))
    #expect(Path(ovalIn: Rect(x: 0, y: 0, width: 10, height: 20)).tracedCircle == nil)
  }
}

/// PSNR over all four channels, in dB.
func psnr(_ a: Bitmap, _ b: Bitmap) -> Double { TestSupport.psnr(a, b, alpha: true) }
