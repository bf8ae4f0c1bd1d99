#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A damped spring with CASpringAnimation's semantics, solved in closed form.
///
/// Progress p(t) runs from 0 toward 1 (the value is `from + (to − from)·p`).
/// The displacement x = 1 − p obeys m x'' + c x' + k x = 0 with x(0) = 1 and
/// x'(0) = −v0, where v0 = `initialVelocity` in from→to distances per second,
/// positive toward the target (TIMING.md §2).
///
/// With λ = ζω0 (the decay rate) every regime has the same shape
/// x(t) = C(t) + K·S(t), K = λ − v0, where
/// - ζ < 1: C = e^(−λt) cos ωd t, S = e^(−λt) sin(ωd t)/ωd, ωd = ω0√(1−ζ²);
/// - ζ = 1: C = e^(−λt), S = t·e^(−λt);
/// - ζ > 1: C = e^(−λt) cosh βt, S = e^(−λt) sinh(βt)/β, β = ω0√(ζ²−1),
///   evaluated as ½(e^(r1 t) + e^(r2 t)) and e^(r1 t)·(−expm1(−2βt))/(2β)
///   so that nothing overflows or cancels, even next to ζ = 1.
/// The form is continuous in ζ, so no tolerance band around ζ = 1 is needed.
///
/// As in Core Animation, a ratio ζ > 1 is evaluated as critical damping at ω0
/// (the `damping` value is then ignored) unless `allowsOverdamping` is true.
/// The spring itself never snaps; `AnimationCurve.progress(atTime:duration:)`
/// ends the animation at its duration, as CA does.
public struct Spring: Hashable, Sendable {
  /// The mass of the object attached to the spring (CASpringAnimation `mass`).
  public let mass: Double
  /// The spring stiffness coefficient k (CASpringAnimation `stiffness`).
  public let stiffness: Double
  /// The damping coefficient c (CASpringAnimation `damping`), not the ratio.
  public let damping: Double
  /// The initial velocity, in from→to distances per second; positive values
  /// move toward the target (CASpringAnimation `initialVelocity`).
  public let initialVelocity: Double
  /// Whether a damping ratio above 1 gives a true overdamped curve (iOS 17
  /// `allowsOverdamping`); when false, as by default, it acts as exactly 1.
  public let allowsOverdamping: Bool
  /// The animation's duration when the form that made the spring fixes one
  /// (UIKit's `animate(withDuration:usingSpringWithDamping:…)`), else nil.
  public let duration: Double?
  /// The duration the iOS 17 form was given (`Spring(duration:bounce:)`,
  /// CASpringAnimation's `perceptualDuration`): the spring's pace, which
  /// Apple gives as about its settling duration; nil for the other forms.
  public let perceptualDuration: Double?

  @usableFromInline enum Regime: Hashable, Sendable {
    case underdamped, critical, overdamped
  }

  // The closed form, precomputed: x = C + K·S, see the type's documentation.
  @usableFromInline let regime: Regime
  /// λ = ζ·ω0 with the effective (possibly clamped) ζ.
  @usableFromInline let decay: Double
  /// ωd (underdamped), β (overdamped) or 0 (critical).
  @usableFromInline let frequency: Double
  /// K = λ − v0.
  @usableFromInline let coefficient: Double

  /// A spring from CASpringAnimation's parameters; the defaults are its own
  /// (mass 1, stiffness 100, damping 10, initialVelocity 0).
  ///
  /// - Precondition: `mass` and `stiffness` are positive and `damping` is not
  ///   negative (text input is checked by `init(parsing:)` instead).
  public init(
    mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
    initialVelocity: Double = 0, allowsOverdamping: Bool = false
  ) {
    self.init(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
      allowsOverdamping: allowsOverdamping, duration: nil)
  }

  @usableFromInline init(
    mass: Double, stiffness: Double, damping: Double, initialVelocity: Double,
    allowsOverdamping: Bool, duration: Double?, perceptualDuration: Double? = nil
  ) {
    precondition(mass > 0 && stiffness > 0 && damping >= 0, "invalid spring parameters")
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
    self.initialVelocity = initialVelocity
    self.allowsOverdamping = allowsOverdamping
    self.duration = duration
    self.perceptualDuration = perceptualDuration

    let omega0 = (stiffness / mass).squareRoot()
    let zeta = damping / (2 * (stiffness * mass).squareRoot())
    if zeta < 1 {
      regime = .underdamped
      decay = zeta * omega0
      frequency = omega0 * (1 - zeta * zeta).squareRoot()
    } else if zeta == 1 || !allowsOverdamping {
      regime = .critical
      decay = omega0
      frequency = 0
    } else {
      regime = .overdamped
      decay = zeta * omega0
      frequency = omega0 * (zeta * zeta - 1).squareRoot()
    }
    coefficient = decay - initialVelocity
  }

