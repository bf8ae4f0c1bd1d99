import Geometry
import Jobs
import Motion
import Raster
import Testing
import Transitions

/// Gesture-driven steps (UIPercentDrivenInteractiveTransition): parsing,
/// the timeline's wall-clock lengths, and which screen a cancelled or
/// finished gesture ends on (the frames drawn: RenderingTests'
/// `StepRenderingTests`).
@Suite struct GestureTests {
  static func job(pop: String) -> String {
    """
    name: g
    canvas: { size: 40x60, scale: 1, fps: 30 }
    screens:
      list: { background: "#FFFFFF" }
      detail: { background: "#FF0000" }
    timeline:
      - push: { to: detail, transition: circle-spread }
      - pop: \(pop)
      - hold: 0.2
    """
  }

  @Test func cancelledPopEndsOnTheScreenItStartedFrom() throws {
    let spec = try JobParser.parse(
      Self.job(pop: "{ gesture: { progress: [0, 0.2, 0.35] } }"), file: "g.cfg")
    let timeline = Timeline(spec: spec)
    // Tracking 2 × 1/6 s, then cancelling 0.35 × 0.7 s: 0.7 + 0.5783… + 0.2 s.
    #expect(abs(timeline.duration - (0.7 + 2.0 / 6 + 0.35 * 0.7 + 0.2)) < 1e-12)
    #expect(timeline.finalScreen == "detail")
  }

