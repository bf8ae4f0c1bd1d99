#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Motion
import Raster

// Small pieces every transition uses: where in its run a time falls, linear
// blends, solid and shape layers, and the paths Geometry does not provide.

/// Where a time falls in a transition's run: before its start (during the
/// delay), during the animation (from its begin time, the delay, on), or
/// at/after its end. At the begin time Core Animation shows every animated
/// property at its start value, and the layers the transition added are
/// already in place: a reveal's small oval, a backdrop; so that instant is
/// the animation's, at elapsed 0, not the old screen alone.
enum TransitionPhase {
  case start
  case running(elapsed: Double)
  case end

  /// The phase at `time` for an animation of `duration` after `delay`.
  init(time: Double, duration: Double, delay: Double) {
    // Compare times, not differences, so `delay + duration` is exactly the end.
    // An animation of no duration is a cut: at its delay it has ended.
    if time < delay {
      self = .start
    } else if time >= delay + duration {
      self = .end
    } else {
      self = .running(elapsed: time - delay)
    }
  }
}

/// `a` blended `t` of the way to `b` (t may leave 0…1: springs overshoot),
/// as (1 − t)·a + t·b so that t = 0 and t = 1 give `a` and `b` exactly.
@inlinable func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { (1 - t) * a + t * b }

extension Point {
  /// The point `t` of the way to `other`.
  func interpolated(to other: Point, _ t: Double) -> Point {
    Point(x: lerp(x, other.x, t), y: lerp(y, other.y, t))
  }

  /// The distance to `other`.
  func distance(to other: Point) -> Double {
    let dx = other.x - x, dy = other.y - y
    return (dx * dx + dy * dy).squareRoot()
  }
}

extension Rect {
  /// Origin and size blended `t` of the way to `other` (a UIView frame animation).
  func interpolated(to other: Rect, _ t: Double) -> Rect {
    Rect(
      x: lerp(minX, other.minX, t), y: lerp(minY, other.minY, t),
      width: lerp(width, other.width, t), height: lerp(height, other.height, t))
  }

  /// The square around a circle.
  init(circleCenter c: Point, radius r: Double) {
    self.init(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
  }

  /// `CGRect.insetBy(dx: -d, dy: -d)`: grown by `d` on every side.
  func outset(by d: Double) -> Rect {
    Rect(x: minX - d, y: minY - d, width: width + 2 * d, height: height + 2 * d)
  }
}

extension TransitionContext {
  var width: Double { containerSize.width }
  var height: Double { containerSize.height }

  /// An empty container layer the size of the screen.
  func emptyContainer() -> Layer { Layer(frame: bounds) }

  /// The container showing only `screen` (the first and last frames).
  func container(showing screen: ScreenSnapshot) -> Layer {
    var container = emptyContainer()
    container.sublayers = [snapshotLayer(screen)]
    return container
  }

  /// The container at the very start: the from-screen alone.
  func startContainer() -> Layer { container(showing: fromScreen) }

  /// The container at the very end: the to-screen alone (completeTransition
  /// removes every temporary view and mask).
  func endContainer() -> Layer { container(showing: toScreen) }
}

extension Layer {
  /// A layer filled with `color` over `frame`, at `opacity`.
  static func solid(_ color: Color, frame: Rect, opacity: Double = 1) -> Layer {
    var layer = Layer(frame: frame)
    layer.backgroundColor = color
    layer.opacity = Swift.min(Swift.max(opacity, 0), 1)
    return layer
  }

  /// A `CAShapeLayer` mask filling `path` (in the masked layer's space).
  static func shapeMask(_ path: Path, in bounds: Rect, fillRule: FillRule = .nonZero) -> Layer {
    var mask = Layer(frame: bounds)
    mask.path = path
    mask.fillColor = .black
    mask.fillRule = fillRule
    return mask
  }

  /// A layer showing `image` stretched over `frame` (a view snapshot).
  static func image(_ image: Bitmap, frame: Rect, scale: Double) -> Layer {
    var layer = Layer(frame: frame)
    layer.contents = image
    layer.contentsScale = scale
    layer.contentsGravity = .resize
    return layer
  }
}

/// CAShapeLayer / CALayer opacity is clamped to 0…1 when springs overshoot.
@inlinable func clampedUnit(_ value: Double) -> Double { Swift.min(Swift.max(value, 0), 1) }

/// Paths the transitions need beyond Geometry's UIBezierPath constructors,
/// built element by element as UIKit would.
enum TransitionPaths {
  /// `UIBezierPath(arcCenter: c, radius: r, startAngle: 0, endAngle: 2π,
  /// clockwise: false)`: starts at 3 o'clock and runs counter-clockwise on
  /// screen (through 12 o'clock first), four quarter cubics, open.
  static func counterClockwiseCircle(center c: Point, radius r: Double) -> [Path.Element] {
    let k = 0.5522847498307936 * r
    return [
      .move(to: Point(x: c.x + r, y: c.y)),
      .curve(to: Point(x: c.x, y: c.y - r), control1: Point(x: c.x + r, y: c.y - k), control2: Point(x: c.x + k, y: c.y - r)),
      .curve(to: Point(x: c.x - r, y: c.y), control1: Point(x: c.x - k, y: c.y - r), control2: Point(x: c.x - r, y: c.y - k)),
      .curve(to: Point(x: c.x, y: c.y + r), control1: Point(x: c.x - r, y: c.y + k), control2: Point(x: c.x - k, y: c.y + r)),
      .curve(to: Point(x: c.x + r, y: c.y), control1: Point(x: c.x + k, y: c.y + r), control2: Point(x: c.x + r, y: c.y + k)),
    ]
  }

  /// Seed 003's backdrop mask: `UIBezierPath(rect:)` with a reversed full
  /// arc appended — a rectangle with a circular hole (even-odd, and also
  /// non-zero since the arc winds the other way).
  static func rect(_ rect: Rect, withCircularHoleAt center: Point, radius: Double) -> Path {
    Path(elements: Path(rect: rect).elements + counterClockwiseCircle(center: center, radius: radius))
  }

  /// A closed polygon through `points`.
  static func polygon(_ points: [Point]) -> Path {
    guard let first = points.first else { return Path() }
    return Path(elements: [.move(to: first)] + points.dropFirst().map { .line(to: $0) } + [.close])
  }

  /// The corners of `rect` kept by the half-plane `p·normal ≤ offset`
  /// (Sutherland–Hodgman against one edge), clockwise from the top-left.
  static func clip(_ rect: Rect, normal n: Point, offset: Double) -> [Point] {
    let corners = [
      Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
      Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY),
    ]
    func side(_ p: Point) -> Double { p.x * n.x + p.y * n.y - offset }
    var kept: [Point] = []
    for i in corners.indices {
      let a = corners[i], b = corners[(i + 1) % corners.count]
      let sa = side(a), sb = side(b)
      if sa <= 0 { kept.append(a) }
      if (sa < 0 && sb > 0) || (sa > 0 && sb < 0) {
        kept.append(a.interpolated(to: b, sa / (sa - sb)))
      }
    }
    return kept
  }
}
