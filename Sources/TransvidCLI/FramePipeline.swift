import Dispatch
import Foundation
import Jobs
import Media
import Raster
import Rendering
import Synchronization

/// Renders and converts a job's frames on worker threads ahead of the
/// encoder, which takes them in order on the calling thread.
///
/// - Workers claim frame numbers in order, at most `depth` ahead of the
///   encoder (a bounded queue: memory does not grow with the video's length).
///   Each worker owns one frame-sized `Bitmap` and one `YUVConverter`;
///   converted frames come from a pool, grown only when it runs dry (to
///   about `depth + workers` frames, fewer for a short video). Nothing
///   frame-sized is allocated per frame once it is full.
/// - A frame that repeats the previous one (`FrameRenderer.repeatsPreviousFrame`:
///   holds, paused gestures) is neither rendered nor converted nor copied: the
///   encoder is handed the previous converted frame again. With `comparing`
///   (a variable-rate video, whose holds are one picture) so is a frame
///   drawn with the same pixels as the one before (a transition's delay, a
///   spring settled before its end): its converted planes are compared with
///   the frame handed over before (`YUVFrame.hasSamePixels`, on the
///   encoder's thread: the frame before may be another worker's).
/// - The encoder (x264, a fixed thread count, see `FormatWriter.encoderThreads`)
///   comes first. By default (`standard()`) there is one worker per core,
///   each drawing and converting whole frames on its own thread at the
///   scheduler's idle priority (`background`: Linux's `SCHED_IDLE`): x264's
///   threads never wait for a core the renderer holds, and the renderer
///   takes the time x264 leaves (its 4 threads on 2 cores leave about a
///   seventh), filling a queue of up to 32 frames ahead (`aheadDepth`).
/// - An idle-priority worker can be starved by other work on the machine,
///   so with `background` the encoder's thread (normal priority, bands over
///   every core) draws a frame it needs that is not ready: at once if no
///   worker has claimed it, after `patience` (twice a worker's recent CPU
///   time per frame) if one has; the worker's copy, the same pixels, is then
///   dropped. A starved pipeline renders as one on the encoder's thread would.
///
/// Determinism: every frame's pixels are a pure function of its number, the
/// conversion does not depend on its thread count, and the encoder sees the
/// frames in order, so the file is byte-identical for any `workers`, `depth`,
/// `conversionThreads`, `bandThreads`, priority and whoever drew a frame
/// (tests compare against `MP4Writer.append(Bitmap)` frame by frame).
struct FramePipeline {
  /// Render workers; 0 renders and converts on the calling thread, in turn
  /// with the encoder (the reference path).
  var workers: Int
  /// Frames claimed but not yet encoded, at most (nil: `aheadDepth` for
  /// the frames' size).
  var depth: Int?
  /// Threads each worker's converter spreads its bands of rows over.
  var conversionThreads: Int
  /// Threads the compositor spreads a worker's frame's row bands over (nil:
  /// every core).
  var bandThreads: Int? = nil
  /// Whether workers run at idle priority, the encoder's thread drawing a
  /// frame it waits for.
  var background = false
  /// Seconds the encoder waits for a frame a worker has claimed before it
  /// draws the frame itself (`background` only; nil: twice the CPU time a
  /// worker recently took per frame, at least 5 ms).
  var patience: Double? = nil
  /// Tests: runs on a worker's thread before it draws frame `n` (a worker
  /// made slow, or starved).
  var beforeWorkerFrame: (@Sendable (Int) -> Void)? = nil

  /// The defaults for this machine: a worker per core, each frame drawn and
  /// converted on one thread, 8 frames ahead at least; background workers
  /// unless other jobs render beside this one (`jobsAtOnce`).
  /// `TRANSVID_RENDER_WORKERS` (bench and debugging only, undocumented for
  /// users) sets that many workers at normal priority instead, each frame's
  /// bands and conversion spread over every core (the layout before
  /// background workers; 0: the reference path); `TRANSVID_PIPELINE_DEPTH`
  /// overrides the depth.
  static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> FramePipeline {
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    var pipeline = FramePipeline(workers: cores, depth: nil, conversionThreads: 1, bandThreads: 1, background: true)
    if let workers = environment["TRANSVID_RENDER_WORKERS"].flatMap({ Int($0) }).map({ max(0, $0) }) {
      pipeline = FramePipeline(workers: workers, depth: max(3, workers + 2), conversionThreads: cores)
    }
    if jobsAtOnce.load(ordering: .relaxed) > 1 { pipeline.background = false }
    if let depth = environment["TRANSVID_PIPELINE_DEPTH"].flatMap({ Int($0) }).map({ max(1, $0) }) {
      pipeline.depth = depth
    }
    return pipeline
  }

