#if canImport(Glibc)
import Glibc
#endif
import Geometry

// Coverage: for one pixel row, each shape yields sorted, disjoint runs of
// pixels — full (coverage exactly 1: the draw's interior, where the kernels
// copy or blend without a mask) or partial (a coverage value per pixel,
// written into a Float row). Pixels in no run have coverage 0. Shapes of one
// draw are intersected run by run, multiplying the partial values, so a
// full-screen layer under a circle mask costs one square root per edge
// pixel, not per pixel; a box covering the whole row (the layer's own
// outline) is skipped. For occlusion, `fullColumns` gives the columns a
// convex shape covers on every row of a band from its two end rows.

/// One run of pixels [start, end). (Stored in 64 bits, the flag in the low
/// bit of the start, so that `Runs` is 136 bytes with no padding: it is
/// created and copied by value several times per row, and its zeroing and
/// copies showed in profiles. Coordinates are device pixels, well within
/// ±2³⁰.)
struct Run: Sendable {
  /// start << 1 | full.
  private var s: Int32
  private var e: Int32

  init(start: Int, end: Int, full: Bool) {
    s = Int32(truncatingIfNeeded: start << 1 | (full ? 1 : 0))
    e = Int32(truncatingIfNeeded: end)
  }

  var start: Int {
    get { Int(s >> 1) }
    set { s = Int32(truncatingIfNeeded: newValue << 1) | (s & 1) }
  }
  var end: Int {
    get { Int(e) }
    set { e = Int32(truncatingIfNeeded: newValue) }
  }
  var full: Bool { s & 1 != 0 }
}

/// Up to `capacity` runs, sorted and disjoint, without allocation.
struct Runs {
  static let capacity = 16
  var items = InlineArray<16, Run>(repeating: Run(start: 0, end: 0, full: false))
  var count = 0

  var isEmpty: Bool { count == 0 }

  /// The runs minus the pixels [x0, x1) (which a later opaque draw covers).
  @inline(__always) func subtracting(_ x0: Int, _ x1: Int) -> Runs {
    var out = self
    out.subtract(x0, x1)
    return out
  }

  /// Removes the pixels [x0, x1) from the runs, in place: runs inside go,
  /// runs across an end are cut, a run across both is split in two (left
  /// unchanged when that would overflow the capacity).
  mutating func subtract(_ x0: Int, _ x1: Int) {
    guard x0 < x1, count > 0, count < Runs.capacity, x0 < end, x1 > start else { return }
    // First run ending after x0, and first run starting at or after x1.
    var i = 0
    while items[i].end <= x0 { i += 1 }
    var j = i
    while j < count && items[j].start < x1 { j += 1 }
    if i == j { return }
    // Runs i..<j meet [x0, x1): keep the part of run i before x0 and the
    // part of run j − 1 after x1.
    let first = items[i], last = items[j - 1]
    var keep = InlineArray<2, Run>(repeating: Run(start: 0, end: 0, full: false))
    var n = 0
    if first.start < x0 {
      keep[n] = Run(start: first.start, end: x0, full: first.full)
      n += 1
    }
    if last.end > x1 {
      keep[n] = Run(start: x1, end: last.end, full: last.full)
      n += 1
    }
    let removed = j - i, shift = n - removed
    if shift != 0 {
      if shift > 0 {
        var k = count - 1
        while k >= j {
          items[k + shift] = items[k]
          k -= 1
        }
      } else {
        for k in j..<count { items[k + shift] = items[k] }
      }
      count += shift
    }
    for k in 0..<n { items[i + k] = keep[k] }
  }

  /// The longest full run, or nil.
  var longestFull: Run? {
    var best: Run? = nil
    for k in 0..<count where items[k].full {
      if best == nil || items[k].end - items[k].start > best!.end - best!.start { best = items[k] }
    }
    return best
  }
  var start: Int { items[0].start }
  var end: Int { items[count - 1].end }

