import Geometry
import Jobs
import Raster

/// The home indicator: the capsule at the bottom of a screen without a Home
/// button, which belongs to the system, not to the view controllers, so no
/// transition moves it, a sheet, a cover or a page flip passing under it as
/// under the status bar (`StatusBar.swift`).
///
/// On iOS it is drawn in an adaptive material that keeps it legible over
/// any content; transvid approximates that with a solid capsule: black
/// (`dark`) for light content, white (`light`) for dark, or (`auto`, the
/// default) as the screen's bottom strip asks — light where its mean luma
/// is below half, cross-fading through a transition between a light and a
/// dark screen — measured as the status bar's style is over the top strip.
/// Its place and size are `HomeIndicatorSpec.frame`.
struct HomeIndicator: Sendable {
  let spec: HomeIndicatorSpec
  /// The strip's height in pixels: the rows the capsule is drawn in and the `auto` style follows.
  let rows: Int
  /// The strip's top row in the canvas's pixels.
  let top: Int
  /// The strip (canvas-wide, transparent but for the capsule) in the dark
  /// and the light ink: the one ink twice when a style is given.
  let drawn: (dark: Bitmap, light: Bitmap)

  init(spec: HomeIndicatorSpec, canvas: CanvasSpec) {
    self.spec = spec
    let scale = Double(canvas.scale)
    let rows = Swift.min(canvas.pixelHeight, Int((HomeIndicatorSpec.followedHeight * scale).rounded(.up)))
    self.rows = rows
    top = canvas.pixelHeight - rows
    let compositor = Compositor(scale: scale)
    let capsule = HomeIndicatorSpec.frame(on: canvas)
    // The strip in points, its top on the canvas's pixel row `top`.
    let stripTop = Double(canvas.pixelHeight - rows) / scale
    func strip(_ ink: Color) -> Bitmap {
      var root = Layer(frame: Rect(x: 0, y: 0, width: Double(canvas.pixelWidth) / scale, height: Double(rows) / scale))
      var pill = Layer(frame: Rect(x: capsule.minX, y: capsule.minY - stripTop, width: capsule.width, height: capsule.height))
      pill.backgroundColor = ink
      pill.cornerRadius = capsule.height / 2
      root.sublayers = [pill]
      return compositor.snapshot(root)
    }
    switch spec.style {
    case .auto: drawn = (strip(.black), strip(.white))
    case .dark: drawn = { ($0, $0) }(strip(.black))
    case .light: drawn = { ($0, $0) }(strip(.white))
    }
  }

  /// Whether the capsule's ink follows the screens.
  var followsScreens: Bool { spec.style == .auto }

  /// How light the capsule over `image` (a canvas-sized picture) is: 1
  /// (white) when its bottom strip is dark, else 0; where `image` is
  /// see-through, what shows there is `image` over `behind`, a backdrop of
  /// the strip's rows (`StatusBarBackdrop.strip(from: top)`).
  func lightness(over image: Bitmap, behind: Bitmap? = nil) -> Double {
    StripLightness.lightness(over: image, rows: Swift.max(0, Swift.min(top, image.height))..<image.height, behind: behind)
  }

  /// Draws the capsule into the canvas in `area` of `bitmap`, its ink `lightness` of the way from dark to light.
  func apply(to bitmap: inout Bitmap, area: PixelArea, lightness: Double) {
    let strip = PixelArea(x: area.x, y: area.y + top, width: area.width, height: Swift.max(0, area.height - top))
    RowBlend.sourceOver(drawn.dark, drawn.light, progress: lightness, into: &bitmap, area: strip)
  }
}
