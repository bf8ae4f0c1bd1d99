// Rendering: a validated `JobSpec`, its decoded images and the fonts → frames.
//
//   JobSpec + images + fonts ─ScreenBuilder─▶ screens as layer trees
//                            ─Compositor─▶ one ScreenSnapshot per screen
//   JobSpec ─Timeline (Jobs)─▶ what frame n shows: a still, or a transition at its time
//   Transition(context, time) + touch indicator ─Compositor─▶ frame n
//
// What is true, and why:
// - Frame n is a pure function of n and the job: nothing carries over from
//   one frame to the next, so frames render in any order, on any thread, and
//   the same job, images and fonts give the same pixels on any machine.
// - A screen is static while it is shown, so each is composited once, the
//   first time a frame shows it (`ScreenSnapshots`: a video's first frame
//   waits only for its own screens); a still frame copies its snapshot, or
//   the composite the last transition left on display (`RestingImages`),
//   and a transition frame composes snapshots.
// - The schedule is `Timeline(spec:)`, which lives in Jobs: the parser checks
//   a job's length against the limits with it and `transvid plan` counts
//   frames with it, and this module draws the transitions it configured, so
//   what is checked and planned is what is rendered.
// - The only files this module opens are the fonts (`FontLibrary`). Images
//   come decoded (the CLI's `AssetLoader`, through Media); encoding is Media's.
//   Pixel work (compositing, downsampling, text) is Raster's.

import Geometry
import Jobs
import Raster
import Transitions

/// Renders any frame of a job: a pure function of the frame number, so
/// frames can be made in any order and on any thread.
public struct FrameRenderer: Sendable {
  public let spec: JobSpec
  public let timeline: Timeline
  /// The screens' snapshots (and their mirrored forms), made on first use.
  let screens: ScreenSnapshots
  /// One configured transition per timeline segment (nil for stills).
  let transitions: [(any Transition)?]
  /// What still segments after a transition that leaves a composite on
  /// display show, and the drawn status bar's lightness; on first use.
  let resting: RestingImages
  var compositor: Compositor
  /// What the screens were built from, kept for `overMatte()` and `opaque(scale:fps:)`.
  let assets: [String: Bitmap]
  let fonts: FontSet
  /// The device, background and caption around the canvas (`Stage.swift`),
  /// prepared when a frame first needs it.
  let stage: StageOnDemand?
  /// The system status bar that no transition moves (`StatusBar.swift`).
  let statusBar: StatusBar?
  /// The home indicator that no transition moves (`HomeIndicator.swift`).
  let homeIndicator: HomeIndicator?
  /// For a format without alpha: the opaque colour every frame is
  /// composited over once drawn (`overMatte()`).
  var matte: Pixel?

  /// Prepares a job: configures its transitions; its screens are
  /// snapshotted when a frame first shows them (any thread may ask).
  /// The spec must be valid (as `JobParser` returns it). `assets` holds the
  /// decoded images keyed by `AssetReference.resolvedPath` (the runner's
  /// `AssetLoader` makes it; a missing one draws as a grey placeholder).
  /// `fonts` draws the labels; nil uses `FontLibrary.system` when the job
  /// has text (and draws no text if those fonts cannot be loaded).
  public init(spec: JobSpec, assets: [String: Bitmap] = [:], fonts: FontSet? = nil) {
    self.spec = spec
    let fonts = fonts ?? (spec.hasText ? (try? FontLibrary.system.get()) ?? .empty : .empty)
    self.assets = assets
    self.fonts = fonts
    let screens = ScreenSnapshots(builder: ScreenBuilder(spec: spec, assets: assets, fonts: fonts))
    self.screens = screens
    let timeline = Timeline(spec: spec)
    self.timeline = timeline
    transitions = timeline.segments.map(\.transition)
    compositor = Compositor(scale: Double(spec.canvas.scale))
    // iOS shows no status bar on an iPhone in landscape (the parser notes it).
    let statusBar = spec.canvas.shownStatusBar.map {
      StatusBar(spec: $0, canvas: spec.canvas, rightToLeft: spec.locale.map(Localization.isRightToLeft) ?? false, fonts: fonts)
    }
    self.statusBar = statusBar
    let stage = spec.stage.map { StageOnDemand(spec: spec, stage: $0, timeline: timeline, assets: assets, fonts: fonts) }
    self.stage = stage
    // iOS shows none on a device with a Home button (the parser notes it).
    let homeIndicator = spec.canvas.shownHomeIndicator.map { HomeIndicator(spec: $0, canvas: spec.canvas) }
    self.homeIndicator = homeIndicator
    // Where the canvas is see-through, an overlay's style follows what shows through it.
    var followers: [RestingImages.Overlay: RestingImages.Follower] = [:]
    let seeThrough = !spec.canvas.isOpaque
    if let bar = statusBar, bar.followsScreens {
      var backdrop: (@Sendable () -> Bitmap)?
      if seeThrough { backdrop = { @Sendable in StatusBarBackdrop.strip(spec: spec, rows: bar.rows, stage: stage?.stage) } }
      followers[.statusBar] = RestingImages.Follower(
        lightness: { @Sendable (image: Bitmap, behind: Bitmap?) -> Double in bar.lightness(over: image, behind: behind) },
        backdrop: backdrop)
    }
    if let indicator = homeIndicator, indicator.followsScreens {
      var backdrop: (@Sendable () -> Bitmap)?
      if seeThrough {
        backdrop = { @Sendable in
          StatusBarBackdrop.strip(spec: spec, rows: indicator.rows, from: indicator.top, stage: stage?.stage)
        }
      }
      followers[.homeIndicator] = RestingImages.Follower(
        lightness: { @Sendable (image: Bitmap, behind: Bitmap?) -> Double in indicator.lightness(over: image, behind: behind) },
        backdrop: backdrop)
    }
    resting = RestingImages(
      timeline: timeline, transitions: transitions, screens: screens, spec: spec, compositor: compositor,
      statusBar: statusBar, strips: StatusBarStrips(spec: spec, timeline: timeline), followers: followers)
  }

