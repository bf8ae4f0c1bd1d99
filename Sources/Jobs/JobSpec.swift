// Jobs: from a job file to what the renderer needs.
//
//   job.cfg ─parse (libyaml, line:col kept)─▶ JobSpec (typed, validated)
//   JobSpec ─scene builder─▶ screens as layer trees ─snapshot─▶ bitmaps
//   JobSpec.timeline ─▶ Timeline: which segment and time every frame shows
//
// A job file is user input: every problem is a `Diagnostic` carrying the
// file, line and column it comes from, never a crash.

import Geometry
import Motion
import Raster
import Transitions

/// A place in a job file (1-based line and column, as editors show them).
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `FILE:LINE:COL`, the file's name as `shown`.
  public var description: String { "\(SourceLocation.shown(file)):\(line):\(column)" }

  /// `path` as messages show a file: each character `YAMLNode.quoted`
  /// escapes (a newline, a tab, U+202E: a file may be named with any of
  /// them) written `\u{a}`, so the `FILE:LINE:COL: error:` line stays one
  /// line, in order.
  public static func shown(_ path: String) -> String {
    guard path.unicodeScalars.contains(where: YAMLNode.isEscaped) else { return path }
    var out = ""
    for c in path.unicodeScalars {
      if YAMLNode.isEscaped(c) { out += "\\u{\(String(c.value, radix: 16))}" } else { out.unicodeScalars.append(c) }
    }
    return out
  }
}

/// A validated job: everything needed to render its outputs.
public struct JobSpec: Sendable {
  /// The job's name (default: the file name without extension); names outputs.
  public var name: String
  /// The job file's path as given.
  public var file: String
  public var canvas: CanvasSpec
  public var output: OutputSpec
  /// Screens in file order.
  public var screens: [ScreenSpec]
  public var timeline: [TimelineStep]
  /// Every image the screens refer to, in file order (a file named twice
  /// appears twice, each with its own key). Loaders decode these and key
  /// the bitmaps by `AssetReference.resolvedPath`.
  public var assets: [AssetReference]
  /// Where the keys that size the outputs were written (`canvas`,
  /// `canvas.size`, `output.gif.width`, `output.sheet`, `output.sheet.width`),
  /// for errors found when `--format` picks other outputs (`OutputSizes.swift`).
  public var sizeSources: [String: SourceLocation] = [:]
  /// Where the job's `name` is written (its file's start when it has none:
  /// the name is then the file's).
  public var nameLocation: SourceLocation? = nil
  /// What the job will do that its author may not expect (`JobNote.swift`).
  public var notes: [JobNote] = []
  /// `locales:` and `strings:` (`Localization.swift`); nil once localized.
  public var localization: Localization? = nil
  /// The locale this job renders (`localized(to:)`), nil for a job without locales.
  public var locale: String? = nil
  /// Why this locale's job cannot render: a string of its that cannot take
  /// a key's `args` (`checkLocale()` throws it). One locale's translation
  /// fails that locale alone, as its own job.
  public var localeProblem: Diagnostic? = nil
  /// `appearances: [light, dark]` and the job decoded in each but light
  /// (`JobSpec+Appearances.swift`); empty without the key.
  public var appearances: [String] = []
  public var appearanceVariants: [String: JobSpec] = [:]
  /// The appearance this job renders, nil for a job without appearances.
  public var appearance: String? = nil
  /// `stage:` — a device, background and caption around the canvas (`StageSpec.swift`).
  public var stage: StageSpec? = nil
  /// Which of the settings an `OutputTarget` fills in the file writes itself
  /// (`output.formats`, `canvas.background`, …; `OutputTarget.swift`).
  public var writtenSettings: Set<String> = []
  /// What a target may fill in, as it was before the first target filled
  /// it: another target (`--target` on a job with its own) starts again
  /// from there (`OutputTarget.swift`).
  var untargeted: TargetSettings? = nil

