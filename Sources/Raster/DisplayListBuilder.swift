import Geometry

// DisplayListBuilder: a layer tree → a display list in device pixels.
//
// Each layer gets one homography from its bounds coordinates to device
// pixels: its own 4×4 (anchor, transform, position, the superlayer's
// sublayerTransform about the superlayer's anchor) flattened to 3×3 — CA
// renders each sublayer flattened into its superlayer's plane — and then its
// superlayer's homography. A layer's draws come in Core Animation's order:
// shadow, background, gradient, contents, shape fill, sublayers, border.
//
// Offscreen groups only where the result would differ without one: a layer
// whose opacity < 1, mask or masksToBounds applies to more than one draw. A
// single draw takes the opacity and the clip shapes itself, so the
// circle-spread frame (a snapshot under a circle mask) is one draw with two
// shapes, and no offscreen buffer.

struct DisplayListBuilder {
  /// The device pixels of the destination.
  let canvas: PixelBox
  /// Pixels per point (for shadow radii).
  let scale: Double
  /// Kernels for offscreen work (shadows).
  let kernels: KernelSet
  /// Whether to fold solid overlays into image draws (`foldingOverlays`).
  var foldsOverlays = true

  // MARK: - Layers

  /// The commands drawing `layer`, whose bounds coordinates map to device
  /// pixels by `map`.
  func commands(_ layer: Layer, map: Homography) -> [Command] {
    if layer.isHidden || !(layer.opacity > 0) { return [] }
    let b = layer.bounds
    var cmds: [Command] = []

    if let bg = layer.backgroundColor, bg.alpha > 0,
      let s = rectShape(b, radius: layer.cornerRadius, map)
    {
      append(&cmds, [s], .solid(bg.premultipliedPixel))
    }
    if let g = layer.gradient, let s = rectShape(b, radius: layer.cornerRadius, map),
      let paint = gradientPaint(g, bounds: b, map)
    {
      append(&cmds, [s], paint)
    }

    var body: [Command] = []
    if let image = layer.contents, let (rect, toImage) = contentsPlacement(layer, image, map),
      let s = rectShape(rect, radius: 0, map)
    {
      append(&body, [s], .image(image, toImage: toImage))
    }
    if let path = layer.path, let fill = layer.fillColor, fill.alpha > 0 {
      let shapes = pathShapes(path, rule: layer.fillRule, map)
      if !shapes.isEmpty { append(&body, shapes, .solid(fill.premultipliedPixel)) }
    }
    let anchor = Point(
      x: b.minX + layer.anchorPoint.x * b.width, y: b.minY + layer.anchorPoint.y * b.height)
    for sub in layer.sublayers {
      let m = Transform3D.layerToSuperlayer(
        bounds: sub.bounds, anchorPoint: sub.anchorPoint, position: sub.position,
        transform: sub.transform, sublayerTransform: layer.sublayerTransform, superAnchor: anchor)
      body += commands(sub, map: Homography(flattening: m).concatenating(map))
    }
    let bounds = rectShape(b, radius: layer.cornerRadius, map)
    if layer.masksToBounds && !body.isEmpty {
      if let bounds {
        body = clip(body, [bounds])
      } else {
        body = []
      }
    }
    cmds += body
    if foldsOverlays { cmds = foldingOverlays(cmds) }

    if layer.borderWidth > 0, layer.borderColor.alpha > 0,
      let outer = rectShape(b, radius: layer.cornerRadius, map)
    {
      let w = min(layer.borderWidth, b.width / 2, b.height / 2)
      let inner = rectShape(
        b.insetBy(dx: w, dy: w), radius: max(min(layer.cornerRadius, b.width / 2, b.height / 2) - w, 0),
        map)
      append(&cmds, inner.map { [outer, .inverted($0)] } ?? [outer], .solid(layer.borderColor.premultipliedPixel))
    }

    // The shadow comes from the content at full opacity and sits beneath
    // it. It is part of the layer's rendering: masksToBounds clips it (what
    // lies outside the bounds is gone), the mask masks it, and the layer's
    // opacity applies to both as one group.
    if layer.shadowOpacity > 0, !cmds.isEmpty || layer.shadowPath != nil,
      let s = shadow(layer, map: map, content: cmds)
    {
      if !layer.masksToBounds {
        cmds.insert(s, at: 0)
      } else if let bounds {
        cmds.insert(contentsOf: clip([s], [bounds]), at: 0)
      }
    }
    if let mask = layer.mask {
      let m = Transform3D.layerToSuperlayer(
        bounds: mask.bounds, anchorPoint: mask.anchorPoint, position: mask.position,
        transform: mask.transform, sublayerTransform: .identity, superAnchor: .zero)
      let maskCommands = commands(mask, map: Homography(flattening: m).concatenating(map))
      cmds = applyMask(cmds, maskCommands)
    }
    if layer.opacity < 1 { cmds = applyOpacity(cmds, layer.opacity) }
    return cmds
  }