  /// Appends a run after the last one; merges it with a contiguous run of the
  /// same kind. When full, folds the new run into the last as a partial run,
  /// writing the 1s and 0s it then needs into `cov` (indexed from `lo`).
  mutating func append(_ start: Int, _ end: Int, full: Bool, cov: UnsafeMutablePointer<Float>, lo: Int) {
    guard end > start else { return }
    if count > 0 {
      var last = items[count - 1]
      if last.end == start && last.full == full {
        last.end = end
        items[count - 1] = last
        return
      }
      if count == Runs.capacity {
        if last.full { (cov + (last.start - lo)).update(repeating: 1, count: last.end - last.start) }
        (cov + (last.end - lo)).update(repeating: 0, count: start - last.end)
        if full { (cov + (start - lo)).update(repeating: 1, count: end - start) }
        items[count - 1] = Run(start: last.start, end: end, full: false)
        return
      }
    }
    items[count] = Run(start: start, end: end, full: full)
    count += 1
  }
}

@inline(__always) func clamp01(_ v: Float) -> Float { v < 0 ? 0 : (v > 1 ? 1 : v) }
@inline(__always) func clamp01(_ v: Double) -> Double { v < 0 ? 0 : (v > 1 ? 1 : v) }

/// A real coordinate clamped into [lo, hi] and converted to Int.
@inline(__always) func clampedInt(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
  if !(v > Double(lo)) { return lo }
  if v >= Double(hi) { return hi }
  return Int(v)
}

/// Evaluates shapes on one row over the pixel span [lo, hi).
struct RowCoverage {
  let lo: Int
  let hi: Int
  /// `levels × stride` floats: level k holds the partial values of the
  /// shape being evaluated at nesting depth k, indexed by `x − lo`.
  let stack: UnsafeMutablePointer<Float>
  let stride: Int
  static let levels = 6

  @inline(__always) func cov(_ level: Int) -> UnsafeMutablePointer<Float> { stack + level * stride }

  /// The runs of the product of `shapes` on row `y`, partial values in level 0.
  ///
  /// A box covering the whole row [lo, hi) (a full-screen layer's own
  /// outline) is one full run, which leaves any product unchanged: it is
  /// skipped rather than evaluated and intersected (same runs, same values).
  @inline(__always) func evaluate(_ shapes: [Shape], y: Int) -> Runs {
    var runs = Runs()
    evaluate(shapes, y: y, into: &runs)
    return runs
  }

  /// `evaluate(_:y:)` into `runs` (empty on entry).
  func evaluate(_ shapes: [Shape], y: Int, into runs: inout Runs) {
    guard lo < hi, !shapes.isEmpty else { return }
    var first = true
    for k in shapes.indices {
      let shape = shapes[k]
      if case .box(let x0, let y0, let x1, let y1) = shape, coversRow(x0, y0, x1, y1, y: y) { continue }
      if first {
        evaluate(shape, y: y, level: 0, into: &runs)
        first = false
      } else {
        var other = Runs()
        evaluate(shape, y: y, level: 1, into: &other)
        runs = intersect(runs, level: 0, other, level: 1)
      }
      if runs.isEmpty { return }
    }
    if first { runs.append(lo, hi, full: true, cov: cov(0), lo: lo) }
  }

  /// Whether the box has coverage 1 on all of [lo, hi) on row `y` (then
  /// `box` yields exactly the one full run [lo, hi)).
  @inline(__always) func coversRow(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, y: Int) -> Bool {
    x0 <= Double(lo) && x1 >= Double(hi) && y0 <= Double(y) && y1 >= Double(y + 1)
  }

  /// The columns [x0, x1) where every one of `shapes` has coverage exactly 1
  /// on every row of `rows` (x0 ≥ x1: none), or nil when a shape has no such
  /// closed form (then evaluate the rows one by one).
  ///
  /// Boxes, rounded boxes, circles and polygons are convex, and each row's
  /// full run is the row's slice of the shape shrunk by half a pixel (again
  /// convex), so the columns full on every row of a band are those full on
  /// its first and its last row. That holds exactly for boxes (the run does
  /// not depend on the row) and circles (the chord half-width is a monotone
  /// function of |dy|, and so is its rounding); rounded boxes and polygons
  /// keep a one-pixel margin on each side against rounding between rows.
  /// Two row evaluations per band instead of one per row.
  func fullColumns(_ shapes: [Shape], rows: Range<Int>) -> (Int, Int)? {
    guard lo < hi, !rows.isEmpty, !shapes.isEmpty else { return nil }
    var x0 = lo, x1 = hi
    for k in shapes.indices {
      let shape = shapes[k]
      let margin: Int
      switch shape {
      case .box, .circle: margin = 0
      case .roundedBox, .polygon: margin = 1
      case .local, .mask, .separable, .inverted: return nil
      }
      var y = rows.lowerBound
      while true {
        var runs = Runs()
        evaluate(shape, y: y, level: 0, into: &runs)
        guard let r = runs.longestFull else { return (lo, lo) }
        x0 = max(x0, r.start + margin)
        x1 = min(x1, r.end - margin)
        if y == rows.upperBound - 1 { break }
        y = rows.upperBound - 1
      }
      if x0 >= x1 { return (lo, lo) }
    }
    return (x0, x1)
  }

