import Geometry
import Motion
import Raster

/// `sheet` — the iOS 13–18 page sheet (`.pageSheet`, `.automatic`;
/// UIKIT.md §2).
///
/// Present: the sheet rises from below to 10 pt under the safe-area top
/// (8 pt in compact height: a canvas wider than tall and under 500 pt
/// high, as an iPhone held in landscape, whose safe-area top is 0),
/// with corner radius 10, on UIKit's sheet spring (damping ratio 1,
/// response 0.344144233 s — the same ω0 as curve 7, critically damped).
/// Alongside, the presenting screen recedes: it scales by s = 1 − 20/W
/// about its centre and moves up so its top edge sits at the safe-area top
/// (ty = top − 10·H/W), its corners round to 10, black shows behind it, and
/// a black α 0.2 dimming view fades in over it. Dismiss reverses everything.
///
/// The presented screen is drawn full-size inside the sheet (its top part
/// shows); the sheet is 20 pt taller than the space below its top so its
/// lower rounded corners stay off-screen, including during overshoot-free
/// settling. The present ends on the composite (old screen receded, sheet
/// up): `restingLayers(in:)`; a dismiss starts from it. The safe-area top
/// comes from the `safeAreaTop` parameter (59 pt: iPhone 15 class), which
/// a job's device (named, or found by the canvas's size) sets to its own, as a dark appearance sets
/// `dimming` to 0.48 (`JobDecoder.withDeviceDefaults`). The iOS 26 look is
/// not modelled.
///
/// On iPad (`cardWidth` > 0; the job's device sets it) a sheet presents as
/// iPadOS shows it in regular width: a centred card, `cardWidth ×
/// cardHeight` points, UIKit's form-sheet size for the screen's longest
/// side (540 × 600 up to 1024 pt, 580 × 640 up to 1590, 620 × 680 above:
/// a card 60 pt taller than wide, `cardHeight`'s default; shortened to
/// stay inside the safe area on a shorter window, `cardSize`), rising from below
/// on the same spring with corner radius 10, over the presenting screen
/// dimmed in place (it does not recede). The presented screen's top-left
/// part shows in the card.
public struct PageSheet: PartialPresentation {
  /// `duration` and `curve` defaults (descriptor and init alike).
  static let timing = TimingDefaults(duration: 0.5, curve: .spring(Self.spring), curveText: "spring(response: 0.344144233, dampingRatio: 1)")

  public static let descriptor = TransitionDescriptor(
    name: "sheet", origin: "UIKit (UIModalPresentationStyle.pageSheet, iOS 13–18)",
    summary: "a card sheet rises from the bottom while the old screen recedes behind it; dismiss reverses",
    operations: [.present, .dismiss, .push, .pop],
    parameters: Self.timing.parameters + [
      ParameterDescriptor("safeAreaTop", .number, default: "59", "the safe-area top inset in points (status bar / Dynamic Island; a device preset's own)", range: 0...200),
      ParameterDescriptor("dimming", .number, default: "0.2", "the black dimming over the old screen (0.48 in a dark appearance)", range: 0...1),
      ParameterDescriptor("cardWidth", .number, default: "0", "0: a full-width page sheet (iPhone); else a centred card this wide (an iPad preset: 540, 580 or 620 by its longest side)", range: 0...100_000),
      ParameterDescriptor("cardHeight", .number, default: "cardWidth + 60", "the centred card's height in points (UIKit's form sheets: 540 × 600, 580 × 640, 620 × 680)", range: 1...100_000),
    ],
    make: { PageSheet(parameters: $0) })

  /// The sheet's gap below the safe-area top (in regular and in compact
  /// height), and its corner radius.
  public static let topOffset = 10.0
  public static let compactHeightTopOffset = 8.0
  public static let cornerRadius = 10.0
  /// UIKit's sheet spring.
  public static let spring = Spring(response: 0.344144233, dampingRatio: 1)

  public let duration: Double
  public let delay: Double
  public let curve: AnimationCurve
  public let safeAreaTop: Double
  public let dimming: Double
  public let cardWidth: Double
  public let cardHeight: Double

  public init(parameters: TransitionParameters) {
    (duration, delay, curve) = Self.timing.resolve(parameters)
    safeAreaTop = parameters.number("safeAreaTop", default: 59)
    dimming = parameters.number("dimming", default: 0.2)
    cardWidth = parameters.number("cardWidth", default: 0)
    cardHeight = parameters.number("cardHeight", default: cardWidth + 60)
  }

  /// The sheet's gap below the safe-area top in `context`: 8 pt in compact
  /// height (an iPhone in landscape), else 10.
  public static func topOffset(in context: TransitionContext) -> Double {
    topOffset(width: context.width, height: context.height)
  }

  /// `topOffset(in:)` on a `width × height` screen.
  public static func topOffset(width: Double, height: Double) -> Double {
    width > height && height < 500 ? compactHeightTopOffset : topOffset
  }

