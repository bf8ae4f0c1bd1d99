import Geometry
import Testing

@Suite struct HomographyTests {
  func close(_ a: Point, _ b: Point, _ tol: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tol && abs(a.y - b.y) <= tol
  }

  @Test func inverseRoundTrips() throws {
    var t = Transform3D.rotation(y: 0.7).concatenating(.translation(x: 12, y: -5))
    t.m34 = -0.002
    let h = Homography(flattening: t.concatenating(.scale(x: 1.5, y: 0.5)))
    let inv = try #require(h.inverted())
    for p in [Point(x: 0, y: 0), Point(x: 100, y: 30), Point(x: -40, y: 77)] {
      #expect(close(inv.apply(h.apply(p)), p, 1e-7))
    }
    #expect(Homography.scale(x: 0, y: 1).inverted() == nil)
  }

  @Test func concatenationOrder() {
    let a = Homography.translation(x: 10, y: 0), b = Homography.scale(x: 2, y: 2)
    // First a, then b: (1, 1) → (11, 1) → (22, 2).
    #expect(close(a.concatenating(b).apply(Point(x: 1, y: 1)), Point(x: 22, y: 2)))
  }

  @Test func layerToSuperlayerUsesAnchorAndPosition() {
    // A 100×50 layer at position (200, 100), anchor centre, rotated 90° clockwise.
    let m = Transform3D.layerToSuperlayer(
      bounds: Rect(x: 0, y: 0, width: 100, height: 50), anchorPoint: Point(x: 0.5, y: 0.5),
      position: Point(x: 200, y: 100), transform: .rotation(z: .pi / 2))
    let h = Homography(flattening: m)
    #expect(close(h.apply(Point(x: 50, y: 25)), Point(x: 200, y: 100)))
    // The local +x direction turns to screen +y (clockwise, y down).
    #expect(close(h.apply(Point(x: 100, y: 25)), Point(x: 200, y: 150), 1e-9))
  }

  @Test func pathHelpers() {
    let r = Rect(x: 1, y: 2, width: 3, height: 4)
    #expect(Path(rect: r).axisAlignedRect == r)
    #expect(Path(ovalIn: r).axisAlignedRect == nil)
    var p = Path(rect: r)
    p.elements += Path(circleCenter: Point(x: 2, y: 3), radius: 0.5).elements
    #expect(p.subpaths.count == 2)
    #expect(p.subpaths[1].tracedCircle?.radius == 0.5)
    #expect(Path(rect: r).signedArea2 > 0)
  }
}
