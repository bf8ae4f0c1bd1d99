#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import Jobs
import Synchronization

/// Tells the user (or a machine) how the batch goes, in one of four forms:
/// - `tty`: a bar per running job and one for the batch (frames, fps, ETA),
///   redrawn on standard error four times a second; result lines scroll above
///   (standard output redirected, a log, gets them as `plain` does, in order);
/// - `plain`: a line per written output (`PATH  N frames  D s  B bytes`), per
///   up-to-date output (`PATH  up to date`), and a summary for a batch of
///   more than one job; the jobs' lines in the batch's order, whatever
///   order `-j`'s workers finish them in (`ResultLines`), so that one batch
///   prints the same lines every run;
/// - `ndjson`: one JSON object per line on standard output — `start`,
///   `frame` (every 30 frames of an output, naming it), `progress` (for each output, once the job's
///   outputs are in place), `done`,
///   `cached`, `failed` (with the error's file, line and column), `summary`;
/// - `none`: the result lines only, in the batch's order too.
/// Errors always go to standard error as `FILE:LINE:COL: error: …`; `-q`
/// leaves only them.
///
/// Frame counts inside a running output come from the writers' per-frame
/// callback (`frameRendered`); ndjson adds a `frame` event every 30 frames.
final class ProgressReporter: Sendable {
  enum Mode: Sendable { case tty, plain, ndjson, none, quiet }

  private struct Running {
    var name: String
    var frames: Int
    var pixels: Int
    var outputs: Int
    var outputsDone = 0
    var unitsDone = 0
    /// Frames rendered of the output being written (`frameRendered`).
    var framesInOutput = 0
    var started: ContinuousClock.Instant
    var outputStarted: ContinuousClock.Instant
  }

  private struct State {
    /// Running jobs by `PlannedJob.id`: a file's locales and appearances may run at once.
    var running: [PlannedJob.ID: Running] = [:]
    /// Running jobs in start order (for a steady display).
    var order: [PlannedJob.ID] = []
    /// Output frames to make in all (cached and failed jobs drop out).
    var unitsTotal = 0
    var unitsDone = 0
    /// Pixel-frames rendered and the seconds they took, for estimates.
    var pixelFramesDone = 0.0
    var outputSeconds = 0.0
    var jobsDone = 0
    var failed = 0
    /// Jobs rendered, up to date, and of those copied from a `--cache` store, so far (for a stopped batch's summary).
    var rendered = 0
    var cached = 0
    var copied = 0
    /// Whether the summary is out (`finish`, or `stopped(by:)`): a batch has one.
    var summarized = false
    var drawnLines = 0
    /// The result lines of jobs finished before an earlier one (`plain`, `none`).
    var held = ResultLines()
  }

  let mode: Mode
  private let console: Console
  private let jobCount: Int
  /// Each job's place in the batch, for the result lines' order.
  private let places: [PlannedJob.ID: Int]
  private let started = ContinuousClock.now
  private let state: Mutex<State>
  /// The redraw timer (`tty` only); started by `begin` and stopped by `finish`, both on the runner's thread.
  nonisolated(unsafe) private var timer: (any DispatchSourceTimer)?

  init(mode: Mode, console: Console, jobs: [PlannedJob]) {
    self.mode = mode
    self.console = console
    jobCount = jobs.count
    places = Dictionary(jobs.enumerated().map { ($1.id, $0) }) { first, _ in first }
    state = Mutex(State(unitsTotal: jobs.reduce(0) { $0 + ($1.failure == nil ? $1.frames * $1.formats.count : 0) }))
  }

  /// Picks the mode from `--progress`, `-q` and whether stderr is a terminal.
  static func mode(_ option: Options.ProgressMode, quiet: Bool, console: Console) -> Mode {
    // ndjson is for programs, which -q (for people) does not silence.
    if quiet { return option == .ndjson ? .ndjson : .quiet }
    switch option {
    case .auto: return console.terminal == nil ? .plain : .tty
    case .tty: return .tty
    case .plain: return .plain
    case .ndjson: return .ndjson
    case .none: return .none
    }
  }

