// Motion: the clocks that drive every transition.
//
// A transition's progress goes through one of three clocks, as on iOS:
// a CAMediaTimingFunction (a cubic Bézier from (0,0) to (1,1)), a spring
// (CASpringAnimation, or UIKit's duration/damping form mapped onto it), or a
// finger (UIPercentDrivenInteractiveTransition). Everything here is a pure
// function of time, solved in closed form or to full precision; nothing steps.

/// A CAMediaTimingFunction: a cubic Bézier curve from (0, 0) to (1, 1) with
/// control points (x1, y1) and (x2, y2), mapping elapsed fraction to progress.
///
/// `value(at:)` solves x(t) = input for the curve parameter t and returns
/// y(t), as WebKit's `UnitBezier` does, to ~1e-12.
@frozen public struct TimingFunction: Hashable, Sendable {
  public let x1: Double, y1: Double, x2: Double, y2: Double
  @usableFromInline let cx: Double, bx: Double, ax: Double
  @usableFromInline let cy: Double, by: Double, ay: Double

  /// The curve with control points (x1, y1), (x2, y2);
  /// `x1` and `x2` must lie in 0…1 so that the curve is a function of x.
  public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
    cx = 3 * x1
    bx = 3 * (x2 - x1) - cx
    ax = 1 - cx - bx
    cy = 3 * y1
    by = 3 * (y2 - y1) - cy
    ay = 1 - cy - by
  }

  /// `kCAMediaTimingFunctionLinear`.
  public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
  /// `kCAMediaTimingFunctionEaseIn`.
  public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
  /// `kCAMediaTimingFunctionEaseOut`.
  public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
  /// `kCAMediaTimingFunctionEaseInEaseOut`, UIView's default curve.
  public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
  /// `kCAMediaTimingFunctionDefault`.
  public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

  @inlinable func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
  @inlinable func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
  @inlinable func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

  /// The curve parameter t with x(t) = x, for x in 0…1.
  @inlinable func solveCurveX(_ x: Double) -> Double {
    // Newton from t = x, then bisection in [0, 1] to full precision.
    var t = x
    for _ in 0..<8 {
      let error = sampleX(t) - x
      if abs(error) < 1e-14 { return t }
      let d = sampleDerivativeX(t)
      if abs(d) < 1e-7 { break }
      t -= error / d
    }
    var lo = 0.0, hi = 1.0
    t = x
    while hi - lo > 1e-15 {
      let v = sampleX(t)
      if abs(v - x) < 1e-14 { return t }
      if v < x { lo = t } else { hi = t }
      t = (lo + hi) / 2
    }
    return t
  }

  /// Progress at elapsed fraction `x`; clamped to the curve's ends outside 0…1.
  @inlinable public func value(at x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    return sampleY(solveCurveX(x))
  }
}