  // MARK: - Derived parameters

  /// The undamped angular frequency ω0 = √(k/m), in radians per second.
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

  /// The damping ratio ζ = c / (2√(km)) of the parameters (before the
  /// clamp that applies when `allowsOverdamping` is false).
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

  /// The period of the undamped oscillation, 2π/ω0 (SwiftUI's `response`).
  public var response: Double { 2 * Double.pi / naturalFrequency }

  // MARK: - Evaluation

  /// The displacement x = 1 − p and its time derivative at time `t` ≥ 0.
  @usableFromInline func displacement(at t: Double) -> (x: Double, dx: Double) {
    let c: Double, s: Double, sigma: Double  // sigma: C' = −λC + σS
    switch regime {
    case .underdamped:
      let e = exp(-decay * t)
      c = e * cos(frequency * t)
      s = e * sin(frequency * t) / frequency
      sigma = -frequency * frequency
    case .critical:
      let e = exp(-decay * t)
      c = e
      s = t * e
      sigma = 0
    case .overdamped:
      let slow = exp((frequency - decay) * t)
      let fast = exp(-(frequency + decay) * t)
      c = (slow + fast) / 2
      s = slow * -expm1(-2 * frequency * t) / (2 * frequency)
      sigma = frequency * frequency
    }
    let x = c + coefficient * s
    let dx = -decay * c + sigma * s + coefficient * (c - decay * s)
    return (x, dx)
  }

  /// Progress at time `t` seconds after the start: 0 at t = 0, tending to 1.
  /// Before the start (t < 0) the progress is 0.
  public func position(at t: Double) -> Double {
    t <= 0 ? 0 : 1 - displacement(at: t).x
  }

  /// The rate of change of progress at time `t`, in progress per second:
  /// `initialVelocity` at t = 0, and 0 before the start.
  public func velocity(at t: Double) -> Double {
    if t < 0 { return 0 }
    if t == 0 { return initialVelocity }
    return -displacement(at: t).dx
  }

  // MARK: - Settling

  /// An estimate of the time the spring takes to come to rest, like
  /// CASpringAnimation's `settlingDuration`, whose rule Apple does not publish.
  ///
  /// Underdamped: ln(A/ε)/λ with the envelope amplitude A = √(1 + (K/ωd)²) and
  /// ε = 8.311e-4, fitted to Apple's two documented examples (2.85 s and
  /// "just over 1 s"). Critical or overdamped: the time at which the envelope
  /// C + |K|·S falls to ε. Good to about ±5% (TIMING.md §2); `infinity` for an
  /// undamped spring. O(1) when underdamped, else ~70 evaluations.
  public var settlingDuration: Double {
    let epsilon = 8.311246790282645e-4
    switch regime {
    case .underdamped:
      guard decay > 0 else { return .infinity }
      let k = coefficient / frequency
      let amplitude = (1 + k * k).squareRoot()
      return Swift.max(0, log(amplitude / epsilon) / decay)
    case .critical, .overdamped:
      // The envelope is a sum of two decaying exponentials: above ε until one
      // crossing, below it afterwards. Bracket the crossing, then bisect.
      let gain = abs(coefficient)
      func envelope(_ t: Double) -> Double {
        switch regime {
        case .critical:
          return (1 + gain * t) * exp(-decay * t)
        default:
          let slow = exp((frequency - decay) * t)
          let fast = exp(-(frequency + decay) * t)
          return (slow + fast) / 2 + gain * slow * -expm1(-2 * frequency * t) / (2 * frequency)
        }
      }
      var hi = 1 / decay
      for _ in 0..<64 where envelope(hi) > epsilon { hi *= 2 }
      var lo = 0.0
      for _ in 0..<64 {
        let mid = (lo + hi) / 2
        if envelope(mid) > epsilon { lo = mid } else { hi = mid }
      }
      return hi
    }
  }
}
