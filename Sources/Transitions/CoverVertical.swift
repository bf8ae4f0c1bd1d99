import Geometry
import Motion
import Raster

/// `cover-vertical` — UIModalTransitionStyle.coverVertical (UIKIT.md §2).
///
/// Present (UIKit transition 8): the new screen slides up from below
/// (y: H → 0) over the old one, which stays still. Dismiss (9): the
/// leaving screen slides down (y: 0 → H), uncovering the one below.
/// UITransitionView runs it on "curve 7", the system spring, for D; UIKit's
/// per-transition durations are private, and 0.5 s is the reference's
/// choice (curve 7 is 99.4 % settled by 0.4 s, so 0.4–0.5 s barely differ).
public struct CoverVertical: Transition {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.5, curve: .systemSpring, curveText: "spring")

  public static let descriptor = TransitionDescriptor(
    name: "cover-vertical", origin: "UIKit (UIModalTransitionStyle.coverVertical)",
    summary: "the new screen slides up over the old one; dismiss slides it back down",
    operations: [.present, .dismiss, .push, .pop],
    parameters: Self.timing.parameters,
    make: { CoverVertical(parameters: $0) })

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public var valueCurve: AnimationCurve? { curve }

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
  }

  /// The moving screen's y offset at curve value `progress`.
  public func offset(in context: TransitionContext, progress: Double) -> Double {
    context.operation.isReverse ? context.height * progress : context.height * (1 - progress)
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start: return context.startContainer()
    case .end: return context.endContainer()
    case .running(let elapsed):
      let progress = curve.progress(atTime: elapsed, duration: duration)
      let reverse = context.operation.isReverse
      let still = context.snapshotLayer(reverse ? context.toScreen : context.fromScreen)
      var moving = context.snapshotLayer(reverse ? context.fromScreen : context.toScreen)
      moving.transform = .translation(x: 0, y: offset(in: context, progress: progress))
      var container = context.emptyContainer()
      container.sublayers = [still, moving]
      return container
    }
  }
}
