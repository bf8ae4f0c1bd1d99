/// A gesture-driven transition, as UIPercentDrivenInteractiveTransition runs
/// it: the finger scrubs the animation, then the rest plays out (TIMING.md §5).
///
/// **Tracking.** The gesture is a list of `percentComplete` samples, evenly
/// spaced `sampleInterval` seconds apart and joined linearly; it lasts
/// `trackingDuration` = (count − 1)·`sampleInterval`. Meanwhile the layer
/// runs at speed 0 with `timeOffset = percentComplete·duration`: the finger
/// moves the animation's *time*, so the animation's own curve still applies.
///
/// **Release.** At the last sample the transition finishes if told to, or by
/// default if the last sample is past 0.5 (`finishInteractiveTransition`);
/// otherwise it cancels and plays back to the start. The rest takes
/// (1 − p)·duration/completionSpeed to finish or p·duration/completionSpeed
/// to cancel, and is re-timed by `completionCurve`:
/// value(τ) = v_now + (v_end − v_now)·C(τ/T_rem).
///
/// The documented default completion curve is `.easeInEaseOut`; recent UIKit
/// builds use the system spring ("curve 7", pass `.systemSpring`). UIKit
/// plays the rest as an animation of the (1 − p)·duration (or p·duration)
/// left, on a layer whose `speed` is `completionSpeed`, and Core Animation
/// evaluates a spring in that layer's time, τ·completionSpeed (TIMING.md §2):
/// a spring completion curve runs `completionSpeed` times faster, not cut
/// short, and snaps at T_rem, where the layer's time reaches the rest's
/// duration. A timing function sees only τ/T_rem, the same either way.
///
/// Times are wall-clock seconds from the moment the finger starts tracking.
public struct InteractiveTransitionTrack: Hashable, Sendable {
  /// What happens when the finger lifts.
  public enum Release: Hashable, Sendable {
    /// Play the rest forward (`finishInteractiveTransition()`).
    case finish
    /// Play back to the start (`cancelInteractiveTransition()`).
    case cancel
  }

  /// The default spacing of gesture samples: 1/6 s, ten frames at 60 fps.
  public static let defaultSampleInterval = 1.0 / 6

  /// The non-interactive duration of the transition's animation.
  public let duration: Double
  /// The finger's `percentComplete` samples, clamped to 0…1.
  public let percentCompleteSamples: [Double]
  /// The time between two samples, in seconds.
  public let sampleInterval: Double
  /// How the transition ends: given, or decided by the last sample.
  public let release: Release
  /// The speed factor of the completion (`completionSpeed`, default 1).
  public let completionSpeed: Double
  /// The curve that re-times the completion (`completionCurve`).
  public let completionCurve: AnimationCurve

  /// A gesture over a transition of `duration` seconds.
  ///
  /// - Parameters:
  ///   - duration: The transition's non-interactive duration.
  ///   - percentComplete: The finger's progress samples (`[0, 0.3, 0.45]`);
  ///     an empty list is a gesture that never moves (`[0]`).
  ///   - sampleInterval: Seconds between samples.
  ///   - release: `.finish` or `.cancel`; nil decides by the last sample > 0.5.
  ///   - completionSpeed: UIKit's `completionSpeed`; must be positive.
  ///   - completionCurve: UIKit's `completionCurve`.
  public init(
    duration: Double, percentComplete: [Double],
    sampleInterval: Double = InteractiveTransitionTrack.defaultSampleInterval,
    release: Release? = nil, completionSpeed: Double = 1,
    completionCurve: AnimationCurve = .easeInEaseOut
  ) {
    precondition(completionSpeed > 0, "completionSpeed must be positive")
    self.duration = duration
    let samples = percentComplete.map { Swift.min(Swift.max($0, 0), 1) }
    self.percentCompleteSamples = samples.isEmpty ? [0] : samples
    self.sampleInterval = sampleInterval
    let last = self.percentCompleteSamples[self.percentCompleteSamples.count - 1]
    self.release = release ?? (last > 0.5 ? .finish : .cancel)
    self.completionSpeed = completionSpeed
    self.completionCurve = completionCurve
  }

  /// A gesture whose completion curve may be UIKit's spring form without a
  /// duration of its own, made for the rest (`restDuration`) as UIKit makes it.
  public init(
    duration: Double, percentComplete: [Double],
    sampleInterval: Double = InteractiveTransitionTrack.defaultSampleInterval,
    release: Release? = nil, completionSpeed: Double = 1,
    completionCurve: CompletionCurve
  ) {
    let rest = InteractiveTransitionTrack(
      duration: duration, percentComplete: percentComplete, release: release, completionCurve: .easeInEaseOut
    ).restDuration
    self.init(
      duration: duration, percentComplete: percentComplete, sampleInterval: sampleInterval, release: release,
      completionSpeed: completionSpeed, completionCurve: completionCurve.curve(restDuration: rest))
  }

  // MARK: - UINavigationController's edge swipe

