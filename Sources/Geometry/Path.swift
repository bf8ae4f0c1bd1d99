#if canImport(Glibc)
import Glibc
#endif

/// A path as CGPath records it: a list of elements in points.
///
/// The constructors mirror UIBezierPath's, element for element (see
/// UIKit's `UIBezierPath(roundedRect:cornerRadius:)`), so path animations between them interpolate
/// as Core Animation does.
public struct Path: Hashable, Sendable {
  /// One CGPath element.
  public enum Element: Hashable, Sendable {
    case move(to: Point)
    case line(to: Point)
    case quadCurve(to: Point, control: Point)
    case curve(to: Point, control1: Point, control2: Point)
    case close
  }

  /// The elements in order.
  public var elements: [Element]

  public init(elements: [Element] = []) {
    self.elements = elements
  }

  /// The circle this path draws, when it is one: an oval in a square rect or
  /// a full-circle arc. The compositor fills such paths analytically.
  public var circle: (center: Point, radius: Double)?

  /// `UIBezierPath(rect:)`.
  public init(rect r: Rect) {
    elements = [
      .move(to: Point(x: r.minX, y: r.minY)), .line(to: Point(x: r.maxX, y: r.minY)),
      .line(to: Point(x: r.maxX, y: r.maxY)), .line(to: Point(x: r.minX, y: r.maxY)), .close,
    ]
  }

  /// `UIBezierPath(ovalIn:)`: starts at 3 o'clock, four clockwise quarter
  /// cubics, closed.
  public init(ovalIn r: Rect) {
    let k = 0.5522847498307936  // 4/3 · tan(π/8)
    let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
    elements = [
      .move(to: Point(x: cx + rx, y: cy)),
      .curve(to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + k * ry),
             control2: Point(x: cx + k * rx, y: cy + ry)),
      .curve(to: Point(x: cx - rx, y: cy), control1: Point(x: cx - k * rx, y: cy + ry),
             control2: Point(x: cx - rx, y: cy + k * ry)),
      .curve(to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - k * ry),
             control2: Point(x: cx - k * rx, y: cy - ry)),
      .curve(to: Point(x: cx + rx, y: cy), control1: Point(x: cx + k * rx, y: cy - ry),
             control2: Point(x: cx + rx, y: cy - k * ry)),
      .close,
    ]
    // A rect of negative size (an overshooting curve blending two ovals
    // point by point, as Core Animation does) mirrors the points: the same
    // oval, traced the other way, and filled all the same.
    if abs(rx) == abs(ry) { circle = (Point(x: cx, y: cy), abs(rx)) }
  }

  /// `UIBezierPath(arcCenter:radius:startAngle: 0, endAngle: 2π, clockwise: true)`.
  public init(circleCenter c: Point, radius: Double) {
    self.init(ovalIn: Rect(x: c.x - radius, y: c.y - radius, width: 2 * radius, height: 2 * radius))
    elements.removeLast()  // an arc is an open subpath
  }

  public static func == (a: Path, b: Path) -> Bool { a.elements == b.elements }
  public func hash(into h: inout Hasher) { h.combine(elements) }
}

extension Path {
  /// The rectangle this path outlines when it is one closed axis-aligned
  /// quadrilateral (`init(rect:)` or the same four corners in any order of
  /// traversal); nil otherwise.
  public var axisAlignedRect: Rect? {
    guard var pts = straightLinePoints else { return nil }
    if pts.count == 5, pts[4] == pts[0] { pts.removeLast() }
    guard pts.count == 4 else { return nil }
    for i in 0..<4 {
      let p = pts[i], q = pts[(i + 1) % 4]
      guard p.x == q.x || p.y == q.y else { return nil }
    }
    let xs = pts.map(\.x), ys = pts.map(\.y)
    let r = Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    guard Set(xs).count == 2, Set(ys).count == 2 else { return nil }
    return r
  }

  /// The points of a path that is one `move` followed by straight lines
  /// (and a `close` at the end, if any), in order; nil otherwise.
  private var straightLinePoints: [Point]? {
    var pts: [Point] = []
    for (i, e) in elements.enumerated() {
      switch e {
      case .move(let p) where i == 0: pts.append(p)
      case .line(let p) where i > 0: pts.append(p)
      case .close where i == elements.count - 1: break
      default: return nil
      }
    }
    return pts
  }
}

extension Path {
  /// The subpaths, each starting with its `move` (elements before the first
  /// move start at the origin, as CGPath does).
  public var subpaths: [Path] {
    var out: [Path] = []
    var current: [Element] = []
    for e in elements {
      if case .move = e, !current.isEmpty {
        out.append(Path(elements: current))
        current = []
      }
      if current.isEmpty, !isMove(e) { current.append(.move(to: .zero)) }
      current.append(e)
    }
    if !current.isEmpty { out.append(Path(elements: current)) }
    return out
  }