  /// DESIGN.md's form: `direction` beside `progress` says which way the
  /// finger goes (for right-to-left locales); `distance` beside `progress`
  /// is an error.
  @Test func aProgressGestureMayHaveADirection() throws {
    let spec = try JobParser.parse(
      Self.job(pop: "{ gesture: { direction: right, progress: [0, 0.3, 0.45], release: cancel } }"), file: "g.cfg")
    guard case .transition(let pop) = spec.timeline[1], let gesture = pop.gesture else {
      Issue.record("no pop")
      return
    }
    #expect(gesture.progress == [0, 0.3, 0.45] && gesture.travel == Size(width: 40, height: 0) && pop.isCancelled)
    #expect(throws: Diagnostic(
      SourceLocation(file: "g.cfg", line: 8, column: 33), "timeline[1].pop.gesture.progress: give either progress or distance, not both")) {
      try JobParser.parse(Self.job(pop: "{ gesture: { progress: [0, 0.5], distance: [0, 20], direction: right } }"), file: "g.cfg")
    }
  }

  @Test func finishedPopEndsOnTheScreenBelow() throws {
    let spec = try JobParser.parse(
      Self.job(pop: "{ gesture: { progress: [0, 0.3, 0.6] } }"), file: "g.cfg")
    let timeline = Timeline(spec: spec)
    #expect(timeline.finalScreen == "list")
    #expect(abs(timeline.duration - (0.7 + 2.0 / 6 + 0.4 * 0.7 + 0.2)) < 1e-12)
  }

  @Test func explicitReleaseAndCompletionSpeed() throws {
    let spec = try JobParser.parse(
      Self.job(pop: "{ gesture: { progress: [0, 0.8], release: cancel, completionSpeed: 2, interval: 0.1 } }"),
      file: "g.cfg")
    let timeline = Timeline(spec: spec)
    #expect(timeline.finalScreen == "detail")
    // 0.1 s tracking, then 0.8 × 0.7 / 2 s back.
    #expect(abs(timeline.duration - (0.7 + 0.1 + 0.28 + 0.2)) < 1e-12)
  }

  /// README writes the default interval as `1/6`; a job may write it so
  /// (or `1/60`, one frame), as a spring's velocity may be `1/0.55`.
  @Test func intervalMayBeAQuotient() throws {
    let sixth = try JobParser.parse(Self.job(pop: "{ gesture: { progress: [0, 0.2, 0.35], interval: 1/6 } }"), file: "g.cfg")
    let byDefault = try JobParser.parse(Self.job(pop: "{ gesture: { progress: [0, 0.2, 0.35] } }"), file: "g.cfg")
    #expect(Timeline(spec: sixth).duration == Timeline(spec: byDefault).duration)
    let sixtieth = try JobParser.parse(Self.job(pop: "{ gesture: { progress: [0, 0.2, 0.35], interval: 1/60 } }"), file: "g.cfg")
    // Tracking 2 × 1/60 s, then cancelling 0.35 × 0.7 s.
    #expect(abs(Timeline(spec: sixtieth).duration - (0.7 + 2.0 / 60 + 0.35 * 0.7 + 0.2)) < 1e-12)
  }

  @Test func directionAndDistanceGiveProgressOverTheWidth() throws {
    let spec = try JobParser.parse(
      Self.job(pop: "{ gesture: { direction: right, distance: [0, 10, 30] } }"), file: "g.cfg")
    guard case .transition(let pop) = spec.timeline[1] else {
      Issue.record("step 1 should be the pop")
      return
    }
    #expect(pop.gesture?.progress == [0, 0.25, 0.75])
    #expect(pop.finalScreen == "list")
  }

  @Test func cancelledPushLeavesNothingToPop() {
    let text = """
      name: g
      canvas: { size: 40x60, scale: 1, fps: 30 }
      screens:
        list: {}
        detail: {}
      timeline:
        - push: { to: detail, transition: circle-spread, gesture: { progress: [0, 0.3] } }
        - pop: {}
      """
    let message =
      "timeline[1]: pop with nothing pushed (timeline[0]'s push is cancelled: its gesture ends at progress 0.3, "
      + "not past 0.5; give it release: finish, or move the finger further)"
    #expect(throws: Diagnostic(SourceLocation(file: "g.cfg", line: 8, column: 5), message)) {
      try JobParser.parse(text, file: "g.cfg")
    }
  }

  /// A pop or dismiss that finds nothing to undo because the finger
  /// cancelled the push or present before it says so: the note that would
  /// tell is not printed when the job does not parse.
  @Test func undoingACancelledStepSaysItWasCancelled() {
    func error(_ steps: String) -> String {
      let text = """
        name: g
        canvas: { size: 200x300, scale: 1, fps: 30 }
        screens:
          a: {}
          b: {}
          c: {}
        timeline:

        """ + steps
      do {
        _ = try JobParser.parse(text, file: "g.cfg")
        return "parsed"
      } catch {
        return error.message
      }
    }
    let sheet = error(
      """
        - present: { to: b, transition: sheet, gesture: { progress: [0, 0.5] } }
        - dismiss: {}
      """)
    #expect(
      sheet == "timeline[1]: dismiss with nothing presented (timeline[0]'s present is cancelled: its gesture ends at "
        + "progress 0.5, not past 0.5; give it release: finish, or move the finger further)")
    let written = error(
      """
        - present: { to: b, transition: cover-vertical }
        - push: { to: c, transition: circle-spread, gesture: { progress: [0, 0.9], release: cancel } }
        - pop: {}
      """)
    #expect(
      written == "timeline[2]: pop, but 'b' was presented (timeline[0]); use dismiss (timeline[1]'s push is cancelled: "
        + "its gesture says release: cancel; give it release: finish)")
    let swipe = error(
      """
        - push: { to: b, transition: push, gesture: { direction: left, distance: [10, 10] } }
        - pop: {}
      """)
    #expect(
      swipe == "timeline[1]: pop with nothing pushed (timeline[0]'s push is cancelled: UINavigationController cancels "
        + "it by the finger's place and speed as it lifts; give it release: finish, or move the finger further)")
    // A step shown since the cancelled one is what the pop meets: no word of the cancelled one.
    let later = error(
      """
        - push: { to: b, transition: push, gesture: { progress: [0, 0.2], release: cancel } }
        - push: { to: b, transition: push }
        - present: { to: c, transition: sheet }
        - pop: {}
      """)
    #expect(later == "timeline[3]: pop, but 'c' was presented (timeline[2]); use dismiss")
  }

  /// A finger drags an interactive push or sheet linearly (UIKit's curve 3,
  /// the sheet's pan); the pop or dismiss that undoes it without a finger
  /// plays the animation's own curve, the system spring or the sheet's, as
  /// one after a tapped push does, or the curve the push wrote.
  @Test func aPlainPopAfterAnInteractivePushPlaysTheAnimationsCurve() throws {
    let spec = try JobParser.parse(
      """
      name: g
      canvas: { size: 200x300, scale: 1, fps: 10 }
      screens:
        list: {}
        detail: {}
      timeline:
        - push: { to: detail, transition: push, gesture: { direction: left, distance: [0, 100, 200], release: finish } }
        - pop: {}
        - present: { to: detail, transition: sheet, gesture: { progress: [0, 0.5, 1], release: finish } }
        - dismiss: {}
        - push: { to: detail, transition: push, curve: easeIn, gesture: { progress: [0, 1], release: finish } }
        - pop: {}
      """, file: "g.cfg")
    let curves = Timeline(spec: spec).segments.map { $0.transition?.valueCurve }
    #expect(curves[0] == .linear && curves[2] == .linear && curves[4] == .easeIn)
    #expect(curves[1] == .systemSpring)
    #expect(curves[3] == .spring(PageSheet.spring))
    #expect(curves[5] == .easeIn)
  }

  @Test(arguments: [
    ("{ gesture: { progress: [0, 1.5] } }", "g.cfg:8:37: error: timeline[1].pop.gesture.progress[1]: expected a number from 0 to 1, got 1.5"),
    ("{ gesture: { direction: sideways, distance: [1] } }", "g.cfg:8:34: error: timeline[1].pop.gesture.direction: expected left, right, up, down, leading or trailing, got \"sideways\""),
    ("{ gesture: { progress: [0.2], release: maybe } }", "g.cfg:8:49: error: timeline[1].pop.gesture.release: expected finish or cancel, got \"maybe\""),
    ("{ gesture: { progres: [0.2] } }", "g.cfg:8:23: error: unknown key 'progres' in timeline[1].pop.gesture; did you mean 'progress'?"),
    ("{ gesture: { progress: [0.2], interval: 1/0 } }", "g.cfg:8:50: error: timeline[1].pop.gesture.interval: expected a number of seconds from 0.001 to 10 (or a quotient such as 1/60), got \"1/0\""),
    ("{ gesture: { progress: [0.2], interval: 20 } }", "g.cfg:8:50: error: timeline[1].pop.gesture.interval: expected a number of seconds from 0.001 to 10 (or a quotient such as 1/60), got 20"),
    ("{ gesture: {} }", "g.cfg:8:21: error: timeline[1].pop.gesture: missing 'progress' (percentComplete samples, 0…1) or 'direction' and 'distance'"),
  ])
  func badGestures(pop: String, message: String) {
    do {
      _ = try JobParser.parse(Self.job(pop: pop), file: "g.cfg")
      Issue.record("parsed: \(pop)")
    } catch {
      #expect(error.description == message)
    }
  }
}