  // MARK: - Events

  func begin() {
    guard mode == .tty else { return }
    let source = DispatchSource.makeTimerSource(queue: .global())
    source.schedule(deadline: .now(), repeating: .milliseconds(250))
    source.setEventHandler { [weak self] in self?.redraw() }
    source.resume()
    timer = source
  }

  func jobStarted(_ job: PlannedJob) {
    let now = ContinuousClock.now
    state.withLock {
      $0.running[job.id] = Running(
        name: job.name, frames: job.frames, pixels: job.pixelWidth * job.pixelHeight, outputs: job.formats.count,
        started: now, outputStarted: now)
      $0.order.append(job.id)
    }
    if mode == .ndjson {
      emit([
        ("event", "start"), ("job", job.name), ("file", job.file), ("frames", job.frames),
        ("outputs", job.outputs),
      ])
    }
  }

  /// An output of a running job is written, not yet in place (a job's
  /// outputs go into place together, `outputWritten`): its frames count for
  /// the bars and the estimates.
  func outputRendered(_ job: PlannedJob, _ summary: OutputSummary) {
    let now = ContinuousClock.now
    state.withLock { s in
      guard var r = s.running[job.id] else { return }
      s.pixelFramesDone += Double(summary.frames * r.pixels)
      s.outputSeconds += Self.seconds(r.outputStarted, now)
      // An output stands for all of the job's frames, whatever its own
      // count (a poster is one frame, a GIF at a lower rate fewer): the
      // units reach the total, job frames × outputs, when the job is done.
      s.unitsDone += r.frames
      r.unitsDone += r.frames
      r.outputsDone += 1
      r.framesInOutput = 0
      r.outputStarted = now
      s.running[job.id] = r
    }
  }

  /// The job's `number`th output (from 1) is in place: its result line, or
  /// ndjson's `progress` with the job's frames × that number, naming the
  /// job's file, as every event of a job does (its name is not unique: two
  /// folders' jobs may share one).
  func outputWritten(_ job: PlannedJob, _ summary: OutputSummary, number: Int) {
    switch mode {
    case .ndjson:
      // What the writer decided on its own (a GIF's rate lowered, a budget met), as the result line says it.
      emit(
        [
          ("event", "progress"), ("job", job.name), ("file", job.file), ("frames", job.frames * number),
          ("total", job.frames * job.formats.count), ("output", summary.path), ("bytes", summary.bytes),
        ] + (summary.notes.isEmpty ? [] : [("notes", summary.notes)]))
    case .plain, .none: hold(job, [summary.line(job.formats[number - 1].writer.fileType)])
    case .tty:
      let text = summary.line(job.formats[number - 1].writer.fileType)
      if console.printsToTerminal { line(text) } else { hold(job, [text]) }
    case .quiet: break
    }
  }

  /// Frame `n` of the output being written is done: exact counts for the
  /// live bars, and an ndjson `frame` event every `ndjsonFrameInterval`.
  /// The event names the job's file and the output being written (its
  /// outputs are written one after another, in the job's order), as
  /// `start` and `progress` do: one job's outputs, or several jobs, run at once.
  func frameRendered(_ job: PlannedJob, _ n: Int) {
    let output = state.withLock { s -> Int in
      s.running[job.id]?.framesInOutput = n + 1
      return s.running[job.id]?.outputsDone ?? 0
    }
    if mode == .ndjson, (n + 1) % Self.ndjsonFrameInterval == 0 {
      emit([
        ("event", "frame"), ("job", job.name), ("file", job.file),
        ("output", job.outputs.indices.contains(output) ? job.outputs[output] : nil), ("frame", n + 1),
        ("frames", job.frames),
      ])
    }
  }

  /// How often `--progress ndjson` reports frames within an output.
  static let ndjsonFrameInterval = 30