  /// Folds a solid draw through the same shapes as the image draw just
  /// before it into that draw's `tint`.
  func foldingOverlays(_ cmds: [Command]) -> [Command] {
    guard cmds.count >= 2 else { return cmds }
    var out: [Command] = []
    out.reserveCapacity(cmds.count)
    for c in cmds {
      if case .draw(let top) = c, case .solid(let p) = top.paint, let last = out.last,
        case .draw(var image) = last, case .image = image.paint, image.tint == nil,
        DisplayListBuilder.sameShapes(image.shapes, top.shapes)
      {
        image.tint = Tint(color: p, opacity: top.opacity)
        out[out.count - 1] = .draw(image)
      } else {
        out.append(c)
      }
    }
    return out
  }

  /// True for a draw carrying a folded overlay.
  static func isTinted(_ c: Command) -> Bool {
    if case .draw(let d) = c { return d.tint != nil }
    return false
  }

  /// True when two shape lists are the same boxes, circles or polygons (to 1e-9 px).
  static func sameShapes(_ a: [Shape], _ b: [Shape]) -> Bool {
    guard a.count == b.count else { return false }
    func near(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= 1e-9 * max(1, abs(x), abs(y)) }
    for (s, t) in zip(a, b) {
      switch (s, t) {
      case (.box(let a0, let a1, let a2, let a3), .box(let b0, let b1, let b2, let b3)):
        guard near(a0, b0) && near(a1, b1) && near(a2, b2) && near(a3, b3) else { return false }
      case (.roundedBox(let a0, let a1, let a2, let a3, let ar), .roundedBox(let b0, let b1, let b2, let b3, let br)):
        guard near(a0, b0) && near(a1, b1) && near(a2, b2) && near(a3, b3) && near(ar, br) else { return false }
      case (.circle(let ax, let ay, let ar), .circle(let bx, let by, let br)):
        guard near(ax, bx) && near(ay, by) && near(ar, br) else { return false }
      case (.polygon(let ea), .polygon(let eb)):
        guard ea.count == eb.count else { return false }
        for (e, f) in zip(ea, eb) where !(near(e.a, f.a) && near(e.b, f.b) && near(e.c, f.c)) { return false }
      default:
        return false
      }
    }
    return true
  }

  /// Appends a draw when it touches the canvas.
  func append(_ cmds: inout [Command], _ shapes: [Shape], _ paint: Paint, opacity: Double = 1) {
    var box = canvas
    for s in shapes { box = box.intersection(bounds(of: s)) }
    guard !box.isEmpty else { return }
    cmds.append(.draw(DrawOp(shapes: shapes, paint: paint, opacity: opacity, bounds: box)))
  }

  /// The union of the commands' bounds.
  func bounds(of cmds: [Command]) -> PixelBox {
    cmds.reduce(PixelBox.empty) { $0.union($1.bounds) }
  }

  /// Clips commands by shapes: folded into a single command, else an
  /// offscreen group. A clip shape that holds everything the commands draw
  /// is no clip, and shapes sharing an edge are intersected so that the
  /// edge is covered once (`ShapeIntersection.swift`).
  func clip(_ cmds: [Command], _ shapes: [Shape]) -> [Command] {
    let shapes = shapes.filter { shape in !cmds.allSatisfy { $0.isHeld(by: shape) } }
    guard !shapes.isEmpty else { return cmds }
    var box = canvas
    for s in shapes { box = box.intersection(bounds(of: s)) }
    // (A tinted draw is two draws in one: clipping it stays a group, as it would unfolded.)
    if cmds.count == 1, !DisplayListBuilder.isTinted(cmds[0]) {
      switch cmds[0] {
      case .draw(var d):
        guard let intersected = Shape.intersection(d.shapes + shapes, canvas: canvas) else { return [] }
        d.shapes = intersected
        d.bounds = d.bounds.intersection(box)
        return d.bounds.isEmpty ? [] : [.draw(d)]
      case .group(var g):
        guard let intersected = Shape.intersection(g.shapes + shapes, canvas: canvas) else { return [] }
        g.shapes = intersected
        g.children = g.children.map { $0.trimmed(inside: g.shapes, canvas: canvas) }
        g.bounds = g.bounds.intersection(box)
        return g.bounds.isEmpty ? [] : [.group(g)]
      }
    }
    let b = bounds(of: cmds).intersection(box)
    guard !b.isEmpty else { return [] }
    let children = cmds.map { $0.trimmed(inside: shapes, canvas: canvas) }
    return [.group(GroupOp(children: children, mask: nil, shapes: shapes, opacity: 1, bounds: b))]
  }

