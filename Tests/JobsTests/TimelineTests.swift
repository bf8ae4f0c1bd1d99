import Geometry
import Jobs
import Raster
import Testing
import Transitions

@Suite struct TimelineTests {
  static let here = SourceLocation(file: "t.cfg", line: 1, column: 1)

  static func spec(fps: Int = 60) -> JobSpec {
    let push = TransitionStep(
      operation: .push, from: "a", to: "b", transition: "circle-spread", parameters: TransitionParameters(),
      location: here)
    var pop = push
    pop.operation = .pop
    pop.from = "b"
    pop.to = "a"
    return JobSpec(
      name: "t", file: "t.cfg",
      canvas: CanvasSpec(size: Size(width: 20, height: 30), scale: 1, fps: fps, background: .black),
      output: OutputSpec(),
      screens: [
        ScreenSpec(name: "a", background: .white, views: [], location: here),
        ScreenSpec(name: "b", background: Color(red: 1, green: 0, blue: 0), views: [], location: here),
      ],
      timeline: [
        .hold(seconds: 0.5, location: here), .transition(push), .hold(seconds: 0.25, location: here),
        .transition(pop),
      ])
  }

  @Test func framesCoverTheTimelineAtFPS() {
    let timeline = Timeline(spec: Self.spec())
    // circle-spread runs 0.7 s: 0.5 + 0.7 + 0.25 + 0.7 = 2.15 s → 129 frames at 60 fps.
    #expect(timeline.frameCount == 129)
    #expect(abs(timeline.duration - 2.15) < 1e-12)
    #expect(timeline.finalScreen == "a")
  }

  /// A step starting on a frame in decimal starts on that frame, though its
  /// binary start falls a hair past it: holds of 0.2 + 0.2 + 0.2 s end at
  /// 0.6000000000000001, and frame 18 at 30 fps (0.6 s) is the pop's first
  /// (its touch's first frame), not the hold's last.
  @Test func aStepStartsOnTheFrameItsDecimalStartIsOn() {
    var spec = Self.spec(fps: 30)
    var push = TransitionStep(
      operation: .push, from: "a", to: "b", transition: "cross-dissolve",
      parameters: TransitionParameters(["duration": .number(0.2)]), location: Self.here)
    push.touch = Point(x: 5, y: 5)
    var pop = push
    (pop.operation, pop.from, pop.to) = (.pop, "b", "a")
    spec.timeline = [.hold(seconds: 0.2, location: Self.here), .transition(push), .hold(seconds: 0.2, location: Self.here), .transition(pop)]
    let timeline = Timeline(spec: spec)
    #expect(timeline.segments[3].start > 0.6)
    #expect(timeline.segmentIndex(ofFrame: 17) == 2 && timeline.segmentIndex(ofFrame: 18) == 3)
    guard case .transition(3, let time) = timeline.content(ofFrame: 18) else {
      Issue.record("frame 18: \(timeline.content(ofFrame: 18))")
      return
    }
    #expect(time == 0)
    #expect(timeline.touchLocation(segment: 3, clock: timeline.clock(ofFrame: 18, segment: 3)) == Point(x: 5, y: 5))
  }

