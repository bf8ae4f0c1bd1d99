import Dispatch
import Synchronization

extension FrameRenderer {
  /// Runs `body`, which draws this renderer's frames in order, while another
  /// thread makes ahead of it what frames make the first time they need it:
  /// the screens' snapshots in the order the timeline shows them, and each
  /// segment's resting composite once the screens before it are made.
  ///
  /// The frames are the same pixels (what is made, and on which thread,
  /// changes none); a frame that needs what the other thread is making
  /// waits for it rather than making it twice. The other thread stops when
  /// `body` returns, after the item it is making.
  public func preparingAhead<T>(_ body: () throws -> T) rethrows -> T {
    let stop = StopFlag()
    let done = DispatchSemaphore(value: 0)
    let renderer = self
    DispatchQueue.global().async {
      defer { done.signal() }
      for (k, segment) in renderer.timeline.segments.enumerated() {
        switch segment.content {
        case .still(let screen):
          if stop.isSet { return }
          _ = renderer.screens[screen]
        case .transition(_, let step):
          for name in [step.from, step.to] {
            if stop.isSet { return }
            _ = renderer.screens[name]
            if step.mirror == true { _ = renderer.screens.mirrored(name) }
          }
        }
        if stop.isSet { return }
        _ = renderer.resting.image(segment: k)
      }
    }
    defer {
      stop.set()
      done.wait()
    }
    return try body()
  }
}

/// A flag one thread sets and another polls.
private final class StopFlag: Sendable {
  private let value = Atomic<Bool>(false)
  var isSet: Bool { value.load(ordering: .relaxed) }
  func set() { value.store(true, ordering: .relaxed) }
}
