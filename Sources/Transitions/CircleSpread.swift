#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Motion
import Raster

/// `circle-spread` — seed 000 (XWCircleSpreadTransition).
///
/// Push: the new screen is added above the old one with a `CAShapeLayer`
/// mask whose path animates from `ovalIn(origin)` (the seed uses the zero
/// rect) to a circle at the container's centre with radius
/// √(max(100, W−100)² + max(100, H−100)²), over 0.7 s easeInEaseOut.
///
/// Pop: the screen below is inserted at index 0 and the leaving screen is
/// masked by a circle of half the container's diagonal at its centre that
/// shrinks onto `ovalIn(origin)`.
///
/// Core Animation blends the two paths point by point (UIKIT.md §4): both are
/// four clockwise quarter cubics from 3 o'clock, so every frame is an ellipse
/// whose centre and radii move linearly with the timing value. When the
/// animation completes the seed removes the mask, so the last frame is the
/// plain destination screen.
public struct CircleSpread: Transition {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.7, curve: .easeInEaseOut, curveText: "easeInEaseOut")

  public static let descriptor = TransitionDescriptor(
    name: "circle-spread", origin: "seed 000 (XWCircleSpreadTransition)",
    summary: "the new screen appears inside a circle growing from a rect; pop shrinks it back",
    operations: [.push, .pop, .present, .dismiss],
    parameters: Self.timing.parameters + [
      ParameterDescriptor("origin", .rect, default: "[0, 0, 0, 0]", "the rect the circle grows from (push) or shrinks into (pop), in points",
        value: .rect(.zero))
    ],
    make: { CircleSpread(parameters: $0) })

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public var valueCurve: AnimationCurve? { curve }
  public let origin: Rect

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    origin = parameters.rect("origin", default: .zero)
  }

  /// The mask's oval at timing value `progress` (0 = start of the animation).
  public func maskOval(in context: TransitionContext, progress: Double) -> Rect {
    let w = context.containerSize.width, h = context.containerSize.height
    let center = context.bounds.center
    let big: Double
    if context.operation.isReverse {
      big = (w * w + h * h).squareRoot() / 2
    } else {
      let x = Swift.max(100, w - 100), y = Swift.max(100, h - 100)
      big = (x * x + y * y).squareRoot()
    }
    let circle = Rect(x: center.x - big, y: center.y - big, width: 2 * big, height: 2 * big)
    let (start, end) = context.operation.isReverse ? (circle, origin) : (origin, circle)
    return start.interpolated(to: end, progress)
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start:
      // Before the animation (its delay): the old screen alone.
      return context.startContainer()
    case .end:
      // completeTransition: the mask is removed; only the destination remains.
      return context.endContainer()
    case .running(let elapsed):
      let progress = curve.progress(atTime: elapsed, duration: duration)
      // Push: to-view on top, masked. Pop: to-view inserted at index 0, from-view masked.
      return MaskSpread.layers(in: context, oval: maskOval(in: context, progress: progress))
    }
  }
}
