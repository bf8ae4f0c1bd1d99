// Right-to-left locales mirror: the layout (a view at x is drawn at
// W − x − width unless `mirror: false`), UIKit's navigation push and pop
// (drawn as the left-to-right step, flipped), not the seeds' transitions
// unless `mirror: true`. With screens of shapes only, the Arabic frame of a
// mirrored step is exactly the English frame mirrored.

import Foundation
import Geometry
import Jobs
import Raster
import Rendering
import Testing
import TransvidCLI

@Suite struct MirroringTests {
  static func job(step: String, extraView: String = "") -> String {
    """
    canvas: { size: 60x40, scale: 1, fps: 10, background: "#000000" }
    locales: [en, ar]
    screens:
      a:
        background: "#FFFFFF"
        views:
          - { id: box, frame: [4, 4, 20, 10], color: "#FF0000" }
          - { frame: [30, 20, 26, 8], color: "#0000FF", corner: 3 }\(extraView)
      b:
        background: "#E0E0E0"
        views:
          - { id: hero, frame: [10, 10, 14, 20], color: "#00AA00" }
    timeline:
      - hold: 0.1
      - \(step)
      - hold: 0.1
    """
  }

  static func frames(_ text: String) throws -> (en: [Bitmap], ar: [Bitmap], specs: [JobSpec]) {
    let specs = try JobParser.parse(text, file: "m.cfg").localizedJobs()
    let renderers = specs.map { FrameRenderer(spec: $0) }
    func all(_ r: FrameRenderer) -> [Bitmap] { (0..<r.frameCount).map { r.frame($0, width: 60, height: 40) } }
    return (all(renderers[0]), all(renderers[1]), specs)
  }

