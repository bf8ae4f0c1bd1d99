import Geometry
import Motion
import Transitions

/// A job's timeline laid out in time: consecutive segments, each either a
/// still screen or one transition, and the rule that frame `n` shows the
/// state at `n / fps` seconds.
///
/// There is one schedule per job, `Timeline(spec:)`: the parser checks the
/// job's length against the limits with it, `transvid plan` and the batch
/// count its frames with it, and the renderer draws the transitions it
/// configured. So the frames checked, planned and written are the same. It
/// lives here, beside the parser, because the length check needs it before
/// anything is rendered; it is a pure function of the spec and the catalog.
public struct Timeline: Sendable {
  /// What one segment shows.
  public enum Content: Sendable {
    /// A still screen (a `hold`, or a screen with nothing happening).
    case still(screen: String)
    /// A transition between two screens; `step` indexes `JobSpec.timeline`.
    case transition(step: Int, TransitionStep)
  }

  /// One stretch of the video.
  public struct Segment: Sendable {
    public var start: Double
    /// Wall-clock length: the animation's, or the gesture's tracking plus
    /// its completion.
    public var duration: Double
    public var content: Content
    /// The finger driving a transition segment, if any.
    public var track: InteractiveTransitionTrack?
    /// The configured transition a transition segment plays (nil for stills).
    public var transition: (any Transition)?
  }

  /// What a single frame shows.
  public enum FrameContent: Sendable {
    case still(screen: String)
    /// `time` seconds into the transition's animation (its own clock, after
    /// any gesture has moved it) in segment `segment`.
    case transition(segment: Int, time: Double)
  }

  public let segments: [Segment]
  public let fps: Int
  /// The exact rate (`fps`, or fps × 1000/1001): frame n is at `frameRate.time(ofFrame: n)`.
  public let frameRate: FrameRate
  /// The total length in seconds.
  public let duration: Double

  /// Lays out `spec.timeline` with each step's transition configured from
  /// `transitions` (the catalog; the parser passes its own list): a step runs
  /// for the transition's delay plus its animation (its own clock), a gesture
  /// then sets the segment's wall-clock length, and `slowmo` stretches it.
  public init(spec: JobSpec, transitions: [TransitionDescriptor] = Catalog.all) {
    var segments: [Segment] = []
    var time = 0.0
    var current = spec.initialScreen
    for (index, step) in spec.timeline.enumerated() {
      switch step {
      case .hold(let seconds, _):
        segments.append(Segment(start: time, duration: seconds, content: .still(screen: current)))
        time += seconds
      case .transition(let t):
        // The parser has checked the name against `transitions`.
        let transition = transitions.first { $0.name == t.transition }?.make(t.parameters)
        let d = transition?.totalDuration ?? 0
        let track = t.gesture?.track(duration: d)
        let wall = (track?.totalDuration ?? d) * t.slowmo
        segments.append(
          Segment(
            start: time, duration: wall, content: .transition(step: index, t), track: track, transition: transition))
        time += wall
        current = t.finalScreen
      }
    }
    self.segments = segments
    self.fps = spec.canvas.fps
    self.frameRate = spec.canvas.frameRate
    self.duration = time
  }

  /// The number of frames: the timeline's length × fps, rounded (half up).
  /// The product is first taken to a millionth of a frame, so that steps
  /// whose sum is a half frame in decimal (0.5 + 0.5 + 0.8 + 0.5 + 0.4 s at
  /// 15 fps: 40.5, as `hold: 2.7` is) give the same count though their
  /// binary sum falls a hair under it.
  public var frameCount: Int {
    let frames = duration * Double(frameRate.frames) / Double(frameRate.seconds)
    return Int(((frames * 1_000_000).rounded() / 1_000_000).rounded())
  }

  /// Where the touch indicator of a segment's step shows at `clock` seconds
  /// of the step's own time (after slow motion), or nil when it does not.
  /// A tap shows for `tapDuration`; a gesture's finger follows it while it
  /// tracks and lifts at release.
  public func touchLocation(segment index: Int, clock: Double) -> Point? {
    guard case .transition(_, let step) = segments[index].content, let point = step.touch else { return nil }
    if let track = segments[index].track {
      guard clock <= track.trackingDuration else { return nil }
      let p = track.percentComplete(atTime: clock)
      let travel = step.gesture?.travel ?? .zero
      return Point(x: point.x + travel.width * p, y: point.y + travel.height * p)
    }
    return clock < Self.tapDuration ? point : nil
  }

  /// How long a tap's touch indicator shows, in the step's own seconds.
  public static let tapDuration = 0.2

  /// The tap of an earlier step still down at frame `n`: a step shorter
  /// than `tapDuration` (in its own seconds) ends before its finger lifts,
  /// and the segments after it show the touch for the rest of that time,
  /// as a screen recording shows a 0.2 s tap whatever follows it. Returns
  /// the tapped step's segment and the touch's point in that step's space;
  /// nil when no earlier tap is down (the frame's own step draws its own
  /// touch, `touchLocation`).
  public func carriedTap(ofFrame n: Int) -> (segment: Int, point: Point)? {
    let t = frameRate.time(ofFrame: n)
    var index = segmentIndex(ofFrame: n)
    if case .transition(_, let step) = segments[index].content, step.touch != nil,
      touchLocation(segment: index, clock: clock(ofFrame: n, segment: index)) != nil
    {
      return nil
    }
    // Segments start no later going back; none started more than a tap at
    // the slowest slow motion (20×) ago can still be down.
    while index > 0, t - segments[index - 1].start < Self.tapDuration * 20 {
      index -= 1
      let s = segments[index]
      guard case .transition(_, let step) = s.content, let point = step.touch, s.track == nil else { continue }
      // To a millionth of a frame, as segments end: a tap's 0.2 s ends on the frame at 0.2 s.
      if (t - s.start) / step.slowmo < Self.tapDuration - frameTolerance / step.slowmo { return (index, point) }
    }
    return nil
  }