  public init(
    name: String, file: String, canvas: CanvasSpec, output: OutputSpec, screens: [ScreenSpec], timeline: [TimelineStep],
    assets: [AssetReference]? = nil
  ) {
    self.name = name
    self.file = file
    self.canvas = canvas
    self.output = output
    self.screens = screens
    self.timeline = timeline
    self.assets = assets ?? JobSpec.assets(of: screens)
  }

  /// The images `screens` refer to, in file order: each screen's screenshot,
  /// then its views' images.
  public static func assets(of screens: [ScreenSpec], stage: StageSpec? = nil) -> [AssetReference] {
    var stageImage: [AssetReference] = []
    if case .image(let asset)? = stage?.background { stageImage = [asset] }
    return screens.flatMap { screen in
      [screen.image?.asset].compactMap { $0 } + screen.views.compactMap { $0.image?.asset }
    } + stageImage
  }

  /// Whether any view has a label (so fonts are needed).
  public var hasText: Bool {
    screens.contains { $0.views.contains { $0.text != nil } } || stage?.hasText == true
      || canvas.statusBar?.isDrawn == true
  }

  /// The screen named `name`.
  public func screen(named name: String) -> ScreenSpec? { screens.first { $0.name == name } }
}

/// `canvas:` — size in points, scale, frame rate and background.
public struct CanvasSpec: Hashable, Sendable {
  public var size: Size
  public var scale: Int
  public var fps: Int
  public var background: Color
  /// The preset `device:` named, turned to `orientation` (size is already turned).
  public var device: String? = nil
  public var orientation: DeviceOrientation = .portrait
  /// The preset a stage draws this canvas in where the canvas is no
  /// device's screen (`CanvasSpec.layoutDevice`), and how the stage holds it.
  public var stageDevice: String? = nil
  public var stageOrientation: DeviceOrientation = .portrait
  /// `statusBar:` — the system's strip at the top, fixed through transitions.
  public var statusBar: StatusBarSpec? = nil
  /// `homeIndicator:` — the system's bar at the bottom, fixed through transitions.
  public var homeIndicator: HomeIndicatorSpec? = nil
  /// The rate is `fps × 1000/1001` (29.97, 59.94, …; `FrameRate.swift`).
  public var isFractional = false

  public init(size: Size, scale: Int, fps: Int, background: Color) {
    self.size = size
    self.scale = scale
    self.fps = fps
    self.background = background
  }

  /// The frame size in pixels.
  public var pixelWidth: Int { Int((size.width * Double(scale)).rounded()) }
  public var pixelHeight: Int { Int((size.height * Double(scale)).rounded()) }
}

/// An output format, by the name `formats:` and `--format` take. The job
/// file names it and holds its settings; the writer behind it (in Media) is
/// registered where both are visible, in the command line's registry.
public enum OutputFormat: String, Hashable, Sendable, CaseIterable {
  case mp4, gif, png, sheet, webm, mov, apng, webp

  /// Every format's name, in the order they are listed.
  public static var names: [String] { allCases.map(\.rawValue) }

  /// `; did you mean 'mp4'?` for a near miss of a format's name, else
  /// `; expected one of: mp4, gif, …`.
  public static func hint(forUnknown name: String) -> String { Suggestion.hint(for: name, in: names) }
}

/// `output:` — where and what to write.
public struct OutputSpec: Hashable, Sendable {
  /// `dir:` relative to the job file, or nil (the command line decides).
  public var directory: String?
  /// Where `dir:` is written (line 1, column 1 when it is not).
  public var directoryLocation = SourceLocation(file: "", line: 1, column: 1)
  public var formats: [OutputFormat]
  public var mp4: MP4Settings
  public var gif: GIFSettings
  public var png: PNGSettings
  public var sheet: SheetSettings
  public var webm = WebMSettings()
  public var mov = MOVSettings()
  public var apng = APNGSettings()
  public var webp = WebPSettings()
  /// `matte:` — what mp4 and gif show behind a transparent canvas (opaque; `Transparency.swift`).
  public var matte = Color.black
  /// `target:` — the destination whose settings were filled in (`OutputTarget.swift`).
  public var target: OutputTarget?