  /// The segment of each frame is the first that ends after it (to a
  /// millionth of a frame): zero-length holds are never a frame's, and the
  /// search gives the linear scan's answer on timelines of many steps.
  @Test func eachFrameFallsInTheFirstSegmentEndingAfterIt() {
    var spec = Self.spec(fps: 30)
    var holds: [Double] = []
    for i in 0..<600 { holds.append([0, 0.1, 0, 0.2, 1.0 / 30, 0.05][i % 6]) }
    spec.timeline = holds.map { .hold(seconds: $0, location: Self.here) }
    let timeline = Timeline(spec: spec)
    let tolerance = 1.0 / 30 / 1_000_000
    var mismatches: [Int] = []
    for n in 0..<(timeline.frameCount + 3) {
      let t = Double(n) / 30
      let linear = timeline.segments.firstIndex { t < $0.start + $0.duration - tolerance } ?? timeline.segments.count - 1
      if timeline.segmentIndex(ofFrame: n) != linear { mismatches.append(n) }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    #expect(timeline.segments[timeline.segmentIndex(ofFrame: 5)].duration > 0)
  }

  /// Steps summing to a half frame in decimal give the count one step of
  /// that length does, though their binary sum falls a hair under it.
  @Test func aSumOfStepsCountsAsItsDecimalLength() {
    func frames(_ holds: [Double]) -> Int {
      var spec = Self.spec(fps: 15)
      spec.timeline = holds.map { .hold(seconds: $0, location: Self.here) }
      return Timeline(spec: spec).frameCount
    }
    let sum: Double = [0.5, 0.5, 0.8, 0.5, 0.4].reduce(0, +)
    #expect(sum < 2.7)
    #expect(frames([2.7]) == 41 && frames([0.5, 0.5, 0.8, 0.5, 0.4]) == 41)
    #expect(frames([0.1, 0.2]) == frames([0.3]))
  }

  @Test func frameNShowsTimeNOverFPS() {
    let timeline = Timeline(spec: Self.spec())
    guard case .still(let s0) = timeline.content(ofFrame: 0) else {
      Issue.record("frame 0 should be still")
      return
    }
    #expect(s0 == "a")
    // Frame 30 is t = 0.5: the push's first frame, at its time 0.
    guard case .transition(let segment, let time) = timeline.content(ofFrame: 30) else {
      Issue.record("frame 30 should be in the push")
      return
    }
    #expect(segment == 1 && abs(time) < 1e-12)
    // Frame 51 is t = 0.85: 0.35 s into the push.
    if case .transition(_, let t) = timeline.content(ofFrame: 51) {
      #expect(abs(t - 0.35) < 1e-9)
    } else {
      Issue.record("frame 51 should be in the push")
    }
    // Frame 72 is t = 1.2: the hold after the push shows b.
    if case .still(let s) = timeline.content(ofFrame: 72) {
      #expect(s == "b")
    } else {
      Issue.record("frame 72 should be still")
    }
  }

  @Test func initialScreenIsTheFirstPushSource() {
    #expect(Self.spec().initialScreen == "a")
  }

  /// Two steps that each wait 0.3 s before 0.5 s of animation: 2.0 s in all.
  static let delayed = """
    name: d
    canvas: { size: 40x60, scale: 1, fps: 30 }
    screens:
      a: { background: "#FFFFFF" }
      b: { background: "#FF0000" }
    timeline:
      - hold: 0.2
      - push: { from: a, to: b, transition: circle-spread, duration: 0.5, delay: 0.3 }
      - hold: 0.2
      - pop: { duration: 0.5, delay: 0.3 }
    """

  /// A step's delay is part of its segment: 0.2 + 0.8 + 0.2 + 0.8 s.
  @Test func delaysAreInTheTimeline() throws {
    let timeline = Timeline(spec: try JobParser.parse(Self.delayed, file: "d.cfg"))
    #expect(abs(timeline.duration - 2.0) < 1e-12)
    #expect(timeline.frameCount == 60)
    #expect(abs(timeline.segments[1].duration - 0.8) < 1e-12)
    #expect(timeline.segments[1].transition?.delay == 0.3)
  }

  /// The parser's length check counts the frames the renderer draws, delays
  /// included.
  @Test func theFrameLimitCountsDelays() throws {
    #expect(throws: Diagnostic(
      SourceLocation(file: "d.cfg", line: 6, column: 1),
      "timeline: 60 frames (2 s at 30 fps); at most 59 frames per job (raise the limit with --max-frames)")) {
      try JobParser.parse(Self.delayed, file: "d.cfg", limits: JobLimits(maxFrames: 59))
    }
    #expect(try JobParser.parse(Self.delayed, file: "d.cfg", limits: JobLimits(maxFrames: 60)).name == "d")
  }

  /// The length in the message is what the steps add up to, to the
  /// microsecond: 600 holds of 0.02 s are 12 s (their floating-point sum is
  /// 11.999999999999833).
  @Test func theFrameLimitSaysTheLengthTheStepsAddUpTo() throws {
    let holds = Array(repeating: "  - hold: 0.02", count: 600).joined(separator: "\n")
    let job = """
      name: h
      canvas: { size: 100x100, fps: 60 }
      screens: { a: { views: [] } }
      timeline:
      \(holds)

      """
    let timeline = Timeline(spec: try JobParser.parse(job, file: "h.cfg"))
    #expect(timeline.duration != 12 && abs(timeline.duration - 12) < 1e-9)
    #expect(throws: Diagnostic(
      SourceLocation(file: "h.cfg", line: 4, column: 1),
      "timeline: 720 frames (12 s at 60 fps); at most 100 frames per job (raise the limit with --max-frames)")) {
      try JobParser.parse(job, file: "h.cfg", limits: JobLimits(maxFrames: 100))
    }
  }
}