  /// The number of frames in the video.
  public var frameCount: Int { timeline.frameCount }

  /// Makes now what frames would otherwise make when they first need it:
  /// every screen's snapshot (and mirrored form) and every segment's
  /// resting composite. Frames are the same either way; for timing the
  /// preparation of a job on its own.
  public func prepare() {
    for screen in spec.screens {
      _ = screens[screen.name]
      _ = screens.mirrored(screen.name)
    }
    if !timeline.segments.isEmpty {
      _ = resting.image(segment: timeline.segments.count - 1)
      _ = resting.lightness(segment: timeline.segments.count - 1, of: .statusBar)
    }
  }

  /// The snapshot of a screen.
  public func snapshot(of screen: String) -> Bitmap? { screens[screen]?.image }

  /// The layer tree frame `n` shows, or the still screen's name.
  public func layers(ofFrame n: Int) -> Layer? {
    guard case .transition(let index, let time) = timeline.content(ofFrame: n),
      case .transition(_, let step) = timeline.segments[index].content,
      let transition = transitions[index],
      let context = resting.context(segment: index)
    else { return nil }
    var layers = transition.layers(in: context, at: time)
    if let touch = timeline.touchLocation(segment: index, clock: timeline.clock(ofFrame: n, segment: index)) {
      layers.sublayers.append(Self.touchIndicator(at: touch))
    }
    let shown = Self.shown(layers, for: step, inside: resting.host(segment: index), size: spec.canvas.size)
    guard let carried = carriedTouch(ofFrame: n) else { return shown }
    var root = Layer(frame: Rect(origin: .zero, size: spec.canvas.size))
    root.sublayers = [shown, carried]
    return root
  }

  /// The touch indicator of an earlier step's tap still down at frame `n`
  /// (`Timeline.carriedTap`), on the canvas: where that step drew it,
  /// flipped back for a mirrored step. A tap on a step inside a sheet's
  /// card is drawn in the card's moving space, so it ends with its step.
  func carriedTouch(ofFrame n: Int) -> Layer? {
    guard let (segment, point) = timeline.carriedTap(ofFrame: n), resting.host(segment: segment) == nil,
      case .transition(_, let step) = timeline.segments[segment].content
    else { return nil }
    let x = step.mirror == true ? spec.canvas.size.width - point.x : point.x
    return Self.touchIndicator(at: Point(x: x, y: point.y))
  }

  /// The touch a screen recording shows: a translucent grey disc, 44 pt
  /// across (UIKit's minimum tap target), with a lighter rim.
  static func touchIndicator(at point: Point) -> Layer {
    let radius = 22.0
    var disc = Layer(frame: Rect(x: point.x - radius, y: point.y - radius, width: 2 * radius, height: 2 * radius))
    disc.path = Path(ovalIn: Rect(x: 0, y: 0, width: 2 * radius, height: 2 * radius))
    disc.fillColor = Color(red: 0.35, green: 0.35, blue: 0.35, alpha: 0.45)
    disc.borderColor = Color(red: 1, green: 1, blue: 1, alpha: 0.6)
    disc.borderWidth = 1.5
    disc.cornerRadius = radius
    return disc
  }

