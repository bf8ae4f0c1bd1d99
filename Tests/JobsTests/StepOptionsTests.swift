import Foundation
import Geometry
import Jobs
import Raster
import Testing

/// `slowmo:` and `touch:` on a step (the touch as drawn: RenderingTests'
/// `StepRenderingTests`).
@Suite struct StepOptionsTests {
  static func job(_ push: String, pop: String = "{}") -> String {
    """
    name: s
    canvas: { size: 40x60, scale: 1, fps: 30 }
    screens:
      a: { background: "#FFFFFF", views: [ { id: b1, frame: [5, 5, 10, 10], color: "#FF0000" } ] }
      b: { background: "#0000FF" }
    timeline:
      - push: { to: b, transition: circle-spread, \(push) }
      - pop: \(pop)
    """
  }

  /// A number a transition draws something sensible only within has that
  /// range, said where it is written (`transvid list` shows it): a sheet
  /// below a 10 000-point safe area drew black frames, a turning page with
  /// its eye behind it, a curl of no radius.
  @Test(arguments: [
    ("sheet", "safeAreaTop: 10000", "safeAreaTop: expected a number from 0 to 200, got 10000"),
    ("sheet", "dimming: -0.5", "dimming: expected a number from 0 to 1, got -0.5"),
    ("page-flip", "m34: 0.002", "m34: expected a number from -1 to 0, got 0.002"),
    ("flip-horizontal", "distance: 0", "distance: expected a number from 1 to 100000, got 0"),
    ("partial-curl", "radius: -5", "radius: expected a number from 1 to 100000, got -5"),
    ("elastic-present", "height: 0", "height: expected a number from 1 to 100000, got 0"),
  ])
  func numbersOutsideWhatATransitionDrawsAreErrors(transition: String, parameter: String, message: String) throws {
    let job = Self.job(parameter).replacingOccurrences(of: "transition: circle-spread", with: "transition: \(transition)")
    let error = try #require(throws: Diagnostic.self) { try JobParser.parse(job, file: "s.cfg") }
    #expect(error.message == "timeline[0].push.\(message)", "\(error)")
  }

  /// `mirror: auto`, the default `transvid list` shows, is the default: the
  /// step mirrors as UIKit mirrors it in the job's locale, and a pop that
  /// writes it does not take its push's `mirror: true` (it was refused:
  /// "expected true or false, got \"auto\"").
  @Test func mirrorAutoIsTheDefault() throws {
    let spec = try JobParser.parse(Self.job("mirror: true", pop: "{ mirror: auto }"), file: "s.cfg")
    guard case .transition(let push) = spec.timeline[0], case .transition(let pop) = spec.timeline[1] else {
      Issue.record("the timeline should be a push and a pop")
      return
    }
    // Auto in a job without locales is left to right: the pop is drawn unmirrored.
    #expect(push.mirror == true)
    #expect(pop.mirror == false)
    let written = try JobParser.parse(Self.job("mirror: auto"), file: "s.cfg")
    let unwritten = try JobParser.parse(Self.job("origin: [0, 0, 0, 0]"), file: "s.cfg")
    guard case .transition(let auto) = written.timeline[0], case .transition(let plain) = unwritten.timeline[0] else {
      Issue.record("the timeline should start with a push")
      return
    }
    #expect(auto.mirror == nil && plain.mirror == nil)
    let error = try #require(throws: Diagnostic.self) { try JobParser.parse(Self.job("mirror: aut"), file: "s.cfg") }
    #expect(error.message == "timeline[0].push.mirror: expected true, false or auto, got \"aut\"; did you mean 'auto'?")
  }

  /// A boolean is any of YAML 1.2's core-schema spellings, as `Null` and
  /// `NULL` are null: `mirror: True` was "expected true, false or auto, got
  /// True; did you mean 'true'?".
  @Test func booleansTakeTheCoreSchemasSpellings() throws {
    for (written, value) in [("True", true), ("TRUE", true), ("False", false), ("FALSE", false)] {
      let spec = try JobParser.parse(Self.job("mirror: \(written)"), file: "s.cfg")
      guard case .transition(let push) = spec.timeline[0] else {
        Issue.record("no push")
        continue
      }
      #expect(push.mirror == value, "\(written)")
    }
    let quoted = try #require(throws: Diagnostic.self) { try JobParser.parse(Self.job("mirror: \"True\""), file: "s.cfg") }
    #expect(quoted.message == "timeline[0].push.mirror: expected true, false or auto, got \"True\"")
  }

  @Test func slowmoStretchesTheStepAndItsClock() throws {
    let spec = try JobParser.parse(Self.job("slowmo: 4"), file: "s.cfg")
    let timeline = Timeline(spec: spec)
    #expect(abs(timeline.segments[0].duration - 2.8) < 1e-12)
    // Frame 42 (1.4 s of wall time) is 0.35 s into the push's own clock.
    guard case .transition(_, let time) = timeline.content(ofFrame: 42) else {
      Issue.record("frame 42 should be in the push")
      return
    }
    #expect(abs(time - 0.35) < 1e-9)
    // The pop is not slowed.
    #expect(abs(timeline.segments[1].duration - 0.7) < 1e-12)
  }

