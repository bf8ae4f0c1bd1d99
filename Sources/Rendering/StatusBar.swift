#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Jobs
import Raster
import Transitions

/// The system status bar: a strip at the top of the screen that belongs to
/// the system, not to the view controllers, so no transition moves it.
///
/// - `statusBar: HEIGHT` — the screenshots carry their own. During a
///   transition the strip shows the two screens' strips cross-fading over
///   the transition's progress (its own clock, so a cancelled gesture fades
///   back), whatever the transition does below it: it slides, scales, flips
///   and dims nothing there, and a sheet or page flip passes under it.
/// - `statusBar: { time, style }` — transvid draws one over every frame:
///   the time in the left ear, cellular bars, Wi-Fi and battery in the
///   right, as vector shapes (on a home-button iPhone, whose 20 pt bar has
///   no ears, the time in the middle at 12 pt, cellular and Wi-Fi at the
///   left and the battery at the right; on an iPad the time at the left); `dark` glyphs for light content, `light` for
///   dark, or (`auto`, the default) as the screen under the bar asks, the
///   way apps set their style per screen. In a right-to-left locale the bar
///   is laid out mirrored, as iOS lays it out in Arabic or Hebrew: the time
///   in the right ear, the battery at the left end (each glyph itself as
///   drawn left to right, as system symbols that are not directional are): light glyphs where the screen's
///   top strip is dark (mean luma below half), and through a transition
///   between a light and a dark screen the glyphs' ink cross-fades over its
///   progress, as UIKit animates a style change alongside a push (on the
///   transition's own clock, as the screenshots' strips: a cancelled
///   gesture fades back).
struct StatusBar: Sendable {
  let spec: StatusBarSpec
  /// The strip's height in pixels.
  let rows: Int
  /// The drawn bar (canvas-wide, transparent) in dark and in light glyphs —
  /// the one style twice when a style is given — or nil for the screenshots' own.
  /// The glyphs sit where the device puts them whatever `height` says, so a
  /// bar written shorter than they reach is drawn down to their bottom.
  let drawn: (dark: Bitmap, light: Bitmap)?

  init(spec: StatusBarSpec, canvas: CanvasSpec, rightToLeft: Bool = false, fonts: FontSet) {
    self.spec = spec
    rows = Int((spec.height * Double(canvas.scale)).rounded())
    drawn = spec.time.map { time in
      let compositor = Compositor(scale: Double(canvas.scale))
      func bar(_ style: StatusBarSpec.Style) -> Bitmap {
        let glyphs = Self.glyphs(
          time: time, style: style, canvas: canvas, height: spec.height, rightToLeft: rightToLeft, fonts: fonts)
        let reach = glyphs.map(\.frame.maxY).max() ?? 0
        var root = Layer(
          frame: Rect(x: 0, y: 0, width: canvas.size.width, height: Swift.max(spec.height, reach.rounded(.up))))
        root.sublayers = glyphs
        return compositor.snapshot(root)
      }
      switch spec.style {
      case .auto: return (bar(.dark), bar(.light))
      case .dark, .light: return { ($0, $0) }(bar(spec.style))
      }
    }
  }

  /// Whether the drawn bar's style follows the screens.
  var followsScreens: Bool { drawn != nil && spec.style == .auto }

  /// How light the glyphs over `image` are: 1 (light) when the top strip
  /// under the bar is dark — its mean luma (BT.709 weights on the sRGB
  /// bytes) below half — else 0 (dark). Where `image` is see-through, the
  /// strip is what shows there: `image` over `behind` (`StatusBarBackdrop`),
  /// at least as tall and as wide.
  func lightness(over image: Bitmap, behind: Bitmap? = nil) -> Double {
    StripLightness.lightness(over: image, rows: 0..<rows, behind: behind)
  }

  /// Fixes the strip of a frame (the canvas in `area` of `bitmap`): the
  /// screens' strips cross-faded at `progress` during a transition, and the
  /// drawn bar on every frame, its glyphs `lightness` of the way from dark to light.
  func apply(
    to bitmap: inout Bitmap, area: PixelArea, transition: (from: Bitmap, to: Bitmap, progress: Double)?,
    lightness: Double = 0
  ) {
    if drawn == nil, let (from, to, progress) = transition {
      RowBlend.crossfade(from: from, to: to, progress: progress, into: &bitmap, area: area, rows: rows)
    }
    if let drawn { RowBlend.sourceOver(drawn.dark, drawn.light, progress: lightness, into: &bitmap, area: area) }
  }