  public init(
    directory: String? = nil, formats: [OutputFormat] = [.mp4], mp4: MP4Settings = MP4Settings(),
    gif: GIFSettings = GIFSettings(), png: PNGSettings = PNGSettings(), sheet: SheetSettings = SheetSettings()
  ) {
    self.directory = directory
    self.formats = formats
    self.mp4 = mp4
    self.gif = gif
    self.png = png
    self.sheet = sheet
  }
}

/// `output.gif:` — size, frame rate, palette and looping of the GIF; nil
/// leaves the choice to the writer.
public struct GIFSettings: Hashable, Sendable {
  /// How quantised colours are spread (`dither:`).
  public enum Dither: String, Hashable, Sendable, CaseIterable {
    case bayer, sierra2_4a, floydSteinberg = "floyd_steinberg", none
  }

  /// `palette:` — one palette for the file (`global`), that and an image's
  /// own where the global one fails on a screen that stays (`auto`), or
  /// one per frame.
  public enum Palette: String, Hashable, Sendable, CaseIterable {
    case global, auto, perFrame = "per-frame"
  }

  /// `loop:` — `forever`, or how many times to repeat after the first play
  /// (0: play once).
  public enum Loop: Hashable, Sendable {
    case forever
    case `repeat`(Int)
  }

  /// The narrowest `width:` a job may ask for, and so the narrowest a
  /// `maxBytes` search makes a GIF: a width the job could write is one the
  /// budget may choose.
  public static let narrowestWidth = 16

  /// Width in pixels (16…65535, at most `--max-side`² pixels in all); the height keeps the canvas's aspect ratio.
  public var width: Int?
  /// Frames per second (1…50: GIF delays are whole centiseconds, at least 2).
  public var fps: Int?
  /// Most colours in the palette (4…256), the transparent entry included.
  public var maxColors: Int?
  /// The largest acceptable file; the writer lowers colours, fps and width until it fits.
  public var maxBytes: Int?
  public var dither: Dither?
  /// Bayer pattern scale 0…5 (only with `dither: bayer`, an error without it).
  public var bayerScale: Int?
  public var palette: Palette?
  public var loop: Loop?
  /// 1…100: the palette's colours (100: 256, 50: 128); `maxColors` wins. With
  /// `palette: per-frame`, libimagequant's quality target for each frame's palette.
  public var quality: Int? = nil
  /// 0…255: the most a pixel's R, G or B may differ from the lossless GIF's (0: lossless).
  public var lossy: Int? = nil

  public init(
    width: Int? = nil, fps: Int? = nil, maxColors: Int? = nil, maxBytes: Int? = nil, dither: Dither? = nil,
    bayerScale: Int? = nil, palette: Palette? = nil, loop: Loop? = nil
  ) {
    self.width = width
    self.fps = fps
    self.maxColors = maxColors
    self.maxBytes = maxBytes
    self.dither = dither
    self.bayerScale = bayerScale
    self.palette = palette
    self.loop = loop
  }
}

/// `output.png:` — the poster frame.
public struct PNGSettings: Hashable, Sendable {
  /// Seconds from the start; nil: the middle of the first transition (or of
  /// the whole timeline when it has none). Clamped to the last frame.
  public var time: Double?

  public init(time: Double? = nil) {
    self.time = time
  }
}

/// `output.sheet:` — the contact sheet: `frames` frames (at most the
/// video's) spread evenly over the timeline (first and last included),
/// `columns` to a row, time labels.
public struct SheetSettings: Hashable, Sendable {
  public var frames: Int
  public var columns: Int
  /// Width of the whole sheet in pixels; nil: each thumbnail half the canvas
  /// width in points.
  public var width: Int?

  public init(frames: Int = 12, columns: Int = 4, width: Int? = nil) {
    self.frames = frames
    self.columns = columns
    self.width = width
  }
}

