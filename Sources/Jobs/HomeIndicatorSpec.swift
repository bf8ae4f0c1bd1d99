// `canvas.homeIndicator`: the bar at the bottom of a screen without a Home
// button, the system's like the status bar, so no transition moves it.
//
//   canvas: { homeIndicator: true }     # auto: dark over light content, light over dark
//   canvas: { homeIndicator: light }    # or dark: one style throughout
//
// Every preset but `iphone-se` (which has a Home button) shows it, the iPads
// too, in portrait and in landscape; a canvas of no device is laid out as
// the iPhone or iPad it is sized as (`HomeIndicatorSpec.frame`).

import Geometry

/// `canvas.homeIndicator`: transvid draws the home indicator over every frame.
public struct HomeIndicatorSpec: Hashable, Sendable {
  /// Dark (for light content), light (for dark content), or following the
  /// screen under it, as the status bar's styles are.
  public var style: StatusBarSpec.Style
  /// Where `canvas.homeIndicator` is written (for notes).
  public var location: SourceLocation?

  public init(style: StatusBarSpec.Style = .auto, location: SourceLocation? = nil) {
    self.style = style
    self.location = location
  }

  /// The indicator's capsule on `canvas`, in points. Apple publishes no
  /// figures; these are the ones Apple's design templates draw and screen
  /// recordings show: 134 × 5 pt on an iPhone in portrait and 209 × 5 in
  /// landscape, 320 × 5 on an iPad either way, fully rounded, centred, its
  /// bottom 8 pt above the screen's bottom edge. A canvas of no device is an
  /// iPhone held sideways when it is laid out as one (`SafeArea.isCompactHeight`),
  /// an iPad when its short side is 600 pt or more, else an iPhone upright.
  public static func frame(on canvas: CanvasSpec) -> Rect {
    let width = SafeArea.isPad(canvas) ? 320.0 : SafeArea.isCompactHeight(canvas) ? 209 : 134
    let height = 5.0, bottom = 8.0
    return Rect(
      x: (canvas.size.width - width) / 2, y: canvas.size.height - bottom - height, width: width, height: height)
  }

  /// The strip around the capsule whose content the `auto` style follows:
  /// the screen's bottom 21 points (the capsule and 8 pt above it), across the screen.
  public static let followedHeight = 21.0
}

extension CanvasSpec {
  /// Whether iOS shows no home indicator here: on a device with a Home
  /// button (the canvas's, or the one a stage shows it in: `layoutDevice`).
  public var hidesHomeIndicator: Bool { layoutDevice?.preset.hasHomeButton == true }

  /// The home indicator the frames show: none on a device with a Home button.
  public var shownHomeIndicator: HomeIndicatorSpec? {
    hidesHomeIndicator ? nil : homeIndicator
  }
}