  /// The time, cellular bars, Wi-Fi and battery, placed around the sensor
  /// housing (each glyph's place mirrored `rightToLeft`).
  static func glyphs(
    time: String, style: StatusBarSpec.Style, canvas: CanvasSpec, height: Double, rightToLeft: Bool = false,
    fonts: FontSet
  ) -> [Layer] {
    let ink = style == .light ? Color.white : Color.black
    let width = canvas.size.width
    // Where a glyph `w` wide placed at `x` left to right goes.
    func x(_ x: Double, _ w: Double) -> Double { rightToLeft ? width - x - w : x }
    // The canvas's device, or the one a stage shows a canvas of no device's size in.
    let held = canvas.layoutDevice
    let preset = held?.preset
    // The ears either side of the housing; the centre line of the glyphs.
    var gap = width * 0.4
    var centreY = height / 2
    switch preset?.sensorHousing {
    case .dynamicIsland(let w, let h, let top)? where held?.orientation == .portrait:
      gap = w + 24
      centreY = top + h / 2
    case .notch(let w, let h)? where held?.orientation == .portrait:
      gap = w
      centreY = h / 2 + 1
    default:
      break
    }
    let ear = (width - gap) / 2
    // iPadOS puts the time at the left edge and the icons at the right, smaller;
    // a home-button iPhone (the canvas's, or the one a stage shows a canvas
    // of no device's size in) the time in the middle, cellular and Wi-Fi at
    // the left edge and the battery at the right.
    let isPad = canvas.isLaidOutAsPad
    let isHomeButtonPhone = !isPad && canvas.layoutDevice?.preset.hasHomeButton == true
    var result: [Layer] = []
    var timeFrame =
      isPad
      ? Rect(x: 20, y: centreY - 8, width: 120, height: 16)
      : isHomeButtonPhone
        ? Rect(x: 0, y: centreY - 8, width: width, height: 16) : Rect(x: 0, y: centreY - 11, width: ear, height: 22)
    timeFrame.origin.x = x(timeFrame.minX, timeFrame.width)
    let timeAlignment: TextAlignment = isPad ? (rightToLeft ? .right : .left) : .center
    result.append(
      Label(time, style: TextStyle(size: isPad || isHomeButtonPhone ? 12 : 17, weight: .semibold, color: ink, alignment: timeAlignment))
        .layer(frame: timeFrame, scale: Double(canvas.scale), fonts: fonts))

    // Right ear: cellular (17 × 11), Wi-Fi (15 × 11), battery (27 × 12), 6 pt apart.
    let total = 17.0 + 6 + 15 + 6 + 27
    var left = isPad ? width - 20 - total : isHomeButtonPhone ? 6 : width - ear / 2 - total / 2
    let cellular = x(left, 17)
    for (i, barHeight) in [4.0, 6.5, 9.0, 11.5].enumerated() {
      var bar = Layer(frame: Rect(x: cellular + Double(i) * 4.5, y: centreY + 5.75 - barHeight, width: 3, height: barHeight))
      bar.backgroundColor = ink
      bar.cornerRadius = 1
      result.append(bar)
    }
    left += 17 + 6
    var wifi = Layer(frame: Rect(x: x(left, 15), y: centreY - 5.5, width: 15, height: 11))
    wifi.path = wifiPath(width: 15, height: 11)
    wifi.fillColor = ink
    result.append(wifi)
    left = x(isHomeButtonPhone ? width - 6 - 27 : left + 15 + 6, 27)
    var battery = Layer(frame: Rect(x: left, y: centreY - 6, width: 24.5, height: 12))
    battery.cornerRadius = 3.8
    battery.borderWidth = 1
    battery.borderColor = Color(red: ink.red, green: ink.green, blue: ink.blue, alpha: 0.4)
    var level = Layer(frame: Rect(x: 2, y: 2, width: 20.5, height: 8))
    level.backgroundColor = ink
    level.cornerRadius = 2
    battery.sublayers = [level]
    result.append(battery)
    var cap = Layer(frame: Rect(x: left + 25.5, y: centreY - 2, width: 1.5, height: 4))
    cap.backgroundColor = Color(red: ink.red, green: ink.green, blue: ink.blue, alpha: 0.4)
    cap.cornerRadius = 0.75
    result.append(cap)
    return result
  }

  /// Three Wi-Fi bands: two rings and a wedge, a quarter circle each, from the bottom centre.
  static func wifiPath(width: Double, height: Double) -> Path {
    let centre = Point(x: width / 2, y: height)
    var elements: [Path.Element] = []
    let bands: [(outer: Double, inner: Double)] = [(11, 8.2), (7, 4.3), (3, 0)]
    for band in bands {
      elements += arc(centre: centre, radius: band.outer, from: -3 * .pi / 4, to: -.pi / 4, moving: true)
      if band.inner > 0 {
        elements += arc(centre: centre, radius: band.inner, from: -.pi / 4, to: -3 * .pi / 4, moving: false)
      } else {
        elements.append(.line(to: centre))
      }
      elements.append(.close)
    }
    return Path(elements: elements)
  }

  /// An arc of a circle as one cubic (good to 0.03 % of the radius for a quarter turn).
  static func arc(centre: Point, radius: Double, from a: Double, to b: Double, moving: Bool) -> [Path.Element] {
    func point(_ t: Double) -> Point { Point(x: centre.x + radius * cos(t), y: centre.y + radius * sin(t)) }
    let k = 4.0 / 3.0 * tan((b - a) / 4) * radius
    let p0 = point(a), p3 = point(b)
    let c1 = Point(x: p0.x - k * sin(a), y: p0.y + k * cos(a))
    let c2 = Point(x: p3.x + k * sin(b), y: p3.y - k * cos(b))
    return [moving ? .move(to: p0) : .line(to: p0), .curve(to: p3, control1: c1, control2: c2)]
  }
}
