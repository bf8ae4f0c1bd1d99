#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// UIKit's ways of describing a spring, all mapped onto CASpringAnimation's
// mass/stiffness/damping (TIMING.md §2–3).

extension Spring {
  /// The spring of `UIView.animate(withDuration:delay:usingSpringWithDamping:
  /// initialSpringVelocity:)` and `UISpringTimingParameters(dampingRatio:
  /// initialVelocity:)` for an animation of `duration` seconds.
  ///
  /// UIKit's `parametersOfSpringAnimation` (reverse-engineered, not
  /// documented): mass 1; the ratio is clamped to FLT_EPSILON…1 (ratios above
  /// 1 act as 1) and the duration to 0.01…10 s; ω is chosen so that the
  /// oscillation envelope at t = duration is ε = 0.001, by exactly 12 Newton
  /// steps from ω = 5/duration; then stiffness = ω², damping = 2ζω. Here the
  /// steps use `exp` in double precision, which lands within 1e-7 relative of
  /// UIKit's single-precision `expf`. Where UIKit's iteration has no root to
  /// find (ratios below ~0.01 without velocity) ω falls back to 5/duration.
  ///
  /// The envelope ignores the cosine term, so at t = duration the progress
  /// can still be ~3e-3 away from 1; the animation then snaps to 1
  /// (`AnimationCurve.progress(atTime:duration:)` does that). The spring keeps
  /// `duration` for that purpose.
  ///
  /// - Parameters:
  ///   - duration: The animation's duration in seconds.
  ///   - dampingRatio: UIKit's `usingSpringWithDamping` (a ratio, not CA's coefficient).
  ///   - initialVelocity: UIKit's `initialSpringVelocity`: 1 is the whole
  ///     animation distance in one second.
  public init(duration: Double, dampingRatio: Double, initialVelocity: Double = 0) {
    let zeta = Swift.min(Swift.max(dampingRatio, Double(Float.ulpOfOne)), 1)
    let omega = Spring.uikitNaturalFrequency(
      duration: duration, dampingRatio: zeta, initialVelocity: initialVelocity)
    self.init(
      mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega,
      initialVelocity: initialVelocity, allowsOverdamping: false, duration: duration)
  }

  /// The ω of UIKit's envelope rule: 12 Newton steps on f(ω) = 0 with the
  /// exact f'(ω), for a ratio already clamped to FLT_EPSILON…1.
  @usableFromInline static func uikitNaturalFrequency(
    duration: Double, dampingRatio zeta: Double, initialVelocity v: Double
  ) -> Double {
    let epsilon = 0.001
    let time = Swift.min(Swift.max(duration, 0.01), 10)
    var omega = 5 / time
    if zeta >= 1 {
      // f(ω) = ∓ε + ((ω − v)T + 1)·e^(−ωT), −ε when ω ≥ v.
      for _ in 0..<12 {
        let d = omega - v
        let e = exp(-time * omega)
        let f = (d < 0 ? epsilon : -epsilon) + (d * time + 1) * e
        let slope = time * time * (v - omega) * e
        omega -= f / slope
      }
    } else {
      // f(ω) = ε − |h(ω)|, h(ω) = (ζω − v)/(√(1−ζ²)·ω) · e^(−ζωT).
      let s = (1 - zeta * zeta).squareRoot()
      for _ in 0..<12 {
        let e = exp(-time * zeta * omega)
        let h = (zeta * omega - v) / (s * omega) * e
        let f = epsilon - abs(h)
        // h'(ω) = e/(sω²)·(v + vζTω − ζ²Tω²); f' = −sign(h)·h'.
        let a = v + v * time * zeta * omega - time * zeta * zeta * omega * omega
        let derivative = e * a / (s * omega * omega)
        let slope = h <= 0 ? derivative : -derivative
        omega -= f / slope
      }
    }
    // Very small ratios (ζ/√(1−ζ²) < ε with no velocity) have no root, and a
    // flat f' can throw Newton out; UIKit would hand CA garbage. Fall back to
    // the starting point, which keeps the spring finite and stiff.
    return omega.isFinite && omega > 0 ? omega : 5 / time
  }

  /// The spring of `UISpringTimingParameters(dampingRatio:response:)`
  /// (SwiftUI `spring(response:dampingFraction:)`): mass 1, stiffness
  /// (2π/response)², damping 4πζ/response. Overdamping follows CA's default
  /// (a ratio above 1 acts as 1) unless `allowsOverdamping` is true.
  public init(
    response: Double, dampingRatio: Double, initialVelocity: Double = 0,
    allowsOverdamping: Bool = false
  ) {
    self.init(
      response: response, dampingRatio: dampingRatio, initialVelocity: initialVelocity,
      allowsOverdamping: allowsOverdamping, perceptualDuration: nil)
  }

  init(
    response: Double, dampingRatio: Double, initialVelocity: Double, allowsOverdamping: Bool,
    perceptualDuration: Double?
  ) {
    let omega = 2 * Double.pi / response
    self.init(
      mass: 1, stiffness: omega * omega, damping: 4 * Double.pi * dampingRatio / response,
      initialVelocity: initialVelocity, allowsOverdamping: allowsOverdamping, duration: nil,
      perceptualDuration: perceptualDuration)
  }

  /// The iOS 17 spring `UISpringTimingParameters(duration:bounce:)`
  /// (SwiftUI `Spring(duration:bounce:)`): the ratio is 1 − bounce for
  /// bounce ≥ 0 and 1/(1 + bounce) below, `response` is the duration, and
  /// overdamping is allowed. The spring keeps `duration` as its
  /// `perceptualDuration`: Apple documents it as the spring's pace, "approximately
  /// equal to the settling duration", so an animation on it lasts until it
  /// settles (`settlingDuration`), not a length given elsewhere.
  ///
  /// - Precondition: bounce > −1.
  public init(duration: Double, bounce: Double, initialVelocity: Double = 0) {
    precondition(bounce > -1, "bounce must be greater than -1")
    let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    self.init(
      response: duration, dampingRatio: ratio, initialVelocity: initialVelocity,
      allowsOverdamping: true, perceptualDuration: duration)
  }

  /// The iOS 17 bounce of this spring: 1 − ζ for ζ ≤ 1, else 1/ζ − 1.
  public var bounce: Double {
    let ratio = dampingRatio
    return ratio <= 1 ? 1 - ratio : 1 / ratio - 1
  }

  /// UIKit's default system spring, "curve 7" (`UISpringTimingParameters()`,
  /// navigation pushes, the keyboard): mass 3, stiffness 1000, damping 500.
  ///
  /// Its ratio is 4.56, so under CA's default it runs as critical damping at
  /// ω0 = √(1000/3) and is at rest after about 0.5 s.
  public static let system = Spring(mass: 3, stiffness: 1000, damping: 500)
}
