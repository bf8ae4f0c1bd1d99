// UINavigationController's interactive pop tracks the finger linearly
// (UIKIT.md §1, "while finger-tracking: curve 3 (linear): every property is
// linear in p", p = translation.x / W): the popped screen's left edge is
// under the finger, not ahead of it along the system spring.

import Jobs
import Motion
import Raster
import Rendering
import Testing

@Suite struct InteractivePopTests {
  @Test func thePoppedScreensEdgeFollowsTheFinger() throws {
    let job = Self.redAndBlue(
      canvas: "size: 300x200, scale: 1, fps: 30, background: \"#000000\"",
      "push: { to: b, transition: push }",
      "hold: 0.1",
      "pop: { gesture: { direction: right, distance: [0, 60, 120, 180], interval: 0.2 } }",
      "hold: 0.1")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "g.cfg"))
    // The push ends at 0.5 s, the hold at 0.6 s; the finger then moves 300 pt/s for 0.6 s.
    for n in stride(from: 20, through: 36, by: 2) {
      let finger = 300 * (Double(n) / 30 - 0.6)
      let frame = renderer.frame(n, width: 300, height: 200)
      // The popped (blue) screen covers [edge, 300): its blue coverage along a row is 300 − edge.
      let blue = (0..<300).reduce(0.0) { $0 + Double(frame[$1, 100].b) / 255 }
      #expect(abs((300 - blue) - finger) < 0.6, "frame \(n): edge at \(300 - blue) pt, finger at \(finger) pt")
    }
    // An explicit curve on the step still wins: the spring runs ahead of the finger.
    let sprung = FrameRenderer(
      spec: try JobParser.parse(
        job.replacingOccurrences(of: "interval: 0.2 } }", with: "interval: 0.2 }, curve: spring }"), file: "g.cfg"))
    let frame = sprung.frame(24, width: 300, height: 200)
    let blue = (0..<300).reduce(0.0) { $0 + Double(frame[$1, 100].b) / 255 }
    #expect(300 - blue > 100)
  }

  /// A spring written as a mapping is the step's curve as `curve:` is
  /// (README: `spring: { damping: 0.7, velocity: 0 }`, "any of the forms'
  /// labels"), so it wins over the linear tracking of a back-swipe and of a
  /// sheet's drag too: the step was tracked linearly, the spring dropped.
  @Test(arguments: [
    (
      "size: 300x200, scale: 1, fps: 30",
      ["push: { to: b, transition: push }", "pop: { SPRING, gesture: { direction: right, distance: [0, 30, 60, 90], interval: 0.1, release: cancel } }"]
    ),
    (
      "size: 390x844, scale: 1, fps: 30",
      ["present: { to: b, transition: sheet }", "dismiss: { SPRING, gesture: { direction: down, distance: [0, 100, 200, 300], interval: 0.1, release: cancel } }"]
    ),
  ])
  func aSpringMappingWinsAsACurveDoes(canvas: String, steps: [String]) throws {
    func renderer(_ curve: String) throws -> FrameRenderer {
      let steps = steps.map { $0.replacingOccurrences(of: "SPRING", with: curve) }
      let job = Self.redAndBlue(canvas: canvas, steps[0], steps[1])
      return FrameRenderer(spec: try JobParser.parse(job, file: "g.cfg"))
    }
    let mapping = try renderer("spring: { damping: 0.5, velocity: 0 }")
    let written = try renderer("curve: \"spring(damping: 0.5, velocity: 0)\"")
    let linear = try renderer("curve: linear")
    // The first step ends at 0.5 s (frame 15); the finger tracks for 0.3 s.
    let (width, height) = canvas.hasPrefix("size: 300") ? (300, 200) : (390, 844)
    for n in 16...23 {
      let frame = mapping.frame(n, width: width, height: height)
      let sprung = frame == written.frame(n, width: width, height: height)
      let tracked = frame == linear.frame(n, width: width, height: height)
      #expect(sprung && !tracked, "frame \(n): the spring's \(sprung), the linear tracking's \(tracked)")
    }
  }

  /// A push on a `width`-point canvas, then a pop driven by `gesture`.
  static func swipeJob(width: Int, gesture: String) -> String {
    redAndBlue(canvas: "size: \(width)x200, scale: 1, fps: 30", "push: { to: b, transition: push }", "pop: { gesture: { \(gesture) } }")
  }

  /// A job named g of a red screen a and a blue screen b on the canvas
  /// `canvas` (the mapping's contents), its timeline `steps`.
  static func redAndBlue(canvas: String, _ steps: String...) -> String {
    """
    name: g
    canvas: { \(canvas) }
    screens:
      a: { background: "#FF0000" }
      b: { background: "#0000FF" }
    timeline:

    """ + steps.map { "  - \($0)\n" }.joined()
  }

  /// A renderer of red screen a, then blue screen b presented over it by
  /// `cover-vertical` (linear, `duration` seconds) under the gesture
  /// `gesture` (the mapping's contents), on a 100×200 canvas at 60 fps,
  /// between holds of 0.1 s.
  static func coverPresent(duration: Double, gesture: String) throws -> FrameRenderer {
    let job = redAndBlue(
      canvas: "size: 100x200, scale: 1, fps: 60",
      "hold: 0.1",
      "present: { to: b, transition: cover-vertical, duration: \(duration), curve: linear, gesture: { \(gesture) } }",
      "hold: 0.1")
    return FrameRenderer(spec: try JobParser.parse(job, file: "g.cfg"))
  }

  /// Where the blue cover's top edge is in frame `n` of `renderer`'s
  /// 100×200 canvas: the cover covers [top, 200) of column 50, so its blue
  /// summed down the column is 200 − top.
  static func coverTop(_ renderer: FrameRenderer, frame n: Int) -> Double {
    let frame = renderer.frame(n, width: 100, height: 200)
    return 200 - (0..<200).reduce(0.0) { $0 + Double(frame[50, $1].b) / 255 }
  }

  /// A finger at rest given by three samples: UIKit's rule by position
  /// takes three velocities, so with two it goes by the speed alone and
  /// cancels; the note says so (it named the position rule).
  @Test func aShortSwipeAtRestIsCancelledByItsSpeedAndSaysSo() throws {
    let spec = try JobParser.parse(Self.swipeJob(width: 200, gesture: "direction: right, distance: [150, 150, 150]"), file: "g.cfg")
    let note = try #require(spec.notes.first { $0.message.contains("UINavigationController cancels the pop") })
    #expect(note.message.contains("with fewer than four samples UIKit goes by the finger's speed alone, and it is not moving on"), "\(note)")
  }

  /// A swipe of fewer than four samples goes by its mean speed alone
  /// (README: "forward, it finishes however short it is"): 5 pt, or 40 pt in
  /// three samples, finishes the pop, where the same finger given a fourth
  /// sample is judged by position and speed and cancels; one whose mean
  /// speed is back cancels.
  @Test(arguments: [
    ("[0, 5]", true),
    ("[0, 20, 40]", true),
    ("[0, 20, 40, 60]", false),
    ("[30, 40, 20]", false),
  ])
  func aShortSwipeGoesByItsSpeedAlone(distances: String, finishes: Bool) throws {
    let spec = try JobParser.parse(Self.swipeJob(width: 390, gesture: "direction: right, distance: \(distances)"), file: "g.cfg")
    guard case .transition(let pop) = spec.timeline[1] else {
      Issue.record("no pop")
      return
    }
    #expect(pop.isCancelled == !finishes, "\(distances)")
    // The last frame shows the screen the pop ends on: the first (red) when it finishes.
    let renderer = FrameRenderer(spec: spec)
    let last = renderer.frame(renderer.frameCount - 1, width: 390, height: 200)
    #expect((last[200, 100].r == 255) == finishes, "\(distances): \(last[200, 100])")
  }

  /// A finger moving across or against what it drags is said: a back-swipe
  /// moves the page right (trailing), a sheet down when dismissed.
  @Test func aGestureAgainstItsPageIsNoted() throws {
    let up = try JobParser.parse(Self.swipeJob(width: 200, gesture: "direction: up, distance: [0, 50, 100]"), file: "g.cfg")
    #expect(up.notes.map(\.message).contains(
      "timeline[1].pop: its gesture moves the finger up, but 'push' moves the screen it takes away right (trailing): "
        + "the finger is drawn moving against it; give direction: trailing"), "\(up.notes)")
    let along = try JobParser.parse(Self.swipeJob(width: 200, gesture: "direction: trailing, distance: [0, 50, 100]"), file: "g.cfg")
    #expect(!along.notes.contains { $0.message.contains("against it") })
  }

  /// In a right-to-left locale the note names the directions its job
  /// draws: an Arabic pop is mirrored, so a swipe written `left` is drawn
  /// moving right while the page goes left; an unmirrored pop there turns
  /// `trailing` to the left, against its page, and `leading` with it. The
  /// left-to-right job's note was given to every locale, naming its
  /// directions and missing the unmirrored step's (the locales sweep).
  @Test func aGestureAgainstItsPageIsNotedAsEachLocaleDrawsIt() throws {
    func notes(_ pop: String) throws -> [String: [String]] {
      let job = Self.redAndBlue(canvas: "size: 200x200, scale: 1, fps: 30", "push: { to: b, transition: push }", pop)
        .replacingOccurrences(of: "screens:", with: "locales: [en, ar]\nscreens:")
      let jobs = try JobParser.parse(job, file: "g.cfg").localizedJobs()
      return Dictionary(uniqueKeysWithValues: jobs.map { ($0.locale!, $0.notes.map(\.message).filter { $0.contains("against it") }) })
    }
    let left = try notes("pop: { gesture: { direction: left, distance: [0, 60, 120], release: finish } }")
    #expect(left["en"] == [
      "timeline[1].pop: its gesture moves the finger left, but 'push' moves the screen it takes away right (trailing): "
        + "the finger is drawn moving against it; give direction: trailing"])
    #expect(left["ar"] == [
      "timeline[1].pop: its gesture moves the finger right, but 'push' moves the screen it takes away left (trailing): "
        + "the finger is drawn moving against it; give direction: trailing"])
    let trailing = try notes("pop: { mirror: false, gesture: { direction: trailing, distance: [0, 60, 120], release: finish } }")
    #expect(trailing["en"] == [])
    #expect(trailing["ar"] == [
      "timeline[1].pop: its gesture moves the finger left, but 'push' moves the screen it takes away right (leading): "
        + "the finger is drawn moving against it; give direction: leading"])
    let leading = try notes("pop: { mirror: false, gesture: { direction: leading, distance: [0, 60, 120], release: finish } }")
    #expect(leading["ar"] == [])
    #expect(leading["en"]?.count == 1)
  }

  /// A card that rises from the bottom, a cover or an elastic sheet as a
  /// sheet does, is dragged down to dismiss: a finger drawn moving left or
  /// up is said; one moving down is not.
  @Test(arguments: ["cover-vertical", "elastic-present", "sheet"])
  func aCardDraggedAcrossIsNoted(transition: String) throws {
    func notes(_ direction: String) throws -> [String] {
      let job = Self.redAndBlue(
        canvas: "size: 200x400, scale: 1, fps: 30",
        "present: { to: b, transition: \(transition) }",
        "dismiss: { gesture: { direction: \(direction), distance: [0, 60, 120, 180], release: finish } }")
      return try JobParser.parse(job, file: "g.cfg").notes.map(\.message)
    }
    let left = try notes("left"), up = try notes("up"), down = try notes("down")
    #expect(left.contains(
      "timeline[1].dismiss: its gesture moves the finger left, but '\(transition)' moves the screen it takes away down: "
        + "the finger is drawn moving against it; give direction: down"), "\(left)")
    #expect(up.contains { $0.contains("moves the finger up, but '\(transition)'") }, "\(up)")
    #expect(!down.contains { $0.contains("against it") }, "\(down)")
  }

  /// Without `release:` or `completionSpeed:`, UINavigationController ends
  /// the swipe by its own rules (UIKIT.md §1): a flick let go at p = 0.3
  /// moving 1 width a second finishes (0.3 + 1 × 0.5 > 0.5), a finger that
  /// stops there cancels (with a note); the rest plays at the finger's speed,
  /// min(D, r / |v|): 0.4 s for the last 0.4 of the width at 1 width a second.
  @Test(arguments: [
    // distance samples (of 300 pt, 0.2 s apart), finishes, completion seconds
    ("[0, 30, 60, 90]", true, 0.5),  // p 0.3, v 0.5 W/s: 0.3 + 0.25 > 0.5; r 0.7 ⇒ min(0.5, 1.4)
    ("[0, 60, 120, 180]", true, 0.4),  // p 0.6, v 1 W/s: r 0.4 ⇒ 0.4 s
    ("[0, 30, 60, 90, 90, 90, 90]", false, 0.5),  // stopped at p 0.3: cancels; min(D, r / 0) = D
    // Slowing as it lifts: p 0.9 moving 0.1 W/s (the mean of the last three
    // speeds, 0.83 W/s, only decides): r 0.1 ⇒ min(0.5, 1) = 0.5 s, not 0.12 s.
    ("[0, 120, 240, 264, 270]", true, 0.5),
  ])
  func theSwipeEndsByUINavigationControllersRules(distances: String, finishes: Bool, completion: Double) throws {
    let job = Self.swipeJob(width: 300, gesture: "direction: right, distance: \(distances), interval: 0.2")
    let spec = try JobParser.parse(job, file: "g.cfg")
    guard case .transition(let pop) = spec.timeline[1], let gesture = pop.gesture else {
      Issue.record("no pop")
      return
    }
    #expect(pop.isCancelled == !finishes)
    let track = gesture.track(duration: 0.5)
    #expect(abs(track.remainingDuration - completion) < 1e-9, "\(track.remainingDuration)")
    // The video lasts the push, the finger and the rest.
    #expect(Timeline(spec: spec).frameCount == Int(((0.5 + track.trackingDuration + completion) * 30).rounded()))
    #expect(spec.notes.contains { $0.message.contains("UINavigationController cancels the pop") } == !finishes)
    // What the gesture says wins.
    let written = try JobParser.parse(
      job.replacingOccurrences(of: "interval: 0.2 }", with: "interval: 0.2, release: cancel, completionSpeed: 1 }"),
      file: "g.cfg")
    guard case .transition(let kept) = written.timeline[1] else {
      Issue.record("no pop with the gesture's own release")
      return
    }
    #expect(kept.isCancelled && kept.gesture?.completionSpeed == 1)
  }

  /// After the finger lets go, a one-curve step's value goes from its value
  /// at release to the end along the completion curve (TIMING.md §5:
  /// v_now + (v_end − v_now)·C(τ/T_rem)), finishing and cancelling; the
  /// step's clock is where its curve shows that value.
  @Test(arguments: ["finish", "cancel"])
  func theCompletionMovesTheValue(release: String) throws {
    let job = Self.redAndBlue(
      canvas: "size: 100x200, scale: 1, fps: 50",
      "hold: 0.1",
      "present: { to: b, transition: cover-vertical, duration: 0.6, curve: easeIn, gesture: { progress: [0, 0.2, 0.4], interval: 0.1, release: \(release) } }")
    let spec = try JobParser.parse(job, file: "g.cfg")
    let timeline = Timeline(spec: spec)
    let segment = timeline.segments[1]
    let track = try #require(segment.track)
    var checked = 0
    for n in 0..<timeline.frameCount {
      guard case .transition(1, let time) = timeline.content(ofFrame: n) else { continue }
      let clock = timeline.frameRate.time(ofFrame: n) - segment.start
      guard clock > track.trackingDuration + 1e-9 else { continue }
      let shown = AnimationCurve.easeIn.progress(atTime: time, duration: 0.6)
      let model = track.progress(atTime: clock, curve: .easeIn)
      #expect(abs(shown - model) < 1e-9, "frame \(n): \(shown) against \(model)")
      checked += 1
    }
    #expect(checked >= 10)
  }

  /// A spring completion curve plays in the layer's time: UIKit sets the
  /// layer's speed to `completionSpeed` and Core Animation evaluates a spring
  /// in layer time (TIMING.md §2, §5), so at speed 2 the system spring runs
  /// twice as fast over the 0.1 s left, and its last frame snaps 8 % of the
  /// way, as curve 7 at 0.2 s does, not 22 %, as it would cut off at 0.1 s.
  @Test func aSpringCompletionRunsAtTheCompletionSpeed() throws {
    let renderer = try Self.coverPresent(
      duration: 0.5,
      gesture: "progress: [0, 0.3, 0.6], interval: 0.1, release: finish, completionSpeed: 2, completionCurve: spring")
    // The finger lets go at 0.3 s (frame 18) at 0.6; the rest takes 0.4 × 0.5 / 2 = 0.1 s.
    for n in 18...24 {
      let tau = Double(n) / 60 - 0.3
      let progress = tau >= 0.1 - 1e-9 ? 1 : 0.6 + 0.4 * Spring.system.position(at: 2 * tau)
      let top = Self.coverTop(renderer, frame: n)
      #expect(abs(top - 200 * (1 - progress)) < 0.6, "frame \(n): top at \(top), expected \(200 * (1 - progress))")
    }
  }

  /// UIKit's spring form without a duration of its own takes the rest's as
  /// a completion curve (README: "takes the rest's, (1−p)·duration or
  /// p·duration back"), as UIViewPropertyAnimator runs an animation added
  /// late for the remaining time: the cover's top, measured in the frames,
  /// follows UIView's spring made for the 0.4 s left, on a layer of the
  /// completion's speed, not refused for want of a duration of its own.
  @Test func aUIKitSpringCompletionTakesTheRestsDuration() throws {
    for (release, samples, speed, ratio) in [("finish", "[0, 0.2, 0.4, 0.6]", 1.0, 0.7), ("cancel", "[0, 0.2, 0.4]", 2.0, 1.0)] {
      let renderer = try Self.coverPresent(
        duration: 1,
        gesture: "progress: \(samples), interval: 0.1, release: \(release), completionSpeed: \(speed), completionCurve: \"spring(damping: \(ratio), velocity: 0)\"")
      // The finger lets go 0.2 s (cancel) or 0.3 s (finish) into the step; 0.4 s of the animation is left.
      let lift = release == "finish" ? 0.4 : 0.3, start = release == "finish" ? 0.6 : 0.4
      let end: Double = release == "finish" ? 1 : 0
      let spring = Spring(duration: 0.4, dampingRatio: ratio)
      var checked = 0
      for n in Int(lift * 60)...Int((lift + 0.4 / speed) * 60) + 2 {
        let tau = Double(n) / 60 - lift
        let progress = tau >= 0.4 / speed - 1e-9 ? end : start + (end - start) * spring.position(at: tau * speed)
        let top = Swift.min(Swift.max(200 * (1 - progress), 0), 200)
        let measured = Self.coverTop(renderer, frame: n)
        #expect(abs(measured - top) < 0.6, "\(release) frame \(n): top at \(measured), expected \(top)")
        checked += 1
      }
      #expect(checked >= 14)
    }
  }

  /// A finger thrown back and braking hard: UIKit's acceleration builds up
  /// by ±5 a sample (5, 10, 15), so its rule finishes the pop
  /// (InteractiveTransitionTrackTests.theAccelerationsJumpIsClampedNotItsValue);
  /// the video ends on the first (red) screen, with no note of a cancel.
  @Test func aBrakingFingersAccelerationBuildsUp() throws {
    let spec = try JobParser.parse(
      Self.swipeJob(width: 390, gesture: "direction: right, interval: 0.05, distance: [234, 175.5, 136.5, 117, 117]"),
      file: "g.cfg")
    #expect(!spec.notes.contains { $0.message.contains("cancels the pop") }, "\(spec.notes)")
    let renderer = FrameRenderer(spec: spec)
    let last = renderer.frame(renderer.frameCount - 1, width: 390, height: 200)
    #expect(last[300, 100].r > 240 && last[300, 100].b == 0, "\(last[300, 100])")
  }
}
