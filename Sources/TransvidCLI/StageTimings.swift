#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Media
import Synchronization

/// Where a run's time goes, stage by stage: the pipeline's own counters,
/// for benchmarks (`scripts/bench floor`).
///
/// On only when `TRANSVID_TIMINGS=1` is in the environment (a bench switch,
/// undocumented for users); then the runner prints one line on stderr at the
/// end, `timings: parse 0.004/0.004 s, decode …` (each stage's wall seconds
/// and the CPU seconds of the thread that ran it, summed over every time the
/// stage ran), then the process's CPU seconds and what the stages' threads
/// do not account for (x264's own threads, the compositor's band helpers).
/// Off, `measure` is one check of a constant and a direct call.
///
/// The stages: `parse` the job file (and its checks), `decode` its images
/// and fonts, `snapshot` set up its `FrameRenderer` (screens are
/// snapshotted when a frame first shows them, so inside `compose`),
/// `compose` and `convert` each frame (render workers), `encode` each frame on the
/// encoder's thread (x264 with its frame threads), `wait` the encoder's
/// thread idling for a frame, `finish` flushing the encoder and writing the
/// file (`+faststart` moves the index). A GIF's `encode` is the whole
/// writer, `compose` inside it, and so are its own phases
/// (`GIFWriter.Phase`): `resize` the frames, choose the `palette`, `code`
/// each image.
final class StageTimings: Sendable {
  enum Stage: Int, CaseIterable {
    case parse, decode, snapshot, compose, convert, encode, wait, finish, resize, palette, code

    /// The stage of a GIF writer's phase.
    init(_ phase: GIFWriter.Phase) {
      switch phase {
      case .resize: self = .resize
      case .palette: self = .palette
      case .code: self = .code
      }
    }

    /// A GIF writer's phase: it runs inside the writer's `encode`, so its
    /// time is not counted again.
    var isGIFPhase: Bool { GIFWriter.Phase.allCases.contains { Stage($0) == self } }
  }

  /// A `GIFWriter` measure that adds each phase to its stage; nil when
  /// timing is off.
  static var gifMeasure: GIFWriter.Measure? {
    guard shared != nil else { return nil }
    return { phase, body throws(MediaError) in try measure(Stage(phase), body) }
  }

  /// The counters of this process, or nil when timing is off.
  static let shared: StageTimings? =
    ProcessInfo.processInfo.environment["TRANSVID_TIMINGS"] == "1" ? StageTimings() : nil

  private let totals = Mutex<[(wall: Double, cpu: Double)]>(
    Array(repeating: (0, 0), count: Stage.allCases.count))

  /// Runs `body`, adding its time to `stage` when timing is on.
  @inline(__always)
  static func measure<T, E: Error>(_ stage: Stage, _ body: () throws(E) -> T) throws(E) -> T {
    guard let shared else { return try body() }
    let wall = Self.now(CLOCK_MONOTONIC), cpu = Self.now(CLOCK_THREAD_CPUTIME_ID)
    defer {
      let dw = Self.now(CLOCK_MONOTONIC) - wall, dc = Self.now(CLOCK_THREAD_CPUTIME_ID) - cpu
      shared.totals.withLock {
        $0[stage.rawValue].wall += dw
        $0[stage.rawValue].cpu += dc
      }
    }
    return try body()
  }

  /// The one-line summary.
  func report() -> String {
    let t = totals.withLock { $0 }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ v: timeval) -> Double { Double(v.tv_sec) + Double(v.tv_usec) * 1e-6 }
    let process = seconds(usage.ru_utime) + seconds(usage.ru_stime)
    let staged = Stage.allCases.filter { !$0.isGIFPhase }.reduce(0) { $0 + t[$1.rawValue].cpu }
    let stages = Stage.allCases.map {
      String(format: "%@ %.3f/%.3f s", "\($0)", t[$0.rawValue].wall, t[$0.rawValue].cpu)
    }
    return "timings: " + stages.joined(separator: ", ")
      + String(format: "; process cpu %.3f s, other threads %.3f s", process, process - staged)
  }

  private static func now(_ clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
  }
}