  /// The runs of `a ∩ b`; partial values end up in `a`'s level.
  func intersect(_ a: Runs, level la: Int, _ b: Runs, level lb: Int) -> Runs {
    var out = Runs()
    let ca = cov(la), cb = cov(lb)
    var i = 0, j = 0
    while i < a.count && j < b.count {
      let ra = a.items[i], rb = b.items[j]
      let s = max(ra.start, rb.start), e = min(ra.end, rb.end)
      if s < e {
        if !ra.full && !rb.full {
          for x in s..<e { ca[x - lo] *= cb[x - lo] }
        } else if ra.full && !rb.full {
          (ca + (s - lo)).update(from: cb + (s - lo), count: e - s)
        }
        out.append(s, e, full: ra.full && rb.full, cov: ca, lo: lo)
      }
      if ra.end < rb.end { i += 1 } else { j += 1 }
    }
    return out
  }

  /// Runs and partial values (at `level`) of one shape on row `y`.
  func evaluate(_ shape: Shape, y: Int, level: Int, into runs: inout Runs) {
    let c = cov(level)
    switch shape {
    case .box(let x0, let y0, let x1, let y1):
      box(x0, y0, x1, y1, y: y, c, &runs)
    case .roundedBox(let x0, let y0, let x1, let y1, let r):
      roundedBox(x0, y0, x1, y1, r, y: y, c, &runs)
    case .circle(let cx, let cy, let r):
      circle(cx, cy, r, y: y, c, &runs)
    case .polygon(let edges):
      polygon(edges, y: y, c, &runs)
    case .local(let s):
      local(s, y: y, c, &runs)
    case .mask(let m):
      mask(m, y: y, c, &runs)
    case .separable(let m):
      separable(m, y: y, c, &runs)
    case .inverted(let inner):
      var r = Runs()
      evaluate(inner, y: y, level: level + 1, into: &r)
      let ci = cov(level + 1)
      var x = lo
      for k in 0..<r.count {
        let run = r.items[k]
        runs.append(x, run.start, full: true, cov: c, lo: lo)
        if !run.full {
          for p in run.start..<run.end { c[p - lo] = 1 - ci[p - lo] }
          runs.append(run.start, run.end, full: false, cov: c, lo: lo)
        }
        x = run.end
      }
      runs.append(x, hi, full: true, cov: c, lo: lo)
    }
  }

  // MARK: - Shapes

  /// Appends partial [a, f), full [f, g), partial [g, b) (all clamped to
  /// [a, b]), computing partial values with `value(x)`.
  @inline(__always) func emit(
    _ a: Int, _ f: Int, _ g: Int, _ b: Int, _ c: UnsafeMutablePointer<Float>, _ runs: inout Runs,
    _ value: (Int) -> Float
  ) {
    guard a < b else { return }
    let f = min(max(f, a), b)
    let g = min(max(g, f), b)
    for x in a..<f { c[x - lo] = value(x) }
    runs.append(a, f, full: false, cov: c, lo: lo)
    runs.append(f, g, full: true, cov: c, lo: lo)
    for x in g..<b { c[x - lo] = value(x) }
    runs.append(g, b, full: false, cov: c, lo: lo)
  }

  func box(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, y: Int, _ c: UnsafeMutablePointer<Float>,
    _ runs: inout Runs
  ) {
    let fy = Double(y)
    let cy = min(fy + 1, y1) - max(fy, y0)
    guard cy > 0 else { return }
    let a = clampedInt(x0.rounded(.down), lo, hi), b = clampedInt(x1.rounded(.up), lo, hi)
    let cyf = Float(min(cy, 1))
    var f = a, g = a
    if cy >= 1 {
      f = clampedInt(x0.rounded(.up), lo, hi)
      g = clampedInt(x1.rounded(.down), lo, hi)
    }
    emit(a, f, g, b, c, &runs) { x in
      let fx = Double(x)
      return Float(clamp01(min(fx + 1, x1) - max(fx, x0))) * cyf
    }
  }