  private func isMove(_ e: Element) -> Bool {
    if case .move = e { return true }
    return false
  }

  /// The circle a single subpath traces when it is made of four quarter-circle
  /// cubics (as `init(ovalIn:)` with a square rect or a full arc writes them),
  /// in either direction; nil otherwise. Checked geometrically, so it also
  /// finds circles inside composite paths and after a path interpolation.
  public var tracedCircle: (center: Point, radius: Double)? {
    if let c = circle { return c }
    var els = elements
    if case .close = els.last { els.removeLast() }
    guard els.count == 5, case .move(let p0) = els[0] else { return nil }
    var ends: [Point] = [p0]
    var controls: [Point] = []
    for e in els.dropFirst() {
      guard case .curve(let to, let c1, let c2) = e else { return nil }
      ends.append(to)
      controls += [c1, c2]
    }
    let center = Point(x: (ends[0].x + ends[2].x) / 2, y: (ends[0].y + ends[2].y) / 2)
    func dist(_ p: Point) -> Double { ((p.x - center.x) * (p.x - center.x) + (p.y - center.y) * (p.y - center.y)).squareRoot() }
    let r = dist(ends[0])
    let tol = 1e-9 * Swift.max(1, r + abs(center.x) + abs(center.y))
    guard abs(dist(ends[4]) - r) <= tol, ends[4] == ends[0] || abs(ends[4].x - ends[0].x) <= tol && abs(ends[4].y - ends[0].y) <= tol
    else { return nil }
    if r <= tol {
      return ends.allSatisfy({ dist($0) <= tol }) && controls.allSatisfy({ dist($0) <= tol }) ? (center, 0) : nil
    }
    let k = 0.5522847498307936
    let rc = r * (1 + k * k).squareRoot()
    for i in 0..<4 {
      guard abs(dist(ends[i]) - r) <= tol * 10 else { return nil }
      // Consecutive ends a quarter turn apart.
      let a = ends[i], b = ends[i + 1]
      let dot = (a.x - center.x) * (b.x - center.x) + (a.y - center.y) * (b.y - center.y)
      guard abs(dot) <= tol * 10 * r else { return nil }
    }
    guard controls.allSatisfy({ abs(dist($0) - rc) <= 1e-6 * rc }) else { return nil }
    return (center, r)
  }

  /// Twice the signed area of the control polygon (positive = clockwise on a
  /// y-down screen); its sign gives a closed subpath's direction.
  public var signedArea2: Double {
    var pts: [Point] = []
    for e in elements {
      switch e {
      case .move(let p), .line(let p): pts.append(p)
      case .quadCurve(let p, let c): pts += [c, p]
      case .curve(let p, let c1, let c2): pts += [c1, c2, p]
      case .close: break
      }
    }
    guard pts.count >= 3 else { return 0 }
    var a = 0.0
    for i in 0..<pts.count {
      let p = pts[i], q = pts[(i + 1) % pts.count]
      a += p.x * q.y - q.x * p.y
    }
    return a
  }
}

extension Path {
  /// The corners of the convex polygon this path outlines when it is one
  /// subpath of straight lines (closed or not: a fill closes it) turning
  /// one way once round: repeated points and corners on a straight line
  /// left out, in the path's order; nil for anything else (a curve, a
  /// second subpath, a concave or self-crossing outline, fewer than three
  /// corners).
  public var convexPolygon: [Point]? {
    guard let all = straightLinePoints else { return nil }
    var pts: [Point] = []
    for p in all where p != pts.last { pts.append(p) }
    if pts.count > 1, pts.last == pts.first { pts.removeLast() }
    guard pts.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
    func cross(_ o: Point, _ a: Point, _ b: Point) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
    // Corners where the outline goes straight on are not corners.
    var corners: [Point] = []
    for i in pts.indices {
      let prev = pts[(i + pts.count - 1) % pts.count], p = pts[i], next = pts[(i + 1) % pts.count]
      if cross(prev, p, next) != 0 { corners.append(p) }
    }
    guard corners.count >= 3 else { return nil }
    // Every turn the same way, and once round: the turning angles sum to 2π.
    var sign = 0.0, turning = 0.0
    for i in corners.indices {
      let prev = corners[(i + corners.count - 1) % corners.count], p = corners[i]
      let next = corners[(i + 1) % corners.count]
      let c = cross(prev, p, next)
      if sign == 0 { sign = c > 0 ? 1 : -1 }
      guard c * sign > 0 else { return nil }
      let a = atan2(p.y - prev.y, p.x - prev.x), b = atan2(next.y - p.y, next.x - p.x)
      var turn = b - a
      while turn <= -Double.pi { turn += 2 * Double.pi }
      while turn > Double.pi { turn -= 2 * Double.pi }
      turning += turn
    }
    guard abs(abs(turning) - 2 * Double.pi) < 1e-6 else { return nil }
    return corners
  }
}
