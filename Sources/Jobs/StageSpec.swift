// StageSpec: `stage:` — what is drawn around the canvas (a device, a
// background, a caption), and `canvas.statusBar`.
//
// The stage is laid out here, in points, where the parser can check sizes:
// the output is the stage's size × the canvas scale. The device's screen
// sits on whole pixels (so each frame's canvas is copied into it 1:1 when
// the canvas is the device's size), the body around it; the caption takes
// `lines` lines of its font above or below the body.

import Geometry
import Raster

/// How the device is held.
public enum DeviceOrientation: String, Hashable, Sendable, CaseIterable {
  case portrait
  /// Turned a quarter counter-clockwise: the top of the device (its
  /// Dynamic Island or camera) on the left, as a user turns a phone.
  case landscape
}

/// A device's finish: the colour of the band around its front.
public struct DeviceFinish: Hashable, Sendable {
  public var name: String
  public var frame: Color

  /// The finishes a stage knows, as Apple names them (hyphens for spaces).
  public static let all: [DeviceFinish] = [
    DeviceFinish(name: "black", frame: Color(red8: 46, green8: 46, blue8: 48)),
    DeviceFinish(name: "white", frame: Color(red8: 227, green8: 228, blue8: 229)),
    DeviceFinish(name: "silver", frame: Color(red8: 214, green8: 215, blue8: 217)),
    DeviceFinish(name: "space-gray", frame: Color(red8: 92, green8: 93, blue8: 96)),
    DeviceFinish(name: "midnight", frame: Color(red8: 43, green8: 48, blue8: 55)),
    DeviceFinish(name: "starlight", frame: Color(red8: 227, green8: 220, blue8: 207)),
    DeviceFinish(name: "blue", frame: Color(red8: 169, green8: 195, blue8: 214)),
    DeviceFinish(name: "pink", frame: Color(red8: 232, green8: 205, blue8: 208)),
    DeviceFinish(name: "yellow", frame: Color(red8: 232, green8: 224, blue8: 184)),
    DeviceFinish(name: "green", frame: Color(red8: 202, green8: 212, blue8: 197)),
    DeviceFinish(name: "red", frame: Color(red8: 179, green8: 20, blue8: 30)),
    DeviceFinish(name: "natural-titanium", frame: Color(red8: 186, green8: 180, blue8: 169)),
    DeviceFinish(name: "blue-titanium", frame: Color(red8: 63, green8: 74, blue8: 88)),
    DeviceFinish(name: "white-titanium", frame: Color(red8: 222, green8: 220, blue8: 214)),
    DeviceFinish(name: "black-titanium", frame: Color(red8: 59, green8: 59, blue8: 61)),
    DeviceFinish(name: "desert-titanium", frame: Color(red8: 191, green8: 164, blue8: 143)),
  ]

  /// The finish written `name` (any case, spaces or hyphens).
  public static func named(_ name: String) -> DeviceFinish? {
    let key = name.lowercased().split(separator: " ").joined(separator: "-")
    return all.first { $0.name == key }
  }
}

/// What fills the stage behind the device.
public enum StageBackground: Hashable, Sendable {
  case color(Color)
  case gradient(Gradient)
  /// An image covering the stage (aspect fill).
  case image(AssetReference)
}

/// A line of text above or below the device.
public struct CaptionSpec: Hashable, Sendable {
  public enum Position: String, Hashable, Sendable, CaseIterable { case top, bottom }

  /// The first caption (the `stage.caption.text`); may be empty.
  public var text: String
  /// `text: { key: K, args: […] }`: the caption from the job's strings,
  /// each locale's own (`text` is the key until it is resolved).
  public var textKey: TextKey? = nil
  public var position: Position
  /// Size, weight and colour; centred.
  public var style: TextStyle
  /// Whether the colour is chosen by what the caption is drawn over (no
  /// `textColor:`): black on a light stage under it, white on a dark one
  /// (`Stage`); `style.color` is the appearance's until then.
  public var inkFollowsBackground = false
  /// How many lines the caption area holds (the text wraps to the stage width).
  public var lines: Int
  /// The most `lines` may be.
  public static let maximumLines = 6
  /// Where `stage.caption` is written.
  public var location: SourceLocation
  /// Where its `font:`'s `file:` or `family:` is written, when it has one.
  public var fontLocation: SourceLocation? = nil

  public init(text: String, position: Position, style: TextStyle, lines: Int, location: SourceLocation) {
    self.text = text
    self.position = position
    self.style = style
    self.lines = lines
    self.location = location
  }