  @Test func navigationPushIsTheMirrorImage() throws {
    let (en, ar, specs) = try Self.frames(Self.job(step: "push: { to: b, transition: push, duration: 0.5 }"))
    #expect(specs[1].screens[0].views[0].frame == Rect(x: 36, y: 4, width: 20, height: 10))
    #expect(en.count == ar.count && en.count > 4)
    for n in en.indices { #expect(ar[n] == en[n].mirroredHorizontally(), "frame \(n)") }
    // Mid-push the new screen (grey) has come in from the left in Arabic, from the right in English.
    let mid = en.count / 2
    #expect(ar[mid][1, 38].r == 224 && en[mid][1, 38].r != 224)
    #expect(en[mid][58, 38].r == 224 && ar[mid][58, 38].r != 224)
  }

  @Test func seedsKeepTheirGeometryUnlessAsked() throws {
    let step = "push: { to: b, transition: circle-spread, duration: 0.5 }"
    let (en, ar, _) = try Self.frames(Self.job(step: step))
    let mid = en.count / 2
    // The screens mirror, the circle still grows from the top-left corner.
    #expect(ar[mid] != en[mid].mirroredHorizontally())
    #expect(ar[mid][0, 0] == en[mid][0, 0])
    // Asked, the Arabic step is the English one (as written, unmirrored) mirrored.
    let asked = try Self.frames(Self.job(step: "push: { to: b, transition: circle-spread, duration: 0.5, mirror: true }"))
    for n in en.indices { #expect(asked.ar[n] == en[n].mirroredHorizontally(), "frame \(n)") }
  }

  /// `mirror: true` draws a step mirrored in a left-to-right layout too,
  /// the same with `locales: [en]` as without locales: it was dropped once
  /// the job had locales (corner-reveal grew from the top-left in English),
  /// and without locales a written tap and its touch were flipped with the
  /// frame, away from the view tapped (tap-spread's circle and touch at
  /// W − x). Now the reveal grows from the top-right corner, and the circle
  /// and the touch stay under the finger.
  @Test(arguments: ["", "locales: [en]"]) func mirrorTrueMirrorsInALeftToRightLayout(locales: String) throws {
    func renderer(_ step: String) throws -> FrameRenderer {
      let text = """
        canvas: { size: 200x400, scale: 1, fps: 10, background: "#000000" }
        \(locales)
        screens:
          a: { background: "#FF0000" }
          b: { background: "#0000FF" }
        timeline:
          - hold: 0.1
          - push: { to: b, \(step) }
          - hold: 0.1
        """
      return FrameRenderer(spec: try JobParser.parse(text, file: "m.cfg").localizedJobs()[0])
    }
    // 0.1 s into the reveal: an oval of radius 120 about (150, 50), mirrored from (50, 50).
    let reveal = try renderer("transition: corner-reveal, duration: 0.5, mirror: true").frame(2, width: 200, height: 400)
    #expect(reveal[199, 0] == Pixel(r: 0, g: 0, b: 255, a: 255) && reveal[0, 0] == Pixel(r: 255, g: 0, b: 0, a: 255))
    // 0.1 s into the spread: a circle of radius 37 about the tap, (20, 30).
    let tap = "transition: tap-spread, tap: [20, 30], mirror: true"
    let spread = try renderer(tap).frame(2, width: 200, height: 400)
    #expect(spread[20, 30] == Pixel(r: 0, g: 0, b: 255, a: 255) && spread[180, 30] == Pixel(r: 255, g: 0, b: 0, a: 255))
    // The touch indicator is where its frame differs from the frame without one: centred on the tap.
    let touched = try renderer(tap + ", touch: true").frame(2, width: 200, height: 400)
    var xs: [Int] = [], ys: [Int] = []
    for y in 0..<400 { for x in 0..<200 where touched[x, y] != spread[x, y] { xs.append(x); ys.append(y) } }
    #expect(!xs.isEmpty)
    #expect(abs(Double(xs.min()! + xs.max()! + 1) / 2 - 20) <= 1 && abs(Double(ys.min()! + ys.max()! + 1) / 2 - 30) <= 1, "\(xs.min() ?? -1)…\(xs.max() ?? -1)")
  }

  /// A seed's default written out (as `transvid list` prints it) is the
  /// default in every locale: corner-reveal's `origin: [0, 0, 100, 100]`
  /// grows from the top-left with the seed's radius in Arabic too (it went
  /// to the top-right, growing to the farthest corner), and the circles'
  /// zero rect stays at the top-left; with `mirror: true` too. A `touch:
  /// true` on it stays on it.
  @Test(arguments: [
    ("corner-reveal", "origin: [0, 0, 100, 100]"), ("circle-spread", "origin: [0, 0, 0, 0]"),
    ("circle-present", "origin: [0, 0, 0, 0]"),
  ])
  func aDefaultWrittenOutIsTheDefault(transition: String, written: String) throws {
    func job(_ options: String) -> String {
      """
      canvas: { size: 200x400, scale: 1, fps: 10, background: "#000000" }
      locales: [en, ar]
      screens:
        a: { background: "#FF0000" }
        b: { background: "#0000FF" }
      timeline:
        - hold: 0.1
        - push: { to: b, transition: \(transition)\(options) }
        - hold: 0.1
      """
    }
    for mirror in ["", ", mirror: true"] {
      let specs = try JobParser.parse(job(mirror), file: "d.cfg").localizedJobs()
      let writtenSpecs = try JobParser.parse(job(", \(written)\(mirror)"), file: "d.cfg").localizedJobs()
      for (plain, given) in zip(specs, writtenSpecs) {
        let a = FrameRenderer(spec: plain), b = FrameRenderer(spec: given)
        let differing = (0..<a.frameCount).filter { a.frame($0, width: 200, height: 400) != b.frame($0, width: 200, height: 400) }
        #expect(differing.isEmpty, "\(transition)\(mirror) \(plain.locale ?? ""): frames \(differing) differ")
      }
    }
    // The touch on a written default stays on it: where the circle grows from.
    let touched = try JobParser.parse(job(", \(written), touch: true"), file: "d.cfg").localizedJobs()
    let origin = transition == "corner-reveal" ? Point(x: 50, y: 50) : Point(x: 0, y: 0)
    for spec in touched {
      guard case .transition(let step)? = spec.timeline.dropFirst().first else { continue }
      #expect(step.touch == origin, "\(spec.locale ?? ""): \(String(describing: step.touch))")
    }
  }

  @Test func viewsThatDoNotMirrorAndGestureDirections() throws {
    let text = Self.job(
      step: "push: { to: b, transition: push, gesture: { direction: trailing, distance: [0, 30, 50] } }",
      extraView: "\n      - { frame: [0, 30, 10, 10], color: \"#00FF00\", mirror: false }")
    let specs = try JobParser.parse(text, file: "m.cfg").localizedJobs()
    #expect(specs[1].screens[0].views[2].frame.origin.x == 0)
    #expect(specs[1].screens[0].views[1].frame.origin.x == 4)
    guard case .transition(let enStep) = specs[0].timeline[1], case .transition(let arStep) = specs[1].timeline[1] else {
      Issue.record("no step")
      return
    }
    // trailing = right in English; the Arabic step is drawn mirrored, so its
    // left-to-right self moves right too, and the drawn finger moves left.
    #expect(enStep.gesture?.travel?.width == 60)
    #expect(arStep.gesture?.travel?.width == 60)
    #expect(enStep.mirror == false && arStep.mirror == true)
    let physical = try JobParser.parse(
      Self.job(step: "push: { to: b, transition: push, gesture: { direction: left, distance: [0, 30, 50] } }"), file: "m.cfg"
    ).localizedJobs()
    guard case .transition(let arLeft) = physical[1].timeline[1] else {
      Issue.record("no step")
      return
    }
    // `left` mirrors with the mirrored step, as its touch does: written for
    // English, it drags to the right in Arabic (its left-to-right self keeps
    // left), so the finger moves with the page, not against it.
    #expect(arLeft.gesture?.travel?.width == -60)
    // A step that is not mirrored keeps `left` as it is, and turns `trailing` to the left on screen.
    let unmirrored = try JobParser.parse(
      Self.job(step: "push: { to: b, transition: circle-spread, gesture: { direction: left, distance: [0, 30, 50] } }"), file: "m.cfg"
    ).localizedJobs()
    let unmirroredTrailing = try JobParser.parse(
      Self.job(step: "push: { to: b, transition: circle-spread, gesture: { direction: trailing, distance: [0, 30, 50] } }"), file: "m.cfg"
    ).localizedJobs()
    guard case .transition(let arCircle) = unmirrored[1].timeline[1], case .transition(let arTrailing) = unmirroredTrailing[1].timeline[1] else {
      Issue.record("no step")
      return
    }
    #expect(arCircle.mirror == false && arCircle.gesture?.travel?.width == -60)
    #expect(arTrailing.gesture?.travel?.width == -60)
  }
}