  /// The still segment frame `n` falls in, and its screen.
  private func stillSegment(ofFrame n: Int) -> (Int, String)? {
    let index = timeline.segmentIndex(ofFrame: n)
    if case .still(let screen) = timeline.segments[index].content { return (index, screen) }
    return nil
  }

  /// True when frame `n` is known to show exactly the pixels of frame
  /// `n − 1`, so an encoder can send the previous picture again without
  /// rendering or converting anything: both frames in the same still segment
  /// (or in still segments showing the same image), or both at the same time
  /// of the same transition (a transition is a pure function of its time;
  /// a paused gesture holds it). False means "not known", not "different".
  public func repeatsPreviousFrame(_ n: Int) -> Bool {
    guard n > 0, n < frameCount else { return false }
    let time = timeline.frameRate.time(ofFrame:)
    if let stage = stage?.stage, !stage.showsSameCaption(time(n - 1), time(n)) { return false }
    // An earlier step's tap still down on one frame and lifted (or another's) on the other.
    if timeline.carriedTap(ofFrame: n - 1)?.segment != timeline.carriedTap(ofFrame: n)?.segment { return false }
    switch (timeline.content(ofFrame: n - 1), timeline.content(ofFrame: n)) {
    case (.transition(let a, let t), .transition(let b, let u)):
      return a == b && t == u
    case (.still, .still):
      let a = timeline.segmentIndex(ofFrame: n - 1), b = timeline.segmentIndex(ofFrame: n)
      if a == b { return true }
      guard let first = stillImage(segment: a), let second = stillImage(segment: b) else { return false }
      // The same stored pixels (snapshots are shared, not copied).
      return first.bytes.withUnsafeBufferPointer { p in
        second.bytes.withUnsafeBufferPointer { q in p.baseAddress == q.baseAddress }
      }
    default:
      return false
    }
  }

  /// The image a still segment shows.
  private func stillImage(segment: Int) -> Bitmap? {
    guard case .still(let screen) = timeline.segments[segment].content else { return nil }
    return resting.image(segment: segment) ?? screens[screen]?.image
  }

  /// `layer` as the only sublayer of a canvas-sized root whose first sublayer
  /// is an opaque `background` reaching a point past every edge of an area
  /// of `pixels` (so it covers every pixel fully, whatever the rounding).
  static func overBackground(_ layer: Layer, _ background: Color, canvas: Size, pixels area: PixelArea) -> Layer {
    var root = Layer(frame: Rect(origin: .zero, size: canvas))
    let pixels = Double(max(area.width, area.height))
    var fill = Layer(
      frame: Rect(x: -1, y: -1, width: max(canvas.width, pixels) + 2, height: max(canvas.height, pixels) + 2))
    fill.backgroundColor = background
    root.sublayers = [fill, layer]
    return root
  }

  /// Frame `n`, `width × height` pixels (the canvas, possibly cropped to an
  /// even size for video).
  public func frame(_ n: Int, width: Int, height: Int) -> Bitmap {
    var bitmap = Bitmap(width: width, height: height, fill: spec.canvas.background.premultipliedPixel)
    render(n, into: &bitmap)
    return bitmap
  }

  /// The same renderer with its compositor spreading each frame's row bands
  /// over `threads` threads (nil: every core; the pixels do not depend on it).
  public func spreadingBands(over threads: Int?) -> FrameRenderer {
    var copy = self
    copy.compositor.threadCount = threads
    return copy
  }

  /// Draws frame `n` into `bitmap` (whose pixels are all overwritten).
  ///
  /// An opaque canvas background is drawn as the bottom layer of the tree
  /// rather than filled first: the compositor then skips it wherever an
  /// opaque layer covers it (a full-screen snapshot, in most transitions),
  /// instead of writing every pixel twice. Same pixels as fill-then-render:
  /// the wrapper's map is exactly the root's, and occlusion never changes
  /// the result.
  public func render(_ n: Int, into bitmap: inout Bitmap) {
    draw(n, into: &bitmap)
    if let matte { bitmap.composite(over: matte) }
  }