  /// Applies a mask layer's commands: a single opaque solid draw is a clip by
  /// its shapes; anything else masks an offscreen group by its alpha.
  func applyMask(_ cmds: [Command], _ mask: [Command]) -> [Command] {
    guard !cmds.isEmpty, !mask.isEmpty else { return [] }
    if mask.count == 1, case .draw(let m) = mask[0], case .solid(let p) = m.paint, p.a == 255,
      m.opacity >= 1
    {
      return clip(cmds, m.shapes)
    }
    let b = bounds(of: cmds).intersection(bounds(of: mask))
    guard !b.isEmpty else { return [] }
    return [.group(GroupOp(children: cmds, mask: mask, shapes: [], opacity: 1, bounds: b))]
  }

  /// Group opacity: folded into a single command, else an offscreen group.
  func applyOpacity(_ cmds: [Command], _ opacity: Double) -> [Command] {
    if cmds.count == 1, !DisplayListBuilder.isTinted(cmds[0]) {
      switch cmds[0] {
      case .draw(var d):
        d.opacity *= opacity
        return [.draw(d)]
      case .group(var g):
        g.opacity *= opacity
        return [.group(g)]
      }
    }
    guard !cmds.isEmpty else { return [] }
    return [.group(GroupOp(children: cmds, mask: nil, shapes: [], opacity: opacity, bounds: bounds(of: cmds)))]
  }

  // MARK: - Contents

  /// Where `contents` goes in bounds coordinates (per `contentsGravity`), and
  /// the device → image pixel map.
  func contentsPlacement(_ layer: Layer, _ image: Bitmap, _ map: Homography) -> (Rect, Homography)? {
    let rect = layer.contentsRect(of: image)
    guard rect.width > 0, rect.height > 0, let inverse = map.inverted() else { return nil }
    var toImage = inverse.concatenating(.translation(x: -rect.minX, y: -rect.minY))
      .concatenating(.scale(x: Double(image.width) / rect.width, y: Double(image.height) / rect.height))
    if toImage.m13 == 0 && toImage.m23 == 0 { toImage = toImage.normalized }
    toImage = snapped(toImage)
    return (rect, toImage)
  }

  /// Rounds near-integers (within 1e-9) so that 1:1 placements take the copy path.
  func snapped(_ m: Homography) -> Homography {
    func s(_ v: Double) -> Double {
      let r = v.rounded()
      return abs(v - r) < 1e-9 ? r : v
    }
    return Homography(
      m11: s(m.m11), m12: s(m.m12), m13: s(m.m13), m21: s(m.m21), m22: s(m.m22), m23: s(m.m23),
      m31: s(m.m31), m32: s(m.m32), m33: s(m.m33))
  }

  /// The gradient's paint over `b`. As CAGradientLayer draws it: in the
  /// unit square of the bounds, then stretched to them, so t is
  /// (u − start)·(end − start) / |end − start|² in unit coordinates
  /// u = ((x − minX)/width, (y − minY)/height), and a diagonal from (0, 0)
  /// to (1, 1) has its middle colour along the other diagonal on any
  /// rectangle (a point-space axis, as Core Graphics' own linear gradient
  /// and Sketch draw it, turns it towards the long side).
  func gradientPaint(_ g: Gradient, bounds b: Rect, _ map: Homography) -> Paint? {
    guard !g.colors.isEmpty, let inverse = map.inverted() else { return nil }
    let s = Point(x: b.minX + g.startPoint.x * b.width, y: b.minY + g.startPoint.y * b.height)
    let dx = g.endPoint.x - g.startPoint.x, dy = g.endPoint.y - g.startPoint.y
    let len2 = dx * dx + dy * dy
    let axis = len2 > 0 && b.width > 0 && b.height > 0
      ? Point(x: dx / (len2 * b.width), y: dy / (len2 * b.height)) : .zero
    var toLocal = inverse
    if toLocal.isAffine { toLocal = toLocal.normalized }
    return .gradient(GradientPaint(lut: g.lookupTable(), toLocal: toLocal, start: s, axis: axis))
  }