  func circle(
    _ cx: Double, _ cy: Double, _ r: Double, y: Int, _ c: UnsafeMutablePointer<Float>, _ runs: inout Runs
  ) {
    guard r > 0 else { return }
    let dy = Double(y) + 0.5 - cy
    if r < 0.5 {
      // Below half a pixel: a tent of the disc's area, π r².
      guard abs(dy) < 1 else { return }
      let area = Double.pi * r * r
      let a = clampedInt((cx - 1.5).rounded(.up), lo, hi), b = clampedInt((cx + 0.5).rounded(.down) + 1, lo, hi)
      emit(a, a, a, b, c, &runs) { x in
        let dx = Double(x) + 0.5 - cx
        return Float(clamp01(1 - (dx * dx + dy * dy).squareRoot()) * area)
      }
      return
    }
    let ro = r + 0.5
    guard abs(dy) < ro else { return }
    let eo = (ro * ro - dy * dy).squareRoot()
    let a = clampedInt((cx - eo - 0.5).rounded(.up), lo, hi)
    let b = clampedInt((cx + eo - 0.5).rounded(.down) + 1, lo, hi)
    var f = a, g = a
    let ri = r - 0.5
    if ri > 0 && abs(dy) <= ri {
      let ei = (ri * ri - dy * dy).squareRoot()
      f = clampedInt((cx - ei - 0.5).rounded(.up), lo, hi)
      g = clampedInt((cx + ei - 0.5).rounded(.down) + 1, lo, hi)
    }
    let dy2 = dy * dy
    emit(a, f, g, b, c, &runs) { x in
      let dx = Double(x) + 0.5 - cx
      return Float(clamp01(ro - (dx * dx + dy2).squareRoot()))
    }
  }

  /// Half the width at height `dy` from the centre of a rounded box
  /// (half-size hw × hh, corner radius r ≤ min(hw, hh)); nil outside.
  @inline(__always) static func halfExtent(_ hw: Double, _ hh: Double, _ r: Double, _ dy: Double) -> Double? {
    let ady = abs(dy)
    guard hw >= 0, hh >= 0, ady <= hh else { return nil }
    let t = ady - (hh - r)
    if t <= 0 { return hw }
    return hw - r + max(r * r - t * t, 0).squareRoot()
  }

  /// Signed distance from a point (relative to the centre) to a rounded box.
  @inline(__always) static func roundedBoxDistance(
    _ px: Double, _ py: Double, _ hw: Double, _ hh: Double, _ r: Double
  ) -> Double {
    let qx = abs(px) - (hw - r), qy = abs(py) - (hh - r)
    let mx = max(qx, 0), my = max(qy, 0)
    return (mx * mx + my * my).squareRoot() + min(max(qx, qy), 0) - r
  }

  func roundedBox(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ radius: Double, y: Int,
    _ c: UnsafeMutablePointer<Float>, _ runs: inout Runs
  ) {
    let cx = (x0 + x1) / 2, cy = (y0 + y1) / 2
    let hw = (x1 - x0) / 2, hh = (y1 - y0) / 2
    let r = min(radius, hw, hh)
    let dy = Double(y) + 0.5 - cy
    guard let eo = RowCoverage.halfExtent(hw + 0.5, hh + 0.5, r + 0.5, dy) else { return }
    let a = clampedInt((cx - eo - 0.5).rounded(.down), lo, hi)
    let b = clampedInt((cx + eo - 0.5).rounded(.up) + 1, lo, hi)
    var f = a, g = a
    if let ei = RowCoverage.halfExtent(hw - 0.5, hh - 0.5, max(r - 0.5, 0), dy) {
      f = clampedInt((cx - ei - 0.5).rounded(.up), lo, hi)
      g = clampedInt((cx + ei - 0.5).rounded(.down) + 1, lo, hi)
    }
    emit(a, f, g, b, c, &runs) { x in
      let d = RowCoverage.roundedBoxDistance(Double(x) + 0.5 - cx, dy, hw, hh, r)
      return Float(clamp01(0.5 - d))
    }
  }