  func jobCached(_ job: PlannedJob, _ record: CacheRecord) {
    state.withLock {
      $0.unitsTotal -= job.frames * job.formats.count
      $0.jobsDone += 1
      $0.cached += 1
    }
    switch mode {
    case .ndjson:
      emit([("event", "cached"), ("job", job.name), ("file", job.file), ("outputs", job.outputs)])
    case .plain, .none: hold(job, job.outputs.map { "\($0)  up to date" })
    case .tty where !console.printsToTerminal: hold(job, job.outputs.map { "\($0)  up to date" })
    case .tty:
      for output in job.outputs { line("\(output)  up to date") }
    case .quiet: break
    }
    release(job)
  }

  /// The job's outputs are in place: rendered, or (`copied`) copied from
  /// a `--cache` store, which ndjson says as the report does, `cached`.
  func jobFinished(_ job: PlannedJob, seconds: Double, bytes: Int, copied: Bool = false) {
    state.withLock {
      $0.running[job.id] = nil
      $0.order.removeAll { $0 == job.id }
      $0.jobsDone += 1
      if copied {
        $0.cached += 1
        $0.copied += 1
      } else {
        $0.rendered += 1
      }
    }
    release(job)
    guard mode == .ndjson else { return }
    if copied {
      emit([("event", "cached"), ("job", job.name), ("file", job.file), ("outputs", job.outputs), ("copied", true)])
    } else {
      emit([
        ("event", "done"), ("job", job.name), ("file", job.file), ("frames", job.frames), ("bytes", bytes),
        ("seconds", seconds),
      ])
    }
  }

  func jobFailed(_ job: PlannedJob, _ failure: JobFailure) {
    state.withLock {
      if let r = $0.running[job.id] {
        $0.unitsTotal -= r.frames * r.outputs - r.unitsDone
      } else if job.failure == nil {
        $0.unitsTotal -= job.frames * job.formats.count
      }
      $0.running[job.id] = nil
      $0.order.removeAll { $0 == job.id }
      $0.jobsDone += 1
      $0.failed += 1
    }
    release(job)
    if mode == .ndjson {
      var fields: [(String, Any?)] = [("event", "failed"), ("job", job.name), ("file", job.file), ("error", failure.description)]
      // `file` is the job's; `error_file` is the one its line and column are in (the job file, or its String Catalog).
      if let l = failure.location { fields += [("error_file", l.file), ("line", l.line), ("column", l.column)] }
      emit(fields)
    }
    clearing { console.error(failure.description) }
  }

  /// The job's notes (`JobNote`), when it renders: on standard error, or as
  /// ndjson `note` events; none with `-q`.
  func jobNotes(_ job: PlannedJob, _ notes: [JobNote]) {
    for note in notes {
      switch mode {
      case .ndjson: emit([("event", "note"), ("job", job.name), ("file", job.file), ("note", note.description)])
      case .quiet: break
      case .tty, .plain, .none: clearing { console.error(note.description) }
      }
    }
  }

  /// Stops the live display and prints the summary: `cached` jobs up to
  /// date, `copied` of them copied from a `--cache` store in this run.
  func finish(rendered: Int, cached: Int, copied: Int = 0, failed: Int, shard: Shard) {
    if let timer {
      // Cancelling is asynchronous: the source keeps itself until its
      // cancel handler has run, so libdispatch never sees it freed.
      timer.setCancelHandler { withExtendedLifetime(timer) {} }
      timer.cancel()
    }
    timer = nil
    let seconds = Self.seconds(started, .now)
    clearing {}
    printHeldLines()
    let shardText = shard == .all ? "" : " (shard \(shard))"
    switch mode {
    case .ndjson:
      guard claimSummary() else { break }
      emit([
        ("event", "summary"), ("jobs", jobCount), ("rendered", rendered), ("cached", cached), ("copied", copied),
        ("failed", failed),
        ("seconds", seconds), ("shard", shard == .all ? nil : shard.description),
      ])
    case .plain, .tty:
      if jobCount > 1 || shard != .all {
        console.print(
          "transvid: \(jobCount) job\(jobCount == 1 ? "" : "s")\(shardText): \(rendered) rendered, \(cached) up to date"
            + (copied > 0 ? " (\(copied) copied from the cache)" : "") + ", \(failed) failed"
            + String(format: " in %.1f s", seconds))
      }
    case .none, .quiet: break
    }
  }

