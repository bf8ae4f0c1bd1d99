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
  /// segments before it that no thread has, one by one.
  private func worked<T>(through segment: Int, _ read: (Progress) -> T) -> T {
    if let value = progress.withLock({ p in p.images.count > segment ? read(p) : nil }) { return value }
    return working.withLock { _ in
      while true {
        var p = progress.withLock { $0 }
        if p.images.count > segment { return read(p) }
        advance(&p, through: p.images.count)
        progress.withLock { [p] in $0 = p }
      }
    }
  }

  /// Works out the segments after those in `p` up to `last`.
  private func advance(_ p: inout Progress, through last: Int) {
    let follows = followsScreens
    while p.images.count <= last {
      let index = p.images.count
      switch timeline.segments[index].content {
      case .still(let screen):
        p.images.append(p.display)
        if follows, let statusBar {
          let value = (p.display ?? screens[screen]?.image).map(statusBar.lightness(over:)) ?? p.current ?? 0
          p.lightness.append((value, value))
          p.current = value
        }
      case .transition(_, let step):
        p.images.append(nil)
        var start = 0.0
        if follows, let statusBar {
          start = p.current ?? screens[step.from].map { statusBar.lightness(over: $0.image) } ?? 0
          // A cancelled step ends where it started.
          p.lightness.append((start, start))
          p.current = start
        }
        // A cancelled step leaves the display as it was.
        guard !step.isCancelled, let transition = transitions[index],
          let from = screens[step.from], let to = screens[step.to],
          let context = FrameRenderer.context(for: step, screens: screens, spec: spec)
        else { continue }
        var image = Bitmap(
          width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight, fill: spec.canvas.background.premultipliedPixel)
        // What the step leaves on display: its own last frame.
        let layers = transition.layers(in: context, at: transition.totalDuration)
        compositor.render(FrameRenderer.presented(layers, for: step, size: spec.canvas.size), into: &image)
        if statusBar?.drawn == nil {
          statusBar?.apply(to: &image, area: PixelArea(whole: image), transition: (from.image, to.image, 1))
        }
        image.updateOpacityHint()
        p.display = image == to.image ? nil : image
        if follows, let statusBar {
          let end = statusBar.lightness(over: image)
          p.lightness[index] = (start, end)
          p.current = end
        }
      }
    }
  }
}