  /// The open interval of pixel-centre x where every edge distance > `t`
  /// on the row centre `yc`; nil when empty.
  static func interval(_ edges: [EdgeLine], yc: Double, above t: Double) -> (Double, Double)? {
    var l = -Double.infinity, h = Double.infinity
    for e in edges {
      let k = e.b * yc + e.c
      if abs(e.a) < 1e-12 {
        if k <= t { return nil }
      } else if e.a > 0 {
        l = max(l, (t - k) / e.a)
      } else {
        h = min(h, (t - k) / e.a)
      }
    }
    return l < h ? (l, h) : nil
  }

  func polygon(_ edges: [EdgeLine], y: Int, _ c: UnsafeMutablePointer<Float>, _ runs: inout Runs) {
    let yc = Double(y) + 0.5
    guard let (ol, oh) = RowCoverage.interval(edges, yc: yc, above: -0.5) else { return }
    let a = clampedInt((ol - 0.5).rounded(.down), lo, hi)
    let b = clampedInt((oh - 0.5).rounded(.up) + 1, lo, hi)
    var f = a, g = a
    if let (il, ih) = RowCoverage.interval(edges, yc: yc, above: 0.5) {
      f = clampedInt((il - 0.5).rounded(.up) + 1, lo, hi)
      g = clampedInt((ih - 0.5).rounded(.down), lo, hi)
    }
    emit(a, f, g, b, c, &runs) { x in
      let xc = Double(x) + 0.5
      var v = 1.0
      for e in edges { v *= clamp01(0.5 + e.a * xc + e.b * yc + e.c) }
      return Float(v)
    }
  }

  func local(_ s: LocalShape, y: Int, _ c: UnsafeMutablePointer<Float>, _ runs: inout Runs) {
    let yc = Double(y) + 0.5
    guard let (ol, oh) = RowCoverage.interval(s.outline, yc: yc, above: -0.5) else { return }
    let a = clampedInt((ol - 0.5).rounded(.down), lo, hi)
    let b = clampedInt((oh - 0.5).rounded(.up) + 1, lo, hi)
    let m = s.toLocal
    let rect = s.rect
    let hw = rect.width / 2, hh = rect.height / 2
    let ccx = rect.midX, ccy = rect.midY
    emit(a, a, a, b, c, &runs) { x in
      let xc = Double(x) + 0.5
      let X = xc * m.m11 + yc * m.m21 + m.m31
      let Y = xc * m.m12 + yc * m.m22 + m.m32
      let W = xc * m.m13 + yc * m.m23 + m.m33
      guard W > 1e-12 else { return 0 }
      let iw = 1 / W
      let lx = X * iw, ly = Y * iw
      // Jacobian of (X/W, Y/W) with respect to device (x, y).
      let j11 = (m.m11 - lx * m.m13) * iw, j12 = (m.m21 - lx * m.m23) * iw
      let j21 = (m.m12 - ly * m.m13) * iw, j22 = (m.m22 - ly * m.m23) * iw
      let pixel = abs(j11 * j22 - j12 * j21).squareRoot()
      guard pixel > 0 else { return 0 }
      let px = lx - ccx, py = ly - ccy
      let d: Double
      if let r = s.radius {
        d = RowCoverage.roundedBoxDistance(px, py, hw, hh, min(r, hw, hh))
      } else {
        d = RowCoverage.ellipseDistance(px, py, hw, hh)
      }
      return Float(clamp01(0.5 - d / pixel))
    }
  }

  /// Approximate signed distance to an ellipse with semi-axes (a, b) (Quílez).
  static func ellipseDistance(_ px: Double, _ py: Double, _ a: Double, _ b: Double) -> Double {
    guard a > 0, b > 0 else { return .infinity }
    let k0 = ((px / a) * (px / a) + (py / b) * (py / b)).squareRoot()
    let k1 = ((px / (a * a)) * (px / (a * a)) + (py / (b * b)) * (py / (b * b))).squareRoot()
    guard k1 > 0 else { return -min(a, b) }
    return k0 * (k0 - 1) / k1
  }

  func mask(_ m: CoverageMask, y: Int, _ c: UnsafeMutablePointer<Float>, _ runs: inout Runs) {
    let my = y - m.y0
    guard my >= 0, my < m.height else { return }
    m.alpha.withUnsafeBufferPointer { buf in
      scan(buf.baseAddress! + my * m.width, step: 1, x0: m.x0, x1: m.x0 + m.width, c, &runs)
    }
  }

