import Geometry
import Testing

@Suite struct RectTests {
  @Test func edgesAndCentre() {
    let r = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(r.minX == 10 && r.maxX == 40 && r.minY == 20 && r.maxY == 60)
    #expect(r.center == Point(x: 25, y: 40))
  }

  @Test func intersectionAndUnion() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    let b = Rect(x: 5, y: 5, width: 10, height: 10)
    #expect(a.intersection(b) == Rect(x: 5, y: 5, width: 5, height: 5))
    #expect(a.intersection(Rect(x: 10, y: 0, width: 5, height: 5)) == nil)
    #expect(a.union(b) == Rect(x: 0, y: 0, width: 15, height: 15))
  }

  @Test func insetAndScale() {
    let r = Rect(x: 10, y: 10, width: 20, height: 20)
    #expect(r.insetBy(dx: -5, dy: 2) == Rect(x: 5, y: 12, width: 30, height: 16))
    #expect(r.scaled(by: 3) == Rect(x: 30, y: 30, width: 60, height: 60))
  }

  /// UIBezierPath(ovalIn:) of a square is recognised as a circle; an arc is
  /// the same curve without the closing element (UIKIT.md §4).
  @Test func ovalAndArcPaths() {
    let oval = Path(ovalIn: Rect(x: 0, y: 0, width: 20, height: 20))
    #expect(oval.elements.count == 6)
    #expect(oval.circle?.radius == 10 && oval.circle?.center == Point(x: 10, y: 10))
    #expect(Path(ovalIn: Rect(x: 0, y: 0, width: 20, height: 10)).circle == nil)
    let arc = Path(circleCenter: Point(x: 10, y: 10), radius: 10)
    #expect(arc.elements == Array(oval.elements.dropLast()))
    #expect(arc.elements.first == .move(to: Point(x: 20, y: 10)))
  }
}
