#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Testing

/// Timings, run only when TRANSVID_BENCH is set (build with
/// `swift build -c release --build-tests -Xswiftc -enable-testing`).
@Suite struct Benchmarks {
  static var enabled: Bool { getenv("TRANSVID_BENCH") != nil }

  static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
  }

  /// Best of `n` runs, in milliseconds.
  static func time(_ n: Int = 15, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<n {
      let t = now()
      body()
      best = min(best, now() - t)
    }
    return best * 1000
  }

  static func circleSpread(_ a: Bitmap, _ b: Bitmap, radius: Double) -> Layer {
    var root = Layer(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    var from = Layer(frame: root.bounds)
    from.contents = a
    from.contentsScale = 3
    var to = from
    to.contents = b
    var mask = Layer(frame: root.bounds)
    mask.path = Path(circleCenter: Point(x: 195, y: 422), radius: radius)
    mask.fillColor = .black
    to.mask = mask
    root.sublayers = [from, to]
    return root
  }

  @Test(.enabled(if: Benchmarks.enabled, "timings: set TRANSVID_BENCH=1"))
  func circleSpreadFrame() {
    let a = Bitmap(width: 1170, height: 2532, fill: Pixel(r: 10, g: 20, b: 30, a: 255))
    let b = Bitmap(width: 1170, height: 2532, fill: Pixel(r: 200, g: 100, b: 50, a: 255))
    var out = Bitmap(width: 1170, height: 2532)
    var c = out
    let only = getenv("TRANSVID_BENCH_R").map { Double(atof($0)) }
    let floor = Benchmarks.time(only == nil ? 15 : 100) {
      // Memory floor: one pass reading two frames and writing one (out = a | b, 8 bytes at a time).
      out.bytes.withUnsafeMutableBytes { o in
        a.bytes.withUnsafeBytes { pa in
          b.bytes.withUnsafeBytes { pb in
            let po = o.bindMemory(to: UInt64.self), qa = pa.bindMemory(to: UInt64.self)
            let qb = pb.bindMemory(to: UInt64.self)
            for i in 0..<po.count { po[i] = qa[i] | qb[i] }
          }
        }
      }
    }
    print("memory floor (out = a | b, one pass): \(floor) ms")
    for threads in only == nil ? [1, 2] : [1] {
      for r in only.map({ [$0] }) ?? [0.0, 200.0, 460.0, 1000.0] {
        let layer = Benchmarks.circleSpread(a, b, radius: r)
        let comp = Compositor(scale: 3, threadCount: threads)
        let ms = Benchmarks.time(only == nil ? 15 : 200) { comp.render(layer, into: &c) }
        print("circle-spread 1170×2532 r=\(r) threads=\(threads): \(ms) ms")
      }
    }
    _ = c
  }

  @Test(.enabled(if: Benchmarks.enabled, "timings: set TRANSVID_BENCH=1"))
  func otherFrames() {
    let a = Bitmap(width: 1170, height: 2532, fill: Pixel(r: 10, g: 20, b: 30, a: 255))
    let b = Bitmap(width: 1170, height: 2532, fill: Pixel(r: 200, g: 100, b: 50, a: 255))
    var out = Bitmap(width: 1170, height: 2532)
    // Page flip: the new screen flat, the old one rotated −45° about its left edge under m34.
    var root = Layer(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    var t = Transform3D.identity
    t.m34 = -0.002
    root.sublayerTransform = t
    var under = Layer(frame: root.bounds)
    under.contents = b
    under.contentsScale = 3
    var page = Layer(frame: root.bounds)
    page.contents = a
    page.contentsScale = 3
    page.anchorPoint = Point(x: 0, y: 0.5)
    page.position = Point(x: 0, y: 422)
    page.transform = .rotation(y: -.pi / 4)
    root.sublayers = [under, page]
    let comp = Compositor(scale: 3)
    print("page-flip frame: \(Benchmarks.time(10) { comp.render(root, into: &out) }) ms")
    // Crossfade: two snapshots, the top at opacity 0.5.
    var top = under
    top.contents = a
    top.opacity = 0.5
    root.sublayerTransform = .identity
    root.sublayers = [under, top]
    if getenv("TRANSVID_BENCH_PAGE") != nil { return }
    print("crossfade frame: \(Benchmarks.time(10) { comp.render(root, into: &out) }) ms")
    // A sheet: 390×600 pt card, corner radius 10, shadow radius 2 opacity 0.5, over a snapshot.
    var card = Layer(frame: Rect(x: 0, y: 244, width: 390, height: 600))
    card.backgroundColor = .white
    card.cornerRadius = 10
    card.shadowOpacity = 0.5
    card.shadowRadius = 2
    root.sublayers = [under, card]
    print("sheet frame (shadowed card): \(Benchmarks.time(5) { comp.render(root, into: &out) }) ms")
  }
}
