/// The curve the rest of a gesture-driven transition plays along once the
/// finger lifts (`completionCurve`, TIMING.md §5).
///
/// UIKit plays the rest as an animation of the time left, (1 − p)·duration
/// to finish or p·duration to cancel, on a layer whose speed is
/// `completionSpeed`, as UIViewPropertyAnimator runs an animation added late
/// for "the remaining time". UIKit's spring form written without a duration
/// of its own, `spring(damping: 0.7, velocity: 0)`
/// (`UISpringTimingParameters(dampingRatio:initialVelocity:)`), is made for
/// that animation as UIView's spring is for any (TIMING.md §3): it settles
/// within the rest. Every other curve is complete in itself.
public struct CompletionCurve: Hashable, Sendable {
  /// The curve, or for UIKit's spring form without a duration, that spring
  /// made for one second (the text is known to be valid).
  let curve: AnimationCurve
  /// UIKit's spring form without a duration, which takes the rest's.
  let springTakingRest: CurveExpression?

  /// A curve complete in itself.
  public init(_ curve: AnimationCurve) {
    self.curve = curve
    self.springTakingRest = nil
  }

  /// The curve a specification names, as `AnimationCurve(parsing:)` reads
  /// it, where UIKit's spring form may leave out its duration.
  ///
  /// - Throws: `MotionParseError` with a message for the user.
  public init(parsing text: String) throws(MotionParseError) {
    let expression = try CurveExpression(parsing: text)
    do throws(MotionParseError) {
      curve = try AnimationCurve.parse(expression, as: .curve)
      springTakingRest = nil
    } catch where error.reason == .incompleteOrMixedForm {
      // Given a duration, UIKit's form missing only its own reads, or says what else is wrong.
      curve = try AnimationCurve.parse(expression, as: .curve, duration: 1)
      springTakingRest = expression
    }
  }

  /// Whether the curve is UIKit's spring form that takes the rest's duration.
  public var takesRestDuration: Bool { springTakingRest != nil }

  /// The curve for a rest of `restDuration` seconds of the animation's own
  /// time, (1 − p)·duration or p·duration.
  public func curve(restDuration: Double) -> AnimationCurve {
    guard let springTakingRest else { return curve }
    // A rest under a millisecond ends before a frame shows; UIKit makes its
    // spring for at least 0.01 s whatever it is given (Spring+UIKit.swift).
    let seconds = Swift.max(restDuration, ParameterRange.seconds.lower)
    return (try? AnimationCurve.parse(springTakingRest, as: .curve, duration: seconds)) ?? curve
  }
}
