// Transitions: the catalog of view-controller transitions.
//
// Each transition is a pure function of (context, time) → layer tree: given
// snapshots of the screen being left and the screen being shown, it builds the
// container layer exactly as the seed's UIKit code would have it at that
// moment of the animation. Nothing here keeps state between frames, so any
// frame can be rendered alone, in any order, on any thread.
//
// A transition declares its parameters (name, kind, default) in a
// `TransitionDescriptor`; the job parser validates a job's parameters against
// that list, and `transvid list` prints it.

import Geometry
import Motion
import Raster

/// Which way a transition runs: `push`/`present` show the new screen,
/// `pop`/`dismiss` return to the screen below.
public enum TransitionOperation: String, Sendable, CaseIterable {
  case push, pop, present, dismiss

  /// True for `pop` and `dismiss`.
  public var isReverse: Bool { self == .pop || self == .dismiss }
}

/// A screen rendered once at the start of a transition
/// (`snapshotView(afterScreenUpdates:)`), with the frames of its views.
public struct ScreenSnapshot: Sendable {
  /// The screen's name in the job file.
  public var name: String
  /// The whole screen, `containerSize × scale` pixels.
  public var image: Bitmap
  /// Frames (in points) of the views that have an `id`.
  public var viewFrames: [String: Rect]
  /// Each identified view rendered alone (for shared-element transitions).
  public var viewImages: [String: Bitmap]
  /// Where a view's image lies in the view's own coordinates (points)
  /// when it is not the view's bounds: an unclipped view's image holds
  /// what it draws beyond its frame (`Layer.drawnBounds`), as its
  /// `snapshotView(afterScreenUpdates:)` does. Without an entry, the bounds.
  public var viewImageExtents: [String: Rect] = [:]
  /// The whole screen rendered with one identified view hidden
  /// (`view.isHidden = true`), by view id. Optional: shared-element
  /// transitions (magic-move) use it to hide the element that flies, as the
  /// seeds do; without it they draw the plain snapshot.
  public var imagesWithViewHidden: [String: Bitmap]
  /// The top edge (points) of the highest of all the screen's views,
  /// identified or not; nil for a screen without views (or one built from
  /// `viewFrames` alone, which then stand for its views).
  public var viewsTop: Double?
  /// Whether this is a page sheet's resting composite, the card over the
  /// screen behind it (`Transition.restingScreen`): a sheet it presents
  /// moves it back as a card, not as a full-screen root.
  public var isPageSheet = false
  /// Drawn where the screen shows instead of `image`: a navigation
  /// transition running inside a sheet's card (`Transition.hosting`).
  public var liveContent: Layer? = nil

  public init(
    name: String, image: Bitmap, viewFrames: [String: Rect] = [:], viewImages: [String: Bitmap] = [:],
    imagesWithViewHidden: [String: Bitmap] = [:], viewsTop: Double? = nil
  ) {
    self.name = name
    self.image = image
    self.viewFrames = viewFrames
    self.viewImages = viewImages
    self.imagesWithViewHidden = imagesWithViewHidden
    self.viewsTop = viewsTop ?? viewFrames.values.map(\.minY).min()
  }
}

/// What a transition sees: UIViewControllerContextTransitioning's view of the
/// world, as snapshots.
public struct TransitionContext: Sendable {
  /// The container view's size in points (the canvas).
  public var containerSize: Size
  /// Pixels per point.
  public var scale: Double
  /// The operation (push, pop, present, dismiss).
  public var operation: TransitionOperation
  /// The screen on display when the transition starts (`fromVC.view`).
  public var fromScreen: ScreenSnapshot
  /// The screen on display when it ends (`toVC.view`).
  public var toScreen: ScreenSnapshot
  /// Whether a dismiss starts from `fromScreen` filling the container as
  /// it is on display, rather than from the composite its own present
  /// leaves: a dismiss naming another transition than the present it
  /// undoes starts from whatever that present left. A presentation over
  /// the old screen (`PartialPresentation`) then takes the whole picture
  /// off the screen its own way, from where it is.
  public var startsFromWholeScreen = false
  /// The screens' size in points where it is not the container's: on a
  /// canvas of fractional points (390.5 pt × 1 = 391 px), or in a card of
  /// them, the snapshots' pixels are a whole number of them, drawn a pixel
  /// for a pixel, as the still frames show them, not stretched over the
  /// container by a fraction of a pixel, which blurred every frame of a
  /// step. (A step inside a sheet or an iPad's card has the card for its
  /// container, `Transition.hostedContainerSize`, and the card's part of
  /// the screens for its screens.) Nil: the container's.
  public var screenSize: Size? = nil

  public init(containerSize: Size, scale: Double, operation: TransitionOperation, fromScreen: ScreenSnapshot, toScreen: ScreenSnapshot) {
    self.containerSize = containerSize
    self.scale = scale
    self.operation = operation
    self.fromScreen = fromScreen
    self.toScreen = toScreen
  }

  /// The container's bounds.
  public var bounds: Rect { Rect(origin: .zero, size: containerSize) }

  /// A full-screen layer showing `screen`'s snapshot, at the screens' size.
  public func snapshotLayer(_ screen: ScreenSnapshot) -> Layer {
    if let live = screen.liveContent { return live }
    var layer = Layer(frame: Rect(origin: .zero, size: screenSize ?? containerSize))
    layer.contents = screen.image
    layer.contentsScale = scale
    return layer
  }

