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

  /// The screen `name` flipped left to right, for a step drawn mirrored;
  /// nil for a screen no mirrored step shows.
  func mirrored(_ name: String) -> ScreenSnapshot? {
    guard let slot = mirroredSlots[name] else { return nil }
    return slot.value.withLock { value in
      if let value { return value }
      let made = self[name]?.mirrored(width: builder.spec.canvas.size.width)
      value = made
      return made
    }
  }
}
