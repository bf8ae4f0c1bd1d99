// ShapeIntersection: the shapes of one draw (or of one group's clip) are
// intersected by multiplying their coverages, which stands for the area
// only where at most one of them is partial. Where two shapes share an
// edge — a layer's contents and its own bounds under masksToBounds, a card
// and the screen it shows — the product covers the edge twice: a row 0.611
// inside both drew at 0.611² = 0.373. So before shapes are multiplied, what
// geometry decides exactly is decided:
// - a clip that holds everything its commands draw is no clip;
// - a straight side (a box's, a convex polygon's edge) that another shape
//   of the list lies wholly inside cuts nothing of the intersection: it is
//   moved out past the canvas, so only one shape draws a shared edge, and
//   of two boxes what remains is their intersection, with each box's exact
//   area coverage; a box or polygon with every side moved out covers the
//   canvas and goes;
// - a shape that contains another of the list (a rounded card holding a
//   smaller view) adds nothing and goes.
// Inside a clipped group, a child draw's sides and shapes are weighed the
// same way against the group's clip, which stays. What remains meets only
// where it crosses, and there the product stands for the area.
//
// Geometry, not pixels: a shape's region is known by the vertices of a
// convex outline (a box's corners, a polygon's vertices, a rounded box's or
// circle's rectangle), tested to a millionth of a pixel; containers are
// convex. A shape whose region is not known that way (a coverage mask, a
// blurred shadow, an inverted shape) moves no side and always stays.

extension Shape {
  /// Tolerance of the tests, in device pixels: layers that share an edge
  /// reach it by different products of the same numbers.
  static let tolerance = 1e-6

  /// Points whose convex hull holds this shape's region; nil when the
  /// region is not known that way.
  var outlineVertices: [(x: Double, y: Double)]? {
    switch self {
    case .box(let x0, let y0, let x1, let y1), .roundedBox(let x0, let y0, let x1, let y1, _):
      return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    case .circle(let cx, let cy, let r):
      return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    case .polygon(let edges):
      return Self.vertices(edges)
    case .local(let s):
      // The outline is grown by a pixel (where coverage is looked for); the shape lies inside the ungrown one.
      return Self.vertices(s.outline.map { EdgeLine(a: $0.a, b: $0.b, c: $0.c - 1) })
    case .mask, .separable, .inverted:
      return nil
    }
  }

  /// The vertices of a convex polygon given by its edges in order: where
  /// consecutive edges meet.
  static func vertices(_ edges: [EdgeLine]) -> [(x: Double, y: Double)]? {
    guard edges.count >= 3 else { return nil }
    var points: [(x: Double, y: Double)] = []
    for i in 0..<edges.count {
      let e = edges[i], f = edges[(i + 1) % edges.count]
      let det = e.a * f.b - e.b * f.a
      guard abs(det) > 1e-12 else { continue }
      points.append(((e.b * f.c - f.b * e.c) / det, (f.a * e.c - e.a * f.c) / det))
    }
    return points.count >= 3 ? points : nil
  }

  /// Whether the point lies in this shape's region (false for shapes that
  /// are not convex containers).
  func holds(_ x: Double, _ y: Double) -> Bool {
    let eps = Shape.tolerance
    switch self {
    case .box(let x0, let y0, let x1, let y1):
      return x >= x0 - eps && x <= x1 + eps && y >= y0 - eps && y <= y1 + eps
    case .roundedBox(let x0, let y0, let x1, let y1, let r):
      let dx = max(x0 + r - x, 0, x - (x1 - r)), dy = max(y0 + r - y, 0, y - (y1 - r))
      return dx * dx + dy * dy <= (r + eps) * (r + eps)
    case .circle(let cx, let cy, let r):
      let dx = x - cx, dy = y - cy
      return dx * dx + dy * dy <= (r + eps) * (r + eps)
    case .polygon(let edges):
      return edges.allSatisfy { $0.a * x + $0.b * y + $0.c >= -eps }
    case .local, .mask, .separable, .inverted:
      return false
    }
  }

  /// Whether this shape's region holds all of `other`'s.
  func contains(_ other: Shape) -> Bool {
    guard let points = other.outlineVertices else { return false }
    return points.allSatisfy { holds($0.x, $0.y) }
  }

  /// Whether this is a box or polygon holding every pixel of `canvas`.
  func covers(_ canvas: PixelBox) -> Bool {
    let corners = [
      (Double(canvas.x0), Double(canvas.y0)), (Double(canvas.x1), Double(canvas.y0)),
      (Double(canvas.x1), Double(canvas.y1)), (Double(canvas.x0), Double(canvas.y1)),
    ]
    switch self {
    case .box, .polygon: return corners.allSatisfy { holds($0.0, $0.1) }
    default: return false
    }
  }

