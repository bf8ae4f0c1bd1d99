/// A CAMediaTimingFunction: a cubic Bézier curve from (0, 0) to (1, 1) with
/// control points (x1, y1) and (x2, y2), mapping elapsed fraction to progress.
///
/// `value(at:)` solves x(t) = input for the curve parameter t and returns
/// y(t), as WebKit's `UnitBezier` does, but to full double precision: Newton
/// steps from t = x, then bisection until the bracket is ~1e-15 wide. The
/// result is within ~1e-14 of the golden values (TIMING.md §1 asks for 1e-6).
/// `velocity(at:)` is the slope dy/dx of the same curve.
@frozen public struct TimingFunction: Hashable, Sendable {
  public let x1: Double, y1: Double, x2: Double, y2: Double
  @usableFromInline let cx: Double, bx: Double, ax: Double
  @usableFromInline let cy: Double, by: Double, ay: Double

  /// The curve with control points (x1, y1), (x2, y2).
  ///
  /// `x1` and `x2` are clamped to 0…1 so that the curve is a function of x
  /// (`init(parsing:)` rejects such input with an error instead); `y1` and
  /// `y2` are free, so a curve may overshoot.
  public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    let x1 = Swift.min(Swift.max(x1, 0), 1)
    let x2 = Swift.min(Swift.max(x2, 0), 1)
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

  // MARK: - The polynomials

  @inlinable func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
  @inlinable func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
  @inlinable func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
  @inlinable func sampleDerivativeY(_ t: Double) -> Double { (3 * ay * t + 2 * by) * t + cy }

  /// The curve parameter t with x(t) = x, for x in 0…1.
  ///
  /// x(t) is non-decreasing on 0…1 because x1 and x2 lie in 0…1, so the
  /// bisection fallback always converges; it runs at most 64 halvings.
  @inlinable func solveCurveX(_ x: Double) -> Double {
    // Newton from t = x: quadratic convergence wherever x'(t) is not tiny.
    var t = x
    for _ in 0..<8 {
      let error = sampleX(t) - x
      if abs(error) < 1e-15 { return t }
      let slope = sampleDerivativeX(t)
      if abs(slope) < 1e-7 { break }
      t -= error / slope
      if !(t >= 0 && t <= 1) { break }
    }
    // Bisection on [0, 1]: robust where the curve is nearly flat in x.
    var lo = 0.0, hi = 1.0
    t = x
    for _ in 0..<64 {
      let v = sampleX(t)
      if abs(v - x) < 1e-15 { return t }
      if v < x { lo = t } else { hi = t }
      if hi - lo <= 1e-15 { break }
      t = (lo + hi) / 2
    }
    return t
  }

  // MARK: - Evaluation

  /// Progress at elapsed fraction `x`; clamped to the curve's ends outside 0…1.
  @inlinable public func value(at x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    return sampleY(solveCurveX(x))
  }

  /// The slope dy/dx at elapsed fraction `x`: progress per unit of elapsed
  /// fraction (divide by the duration for progress per second).
  ///
  /// At x = 0 and x = 1 this is the one-sided slope at the end point; outside
  /// 0…1, where `value(at:)` is constant, it is 0. Where the tangent is
  /// vertical (x'(t) = 0 but y'(t) ≠ 0, e.g. `cubic-bezier(0, 1, 1, 1)` at 0)
  /// it is ±infinity.
  @inlinable public func velocity(at x: Double) -> Double {
    if x < 0 || x > 1 { return 0 }
    let t = x == 0 ? 0 : x == 1 ? 1 : solveCurveX(x)
    let dx = sampleDerivativeX(t)
    let dy = sampleDerivativeY(t)
    if abs(dx) > 1e-9 { return dy / dx }
    if abs(dy) > 1e-9 { return dy > 0 ? .infinity : -.infinity }
    // Both derivatives vanish (an end point whose control point coincides
    // with it): the slope is the limit of the ratio of the next derivatives.
    let ddx = 6 * ax * t + 2 * bx
    let ddy = 6 * ay * t + 2 * by
    if abs(ddx) > 1e-9 { return ddy / ddx }
    if abs(ddy) > 1e-9 { return ddy > 0 ? .infinity : -.infinity }
    return ax == 0 ? 0 : ay / ax
  }
}
