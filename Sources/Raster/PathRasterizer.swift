import Dispatch
import Geometry

// PathRasterizer: the coverage of an arbitrary filled path, non-zero or
// even-odd, as an 8-bit mask in device pixels.
//
// Curves are flattened to lines (within 0.05 px: a cubic's polyline of n
// segments deviates by at most M/(8n²), M the largest second difference).
// Each pixel row is sampled on 16 sub-scanlines; on each, the edge
// crossings are sorted and walked, and every span where the fill rule says
// "inside" adds its exact horizontal extent (fractional at both ends, weight
// 1/16) into the row — so coverage is exact across x and 1/16-exact along y.
// Interior pixels of a span go through a difference array, so a wide span
// costs O(1), not O(width).
//
// Whatever numbers reach it, it never traps: a path with a NaN or infinite
// point covers nothing (it is dropped, as Core Graphics drops such a path),
// vertices beyond ±`farthest` pixels are clamped there (no canvas is within
// orders of magnitude of it, so the coverage is unchanged), and segment
// counts come from `segmentCount`, which turns a non-finite curvature into
// one segment instead of an integer conversion of NaN.

enum PathRasterizer {
  static let subsamples = 16
  /// Flattening tolerance in device pixels.
  static let tolerance = 0.05
  /// Largest vertex coordinate kept, in device pixels; farther ones are clamped.
  static let farthest = 1.0e9

  /// A line edge, top to bottom, with its winding direction.
  struct Edge {
    var yTop: Double
    var yBottom: Double
    var xTop: Double
    var dxdy: Double
    var winding: Int
  }

  /// The coverage of `path` (local coordinates, mapped to device pixels by
  /// `map`), limited to `clip`; nil when nothing is covered.
  static func coverage(_ path: Path, rule: FillRule, map: Homography, clip: PixelBox) -> CoverageMask? {
    guard let (edges, x0, y0, x1, y1) = edges(path, map: map) else { return nil }
    let box = PixelBox(covering: x0, y0, x1, y1).intersection(clip)
    guard !box.isEmpty else { return nil }
    return rasterize(edges, rule: rule, box: box)
  }

  /// The path's edges in device pixels, sorted by `yTop`, and their
  /// bounds; nil when it has none or a point that is not finite.
  static func edges(_ path: Path, map: Homography) -> (edges: [Edge], x0: Double, y0: Double, x1: Double, y1: Double)? {
    let polygons = flatten(path, map: map)
    var edges: [Edge] = []
    var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
    func clamped(_ p: Point) -> Point {
      Point(x: min(max(p.x, -farthest), farthest), y: min(max(p.y, -farthest), farthest))
    }
    for poly in polygons where poly.count >= 2 {
      for point in poly where !(point.x.isFinite && point.y.isFinite) { return nil }
      for i in 0..<poly.count {
        let p = clamped(poly[i]), q = clamped(poly[(i + 1) % poly.count])
        x0 = min(x0, p.x)
        x1 = max(x1, p.x)
        y0 = min(y0, p.y)
        y1 = max(y1, p.y)
        if p.y == q.y { continue }
        let (a, b, w) = p.y < q.y ? (p, q, 1) : (q, p, -1)
        // An edge too close to horizontal for a finite slope lies between two
        // sub-scanlines; as a vertical edge it crosses none of them either.
        let slope = (b.x - a.x) / (b.y - a.y)
        edges.append(Edge(yTop: a.y, yBottom: b.y, xTop: a.x, dxdy: slope.isFinite ? slope : 0, winding: w))
      }
    }
    guard !edges.isEmpty else { return nil }
    edges.sort { $0.yTop < $1.yTop }
    return (edges, x0, y0, x1, y1)
  }

  /// Rows per band of `rasterize`'s work.
  static let bandRows = 64

