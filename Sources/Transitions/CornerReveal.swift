import Geometry
import Motion
import Raster

/// `corner-reveal` — seed 004 (WYTransitionAnimator).
///
/// The new screen is added on top with a mask whose path animates from the
/// oval in (0, 0, 100, 100) to that rect grown by r = √(50² + (H−50)²) on
/// every side, over 0.5 s with CABasicAnimation's default timing (linear);
/// the mask is removed when the animation stops.
///
/// The seed's r is the distance from the small oval's centre to the
/// *bottom-left* corner, so with the 50 pt it adds the circle just misses
/// the bottom-right corner of a tall screen (by ~18 pt at 393×852); that
/// corner appears when the mask is removed, as on a device. transvid keeps
/// the seed's radius (the DESIGN table's formula).
///
/// The seed's navigation delegate returns the same animator for every
/// operation, so pop (and dismiss) also reveal the destination growing from
/// the corner, on top of the leaving screen. The `origin` parameter, which
/// the seed does not have, moves the starting rect; from any rect but the
/// seed's the circle grows until it covers the screen's farthest corner,
/// as tap-spread's does (the seed's r, measured to the bottom-left corner,
/// left half of the screen to appear at once from a rect at the bottom
/// right).
public struct CornerReveal: Transition {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.5, curve: .linear, curveText: "linear")

  public static let descriptor = TransitionDescriptor(
    name: "corner-reveal", origin: "seed 004 (WYTransitionAnimator)",
    summary: "the new screen appears inside a circle growing from the top-left corner (pop too)",
    operations: [.push, .pop, .present, .dismiss],
    parameters: Self.timing.parameters + [
      ParameterDescriptor(
        "origin", .rect, default: "[0, 0, 100, 100]",
        "the rect whose oval the circle grows from, in points (from another rect it grows until it covers the farthest corner)",
        value: .rect(seedOrigin))
    ],
    make: { CornerReveal(parameters: $0) })

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public var valueCurve: AnimationCurve? { curve }
  public let origin: Rect

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    origin = parameters.rect("origin", default: Self.seedOrigin)
  }

  /// The seed's rect.
  static let seedOrigin = Rect(x: 0, y: 0, width: 100, height: 100)

  /// How far the rect grows on every side: the seed's r, |(midX, H − midY)|,
  /// from the seed's rect; from another, until the oval's narrower half
  /// axis reaches the farthest corner of the screen.
  public func growth(in context: TransitionContext) -> Double {
    guard origin != Self.seedOrigin else {
      let x = origin.midX, y = context.height - origin.midY
      return (x * x + y * y).squareRoot()
    }
    let dx = max(origin.midX, context.width - origin.midX), dy = max(origin.midY, context.height - origin.midY)
    return max(0, (dx * dx + dy * dy).squareRoot() - min(origin.width, origin.height) / 2)
  }

  /// The mask's oval at timing value `progress` (the same in both directions).
  public func maskOval(in context: TransitionContext, progress: Double) -> Rect {
    origin.interpolated(to: origin.outset(by: growth(in: context)), progress)
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start: return context.startContainer()
    case .end: return context.endContainer()
    case .running(let elapsed):
      let progress = curve.progress(atTime: elapsed, duration: duration)
      // Every operation: the destination on top, masked (the seed's only path).
      var top = context.snapshotLayer(context.toScreen)
      top.mask = .shapeMask(Path(ovalIn: maskOval(in: context, progress: progress)), in: context.bounds)
      var container = context.emptyContainer()
      container.sublayers = [context.snapshotLayer(context.fromScreen), top]
      return container
    }
  }
}
