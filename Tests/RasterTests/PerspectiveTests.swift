import Foundation
import Geometry
import Testing
@testable import Raster

/// The `perspective` goldens of Tests/Fixtures/timing_vectors.json
/// (TIMING.md §4): a 390×844 page hinged at its left edge, rotated about y
/// under a container whose sublayerTransform has m34 = −0.002.
@Suite struct PerspectiveTests {
  struct Row {
    var theta: Double
    var corners: [String: (x: Double, y: Double)]
  }

  static func goldens() throws -> (setup: [String: Any], rows: [Row]) {
    let data = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot() + "/Tests/Fixtures/timing_vectors.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let p = try #require(json["perspective"] as? [String: Any])
    let setup = try #require(p["setup"] as? [String: Any])
    let rows = try #require(p["rows"] as? [[String: Any]]).map { r -> Row in
      let c = r["corners_xy_w"] as! [String: [Double]]
      return Row(theta: r["theta_deg"] as! Double, corners: c.mapValues { ($0[0], $0[1]) })
    }
    return (setup, rows)
  }

  /// The page and its container for angle θ (degrees).
  static func scene(theta: Double, m34: Double) -> (container: Layer, page: Layer) {
    var container = Layer(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    var t = Transform3D.identity
    t.m34 = m34
    container.sublayerTransform = t
    var page = Layer(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    page.anchorPoint = Point(x: 0, y: 0.5)
    page.position = Point(x: 0, y: 422)
    page.transform = .rotation(y: theta * .pi / 180)
    return (container, page)
  }

  /// The page's bounds → canvas-points homography, built as the compositor builds it.
  static func pageMap(_ container: Layer, _ page: Layer) -> Homography {
    let anchor = Point(x: container.bounds.width / 2, y: container.bounds.height / 2)
    let m = Transform3D.layerToSuperlayer(
      bounds: page.bounds, anchorPoint: page.anchorPoint, position: page.position,
      transform: page.transform, sublayerTransform: container.sublayerTransform, superAnchor: anchor)
    return Homography(flattening: m)
  }

  @Test func cornersMatchGoldens() throws {
    let (setup, rows) = try PerspectiveTests.goldens()
    let m34 = try #require(setup["m34"] as? Double)
    #expect(rows.count >= 5)
    for row in rows {
      let (c, p) = PerspectiveTests.scene(theta: row.theta, m34: m34)
      let h = PerspectiveTests.pageMap(c, p)
      let local: [String: Point] = [
        "top_left": Point(x: 0, y: 0), "top_right": Point(x: 390, y: 0),
        "bottom_right": Point(x: 390, y: 844), "bottom_left": Point(x: 0, y: 844),
      ]
      for (name, q) in local {
        let g = try #require(row.corners[name])
        let s = h.apply(q)
        // Within 0.5 px at @3x.
        #expect(abs(s.x - g.x) * 3 < 0.5 && abs(s.y - g.y) * 3 < 0.5, "θ \(row.theta) \(name): \(s) vs \(g)")
      }
    }
  }

  /// Rendered at @1x, the projected quad's edges land where the goldens say:
  /// pixels well inside the quad are covered, pixels well outside are not,
  /// and along the slanted top edge coverage crosses ½ within half a pixel of the line.
  @Test func renderedPageFollowsGoldens() throws {
    let (setup, rows) = try PerspectiveTests.goldens()
    let m34 = try #require(setup["m34"] as? Double)
    for row in rows where abs(row.theta) <= 60 {
      var (c, p) = PerspectiveTests.scene(theta: row.theta, m34: m34)
      p.backgroundColor = .white
      c.sublayers = [p]
      var bmp = Bitmap(width: 390, height: 844)
      Compositor(scale: 1).render(c, into: &bmp)
      let tr = row.corners["top_right"]!, br = row.corners["bottom_right"]!
      // Along x = const inside the page, the top edge is y(x) = tr.y · x / tr.x.
      for x in Swift.stride(from: 20, to: Int(min(tr.x, 389)) - 20, by: 37) {
        let xc = Double(x) + 0.5
        let yTop = tr.y * xc / tr.x
        let yBottom = 844 + (br.y - 844) * xc / br.x
        // Column coverage sums to the covered length (within a pixel).
        var sum = 0.0
        for y in 0..<844 { sum += Double(bmp[x, y].a) / 255 }
        let expected = min(yBottom, 844) - max(yTop, 0)
        #expect(abs(sum - expected) < 1.0, "θ \(row.theta) column \(x): \(sum) vs \(expected)")
      }
    }
  }
}
