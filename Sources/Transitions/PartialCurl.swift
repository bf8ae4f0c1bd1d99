#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Motion
import Raster

/// `partial-curl` — UIModalTransitionStyle.partialCurl (UIKIT.md §2).
///
/// UIKit inserts the presented screen *below* and runs Core Image's page
/// curl on the presenting screen (`inputAngle` 260°, `inputRadius` 200,
/// `inputTime` 0 → T(h)), curling its bottom up until a height h of the
/// presented screen shows: h = H − max(40, top of its topmost subview); a screen without
/// subviews has no such top, and transvid then uncovers half of it.
/// The page stays curled while the presented screen is up; dismiss uncurls.
///
/// Honest approximation (the filter is private and is not rebuilt here):
/// - the curl is a straight fold line, tilted 10° off horizontal (260° is
///   10° from straight down) so the bottom-right corner lifts first, that
///   sweeps up from the corner until its lowest point, at the left edge,
///   is h above the bottom, so all of the height h shows across the width;
/// - below the fold the presenting screen is cut away (a polygon mask) and
///   the presented screen shows;
/// - above the fold the rolled paper is a band of height R·sin(min(L/R, π/2))
///   (L: how far the fold has travelled, R = `radius`, 100 pt by default:
///   CI's 200 px on a @2x layer — INF), filled with a grey-white shading of
///   a cylinder's back; the page's mirrored content on the roll is not drawn;
/// - a 14 pt soft shadow falls from the fold onto the presented screen.
/// Timing: easeInEaseOut over 0.5 s (INF). h defaults from the presented
/// screen's views (the highest one's minY), else half the screen.
/// The present ends on the curled composite (`restingLayers(in:)`). A
/// dismiss of a screen another transition presented uncurls the page from
/// clear of the screen instead (`wholeScreenComposite`).
public struct PartialCurl: PartialPresentation {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.5, curve: .easeInEaseOut, curveText: "easeInEaseOut")

  public static let descriptor = TransitionDescriptor(
    name: "partial-curl", origin: "UIKit (UIModalTransitionStyle.partialCurl)",
    summary: "the bottom of the old screen curls up to uncover the new one beneath; dismiss uncurls (approximation)",
    operations: [.present, .dismiss, .push, .pop],
    parameters: Self.timing.parameters + [
      ParameterDescriptor("reveal", .number, default: "H − max(40, top of the new screen's topmost view); H/2 on a screen without views", "how much of the new screen the curl uncovers, in points up from the bottom (0: the page stays flat)", range: 0...100_000),
      ParameterDescriptor("radius", .number, default: "100", "the curl's radius in points", range: 1...100_000),
    ],
    make: { PartialCurl(parameters: $0) })

  /// The fold's tilt: 260° − 270°, as a downward normal leaning right.
  public static let normal = Point(x: sin(10 * Double.pi / 180), y: cos(10 * Double.pi / 180))
  /// The shadow's depth below the fold.
  public static let shadowDepth = 14.0

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public let reveal: Double?
  public let radius: Double

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    if case .number(let h)? = parameters.values["reveal"] { reveal = h } else { reveal = nil }
    radius = parameters.number("radius", default: 100)
  }

  /// h: the height uncovered at rest, for the presented screen `presented`.
  public func revealHeight(in context: TransitionContext, presented: ScreenSnapshot) -> Double {
    if let reveal { return Swift.min(Swift.max(reveal, 0), context.height) }
    guard let top = presented.viewsTop else { return context.height / 2 }
    return context.height - Swift.max(40, top)
  }

  /// The fold's offset along `normal` (points p with p·n > offset are
  /// curled away) when `amount` curled (0 = flat, 1 = at rest). With
  /// nothing to uncover (h = 0: `reveal: 0`, or the presented screen's
  /// topmost view at its bottom) the page stays flat, as UIKit's curl to
  /// time T(0) = 0 does: a fold whose left end rests on the bottom edge
  /// would still lift the bottom-right corner by W·tan 10° (69 pt on a
  /// 393-point screen) and roll it over the page.
  public func foldOffset(in context: TransitionContext, presented: ScreenSnapshot, amount: Double) -> Double {
    let n = Self.normal
    let flat = context.width * n.x + context.height * n.y  // the bottom-right corner
    let h = revealHeight(in: context, presented: presented)
    guard h > 0 else { return flat }
    let rest = (context.height - h) * n.y  // the fold's left end, its lowest point
    return lerp(flat, rest, amount)
  }

  /// The height uncovered, the roll's radius and the side the page lifts
  /// from: the fold leans one way, so the page mirrored rests otherwise.
  public func restingShape(in context: TransitionContext, mirrored: Bool) -> [Double] {
    let presented = context.operation.isReverse ? context.fromScreen : context.toScreen
    return [revealHeight(in: context, presented: presented), radius, mirrored ? 1 : 0]
  }

  /// The presented screen lies under the page where it was.
  func presentedOrigin(in context: TransitionContext) -> Point { .zero }

  func composite(in context: TransitionContext, amount: Double, presenting page: ScreenSnapshot, presented below: ScreenSnapshot) -> Layer {
    curled(in: context, fold: foldOffset(in: context, presented: below, amount: amount), page: page, below: below)
  }

  /// A dismiss from the presented picture filling the screen: the page
  /// uncurls from curled clear of the screen (its fold and the shadow under
  /// it just past the top-left corner) down to flat, as UIKit's uncurl
  /// brings back a page that showed none of itself.
  func wholeScreenComposite(
    in context: TransitionContext, amount: Double, presenting page: ScreenSnapshot, presented below: ScreenSnapshot
  ) -> Layer {
    let flat = foldOffset(in: context, presented: below, amount: 0)
    return curled(in: context, fold: lerp(flat, -Self.shadowDepth, amount), page: page, below: below)
  }

  /// The page curled along the fold at offset `f` over the screen below it.
  private func curled(in context: TransitionContext, fold f: Double, page: ScreenSnapshot, below: ScreenSnapshot) -> Layer {
    let n = Self.normal
    let travelled = foldOffset(in: context, presented: below, amount: 0) - f
    let band = radius * sin(Swift.min(Swift.max(travelled, 0) / radius, Double.pi / 2))
    // The page, cut along the middle of the roll, which hides it there:
    // cut along the fold, its anti-aliased edge and the roll's would share
    // one line, and each pixel on it would show the page's colour through
    // both, a hairline of the page between the roll and the screen below.
    var pageLayer = context.snapshotLayer(page)
    pageLayer.mask = .shapeMask(
      TransitionPaths.polygon(TransitionPaths.clip(context.bounds, normal: n, offset: f - band / 2)), in: context.bounds)
    // The point of the fold nearest the centre, and the fold's direction.
    let c = context.bounds.center
    let d = f - (c.x * n.x + c.y * n.y)
    let foldPoint = Point(x: c.x + d * n.x, y: c.y + d * n.y)
    let length = 2 * (context.width + context.height)
    func strip(height: Double, centreOffset: Double) -> Layer {
      // A long strip along the fold; local +y points along the normal.
      var layer = Layer(frame: Rect(x: 0, y: 0, width: length, height: height))
      layer.position = Point(x: foldPoint.x + centreOffset * n.x, y: foldPoint.y + centreOffset * n.y)
      layer.transform = .rotation(z: -atan2(n.x, n.y))
      return layer
    }
    // The shadow starts at the fold, and reaches under the roll as far as
    // the page's cut: ending on the roll's lower edge, it would take each
    // pixel there through both edges and leave a light line along the fold.
    let under = band / 2
    var shadow = strip(height: under + Self.shadowDepth, centreOffset: (Self.shadowDepth - under) / 2)
    let darkest = Color(red: 0, green: 0, blue: 0, alpha: 0.3)
    shadow.gradient = Gradient(
      colors: [darkest, darkest, .clear], locations: [0, under / (under + Self.shadowDepth), 1])
    shadow.opacity = clampedUnit(travelled / Self.shadowDepth)
    var roll = strip(height: band, centreOffset: -band / 2)
    roll.gradient = Gradient(
      colors: [Color(red: 0.86, green: 0.86, blue: 0.86), Color(red: 0.98, green: 0.98, blue: 0.98),
               Color(red: 0.93, green: 0.93, blue: 0.93), Color(red: 0.72, green: 0.72, blue: 0.72)],
      locations: [0, 0.35, 0.7, 1])
    var container = context.emptyContainer()
    container.sublayers = [context.snapshotLayer(below), shadow, pageLayer]
    if band > 0 { container.sublayers.append(roll) }
    return container
  }
}