  /// The centred card on a `width × height` screen: `cardWidth ×
  /// cardHeight`, no wider than the screen and no taller than the screen
  /// less the safe-area top at each end, so on a window shorter than the
  /// form sheet the card stays below the status bar, shortened, as iPadOS
  /// keeps a form sheet inside the safe area.
  public func cardSize(width: Double, height: Double) -> Size {
    let room = height - 2 * safeAreaTop
    return Size(width: Swift.min(cardWidth, width), height: Swift.min(cardHeight, room > 0 ? room : height))
  }

  /// How far the sheet's top moves between rest and below a `width ×
  /// height` screen: the distance a finger dragging it covers.
  public func travel(width: Double, height: Double) -> Double {
    if cardWidth > 0 { return height - (height - cardSize(width: width, height: height).height) / 2 }
    return height - (safeAreaTop + Self.topOffset(width: width, height: height))
  }

  /// The sheet's top edge when `amount` presented (1 = at rest).
  public func sheetTop(in context: TransitionContext, amount: Double) -> Double {
    lerp(context.height, safeAreaTop + Self.topOffset(in: context), amount)
  }

  /// The presenting screen's transform when `amount` presented: scale about
  /// its centre, then the move that puts its top edge at the safe-area top;
  /// a presenting sheet (`card`: its resting composite) moves up by as much
  /// as the scale brings its top down, less the 10 pt it sat below the safe
  /// area, so its card's top shows above the new one (UIKIT.md §2, as
  /// react-navigation's modal interpolator stacks cards).
  public func recedingTransform(in context: TransitionContext, amount: Double, card: Bool = false) -> Transform3D {
    let w = context.width, h = context.height
    let s = lerp(1, 1 - 20 / w, amount)
    let ty = lerp(0, (card ? 0 : safeAreaTop) - 10 * h / w, amount)
    return Transform3D.scale(x: s, y: s).concatenating(.translation(x: 0, y: ty))
  }

  func composite(in context: TransitionContext, amount: Double, presenting below: ScreenSnapshot, presented sheet: ScreenSnapshot) -> Layer {
    if cardWidth > 0 { return formSheet(in: context, amount: amount, presenting: below, presented: sheet) }
    var receding = context.snapshotLayer(below)
    receding.transform = recedingTransform(in: context, amount: amount, card: below.isPageSheet)
    receding.cornerRadius = Self.cornerRadius * clampedUnit(amount)
    receding.masksToBounds = true
    let dim = Layer.solid(Color(red: 0, green: 0, blue: 0, alpha: dimming), frame: context.bounds, opacity: amount)
    let restingTop = safeAreaTop + Self.topOffset(in: context)
    var card = Layer(frame: Rect(x: 0, y: restingTop, width: context.width, height: context.height - restingTop + 2 * Self.cornerRadius))
    card.cornerRadius = Self.cornerRadius
    card.masksToBounds = true
    card.sublayers = [context.snapshotLayer(sheet)]
    card.transform = .translation(x: 0, y: sheetTop(in: context, amount: amount) - restingTop)
    var container = context.emptyContainer()
    container.sublayers = [.solid(.black, frame: context.bounds), receding, dim, card]
    return container
  }

  /// The dimming and where the card rests: under the safe area, or an
  /// iPad's centred card of its size (the same mirrored: both are centred).
  public func restingShape(in context: TransitionContext, mirrored: Bool) -> [Double] {
    guard cardWidth > 0 else { return [dimming, safeAreaTop] }
    let card = cardSize(width: context.width, height: context.height)
    return [dimming, -1, card.width, card.height]
  }

  /// A step inside the sheet has the sheet for its container: an iPad's
  /// card, or an iPhone's page sheet from its rest to the screen's bottom.
  public func hostedContainerSize(in context: TransitionContext) -> Size {
    guard cardWidth > 0 else { return Size(width: context.width, height: context.height - presentedOrigin(in: context).y) }
    return cardSize(width: context.width, height: context.height)
  }

  func presentedOrigin(in context: TransitionContext) -> Point {
    guard cardWidth <= 0 else {
      let card = cardSize(width: context.width, height: context.height)
      return Point(x: (context.width - card.width) / 2, y: (context.height - card.height) / 2)
    }
    return Point(x: 0, y: safeAreaTop + Self.topOffset(in: context))
  }

  /// iPad: the centred card over the dimmed presenting screen.
  func formSheet(in context: TransitionContext, amount: Double, presenting below: ScreenSnapshot, presented sheet: ScreenSnapshot) -> Layer {
    let (w, h) = { ($0.width, $0.height) }(cardSize(width: context.width, height: context.height))
    let restingTop = (context.height - h) / 2
    var card = Layer(frame: Rect(x: (context.width - w) / 2, y: restingTop, width: w, height: h))
    card.cornerRadius = Self.cornerRadius
    card.masksToBounds = true
    let content = context.snapshotLayer(sheet)
    card.sublayers = [content]
    card.transform = .translation(x: 0, y: lerp(context.height, restingTop, amount) - restingTop)
    let dim = Layer.solid(Color(red: 0, green: 0, blue: 0, alpha: dimming), frame: context.bounds, opacity: amount)
    var container = context.emptyContainer()
    container.sublayers = [context.snapshotLayer(below), dim, card]
    return container
  }
}
