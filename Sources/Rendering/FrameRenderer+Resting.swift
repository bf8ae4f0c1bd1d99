import Geometry
import Jobs
import Raster
import Synchronization
import Transitions

/// What each still segment shows when it is not a plain screen (the end
/// state of the last transition that completed before it: a sheet over the
/// shrunken old screen) and, with a drawn status bar that follows the
/// screens, how light its glyphs are at each segment's start and end (over
/// what each still shows, and from there to over each transition's last
/// frame).
///
/// Each segment's values depend on the segments before it, so they are
/// worked out in order, as far as the latest segment asked about, the first
/// time a frame asks (a video's first frames need none of the later
/// screens), and kept. Safe to use from any thread; shared by every copy of
/// a `FrameRenderer`. One thread at a time works segments out, each
/// published as soon as it is done: a frame asking about a segment already
/// worked out does not wait for one being worked out ahead of it
/// (`FrameRenderer.preparingAhead`).
final class RestingImages: Sendable {
  private struct Progress {
    var images: [Bitmap?] = []
    var lightness: [(start: Double, end: Double)] = []
    /// What the last completed transition left on display (nil: its screen).
    var display: Bitmap? = nil
    var current: Double? = nil
  }

  private let timeline: Timeline
  private let transitions: [(any Transition)?]
  private let screens: ScreenSnapshots
  private let spec: JobSpec
  private let compositor: Compositor
  private let statusBar: StatusBar?
  private let progress = Mutex(Progress())
  /// Held by the thread working segments out.
  private let working = Mutex(())

  init(
    timeline: Timeline, transitions: [(any Transition)?], screens: ScreenSnapshots, spec: JobSpec,
    compositor: Compositor, statusBar: StatusBar?
  ) {
    self.timeline = timeline
    self.transitions = transitions
    self.screens = screens
    self.spec = spec
    self.compositor = compositor
    self.statusBar = statusBar
  }

  /// Whether a drawn status bar follows the screens' lightness.
  var followsScreens: Bool { statusBar?.followsScreens ?? false }

  /// The composite still segment `segment` shows, or nil where its plain
  /// screen snapshot is what shows (and for transition segments).
  func image(segment: Int) -> Bitmap? {
    worked(through: segment) { $0.images[segment] }
  }

  /// How light the drawn bar's glyphs are at the start and end of
  /// `segment`; nil unless the bar follows the screens.
  func lightness(segment: Int) -> (start: Double, end: Double)? {
    guard followsScreens else { return nil }
    return worked(through: segment) { $0.lightness[segment] }
  }

  /// `read` of the progress once it reaches `segment`, working out the
  /// segments before it that no thread has, one by one. Each is worked out
  /// from the last one's state alone and appended in place, so a timeline
  /// of many segments costs each of them once.
  private func worked<T>(through segment: Int, _ read: (Progress) -> T) -> T {
    if let value = progress.withLock({ p in p.images.count > segment ? read(p) : nil }) { return value }
    return working.withLock { _ in
      while true {
        let state = progress.withLock { p in p.images.count > segment ? nil : (p.images.count, p.display, p.current) }
        guard let (index, display, current) = state else { return progress.withLock { read($0) } }
        let next = self.segment(index, after: display, current: current)
        progress.withLock { p in
          p.images.append(next.image)
          if let lightness = next.lightness { p.lightness.append(lightness) }
          p.display = next.display
          p.current = next.current
        }
      }
    }
  }

  /// Segment `index`'s values, given what the segments before it left on
  /// display (`display`) and the bar's lightness there (`current`).
  private func segment(_ index: Int, after display: Bitmap?, current: Double?) -> (
    image: Bitmap?, lightness: (start: Double, end: Double)?, display: Bitmap?, current: Double?
  ) {
    let follows = followsScreens
    switch timeline.segments[index].content {
    case .still(let screen):
      guard follows, let statusBar else { return (display, nil, display, current) }
      let value = (display ?? screens[screen]?.image).map(statusBar.lightness(over:)) ?? current ?? 0
      return (display, (value, value), display, value)
    case .transition(_, let step):
      var start = 0.0
      var current = current
      if follows, let statusBar {
        start = current ?? screens[step.from].map { statusBar.lightness(over: $0.image) } ?? 0
        current = start
      }
      // A cancelled step leaves the display as it was, and ends where it started.
      let unchanged = (image: Bitmap?.none, lightness: follows ? (start, start) : nil, display: display, current: current)
      guard !step.isCancelled, let transition = transitions[index],
        let from = screens[step.from], let to = screens[step.to],
        let context = FrameRenderer.context(for: step, screens: screens, spec: spec)
      else { return unchanged }
      var image = Bitmap(
        width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight, fill: spec.canvas.background.premultipliedPixel)
      // What the step leaves on display: its own last frame.
      let layers = transition.layers(in: context, at: transition.totalDuration)
      compositor.render(FrameRenderer.presented(layers, for: step, size: spec.canvas.size), into: &image)
      if statusBar?.drawn == nil {
        statusBar?.apply(to: &image, area: PixelArea(whole: image), transition: (from.image, to.image, 1))
      }
      image.updateOpacityHint()
      let left = image == to.image ? nil : image
      guard follows, let statusBar else { return (nil, nil, left, current) }
      let end = statusBar.lightness(over: image)
      return (nil, (start, end), left, end)
    }
  }
}
