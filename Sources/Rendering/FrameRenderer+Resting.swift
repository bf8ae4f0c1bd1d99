import Geometry
import Jobs
import Raster
import Synchronization
import Transitions

/// What each still segment shows when it is not a plain screen (the end
/// state of the last transition that completed before it: a sheet over the
/// shrunken old screen), the screens each transition starts and ends on
/// and, for each drawn overlay that follows the screens (the status bar's
/// glyphs, the home indicator), how light its ink is at each segment's
/// start and end (over what each still shows, and from there to over each
/// transition's last frame).
///
/// A screen a sheet (or another presentation over the old screen) shows
/// stays inside that composite while it is up: a step from it starts from
/// the composite (`Transition.restingScreen`), and the step that comes back
/// to it ends on the composite again, so nothing jumps to full screen
/// between them. Forward steps (push, present) and the reverse steps that
/// undo them nest, so a stack of what each forward step started from gives
/// every reverse step the screen it returns to.
///
/// A reverse step with the transition of the step it undoes draws that
/// composite itself, as its first frame. One naming another transition
/// starts from the picture on display, composite or not, filling the
/// screen (`TransitionContext.startsFromWholeScreen`): its first frame is
/// what the hold before it showed, not a picture of its own.
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
  /// A presentation over the old screen (a sheet) that navigation steps
  /// run inside: its transition and the context it rests in, in the space
  /// of a step drawn `mirrored` or not.
  struct Host: Sendable {
    var transition: any Transition
    var context: TransitionContext
    var mirrored: Bool
  }

  /// A composite on display that steps start from, in the space of a
  /// step drawn `mirrored` or not, and the presentation that made it.
  private struct Shown {
    var screen: ScreenSnapshot
    var mirrored: Bool
    var host: Host
  }

  /// A drawn overlay whose ink follows the screens under it.
  struct Follower: Sendable {
    /// How light its ink is over a canvas-sized picture (0: dark, 1: light),
    /// given what shows through the picture's see-through pixels there.
    var lightness: @Sendable (Bitmap, Bitmap?) -> Double
    /// Makes what shows under its strip where the canvas is see-through
    /// (`StatusBarBackdrop`); nil on an opaque canvas.
    var backdrop: (@Sendable () -> Bitmap)?
  }

  /// The overlays whose ink can follow the screens.
  enum Overlay: Hashable, Sendable { case statusBar, homeIndicator }

  /// The values worked out so far, one per segment (`lightness` holding
  /// the overlays that follow the screens): published to every thread.
  private struct Progress {
    var images: [Bitmap?] = []
    var lightness: [[Overlay: (start: Double, end: Double)]] = []
    /// What each transition segment's transition sees (nil for stills).
    var contexts: [TransitionContext?] = []
    /// The presentation each transition segment runs inside (nil: none, or a still).
    var hosts: [Host?] = []
  }

  /// One segment's values, appended to `Progress` in place.
  private struct Entry {
    var image: Bitmap? = nil
    var context: TransitionContext? = nil
    var host: Host? = nil
    var lightness: [Overlay: (start: Double, end: Double)] = [:]
  }

  /// What the segments worked out so far leave for the next one: held by
  /// the thread working segments out.
  private struct Carry {
    /// What the last completed transition left on display (nil: its screen).
    var display: Bitmap? = nil
    /// How light each following overlay's ink is on display.
    var current: [Overlay: Double] = [:]
    /// The composite a step from the screen on display starts from (nil: the screen).
    var shown: Shown? = nil
    /// Each forward step not yet undone, the latest last.
    var below: [Forward] = []
    /// What shows under a see-through canvas's overlay strips, each once made.
    var behind: [Overlay: Bitmap] = [:]
  }

  /// A forward step not yet undone: what it started from, the transition
  /// it ran (a catalog name) and whether it ran inside a sheet's card.
  private struct Forward {
    var start: Shown?
    var transition: String
    var hosted: Bool
    var operation: TransitionOperation
    /// What shaped the picture it rests on (`Transition.restingShape`).
    var shape: [Double]
    /// Whether it ran in a sheet's card and rests over its screen there (a
    /// curl or a card pushed in the card stays up in it), and whether the
    /// card showed such a rest when it started.
    var restsInCard = false
    var startsOnCardRest = false
  }

  private let timeline: Timeline
  private let transitions: [(any Transition)?]
  private let screens: ScreenSnapshots
  private let spec: JobSpec
  private let compositor: Compositor
  private let statusBar: StatusBar?
  /// Whose strips the screenshots' own status bar shows at each step's ends.
  let strips: StatusBarStrips
  /// The drawn overlays whose ink follows the screens.
  private let followers: [Overlay: Follower]
  private let progress = Mutex(Progress())
  /// Held by the thread working segments out.
  private let working = Mutex(Carry())

  init(
    timeline: Timeline, transitions: [(any Transition)?], screens: ScreenSnapshots, spec: JobSpec,
    compositor: Compositor, statusBar: StatusBar?, strips: StatusBarStrips, followers: [Overlay: Follower] = [:]
  ) {
    self.timeline = timeline
    self.transitions = transitions
    self.screens = screens
    self.spec = spec
    self.compositor = compositor
    self.statusBar = statusBar
    self.strips = strips
    self.followers = followers
  }

  /// What shows under a see-through canvas's strip of `overlay`, made the first time a segment needs it.
  private func behind(_ overlay: Overlay, _ p: inout Carry) -> Bitmap? {
    guard let backdrop = followers[overlay]?.backdrop else { return nil }
    if p.behind[overlay] == nil { p.behind[overlay] = backdrop() }
    return p.behind[overlay]
  }

  /// The composite still segment `segment` shows, or nil where its plain
  /// screen snapshot is what shows (and for transition segments).
  func image(segment: Int) -> Bitmap? {
    worked(through: segment) { $0.images[segment] }
  }

  /// What segment `segment`'s transition sees: its screens, or the
  /// composites it starts or ends on; nil for a still.
  func context(segment: Int) -> TransitionContext? {
    worked(through: segment) { $0.contexts[segment] }
  }

  /// The presentation segment `segment`'s transition runs inside: a push
  /// or pop while a sheet is up runs in its card. Nil for most.
  func host(segment: Int) -> Host? {
    worked(through: segment) { $0.hosts[segment] }
  }

  /// How light `overlay`'s ink is at the start of `segment` and at its
  /// transition's end (the end a cancelled step heads for and turns back
  /// from); nil unless it follows the screens.
  func lightness(segment: Int, of overlay: Overlay) -> (start: Double, end: Double)? {
    guard followers[overlay] != nil else { return nil }
    return worked(through: segment) { $0.lightness[segment][overlay] }
  }

  /// `read` of the progress once it reaches `segment`, working out the
  /// segments before it that no thread has, one by one. Each is worked out
  /// from what the last one left (`Carry`) and appended in place, so a
  /// timeline of many segments costs each of them once.
  private func worked<T>(through segment: Int, _ read: (Progress) -> T) -> T {
    if let value = progress.withLock({ p in p.images.count > segment ? read(p) : nil }) { return value }
    return working.withLock { carry in
      while true {
        let next = progress.withLock { p in p.images.count > segment ? nil : p.images.count }
        guard let next else { return progress.withLock { read($0) } }
        let entry = self.segment(next, carry: &carry)
        progress.withLock { p in
          p.images.append(entry.image)
          p.contexts.append(entry.context)
          p.hosts.append(entry.host)
          p.lightness.append(entry.lightness)
        }
      }
    }
  }

  /// Segment `index`'s values, from what the segments before it left in
  /// `p` (what is on display, the bar's lightness there, the composites
  /// steps start from), which it updates.
  private func segment(_ index: Int, carry p: inout Carry) -> Entry {
    var entry = Entry()
    switch timeline.segments[index].content {
    case .still(let screen):
      entry.image = p.display
      for (overlay, follower) in followers {
        let behind = behind(overlay, &p)
        let value =
          (p.display ?? screens[screen]?.image).map { follower.lightness($0, behind) } ?? p.current[overlay] ?? 0
        entry.lightness[overlay] = (value, value)
        p.current[overlay] = value
      }
      return entry
    case .transition(_, let step):
      var start: [Overlay: Double] = [:]
      for (overlay, follower) in followers {
        let behind = behind(overlay, &p)
        let value = p.current[overlay] ?? screens[step.from].map { follower.lightness($0.image, behind) } ?? 0
        start[overlay] = value
        p.current[overlay] = value
      }
      // A push while a sheet is up runs inside its card, between the
      // screens themselves, and so does the pop that undoes it (not the pop
      // of a push that brought the sheet up: it undoes the sheet itself).
      // Otherwise a forward step starts from what is on display, and a
      // reverse step ends on what the forward step it undoes started from.
      // A reverse step starts from what is on display too, whole (inside a
      // card, the card's screen, whole in the card), unless it has the
      // transition of the step it undoes, and its shape of rest, which
      // draws its own composite.
      let mirrored = step.mirror == true
      let reverse = step.operation.isReverse
      // A dismiss from a screen pushed after the present undoes those pushes with it (`TimelineStack`).
      let undone = step.operation == .dismiss ? TimelineStack.dismissed(by: p.below.map(\.operation)) : 1
      let undoes = p.below.dropLast(undone - 1).last
      let hosted = step.operation == .push || (step.operation == .pop && p.below.last?.hosted == true)
      let host = hosted ? p.shown?.host : nil
      func inSpace(_ shown: Shown?) -> ScreenSnapshot? {
        guard let shown else { return nil }
        return shown.mirrored == mirrored ? shown.screen : shown.screen.mirrored(width: spec.canvas.size.width)
      }
      // What a sheet's card shows (`Host.context.toScreen`) in the step's space.
      func cardContent(_ shown: Shown?) -> ScreenSnapshot? {
        guard let shown else { return nil }
        let content = shown.host.context.toScreen
        guard shown.host.mirrored != mirrored else { return content }
        let card = shown.host.transition.hostedContainerSize(in: shown.host.context)
        return content.mirrored(width: card.width, columns: Int((card.width * Double(spec.canvas.scale)).rounded(.up)))
      }
      func makeContext(another: Bool) -> TransitionContext? {
        let whole = another && host == nil
        let from = (reverse && !whole) || host != nil ? nil : p.shown
        let to = reverse && host == nil ? undoes?.start : nil
        // Where the card shows a rest (a curl pushed in it), a step from it
        // starts from that picture: a push in the card, a pop naming another
        // transition (or shape), a dismiss taking the card down; and a pop in
        // the card back to such a rest ends on it.
        let onRest = p.below.last?.restsInCard == true
        let cardFrom = onRest && (host != nil ? !reverse || another : reverse && !whole && undone > 1) ? cardContent(p.shown) : nil
        let cardTo = host != nil && reverse && undoes?.startsOnCardRest == true ? cardContent(undoes?.start) : nil
        var context = FrameRenderer.context(
          for: step, screens: screens, spec: spec, from: cardFrom ?? inSpace(from), to: cardTo ?? inSpace(to))
        context?.startsFromWholeScreen = another
        // A step back to a presentation over the old screen draws the
        // presentation's rest, whose shape the screen it presented gave (a
        // curl's height): a dismiss from a screen pushed since has that screen's.
        if reverse, !whole, host == nil, let shown = p.shown { context?.fromScreen.viewsTop = shown.host.context.toScreen.viewsTop }
        // Inside a sheet the step's container is the sheet (`Transition.hostedContainerSize`),
        // its screens the sheet's part of them (`HostedSteps.swift`).
        if let host, let hosted = context {
          let card = host.transition.hostedContainerSize(in: host.context)
          if card != hosted.containerSize { context = hosted.inCard(card) }
        }
        return context
      }
      // A step back with the transition of the step it undoes but another
      // shape of rest (`Transition.restingShape`) starts from the picture on
      // display, as one naming another transition does.
      let another = reverse && undoes.map { $0.transition != step.transition } == true
      var context = makeContext(another: another)
      if reverse, !another, let undoes, let own = context, let transition = transitions[index],
        transition.restingShape(in: own, mirrored: mirrored) != undoes.shape
      {
        context = makeContext(another: true)
      }
      entry.context = context
      entry.host = host
      guard let transition = transitions[index], let context, let plainTo = screens[step.to] else {
        for (overlay, value) in start { entry.lightness[overlay] = (value, value) }
        return entry
      }
      // What the step shows at its end: its own last frame.
      func lastFrame() -> Bitmap {
        let layers = transition.layers(in: context, at: transition.totalDuration)
        var image = canvasImage(FrameRenderer.shown(layers, for: step, inside: host, size: spec.canvas.size))
        if let statusBar, statusBar.drawn == nil, let ends = strips.ends[index], let from = screens[ends.from],
          let to = screens[ends.to]
        {
          statusBar.apply(to: &image, area: PixelArea(whole: image), transition: (from.image, to.image, 1))
          image.updateOpacityHint()
        }
        return image
      }
      // A cancelled step leaves the display as it was, and ends where it
      // started; its overlays' ink goes the way the step's own clock goes,
      // toward the ink over its last frame and back as the screens return
      // (the clock is back at 0 when the step ends), as the screenshots'
      // strips cross-fade on that clock.
      guard !step.isCancelled else {
        guard !followers.isEmpty else { return entry }
        let image = lastFrame()
        for (overlay, follower) in followers {
          entry.lightness[overlay] = (start[overlay] ?? 0, follower.lightness(image, behind(overlay, &p)))
        }
        return entry
      }
      if reverse {
        p.shown = undoes?.start
        p.below.removeLast(Swift.min(undone, p.below.count))
      } else {
        p.below.append(
          Forward(
            start: p.shown, transition: step.transition, hosted: host != nil, operation: step.operation,
            shape: transition.restingShape(in: context, mirrored: mirrored),
            restsInCard: host != nil && transition.restsOverItsScreen,
            startsOnCardRest: host != nil && p.below.last?.restsInCard == true))
        let render = { (layers: Layer) in self.canvasImage(layers) }
        if let host {
          // The sheet, now with the pushed screen in its card. The
          // presentation keeps the shape it was presented with: a curl
          // uncovers what the screen it presented asked for (the top of its
          // topmost view, UIKIT.md §2), whatever is pushed under its page.
          // A push that rests over its screen (a curl) rests so in the card.
          var resting = host
          let card = host.transition.hostedContainerSize(in: host.context)
          let rest = transition.restingScreen(in: context, rendering: render).map {
            host.mirrored == mirrored
              ? $0 : $0.mirrored(width: card.width, columns: Int((card.width * Double(spec.canvas.scale)).rounded(.up)))
          }
          if var pushed = rest ?? screens.transitioning(step.to, mirrored: host.mirrored) {
            pushed.viewsTop = host.context.toScreen.viewsTop
            resting.context.toScreen = pushed
          }
          p.shown = host.transition.restingScreen(in: resting.context, rendering: render).map {
            Shown(screen: $0, mirrored: host.mirrored, host: resting)
          }
        } else {
          p.shown = transition.restingScreen(in: context, rendering: render).map {
            Shown(screen: $0, mirrored: mirrored, host: Host(transition: transition, context: context, mirrored: mirrored))
          }
        }
      }
      // What the step leaves on display: its own last frame.
      let image = lastFrame()
      p.display = image == plainTo.image ? nil : image
      for (overlay, follower) in followers {
        let end = follower.lightness(image, behind(overlay, &p))
        entry.lightness[overlay] = (start[overlay] ?? 0, end)
        p.current[overlay] = end
      }
      return entry
    }
  }

  /// `layers` drawn over an opaque canvas background (over nothing on a
  /// see-through one, as snapshots are), a canvas-sized bitmap.
  private func canvasImage(_ layers: Layer) -> Bitmap {
    var image = Bitmap(width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight, fill: spec.canvas.snapshotFill)
    compositor.render(layers, into: &image)
    image.updateOpacityHint()
    return image
  }
}