  /// How many jobs the process renders side by side (`BatchRunner` sets
  /// it from `-j`). With more than one, the other jobs' encoders take the
  /// time one x264 leaves, and background workers, starved by them, would
  /// leave frames to the encoder's thread to draw twice: workers then run
  /// at normal priority (a batch of 24 small jobs at `-j 2`: 1.03 of the
  /// wall time of the layout before with background workers, 0.99 without).
  static let jobsAtOnce = Atomic<Int>(1)

  /// How far background workers draw ahead of the encoder: as many frames
  /// as 160 MB of yuv420p holds, from 8 to 32 (32 at 1170×2532). x264 has
  /// stretches on one thread (its lookahead deciding frame types, with
  /// `sync-lookahead=0` on the encoder's thread) that only a deep queue
  /// lets the workers fill: on `scripts/bench floor`'s demo (6 alternating
  /// rounds), background workers 32 frames ahead took 0.955 of the wall
  /// time of the layout before (one worker 3 frames ahead), 8 frames ahead
  /// 0.98.
  static func aheadDepth(width: Int, height: Int, workers: Int) -> Int {
    let frameBytes = max(1, width * height * 3 / 2)
    return max(8, workers + 4, min(32, 160_000_000 / frameBytes))
  }

  /// What the pipeline did, for benchmarks and tests.
  struct Statistics {
    /// Frames rendered (the rest repeated the previous frame).
    var rendered = 0
    /// Frames in total.
    var frames = 0
    /// Frames the encoder's thread drew itself (`background`).
    var drawnByEncoder = 0
  }