/// `output.mp4:` — libx264 settings.
public struct MP4Settings: Hashable, Sendable {
  /// Constant rate factor, 1…51 (0, lossless, needs High 4:4:4, which the writer does not produce).
  public var crf: Int
  /// One of x264's presets (`ultrafast` … `placebo`).
  public var preset: String
  /// `maxBytes:` — the largest acceptable file: a two-pass encode at the
  /// rate that fills it (`crf` is then unused), or, with `capsCRF`, the
  /// `crf` encode when it fits.
  public var maxBytes: Int? = nil
  /// Whether `maxBytes` only caps the `crf` encode, as when the job writes
  /// `crf` beside it (the quality it asked for, which more bits would only
  /// make larger) or a target sets the budget (GitHub's upload limit, not
  /// a size to fill): the file is encoded at `crf`, and in two passes at
  /// the rate that fits only when that is over the budget.
  public var capsCRF = false
  /// `width:` or `height:` (`VideoSize.swift`).
  public var size = VideoSize()
  /// `frameRate:` — `constant` (every frame a picture) or `variable` (holds
  /// coded once; `FrameRateMode.swift`).
  public var frameRate = FrameRateMode.constant

  public init(crf: Int = 18, preset: String = "medium") {
    self.crf = crf
    self.preset = preset
  }

  /// x264's preset names, fastest first.
  public static let presets = [
    "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
  ]
}

/// `output.webm:` — libvpx-vp9 settings.
public struct WebMSettings: Hashable, Sendable {
  /// Constant quality, 0…63 (lower is better).
  public var crf: Int
  /// libvpx `cpu-used`, 0…5: higher is faster, the file a little larger.
  public var speed: Int
  /// `maxBytes:` — as `MP4Settings.maxBytes`.
  public var maxBytes: Int? = nil
  /// As `MP4Settings.capsCRF`.
  public var capsCRF = false
  /// `width:` or `height:` (`VideoSize.swift`).
  public var size = VideoSize()
  /// `frameRate:` — as `MP4Settings.frameRate`.
  public var frameRate = FrameRateMode.constant

  /// crf 31 is libvpx's middle of the scale. Speed 2 is the default: on
  /// the photo demo (393×852, 60 fps) it gives a file 14 % smaller than
  /// speed 4 for about one more second of encoding in an 18 s render, since
  /// the encoder runs beside the compositor; speed 1 costs three times the
  /// encoding for 3 % less.
  public init(crf: Int = 31, speed: Int = 2) {
    self.crf = crf
    self.speed = speed
  }
}

/// How often an animation (GIF, APNG, WebP) plays.
public typealias AnimationLoop = GIFSettings.Loop

/// `output.apng:` — the animated PNG (lossless, every frame at the canvas rate).
public struct APNGSettings: Hashable, Sendable {
  /// nil: forever.
  public var loop: AnimationLoop?

  public init(loop: AnimationLoop? = nil) {
    self.loop = loop
  }
}

/// `output.webp:` — the animated WebP.
public struct WebPSettings: Hashable, Sendable {
  /// Lossy quality, 0…100 (ignored when `lossless`).
  public var quality: Int
  public var lossless: Bool
  /// nil: forever.
  public var loop: AnimationLoop?

  public init(quality: Int = 80, lossless: Bool = false, loop: AnimationLoop? = nil) {
    self.quality = quality
    self.lossless = lossless
    self.loop = loop
  }
}

extension AnimationLoop {
  /// The container's play count: 0 for forever, else the repeats plus the first play.
  public var plays: Int {
    switch self {
    case .forever: 0
    case .repeat(let n): n + 1
    }
  }
}

/// A screen: a background colour, optionally a screenshot filling it, and
/// views on top.
public struct ScreenSpec: Hashable, Sendable {
  public var name: String
  public var background: Color?
  /// `image:` — a screenshot over the background and under the views,
  /// filling the canvas (`contentMode: fill`, the default, or `fit`).
  public var image: ImageSpec?
  public var views: [ViewSpec]
  public var location: SourceLocation
  /// The width of the card narrower than the screen the screen is shown in
  /// (an iPad's form sheet, a sheet's `cardWidth`: the one a sheet presents
  /// it in, or the one a push inside a sheet runs in), nil where it fills
  /// the screen's width: its views are laid out in the card, at its left
  /// part, so a right-to-left layout mirrors them in the card and a step
  /// drawn mirrored flips it there, as the card shows it.
  public var cardWidth: Double? = nil
  /// The height of that card (at most the screen's), nil where there is
  /// none: the screenshot (`image`) fills the card, as a screenshot of a
  /// view controller shown in a form sheet is the card's size.
  public var cardHeight: Double? = nil

