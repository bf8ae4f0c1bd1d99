import Geometry
import Motion
import Raster

/// A presentation that leaves the presenting screen visible with the new one
/// over it — a sheet, a card, a curl — instead of replacing it.
///
/// Its frames are one composite drawn at a presented amount (0 = not yet
/// presented, 1 = fully): the present runs the amount 0 → 1 along `curve`,
/// the dismiss 1 → 0. The present ends on the composite, not on the bare new
/// screen (`restingLayers`), and the dismiss starts from it.
///
/// A dismiss that undoes another transition's present starts from what that
/// present left on display, filling the screen
/// (`TransitionContext.startsFromWholeScreen`): its frames are
/// `wholeScreenComposite` instead, which takes that picture away from where
/// it is, so the first frame is the picture on display.
protocol PartialPresentation: Transition {
  var curve: AnimationCurve { get }
  /// The frame with the presented screen `amount` of the way in.
  func composite(
    in context: TransitionContext, amount: Double, presenting: ScreenSnapshot, presented: ScreenSnapshot
  ) -> Layer
  /// The frame of a dismiss from `presented` filling the screen, `amount`
  /// of the way in (1: all of it, 0: gone).
  func wholeScreenComposite(
    in context: TransitionContext, amount: Double, presenting: ScreenSnapshot, presented: ScreenSnapshot
  ) -> Layer
  /// Where the presented screen's top-left corner rests in the container:
  /// its views are there, moved by as much.
  func presentedOrigin(in context: TransitionContext) -> Point
}

extension PartialPresentation {
  public var valueCurve: AnimationCurve? { curve }

  /// The presented amount at timing value `progress`: `progress` on the way
  /// in, `1 − progress` on the way out.
  func presentedAmount(in context: TransitionContext, progress: Double) -> Double {
    context.operation.isReverse ? 1 - progress : progress
  }

  public func restingLayers(in context: TransitionContext) -> Layer {
    let c = context.operation.isReverse ? context.reversed : context
    return composite(in: c, amount: 1, presenting: c.fromScreen, presented: c.toScreen)
  }

  /// The resting composite, and with each view the presented screen hides
  /// for a shared-element step the composite over that hidden form.
  public func restingScreen(in context: TransitionContext, rendering render: (Layer) -> Bitmap) -> ScreenSnapshot? {
    guard !context.operation.isReverse else { return nil }
    let presenting = context.fromScreen, presented = context.toScreen
    func drawn(_ shown: ScreenSnapshot) -> Bitmap {
      render(composite(in: context, amount: 1, presenting: presenting, presented: shown))
    }
    var hidden: [String: Bitmap] = [:]
    for (id, image) in presented.imagesWithViewHidden {
      var shown = presented
      shown.image = image
      hidden[id] = drawn(shown)
    }
    let origin = presentedOrigin(in: context)
    var resting = ScreenSnapshot(
      name: presented.name, image: drawn(presented),
      viewFrames: presented.viewFrames.mapValues {
        Rect(x: $0.minX + origin.x, y: $0.minY + origin.y, width: $0.width, height: $0.height)
      },
      viewImages: presented.viewImages, imagesWithViewHidden: hidden, viewsTop: presented.viewsTop.map { $0 + origin.y })
    resting.viewImageExtents = presented.viewImageExtents
    resting.isPageSheet = (self as? PageSheet).map { $0.cardWidth <= 0 } ?? false
    return resting
  }

  public func hosting(_ content: Layer, in context: TransitionContext) -> Layer? {
    guard !context.operation.isReverse else { return nil }
    var presented = context.toScreen
    presented.liveContent = content
    return composite(in: context, amount: 1, presenting: context.fromScreen, presented: presented)
  }

  /// The presented picture moves down off the screen over the presenting
  /// screen at rest, as a dismiss animator that moves the presented view
  /// to below the screen does from a full-screen frame: the presenting
  /// screen never moved back (or a present from a sheet's composite left
  /// it in place), so nothing else animates.
  func wholeScreenComposite(
    in context: TransitionContext, amount: Double, presenting: ScreenSnapshot, presented: ScreenSnapshot
  ) -> Layer {
    var leaving = context.snapshotLayer(presented)
    leaving.transform = .translation(x: 0, y: context.height * (1 - amount))
    var container = context.emptyContainer()
    container.sublayers = [context.snapshotLayer(presenting), leaving]
    return container
  }

  public func layers(in context: TransitionContext, at time: Double) -> Layer {
    let reverse = context.operation.isReverse
    let whole = reverse && context.startsFromWholeScreen
    let presenting = reverse ? context.toScreen : context.fromScreen
    let presented = reverse ? context.fromScreen : context.toScreen
    switch TransitionPhase(time: time, duration: duration, delay: delay) {
    case .start:
      return reverse && !whole
        ? composite(in: context, amount: 1, presenting: presenting, presented: presented) : context.startContainer()
    case .end:
      return reverse
        ? context.endContainer() : composite(in: context, amount: 1, presenting: presenting, presented: presented)
    case .running(let elapsed):
      let amount = presentedAmount(in: context, progress: curve.progress(atTime: elapsed, duration: duration))
      return whole
        ? wholeScreenComposite(in: context, amount: amount, presenting: presenting, presented: presented)
        : composite(in: context, amount: amount, presenting: presenting, presented: presented)
    }
  }
}
