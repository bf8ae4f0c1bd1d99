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
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  public var description: String { "\(file):\(line):\(column)" }
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

  public init(name: String, file: String, canvas: CanvasSpec, output: OutputSpec, screens: [ScreenSpec], timeline: [TimelineStep]) {
    self.name = name
    self.file = file
    self.canvas = canvas
    self.output = output
    self.screens = screens
    self.timeline = timeline
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

/// An output format.
public enum OutputFormat: String, Hashable, Sendable, CaseIterable {
  case mp4, gif, png, sheet
}

/// `output:` — where and what to write.
public struct OutputSpec: Hashable, Sendable {
  /// `dir:` relative to the job file, or nil (the command line decides).
  public var directory: String?
  public var formats: [OutputFormat]
  public var mp4: MP4Settings
  public var gif: GIFSettings
  public var png: PNGSettings
  public var sheet: SheetSettings

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

  /// `palette:` — one palette for the file, or one per frame.
  public enum Palette: String, Hashable, Sendable, CaseIterable {
    case global, perFrame = "per-frame"
  }

  /// `loop:` — `forever`, or how many times to repeat after the first play
  /// (0: play once).
  public enum Loop: Hashable, Sendable {
    case forever
    case `repeat`(Int)
  }

  /// Width in pixels (16…8192); the height keeps the canvas's aspect ratio.
  public var width: Int?
  /// Frames per second (1…50: GIF delays are whole centiseconds, at least 2).
  public var fps: Int?
  /// Most colours in the palette (4…256).
  public var maxColors: Int?
  /// The largest acceptable file; the writer lowers colours, fps and width until it fits.
  public var maxBytes: Int?
  public var dither: Dither?
  /// Bayer pattern scale 0…5 (only with `dither: bayer`).
  public var bayerScale: Int?
  public var palette: Palette?
  public var loop: Loop?

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

/// `output.sheet:` — the contact sheet: `frames` frames spread evenly over
/// the timeline (first and last included), `columns` to a row, time labels.
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

  public init(crf: Int = 18, preset: String = "medium") {
    self.crf = crf
    self.preset = preset
  }

  /// x264's preset names, fastest first.
  public static let presets = [
    "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
  ]
}

/// A screen: a background colour (and later a screenshot) with views on top.
public struct ScreenSpec: Hashable, Sendable {
  public var name: String
  public var background: Color?
  public var views: [ViewSpec]
  public var location: SourceLocation

  public init(name: String, background: Color?, views: [ViewSpec], location: SourceLocation) {
    self.name = name
    self.background = background
    self.views = views
    self.location = location
  }
}

/// A view on a screen: for now a (rounded) rectangle of colour.
public struct ViewSpec: Hashable, Sendable {
  /// The id transitions refer to (`element: {from: photo3, to: hero}`).
  public var id: String?
  /// The frame in points.
  public var frame: Rect
  public var color: Color?
  /// `corner:` radius in points.
  public var cornerRadius: Double
  public var location: SourceLocation

  public init(id: String?, frame: Rect, color: Color?, cornerRadius: Double, location: SourceLocation) {
    self.id = id
    self.frame = frame
    self.color = color
    self.cornerRadius = cornerRadius
    self.location = location
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
  /// How many times slower than real time the step plays (`slowmo:`).
  public var slowmo: Double = 1
  /// Where a touch indicator shows (`touch:`), in points; nil for none.
  public var touch: Point?
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
  public var interval: Double = InteractiveTransitionTrack.defaultSampleInterval
  /// Given, or nil to decide by the last sample (> 0.5 finishes).
  public var release: InteractiveTransitionTrack.Release?
  public var completionSpeed: Double = 1
  public var completionCurve: AnimationCurve = .easeInEaseOut
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
}
