import Geometry
import Testing
@testable import Raster

/// Random layer trees exercising every feature: SIMD against the scalar
/// reference (±1 per channel), and thread-count determinism (exact).
@Suite struct RandomSceneTests {
  static func randomColor(_ r: inout SplitMix) -> Color {
    Color(red: r.unit(), green: r.unit(), blue: r.unit(), alpha: r.unit() < 0.5 ? 1 : r.unit())
  }

  static func randomLayer(_ r: inout SplitMix, depth: Int, images: [Bitmap]) -> Layer {
    var l = Layer(frame: Rect(x: r.unit() * 80 - 10, y: r.unit() * 60 - 10, width: 5 + r.unit() * 60, height: 5 + r.unit() * 50))
    switch r.next() % 6 {
    case 0: l.backgroundColor = randomColor(&r)
    case 1:
      l.contents = images[Int(r.next() % UInt64(images.count))]
      l.contentsGravity = ContentsGravity.allCases[Int(r.next() % 4)]
      l.contentsScale = [1, 2, 3][Int(r.next() % 3)]
    case 2:
      l.path = r.unit() < 0.5
        ? Path(ovalIn: Rect(x: 2, y: 3, width: 20 + r.unit() * 20, height: 20 + r.unit() * 20))
        : Path(elements: [
          .move(to: Point(x: 0, y: 0)), .line(to: Point(x: 40, y: 10)),
          .quadCurve(to: Point(x: 10, y: 40), control: Point(x: 50, y: 50)), .close,
        ])
      l.fillColor = randomColor(&r)
      l.fillRule = r.unit() < 0.5 ? .nonZero : .evenOdd
    case 3:
      l.gradient = Gradient(colors: [randomColor(&r), randomColor(&r), randomColor(&r)])
    default:
      l.backgroundColor = randomColor(&r)
      l.cornerRadius = r.unit() * 15
      l.borderWidth = r.unit() * 4
      l.borderColor = randomColor(&r)
    }
    if r.unit() < 0.3 { l.opacity = r.unit() }
    switch r.next() % 5 {
    case 0: l.transform = .rotation(z: r.unit() * 6)
    case 1: l.transform = .scale(x: 0.5 + r.unit(), y: 0.5 + r.unit())
    case 2:
      var t = Transform3D.rotation(y: r.unit() - 0.5)
      t.m34 = -0.004
      l.transform = t
    default: break
    }
    if r.unit() < 0.2 {
      var m = Layer(frame: Rect(x: 0, y: 0, width: l.bounds.width, height: l.bounds.height))
      m.path = Path(circleCenter: Point(x: l.bounds.width / 2, y: l.bounds.height / 2), radius: r.unit() * 30)
      m.fillColor = .black
      if r.unit() < 0.5 { m.opacity = 0.6 }
      l.mask = m
    }
    if r.unit() < 0.2 { l.masksToBounds = true }
    if r.unit() < 0.2 {
      l.shadowOpacity = r.unit()
      l.shadowRadius = r.unit() * 4
    }
    if depth > 0 {
      for _ in 0..<Int(r.next() % 3) { l.sublayers.append(randomLayer(&r, depth: depth - 1, images: images)) }
    }
    return l
  }

  static func scene(seed: UInt64) -> Layer {
    var r = SplitMix(seed: seed)
    let images = [
      noiseBitmap(width: 17, height: 23, seed: seed &+ 1),
      noiseBitmap(width: 40, height: 30, seed: seed &+ 2, opaque: false),
    ]
    var root = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 80))
    root.backgroundColor = r.unit() < 0.5 ? .white : nil
    for _ in 0..<5 { root.sublayers.append(randomLayer(&r, depth: 2, images: images)) }
    return root
  }

  @Test(arguments: Array(UInt64(1)...UInt64(12)))
  func simdMatchesReference(seed: UInt64) {
    let layer = RandomSceneTests.scene(seed: seed)
    for scale in seed <= 3 ? [1.0, 2.0] : [1.0] {
      let a = Compositor(scale: scale, threadCount: 1, kernels: .simd).snapshot(layer)
      let b = Compositor(scale: scale, threadCount: 1, kernels: .reference).snapshot(layer)
      #expect(maxDifference(a, b) <= 1, "seed \(seed) scale \(scale)")
    }
  }

  @Test(arguments: Array(UInt64(100)...UInt64(103)))
  func threadCountDeterminism(seed: UInt64) {
    let layer = RandomSceneTests.scene(seed: seed)
    let one = Compositor(scale: 2, threadCount: 1).snapshot(layer)
    for t in [2, 5] {
      #expect(Compositor(scale: 2, threadCount: t).snapshot(layer) == one, "seed \(seed) threads \(t)")
    }
  }

  @Test(.enabled(if: VisualDump.enabled, "writes PAM files for a look: set TRANSVID_DUMP=1"))
  func dumpRandomScene() {
    for seed: UInt64 in [3, 7, 11] {
      dumpPAM(Compositor(scale: 3).snapshot(RandomSceneTests.scene(seed: seed)), "/tmp/transvid-raster-random-\(seed).pam")
    }
  }
}
