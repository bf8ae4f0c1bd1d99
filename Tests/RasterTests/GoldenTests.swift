import Foundation
import Geometry
import Testing
@testable import Raster
import TestSupport

/// Scenes matched against goldens drawn by independent renderers —
/// skia-python (perspective, shadows, gradient) and pycairo (circle mask) —
/// by `Goldens/make_goldens.py`, at PSNR ≥ 40 dB: not exact, because each
/// renderer anti-aliases edges and rounds blurs its own way (a 1-level
/// difference on edge pixels is not an error). The script describes each
/// scene from the same CALayer parameters as here; shadows use σ =
/// shadowRadius × scale (UIKit's shadowRadius → Gaussian), skia's blur sigma.
@Suite struct GoldenTests {
  static let size = 200.0

  /// `<name>.rgba`: "TVG1", width, height (u32 LE), premultiplied RGBA8.
  static func golden(_ name: String) throws -> Bitmap {
    let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    let data = try Data(contentsOf: dir.appendingPathComponent(name + ".rgba"))
    let bytes = [UInt8](data)
    try #require(bytes.count > 12 && bytes[0..<4] == [84, 86, 71, 49])
    func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
    return try #require(Bitmap(width: u32(4), height: u32(8), bytes: Array(bytes[12...])))
  }

  /// PSNR over all four channels, in dB.
  static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double { TestSupport.psnr(a, b, alpha: true) }

  /// The goldens' test image: 10-px checks of two colours, green ramping with x, opaque.
  static func checker(width w: Int, height h: Int) -> Bitmap {
    var b = Bitmap(width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        let on = ((x / 10) + (y / 10)) % 2 == 1
        b[x, y] = Pixel(r: on ? 230 : 40, g: UInt8(x * 255 / (w - 1)), b: on ? 60 : 200, a: 255)
      }
    }
    b.updateOpacityHint()
    return b
  }

  static func canvas(_ color: Color) -> Layer {
    var root = Layer(frame: Rect(x: 0, y: 0, width: size, height: size))
    root.backgroundColor = color
    return root
  }

  static func render(_ root: Layer, kernels: KernelSet = .simd) -> Bitmap {
    var bmp = Bitmap(width: Int(size), height: Int(size))
    Compositor(scale: 1, kernels: kernels).render(root, into: &bmp)
    return bmp
  }

  static func check(_ name: String, _ root: Layer) throws {
    let expected = try golden(name)
    for set in [KernelSet.simd, .reference] {
      let got = render(root, kernels: set)
      let p = psnr(got, expected)
      #expect(p >= 40, "\(name) (\(set)): PSNR \(p) dB")
      if VisualDump.enabled {
        dumpPAM(got, "/tmp/transvid-golden-\(name)-got.pam")
        dumpPAM(expected, "/tmp/transvid-golden-\(name)-expected.pam")
      }
    }
  }

  @Test func perspective() throws {
    var root = GoldenTests.canvas(Color(red: 0.9, green: 0.9, blue: 0.92))
    var t = Transform3D.identity
    t.m34 = -1.0 / 300
    root.sublayerTransform = t
    var page = Layer(frame: Rect(x: 0, y: 0, width: 160, height: 120))
    page.anchorPoint = Point(x: 0, y: 0.5)
    page.position = Point(x: 20, y: 100)
    page.transform = .rotation(y: -50 * .pi / 180)
    page.contents = GoldenTests.checker(width: 160, height: 120)
    root.sublayers = [page]
    try GoldenTests.check("perspective", root)
  }

  @Test func circleMask() throws {
    var root = GoldenTests.canvas(Color(red8: 60, green8: 80, blue8: 100))
    var layer = Layer(frame: root.bounds)
    layer.backgroundColor = Color(red8: 240, green8: 150, blue8: 40)
    var mask = Layer(frame: root.bounds)
    mask.path = Path(circleCenter: Point(x: 97.3, y: 104.6), radius: 61.7)
    mask.fillColor = .black
    layer.mask = mask
    root.sublayers = [layer]
    try GoldenTests.check("circle_mask", root)
  }

  /// The analytic (separable erf) shadow of a rounded box.
  @Test func shadowRoundedRect() throws {
    var root = GoldenTests.canvas(.white)
    var card = Layer(frame: Rect(x: 50, y: 60, width: 90, height: 70))
    card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
    card.cornerRadius = 14
    card.shadowOpacity = 0.8
    card.shadowRadius = 6
    card.shadowOffset = Size(width: 4, height: 7)
    root.sublayers = [card]
    try GoldenTests.check("shadow_rounded_rect", root)
  }

  /// The general shadow: an oval shape layer's rendered alpha, blurred.
  @Test func shadowOval() throws {
    var root = GoldenTests.canvas(Color(red: 0.93, green: 0.93, blue: 0.93))
    var shape = Layer(frame: root.bounds)
    shape.path = Path(ovalIn: Rect(x: 30, y: 40, width: 120, height: 90))
    shape.fillColor = Color(red: 0.1, green: 0.7, blue: 0.3)
    shape.shadowOpacity = 1
    shape.shadowRadius = 5
    shape.shadowOffset = Size(width: -6, height: 5)
    root.sublayers = [shape]
    try GoldenTests.check("shadow_oval", root)
  }

  @Test func gradient() throws {
    var root = GoldenTests.canvas(.white)
    var g = Layer(frame: root.bounds)
    g.gradient = Gradient(
      colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1), Color(red: 1, green: 1, blue: 0)],
      locations: [0, 0.3, 1], startPoint: Point(x: 0.1, y: 0.2), endPoint: Point(x: 0.9, y: 0.7))
    root.sublayers = [g]
    try GoldenTests.check("gradient", root)
  }
}
