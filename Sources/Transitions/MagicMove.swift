import Geometry
import Motion
import Raster

/// `magic-move` — seed 002 demo 1 (PENaviTransition).
///
/// Push: a snapshot of the tapped cell's image view (`snapshotViewAfter-
/// ScreenUpdates:NO`) is put on top at the cell's frame; the cell's image
/// view and the new screen's image view are hidden and the new screen
/// starts at alpha 0. One UIKit spring animation (0.75 s, damping 0.55,
/// initial velocity 1/0.55) moves the snapshot's frame onto the new image
/// view's frame and fades the new screen in; at the end the real image view
/// is shown and the snapshot hidden.
///
/// Pop: the list is inserted at the bottom, the detail screen fades out
/// (alpha 1 → 0) while the same snapshot (still the list cell's image) flies
/// back onto the cell, on the same spring. A pop may be gesture-driven: the
/// transition is a pure function of animation time.
///
/// The spring overshoots: the frame follows it past the target and back;
/// the alpha is clamped to 0…1 as Core Animation clamps opacity.
///
/// Approximation: with flat snapshots the original views cannot be hidden
/// unless the screens carry `imagesWithViewHidden` for the element's id;
/// then those are drawn, else the plain snapshots (the element shows at its
/// two places beneath the flying copy, which covers it at both ends). Without
/// an element (unknown ids, or no `element` given) the screens just cross-fade
/// on the spring.
///
/// `placeholder: COLOR` fills the slot the element leaves on the list
/// screen while the element is away, as apps do when the list is a real
/// screenshot (whose pixels still hold the thumbnail): the slot has the
/// element's frame and its list screen's opacity. Clear (the default) draws
/// nothing. `placeholder: blur` shows what the list screen has in the slot
/// (with the element hidden: a screenshot's own thumbnail) averaged over
/// blocks of a sixth of the slot's shorter side and scaled back up — a
/// frosted smear in place of a sharp duplicate.
public struct MagicMove: Transition {
  public static let descriptor = TransitionDescriptor(
    name: "magic-move", origin: "seed 002 demo 1 (PENaviTransition)",
    summary: "a shared element flies to its place on the new screen on a spring while the screen fades in",
    operations: [.push, .pop, .present, .dismiss],
    parameters: SharedParameters.timed(duration: 0.75, curve: "spring(damping: 0.55, velocity: 1/0.55, duration: <duration>)") + [
      ParameterDescriptor("element", .element, default: "none", "{from: ID, to: ID}: the view on the first screen and its counterpart on the second"),
      ParameterDescriptor(
        "placeholder", .fill, default: "clear", "the slot the element leaves on the list screen: a colour, or blur"),
    ],
    make: { MagicMove(parameters: $0) })

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public let element: (from: String, to: String)?
  public let placeholder: Color
  /// `placeholder: blur`.
  public let blursPlaceholder: Bool

  public init(parameters: TransitionParameters) {
    let duration = parameters.number("duration", default: 0.75)
    self.duration = duration
    delay = parameters.number("delay", default: 0)
    curve = parameters.curve(
      default: .spring(Spring(duration: duration, dampingRatio: 0.55, initialVelocity: 1 / 0.55)))
    element = parameters.element()
    placeholder = parameters.color("placeholder", default: .clear)
    blursPlaceholder = parameters.isBlur("placeholder")
  }

  /// The flying snapshot's frame at spring value `progress`, if the element resolves.
  public func snapshotFrame(in context: TransitionContext, progress: Double) -> Rect? {
    guard let shared = SharedElement(element, in: context) else { return nil }
    let (start, end) = shared.flight(reverse: context.operation.isReverse)
    return start.interpolated(to: end, progress)
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start: return context.startContainer()
    case .end: return context.endContainer()
    case .running(let elapsed):
      let progress = curve.progress(atTime: elapsed, duration: duration)
      let reverse = context.operation.isReverse
      let shared = SharedElement(element, in: context)
      let ids = shared?.ids(reverse: reverse)
      let from = context.snapshotLayer(context.fromScreen, hidingView: ids?.from)
      let to = context.snapshotLayer(context.toScreen, hidingView: ids?.to)
      var container = context.emptyContainer()
      // The vacated slot sits on the list screen, under the screen fading over it.
      var slot: [Layer] = []
      if let shared, blursPlaceholder {
        slot.append(blurredSlot(shared, list: reverse ? context.toScreen : context.fromScreen, scale: context.scale))
      } else if let shared, placeholder.alpha > 0 {
        slot.append(.solid(placeholder, frame: shared.listFrame))
      }
      if reverse {
        // [containerView insertSubview:toVC.view atIndex:0]; fromVC.view.alpha → 0.
        var leaving = from
        leaving.opacity = clampedUnit(1 - progress)
        container.sublayers = [to] + slot + [leaving]
      } else {
        // toVC.view.alpha 0 → 1 above the list.
        var arriving = to
        arriving.opacity = clampedUnit(progress)
        container.sublayers = [from] + slot + [arriving]
      }
      if let shared, let frame = snapshotFrame(in: context, progress: progress) {
        // The push's snapshot is of the list cell; the pop reuses it.
        let listScreen = reverse ? context.toScreen : context.fromScreen
        let detailScreen = reverse ? context.fromScreen : context.toScreen
        if let flying = listScreen.viewLayer(shared.listID, at: frame, scale: context.scale)
          ?? detailScreen.viewLayer(shared.detailID, at: frame, scale: context.scale)
        {
          container.sublayers.append(flying)
        }
      }
      return container
    }
  }
}

extension MagicMove {
  /// The list screen's pixels in the slot (element hidden), averaged over
  /// blocks a sixth of the slot's shorter side, as a layer over the slot.
  func blurredSlot(_ shared: SharedElement, list: ScreenSnapshot, scale: Double) -> Layer {
    let image = list.imagesWithViewHidden[shared.listID] ?? list.image
    let frame = shared.listFrame
    let x = Int((frame.minX * scale).rounded()), y = Int((frame.minY * scale).rounded())
    let w = Int((frame.width * scale).rounded()), h = Int((frame.height * scale).rounded())
    let factor = Swift.max(1, Swift.min(w, h) / 6)
    var layer = Layer(frame: frame)
    layer.contents = image.averaged(x: x, y: y, width: w, height: h, factor: factor)
    layer.contentsScale = Double(layer.contents!.width) / Swift.max(frame.width, 1)
    return layer
  }
}