  // MARK: - Shapes

  /// A rectangle of bounds coordinates with corner `radius`, in device pixels.
  func rectShape(_ r: Rect, radius: Double, _ map: Homography) -> Shape? {
    guard r.width > 0, r.height > 0, r.minX.isFinite, r.minY.isFinite else { return nil }
    let radius = min(max(radius, 0), r.width / 2, r.height / 2)
    if map.isAxisAligned {
      let n = map.normalized
      let xa = r.minX * n.m11 + n.m31, xb = r.maxX * n.m11 + n.m31
      let ya = r.minY * n.m22 + n.m32, yb = r.maxY * n.m22 + n.m32
      let (x0, x1) = xa < xb ? (xa, xb) : (xb, xa)
      let (y0, y1) = ya < yb ? (ya, yb) : (yb, ya)
      guard x1 > x0, y1 > y0 else { return nil }
      if radius <= 0 { return .box(x0: x0, y0: y0, x1: x1, y1: y1) }
      let sx = abs(n.m11), sy = abs(n.m22)
      if abs(sx - sy) <= 1e-9 * max(sx, sy) {
        return .roundedBox(x0: x0, y0: y0, x1: x1, y1: y1, radius: radius * sx)
      }
    }
    let corners = [
      Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY),
      Point(x: r.minX, y: r.maxY),
    ]
    guard let edges = projectedEdges(corners, map) else { return nil }
    if radius <= 0 { return .polygon(edges) }
    guard let inverse = map.inverted() else { return nil }
    return .local(LocalShape(rect: r, radius: radius, toLocal: inverse, outline: grown(edges)))
  }

  /// Edges pushed out by one pixel.
  func grown(_ edges: [EdgeLine]) -> [EdgeLine] {
    edges.map { EdgeLine(a: $0.a, b: $0.b, c: $0.c + 1) }
  }

  /// The device edges of a convex local polygon, clipped to the half-space in
  /// front of the eye (W ≥ ε); nil when nothing is visible.
  func projectedEdges(_ polygon: [Point], _ map: Homography) -> [EdgeLine]? {
    let eps = 1e-6
    func w(_ p: Point) -> Double { p.x * map.m13 + p.y * map.m23 + map.m33 }
    var pts = polygon
    if map.m33 < 0 || polygon.contains(where: { w($0) < eps }) {
      var out: [Point] = []
      for i in 0..<pts.count {
        let p = pts[i], q = pts[(i + 1) % pts.count]
        let wp = w(p), wq = w(q)
        if wp >= eps { out.append(p) }
        if (wp >= eps) != (wq >= eps) {
          let t = (eps - wp) / (wq - wp)
          out.append(Point(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
        }
      }
      pts = out
    }
    guard pts.count >= 3 else { return nil }
    let dev = pts.map { map.apply($0) }
    var area = 0.0
    for i in 0..<dev.count {
      let p = dev[i], q = dev[(i + 1) % dev.count]
      area += p.x * q.y - q.x * p.y
    }
    guard abs(area) > 1e-9, area.isFinite else { return nil }
    let sign: Double = area > 0 ? 1 : -1
    var edges: [EdgeLine] = []
    for i in 0..<dev.count {
      let p = dev[i], q = dev[(i + 1) % dev.count]
      let dx = q.x - p.x, dy = q.y - p.y
      let len = (dx * dx + dy * dy).squareRoot()
      guard len > 1e-12 else { continue }
      let a = -dy * sign / len, b = dx * sign / len
      edges.append(EdgeLine(a: a, b: b, c: -(a * p.x + b * p.y)))
    }
    return edges.count >= 3 ? edges : nil
  }

  /// A path's fill in device pixels: circles, rectangles, convex polygons
  /// and a rectangle with a circular hole analytically, anything else
  /// through the path rasterizer. Returns the shapes whose coverages
  /// multiply to the fill ([] when nothing is filled).
  func pathShapes(_ path: Path, rule: FillRule, _ map: Homography) -> [Shape] {
    let subpaths = path.subpaths
    if subpaths.count == 1 {
      if let c = path.tracedCircle ?? subpaths[0].tracedCircle {
        return circleShape(c.center, c.radius, map).map { [$0] } ?? []
      }
      if let r = path.axisAlignedRect { return rectShape(r, radius: 0, map).map { [$0] } ?? [] }
      // A convex polygon (a page cut along a fold): its edges, evaluated per
      // row like a projected rectangle, instead of a mask of its every pixel.
      if let corners = path.convexPolygon {
        return projectedEdges(corners, map).map { [.polygon($0)] } ?? []
      }
    }
    if subpaths.count == 2 {
      // A rectangle with a circle inside it (seed 003's even-odd hole), or
      // with any circle when the rectangle covers the canvas: what of the
      // circle lies outside the rectangle is then off the canvas.
      for (a, b) in [(subpaths[0], subpaths[1]), (subpaths[1], subpaths[0])] {
        guard let r = a.axisAlignedRect, let c = b.tracedCircle else { continue }
        let inside =
          c.center.x - c.radius >= r.minX && c.center.x + c.radius <= r.maxX
          && c.center.y - c.radius >= r.minY && c.center.y + c.radius <= r.maxY
        guard let box = rectShape(r, radius: 0, map) else { return inside ? [] : rasterized(path, rule, map) }
        guard inside || Self.covers(box, canvas) else { continue }
        let opposite = (a.signedArea2 > 0) != (b.signedArea2 > 0)
        if rule == .nonZero && !opposite { return [box] }
        guard let hole = circleShape(c.center, c.radius, map) else { return [box] }
        return [box, .inverted(hole)]
      }
    }
    return rasterized(path, rule, map)
  }

  /// `path` through the path rasterizer: its coverage mask over the canvas.
  func rasterized(_ path: Path, _ rule: FillRule, _ map: Homography) -> [Shape] {
    PathRasterizer.coverage(path, rule: rule, map: map, clip: canvas).map { [.mask($0)] } ?? []
  }

  /// True when `shape` is a box holding every pixel of `area`.
  static func covers(_ shape: Shape, _ area: PixelBox) -> Bool {
    guard case .box(let x0, let y0, let x1, let y1) = shape else { return false }
    return x0 <= Double(area.x0) && y0 <= Double(area.y0) && x1 >= Double(area.x1) && y1 >= Double(area.y1)
  }

  /// A disc of local centre and radius in device pixels (an ellipse through
  /// the local-shape path when the map is not a similarity).
  func circleShape(_ center: Point, _ radius: Double, _ map: Homography) -> Shape? {
    guard radius > 0 else { return nil }
    if map.isAffine {
      let n = map.normalized
      let size = abs(n.m11) + abs(n.m12)
      let rotation = abs(n.m11 - n.m22) <= 1e-9 * size && abs(n.m12 + n.m21) <= 1e-9 * size
      let reflection = abs(n.m11 + n.m22) <= 1e-9 * size && abs(n.m12 - n.m21) <= 1e-9 * size
      if rotation || reflection {
        let c = n.apply(center)
        let s = (n.m11 * n.m11 + n.m12 * n.m12).squareRoot()
        return .circle(cx: c.x, cy: c.y, radius: radius * s)
      }
    }
    let r = Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
    let corners = [
      Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY),
      Point(x: r.minX, y: r.maxY),
    ]
    guard let edges = projectedEdges(corners, map), let inverse = map.inverted() else { return nil }
    return .local(LocalShape(rect: r, radius: nil, toLocal: inverse, outline: grown(edges)))
  }

  /// Conservative device bounds of a shape (the canvas for inverted shapes).
  func bounds(of shape: Shape) -> PixelBox {
    switch shape {
    case .box(let x0, let y0, let x1, let y1), .roundedBox(let x0, let y0, let x1, let y1, _):
      return PixelBox(covering: x0, y0, x1, y1)
    case .circle(let cx, let cy, let r):
      return PixelBox(covering: cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1)
    case .polygon(let edges):
      return polygonBounds(edges)
    case .local(let s):
      return polygonBounds(s.outline)
    case .mask(let m):
      return m.box
    case .separable(let m):
      return m.box
    case .inverted:
      return canvas
    }
  }

  /// The bounds of a convex polygon given by edges: its vertices are the
  /// intersections of consecutive edges.
  func polygonBounds(_ edges: [EdgeLine]) -> PixelBox {
    var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
    for i in 0..<edges.count {
      let e = edges[i], f = edges[(i + 1) % edges.count]
      let det = e.a * f.b - e.b * f.a
      guard abs(det) > 1e-12 else { continue }
      let x = (e.b * f.c - f.b * e.c) / det
      let y = (f.a * e.c - e.a * f.c) / det
      x0 = min(x0, x)
      y0 = min(y0, y)
      x1 = max(x1, x)
      y1 = max(y1, y)
    }
    guard x0 <= x1 else { return canvas }
    return PixelBox(covering: x0 - 1, y0 - 1, x1 + 1, y1 + 1)
  }
}
