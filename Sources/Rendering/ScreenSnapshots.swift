import Jobs
import Raster
import Synchronization
import Transitions

/// A job's screen snapshots, each made the first time a frame needs it and
/// kept: shared by every copy of a `FrameRenderer`, safe to use from any
/// thread.
///
/// Made on demand, a video's first frame waits only for the screens it
/// shows (and the encoder can start on it), not for every screen of the job;
/// a screen no frame shows is never made. A snapshot is a pure function of
/// the spec, its images and fonts (`ScreenBuilder`), so when it is made, and
/// on which thread, changes no pixel: the same bitmaps as
/// `ScreenBuilder.snapshots()` makes all at once.
///
/// Each screen has its own lock, held while it is made: a thread that
/// needs a screen another is making waits for it; different screens are
/// made side by side. A mirrored screen (`MirroredSteps.swift`) is made
/// from its screen, under its own lock.
final class ScreenSnapshots: Sendable {
  private let builder: ScreenBuilder
  private let shared: Set<String>
  private let slots: [String: Slot]
  private let mirroredSlots: [String: Slot]
  /// The screenshots' own status bar (`statusBar: HEIGHT`) in pixel rows, 0 without one.
  private let stripRows: Int
  /// Snapshots as transitions draw them, plain and mirrored (`transitioning`).
  private let strippedSlots: [String: Slot]
  private let strippedMirroredSlots: [String: Slot]

  private final class Slot: Sendable {
    let screen: ScreenSpec?
    let value = Mutex<ScreenSnapshot?>(nil)
    init(_ screen: ScreenSpec?) { self.screen = screen }
  }

  init(builder: ScreenBuilder) {
    let spec = builder.spec
    self.builder = builder
    shared = builder.sharedElements
    var slots: [String: Slot] = [:]
    for screen in spec.screens { slots[screen.name] = Slot(screen) }
    self.slots = slots
    var mirrored: [String: Slot] = [:]
    for case .transition(let step) in spec.timeline where step.mirror == true {
      for name in [step.from, step.to] where slots[name] != nil { mirrored[name] = Slot(nil) }
    }
    mirroredSlots = mirrored
    let bar = spec.canvas.shownStatusBar
    stripRows = bar.map { $0.isDrawn ? 0 : Int(($0.height * Double(spec.canvas.scale)).rounded()) } ?? 0
    // A screen shown in a card narrower than the screen is the card's
    // picture, with no status bar to take off (`StatusBarStrips`).
    let whole = slots.filter { $0.value.screen?.cardWidth == nil }
    strippedSlots = stripRows > 0 ? whole.mapValues { _ in Slot(nil) } : [:]
    strippedMirroredSlots = stripRows > 0 ? mirrored.filter { whole[$0.key] != nil }.mapValues { _ in Slot(nil) } : [:]
  }

  /// The snapshot of the screen `name`, made now if no thread has made it
  /// yet; nil for a name the job has no screen for.
  subscript(name: String) -> ScreenSnapshot? {
    guard let slot = slots[name], let screen = slot.screen else { return nil }
    return slot.value.withLock { value in
      if let value { return value }
      let made = builder.snapshot(of: screen, shared: shared)
      value = made
      return made
    }
  }

  /// The screen `name` as a transition draws it (`mirrored` for a step drawn
  /// mirrored). With the screenshots' own status bar, its strip is the
  /// row below it repeated: on a device the bar's glyphs are the system's,
  /// not the view's, so a presented screen slides up, a receding one
  /// shrinks and a card turns without them; the frame's fixed strip is drawn
  /// over the top rows afterwards (`StatusBar.apply`). A screen shown in a
  /// card narrower than the screen keeps its top rows: they are the card's.
  func transitioning(_ name: String, mirrored: Bool) -> ScreenSnapshot? {
    guard stripRows > 0, let slot = (mirrored ? strippedMirroredSlots : strippedSlots)[name] else {
      return mirrored ? self.mirrored(name) : self[name]
    }
    return slot.value.withLock { value in
      if let value { return value }
      let made = (mirrored ? self.mirrored(name) : self[name])?.withoutStrip(rows: stripRows)
      value = made
      return made
    }
  }

  /// The screen `name` flipped left to right, for a step drawn mirrored;
  /// nil for a screen no mirrored step shows. A screen shown in a card
  /// narrower than the screen flips in the card (`ScreenSpec.cardWidth`).
  func mirrored(_ name: String) -> ScreenSnapshot? {
    guard let slot = mirroredSlots[name] else { return nil }
    return slot.value.withLock { value in
      if let value { return value }
      let canvas = builder.spec.canvas
      let card = slots[name]?.screen?.cardWidth
      let made = self[name]?.mirrored(
        width: card ?? canvas.size.width, columns: card.map { Int(($0 * Double(canvas.scale)).rounded()) })
      value = made
      return made
    }
  }
}

extension ScreenSnapshot {
  /// The snapshot with its top `rows` (the screenshot's status bar) replaced
  /// by the row below them, in the screen and in its images with a view hidden.
  func withoutStrip(rows: Int) -> ScreenSnapshot {
    func stripped(_ image: Bitmap) -> Bitmap {
      guard rows > 0, rows < image.height else { return image }
      var image = image
      let stride = image.stride
      image.bytes.withUnsafeMutableBytes { bytes in
        let below = UnsafeRawPointer(bytes.baseAddress! + rows * stride)
        for y in 0..<rows { (bytes.baseAddress! + y * stride).copyMemory(from: below, byteCount: stride) }
      }
      image.updateOpacityHint()
      return image
    }
    var snapshot = self
    snapshot.image = stripped(image)
    snapshot.imagesWithViewHidden = imagesWithViewHidden.mapValues(stripped)
    return snapshot
  }
}