  func separable(_ m: SeparableMask, y: Int, _ c: UnsafeMutablePointer<Float>, _ runs: inout Runs) {
    let j = y - m.y0
    guard j >= 0, j < m.ys.count else { return }
    let fy = m.ys[j]
    guard fy > 0 else { return }
    let a = max(lo, m.x0), b = min(hi, m.x0 + m.xs.count)
    guard a < b else { return }
    var f = a, g = a
    if fy == 1 && m.fullX0 < m.fullX1 {
      f = min(max(m.fullX0, a), b)
      g = min(max(m.fullX1, f), b)
    }
    // Corner patches on this row are partial.
    for p in m.patches where y >= p.y0 && y < p.y0 + p.height && p.x0 < g && p.x0 + p.width > f {
      if p.x0 - f < g - (p.x0 + p.width) { f = min(max(f, p.x0 + p.width), g) } else { g = max(min(g, p.x0), f) }
    }
    // Plain counted loops over pointers (checked `x − lo` indexing kept
    // these scalar: ~17 instructions per shadow pixel).
    @inline(__always) func scale(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ n: Int) {
      for i in 0..<n { dst[i] = src[i] * fy }
    }
    @inline(__always) func subtract(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ n: Int) {
      for i in 0..<n { dst[i] = max(dst[i] - src[i], 0) }
    }
    m.xs.withUnsafeBufferPointer { xs in
      let px = xs.baseAddress! - m.x0
      if a < f { scale(px + a, c + (a - lo), f - a) }
      if g < b { scale(px + g, c + (g - lo), b - g) }
    }
    for p in m.patches where y >= p.y0 && y < p.y0 + p.height {
      let pa = max(p.x0, a), pb = min(p.x0 + p.width, b)
      guard pa < pb else { continue }
      p.values.withUnsafeBufferPointer { v in
        let row = v.baseAddress! + (y - p.y0) * p.width - p.x0
        // The partial pixels only: [pa, pb) ∩ ([a, f) ∪ [g, b)).
        let e0 = min(pb, f), s1 = max(pa, g)
        if pa < e0 { subtract(row + pa, c + (pa - lo), e0 - pa) }
        if s1 < pb { subtract(row + s1, c + (s1 - lo), pb - s1) }
      }
    }
    runs.append(a, f, full: false, cov: c, lo: lo)
    runs.append(f, g, full: true, cov: c, lo: lo)
    runs.append(g, b, full: false, cov: c, lo: lo)
  }

  /// Runs of the alpha bytes `row[(x − x0)·step]` of a band buffer whose
  /// first pixel is at device column `x0` and which spans the whole [lo, hi).
  func alphaRuns(
    _ row: UnsafePointer<UInt8>, step: Int, x0: Int, y: Int, level: Int, into runs: inout Runs
  ) {
    scan(row, step: step, x0: x0, x1: hi, cov(level), &runs)
  }

  /// Runs of coverage bytes: 0 is a gap, runs of ≥ 8 bytes of 255 are full,
  /// everything else partial.
  func scan(
    _ row: UnsafePointer<UInt8>, step: Int, x0: Int, x1: Int, _ c: UnsafeMutablePointer<Float>,
    _ runs: inout Runs
  ) {
    let a = max(lo, x0), b = min(hi, x1)
    guard a < b else { return }
    let base = row - x0 * step
    var x = a
    while x < b {
      let v = base[x * step]
      if v == 0 {
        x += 1
        continue
      }
      if v == 255 {
        var e = x + 1
        while e < b && base[e * step] == 255 { e += 1 }
        if e - x >= 8 {
          runs.append(x, e, full: true, cov: c, lo: lo)
        } else {
          for p in x..<e { c[p - lo] = 1 }
          runs.append(x, e, full: false, cov: c, lo: lo)
        }
        x = e
        continue
      }
      var e = x
      while e < b {
        let u = base[e * step]
        if u == 0 || u == 255 { break }
        c[e - lo] = Float(u) * (1 / 255)
        e += 1
      }
      runs.append(x, e, full: false, cov: c, lo: lo)
      x = e
    }
  }
}