  /// One line's height: 1.25 × the font size, as a UILabel's line with DejaVu/Noto metrics.
  public var lineHeight: Double { (style.size * 1.25).rounded(.up) }
  /// The caption area's height in points.
  public var height: Double { lineHeight * Double(lines) }
}

/// `caption:` on a timeline step: the caption from that step on.
public struct CaptionChange: Hashable, Sendable {
  /// Index into `JobSpec.timeline`.
  public var step: Int
  public var text: String
  /// `caption: { key: K, args: […] }`: from the job's strings (see `CaptionSpec.textKey`).
  public var textKey: TextKey? = nil
  public var location: SourceLocation

  public init(step: Int, text: String, location: SourceLocation) {
    self.step = step
    self.text = text
    self.location = location
  }
}

/// `stage:` — the output is the stage: a background, a device around the
/// canvas (or the canvas alone) and a caption.
public struct StageSpec: Hashable, Sendable {
  /// The stage in points (× the canvas scale in pixels).
  public var size: Size
  /// The drawn device's preset name, or nil for none.
  public var device: String?
  public var orientation: DeviceOrientation
  public var finish: DeviceFinish
  public var background: StageBackground
  public var padding: Double
  /// The screen's corner radius in points when no device is drawn (`device: none`).
  public var cornerRadius: Double = 0
  public var caption: CaptionSpec?
  /// Captions set by timeline steps, in step order.
  public var captionChanges: [CaptionChange] = []
  public var location: SourceLocation

  public init(
    size: Size, device: String?, orientation: DeviceOrientation, finish: DeviceFinish, background: StageBackground,
    padding: Double, caption: CaptionSpec?, location: SourceLocation
  ) {
    self.size = size
    self.device = device
    self.orientation = orientation
    self.finish = finish
    self.background = background
    self.padding = padding
    self.caption = caption
    self.location = location
  }

  /// The drawn device's preset.
  public var preset: DevicePreset? { device.flatMap(DevicePreset.named) }

  /// Whether any caption has text to draw.
  public var hasText: Bool {
    !(caption?.text.isEmpty ?? true) || captionChanges.contains { !$0.text.isEmpty }
  }
}

/// Where everything on a stage goes, in stage points.
public struct StageLayout: Hashable, Sendable {
  /// The device body (portrait or turned), or the screen itself without a device.
  public var body: Rect
  /// The device's screen, on whole pixels.
  public var screen: Rect
  public var screenCornerRadius: Double
  /// The canvas inside the screen, scaled to fit and centred.
  public var canvas: Rect
  /// The caption area (zero height without a caption).
  public var caption: Rect

  /// How far buttons stand out from the body, in points (about 0.6 mm).
  public static let buttonDepth = 4.0

  /// The space the device takes (screen or body, plus its buttons); with no
  /// device, the canvas (its size is already as held).
  public static func deviceExtent(_ stage: StageSpec, canvas: CanvasSpec) -> Size {
    guard let preset = stage.preset else { return canvas.size }
    let body = stage.orientation.turn(preset.bodySize, from: .portrait)
    return Size(width: body.width + 2 * buttonDepth, height: body.height + 2 * buttonDepth)
  }

  /// Space between the caption and the device.
  public static func captionGap(_ caption: CaptionSpec?) -> Double {
    guard let caption else { return 0 }
    return Swift.max(12, (caption.style.size * 0.6).rounded())
  }

  /// The smallest stage for the device, caption and padding.
  public static func fittingSize(_ stage: StageSpec, canvas: CanvasSpec) -> Size {
    let device = deviceExtent(stage, canvas: canvas)
    let caption = (stage.caption?.height ?? 0) + captionGap(stage.caption)
    return Size(width: (device.width + 2 * stage.padding).rounded(.up),
                height: (device.height + caption + 2 * stage.padding).rounded(.up))
  }

  /// `size` grown by a point where needed so that each side is an even
  /// number of pixels at `scale`: 4:2:0 video then takes the stage as it is
  /// (an odd side is padded by a repeated column or row, a copy of every frame).
  public static func evenInPixels(_ size: Size, scale: Int) -> Size {
    func even(_ points: Double) -> Double {
      let whole = points.rounded(.up)
      return Int(whole) * scale % 2 == 0 ? whole : whole + 1
    }
    return Size(width: even(size.width), height: even(size.height))
  }