  @Test func touchOnAnOriginShowsForATap() throws {
    let spec = try JobParser.parse(Self.job("origin: [5, 5, 10, 10], touch: true"), file: "s.cfg")
    let timeline = Timeline(spec: spec)
    #expect(timeline.touchLocation(segment: 0, clock: 0.1) == Point(x: 10, y: 10))
    #expect(timeline.touchLocation(segment: 0, clock: 0.3) == nil)
    #expect(timeline.touchLocation(segment: 1, clock: 0.1) == nil)
  }

  @Test func gestureFingerFollowsTheProgress() throws {
    let spec = try JobParser.parse(
      Self.job("origin: [0, 0, 0, 0]", pop: "{ touch: [5, 30], gesture: { direction: right, distance: [0, 20, 30] } }"),
      file: "s.cfg")
    let timeline = Timeline(spec: spec)
    // Samples 1/6 s apart: at 1/6 s the finger has moved 20 pt right.
    let p = timeline.touchLocation(segment: 1, clock: 1.0 / 6)
    #expect(p.map { abs($0.x - 25) < 1e-9 && $0.y == 30 } == true)
    // After release the finger is gone.
    #expect(timeline.touchLocation(segment: 1, clock: 0.5) == nil)
  }

  /// `touch: true` on a gesture step with nothing to tap starts where the
  /// finger does, on the edge its direction drags from, and follows it (it
  /// was refused: "has no tap, origin or element here to put the touch on").
  @Test func touchTrueOnAGestureStartsWhereTheFingerDoes() throws {
    func touch(_ steps: String, locale: Int = 0) throws -> (Point?, Timeline) {
      let spec = try JobParser.parse(
        """
        name: g
        canvas: { size: 40x60, scale: 1, fps: 30 }
        locales: [en, ar]
        strings: { en: { k: "x" }, ar: { k: "x" } }
        screens:
          a: { background: "#FFFFFF", views: [ { frame: [0, 0, 40, 60], color: "#FF0000", mirror: false } ] }
          b: { background: "#0000FF" }
        timeline:
        \(steps)
        """, file: "g.cfg")
      let job = spec.localizedJobs()[locale]
      guard case .transition(let step) = job.timeline[job.timeline.count - 1] else { return (nil, Timeline(spec: job)) }
      return (step.touch, Timeline(spec: job))
    }
    let pop = "  - push: { to: b, transition: push }\n  - pop: { touch: true, gesture: { direction: right, distance: [0, 5, 15] } }"
    let (back, timeline) = try touch(pop)
    #expect(back == Point(x: 0, y: 30))
    // It follows the finger: 5 pt right at the second sample, 1/6 s in.
    let moved = try #require(timeline.touchLocation(segment: 1, clock: 1.0 / 6))
    #expect(abs(moved.x - 5) < 1e-9 && moved.y == 30)
    // An interactive push to the left starts at the right edge; up from the bottom, down from the top.
    let left = "  - push: { to: b, transition: push, touch: true, gesture: { direction: left, distance: [0, 30] } }"
    #expect(try touch(left).0 == Point(x: 40, y: 30))
    let up = "  - push: { to: b, transition: cover-vertical, touch: true, gesture: { direction: up, distance: [0, 40] } }"
    #expect(try touch(up).0 == Point(x: 20, y: 60))
    let down = "  - push: { to: b, transition: cross-dissolve, touch: true, gesture: { direction: down, distance: [0, 40] } }"
    #expect(try touch(down).0 == Point(x: 20, y: 0))
    // A sheet's finger is on its top: the screen's bottom when it comes up, its resting top when dismissed.
    let present = "  - present: { to: b, transition: sheet, safeAreaTop: 0, touch: true, gesture: { direction: up, distance: [0, 20] } }"
    #expect(try touch(present).0 == Point(x: 20, y: 60))
    let dismiss = "  - present: { to: b, transition: sheet, safeAreaTop: 0 }\n  - dismiss: { touch: true, gesture: { direction: down, distance: [0, 20] } }"
    #expect(try touch(dismiss).0 == Point(x: 20, y: 10))
    // In Arabic the back-swipe is drawn mirrored, the finger with it: given
    // at the left edge (not moved as the `mirror: false` view under it is
    // not); a step left unmirrored turns a `trailing` finger to the right edge.
    #expect(try touch(pop, locale: 1).0 == Point(x: 0, y: 30))
    let unmirrored = "  - push: { to: b, transition: push, mirror: false }\n  - pop: { touch: true, gesture: { direction: trailing, distance: [0, 5] } }"
    #expect(try touch(unmirrored, locale: 1).0 == Point(x: 40, y: 30))
    // A gesture of progress alone has no way for the finger to go.
    let error = try #require(throws: Diagnostic.self) {
      try touch("  - push: { to: b, transition: push }\n  - pop: { touch: true, gesture: { progress: [0, 0.6] } }")
    }
    #expect(
      error.message
        == "timeline[1].pop.touch: 'push' has no tap, origin or element here to put the touch on, and its gesture no "
        + "direction for the finger to move in; give the gesture direction and distance, or touch: [x, y]")
  }

  /// `touch: true` on a transition whose tap or origin is left unwritten
  /// goes on its default, as on the default written out (README: a default
  /// written out is the default): tap-spread's screen centre, a circle's
  /// [0, 0, 0, 0], corner-reveal's [0, 0, 100, 100]; in Arabic too, where
  /// neither moves. A transition with none of them is still an error.
  @Test func touchTrueOnAnUnwrittenTapOrOriginIsOnItsDefault() throws {
    func touches(_ transition: String, _ written: String) throws -> [Point?] {
      var result: [Point?] = []
      for parameters in ["touch: true", "touch: true, \(written)"] {
        let spec = try JobParser.parse(
          """
          name: t
          canvas: { size: 120x160, scale: 1, fps: 30 }
          locales: [en, ar]
          strings: { en: { k: "x" }, ar: { k: "x" } }
          screens:
            a: { background: "#FFFFFF", views: [ { frame: [0, 0, 120, 160], color: "#FF0000" } ] }
            b: { background: "#0000FF" }
          timeline:
            - push: { to: b, transition: \(transition), \(parameters) }
          """, file: "t.cfg")
        for job in spec.localizedJobs() {
          guard case .transition(let step) = job.timeline[0] else { return [] }
          result.append(step.touch)
        }
      }
      return result
    }
    #expect(try touches("tap-spread", "tap: [60, 80]") == Array(repeating: Point(x: 60, y: 80), count: 4))
    #expect(try touches("circle-spread", "origin: [0, 0, 0, 0]") == Array(repeating: Point(x: 0, y: 0), count: 4))
    #expect(try touches("circle-present", "origin: [0, 0, 0, 0]") == Array(repeating: Point(x: 0, y: 0), count: 4))
    #expect(try touches("corner-reveal", "origin: [0, 0, 100, 100]") == Array(repeating: Point(x: 50, y: 50), count: 4))
    let error = try #require(throws: Diagnostic.self) { try touches("cross-dissolve", "duration: 0.5") }
    #expect(
      error.description
        == "t.cfg:9:55: error: timeline[0].push.touch: 'cross-dissolve' has no tap, origin or element here to put the "
        + "touch on; give touch: [x, y]")
  }

  /// README names each step's range as the parser keeps it (the timeline
  /// sweep): a hold's 0…600 s was written only in its error.
  @Test func theReadmeNamesTheStepsRanges() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let prose = readme.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(prose.contains("(a step's own `duration` and `delay`: 0…60 s; a `hold`: 0…600 s)"))
    #expect(prose.contains("- hold: 0.4 # seconds, 0…600"))
    let refused = try #require(throws: Diagnostic.self) {
      try JobParser.parse("screens: { a: {} }\ntimeline:\n  - hold: 600.001\n", file: "h.cfg")
    }
    #expect(refused.description == "h.cfg:3:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got 600.001")
    let longest = "canvas: { size: 40x60, scale: 1, fps: 1 }\nscreens: { a: {} }\ntimeline:\n  - hold: 600\n"
    #expect(try JobParser.parse(longest, file: "h.cfg").timeline.count == 1)
  }

  /// README's example of a step's own options parses as written, its touch at the tap.
  @Test func theReadmeStepOptionsExampleParses() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let prose = readme.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let start = try #require(prose.range(of: "inside its mapping (`push: "))
    let step = try #require(prose[start.upperBound...].split(separator: "`").first)
    let spec = try JobParser.parse(
      """
      canvas: { device: iphone-15 }
      screens: { a: { background: red }, b: { background: blue } }
      timeline:
        - push: \(step)
      """, file: "r.cfg")
    guard case .transition(let push) = spec.timeline[0] else {
      Issue.record("no push in \(step)")
      return
    }
    #expect(push.slowmo == 4 && push.touch != nil)
  }

  @Test(arguments: [
    ("slowmo: 0", "s.cfg:7:55: error: timeline[0].push.slowmo: expected a slow-down factor from 1 to 20, got 0"),
    ("touch: [1]", "s.cfg:7:54: error: timeline[0].push.touch: expected [x, y] in points, or true, got a list of 1 item"),
  ])
  func badOptions(push: String, message: String) {
    do {
      _ = try JobParser.parse(Self.job(push), file: "s.cfg")
      Issue.record("parsed: \(push)")
    } catch {
      #expect(error.description == message)
    }
  }
}
