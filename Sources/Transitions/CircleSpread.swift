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
  public static let descriptor = TransitionDescriptor(
    name: "circle-spread", origin: "seed 000 (XWCircleSpreadTransition)",
    summary: "the new screen appears inside a circle growing from a rect; pop shrinks it back",
    operations: [.push, .pop, .present, .dismiss],
    parameters: SharedParameters.timed(duration: 0.7, curve: "easeInEaseOut") + [
      ParameterDescriptor("origin", .rect, default: "[0, 0, 0, 0]", "the rect the circle grows from (push) or shrinks into (pop), in points")
    ],
    make: { CircleSpread(parameters: $0) })

  /// The mask animation's length (`transitionDuration:`).
  public let animationDuration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public let origin: Rect

  public init(parameters: TransitionParameters) {
    animationDuration = parameters.number("duration", default: 0.7)
    delay = parameters.number("delay", default: 0)
    curve = parameters.curve(default: .easeInEaseOut)
    origin = parameters.rect("origin", default: .zero)
  }

  /// The delay and the animation.
  public var duration: Double { delay + animationDuration }

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
    // a·(1−p) + b·p is exact at both ends (p = 0 and p = 1).
    func mix(_ a: Double, _ b: Double) -> Double { a * (1 - progress) + b * progress }
    return Rect(
      x: mix(start.minX, end.minX), y: mix(start.minY, end.minY),
      width: mix(start.width, end.width), height: mix(start.height, end.height))
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    var container = Layer(frame: context.bounds)
    let reverse = context.operation.isReverse
    let elapsed = time - delay
    if elapsed >= animationDuration {
      // completeTransition: the mask is removed; only the destination remains.
      container.sublayers = [context.snapshotLayer(context.toScreen)]
      return container
    }
    let progress = curve.progress(atTime: Swift.max(0, elapsed), duration: animationDuration)
    var mask = Layer(frame: context.bounds)
    mask.path = Path(ovalIn: maskOval(in: context, progress: progress))
    mask.fillColor = .black
    // Push: to-view on top, masked. Pop: to-view inserted at index 0, from-view masked.
    var top = context.snapshotLayer(reverse ? context.fromScreen : context.toScreen)
    top.mask = mask
    let bottom = context.snapshotLayer(reverse ? context.toScreen : context.fromScreen)
    container.sublayers = [bottom, top]
    return container
  }
}
