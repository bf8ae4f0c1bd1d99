import Geometry
import Motion
import Raster

/// `elastic-present` — seed 002 demo 2 (PEElasticTransition).
///
/// Present: a snapshot of the old screen replaces it (the real view is
/// hidden) and the new view is added above it with its frame set to
/// (0, H, W, 500) — just below the bottom edge, 500 pt tall rather than the
/// full-screen final frame, because "it is presented at the bottom, not full
/// screen". One UIKit spring (damping 0.55, velocity 1/0.55) translates the
/// new view by −500 (so it rests at y = H − 500) and scales the snapshot to
/// 0.85 about its centre. Black (the window) shows around the snapshot.
///
/// Dismiss: the same spring takes both transforms back to identity; the
/// snapshot is removed at the end, leaving the screen below.
///
/// The presented screen is laid out full-screen here (a snapshot cannot be
/// re-laid out at 500 pt), so the sheet shows its top `height` points.
/// A `height` beyond the screen's (500 pt on an iPhone held in landscape)
/// is the screen's: UIKit's 500 pt view covers the screen to its bottom,
/// its top above the screen, while the full-screen snapshot in a sheet that
/// tall would leave the sheet's lower part empty over the old screen; so
/// the sheet rests at the screen's top, the whole presented screen in view.
/// The article does not show `transitionDuration`; transvid uses 0.5 s.
///
/// The present ends on a composite, not a full-screen snapshot: the shrunken
/// old screen with the sheet over it. `layers(at: duration)` and
/// `restingLayers(in:)` return that composite, and a dismiss starts from it.
public struct ElasticPresent: PartialPresentation {
  public static let descriptor = TransitionDescriptor(
    name: "elastic-present", origin: "seed 002 demo 2 (PEElasticTransition)",
    summary: "a sheet springs up from the bottom while the old screen shrinks behind it; dismiss reverses",
    operations: [.present, .dismiss, .push, .pop],
    parameters: SharedParameters.timed(duration: 0.5, curve: "spring(damping: 0.55, velocity: 1/0.55, duration: <duration>)") + [
      ParameterDescriptor("height", .number, default: "500", "the sheet's height in points (at most the screen's)", range: 1...100_000),
      ParameterDescriptor("scale", .number, default: "0.85", "the old screen's final scale", range: 0.01...10),
    ],
    make: { ElasticPresent(parameters: $0) })

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public let height: Double
  public let scale: Double

  public init(parameters: TransitionParameters) {
    let duration = parameters.number("duration", default: 0.5)
    self.duration = duration
    delay = parameters.number("delay", default: 0)
    curve = parameters.curve(
      default: .spring(Spring(duration: duration, dampingRatio: 0.55, initialVelocity: 1 / 0.55)))
    height = parameters.number("height", default: 500)
    scale = parameters.number("scale", default: 0.85)
  }

  /// How far presented the sheet is (0 = hidden below, 1 = up) at spring value `progress`.
  func presented(_ context: TransitionContext, progress: Double) -> Double {
    presentedAmount(in: context, progress: progress)
  }

  /// The sheet's height in `context`: `height`, at most the screen's.
  public func sheetHeight(in context: TransitionContext) -> Double {
    Swift.min(height, context.height)
  }

  /// The sheet's top edge (y, in points) at spring value `progress`.
  public func sheetTop(in context: TransitionContext, progress: Double) -> Double {
    context.height - sheetHeight(in: context) * presented(context, progress: progress)
  }

  /// The old screen's scale at spring value `progress`.
  public func backgroundScale(in context: TransitionContext, progress: Double) -> Double {
    lerp(1, scale, presented(context, progress: progress))
  }

  /// The sheet's height and the old screen's scale (the same mirrored: the
  /// card spans the screen, the old screen shrinks about its centre).
  public func restingShape(in context: TransitionContext, mirrored: Bool) -> [Double] {
    [sheetHeight(in: context), scale]
  }

  /// A step inside the sheet has the sheet for its container, `height` tall.
  public func hostedContainerSize(in context: TransitionContext) -> Size {
    Size(width: context.width, height: sheetHeight(in: context))
  }

  /// The tree for a sheet `amount` presented (1 = at rest), in the
  /// present's terms: `below` is the old screen, `sheet` the new one.
  func presentedOrigin(in context: TransitionContext) -> Point { Point(x: 0, y: context.height - sheetHeight(in: context)) }

  func composite(in context: TransitionContext, amount: Double, presenting below: ScreenSnapshot, presented sheet: ScreenSnapshot) -> Layer {
    var background = context.snapshotLayer(below)
    let s = lerp(1, scale, amount)
    background.transform = .scale(x: s, y: s)
    // toVC.view.frame = (0, H, W, height); transform = translation(0, −height·amount).
    let height = sheetHeight(in: context)
    var sheetLayer = Layer(frame: Rect(x: 0, y: context.height, width: context.width, height: height))
    sheetLayer.masksToBounds = true
    sheetLayer.sublayers = [context.snapshotLayer(sheet)]
    sheetLayer.transform = .translation(x: 0, y: -height * amount)
    var container = context.emptyContainer()
    container.sublayers = [background, sheetLayer]
    return container
  }
}
