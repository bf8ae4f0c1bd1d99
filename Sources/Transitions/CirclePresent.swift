import Geometry
import Motion
import Raster

/// `circle-present` — seed 002 demo 4 (PECircleSpreadTransition).
///
/// Present: the presented screen is added on top with a mask whose path
/// animates from `ovalIn(buttonFrame)` to a full arc at the container's
/// centre of radius √(max(bx, W−bx)² + max(by, H−by)²), where (bx, by) is
/// the button frame's *origin* (as the seed writes it), over the duration
/// easeInEaseOut.
///
/// Dismiss: the leaving screen is masked by a circle of half the diagonal
/// at the centre that shrinks onto `ovalIn(buttonFrame)`; the screen below
/// shows through as it shrinks. On completion the leaving screen goes.
///
/// The seed's article does not show its `transitionDuration`; transvid uses
/// 0.5 s. Oval → arc interpolates as a circle (UIKIT.md §4): the frame's
/// origin and size are blended, so a non-square button gives ellipses that
/// round out.
public struct CirclePresent: Transition {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.5, curve: .easeInEaseOut, curveText: "easeInEaseOut")

  public static let descriptor = TransitionDescriptor(
    name: "circle-present", origin: "seed 002 demo 4 (PECircleSpreadTransition)",
    summary: "the presented screen spreads out of a button in a circle; dismiss shrinks it into the button",
    operations: [.present, .dismiss, .push, .pop],
    parameters: Self.timing.parameters + [
      ParameterDescriptor("origin", .rect, default: "[0, 0, 0, 0]", "the button's frame the circle grows from (present) or shrinks into (dismiss), in points",
        value: .rect(.zero))
    ],
    make: { CirclePresent(parameters: $0) })

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public var valueCurve: AnimationCurve? { curve }
  /// The button's frame.
  public let origin: Rect

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    origin = parameters.rect("origin", default: .zero)
  }

  /// The radius of the big circle: the seed's formula when presenting, half
  /// the diagonal when dismissing.
  public func bigRadius(in context: TransitionContext) -> Double {
    let w = context.width, h = context.height
    if context.operation.isReverse { return (w * w + h * h).squareRoot() / 2 }
    let x = Swift.max(origin.minX, w - origin.minX), y = Swift.max(origin.minY, h - origin.minY)
    return (x * x + y * y).squareRoot()
  }

  /// The mask's oval at timing value `progress`.
  public func maskOval(in context: TransitionContext, progress: Double) -> Rect {
    let circle = Rect(circleCenter: context.bounds.center, radius: bigRadius(in: context))
    return context.operation.isReverse
      ? circle.interpolated(to: origin, progress) : origin.interpolated(to: circle, progress)
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start: return context.startContainer()
    case .end: return context.endContainer()
    case .running(let elapsed):
      let progress = curve.progress(atTime: elapsed, duration: duration)
      return MaskSpread.layers(in: context, oval: maskOval(in: context, progress: progress))
    }
  }
}
