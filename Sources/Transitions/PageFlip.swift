import Geometry
import Motion
import Raster

/// `page-flip` — seed 002 demo 3 (PEPageTransition).
///
/// Push: the new screen goes into the container with a full-screen black
/// overlay at alpha 1, and a snapshot of the old screen goes on top with
/// anchor point (0, 0.5) (its frame kept: hinged on the left edge) and its
/// own black overlay at alpha 0. The container gets `sublayerTransform.m34 =
/// −0.002`. One UIView animation (default curve, easeInEaseOut) rotates the
/// snapshot to −π/2 about y — its free edge swings toward the viewer and
/// away to the left — while its overlay fades 0 → 1 and the new screen's
/// fades 1 → 0. (The seed's overlays are CAGradientLayers from black to
/// black: solid black.)
///
/// Pop: the old page (the snapshot of the screen being returned to) swings
/// back from −π/2 to identity over the leaving screen, its overlay fading
/// 1 → 0 while the leaving screen's fades 0 → 1; on completion the real
/// screen replaces the snapshot. Either direction may be gesture-driven.
///
/// The article does not show `transitionDuration`; transvid uses 0.5 s.
public struct PageFlip: Transition {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.5, curve: .easeInEaseOut, curveText: "easeInEaseOut")

  public static let descriptor = TransitionDescriptor(
    name: "page-flip", origin: "seed 002 demo 3 (PEPageTransition)",
    summary: "the old screen turns away like a page hinged on its left edge, in perspective; pop turns it back",
    operations: [.push, .pop, .present, .dismiss],
    parameters: Self.timing.parameters + [
      ParameterDescriptor("m34", .number, default: "-0.002", "the container's sublayerTransform.m34 (−1/eye distance)", range: -1...0)
    ],
    make: { PageFlip(parameters: $0) })

  /// The angle the page turns to (−π/2 about y).
  public static let turnedAngle = -Double.pi / 2

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public var valueCurve: AnimationCurve? { curve }
  public let m34: Double

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    m34 = parameters.number("m34", default: -0.002)
  }

  /// How far the page has turned (0 = flat, 1 = edge-on) at timing value `progress`.
  func turned(_ context: TransitionContext, progress: Double) -> Double {
    context.operation.isReverse ? 1 - progress : progress
  }

  /// The page's rotation about y at timing value `progress`.
  public func angle(in context: TransitionContext, progress: Double) -> Double {
    Self.turnedAngle * turned(context, progress: progress)
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start: return context.startContainer()
    case .end: return context.endContainer()
    case .running(let elapsed):
      let progress = curve.progress(atTime: elapsed, duration: duration)
      let reverse = context.operation.isReverse
      let amount = turned(context, progress: progress)
      // The page is the push's old screen; beneath it, the push's new screen.
      let pageScreen = reverse ? context.toScreen : context.fromScreen
      let underScreen = reverse ? context.fromScreen : context.toScreen
      var under = context.snapshotLayer(underScreen)
      under.sublayers = [.solid(.black, frame: context.bounds, opacity: 1 - amount)]
      var page = context.snapshotLayer(pageScreen)
      page.anchorPoint = Point(x: 0, y: 0.5)
      page.position = Point(x: 0, y: context.height / 2)
      page.transform = .rotation(y: Self.turnedAngle * amount)
      page.sublayers = [.solid(.black, frame: context.bounds, opacity: amount)]
      var container = context.emptyContainer()
      var perspective = Transform3D.identity
      perspective.m34 = m34
      container.sublayerTransform = perspective
      container.sublayers = [under, page]
      return container
    }
  }
}
