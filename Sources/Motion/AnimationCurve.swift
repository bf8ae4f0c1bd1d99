/// How an animation's progress follows time: a timing function or a spring.
///
/// Transitions take an `AnimationCurve` and ask it for progress at a time
/// within a duration; they never need to know which kind it is.
///
/// - `.timing(f)`: progress is `f.value(at: t / duration)`, clamped to 0…1 of
///   the duration (CABasicAnimation with a CAMediaTimingFunction).
/// - `.spring(s)`: progress is the spring's position at real time `t`, not
///   rescaled to the duration (CASpringAnimation evaluates in layer time).
///   At `t ≥ duration` the animation is over and progress snaps to 1, as
///   the layer falls back to its model value. For UIKit's duration form the
///   duration to pass is the spring's own `duration`, for which the snap
///   closes a gap of up to ~3e-3; for other forms pass `naturalDuration`
///   (the settling duration) or any duration the transition chose, as iOS
///   does for "curve 7" (the system spring run for a transition's duration).
///
/// Before the start (t ≤ 0) progress is 0 for both kinds.
public enum AnimationCurve: Hashable, Sendable {
  /// A CAMediaTimingFunction over the duration.
  case timing(TimingFunction)
  /// A CASpringAnimation in real time, ended at the duration.
  case spring(Spring)

  /// `.timing(.linear)`.
  public static let linear = AnimationCurve.timing(.linear)
  /// `.timing(.easeIn)`.
  public static let easeIn = AnimationCurve.timing(.easeIn)
  /// `.timing(.easeOut)`.
  public static let easeOut = AnimationCurve.timing(.easeOut)
  /// `.timing(.easeInEaseOut)`, UIView's default curve.
  public static let easeInEaseOut = AnimationCurve.timing(.easeInEaseOut)
  /// `.spring(.system)`, UIKit's "curve 7" (navigation and keyboard).
  public static let systemSpring = AnimationCurve.spring(.system)

  /// Progress at time `t` seconds into an animation of `duration` seconds:
  /// 0 at or before the start, exactly 1 at or after the end.
  public func progress(atTime t: Double, duration: Double) -> Double {
    if t >= duration { return 1 }
    if t <= 0 { return 0 }
    switch self {
    case .timing(let function):
      return function.value(at: t / duration)
    case .spring(let spring):
      return spring.position(at: t)
    }
  }

  /// The rate of change of progress at time `t`, in progress per second.
  ///
  /// A timing function gives its slope divided by the duration on 0…duration
  /// (one-sided at the ends) and 0 outside. A spring gives its velocity from
  /// t = 0 (its `initialVelocity`) until the end, and 0 once it has snapped
  /// (t ≥ duration) or before the start.
  public func velocity(atTime t: Double, duration: Double) -> Double {
    switch self {
    case .timing(let function):
      guard duration > 0, t >= 0, t <= duration else { return 0 }
      return function.velocity(at: t / duration) / duration
    case .spring(let spring):
      guard t >= 0, t < duration else { return 0 }
      return spring.velocity(at: t)
    }
  }

  /// The duration to use when none is given: 1 for a timing function (time
  /// is then the elapsed fraction), a spring's own `duration` when its form
  /// fixes one (UIKit's duration/damping), else its `settlingDuration`.
  public var naturalDuration: Double {
    switch self {
    case .timing:
      return 1
    case .spring(let spring):
      return spring.duration ?? spring.settlingDuration
    }
  }
}
