import Jobs
import Raster
import Rendering
import Testing

/// Gesture and touch steps as drawn: a cancelled pop ends on the screen it
/// started from and a finished one on the screen below, neither screen shows
/// alone mid-gesture, and a touch draws its disc over the frame.
@Suite struct StepRenderingTests {
  static func job(push: String = "", pop: String = "{}") -> String {
    """
    name: g
    canvas: { size: 40x60, scale: 1, fps: 30 }
    screens:
      list: { background: "#FFFFFF" }
      detail: { background: "#FF0000" }
    timeline:
      - push: { to: detail, transition: circle-spread\(push) }
      - pop: \(pop)
      - hold: 0.2
    """
  }

  /// On a canvas of fractional points (40.5 × 60 at 1x: 41 × 60 pixels)
  /// a transition draws the screens as the still frames show them, a pixel
  /// for a pixel: a cross-dissolve's first frame (the old screen at full
  /// opacity, the new at none) is the hold before it, and a cover's still
  /// screen, above the one sliding up, is the hold's rows. The 41-pixel
  /// snapshot was stretched over 40.5 points, so every frame of the step
  /// blurred the screens' edges (a view's edge at x 10 read 252, 3, 0
  /// between pure red and green).
  @Test(arguments: ["cross-dissolve", "cover-vertical"]) func aCanvasOfFractionalPointsIsNotResampled(transition: String) throws {
    let job = """
      name: f
      canvas: { size: 40.5x60, scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#FF0000", views: [ { frame: [10, 10, 20, 20], color: "#00FF00" } ] }
        b: { background: "#0000FF" }
      timeline:
        - hold: 0.1
        - present: { to: b, transition: \(transition), duration: 0.3, curve: linear }
        - hold: 0.1
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "f.cfg"))
    let hold = renderer.frame(2, width: 41, height: 60)
    #expect(hold == renderer.snapshot(of: "a"))
    // The step's first frame; for the cover, its next, b's top at 60 · 8/9 = 53.3.
    let first = renderer.frame(transition == "cross-dissolve" ? 3 : 4, width: 41, height: 60)
    let rows = transition == "cross-dissolve" ? 60 : 53
    let same = (0..<rows).allSatisfy { y in (0..<41).allSatisfy { first[$0, y] == hold[$0, y] } }
    #expect(same, "\((8..<12).map { first[$0, 20] })")
  }

  @Test func cancelledPopEndsOnTheScreenItStartedFrom() throws {
    let renderer = FrameRenderer(
      spec: try JobParser.parse(Self.job(pop: "{ gesture: { progress: [0, 0.2, 0.35] } }"), file: "g.cfg"))
    let last = renderer.frame(renderer.frameCount - 1, width: 40, height: 60)
    #expect(last == renderer.snapshot(of: "detail"))
    // Mid-gesture (tracking 2 × 1/6 s after the 0.7 s push) the pop is under way.
    let tracking = renderer.frame(Int((0.7 + 2.0 / 6) * 30) - 1, width: 40, height: 60)
    #expect(tracking != renderer.snapshot(of: "detail") && tracking != renderer.snapshot(of: "list"))
  }

  /// A step of no duration is a cut (README: a step's duration is 0…60 s):
  /// the screen after it shows from its first frame, with a delay after the
  /// delay, and a pop of no duration goes back. The new screen never showed
  /// (an animation of no length was always at its start).
  @Test(arguments: ["push", "cross-dissolve", "circle-spread", "cover-vertical", "page-flip"])
  func aStepOfNoDurationIsACut(transition: String) throws {
    let job = Self.job(push: "", pop: "{ duration: 0, delay: 0 }").replacingOccurrences(
      of: "transition: circle-spread", with: "transition: \(transition), duration: 0, delay: 0.1")
      .replacingOccurrences(of: "  - pop: {", with: "  - hold: 0.2\n  - pop: {")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "g.cfg"))
    #expect(renderer.frameCount == 15)
    // 0.1 s delay (frames 0–2) on the list, the hold (frames 3–8) on the detail, the pop's cut back to the list.
    let (list, detail) = (renderer.snapshot(of: "list"), renderer.snapshot(of: "detail"))
    let shows = (0..<renderer.frameCount).map { n -> String in
      let frame = renderer.frame(n, width: 40, height: 60)
      return frame == list ? "L" : frame == detail ? "D" : "?"
    }
    #expect(shows.joined() == "LLLDDDDDDLLLLLL", "\(transition)")
  }

  /// Frame n shows the state at n / fps, and at an animation's begin time
  /// (its delay) Core Animation shows every property at its start value
  /// with the transition's layers in place: a reveal's first oval shows the
  /// new screen (corner-reveal's 100 × 100 at the top left, tap-spread's
  /// 30 × 30 dot, circle-present's button), zoom-expand's backdrop covers
  /// the old screen. During the delay, the old screen alone.
  @Test(arguments: [
    ("corner-reveal", "", 50, 50), ("tap-spread", ", tap: [60, 120]", 60, 120),
    ("circle-present", ", origin: [40, 300, 60, 40]", 70, 320),
  ])
  func aRevealShowsItsFirstOvalAtItsBeginTime(transition: String, options: String, x: Int, y: Int) throws {
    for delay in [0, 0.2] {
      let job = Self.redThenBlue("push: { to: b, transition: \(transition), delay: \(delay)\(options) }")
      let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "r.cfg"))
      let begin = 5 + Int(delay * 10)
      let before = renderer.frame(begin - 1, width: 200, height: 400), at = renderer.frame(begin, width: 200, height: 400)
      #expect(before == renderer.snapshot(of: "a"), "\(transition) delay \(delay): the old screen before")
      #expect(at[x, y] == Pixel(r: 0, g: 0, b: 255, a: 255), "\(transition) delay \(delay): \(at[x, y]) at (\(x), \(y))")
      #expect(at[150, 350] == Pixel(r: 255, g: 0, b: 0, a: 255), "\(transition): the old screen around it")
    }
  }

  /// A 200 × 400 job at 10 fps: red screen `a` held 0.5 s (frames 0–4), then `step` to blue screen `b`.
  static func redThenBlue(_ step: String) -> String {
    """
    name: r
    canvas: { size: 200x400, scale: 1, fps: 10 }
    screens:
      a: { background: "#FF0000" }
      b: { background: "#0000FF" }
    timeline:
      - hold: 0.5
      - \(step)
    """
  }

  @Test func zoomExpandsBackdropIsUpAtItsBeginTime() throws {
    let job = """
      name: z
      canvas: { size: 200x400, scale: 1, fps: 10 }
      screens:
        a:
          background: "#FFFF00"
          views: [{ id: btn, frame: [20, 300, 60, 40], color: "#FF0000" }]
        b:
          background: "#0000FF"
          views: [{ id: hdr, frame: [50, 100, 100, 60], color: "#FF0000" }]
      timeline:
        - hold: 0.5
        - push: { to: b, transition: zoom-expand, element: { from: btn, to: hdr } }
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "z.cfg"))
    let at = renderer.frame(5, width: 200, height: 400)
    // UIColor.lightGrayColor above the target's centre line, white below it; the control at its place.
    #expect(at[100, 20] == Pixel(r: 170, g: 170, b: 170, a: 255), "\(at[100, 20])")
    #expect(at[180, 380] == Pixel(r: 255, g: 255, b: 255, a: 255), "\(at[180, 380])")
    #expect(at[50, 320] == Pixel(r: 255, g: 0, b: 0, a: 255), "\(at[50, 320])")
  }

  /// Where the start value shows nothing of the new screen, the begin
  /// time's frame is the old screen's, byte for byte. (A navigation push's
  /// edge shadow is at full strength on the new screen's edge, at the right
  /// edge of the old one.)
  @Test(arguments: ["cover-vertical", "cross-dissolve", "circle-spread", "sheet", "elastic-present", "page-flip", "flip-horizontal", "partial-curl"])
  func aSlideShowsTheOldScreenAtItsBeginTime(transition: String) throws {
    let job = Self.redThenBlue("present: { to: b, transition: \(transition) }")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "s.cfg"))
    let at = renderer.frame(5, width: 200, height: 400), a = try #require(renderer.snapshot(of: "a"))
    let differing = (0..<400).flatMap { y in (0..<200).filter { at[$0, y] != a[$0, y] }.map { (x: $0, y: y) } }
    let first = differing.first.map { "(\($0.x), \($0.y)) \(at[$0.x, $0.y])" } ?? ""
    #expect(differing.isEmpty, "\(transition): \(differing.count) pixels differ, first \(first)")
  }

  @Test func finishedPopEndsOnTheScreenBelow() throws {
    let renderer = FrameRenderer(
      spec: try JobParser.parse(Self.job(pop: "{ gesture: { progress: [0, 0.3, 0.6] } }"), file: "g.cfg"))
    let last = renderer.frame(renderer.frameCount - 1, width: 40, height: 60)
    #expect(last == renderer.snapshot(of: "list"))
  }

  @Test func touchIsDrawnOverTheFrame() throws {
    let plain = FrameRenderer(spec: try JobParser.parse(Self.job(push: ", touch: [20, 40]"), file: "g.cfg"))
    let without = FrameRenderer(spec: try JobParser.parse(Self.job(push: ", origin: [0, 0, 0, 0]"), file: "g.cfg"))
    let a = plain.frame(1, width: 40, height: 60), b = without.frame(1, width: 40, height: 60)
    // Inside the disc the frame is darker; far from it, unchanged.
    #expect(a[20, 40].r < b[20, 40].r)
    #expect(a[2, 58] == b[2, 58])
  }

  /// A tap shows 0.2 s though its step is shorter (the timeline sweep: on
  /// a 0.1 s tap-spread it vanished with the step, after 3 frames of the 6
  /// at 30 fps): the hold after it, and a transition after it, still show
  /// the disc until the tap's 0.2 s are up, and the frames repeat only
  /// where neither the screen nor the disc changes.
  @Test func aTapOutlastsAShorterStep() throws {
    func job(_ steps: String) -> String {
      """
      name: tap
      canvas: { size: 200x400, scale: 1, fps: 30 }
      screens:
        a: { background: "#FF0000" }
        b: { background: "#0000FF" }
      timeline:
      \(steps)
      """
    }
    let tap = "  - push: { to: b, transition: tap-spread, tap: [100, 300], duration: 0.1, touch: true }\n"
    let held = FrameRenderer(spec: try JobParser.parse(job(tap + "  - hold: 0.5"), file: "t.cfg"))
    let blue = Pixel(r: 0, g: 0, b: 255, a: 255)
    // Frames 0–2 are the step's, 3–5 the hold's while the finger is down, 6 on: lifted.
    for n in 0..<6 {
      #expect(held.frame(n, width: 200, height: 400)[100, 300] != blue, "frame \(n)")
    }
    #expect(held.frame(6, width: 200, height: 400)[100, 300] == blue)
    #expect(held.frame(5, width: 200, height: 400)[10, 10] == blue)
    #expect(held.repeatsPreviousFrame(5) && !held.repeatsPreviousFrame(6))
    let popped = FrameRenderer(spec: try JobParser.parse(job(tap + "  - pop: { duration: 0.5, transition: cross-dissolve, curve: linear }"), file: "t.cfg"))
    let drawn = popped.frame(4, width: 200, height: 400)
    let bare = FrameRenderer(spec: try JobParser.parse(job(tap.replacingOccurrences(of: ", touch: true", with: "") + "  - pop: { duration: 0.5, transition: cross-dissolve, curve: linear }"), file: "t.cfg")).frame(4, width: 200, height: 400)
    #expect(drawn[100, 300] != bare[100, 300] && drawn[10, 10] == bare[10, 10])
  }

  /// An elastic sheet taller than the screen (its 500 pt on an iPhone held
  /// in landscape) is as tall as the screen: at rest it shows the whole new
  /// screen, its top bar at the top and nothing of the old screen below it.
  @Test func anElasticSheetTallerThanTheScreenCoversIt() throws {
    let job = """
      name: ep
      canvas: { size: 852x393, scale: 1, fps: 30 }
      screens:
        a: { background: "#FFFFFF", views: [ { frame: [0, 300, 852, 93], color: "#0000FF" } ] }
        b: { background: "#FF0000", views: [ { frame: [0, 0, 852, 44], color: "#00FF00" } ] }
      timeline:
        - hold: 0.1
        - present: { to: b, transition: elastic-present }
        - hold: 0.5
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "ep.cfg"))
    let rest = renderer.frame(renderer.frameCount - 1, width: 852, height: 393)
    #expect(rest[400, 10] == Pixel(r: 0, g: 255, b: 0, a: 255) && rest[400, 380] == Pixel(r: 255, g: 0, b: 0, a: 255))
    let covered = rest == renderer.snapshot(of: "b")
    #expect(covered, "the resting sheet does not show all of b")
  }

  /// A partial curl uncovers the new screen down to its highest view,
  /// whether or not the view has an id (UIKIT.md: H − max(40, its minY)).
  @Test func aPartialCurlUncoversTheHighestViewWithOrWithoutAnID() throws {
    let job = """
      name: c
      canvas: { size: 393x852, scale: 1, fps: 30 }
      screens:
        a: { background: "#FF0000" }
        b:
          background: "#0000FF"
          views:
            - { frame: [20, 300, 100, 50], color: "#00FF00" }
      timeline:
        - present: { to: b, transition: partial-curl }
        - hold: 0.5
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "c.cfg"))
    let rest = renderer.frame(renderer.frameCount - 1, width: 393, height: 852)
    // The view's lower half shows at rest (the fold tilts 10° across its top edge).
    #expect(rest[100, 340] == Pixel(r: 0, g: 255, b: 0, a: 255))
    // Above the reveal the old screen's red, curled, is no longer drawn; far above it, it is.
    #expect(rest[200, 100] == Pixel(r: 255, g: 0, b: 0, a: 255))
  }
}