  /// Where the screenshot is drawn, in points: the card the screen is shown
  /// in (`cardWidth`, `cardHeight`), else the whole `screen`.
  public func screenshotArea(on screen: Size) -> Size {
    guard let cardWidth, let cardHeight else { return screen }
    return Size(width: cardWidth, height: cardHeight)
  }

  public init(name: String, background: Color?, image: ImageSpec? = nil, views: [ViewSpec], location: SourceLocation) {
    self.name = name
    self.background = background
    self.image = image
    self.views = views
    self.location = location
  }
}

/// An image file a job refers to, and where.
public struct AssetReference: Hashable, Sendable {
  /// The path as the job file writes it (relative to the job file, or absolute).
  public var path: String
  /// The path to open: `path` joined to the job file's folder.
  public var resolvedPath: String
  /// The key that names it: `screens.home.image`, `screens.home.views[2].image`.
  public var key: String
  /// Where that key is.
  public var location: SourceLocation

  public init(path: String, resolvedPath: String, key: String, location: SourceLocation) {
    self.path = path
    self.resolvedPath = resolvedPath
    self.key = key
    self.location = location
  }
}

/// How an image fills its frame (`UIView.ContentMode`).
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
  /// `scaleAspectFill`: covers the frame, cropped (clipped to the frame).
  case fill
  /// `scaleAspectFit`: fits inside the frame, letterboxed.
  case fit
  /// `scaleToFill`: stretched to the frame.
  case stretch
  /// `center`: at its own size (pixels ÷ the canvas scale), centred.
  case center

  /// UIKit's `UIView.ContentMode` case for this mode.
  public var uikitName: String {
    switch self {
    case .fill: return "scaleAspectFill"
    case .fit: return "scaleAspectFit"
    case .stretch: return "scaleToFill"
    case .center: return "center"
    }
  }

  /// The mode UIKit calls `name` (`scaleAspectFit`, or `aspectFit` without
  /// the prefix), in any case; nil for other text.
  public init?(uikitName name: String) {
    let lowered = name.lowercased()
    guard let mode = ContentMode.allCases.first(where: {
      let uikit = $0.uikitName.lowercased()
      return lowered == uikit || "scale" + lowered == uikit
    }) else { return nil }
    self = mode
  }

  /// The layer's `contentsGravity` for this mode.
  public var gravity: ContentsGravity {
    switch self {
    case .fill: return .resizeAspectFill
    case .fit: return .resizeAspect
    case .stretch: return .resize
    case .center: return .center
    }
  }
}

/// `image:` with its `contentMode:`.
public struct ImageSpec: Hashable, Sendable {
  public var asset: AssetReference
  public var contentMode: ContentMode

  public init(asset: AssetReference, contentMode: ContentMode = .fill) {
    self.asset = asset
    self.contentMode = contentMode
  }
}

/// `kind:` — a UIKit-looking building block whose defaults the decoder fills in.
public enum ViewKind: String, Hashable, Sendable, CaseIterable {
  /// A plain view: colour, gradient, image and/or label, as given.
  case view
  /// A navigation bar: full width under the status bar, translucent white,
  /// hairline below, `text` as the centred semibold title.
  case navbar
  /// A table cell (inset grouped): white rounded rectangle, `text` left-aligned 16 pt in.
  case cell
  /// A filled button: tinted rounded rectangle, `text` centred in white semibold.
  case button
}

