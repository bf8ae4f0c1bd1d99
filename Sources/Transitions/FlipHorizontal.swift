#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Motion
import Raster

/// `flip-horizontal` — UIModalTransitionStyle.flipHorizontal (UIKIT.md §2).
///
/// UIKit runs it as a `CATransition` of type `oglFlip` (present: from the
/// right, dismiss: from the left): the screen turns 180° about its vertical
/// centre line in perspective, showing the new screen on its back. The
/// private parameters are not public; this is the reference's model (INF):
/// - angle θ = π·c(t); the old screen's face until 90°, then the new one's
///   (drawn as its own layer turned by θ − π, so it reads the right way);
///   present turns the right edge toward the viewer (θ negative about y),
///   dismiss the left edge;
/// - perspective `m34 = −1/d` on the container with d = 2·H by default;
/// - the card shrinks by s(θ) = 1 − (W/2d)·|sin θ| ("the camera dollies
///   back") so the near edge never grows past the screen;
/// - the turning face darkens by up to 0.3·|sin θ| (a black overlay).
/// Black (the window) shows around the card. Timing: easeInEaseOut over
/// 0.5 s (INF: `transitionFromView:` without a curve option).
public struct FlipHorizontal: Transition {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.5, curve: .easeInEaseOut, curveText: "easeInEaseOut")

  public static let descriptor = TransitionDescriptor(
    name: "flip-horizontal", origin: "UIKit (UIModalTransitionStyle.flipHorizontal)",
    summary: "the screen turns over about its vertical axis to show the new one on its back",
    operations: [.present, .dismiss, .push, .pop],
    parameters: Self.timing.parameters + [
      ParameterDescriptor("distance", .number, default: "2 × screen height", "the eye's distance from the screen in points (m34 = −1/distance); at least half the screen's width is used", range: 1...100_000),
      ParameterDescriptor("dim", .number, default: "0.3", "how dark the turning face gets edge-on (black alpha × |sin θ|)", range: 0...1),
    ],
    make: { FlipHorizontal(parameters: $0) })

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public var valueCurve: AnimationCurve? { curve }
  /// The eye distance; `nil` = twice the container's height.
  public let distance: Double?
  public let dim: Double

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    if case .number(let d)? = parameters.values["distance"], d > 0 { distance = d } else { distance = nil }
    dim = parameters.number("dim", default: 0.3)
  }

  /// The eye distance for `context`: at least half the screen's width,
  /// nearer than which the card's dolly, s(θ), would fall below zero and
  /// turn the card upside down mid-flip (and its near edge reach the eye).
  public func eyeDistance(in context: TransitionContext) -> Double {
    Swift.max(distance ?? 2 * context.height, context.width / 2)
  }

  /// The card's rotation about y at curve value `progress` (0 … ∓π).
  public func angle(in context: TransitionContext, progress: Double) -> Double {
    (context.operation.isReverse ? 1 : -1) * Double.pi * progress
  }

  /// The card's extra scale at rotation `angle`.
  public func cardScale(in context: TransitionContext, angle: Double) -> Double {
    1 - context.width / (2 * eyeDistance(in: context)) * abs(sin(angle))
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start: return context.startContainer()
    case .end: return context.endContainer()
    case .running(let elapsed):
      let progress = curve.progress(atTime: elapsed, duration: duration)
      let theta = angle(in: context, progress: progress)
      let showsBack = abs(theta) >= Double.pi / 2
      // The back face is turned half a turn further so that it reads correctly.
      let faceAngle = showsBack ? theta - (theta < 0 ? -Double.pi : Double.pi) : theta
      let s = cardScale(in: context, angle: theta)
      var card = context.snapshotLayer(showsBack ? context.toScreen : context.fromScreen)
      card.transform = Transform3D.scale(x: s, y: s, z: s).concatenating(.rotation(y: faceAngle))
      card.sublayers = [.solid(.black, frame: context.bounds, opacity: dim * abs(sin(theta)))]
      var container = context.emptyContainer()
      var perspective = Transform3D.identity
      perspective.m34 = -1 / eyeDistance(in: context)
      container.sublayerTransform = perspective
      container.sublayers = [card]
      return container
    }
  }
}