  /// A full-screen layer showing `screen` with the view `id` hidden, when
  /// the snapshot carries that image; otherwise the plain snapshot.
  public func snapshotLayer(_ screen: ScreenSnapshot, hidingView id: String?) -> Layer {
    var layer = snapshotLayer(screen)
    if let id, let image = screen.imagesWithViewHidden[id] { layer.contents = image }
    return layer
  }

  /// The same transition seen from the other side: from and to swapped and
  /// the operation turned around (push ↔ pop, present ↔ dismiss).
  public var reversed: TransitionContext {
    var context = TransitionContext(
      containerSize: containerSize, scale: scale, operation: operation.reversed,
      fromScreen: toScreen, toScreen: fromScreen)
    context.screenSize = screenSize
    return context
  }
}

extension TransitionOperation {
  /// The operation that undoes this one (push ↔ pop, present ↔ dismiss).
  public var reversed: TransitionOperation {
    switch self {
    case .push: .pop
    case .pop: .push
    case .present: .dismiss
    case .dismiss: .present
    }
  }
}

/// A configured transition: `layers(in:at:)` is the whole animation.
public protocol Transition: Sendable {
  /// The animation's length in seconds (`transitionDuration:`), its delay
  /// not included.
  var duration: Double { get }
  /// Seconds before the animation starts (`animateWithDuration:delay:`).
  var delay: Double { get }
  /// The container layer at `time` seconds into the step (0…delay+duration,
  /// its own clock before any gesture). At time 0 it shows the from-screen,
  /// at the end the to-screen; a gesture may move `time` back and forth.
  func layers(in context: TransitionContext, at time: Double) -> Layer
  /// What stays on screen once a forward transition (push/present) has
  /// finished, for as long as the screen it showed is up.
  ///
  /// For most transitions this is just the to-screen (the default). A few
  /// present over the old screen without covering it — `elastic-present`
  /// (a 500 pt sheet over the shrunken old screen), `sheet` and
  /// `partial-curl` — and then it is the whole composite: holds after such a
  /// present should show it, and the matching dismiss starts from it
  /// (`restingLayers(in: context.reversed)` = the dismiss's frame at time 0).
  func restingLayers(in context: TransitionContext) -> Layer
  /// The screen a finished forward step leaves on display, as the steps
  /// after it start from it: nil where that is the to-screen itself (the
  /// default). A presentation over the old screen gives its resting
  /// composite (drawn by `render`), with the presented screen's views
  /// where the composite shows them — so a sheet that presents another
  /// screen, or pushes one, starts from the card and the screen behind it,
  /// as UIKit's `fromVC.view` sits inside them, not from its screen alone.
  func restingScreen(in context: TransitionContext, rendering render: (Layer) -> Bitmap) -> ScreenSnapshot?
  /// The resting composite with `content`, a container-sized layer, where
  /// the presented screen shows: a push or pop inside a sheet runs in its
  /// card, as UIKit's navigation controller inside the presented one does.
  /// Nil for a transition that leaves its to-screen alone on display.
  func hosting(_ content: Layer, in context: TransitionContext) -> Layer?
  /// The container a step running inside this presentation's card sees
  /// (`hosting`), as UIKit's navigation controller there has the card's
  /// bounds: an iPad's form-sheet card, so a push there slides in from the
  /// card's right edge by the card's width; an iPhone's sheet, as tall as
  /// it shows (a circle grows about its middle); else `context`'s container.
  func hostedContainerSize(in context: TransitionContext) -> Size
  /// The one curve every property of the step follows over `duration`
  /// after `delay`, or nil when its properties keep curves of their own
  /// (keyframes, several springs). A gesture's completion then moves the
  /// step's value, not its clock (TIMING.md §5, `Timeline`).
  var valueCurve: AnimationCurve? { get }
  /// What shapes the picture a step of this transition rests on, beside
  /// its screens, in `context` (the step's own: a forward step's or the
  /// reverse step's that undoes it), drawn `mirrored` or not: a step back
  /// of the same shape draws its forward's rest as its first frame, and
  /// one of another shape (a curl mirrored the other way, or uncovering
  /// another height; a card of another height; a sheet dimmed otherwise)
  /// starts from the picture on display, as a step back naming another
  /// transition does. Empty for a transition that rests on its to-screen.
  func restingShape(in context: TransitionContext, mirrored: Bool) -> [Double]
}

extension Transition {
  /// The whole step: delay plus animation.
  public var totalDuration: Double { delay + duration }

  /// How much of the animation's length has passed at `time` on the step's
  /// clock: 0 through the delay, when the old screen shows alone, to 1 at
  /// its end.
  public func animationProgress(atTime time: Double) -> Double {
    guard duration > 0 else { return time >= delay ? 1 : 0 }
    return Swift.min(1, Swift.max(0, (time - delay) / duration))
  }

  public var valueCurve: AnimationCurve? { nil }

  /// The to-screen alone, filling the container.
  public func restingLayers(in context: TransitionContext) -> Layer {
    context.container(showing: context.toScreen)
  }

  public func restingScreen(in context: TransitionContext, rendering render: (Layer) -> Bitmap) -> ScreenSnapshot? { nil }

  public func hosting(_ content: Layer, in context: TransitionContext) -> Layer? { nil }

  public func hostedContainerSize(in context: TransitionContext) -> Size { context.containerSize }

  public func restingShape(in context: TransitionContext, mirrored: Bool) -> [Double] { [] }

  /// Whether a present leaves the screen behind it showing (a sheet, a
  /// card, a curl: `PartialPresentation`), so that what it rests on is a
  /// composite `restingScreen` draws and the renderer keeps, not its to-screen.
  public var restsOverItsScreen: Bool { self is any PartialPresentation }
}