/// A view on a screen: a (rounded) rectangle of colour or gradient, an
/// image, a single-line label, or several of these stacked in that order.
public struct ViewSpec: Hashable, Sendable {
  /// The id transitions refer to (`element: {from: photo3, to: hero}`).
  public var id: String?
  public var kind: ViewKind
  /// The frame in points.
  public var frame: Rect
  public var color: Color?
  /// `corner:` radius in points.
  public var cornerRadius: Double
  /// `gradient:` over the colour (CAGradientLayer, unit start and end points).
  public var gradient: Gradient?
  /// `image:` over the colour and gradient, at its content mode's place in
  /// the frame (clipped to it unless `clipsToBounds` is false).
  public var image: ImageSpec?
  /// `clipsToBounds:` whether the image and label are clipped to the
  /// (rounded) frame: true for a view with an image, as app screens set an
  /// image view's clipsToBounds (a `fill` cropped, a corner rounding the
  /// image), else UIView's default, false.
  public var clipsToBounds = false
  /// `text:` — one line of text on top.
  public var text: String?
  /// `text: { key: … }`: `text` comes from the job's strings.
  public var textKey: TextKey? = nil
  /// Where the view's font `file` or `family` (else its `font:`) is written:
  /// errors about loading the font go there.
  public var fontLocation: SourceLocation? = nil
  /// `mirror: false`: the view keeps its place in a right-to-left layout (photos, logos).
  public var mirrors = true
  /// A navigation bar's own height below the status bar, where its title
  /// centres (its default frame's: 32, 44, 50 or 56 pt); nil for a bar of
  /// the job's own frame, whose title takes its bottom 44 pt.
  public var barHeight: Double? = nil
  /// `font`, `textColor` and `align`.
  public var textStyle: TextStyle
  public var location: SourceLocation

  public init(
    id: String?, kind: ViewKind = .view, frame: Rect, color: Color?, cornerRadius: Double,
    gradient: Gradient? = nil, image: ImageSpec? = nil, text: String? = nil,
    textStyle: TextStyle = TextStyle(color: .black), location: SourceLocation
  ) {
    self.id = id
    self.kind = kind
    self.frame = frame
    self.color = color
    self.cornerRadius = cornerRadius
    self.gradient = gradient
    self.image = image
    self.text = text
    self.textStyle = textStyle
    self.location = location
  }

  /// Where the label goes, in the view's own coordinates: cells inset it
  /// 16 pt on each side, a navigation bar puts its title in its bar below
  /// the status bar (`barHeight`, else its bottom 44 pt).
  public var textFrame: Rect {
    let bounds = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
    switch kind {
    case .view, .button: return bounds
    case .cell:
      return Rect(x: 16, y: 0, width: Swift.max(0, frame.width - 32), height: frame.height)
    case .navbar:
      let h = Swift.min(barHeight ?? 44, frame.height)
      return Rect(x: 16, y: frame.height - h, width: Swift.max(0, frame.width - 32), height: h)
    }
  }
}

/// One step of the timeline.
public enum TimelineStep: Hashable, Sendable {
  /// `hold: SECONDS` — show the current screen still.
  case hold(seconds: Double, location: SourceLocation)
  /// `push:`, `pop:`, `present:`, `dismiss:`.
  case transition(TransitionStep)
}

/// A push/pop/present/dismiss step, resolved: both screens are known, and a
/// pop's parameters already include those of the push it undoes.
public struct TransitionStep: Hashable, Sendable {
  public var operation: TransitionOperation
  /// The screen on display before the step.
  public var from: String
  /// The screen on display after it.
  public var to: String
  /// The catalog name (`circle-spread`).
  public var transition: String
  /// The values the job gives (defaults are the transition's). An `element`
  /// always runs from a view of `from` to a view of `to`: a pop inheriting
  /// its push's `{from: photo, to: hero}` gets `{from: hero, to: photo}`.
  public var parameters: TransitionParameters
  /// A finger driving the step, or nil for a plain animation.
  public var gesture: GestureSpec?
  /// `mirror:`: whether the step is drawn mirrored left to right; nil
  /// lets the locale decide (`JobSpec.localized(to:)`).
  public var mirror: Bool? = nil
  /// How many times slower than real time the step plays (`slowmo:`).
  public var slowmo: Double = 1
  /// Where a touch indicator shows (`touch:`), in points; nil for none.
  /// With a gesture, where the finger is at percentComplete 0.
  public var touch: Point?
  /// Whether `touch` is where the gesture's finger starts, at the edge it
  /// drags from (`touch: true` on a gesture step with no tap, origin or
  /// element), not a point on a view: a right-to-left layout moves it as it
  /// moves the gesture, not as it moves the view under it.
  public var touchStartsGesture = false
  /// The parameter (`tap`, `origin`) `touch: true` put the touch on: it
  /// stays on it wherever a right-to-left layout puts that parameter.
  public var touchParameter: String? = nil
  /// The card the step runs in, narrower or shorter than the screen: a push
  /// while a sheet is up runs in its card, and so does the pop that undoes
  /// it (`Transition.hostedContainerSize`); nil for the whole screen. Its
  /// gesture, touch, tap and origin are in the card's space, and a step
  /// drawn mirrored flips about the card's width.
  public var container: Size? = nil
  /// Keys the step writes that it does not use, noted when the job renders:
  /// a partial curl's step back uncurls its forward's page (`uncurl`).
  public var unusedKeys: [String] = []
  public var location: SourceLocation