  /// `render` before the matte.
  private func draw(_ n: Int, into bitmap: inout Bitmap) {
    guard let stage = stage?.stage else {
      let area = PixelArea(whole: bitmap)
      renderCanvas(n, into: &bitmap, area: area)
      fixSystemOverlays(n, in: &bitmap, area: area)
      return underlay(&bitmap, area: area)
    }
    guard bitmap.width == stage.base.width, bitmap.height == stage.base.height else {
      // Another size than the stage's: drawn at the stage's, the overlap copied.
      var full = Bitmap(width: stage.base.width, height: stage.base.height)
      draw(n, into: &full)
      return bitmap.copy(from: full)
    }
    // The frame's exact time, as the timeline's: at 59.94 fps n/60 would run
    // the captions 0.1 % behind the steps they belong to.
    stage.compose(time: timeline.frameRate.time(ofFrame: n), into: &bitmap) { target, area in
      renderCanvas(n, into: &target, area: area)
      fixSystemOverlays(n, in: &target, area: area)
      underlay(&target, area: area)
    }
  }

  /// A see-through canvas's background under everything drawn in `area`,
  /// once: its snapshots and resting composites hold the screens alone
  /// (`CanvasSpec.snapshotFill`), so a screen at rest shows the same
  /// before a step and after it, and a transition's layers lie over the
  /// background once, not once per layer. An opaque background is the
  /// tree's bottom layer instead; a clear one adds nothing.
  private func underlay(_ bitmap: inout Bitmap, area: PixelArea) {
    let background = spec.canvas.background
    guard background.alpha > 0, background.alpha < 1 else { return }
    bitmap.composite(over: background.premultipliedPixel, x: area.x, y: area.y, width: area.width, height: area.height)
  }

  /// The system's overlays over frame `n`: the status bar (the screens'
  /// strips cross-fading during a transition, or the drawn bar) and the
  /// home indicator, each drawn in the ink its segment's lightness gives
  /// at the transition's progress (none through its delay, where the old
  /// screen shows alone).
  private func fixSystemOverlays(_ n: Int, in bitmap: inout Bitmap, area: PixelArea) {
    guard statusBar != nil || homeIndicator != nil else { return }
    var strips: (Bitmap, Bitmap, Double)?
    var progress = 0.0
    if case .transition(let index, let time) = timeline.content(ofFrame: n), let transition = transitions[index],
      let ends = resting.strips.ends[index], let from = screens[ends.from], let to = screens[ends.to]
    {
      progress = transition.animationProgress(atTime: time)
      strips = (from.image, to.image, progress)
    }
    let segment = timeline.segmentIndex(ofFrame: n)
    func lightness(_ overlay: RestingImages.Overlay) -> Double {
      guard let (start, end) = resting.lightness(segment: segment, of: overlay) else { return 0 }
      return start + (end - start) * progress
    }
    statusBar?.apply(to: &bitmap, area: area, transition: strips, lightness: lightness(.statusBar))
    homeIndicator?.apply(to: &bitmap, area: area, lightness: lightness(.homeIndicator))
  }

  /// The canvas of frame `n` (the screens and their transitions) into
  /// `area` of `bitmap`, every pixel of it.
  private func renderCanvas(_ n: Int, into bitmap: inout Bitmap, area: PixelArea) {
    if let layer = layers(ofFrame: n) {
      let background = spec.canvas.background
      let (origin, size) = ((area.x, area.y), (area.width, area.height))
      if background.alpha >= 1 {
        compositor.render(
          Self.overBackground(layer, background, canvas: spec.canvas.size, pixels: area), into: &bitmap, at: origin,
          size: size)
      } else {
        // The background goes under it all once it is drawn (`underlay`).
        RowBlend.fill(.clear, into: &bitmap, area: area)
        compositor.render(layer, into: &bitmap, at: origin, size: size)
      }
    } else if let (segment, screen) = stillSegment(ofFrame: n) {
      if let image = resting.image(segment: segment) ?? screens[screen]?.image {
        RowBlend.copy(image, into: &bitmap, area: area)
      }
      if let touch = carriedTouch(ofFrame: n) {
        var root = Layer(frame: Rect(origin: .zero, size: spec.canvas.size))
        root.sublayers = [touch]
        compositor.render(root, into: &bitmap, at: (area.x, area.y), size: (area.width, area.height))
      }
    }
  }
}

extension PixelArea {
  /// All of `bitmap`.
  init(whole bitmap: Bitmap) { self.init(x: 0, y: 0, width: bitmap.width, height: bitmap.height) }
}
