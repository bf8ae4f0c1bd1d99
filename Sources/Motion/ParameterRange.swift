// The ranges every number in a curve specification must fall in, in one
// table, so that a spring or Bézier read from text always evaluates to
// finite values (no overflow in ζ², no stiffness that underflows to 0, no
// 3·y1 that overflows) and runs for a time a job can render.
//
// The bounds are far outside anything UIKit or Core Animation code uses
// (the seeds' springs have mass 1, stiffness up to 1000, ratios up to 5,
// velocities up to 2) yet close enough that every derived quantity stays
// a normal double: with mass ≥ 0.001, stiffness ≤ 10⁶ and damping ≤ 10⁶ the
// damping ratio is at most 5·10⁸, so ζ² and the overdamped frequency stay
// finite; with response and duration ≥ 0.001 s, stiffness stays ≥ 4·10⁻⁵.

/// A closed or half-open interval of accepted values with the sentence that
/// states it ("must be in 0…1000000", "must be greater than 0 and at most 1000").
struct ParameterRange: Sendable {
  let lower: Double
  /// Whether `lower` itself is accepted.
  let includesLower: Bool
  let upper: Double

  func contains(_ value: Double) -> Bool {
    (includesLower ? value >= lower : value > lower) && value <= upper
  }

  var requirement: String {
    let low = ParameterRange.format(lower), high = ParameterRange.format(upper)
    return includesLower ? "must be in \(low)…\(high)" : "must be greater than \(low) and at most \(high)"
  }

  /// `1000000`, `0.001`, `-1`.
  static func format(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  static func from(_ lower: Double, to upper: Double) -> ParameterRange {
    ParameterRange(lower: lower, includesLower: true, upper: upper)
  }

  static func above(_ lower: Double, upTo upper: Double) -> ParameterRange {
    ParameterRange(lower: lower, includesLower: false, upper: upper)
  }

  // MARK: - The table

  /// Seconds: a spring's `response` or `duration`.
  static let seconds = from(0.001, to: 1000)
  /// CASpringAnimation `mass`.
  static let mass = from(0.001, to: 1000)
  /// CASpringAnimation `stiffness`.
  static let stiffness = from(0.001, to: 1_000_000)
  /// CASpringAnimation `damping` (the coefficient).
  static let dampingCoefficient = from(0, to: 1_000_000)
  /// A damping ratio where 0 (no damping) is meaningful: the response form.
  static let dampingRatio = from(0, to: 1000)
  /// UIKit's `usingSpringWithDamping`, which must be positive.
  static let uikitDampingRatio = above(0, upTo: 1000)
  /// iOS 17 `bounce`.
  static let bounce = above(-1, upTo: 1)
  /// Initial velocity in from→to distances per second.
  static let velocity = from(-1000, to: 1000)
  /// A cubic Bézier's x1 and x2: the curve must be a function of time.
  static let bezierX = from(0, to: 1)
  /// A cubic Bézier's y1 and y2: overshoot up to a hundred times the distance.
  static let bezierY = from(-100, to: 100)
}
