import Dispatch
import Raster
import Synchronization

/// Pass 1 of `GIFWriter` after each frame is drawn: the frame resized,
/// compared with the one before (identical frames merge into one run), and
/// its lifetimes and palette statistics recorded — on a queue of its own,
/// one frame behind the drawing, so that drawing frame `i + 1` (on the
/// writer's thread, with the compositor's band helpers) overlaps this work
/// on frame `i`. Frames are taken in order, so the result is that of one
/// thread.
///
/// At most one frame waits or is worked on at a time: `add` returns once
/// the frame before has been taken. The resizer keeps the last frame it
/// resized to compare the next with, so the writer holds the frame being
/// drawn, the one being taken and the one before it: a caller that reuses
/// bitmaps draws into three in turn, or they are copied on write.
final class GIFFirstPass: @unchecked Sendable {
  /// The result: each run of identical frames, the changed pixels'
  /// lifetimes, the distinct resized frames kept (`GIFWriter.cacheBytes`).
  struct Result {
    var runs: [Range<Int>] = []
    var lifetimes: GIFLifetimes
    var cache: [[UInt8]] = []
  }

  private let frames: GIFFrames
  private let statistics: GIFStatistics
  private let options: GIFOptions
  private let measure: GIFWriter.Measure?
  /// The chain the drawing and the statistics wait for, so it comes first
  /// when the cores are short: libdispatch on Linux runs a queue of a
  /// higher QoS on threads of a lower nice value (where the process may
  /// lower it; else as any other queue). The bytes do not depend on it.
  private let queue = DispatchQueue(label: "transvid.gif-first-pass", qos: .userInteractive)
  private let group = DispatchGroup()
  private let slot = DispatchSemaphore(value: 1)
  /// Written on `queue` only, read once the group is done.
  private var result: Result
  /// The last distinct frame, resized.
  private var previous: [UInt8] = []
  /// The first error; frames after it are not taken.
  private let failure = Mutex<MediaError?>(nil)

  init(frames: GIFFrames, statistics: GIFStatistics, options: GIFOptions, measure: GIFWriter.Measure?) {
    self.frames = frames
    self.statistics = statistics
    self.options = options
    self.measure = measure
    result = Result(lifetimes: GIFLifetimes(pixels: frames.width * frames.height, capacity: options.lifetimeCapacity))
  }

  /// Whether a frame given failed (`finish` throws its error).
  var hasFailed: Bool { failure.withLock { $0 != nil } }

  /// Takes frame `index` (nil: known to repeat the frame before) after the
  /// frames given before; waits while the frame before is still being taken.
  func add(_ index: Int, _ bitmap: Bitmap?) {
    slot.wait()
    queue.async(group: group) { [self] in
      defer { slot.signal() }
      guard !hasFailed else { return }
      do throws(MediaError) { try take(index, bitmap) } catch { failure.withLock { $0 = $0 ?? error } }
    }
  }

  /// Waits for the frames given and returns the result for a clip of
  /// `frameCount` frames, or the first error.
  func finish(frameCount: Int) throws(MediaError) -> Result {
    group.wait()
    if let error = failure.withLock({ $0 }) { throw error }
    addRest()
    result.lifetimes.finish(frameCount: frameCount, stops: options.loop != .forever)
    previous = []
    return result
  }

  /// Waits for the frames given (the writer is failing for another reason).
  func cancel() { group.wait() }

  private func take(_ i: Int, _ bitmap: Bitmap?) throws(MediaError) {
    guard let bitmap else {
      // Known to repeat the frame before: nothing to resize or compare.
      result.runs[result.runs.count - 1] = result.runs[result.runs.count - 1].lowerBound..<(i + 1)
      return
    }
    let pixels = try GIFWriter.timed(.resize, measure) { () throws(MediaError) in try frames.resize(bitmap) }
    if !result.runs.isEmpty && Bitmap.sameBytes(pixels, previous) {
      result.runs[result.runs.count - 1] = result.runs[result.runs.count - 1].lowerBound..<(i + 1)
      return
    }
    addRest()
    result.runs.append(i..<(i + 1))
    result.lifetimes.add(pixels, changedFrom: previous.isEmpty ? nil : previous, start: i)
    statistics.add(pixels, changedFrom: previous.isEmpty || options.statistics == .full ? nil : previous)
    if (result.cache.count + 1) * pixels.count <= GIFWriter.cacheBytes { result.cache.append(pixels) }
    previous = pixels
  }

  /// The last run's repeats, once it has ended: its frame rested on screen.
  private func addRest() {
    if let last = result.runs.last, last.count > 1 { statistics.add(previous, times: last.count - 1) }
  }
}