  public init(stage: StageSpec, canvas: CanvasSpec) {
    let scale = Double(canvas.scale)
    let device = Self.deviceExtent(stage, canvas: canvas)
    let captionHeight = stage.caption?.height ?? 0
    let gap = Self.captionGap(stage.caption)
    let block = device.height + captionHeight + gap
    let top = (stage.size.height - block) / 2
    let deviceTop = stage.caption?.position == .top ? top + captionHeight + gap : top
    let captionTop = stage.caption?.position == .top ? top : top + device.height + gap
    caption = Rect(
      x: stage.padding, y: captionTop, width: Swift.max(0, stage.size.width - 2 * stage.padding), height: captionHeight)
    let centre = Point(x: stage.size.width / 2, y: deviceTop + device.height / 2)
    let screenSize: Size
    if let preset = stage.preset {
      screenSize = stage.orientation.turn(preset.size, from: .portrait)
      screenCornerRadius = preset.screenCornerRadius
    } else {
      screenSize = canvas.size
      screenCornerRadius = stage.cornerRadius
    }
    // The screen's origin on a whole pixel.
    func snap(_ v: Double) -> Double { (v * scale).rounded() / scale }
    screen = Rect(
      x: snap(centre.x - screenSize.width / 2), y: snap(centre.y - screenSize.height / 2), width: screenSize.width,
      height: screenSize.height)
    if let preset = stage.preset {
      let bodySize = stage.orientation.turn(preset.bodySize, from: .portrait)
      body = Rect(
        x: screen.midX - bodySize.width / 2, y: screen.midY - bodySize.height / 2, width: bodySize.width,
        height: bodySize.height)
    } else {
      body = screen
    }
    let fit = Swift.min(screen.width / canvas.size.width, screen.height / canvas.size.height)
    let fitted = Size(width: canvas.size.width * fit, height: canvas.size.height * fit)
    self.canvas = Rect(
      x: screen.midX - fitted.width / 2, y: screen.midY - fitted.height / 2, width: fitted.width,
      height: fitted.height)
  }
}

extension DeviceOrientation {
  /// `size` (held as `from`) as held this way.
  public func turn(_ size: Size, from: DeviceOrientation) -> Size {
    self == from ? size : Size(width: size.height, height: size.width)
  }
}

/// `canvas.statusBar`: the top strip of every screen is the system's, which
/// stays put through transitions.
public struct StatusBarSpec: Hashable, Sendable {
  /// Light text (for dark content) or dark text (for light content), as `UIStatusBarStyle`.
  public enum Style: String, Hashable, Sendable, CaseIterable {
    /// Dark or light, following the screen under the bar (`.default` as an
    /// app sets it per screen): light glyphs where the screen's top strip
    /// is dark, cross-fading as screens change.
    case auto
    /// Dark glyphs, for light backgrounds (`.darkContent`).
    case dark
    /// Light glyphs, for dark backgrounds (`.lightContent`).
    case light
  }

  /// The strip's height in points.
  public var height: Double
  /// nil: the screenshots carry their own status bar; else transvid draws one.
  public var time: String?
  public var style: Style
  /// Where `canvas.statusBar` is written (for notes).
  public var location: SourceLocation?

  public init(height: Double, time: String? = nil, style: Style = .auto, location: SourceLocation? = nil) {
    self.height = height
    self.time = time
    self.style = style
    self.location = location
  }

  /// Whether transvid draws the bar (time, signal, Wi-Fi, battery).
  public var isDrawn: Bool { time != nil }
}

extension CanvasSpec {
  /// Whether iOS hides the status bar here: on an iPhone held in landscape
  /// (an iPad keeps it), and on a canvas of no device compact in height as
  /// one (`SafeArea.isCompactHeight`), whose nav bar is laid out at the top.
  public var hidesStatusBar: Bool { SafeArea.isCompactHeight(self) }

  /// Whether the system's bars are laid out as an iPad's (`SafeArea.isPad`):
  /// a pad's preset, or a canvas of no device whose short side is 600 pt or
  /// more, as its nav bar and home indicator are.
  public var isLaidOutAsPad: Bool { SafeArea.isPad(self) }

  /// The status bar the frames show: none where iOS hides it, drawn or
  /// the screenshots' own.
  public var shownStatusBar: StatusBarSpec? {
    hidesStatusBar ? nil : statusBar
  }
}

extension JobSpec {
  /// The output frame's size in points: the stage's, or the canvas's without one.
  public var frameSize: Size { stage?.size ?? canvas.size }

  /// The output frame's size in pixels: the stage's, or the canvas's without one.
  public var framePixelWidth: Int {
    guard let stage else { return canvas.pixelWidth }
    return Int((stage.size.width * Double(canvas.scale)).rounded())
  }

  public var framePixelHeight: Int {
    guard let stage else { return canvas.pixelHeight }
    return Int((stage.size.height * Double(canvas.scale)).rounded())
  }
}
