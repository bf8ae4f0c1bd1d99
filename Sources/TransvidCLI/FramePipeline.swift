import Dispatch
import Foundation
import Jobs
import Media
import Raster
import Rendering

/// Renders and converts a job's frames on worker threads ahead of the
/// encoder, which takes them in order on the calling thread.
///
/// - Workers claim frame numbers in order, at most `depth` ahead of the
///   encoder (a bounded queue: memory does not grow with the video's length).
///   Each worker owns one frame-sized `Bitmap` and one `YUVConverter`
///   (bands of rows over threads); converted frames come from a pool of `depth + 1`
///   `YUVFrame`s. Nothing frame-sized is allocated per frame.
/// - A frame that repeats the previous one (`FrameRenderer.repeatsPreviousFrame`:
///   holds, paused gestures) is neither rendered nor converted nor copied: the
///   encoder is handed the previous converted frame again.
/// - The encoder (x264, a fixed thread count, see `FormatWriter.encoderThreads`)
///   gets whatever CPU the workers leave.
///
/// Determinism: every frame's pixels are a pure function of its number, the
/// conversion does not depend on its thread count, and the encoder sees the
/// frames in order, so the file is byte-identical for any `workers`, `depth`
/// and `conversionThreads` (tests compare against `MP4Writer.append(Bitmap)`
/// frame by frame).
struct FramePipeline {
  /// Render workers; 0 renders and converts on the calling thread, in turn
  /// with the encoder (the reference path).
  var workers: Int
  /// Frames claimed but not yet encoded, at most.
  var depth: Int
  /// Threads each converter spreads its bands of rows over.
  var conversionThreads: Int

  /// The defaults for this machine: one worker (the compositor already spreads
  /// each frame's row bands over every core) rendering up to three frames
  /// ahead, conversion over every core. `TRANSVID_RENDER_WORKERS` and
  /// `TRANSVID_PIPELINE_DEPTH` (bench and debugging only, undocumented for
  /// users) override the worker count and the depth.
  static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> FramePipeline {
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let workers = environment["TRANSVID_RENDER_WORKERS"].flatMap { Int($0) }.map { max(0, $0) } ?? 1
    let depth = environment["TRANSVID_PIPELINE_DEPTH"].flatMap { Int($0) }.map { max(1, $0) } ?? max(3, workers + 2)
    return FramePipeline(workers: workers, depth: depth, conversionThreads: cores)
  }

  /// What the pipeline did, for benchmarks.
  struct Statistics {
    /// Frames rendered (the rest repeated the previous frame).
    var rendered = 0
    /// Frames in total.
    var frames = 0
  }

  /// Renders every frame of `renderer` and hands each, in order, to
  /// `consume` (with the frame number and the converted frame; a repeated
  /// frame is the same `YUVFrame` object as the one before). An error from a
  /// worker or from `consume` stops the workers; it is rethrown once they
  /// have all stopped.
  ///
  /// `convert: false` renders only (no conversion; `consume` gets a frame
  /// with stale pixels): the compositor-only benchmark.
  @discardableResult
  func run(
    _ renderer: FrameRenderer, width: Int, height: Int, convert: Bool = true,
    consume: (Int, YUVFrame) throws -> Void
  ) throws -> Statistics {
    let count = renderer.frameCount
    var statistics = Statistics(frames: count)
    guard count > 0 else { return statistics }
    if workers == 0 {
      let converter = try YUVConverter(width: width, height: height, threads: conversionThreads)
      let yuv = try YUVFrame(width: width, height: height)
      var bitmap = Bitmap(width: width, height: height)
      let fitter = try FrameFitter(renderer, width: width, height: height)
      for n in 0..<count {
        if !renderer.repeatsPreviousFrame(n) {
          try StageTimings.measure(.compose) { try fitter.render(n, into: &bitmap) }
          if convert { try StageTimings.measure(.convert) { try converter.convert(bitmap, into: yuv) } }
          statistics.rendered += 1
        }
        try consume(n, yuv)
      }
      return statistics
    }

    let state = try PipelineState(
      count: count, depth: max(1, depth), pool: (0...max(1, depth)).map { _ in try YUVFrame(width: width, height: height) })
    let group = DispatchGroup()
    defer {
      state.stop(nil)
      group.wait()
    }
    for _ in 0..<workers {
      let converter = try YUVConverter(width: width, height: height, threads: conversionThreads)
      let fitter = try FrameFitter(renderer, width: width, height: height)
      group.enter()
      let thread = Thread {
        state.work(renderer: renderer, fitter: fitter, converter: converter, convert: convert)
        group.leave()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    var last: YUVFrame? = nil
    for n in 0..<count {
      switch try StageTimings.measure(.wait, { try state.take(n) }) {
      case .frame(let yuv):
        try consume(n, yuv)
        // The encoder has let go of the previous frame; workers may reuse it.
        if let last { state.recycle(last) }
        last = yuv
        statistics.rendered += 1
      case .repeated:
        try consume(n, last!)
      }
      state.consumed(n)
    }
    return statistics
  }
}

/// What a worker leaves for frame `n`.
private enum PipelineItem {
  case frame(YUVFrame)
  /// The same picture as frame `n − 1`.
  case repeated
}

/// The shared state of a `FramePipeline` run: a ring of `depth` slots
/// (frame `n` in slot `n % depth`), the free converted frames, and the error
/// that stopped it, under one lock.
private final class PipelineState: @unchecked Sendable {
  let count: Int
  let depth: Int
  private let condition = NSCondition()
  private var slots: [PipelineItem?]
  private var free: [YUVFrame]
  /// The next frame a worker will claim.
  private var nextClaim = 0
  /// Frames the encoder has taken and finished with.
  private var consumedCount = 0
  private var stopped = false
  private var failure: (any Error)?

  init(count: Int, depth: Int, pool: [YUVFrame]) {
    self.count = count
    self.depth = depth
    slots = Array(repeating: nil, count: depth)
    free = pool
  }

  /// A worker's loop: claim the next frame, render and convert it outside
  /// the lock, publish it.
  func work(renderer: FrameRenderer, fitter: FrameFitter, converter: YUVConverter, convert: Bool) {
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
      // At most `depth` claimed frames are unconsumed, and the encoder holds
      // one more: a pool of `depth + 1` never runs dry here.
      let yuv = free.removeLast()
      condition.unlock()
      var error: (any Error)? = nil
      do {
        try StageTimings.measure(.compose) { try fitter.render(n, into: &bitmap) }
        if convert { try StageTimings.measure(.convert) { try converter.convert(bitmap, into: yuv) } }
      } catch let e { error = e }
      condition.lock()
      if let error {
        stopLocked(error)
        break
      }
      slots[n % depth] = .frame(yuv)
      condition.broadcast()
    }
    condition.unlock()
  }

  /// Waits for frame `n` and takes it; throws the error that stopped the pipeline.
  func take(_ n: Int) throws -> PipelineItem {
    condition.lock()
    defer { condition.unlock() }
    while slots[n % depth] == nil && !stopped { condition.wait() }
    if stopped { throw failure ?? CancellationError() }
    let item = slots[n % depth]!
    slots[n % depth] = nil
    return item
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