  /// The coverage of `edges` (sorted by `yTop`) in `box`. Rows are
  /// independent — each starts from the edges that cross its first
  /// sub-scanline — so a tall box is done in bands of `bandRows` on the
  /// processors at once (a circle mask over the whole screen, 2556 rows
  /// at 3×, every frame of a zoom-expand), with the bytes of one pass.
  static func rasterize(_ edges: [Edge], rule: FillRule, box: PixelBox) -> CoverageMask {
    let w = box.width, h = box.height
    var alpha = [UInt8](repeating: 0, count: w * h)
    let bands = (h + bandRows - 1) / bandRows
    let threads = min(Compositor.processorCount, bands)
    edges.withUnsafeBufferPointer { edges in
      alpha.withUnsafeMutableBufferPointer { out in
        let job = UncheckedSendable(value: (edges, out.baseAddress!))
        let next = BandCounter()
        let work: @Sendable (Int) -> Void = { _ in
          let (edges, out) = job.value
          while true {
            let band = next.take()
            guard band < bands else { break }
            let r0 = band * bandRows
            rasterizeRows(r0..<min(h, r0 + bandRows), edges, rule: rule, box: box, into: out)
          }
        }
        if threads <= 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: threads, execute: work) }
      }
    }
    return CoverageMask(x0: box.x0, y0: box.y0, width: w, height: h, alpha: alpha)
  }

  /// Rows `rows` of `rasterize`'s mask into `out` (the whole mask's bytes).
  static func rasterizeRows(
    _ rows: Range<Int>, _ edges: UnsafeBufferPointer<Edge>, rule: FillRule, box: PixelBox,
    into out: UnsafeMutablePointer<UInt8>
  ) {
    let w = box.width
    let s = subsamples
    let weight = 1 / Double(s)
    let partial = UnsafeMutablePointer<Double>.allocate(capacity: w + 2)
    let delta = UnsafeMutablePointer<Double>.allocate(capacity: w + 2)
    defer {
      partial.deallocate()
      delta.deallocate()
    }
    // The edges that cross the current sub-scanline, in the order of
    // `edges`: the first sub-scanline takes in every edge above it and
    // drops those that end above it, as a pass from the top would have.
    var active: [Int] = []
    var crossings: [(x: Double, w: Int)] = []
    var next = 0
    let fx0 = Double(box.x0), fx1 = Double(box.x1)
    for row in rows {
      partial.initialize(repeating: 0, count: w + 2)
      delta.initialize(repeating: 0, count: w + 2)
      var any = false
      for k in 0..<s {
        let sy = Double(box.y0 + row) + (Double(k) + 0.5) * weight
        while next < edges.count && edges[next].yTop <= sy {
          active.append(next)
          next += 1
        }
        active.removeAll { edges[$0].yBottom <= sy }
        crossings.removeAll(keepingCapacity: true)
        for i in active where edges[i].yTop <= sy {
          let e = edges[i]
          crossings.append((e.xTop + (sy - e.yTop) * e.dxdy, e.winding))
        }
        if crossings.count < 2 { continue }
        crossings.sort { $0.x < $1.x }
        var winding = 0
        var start = 0.0
        for c in crossings {
          let was = rule == .nonZero ? winding != 0 : winding & 1 != 0
          winding += c.w
          let now = rule == .nonZero ? winding != 0 : winding & 1 != 0
          if !was && now {
            start = c.x
          } else if was && !now {
            let a = max(start, fx0) - fx0, b = min(c.x, fx1) - fx0
            if b > a {
              any = true
              addSpan(a, b, weight, partial, delta)
            }
          }
        }
      }
      guard any else { continue }
      var run = 0.0
      let o = out + row * w
      for x in 0..<w {
        run += delta[x]
        let c = min(max(run + partial[x], 0), 1)
        o[x] = UInt8(c * 255 + 0.5)
      }
    }
  }

  /// Adds [a, b) (box-relative, a < b) at `weight`: the end pixels get their
  /// covered fraction, the pixels between get `weight` via the difference array.
  @inline(__always) static func addSpan(
    _ a: Double, _ b: Double, _ weight: Double, _ partial: UnsafeMutablePointer<Double>,
    _ delta: UnsafeMutablePointer<Double>
  ) {
    let ia = Int(a), ib = Int(b)
    if ia == ib {
      partial[ia] += (b - a) * weight
      return
    }
    partial[ia] += (Double(ia + 1) - a) * weight
    delta[ia + 1] += weight
    delta[ib] -= weight
    partial[ib] += (b - Double(ib)) * weight
  }

  // MARK: - Flattening

  /// Line segments for a curve whose largest second difference is `m`
  /// (deviation M/(8n²) ≤ `tolerance`), 1…1000; 1 when `m` is not finite
  /// (the polygon then holds a non-finite point and is dropped).
  static func segmentCount(_ m: Double, tolerance: Double) -> Int {
    let n = (m / (8 * tolerance)).squareRoot().rounded(.up)
    guard n.isFinite else { return 1 }
    return max(1, Int(min(max(n, 0), 1000)))
  }

  /// Closed polygons in device pixels. Affine maps transform the control
  /// points (exact); projective maps flatten in local space finely and
  /// project the vertices (nil polygons where a vertex is behind the eye).
  static func flatten(_ path: Path, map: Homography) -> [[Point]] {
    let affine = map.isAffine
    let n = affine ? map.normalized : map
    // Local tolerance for projective maps: device tolerance over the largest
    // local-to-device scale at the corners of the control bounds.
    var localTolerance = tolerance
    if !affine {
      let s = (abs(n.m11) + abs(n.m12) + abs(n.m21) + abs(n.m22)) / max(abs(n.m33), 1e-9)
      localTolerance = tolerance / max(s, 1e-9) / 4
    }
    func dev(_ p: Point) -> Point { affine ? Point(x: p.x * n.m11 + p.y * n.m21 + n.m31, y: p.x * n.m12 + p.y * n.m22 + n.m32) : p }
    var polys: [[Point]] = []
    var current: [Point] = []
    var last = Point.zero
    let tol = affine ? tolerance : localTolerance
    func flush() {
      if current.count >= 3 { polys.append(current) }
      current = []
    }
    for e in path.elements {
      switch e {
      case .move(let p):
        flush()
        last = dev(p)
        current = [last]
      case .line(let p):
        if current.isEmpty { current = [last] }
        last = dev(p)
        current.append(last)
      case .quadCurve(let p, let c):
        if current.isEmpty { current = [last] }
        let p0 = last, p1 = dev(c), p2 = dev(p)
        let ddx = p0.x - 2 * p1.x + p2.x, ddy = p0.y - 2 * p1.y + p2.y
        let m = 2 * (ddx * ddx + ddy * ddy).squareRoot()
        let segs = segmentCount(m, tolerance: tol)
        for i in 1...segs {
          let t = Double(i) / Double(segs), u = 1 - t
          current.append(Point(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x, y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y))
        }
        last = p2
      case .curve(let p, let c1, let c2):
        if current.isEmpty { current = [last] }
        let p0 = last, p1 = dev(c1), p2 = dev(c2), p3 = dev(p)
        let ax = p0.x - 2 * p1.x + p2.x, ay = p0.y - 2 * p1.y + p2.y
        let bx = p1.x - 2 * p2.x + p3.x, by = p1.y - 2 * p2.y + p3.y
        let m = 6 * max((ax * ax + ay * ay).squareRoot(), (bx * bx + by * by).squareRoot())
        let segs = segmentCount(m, tolerance: tol)
        for i in 1...segs {
          let t = Double(i) / Double(segs), u = 1 - t
          let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
          current.append(Point(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y))
        }
        last = p3
      case .close:
        if let first = current.first { last = first }
        flush()
      }
    }
    flush()
    if affine { return polys }
    // Project local vertices; drop polygons reaching behind the eye.
    return polys.compactMap { poly in
      var out: [Point] = []
      for p in poly {
        let h = map.homogeneous(p)
        guard h.w > 1e-9 else { return nil }
        out.append(Point(x: h.x / h.w, y: h.y / h.w))
      }
      return out
    }
  }
}
