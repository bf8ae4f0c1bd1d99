/// A path as CGPath records it: a list of elements in points.
///
/// The constructors mirror UIBezierPath's, element for element (see
/// shared/reference/UIKIT.md §4), so path animations between them interpolate
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
    if rx == ry { circle = (Point(x: cx, y: cy), rx) }
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
    var pts: [Point] = []
    for (i, e) in elements.enumerated() {
      switch e {
      case .move(let p) where i == 0: pts.append(p)
      case .line(let p) where i > 0: pts.append(p)
      case .close where i == elements.count - 1: break
      default: return nil
      }
    }
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
}