  /// The batch is stopped by `signal` (`SIGINT`, `SIGTERM`, `SIGHUP`),
  /// its unfinished outputs removed: the result lines still held print,
  /// and ndjson's last event is the `summary`, with `"stopped"` naming the
  /// signal and the jobs finished until then, so that a reader of the
  /// stream tells a stopped batch from one that died.
  func stopped(by signal: String, shard: Shard) {
    printHeldLines()
    guard mode == .ndjson, claimSummary() else { return }
    let counts = state.withLock { ($0.rendered, $0.cached, $0.copied, $0.failed) }
    emit([
      ("event", "summary"), ("jobs", jobCount), ("rendered", counts.0), ("cached", counts.1), ("copied", counts.2),
      ("failed", counts.3), ("seconds", Self.seconds(started, .now)), ("shard", shard == .all ? nil : shard.description),
      ("stopped", signal),
    ])
  }

  /// Whether the batch's one summary is still to be written; it is from now on.
  private func claimSummary() -> Bool {
    state.withLock { s in
      defer { s.summarized = true }
      return !s.summarized
    }
  }

  // MARK: - Output

  private func line(_ text: String) { clearing { console.print(text) } }

  /// Keeps `job`'s result lines until the jobs before it in the batch have printed theirs.
  private func hold(_ job: PlannedJob, _ lines: [String]) {
    guard let place = places[job.id] else { return lines.forEach(console.print) }
    state.withLock { $0.held.add(lines, at: place) }
  }

  /// `job` is done: its lines, and those of the finished jobs after it, print
  /// once every job before it has printed.
  private func release(_ job: PlannedJob) {
    guard mode == .plain || mode == .none || (mode == .tty && !console.printsToTerminal), let place = places[job.id]
    else { return }
    state.withLock { s in s.held.finish(place).forEach(console.print) }
  }

  /// Prints every result line still held, in the batch's order: at the end
  /// of a batch some of whose jobs never ran (stopped by a signal), or
  /// before the process exits on one (`Cancellation.setLastWords`).
  func printHeldLines() {
    state.withLock { s in s.held.all().forEach(console.print) }
  }

  /// Runs `body` with the live display cleared, then redraws it.
  private func clearing(_ body: () -> Void) {
    guard mode == .tty, let terminal = console.terminal else { return body() }
    state.withLock { s in
      terminal(Self.clearSequence(s.drawnLines))
      s.drawnLines = 0
      body()
    }
  }

  private static func clearSequence(_ lines: Int) -> String {
    guard lines > 0 else { return "" }
    return "\r\u{1B}[2K" + String(repeating: "\u{1B}[1A\u{1B}[2K", count: lines - 1)
  }

  private func redraw() {
    guard let terminal = console.terminal else { return }
    let now = ContinuousClock.now
    let elapsed = Self.seconds(started, now)
    state.withLock { s in
      let rate = s.outputSeconds > 0 ? s.pixelFramesDone / s.outputSeconds : 0  // pixel-frames per second per job
      var bars: [String] = []
      var estimatedUnits = s.unitsDone
      for id in s.order {
        guard let r = s.running[id] else { continue }
        // Exact when the writer reports frames; else estimated from throughput.
        let estimate = Int(Self.seconds(r.outputStarted, now) * rate / Double(max(r.pixels, 1)))
        let guess = r.outputsDone < r.outputs ? min(r.frames, r.framesInOutput > 0 ? r.framesInOutput : estimate) : 0
        let done = r.unitsDone + max(0, guess)
        estimatedUnits += max(0, guess)
        let total = r.frames * r.outputs
        bars.append(
          "  \(Self.padded(r.name, 18)) \(Self.bar(done, total))  \(done)/\(total) frames"
            + (r.outputs > 1 ? "  output \(min(r.outputsDone + 1, r.outputs))/\(r.outputs)" : "")
            + String(format: "  %.1f s", Self.seconds(r.started, now)))
      }
      let fps = elapsed > 0 ? Double(estimatedUnits) / elapsed : 0
      let remaining = max(0, s.unitsTotal - estimatedUnits)
      let eta = fps > 0 ? Self.clock(Double(remaining) / fps) : "--:--"
      let batch =
        "  \(Self.padded("\(s.jobsDone)/\(jobCount) jobs" + (s.failed > 0 ? ", \(s.failed) failed" : ""), 18)) "
        + "\(Self.bar(estimatedUnits, s.unitsTotal))  \(estimatedUnits)/\(s.unitsTotal) frames"
        + String(format: "  %.0f fps", fps) + "  ETA \(eta)"
      let lines = Self.fitted(bars: bars, batch: batch, in: Self.terminalSize())
      terminal(Self.clearSequence(s.drawnLines) + lines.joined(separator: "\n"))
      s.drawnLines = lines.count
    }
  }

