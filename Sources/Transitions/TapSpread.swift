import Geometry
import Motion
import Raster

/// `tap-spread` — seed 001 (OvalTransition).
///
/// Push: the new screen is added above the old one, masked by an oval whose
/// path animates from a 30×30 oval centred on the tap point to that rect
/// grown by R on every side (`CGRectInset(rect, -R, -R)`), over 0.7 s
/// easeInEaseOut; the mask is removed when the animation stops.
///
/// R is the distance from the tap to the farthest corner of the screen,
/// √(max(x, W−x)² + max(y, H−y)²). Deliberate departure: the seed picks the
/// quadrant by comparing `rect.origin.y` with half the *width* (and uses the
/// 30×30 rect's origin rather than the tap, and subtracts 30 from the
/// vertical leg in the upper quadrants), so for taps in the band between
/// W/2 and H/2 it measures to the wrong corner and the circle can stop short
/// of the screen. transvid does what the author meant: the farthest corner.
///
/// Pop (the seed only pushes; its closing note suggests an enum for pop):
/// mirrors circle-spread's pop — the screen below is inserted underneath and
/// the leaving screen's mask shrinks from the big circle back onto the tap.
public struct TapSpread: Transition {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.7, curve: .easeInEaseOut, curveText: "easeInEaseOut")

  public static let descriptor = TransitionDescriptor(
    name: "tap-spread", origin: "seed 001 (OvalTransition)",
    summary: "the new screen appears inside a circle spreading from the tap point; pop shrinks it back",
    operations: [.push, .pop, .present, .dismiss],
    parameters: Self.timing.parameters + [
      ParameterDescriptor("tap", .point, default: "the screen's centre", "the tap point the circle spreads from, in points")
    ],
    make: { TapSpread(parameters: $0) })

  /// The side of the seed's starting oval.
  public static let tapSize = 30.0

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public var valueCurve: AnimationCurve? { curve }
  /// The tap point; `nil` means the container's centre.
  public let tap: Point?

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    if case .point(let p)? = parameters.values["tap"] { tap = p } else { tap = nil }
  }

  /// The 30×30 rect around the tap.
  public func tapRect(in context: TransitionContext) -> Rect {
    let p = tap ?? context.bounds.center
    return Rect(x: p.x - Self.tapSize / 2, y: p.y - Self.tapSize / 2, width: Self.tapSize, height: Self.tapSize)
  }

  /// R: the distance from the tap to the farthest corner.
  public func spreadRadius(in context: TransitionContext) -> Double {
    let p = tap ?? context.bounds.center
    let x = Swift.max(p.x, context.width - p.x), y = Swift.max(p.y, context.height - p.y)
    return (x * x + y * y).squareRoot()
  }

  /// The mask's oval at timing value `progress`.
  public func maskOval(in context: TransitionContext, progress: Double) -> Rect {
    let small = tapRect(in: context)
    let big = small.outset(by: spreadRadius(in: context))
    return context.operation.isReverse ? big.interpolated(to: small, progress) : small.interpolated(to: big, progress)
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

/// The layer tree the circular-mask transitions share (seeds 000, 001, 002
/// demo 4, 004): forward, the to-screen above the from-screen with an oval
/// mask; reverse, the to-screen inserted beneath and the from-screen masked.
enum MaskSpread {
  static func layers(in context: TransitionContext, oval: Rect) -> Layer {
    let reverse = context.operation.isReverse
    var top = context.snapshotLayer(reverse ? context.fromScreen : context.toScreen)
    top.mask = .shapeMask(Path(ovalIn: oval), in: context.bounds)
    let bottom = context.snapshotLayer(reverse ? context.toScreen : context.fromScreen)
    var container = context.emptyContainer()
    container.sublayers = [bottom, top]
    return container
  }
}
