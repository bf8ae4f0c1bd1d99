#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Motion
import Raster

/// `push` / `pop` — UINavigationController's own transition
/// (`_UINavigationParallaxTransition`, UIKIT.md §1).
///
/// Push: the new screen slides in from the right (x: W → 0) while the old
/// one slides left by W − round(0.7·W) (118 pt at W = 393) under a
/// full-screen black α 0.1 dimming view whose alpha goes 0 → 1; a 9 pt edge
/// shadow hugs the new screen's left edge and fades 1 → 0. Pop mirrors it:
/// the leaving screen slides right to x = W with the shadow at its left
/// edge, the screen below comes back from −(W − round(0.7·W)) as the dimming
/// fades 1 → 0. Every property follows one progress value: UIKit's "curve 7"
/// system spring (mass 3, stiffness 1000, damping 500, critically clamped)
/// over D = 0.5 s, snapping to 1 at D. A finger-tracked pop is linear in
/// the gesture's progress: drive the time through InteractiveTransitionTrack.
///
/// The edge shadow is `_UIVerticalEdgeShadowView`'s image as a gradient
/// layer: black at α(d) = [Φ((9+d)/σ) − Φ(d/σ)]·[Φ(4/σ) − Φ(−5/σ)], σ = 4.5,
/// d points from the edge (UIKIT.md §1), sampled at seven stops.
/// Navigation bars are part of the screen snapshots (they slide with them);
/// the bar's own title cross-fade is not modelled. The "fluid" (iOS 26) mode
/// is not modelled.
///
/// Registered as both `push` and `pop`; the step's operation decides the
/// direction, so either name works on either step.
public struct NavigationParallax: Transition {
  static func descriptor(named name: String) -> TransitionDescriptor {
    TransitionDescriptor(
      name: name, origin: "UIKit (UINavigationController, _UINavigationParallaxTransition)",
      summary: "the standard navigation slide: the new screen from the right over the old one's parallax; pop mirrors it",
      operations: [.push, .pop, .present, .dismiss],
      parameters: Self.timing.parameters + [
        ParameterDescriptor("dimming", .number, default: "0.1", "the black dimming over the screen underneath, at its darkest", range: 0...1)
      ],
      make: { NavigationParallax(parameters: $0) })
  }

  /// The catalog entry for push steps.
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.5, curve: .systemSpring, curveText: "spring")

  public static let descriptor = descriptor(named: "push")
  /// The same transition under the name pop steps use.
  public static let popDescriptor = descriptor(named: "pop")

  /// The edge shadow's width in points.
  public static let shadowWidth = 9.0

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public var valueCurve: AnimationCurve? { curve }
  public let dimming: Double

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    dimming = parameters.number("dimming", default: 0.1)
  }

  /// How far the screen underneath moves: W − round(0.7·W), a half to
  /// even, as UIKIT.md's widths have it (113 pt at 375: 0.7 × 375 is
  /// exactly 262.5 in double, and 262 is kept).
  public static func parallaxOffset(width: Double) -> Double {
    width - (0.7 * width).rounded(.toNearestOrEven)
  }

  /// The x offsets of the under (left) and top (right) screens when the top
  /// screen is `amount` of the way in (0 = off to the right, 1 = in place).
  public static func offsets(width: Double, amount: Double) -> (under: Double, top: Double) {
    (-parallaxOffset(width: width) * amount, width * (1 - amount))
  }

  /// The edge shadow's alpha `d` points left of the edge (UIKIT.md §1).
  public static func shadowAlpha(atDistance d: Double) -> Double {
    let sigma = 4.5
    func phi(_ x: Double) -> Double { 0.5 * (1 + erf(x / 2.0.squareRoot())) }
    return (phi((9 + d) / sigma) - phi(d / sigma)) * (phi(4 / sigma) - phi(-5 / sigma))
  }

  /// The shadow strip as a horizontal gradient, clear at 9 pt, darkest at the edge.
  static let shadowGradient: Gradient = {
    let distances = [9.0, 6, 4.5, 3, 2, 1, 0]
    return Gradient(
      colors: distances.map { Color(red: 0, green: 0, blue: 0, alpha: shadowAlpha(atDistance: $0)) },
      locations: distances.map { 1 - $0 / shadowWidth },
      startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))
  }()

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start: return context.startContainer()
    case .end: return context.endContainer()
    case .running(let elapsed):
      let progress = curve.progress(atTime: elapsed, duration: duration)
      let reverse = context.operation.isReverse
      let amount = reverse ? 1 - progress : progress
      let (underX, topX) = Self.offsets(width: context.width, amount: amount)
      var under = context.snapshotLayer(reverse ? context.toScreen : context.fromScreen)
      under.transform = .translation(x: underX, y: 0)
      let dim = Layer.solid(Color(red: 0, green: 0, blue: 0, alpha: dimming), frame: context.bounds, opacity: amount)
      var top = context.snapshotLayer(reverse ? context.fromScreen : context.toScreen)
      top.transform = .translation(x: topX, y: 0)
      var shadow = Layer(frame: Rect(x: -Self.shadowWidth, y: 0, width: Self.shadowWidth, height: context.height))
      shadow.gradient = Self.shadowGradient
      shadow.opacity = clampedUnit(1 - progress)
      top.sublayers = [shadow]
      var container = context.emptyContainer()
      container.sublayers = [under, dim, top]
      return container
    }
  }
}
