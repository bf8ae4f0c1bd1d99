import Foundation
import Jobs
import Motion
import Testing
import Transitions

/// `spring:` as a mapping: the same forms as `curve: "spring(…)"`.
@Suite struct SpringParameterTests {
  /// The curve step `i` of `spec`'s timeline runs on, if it is a transition that has one.
  static func curve(of spec: JobSpec, step i: Int) -> AnimationCurve? {
    guard case .transition(let step) = spec.timeline[i], case .curve(let c)? = step.parameters.values["curve"] else { return nil }
    return c
  }

  static func job(_ push: String) -> String {
    """
    name: sp
    canvas: { size: 40x60, scale: 1, fps: 30 }
    screens: { a: {}, b: {} }
    timeline:
      - push: { to: b, transition: circle-spread, \(push) }
    """
  }

  static func curve(_ push: String) throws -> AnimationCurve? {
    let spec = try JobParser.parse(job(push), file: "sp.cfg")
    guard case .transition(let step) = spec.timeline[0], case .curve(let c)? = step.parameters.values["curve"] else {
      return nil
    }
    return c
  }

  @Test func uikitAndCAForms() throws {
    #expect(
      try Self.curve("spring: { damping: 0.55, velocity: 1.8, duration: 0.75 }")
        == .spring(Spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1.8)))
    #expect(
      try Self.curve("spring: { mass: 1, stiffness: 100, damping: 10 }")
        == .spring(Spring(mass: 1, stiffness: 100, damping: 10)))
    #expect(
      try Self.curve("spring: { response: 0.5, dampingRatio: 0.8 }")
        == .spring(Spring(response: 0.5, dampingRatio: 0.8)))
    #expect(
      try Self.curve("spring: { stiffness: 100, damping: 30, initialVelocity: .5, allowsOverdamping: true }")
        == .spring(Spring(mass: 1, stiffness: 100, damping: 30, initialVelocity: 0.5, allowsOverdamping: true)))
    // UIKit's form without a duration of its own takes the step's (DESIGN.md's `{damping, velocity}`), else its default.
    #expect(
      try Self.curve("duration: 0.5, spring: { damping: 0.5, velocity: 0 }")
        == .spring(Spring(duration: 0.5, dampingRatio: 0.5, initialVelocity: 0)))
    let circleDefault = try #require(Catalog.descriptor(named: "circle-spread")?.parameters.first { $0.name == "duration" })
    #expect(
      try Self.curve("spring: { damping: 0.7 }")
        == .spring(Spring(duration: try #require(Double(circleDefault.defaultValue)), dampingRatio: 0.7, initialVelocity: 0)))
  }

  /// A number may be a quotient, as `spring(…)` text takes it and `transvid
  /// list` writes magic-move's default (the contract sweep: the mapping said
  /// "expected a number, got "1/0.55"").
  @Test func aQuotientIsANumber() throws {
    #expect(
      try Self.curve("spring: { damping: 0.55, velocity: 1/0.55, duration: 0.75 }")
        == .spring(Spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1 / 0.55)))
    #expect(
      try Self.curve("spring: { damping: 0.55, velocity: 1/0.55, duration: 0.75 }")
        == Self.curve("curve: \"spring(damping: 0.55, velocity: 1/0.55, duration: 0.75)\""))
    #expect(throws: Diagnostic.self) { try Self.curve("spring: { damping: 0.55, velocity: 1/0 }") }
    #expect(throws: Diagnostic.self) { try Self.curve("spring: { damping: 0.55, velocity: 1/2/3 }") }
  }

  /// UIKit's form written as `curve:` text without its own duration takes
  /// the step's, as the mapping does (README: "UIKit's form without its own
  /// `duration` takes the step's"): it was refused, "give 'duration' …".
  @Test func theUIKitFormAsTextTakesTheStepsDuration() throws {
    #expect(
      try Self.curve("duration: 0.8, curve: \"spring(damping: 0.7, velocity: 0)\"")
        == .spring(Spring(duration: 0.8, dampingRatio: 0.7, initialVelocity: 0)))
    #expect(
      try Self.curve("curve: \"spring(dampingRatio: 0.6)\"")
        == .spring(Spring(duration: 0.7, dampingRatio: 0.6, initialVelocity: 0)))
    // Its own duration wins; other forms take none.
    #expect(
      try Self.curve("duration: 0.8, curve: \"spring(damping: 0.7, duration: 0.3)\"")
        == .spring(Spring(duration: 0.3, dampingRatio: 0.7, initialVelocity: 0)))
    #expect(
      try Self.curve("duration: 0.8, curve: \"spring(stiffness: 200, damping: 10)\"")
        == .spring(Spring(mass: 1, stiffness: 200, damping: 10)))
  }

  /// UIKit's spring form with a duration of its own is the step's length
  /// when the step writes none, as UIView's spring animation lasts it (the
  /// timeline sweep): the step took its transition's default, 0.7 s, and
  /// cut a 1.2 s spring short of its end, or held a 0.3 s one still.
  @Test func theUIKitFormsOwnDurationIsTheStepsLength() throws {
    for written in [
      #"curve: "spring(damping: 0.7, velocity: 0, duration: 1.2)""#, "spring: { damping: 0.7, velocity: 0, duration: 1.2 }",
    ] {
      let spec = try JobParser.parse(Self.job(written), file: "sp.cfg")
      let timeline = Timeline(spec: spec)
      #expect(timeline.duration == 1.2, "\(written)")
      #expect(timeline.frameCount == 36)
      #expect(spec.notes.isEmpty, "\(spec.notes)")
    }
    let short = try JobParser.parse(Self.job(#"curve: "spring(damping: 0.9, velocity: 0, duration: 0.3)""#), file: "sp.cfg")
    #expect(Timeline(spec: short).duration == 0.3)
    // A duration the step writes stays its length; so do the CA and response forms' (none is the animation's).
    let written = #"duration: 0.4, curve: "spring(damping: 0.7, velocity: 0, duration: 1.2)""#
    #expect(Timeline(spec: try JobParser.parse(Self.job(written), file: "sp.cfg")).duration == 0.4)
    let response = try JobParser.parse(Self.job(#"curve: "spring(response: 1.2, dampingRatio: 1)""#), file: "sp.cfg")
    #expect(Timeline(spec: response).duration == 0.7)
    // The pop reuses the push's parameters, its length with them.
    let job = """
      name: sp
      canvas: { size: 40x60, scale: 1, fps: 30 }
      screens: { a: {}, b: {} }
      timeline:
        - push: { to: b, transition: circle-spread, curve: "spring(damping: 0.7, velocity: 0, duration: 1.2)" }
        - pop: {}
      """
    let pop = Timeline(spec: try JobParser.parse(job, file: "sp.cfg")).segments.map(\.duration)
    #expect(pop == [1.2, 1.2])
  }

  /// The iOS 17 form's `duration` is its pace, "approximately equal to the
  /// settling duration" (Apple's Spring(duration:bounce:)), and UIKit runs
  /// it until it settles: a step that writes no `duration` lasts its
  /// settling duration, as `transvid curve` samples it (the spring sweep's
  /// target). It lasted the transition's default, 0.7 s, where a 1.2 s
  /// spring was 12 % short of its end and jumped there in one frame.
  @Test func theBounceFormsStepLastsUntilItSettles() throws {
    for written in [#"curve: "spring(duration: 1.2, bounce: 0)""#, "spring: { duration: 1.2, bounce: 0 }"] {
      let spec = try JobParser.parse(Self.job(written), file: "sp.cfg")
      let settling = Spring(duration: 1.2, bounce: 0).settlingDuration
      // Critically damped at ω = 2π/1.2: settled where its envelope (1 + ωt)e^(−ωt) falls to
      // TIMING.md §2's ε, 1.80 s.
      let omega = 2 * Double.pi / 1.2
      let envelope = (1 + omega * settling) * exp(-omega * settling)
      let ok = abs(envelope - 8.311246790282645e-4) < 1e-9 && abs(settling - 1.80) < 0.01
      #expect(ok, "\(settling)")
      #expect(Timeline(spec: spec).duration == settling, "\(written)")
      let curve = try #require(Self.curve(of: spec, step: 0))
      let end = curve.progress(atTime: settling.nextDown, duration: settling)
      #expect(abs(1 - end) < 1e-3, "\(end)")
      #expect(spec.notes.isEmpty, "\(spec.notes)")
    }
    // A bouncier one settles later, an overdamped one too; a quick one sooner.
    for (spring, text) in [
      (Spring(duration: 0.5, bounce: 0.3), "spring(duration: 0.5, bounce: 0.3)"),
      (Spring(duration: 0.5, bounce: -0.5), "spring(duration: 0.5, bounce: -0.5)"),
      (Spring(duration: 0.1, bounce: 0), "spring(duration: 0.1, bounce: 0)"),
    ] {
      let spec = try JobParser.parse(Self.job("curve: \"\(text)\""), file: "sp.cfg")
      #expect(Timeline(spec: spec).duration == spring.settlingDuration, "\(text)")
      #expect(spec.notes.isEmpty, "\(spec.notes)")
    }
    // A duration the step writes is its length; the pop inherits the push's.
    let written = try JobParser.parse(Self.job(#"duration: 0.4, curve: "spring(duration: 1.2, bounce: 0)""#), file: "sp.cfg")
    #expect(Timeline(spec: written).duration == 0.4)
    let job = """
      name: sp
      canvas: { size: 40x60, scale: 1, fps: 30 }
      screens: { a: {}, b: {} }
      timeline:
        - push: { to: b, transition: circle-spread, spring: { duration: 0.5, bounce: 0.3 } }
        - pop: {}
        - push: { to: b, transition: circle-spread, duration: 0.3 }
        - pop: { curve: "spring(duration: 0.5, bounce: 0.3)" }
      """
    let settling = Spring(duration: 0.5, bounce: 0.3).settlingDuration
    let steps = Timeline(spec: try JobParser.parse(job, file: "sp.cfg")).segments.map(\.duration)
    #expect(steps == [settling, settling, 0.3, settling])
    // One that never settles keeps the transition's length (and its note).
    let undamped = try JobParser.parse(Self.job(#"curve: "spring(duration: 1, bounce: 1)""#), file: "sp.cfg")
    #expect(Timeline(spec: undamped).duration == 0.7)
    #expect(undamped.notes.count == 1)
  }

  /// A gesture's completion spring with no damping never settles: the rest
  /// swings about its end and jumps there when it is over, and a note now
  /// says so (the spring sweep's target): the job got no word, as the
  /// note on unsettled springs leaves interactive steps out.
  @Test(arguments: [
    (#"completionCurve: "spring(duration: 1, bounce: 1)""#, "a bounce below 1"),
    (#"completionCurve: "spring(mass: 1, stiffness: 100, damping: 0)""#, "damping above 0"),
  ])
  func anUndampedCompletionSpringIsNoted(curve: String, advice: String) throws {
    let job = try JobParser.parse(
      Self.job("gesture: { progress: [0, 0.6], release: finish, \(curve) }"), file: "sp.cfg")
    #expect(
      job.notes.map(\.description) == [
        "sp.cfg:5:5: note: timeline[0].push.gesture.completionCurve: its spring has no damping, so it never settles: "
          + "the rest of the step swings about its end and jumps there in one frame when it is over (Core Animation "
          + "ends a spring at its duration); give it \(advice)"
      ])
    // A damped one, and UIKit's form that takes the rest's duration, say nothing.
    for damped in [#"completionCurve: "spring(duration: 1, bounce: 0.5)""#, #"completionCurve: "spring(damping: 0.5, velocity: 0)""#] {
      let spec = try JobParser.parse(Self.job("gesture: { progress: [0, 0.6], release: finish, \(damped) }"), file: "sp.cfg")
      #expect(spec.notes.isEmpty, "\(spec.notes)")
    }
  }

  /// A pop that writes its own duration times the push's UIKit spring by it
  /// (the spring is the animation's): it played the push's 1 s spring,
  /// cut off at its 0.4 s end.
  @Test func aPopTimesTheInheritedSpringByItsDuration() throws {
    let job = """
      name: sp
      canvas: { size: 40x60, scale: 1, fps: 30 }
      screens: { a: {}, b: {} }
      timeline:
        - push: { to: b, transition: circle-spread, duration: 1.0, spring: { damping: 0.6, velocity: 0 } }
        - pop: { duration: 0.4 }
        - push: { to: b, transition: circle-spread, duration: 1.0, curve: "spring(damping: 0.6, velocity: 0, duration: 0.7)" }
        - pop: { duration: 0.4 }
      """
    let spec = try JobParser.parse(job, file: "sp.cfg")
    func curve(_ i: Int) -> AnimationCurve? { Self.curve(of: spec, step: i) }
    #expect(curve(1) == .spring(Spring(duration: 0.4, dampingRatio: 0.6, initialVelocity: 0)))
    // A spring with a length of its own keeps it.
    #expect(curve(3) == .spring(Spring(duration: 0.7, dampingRatio: 0.6, initialVelocity: 0)))
  }

  /// A pop's UIKit spring without a duration of its own takes the pop's,
  /// which it inherits from its push (the timeline sweep): it took the
  /// transition's default, so after a 1.2 s push the pop's spring settled
  /// in 0.7 s and the screen stood still for the rest of its 1.2 s step.
  @Test func aPopsSpringTakesTheDurationItInherits() throws {
    let job = """
      name: sp
      canvas: { size: 40x60, scale: 1, fps: 30 }
      screens: { a: {}, b: {} }
      timeline:
        - push: { to: b, transition: circle-spread, duration: 1.2, curve: linear }
        - pop: { spring: { damping: 1, velocity: 0 } }
        - push: { to: b, transition: circle-spread, duration: 1.2, curve: linear }
        - pop: { curve: "spring(damping: 1, velocity: 0)" }
        - push: { to: b, transition: circle-spread, duration: 1.2, curve: linear }
        - pop: { transition: cross-dissolve, spring: { damping: 1, velocity: 0 } }
      """
    let spec = try JobParser.parse(job, file: "sp.cfg")
    func curve(_ i: Int) -> AnimationCurve? { Self.curve(of: spec, step: i) }
    #expect(curve(1) == .spring(Spring(duration: 1.2, dampingRatio: 1, initialVelocity: 0)))
    #expect(curve(3) == .spring(Spring(duration: 1.2, dampingRatio: 1, initialVelocity: 0)))
    // Another transition inherits nothing: its own default.
    #expect(curve(5) == .spring(Spring(duration: 0.5, dampingRatio: 1, initialVelocity: 0)))
    #expect(Timeline(spec: spec).segments.map(\.duration) == [1.2, 1.2, 1.2, 1.2, 1.2, 0.5])
    #expect(spec.notes.isEmpty, "\(spec.notes)")
  }

  @Test(arguments: [
    ("spring: { damping: 0.5 }, curve: linear", "sp.cfg:5:47: error: timeline[0].push.spring: give either curve or spring, not both"),
    ("spring: { dampingg: 1 }", "sp.cfg:5:57: error: timeline[0].push.spring: unknown parameter 'dampingg'; did you mean 'damping'?"),
    ("spring: { damping: fast }", "sp.cfg:5:66: error: timeline[0].push.spring.damping: expected a number, got \"fast\""),
    ("sprung: { damping: 1 }", "sp.cfg:5:47: error: unknown parameter 'sprung' in timeline[0].push; did you mean 'spring'?"),
    // At the value, as every other number: YAML's .nan, .inf and 1e400 are numbers, not finite ones; they were
    // "damping '.nan' is not a number" at the `{`.
    ("spring: { damping: .nan, velocity: 0 }", "sp.cfg:5:66: error: timeline[0].push.spring.damping: expected a finite number, got .nan"),
    ("spring: { damping: 0.5, velocity: -.inf }", "sp.cfg:5:81: error: timeline[0].push.spring.velocity: expected a finite number, got -.inf"),
    ("spring: { mass: 1e400, stiffness: 100 }", "sp.cfg:5:63: error: timeline[0].push.spring.mass: expected a finite number, got 1e400"),
    ("spring: { response: -1e400, dampingRatio: 1 }", "sp.cfg:5:67: error: timeline[0].push.spring.response: expected a finite number, got -1e400"),
    ("spring: { duration: 0.5, bounce: .inf }", "sp.cfg:5:80: error: timeline[0].push.spring.bounce: expected a finite number, got .inf"),
    ("spring: { damping: 0.5, velocity: true }", "sp.cfg:5:81: error: timeline[0].push.spring.velocity: expected a number, got true"),
    ("spring: { damping: 0.5, initialVelocity: .nan }", "sp.cfg:5:88: error: timeline[0].push.spring.initialVelocity: expected a finite number, got .nan"),
    // A step's duration the spring cannot take is an error at it: it was "give 'duration' … or 'stiffness'".
    ("duration: 0, spring: { damping: 0.7, velocity: 0 }",
     "sp.cfg:5:57: error: timeline[0].push.duration: expected at least 0.001 s (the spring takes the step's duration as its own), got 0"),
    ("duration: 0.0009, curve: \"spring(dampingRatio: 0.7)\"",
     "sp.cfg:5:57: error: timeline[0].push.duration: expected at least 0.001 s (the spring takes the step's duration as its own), got 0.0009"),
    // Its own duration is the step's length, which is at most 60 s.
    ("spring: { damping: 0.7, velocity: 0, duration: 100 }",
     "sp.cfg:5:94: error: timeline[0].push.spring.duration: the spring's duration, 100 s, is the step's, at most 60 s"),
    ("curve: \"spring(damping: 0.7, velocity: 0, duration: 61)\"",
     "sp.cfg:5:54: error: timeline[0].push.curve: the spring's duration, 61 s, is the step's, at most 60 s"),
    ("spring: { stiffness: 100, allowsOverdamping: 1 }", "sp.cfg:5:92: error: timeline[0].push.spring.allowsOverdamping: expected true or false, got 1"),
  ])
  func badSprings(push: String, message: String) {
    do {
      _ = try JobParser.parse(Self.job(push), file: "sp.cfg")
      Issue.record("parsed: \(push)")
    } catch {
      #expect(error.description == message)
    }
  }

  /// A spring still on its way when the step ends jumps to its end in one
  /// frame, as Core Animation ends a spring at its duration: a note says so
  /// and how long it takes to settle; a spring that has settled gets none.
  @Test func aSpringCutShortByItsStepIsNoted() throws {
    let cut = try JobParser.parse(Self.job(#"duration: 0.5, curve: "spring(duration: 0.5, bounce: -0.5)""#), file: "sp.cfg")
    let spring = Spring(duration: 0.5, bounce: -0.5)
    let short = Int(((1 - spring.position(at: 0.5)) * 100).rounded())
    #expect(short == 20)
    #expect(
      cut.notes.map(\.description) == [
        "sp.cfg:5:5: note: timeline[0].push: its spring is still 20 % of its travel short of its end when the step's "
          + "0.5 s end, and jumps there in one frame (Core Animation ends a spring at its duration); it settles in "
          + "about 2.13 s: give the step that duration, or a stiffer spring"
      ])
    // The same spring given time to settle, and UIKit's duration form (within 1e-3 at its end), say nothing.
    #expect(try JobParser.parse(Self.job(#"duration: 2.2, curve: "spring(duration: 0.5, bounce: -0.5)""#), file: "sp.cfg").notes.isEmpty)
    #expect(try JobParser.parse(Self.job("spring: { damping: 0.3, velocity: 0, duration: 0.6 }"), file: "sp.cfg").notes.isEmpty)
  }

  /// An undamped spring never settles: its note says so, and to damp it,
  /// instead of giving the step a duration of "inf s".
  @Test(arguments: [
    #"curve: "spring(mass: 1, stiffness: 100, damping: 0)""#, #"curve: "spring(response: 0.5, dampingRatio: 0)""#,
  ])
  func anUndampedSpringIsNotedAsNeverSettling(curve: String) throws {
    let job = try JobParser.parse(Self.job("duration: 0.4, " + curve), file: "sp.cfg")
    let note = try #require(job.notes.first?.description)
    #expect(job.notes.count == 1)
    #expect(
      note.hasSuffix(
        "and jumps there in one frame (Core Animation ends a spring at its duration); with no damping it never settles "
          + "(it oscillates for ever, whatever the step's duration): give it damping above 0"), "\(note)")
    #expect(!note.contains("inf"))
  }

  /// The bounce form's undamped spring, `bounce: 1`, is told to bounce
  /// less, as it takes no `damping` (the spring sweep): its note said "give
  /// it damping above 0", which that form refuses ("'damping' cannot be
  /// combined with 'bounce'"). A spring that settles, but in more than a
  /// step may last (60 s), is told to settle sooner, where its note said
  /// to give the step that duration, which the step refuses.
  @Test func aSpringThatSettlesInNoStepIsToldToDampIt() throws {
    for written in [#"curve: "spring(duration: 1, bounce: 1)""#, "spring: { duration: 1, bounce: 1 }"] {
      let job = try JobParser.parse(Self.job(written), file: "sp.cfg")
      let note = try #require(job.notes.first?.description)
      #expect(
        note.hasSuffix(
          "with no damping it never settles (it oscillates for ever, whatever the step's duration): give it a bounce "
            + "below 1"), "\(note)")
    }
    let slow = try JobParser.parse(Self.job(#"curve: "spring(duration: 1, bounce: 0.99)""#), file: "sp.cfg")
    #expect(Spring(duration: 1, bounce: 0.99).settlingDuration.rounded() == 113)
    #expect(
      slow.notes.map(\.description) == [
        "sp.cfg:5:5: note: timeline[0].push: its spring is still 31 % of its travel past its end when the step's "
          + "0.7 s end, and jumps there in one frame (Core Animation ends a spring at its duration); it settles in about "
          + "113 s, longer than a step lasts (at most 60 s): give it a smaller bounce or a shorter duration"
      ])
    let heavy = try JobParser.parse(Self.job(#"curve: "spring(mass: 1000, stiffness: 1, damping: 1)""#), file: "sp.cfg")
    let note = try #require(heavy.notes.first?.description)
    #expect(note.hasSuffix("longer than a step lasts (at most 60 s): give it more damping or a stiffer spring"), "\(note)")
  }
}