  /// The live display's lines for a terminal of `size`: the clear sequence
  /// can only reach lines still on the screen, and a line wider than the
  /// terminal wraps into rows it does not count, so the display keeps to
  /// one row less than the terminal has (the cursor's) and each line to one
  /// column less than its width. Running jobs that do not fit are counted
  /// on one line (`+5 more running`) above the batch's.
  static func fitted(bars: [String], batch: String, in size: (rows: Int, columns: Int)) -> [String] {
    let rows = max(1, size.rows - 1)
    var lines = bars
    if bars.count + 1 > rows {
      let shown = max(0, rows - 2)
      lines = Array(bars.prefix(shown)) + (rows >= 2 ? ["  +\(bars.count - shown) more running"] : [])
    }
    lines.append(batch)
    let width = max(0, size.columns - 1)
    return lines.map { $0.count > width ? String($0.prefix(width)) : $0 }
  }

  /// Rows and columns of the terminal on standard error (24×80 where it
  /// does not say: a size of 0 is unknown).
  private static func terminalSize() -> (rows: Int, columns: Int) {
    var size = winsize()
    guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0 else { return (24, 80) }
    return (size.ws_row > 0 ? Int(size.ws_row) : 24, size.ws_col > 0 ? Int(size.ws_col) : 80)
  }

  private static func bar(_ done: Int, _ total: Int, width: Int = 16) -> String {
    let filled = total > 0 ? min(width, done * width / total) : 0
    return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
  }

  private static func padded(_ text: String, _ width: Int) -> String {
    text.count > width ? String(text.prefix(width - 1)) + "…" : text + String(repeating: " ", count: width - text.count)
  }

  private static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded(.up))
    return String(format: "%d:%02d", s / 60, s % 60)
  }

  static func seconds(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> Double {
    let d = to - from
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }

  private func emit(_ fields: [(String, Any?)]) {
    console.print(JSONText.object(fields))
  }
}

/// Small JSON writing for event lines (keys in the given order).
enum JSONText {
  static func object(_ fields: [(String, Any?)]) -> String {
    "{" + fields.compactMap { key, value in value.map { "\(string(key)):\(self.value($0))" } }.joined(separator: ",") + "}"
  }

  static func value(_ value: Any) -> String {
    switch value {
    case let raw as RawJSON: return raw.description
    case let s as String: return string(s)
    case let b as Bool: return b ? "true" : "false"
    case let i as Int: return String(i)
    case let d as Double: return d.isFinite ? String(format: "%.3f", d) : "null"
    case let a as [String]: return "[" + a.map(string).joined(separator: ",") + "]"
    default: return string("\(value)")
    }
  }

  static func string(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      // C0 and C1 controls and DEL as escapes: the console would write them as `\u{7f}`.
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// `string(s)` for a page's inline `<script>`: `<`, `>`, `&` and the
  /// line separators escaped too, so no text can close the script.
  static func scriptString(_ s: String) -> String {
    var out = ""
    for scalar in string(s).unicodeScalars {
      switch scalar {
      case "<", ">", "&", "\u{2028}", "\u{2029}": out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