  /// How UINavigationController's interactive pop (`_UINavigationInteractiveTransitionBase`,
  /// UIKIT.md §1) ends a gesture given as `percentComplete` samples `interval`
  /// seconds apart over a transition of `duration` D, on a screen `width`
  /// points wide (p = translation / W, so velocities are in widths a second):
  /// with three velocity samples or more it finishes iff p + v̄·D + ½·ā·D² >
  /// min(187.5 / W, 0.5), v̄ and ā the means of the last three velocities and
  /// accelerations; with fewer, iff v̄ > 0. UIKit limits each acceleration's
  /// jump from the one before (from 0) to ±5, so a sustained one builds up,
  /// 5, 10, 15 …, rather than stopping at ±5.
  /// Also returns the finger's velocity as it lifts, the last sample's, for
  /// `navigationCompletionSpeed`: UIKit decides by the means but plays the
  /// rest at its last velocity (`_previousVelocity`), so a finger that slows
  /// before it lifts lets the rest play slowly too.
  public static func navigationRelease(
    percentComplete samples: [Double], interval: Double, duration: Double, width: Double
  ) -> (release: Release, velocity: Double) {
    let p = samples.last ?? 0
    let velocities = interval > 0 ? zip(samples.dropFirst(), samples).map { ($0 - $1) / interval } : []
    var accelerations: [Double] = []
    for (next, previous) in zip(velocities.dropFirst(), velocities) {
      let before = accelerations.last ?? 0
      accelerations.append(Swift.min(Swift.max((next - previous) / interval, before - 5), before + 5))
    }
    func mean(_ values: ArraySlice<Double>) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
    let v = mean(velocities.suffix(3)), a = mean(accelerations.suffix(3))
    let finishes =
      velocities.count >= 3 ? p + v * duration + a * duration * duration / 2 > Swift.min(187.5 / width, 0.5) : v > 0
    return (finishes ? .finish : .cancel, velocities.last ?? 0)
  }

  /// UINavigationController's completion speed: max(r, D·|v|), r = 1 − p
  /// to finish or p to cancel and v the finger's velocity as it lifts, so
  /// the rest takes min(D, r/|v|) seconds, the finger's own speed (UIKIT.md §1).
  public static func navigationCompletionSpeed(
    release: Release, percentComplete p: Double, velocity: Double, duration: Double
  ) -> Double {
    Swift.max(release == .finish ? 1 - p : p, duration * abs(velocity))
  }

  // MARK: - Phases

  /// How long the finger tracks, from the first sample to the last.
  public var trackingDuration: Double {
    Double(percentCompleteSamples.count - 1) * sampleInterval
  }

  /// `percentComplete` when the finger lifts.
  public var percentCompleteAtRelease: Double {
    percentCompleteSamples[percentCompleteSamples.count - 1]
  }

  /// Whether the transition ends cancelled (`transitionWasCancelled`).
  public var isCancelled: Bool { release == .cancel }

  /// The completion's length in the animation's own time: (1 − p)·duration
  /// when finishing, p·duration when cancelling; it plays on a layer whose
  /// speed is `completionSpeed`.
  public var restDuration: Double {
    let p = percentCompleteAtRelease
    return (release == .finish ? 1 - p : p) * duration
  }

  /// The wall time the completion takes: (1 − p)·duration/completionSpeed
  /// when finishing, p·duration/completionSpeed when cancelling.
  public var remainingDuration: Double { restDuration / completionSpeed }

  /// The wall time from the first touch to the end of the completion.
  public var totalDuration: Double { trackingDuration + remainingDuration }

  // MARK: - Evaluation

  /// The finger's `percentComplete` at wall time `t`: the samples joined
  /// linearly while tracking, the release value afterwards.
  public func percentComplete(atTime t: Double) -> Double {
    guard t > 0, sampleInterval > 0 else { return percentCompleteSamples[0] }
    let position = t / sampleInterval
    let index = Int(position.rounded(.down))
    if index >= percentCompleteSamples.count - 1 { return percentCompleteAtRelease }
    let a = percentCompleteSamples[index], b = percentCompleteSamples[index + 1]
    return a.interpolated(to: b, fraction: position - Double(index))
  }

  /// The layer's `timeOffset` while tracking: percentComplete·duration.
  public func timeOffset(atTime t: Double) -> Double {
    percentComplete(atTime: t) * duration
  }

  /// The completion curve's progress at wall time `t`: 0 until release, then
  /// C(τ/T_rem) with τ = t − trackingDuration, 1 from the end on. The curve
  /// runs in layer time, τ·completionSpeed, over T_rem·completionSpeed (the
  /// time the rest has left), so a spring plays faster, not truncated.
  public func completionProgress(atTime t: Double) -> Double {
    let elapsed = t - trackingDuration
    if elapsed <= 0 { return 0 }
    return completionCurve.progress(
      atTime: elapsed * completionSpeed, duration: remainingDuration * completionSpeed)
  }

  /// The animation's time as a fraction of `duration` at wall time `t`:
  /// `percentComplete` while tracking, then from the release value to 1
  /// (finish) or 0 (cancel) along the completion curve.
  ///
  /// Feed this to transitions that hold several curves of their own (keyframe
  /// chains): it moves their clock, and each keeps its curve. For a single
  /// animation with one curve, `progress(atTime:curve:)` gives UIKit's value.
  public func fraction(atTime t: Double) -> Double {
    let p = percentComplete(atTime: t)
    guard t > trackingDuration else { return p }
    let end: Double = release == .finish ? 1 : 0
    return p.interpolated(to: end, fraction: completionProgress(atTime: t))
  }

  /// The animated value's progress at wall time `t` for an animation that
  /// runs along `curve` over `duration`:
  /// curve(percentComplete·duration) while tracking; afterwards
  /// v_now + (v_end − v_now)·C(τ/T_rem), with v_end = 1 (finish) or 0 (cancel).
  public func progress(atTime t: Double, curve: AnimationCurve) -> Double {
    let p = percentComplete(atTime: t)
    let now = curve.progress(atTime: p * duration, duration: duration)
    guard t > trackingDuration else { return now }
    let end: Double = release == .finish ? 1 : 0
    return now.interpolated(to: end, fraction: completionProgress(atTime: t))
  }
}