  /// Renders every frame of `renderer` and hands each, in order, to
  /// `consume` (with the frame number, the converted frame and whether it
  /// repeats the frame before: then it is the same `YUVFrame` object as the
  /// one before). A frame repeats the one before when the renderer knows it
  /// does, and with `comparing` also when its converted pixels are the same.
  /// An error from a worker or from `consume` stops the workers; it is
  /// rethrown once they have all stopped.
  ///
  /// `convert: false` renders only (no conversion; `consume` gets a frame
  /// with stale pixels): the compositor-only benchmark.
  @discardableResult
  func run(
    _ renderer: FrameRenderer, width: Int, height: Int, convert: Bool = true, comparing: Bool = false,
    consume: (Int, YUVFrame, _ repeats: Bool) throws -> Void
  ) throws -> Statistics {
    let count = renderer.frameCount
    var statistics = Statistics(frames: count)
    guard count > 0 else { return statistics }
    let comparing = comparing && convert
    if workers == 0 {
      let converter = try YUVConverter(width: width, height: height, threads: conversionThreads)
      // The frame handed over; with `comparing`, a frame is drawn into
      // `scratch` and the two trade places when it differs.
      var shown = try YUVFrame(width: width, height: height)
      var scratch = comparing ? try YUVFrame(width: width, height: height) : nil
      var bitmap = Bitmap(width: width, height: height)
      let fitter = try FrameFitter(renderer, width: width, height: height)
      for n in 0..<count {
        var repeats = n > 0 && renderer.repeatsPreviousFrame(n)
        if !repeats {
          let yuv = n > 0 ? scratch ?? shown : shown
          try FramePipeline.draw(n, fitter, &bitmap, converter, into: yuv, convert: convert)
          statistics.rendered += 1
          if yuv !== shown {
            if yuv.hasSamePixels(as: shown) {
              repeats = true
            } else {
              scratch = shown
              shown = yuv
            }
          }
        }
        try consume(n, shown, repeats)
      }
      return statistics
    }

    let depth = max(1, self.depth ?? Self.aheadDepth(width: width, height: height, workers: workers))
    let state = PipelineState(count: count, depth: depth, width: width, height: height)
    let group = DispatchGroup()
    defer {
      state.stop(nil)
      group.wait()
    }
    let workerRenderer = renderer.spreadingBands(over: bandThreads)
    for _ in 0..<workers {
      let converter = try YUVConverter(width: width, height: height, threads: conversionThreads)
      let fitter = try FrameFitter(workerRenderer, width: width, height: height)
      group.enter()
      let (background, before) = (background, beforeWorkerFrame)
      let thread = Thread {
        if background { Self.lowerPriority() }
        state.work(renderer: workerRenderer, fitter: fitter, converter: converter, convert: convert, before: before)
        group.leave()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    // The encoder's own renderer (`background`), made when first needed.
    var own: (fitter: FrameFitter, converter: YUVConverter, bitmap: Bitmap)? = nil
    var last: YUVFrame? = nil
    func deliver(_ n: Int, _ yuv: YUVFrame) throws {
      statistics.rendered += 1
      if comparing, let last, yuv.hasSamePixels(as: last) {
        // The picture before, again: the new copy goes back to the pool.
        state.recycle(yuv)
        try consume(n, last, true)
        return
      }
      try consume(n, yuv, false)
      // The encoder has let go of the previous frame; workers may reuse it.
      if let last { state.recycle(last) }
      last = yuv
    }
    for n in 0..<count {
      let item = try StageTimings.measure(.wait) {
        try state.take(n, helps: background, patience: patience, repeats: renderer.repeatsPreviousFrame)
      }
      switch item {
      case .frame(let yuv):
        try deliver(n, yuv)
      case .draw(let pooled):
        let yuv = try pooled ?? YUVFrame(width: width, height: height)
        if own == nil {
          own = (
            try FrameFitter(renderer, width: width, height: height),
            try YUVConverter(width: width, height: height, threads: max(1, ProcessInfo.processInfo.activeProcessorCount)),
            Bitmap(width: width, height: height)
          )
        }
        try Self.draw(n, own!.fitter, &own!.bitmap, own!.converter, into: yuv, convert: convert)
        statistics.drawnByEncoder += 1
        try deliver(n, yuv)
      case .repeated:
        try consume(n, last!, true)
      }
      state.consumed(n)
    }
    return statistics
  }

  /// Draws frame `n` into `bitmap` and, with `convert`, converts it into
  /// `yuv`, each step timed (`StageTimings`).
  static func draw(
    _ n: Int, _ fitter: FrameFitter, _ bitmap: inout Bitmap, _ converter: YUVConverter, into yuv: YUVFrame,
    convert: Bool
  ) throws {
    try StageTimings.measure(.compose) { try fitter.render(n, into: &bitmap) }
    if convert { try StageTimings.measure(.convert) { try converter.convert(bitmap, into: yuv) } }
  }

  /// Moves the calling thread to the idle scheduling class, where it runs
  /// only on a core no normal thread wants. `SCHED_IDLE` is 5 in Linux's
  /// `<sched.h>`; glibc declares it only under `_GNU_SOURCE`, which Swift's
  /// Glibc module does not set. A failure (a sandbox that forbids it)
  /// leaves the thread as it was: the encoder's help keeps it correct.
  static func lowerPriority() {
    #if os(Linux)
      var parameters = sched_param()
      _ = pthread_setschedparam(pthread_self(), 5, &parameters)
    #endif
  }
}

/// What the encoder gets for frame `n`.
private enum PipelineItem {
  /// Drawn and converted by a worker.
  case frame(YUVFrame)
  /// The same picture as frame `n − 1`.
  case repeated
  /// For the encoder's thread to draw, into this pooled frame (nil: the
  /// pool is dry, make one).
  case draw(YUVFrame?)
}

/// The shared state of a `FramePipeline` run: a ring of `depth` slots
/// (frame `n` in slot `n % depth`), the free converted frames, and the error
/// that stopped it, under one lock.
private final class PipelineState: @unchecked Sendable {
  let count: Int
  let depth: Int
  let width: Int, height: Int
  private let condition = NSCondition()
  private var slots: [PipelineItem?]
  private var free: [YUVFrame]
  /// The next frame a worker (or the encoder) will claim.
  private var nextClaim = 0
  /// Frames the encoder has taken and finished with.
  private var consumedCount = 0
  /// The last frame the encoder has taken: from its slot, or to draw
  /// itself. A worker's later copy of it is dropped.
  private var taken = -1
  /// A worker's recent CPU seconds per frame (drawn and converted, on its
  /// thread), smoothed: what a frame takes a worker that gets a core. Not
  /// wall time, which grows without bound while workers are starved.
  private var frameSeconds = 0.0
  private var stopped = false
  private var failure: (any Error)?

  init(count: Int, depth: Int, width: Int, height: Int) {
    self.count = count
    self.depth = depth
    (self.width, self.height) = (width, height)
    slots = Array(repeating: nil, count: depth)
    free = []
  }

  /// A worker's loop: claim the next frame, render and convert it outside
  /// the lock, publish it (unless the encoder has drawn it meanwhile).
  func work(
    renderer: FrameRenderer, fitter: FrameFitter, converter: YUVConverter, convert: Bool,
    before: (@Sendable (Int) -> Void)?
  ) {
    var bitmap = Bitmap(width: fitter.width, height: fitter.height)
    condition.lock()
    while true {
      while !stopped && nextClaim < count && nextClaim - consumedCount >= depth { condition.wait() }
      if stopped || nextClaim >= count { break }
      let n = nextClaim
      nextClaim += 1
      if renderer.repeatsPreviousFrame(n) {
        slots[n % depth] = .repeated
        condition.broadcast()
        continue
      }
      let pooled = free.popLast()
      condition.unlock()
      var error: (any Error)? = nil
      var yuv: YUVFrame? = nil
      let start = Self.threadSeconds()
      do {
        before?(n)
        let frame = try pooled ?? YUVFrame(width: width, height: height)
        yuv = frame
        try FramePipeline.draw(n, fitter, &bitmap, converter, into: frame, convert: convert)
      } catch let e { error = e }
      let seconds = Self.threadSeconds() - start
      condition.lock()
      if let error {
        stopLocked(error)
        break
      }
      frameSeconds = frameSeconds == 0 ? seconds : 0.75 * frameSeconds + 0.25 * seconds
      if n <= taken {
        free.append(yuv!)  // the encoder drew it
      } else {
        slots[n % depth] = .frame(yuv!)
      }
      condition.broadcast()
    }
    condition.unlock()
  }

  /// The calling thread's CPU time in seconds.
  static func threadSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }

  /// Waits for frame `n` and takes it; throws the error that stopped the
  /// pipeline. With `helps`, hands frame `n` to the encoder to draw when
  /// no worker has claimed it, or when the worker that has is still at it
  /// after `patience` seconds (nil: twice `frameSeconds`, at least 5 ms).
  func take(_ n: Int, helps: Bool, patience: Double?, repeats: (Int) -> Bool) throws -> PipelineItem {
    condition.lock()
    defer { condition.unlock() }
    var deadline: Date? = nil
    while true {
      if stopped { throw failure ?? CancellationError() }
      if let item = slots[n % depth] {
        slots[n % depth] = nil
        taken = n
        return item
      }
      guard helps else {
        condition.wait()
        continue
      }
      // Claims go in order and every frame before `n` is taken, so `n` is
      // either the next claim or a worker's.
      var draws = nextClaim == n
      if draws {
        nextClaim = n + 1
      } else {
        let due = deadline ?? Date(timeIntervalSinceNow: patience ?? max(0.005, 2 * frameSeconds))
        deadline = due
        draws = Date() >= due
      }
      if draws {
        taken = n
        return repeats(n) ? .repeated : .draw(free.popLast())
      }
      _ = condition.wait(until: deadline!)
    }
  }

  /// The encoder is done with frame `n`: its slot may be claimed again.
  func consumed(_ n: Int) {
    condition.lock()
    consumedCount = n + 1
    condition.broadcast()
    condition.unlock()
  }

  /// Returns a converted frame to the pool.
  func recycle(_ yuv: YUVFrame) {
    condition.lock()
    free.append(yuv)
    condition.unlock()
  }

  /// Stops every worker after its current frame (keeping the first error).
  func stop(_ error: (any Error)?) {
    condition.lock()
    stopLocked(error)
    condition.unlock()
  }

  private func stopLocked(_ error: (any Error)?) {
    if failure == nil { failure = error }
    stopped = true
    condition.broadcast()
  }
}