  /// The step's own clock at frame `n` (wall time in its segment ÷ slowmo).
  public func clock(ofFrame n: Int, segment index: Int) -> Double {
    let s = segments[index]
    let slowmo: Double
    if case .transition(_, let step) = s.content { slowmo = step.slowmo } else { slowmo = 1 }
    return Swift.max(0, Swift.min(frameRate.time(ofFrame: n) - s.start, s.duration)) / slowmo
  }

  /// The screen on display at the end.
  public var finalScreen: String? {
    guard let last = segments.last else { return nil }
    switch last.content {
    case .still(let s): return s
    case .transition(_, let t): return t.finalScreen
    }
  }

  /// A millionth of a frame, in seconds: how near a frame's time must be
  /// to a segment's end or an animation's begin time to be on it.
  var frameTolerance: Double { Double(frameRate.seconds) / Double(frameRate.frames) / 1_000_000 }

  /// The segment frame `n` falls in (the last one for frames past the end).
  /// A segment's end is taken to a millionth of a frame, as `frameCount`
  /// takes the length: steps of 0.2 + 0.2 + 0.2 s end a hair past 0.6 in
  /// binary, and the frame at 0.6 s is the next step's first.
  public func segmentIndex(ofFrame n: Int) -> Int {
    let t = frameRate.time(ofFrame: n)
    let tolerance = frameTolerance
    // The first segment ending after t: ends never decrease, so a binary
    // search (a timeline may hold many thousands of zero-length holds).
    var low = 0, high = segments.count
    while low < high {
      let mid = (low + high) / 2
      let s = segments[mid]
      if t < s.start + s.duration - tolerance { high = mid } else { low = mid + 1 }
    }
    return Swift.min(low, segments.count - 1)
  }

  /// What frame `n` shows: the state at `n / fps` seconds.
  public func content(ofFrame n: Int) -> FrameContent {
    let t = frameRate.time(ofFrame: n)
    let index = segmentIndex(ofFrame: n)
    let s = segments[index]
    switch s.content {
    case .still(let screen): return .still(screen: screen)
    case .transition(_, let step):
      // The step's own clock: wall time, slowed down, through any gesture.
      var clock = Swift.max(0, Swift.min(t - s.start, s.duration)) / step.slowmo
      // A frame on the animation's begin time, to a millionth of a frame as
      // segments end: 0.7 − 0.5 s falls a hair under a 0.2 s delay in binary.
      if let delay = s.transition?.delay, abs(clock - delay) <= frameTolerance / step.slowmo { clock = delay }
      guard let track = s.track else { return .transition(segment: index, time: clock) }
      if let transition = s.transition, let curve = transition.valueCurve,
        let time = Self.completionTime(track, at: clock, curve: curve, delay: transition.delay)
      {
        return .transition(segment: index, time: time)
      }
      return .transition(segment: index, time: track.fraction(atTime: clock) * track.duration)
    }
  }

  /// After a gesture lets go, the step's time at which its one `curve`
  /// (after `delay`) shows the value UIKit gives it: from the value at
  /// release, v_now, to the end (1, or 0 when cancelled) along the
  /// completion curve, v_now + (v_end − v_now)·C(τ/T_rem) (TIMING.md §5),
  /// found by bisection on the curve. Nil while the finger tracks (the
  /// clock is the finger's, `fraction`), or when the curve is not
  /// monotone from 0 to 1 (an overshoot reaches a value twice): the clock
  /// then runs to the end along the completion curve instead.
  static func completionTime(
    _ track: InteractiveTransitionTrack, at clock: Double, curve: AnimationCurve, delay: Double
  ) -> Double? {
    let duration = track.duration - delay
    guard clock > track.trackingDuration, duration > 0 else { return nil }
    let samples = (0...64).map { curve.progress(atTime: duration * Double($0) / 64, duration: duration) }
    guard samples.first == 0, samples.last == 1, zip(samples, samples.dropFirst()).allSatisfy({ $0 <= $1 }) else {
      return nil
    }
    let released = track.percentCompleteAtRelease * track.duration
    let now = released <= delay ? 0 : curve.progress(atTime: released - delay, duration: duration)
    let end: Double = track.release == .finish ? 1 : 0
    let value = now + (end - now) * track.completionProgress(atTime: clock)
    if value <= 0 { return track.release == .finish ? released : 0 }
    if value >= 1 { return track.duration }
    var low = 0.0, high = duration
    for _ in 0..<52 {
      let mid = (low + high) / 2
      if curve.progress(atTime: mid, duration: duration) < value { low = mid } else { high = mid }
    }
    return delay + high
  }
}

extension JobSpec {
  /// The screen on display when the video starts: the first push's `from`,
  /// or the first screen declared.
  public var initialScreen: String {
    for step in timeline {
      if case .transition(let t) = step { return t.from }
    }
    return screens.first?.name ?? ""
  }
}
