import Geometry
import Motion
import Raster

/// `zoom-expand` — seed 003 (SFTrainsitionAnimate).
///
/// Push, in the seed's container order: the new screen; over it a
/// full-screen light-grey backdrop (`UIColor.lightGrayColor`) holding a
/// white view from y = midY(target frame) down; over both, a snapshot of the
/// tapped control (shadow offset 0, radius 5, opacity 0.4) at its frame.
/// Then three chained UIView animations of duration/3 each (default curve,
/// easeInEaseOut):
/// 1. the snapshot's frame goes to the control's counterpart on the new
///    screen while its transform scales to 1.1;
/// 2. the transform returns to identity;
/// 3. the snapshot fades out, and at the same moment the backdrop gets a
///    mask — the screen rect plus a reversed arc at the snapshot's centre —
///    whose hole opens from radius 0.1 to ¾ of the screen height (minus the
///    centre's y when that is ≤ 0) over duration/3, easeOut.
/// On completion the backdrop and snapshot go: only the new screen remains.
///
/// As on a device, the frame at the animation's begin time already shows
/// the backdrop (the seed covers the old screen at once); corners farther
/// than the final radius stay grey until the backdrop is removed.
///
/// Pop: the seed says it is "much like push" and leaves it out. transvid
/// plays the push backwards with the screens swapped: the hole closes over
/// the leaving screen (easeOut reversed) while the snapshot (of the leaving
/// screen's control) fades in, it swells to 1.1 and flies back, shrinking,
/// onto the control on the screen below, which appears when the backdrop goes.
///
/// The seed's usage constructs the animator without a duration; transvid
/// uses 0.9 s (0.3 s per step). `curve` times the three snapshot steps;
/// the hole is always easeOut, as in the seed.
public struct ZoomExpand: Transition {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.9, curve: .easeInEaseOut, curveText: "easeInEaseOut")

  public static let descriptor = TransitionDescriptor(
    name: "zoom-expand", origin: "seed 003 (SFTrainsitionAnimate)",
    summary: "the tapped control flies to its place and swells, then the new screen opens in a circle around it",
    operations: [.push, .pop, .present, .dismiss],
    parameters: Self.timing.parameters + [
      ParameterDescriptor("element", .element, default: "none", "{from: ID, to: ID}: the tapped control and its counterpart on the new screen"),
      ParameterDescriptor("backdrop", .color, default: "lightGray", "the backdrop above the split (UIColor.lightGrayColor)"),
      ParameterDescriptor("backdropBottom", .color, default: "white", "the backdrop below the split (the target's centre line)"),
    ],
    make: { ZoomExpand(parameters: $0) })

  /// `UIColor.lightGrayColor` (white 2/3).
  public static let lightGray = Color(red: 2.0 / 3, green: 2.0 / 3, blue: 2.0 / 3)
  /// The scale the snapshot swells to.
  public static let swell = 1.1
  /// The hole's starting radius (the seed avoids a radius-0 arc).
  public static let startRadius = 0.1

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public let element: (from: String, to: String)?
  public let backdrop: Color
  public let backdropBottom: Color

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    element = parameters.element()
    backdrop = parameters.color("backdrop", default: Self.lightGray)
    backdropBottom = parameters.color("backdropBottom", default: .white)
  }

  /// The state of the push at `time` seconds into it (0…duration).
  public struct State: Equatable {
    /// The snapshot's frame (untransformed) and scale about its centre.
    public var frame: Rect
    public var scale: Double
    public var opacity: Double
    /// The hole's radius; `nil` before the backdrop gets its mask.
    public var holeRadius: Double?
  }

  /// The push's state at `time` (0…duration) flying `start` → `end`.
  public func pushState(at time: Double, from start: Rect, to end: Rect, screenHeight h: Double) -> State {
    let third = duration / 3
    func step(_ i: Double) -> Double { curve.progress(atTime: time - i * third, duration: third) }
    let move = step(0), settle = step(1), fade = step(2)
    let scale = settle > 0 ? lerp(Self.swell, 1, settle) : lerp(1, Self.swell, move)
    var hole: Double? = nil
    if time >= 2 * third {
      let center = end.center
      let big = center.y > 0 ? h * 3 / 4 : h * 3 / 4 - center.y
      let open = AnimationCurve.easeOut.progress(atTime: time - 2 * third, duration: third)
      hole = lerp(Self.startRadius, big, open)
    }
    return State(frame: start.interpolated(to: end, move), scale: scale, opacity: 1 - fade, holeRadius: hole)
  }

  /// The state at `time` for the context's direction (a pop runs the push backwards).
  public func state(in context: TransitionContext, at time: Double) -> State? {
    guard let shared = SharedElement(element, in: context) else { return nil }
    let elapsed = Swift.min(Swift.max(time - delay, 0), duration)
    let reverse = context.operation.isReverse
    return pushState(
      at: reverse ? duration - elapsed : elapsed, from: shared.listFrame, to: shared.detailFrame,
      screenHeight: context.height)
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start: return context.startContainer()
    case .end: return context.endContainer()
    case .running:
      let reverse = context.operation.isReverse
      guard let shared = SharedElement(element, in: context), let state = state(in: context, at: time) else {
        // Without a resolvable element there is nothing to zoom: cut as the seed's backdrop would.
        return context.endContainer()
      }
      let detailScreen = reverse ? context.fromScreen : context.toScreen
      let ids = shared.ids(reverse: reverse)
      // The backdrop, split at the target's centre line.
      var backdropLayer = Layer.solid(backdrop, frame: context.bounds)
      let split = shared.detailFrame.midY
      backdropLayer.sublayers = [
        .solid(backdropBottom, frame: Rect(x: 0, y: split, width: context.width, height: Swift.max(0, context.height - split)))
      ]
      if let radius = state.holeRadius {
        backdropLayer.mask = .shapeMask(
          TransitionPaths.rect(context.bounds, withCircularHoleAt: shared.detailFrame.center, radius: radius),
          in: context.bounds, fillRule: .evenOdd)
      }
      var container = context.emptyContainer()
      container.sublayers = [context.snapshotLayer(detailScreen), backdropLayer]
      let flown = context.fromScreen.viewLayer(ids.from, at: state.frame, scale: context.scale)
        ?? context.toScreen.viewLayer(ids.to, at: state.frame, scale: context.scale)
      if var snapshot = flown, state.opacity > 0 {
        snapshot.transform = .scale(x: state.scale, y: state.scale)
        snapshot.opacity = clampedUnit(state.opacity)
        snapshot.shadowOffset = .zero
        snapshot.shadowRadius = 5
        snapshot.shadowOpacity = 0.4
        container.sublayers.append(snapshot)
      }
      return container
    }
  }
}