  /// This shape with each straight side that `other` lies wholly inside
  /// moved out past `canvas` (where it cuts nothing of their intersection).
  func widened(beside other: Shape, canvas: PixelBox) -> Shape {
    guard let points = other.outlineVertices else { return self }
    let eps = Shape.tolerance
    switch self {
    case .box(var x0, var y0, var x1, var y1):
      let xs = points.map(\.x), ys = points.map(\.y)
      if x0 <= xs.min()! + eps { x0 = min(x0, Double(canvas.x0) - 1) }
      if y0 <= ys.min()! + eps { y0 = min(y0, Double(canvas.y0) - 1) }
      if x1 >= xs.max()! - eps { x1 = max(x1, Double(canvas.x1) + 1) }
      if y1 >= ys.max()! - eps { y1 = max(y1, Double(canvas.y1) + 1) }
      return .box(x0: x0, y0: y0, x1: x1, y1: y1)
    case .polygon(var edges):
      let corners = [
        (Double(canvas.x0) - 1, Double(canvas.y0) - 1), (Double(canvas.x1) + 1, Double(canvas.y0) - 1),
        (Double(canvas.x1) + 1, Double(canvas.y1) + 1), (Double(canvas.x0) - 1, Double(canvas.y1) + 1),
      ]
      for k in edges.indices {
        let e = edges[k]
        guard points.allSatisfy({ e.a * $0.x + e.b * $0.y + e.c >= -eps }) else { continue }
        // Parallel, far enough out that every canvas corner is a pixel inside.
        edges[k].c = max(e.c, corners.map { 1 - e.a * $0.0 - e.b * $0.1 }.max()!)
      }
      return .polygon(edges)
    default:
      return self
    }
  }

  /// The shapes whose coverages multiply to the same region over `canvas`,
  /// with shared edges counted once (see the file's comment). Nil when two
  /// boxes do not meet (nothing is covered).
  static func intersection(_ shapes: [Shape], canvas: PixelBox) -> [Shape]? {
    // Boxes first: their intersection is a box.
    var box: (x0: Double, y0: Double, x1: Double, y1: Double)?
    var result: [Shape] = []
    for shape in shapes {
      guard case .box(let x0, let y0, let x1, let y1) = shape else {
        result.append(shape)
        continue
      }
      box = box.map { (max($0.x0, x0), max($0.y0, y0), min($0.x1, x1), min($0.y1, y1)) } ?? (x0, y0, x1, y1)
    }
    if let box {
      guard box.x1 > box.x0, box.y1 > box.y0 else { return nil }
      result.insert(.box(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1), at: 0)
    }
    // Sides another shape lies inside move out, one shape at a time, so
    // that of two sides on one line the later one stays.
    for i in result.indices {
      for j in result.indices where j != i { result[i] = result[i].widened(beside: result[j], canvas: canvas) }
    }
    // A box or polygon now covering the canvas, or a shape holding another, adds nothing.
    var i = result.count - 1
    while i >= 0, result.count > 1 {
      let shape = result[i]
      if shape.covers(canvas) || result.indices.contains(where: { $0 != i && shape.contains(result[$0]) }) {
        result.remove(at: i)
      }
      i -= 1
    }
    return result
  }
}

extension Command {
  /// Whether `shape` holds everything this command draws: a shape of the
  /// draw (the draw lies in each), a clip of the group, or every child.
  func isHeld(by shape: Shape) -> Bool {
    switch self {
    case .draw(let d):
      return d.shapes.contains { shape.contains($0) }
    case .group(let g):
      if g.shapes.contains(where: { shape.contains($0) }) { return true }
      return !g.children.isEmpty && g.children.allSatisfy { $0.isHeld(by: shape) }
    }
  }

  /// This command inside a group clipped by `clips`: a draw's sides that a
  /// clip lies inside move out and its shapes that hold a clip go (the
  /// clip's coverage decides there, and a shared edge is not counted
  /// twice); its bounds stay. Nested groups are left as they are.
  func trimmed(inside clips: [Shape], canvas: PixelBox) -> Command {
    guard case .draw(var d) = self, !d.shapes.isEmpty, !d.bounds.isEmpty, !clips.isEmpty else { return self }
    var shapes = d.shapes.map { shape in clips.reduce(shape) { $0.widened(beside: $1, canvas: canvas) } }
    shapes.removeAll { shape in shape.covers(canvas) || clips.contains { shape.contains($0) } }
    if shapes.isEmpty {
      // A draw with no shape covers nothing: this one covers its bounds.
      let b = d.bounds
      shapes = [.box(x0: Double(b.x0), y0: Double(b.y0), x1: Double(b.x1), y1: Double(b.y1))]
    }
    d.shapes = shapes
    return .draw(d)
  }
}
