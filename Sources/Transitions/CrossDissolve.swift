import Geometry
import Motion
import Raster

/// `cross-dissolve` — UIModalTransitionStyle.crossDissolve (UIKIT.md §2).
///
/// UIKit transition 6: the new screen, on top, fades in (alpha 0 → 1) while
/// the old one fades out (1 → 0), on the same curve — so mid-way a quarter
/// of whatever is behind both (the window, black) shows through:
/// t·T + (1−t)²·F + t·(1−t)·B. Same in both directions. Curve 7 (the system
/// spring) over 0.5 s by default; devices were observed at ≈ 0.4 s, which
/// curve 7 makes all but identical.
public struct CrossDissolve: Transition {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.5, curve: .systemSpring, curveText: "spring")

  public static let descriptor = TransitionDescriptor(
    name: "cross-dissolve", origin: "UIKit (UIModalTransitionStyle.crossDissolve)",
    summary: "the old screen fades out while the new one fades in",
    operations: [.present, .dismiss, .push, .pop],
    parameters: Self.timing.parameters,
    make: { CrossDissolve(parameters: $0) })

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public var valueCurve: AnimationCurve? { curve }

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start: return context.startContainer()
    case .end: return context.endContainer()
    case .running(let elapsed):
      let progress = clampedUnit(curve.progress(atTime: elapsed, duration: duration))
      var from = context.snapshotLayer(context.fromScreen)
      from.opacity = 1 - progress
      var to = context.snapshotLayer(context.toScreen)
      to.opacity = progress
      var container = context.emptyContainer()
      container.sublayers = [from, to]
      return container
    }
  }
}
