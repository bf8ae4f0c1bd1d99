#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Raster

/// The gradient row shader eight pixels at a time against the one that
/// shades one pixel at a time: the same bytes.
@Suite struct GradientShadeTests {
  /// A random axial gradient through a random affine device → local map.
  static func randomPaint(_ r: inout SplitMix) -> GradientPaint {
    let colors = (0..<3).map { _ in
      Color(red: r.unit(), green: r.unit(), blue: r.unit(), alpha: r.unit() < 0.5 ? 1 : r.unit())
    }
    let lut = Gradient(colors: colors).lookupTable()
    // Scales from 1/3 to 3 either way, a rotation or none, and a shift.
    func scale() -> Double { (r.unit() < 0.5 ? -1 : 1) * (1 / 3 + r.unit() * 8 / 3) }
    let angle = r.unit() < 0.5 ? 0 : r.unit() * 6.3
    let (sx, sy) = (scale(), scale())
    let map = Homography(
      m11: sx * cos(angle), m12: sy * sin(angle), m13: 0,
      m21: -sx * sin(angle), m22: sy * cos(angle), m23: 0,
      m31: r.unit() * 400 - 200, m32: r.unit() * 400 - 200, m33: 1)
    let start = Point(x: r.unit() * 100 - 50, y: r.unit() * 100 - 50)
    // An axis as short as a pixel (t leaves 0…1 within a few pixels) or as long as the row.
    let length = r.unit() < 0.2 ? 0.5 + r.unit() : 20 + r.unit() * 2000
    let direction = r.unit() * 6.3
    let axis = Point(x: cos(direction) / length, y: sin(direction) / length)
    return GradientPaint(lut: lut, toLocal: map, start: start, axis: axis)
  }

  @Test func simdRowsAreTheReferenceRows() {
    var r = SplitMix(seed: 0x6AD1)
    for _ in 0..<400 {
      let paint = Self.randomPaint(&r)
      let count = Int(r.next() % 70), x0 = Int(r.next() % 3000) - 1000, y = Int(r.next() % 3000) - 1000
      var simd = [UInt8](repeating: 0xAB, count: 4 * count + 8)
      var reference = simd
      paint.lut.withUnsafeBufferPointer { lut in
        simd.withUnsafeMutableBufferPointer {
          Gradients.shadeRowSIMD(paint, lut: lut.baseAddress!, y: y, x0: x0, count: count, into: $0.baseAddress!)
        }
        reference.withUnsafeMutableBufferPointer {
          Gradients.shadeRow(paint, lut: lut.baseAddress!, y: y, x0: x0, count: count, into: $0.baseAddress!)
        }
      }
      #expect(simd == reference, "x0 \(x0), y \(y), \(count) pixels")
    }
  }

  /// Both ends of the table are reached and passed (t < 0, t > 1), so the
  /// clamping is what the test compares, not only the interior.
  @Test func rowsReachBothEndsOfTheTable() {
    var r = SplitMix(seed: 0x6AD1)
    var (low, high) = (false, false)
    for _ in 0..<400 {
      let paint = Self.randomPaint(&r)
      let count = Int(r.next() % 70), x0 = Int(r.next() % 3000) - 1000, y = Int(r.next() % 3000) - 1000
      let m = paint.toLocal
      for x in x0..<(x0 + count) {
        let (xc, yc) = (Double(x) + 0.5, Double(y) + 0.5)
        let t = (xc * m.m11 + yc * m.m21 + m.m31 - paint.start.x) * paint.axis.x
          + (xc * m.m12 + yc * m.m22 + m.m32 - paint.start.y) * paint.axis.y
        low = low || t < 0
        high = high || t > 1
      }
    }
    #expect(low && high)
  }
}

/// A gradient's start and end are in the unit square of its bounds, and it
/// is stretched with them, as CAGradientLayer draws it: from (0, 0) to
/// (1, 1) on a 200 × 50 view, pixel (x, y) is at t = (x/200 + y/50) / 2
/// (Chromium's `linear-gradient(to bottom right)` draws the same), its
/// middle colour along the other diagonal.
@Suite struct GradientGeometryTests {
  @Test func aDiagonalIsStretchedWithItsBounds() {
    var root = Layer(frame: Rect(x: 0, y: 0, width: 200, height: 50))
    root.backgroundColor = Color(red: 0, green: 0, blue: 0)
    var layer = Layer(frame: root.bounds)
    layer.gradient = Gradient(
      colors: [Color(red: 0, green: 0, blue: 0), Color(red: 1, green: 1, blue: 1)],
      startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1))
    root.sublayers = [layer]
    var bitmap = Bitmap(width: 200, height: 50)
    Compositor(scale: 1).render(root, into: &bitmap)
    var worst = 0.0
    for (x, y) in [(199, 5), (0, 45), (150, 10), (100, 25), (10, 40), (190, 48)] {
      let t = ((Double(x) + 0.5) / 200 + (Double(y) + 0.5) / 50) / 2
      worst = max(worst, abs(Double(bitmap[x, y].g) - t * 255))
    }
    #expect(worst <= 2, "worst \(worst) levels off t = (x/W + y/H)/2")
    // The middle colour runs corner to corner along the other diagonal.
    #expect(abs(Int(bitmap[199, 0].g) - Int(bitmap[0, 49].g)) <= 2 && abs(Int(bitmap[100, 25].g) - 128) <= 2)
  }
}