  public init(
    operation: TransitionOperation, from: String, to: String, transition: String, parameters: TransitionParameters,
    gesture: GestureSpec? = nil, location: SourceLocation
  ) {
    self.operation = operation
    self.from = from
    self.to = to
    self.transition = transition
    self.parameters = parameters
    self.gesture = gesture
    self.location = location
  }

  /// Whether the step ends back on `from` (a gesture that lets go early).
  public var isCancelled: Bool { gesture?.isCancelled ?? false }

  /// The screen on display when the step is over.
  public var finalScreen: String { isCancelled ? from : to }
}

/// `gesture:` on a step: percentComplete samples and how the finger lets go.
public struct GestureSpec: Hashable, Sendable {
  /// percentComplete samples, `interval` seconds apart.
  public var progress: [Double]
  /// Whether `direction` was `leading`/`trailing` (the locale's terms, stored
  /// as left/right of a left-to-right layout) rather than `left`/`right`.
  public var isLayoutRelative = false
  public var interval: Double = InteractiveTransitionTrack.defaultSampleInterval
  /// Given, or nil to decide by the last sample (> 0.5 finishes).
  public var release: InteractiveTransitionTrack.Release?
  /// Whether `release` and `completionSpeed` were decided by
  /// UINavigationController's edge-swipe rules (`navigationRelease`), not written.
  public var releasedAsNavigation = false
  public var completionSpeed: Double = 1
  /// The curve of the rest; UIKit's spring form without a duration takes the rest's.
  public var completionCurve = CompletionCurve(.easeInEaseOut)
  /// How far the finger travels at percentComplete 1, in points (from
  /// `direction`: right is (+width, 0), up is (0, −height)); nil when only
  /// `progress` was given.
  public var travel: Size?

  public init(progress: [Double]) {
    self.progress = progress
  }

  /// Whether the transition plays back to its start.
  public var isCancelled: Bool {
    (release ?? ((progress.last ?? 0) > 0.5 ? .finish : .cancel)) == .cancel
  }

  /// The gesture over a transition of `duration` seconds.
  public func track(duration: Double) -> InteractiveTransitionTrack {
    InteractiveTransitionTrack(
      duration: duration, percentComplete: progress, sampleInterval: interval, release: release,
      completionSpeed: completionSpeed, completionCurve: completionCurve)
  }
}

/// A problem in a job file, at a place in it.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
  public var location: SourceLocation
  public var message: String

  public init(_ location: SourceLocation, _ message: String) {
    self.location = location
    self.message = message
  }

  /// `FILE:LINE:COL: error: MESSAGE`, as compilers print them.
  public var description: String { "\(location): error: \(message)" }

  /// `text` as a message echoes a value the job wrote (a caption): in
  /// single quotes, a newline, a tab or a mark that reorders the line
  /// escaped (`\n`, `\u{202e}`) so the message stays one line, and
  /// shortened to 40 characters, as the parser's messages echo values.
  public static func echoed(_ text: String) -> String { YAMLNode.singleQuoted(text) }
}
