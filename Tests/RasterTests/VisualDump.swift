#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Raster

/// Scenes for eyeballing: written to /tmp/transvid-raster-*.pam when
/// TRANSVID_DUMP is set (`ffmpeg -i x.pam x.png`).
@Suite struct VisualDump {
  static var enabled: Bool { getenv("TRANSVID_DUMP") != nil }

  static func sampler() -> Layer {
    var root = solidLayer(Rect(x: 0, y: 0, width: 200, height: 160), Color(red: 0.95, green: 0.95, blue: 0.97))
    var card = solidLayer(Rect(x: 10, y: 10, width: 80, height: 60), Color(red: 0.2, green: 0.5, blue: 0.9))
    card.cornerRadius = 12
    card.borderWidth = 3
    card.borderColor = Color(red: 0.1, green: 0.1, blue: 0.3)
    var img = Layer(frame: Rect(x: 100, y: 10, width: 90, height: 60))
    img.contents = noiseBitmap(width: 30, height: 20, seed: 9)
    img.cornerRadius = 10
    img.masksToBounds = true
    var circ = Layer(frame: Rect(x: 10, y: 80, width: 70, height: 70))
    circ.path = Path(ovalIn: Rect(x: 5, y: 5, width: 60, height: 60))
    circ.fillColor = Color(red: 0.9, green: 0.3, blue: 0.2, alpha: 0.8)
    var grad = Layer(frame: Rect(x: 100, y: 80, width: 90, height: 70))
    grad.gradient = Gradient(colors: [.white, Color(red: 0.3, green: 0.1, blue: 0.6)], startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1))
    grad.cornerRadius = 8
    grad.transform = .rotation(z: 0.2)
    root.sublayers = [card, img, circ, grad]
    return root
  }

  @Test(.enabled(if: VisualDump.enabled, "writes PAM files for a look: set TRANSVID_DUMP=1"))
  func dumpSampler() {
    for s in [1.0, 3.0] {
      let bmp = Compositor(scale: s).snapshot(VisualDump.sampler())
      dumpPAM(bmp, "/tmp/transvid-raster-sampler@\(Int(s))x.pam")
    }
  }

  @Test(.enabled(if: VisualDump.enabled, "writes PAM files for a look: set TRANSVID_DUMP=1"))
  func dumpPageFlip() {
    let snap = Compositor(scale: 1).snapshot(VisualDump.sampler())
    var (c, p) = PerspectiveTests.scene(theta: -50, m34: -0.002)
    c.backgroundColor = .black
    p.bounds = Rect(x: 0, y: 0, width: 390, height: 844)
    p.contents = snap
    p.contentsGravity = .resizeAspect
    p.backgroundColor = Color(red: 0.8, green: 0.8, blue: 0.8)
    c.sublayers = [p]
    let bmp = Compositor(scale: 1).snapshot(c)
    dumpPAM(bmp, "/tmp/transvid-raster-pageflip.pam")
  }
}
