#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs
import Media
import Raster
import Synchronization

/// What became of one job of a batch.
struct JobResult: Sendable {
  enum Status: String, Sendable { case rendered, cached, failed }

  var job: PlannedJob
  var status: Status
  /// Every output, with final paths (for a cached job, from its record).
  var outputs: [OutputSummary] = []
  var seconds = 0.0
  var failure: JobFailure?
  var key = ""

  var bytes: Int { outputs.reduce(0) { $0 + $1.bytes } }
}

/// Renders a batch: finds the jobs, keeps this shard's, skips the up-to-date
/// ones, renders the rest on `-j` workers (a failing job is reported and the
/// others run on), then writes the reports. The exit status is 1 if any job
/// failed.
///
/// Parallelism: jobs run on `-j` threads (default: one per core, at most one
/// per job). Inside a job an MP4 goes through `FramePipeline`: a worker
/// renders frames ahead of the encoder (the compositor spreading each frame's
/// row bands over the cores), swscale converts in slices, repeated frames are
/// not rendered again, and x264 uses a fixed 4 threads — so a single big job
/// still keeps the machine busy; many small jobs gain most side by side.
/// Output bytes do not depend on `-j`: each job's pixels and encoder settings
/// are fixed, and every output is written alone.
struct BatchRunner: Sendable {
  let options: Options
  let console: Console
  let environment: [String: String]

  func run(inputs: [String]) -> Int32 {
    let files: [String]
    let shard: Shard
    do {
      files = try BatchPlan.findJobs(inputs)
      shard = try options.shard ?? Shard.fromEnvironment(environment, count: options.shardCount) ?? .all
    } catch {
      console.error("transvid: \(error)")
      return 2
    }
    let plan = BatchPlan(files: files, options: options, shardCount: shard.count)
    let jobs = plan.jobs.filter { $0.shard == shard.index }
    let mode = ProgressReporter.mode(options.progress, quiet: options.quiet, console: console)
    let reporter = ProgressReporter(mode: mode, console: console, jobs: jobs)
    StaleStaging.removeAll(in: plan.jobs.filter { $0.failure == nil }.map(\.directory))
    let staging = StagingArea()
    let cache = OutputCache()

    reporter.begin()
    let results = Mutex([JobResult?](repeating: nil, count: jobs.count))
    let next = Atomic(0)
    let work: @Sendable () -> Void = {
      while !Cancellation.shared.isCancelled {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < jobs.count else { return }
        let result = render(jobs[i], cache: cache, staging: staging, reporter: reporter)
        results.withLock { $0[i] = result }
      }
    }
    let workers = min(options.jobs ?? ProcessInfo.processInfo.activeProcessorCount, max(jobs.count, 1))
    if workers <= 1 {
      work()
    } else {
      let group = DispatchGroup()
      for _ in 0..<workers {
        group.enter()
        let thread = Thread {
          work()
          group.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
      }
      group.wait()
    }
    staging.removeAll()

    let done = results.withLock { $0.compactMap { $0 } }
    let count = { (status: JobResult.Status) in done.filter { $0.status == status }.count }
    reporter.finish(rendered: count(.rendered), cached: count(.cached), failed: count(.failed), shard: shard)
    var status: Int32 = count(.failed) == 0 ? 0 : 1
    if !writeReports(done, shard: shard) { status = 1 }
    return status
  }

  /// Renders one job, or finds it up to date, or reports why it failed.
  func render(_ job: PlannedJob, cache: OutputCache, staging: StagingArea, reporter: ProgressReporter) -> JobResult {
    if let failure = job.failure {
      reporter.jobFailed(job, failure)
      return JobResult(job: job, status: .failed, failure: failure)
    }
    let key = cache.key(for: job)
    if !options.force, let record = OutputCache.validRecord(for: job, key: key) {
      reporter.jobCached(job, record)
      let outputs = record.outputs.map {
        OutputSummary(
          path: (job.directory as NSString).appendingPathComponent($0.file), frames: $0.frames,
          duration: $0.duration, bytes: $0.bytes)
      }
      return JobResult(job: job, status: .cached, outputs: outputs, key: key)
    }
    reporter.jobStarted(job)
    let start = ContinuousClock.now
    var outputs: [OutputSummary] = []
    do {
      guard let spec = job.spec else { throw JobFailure(file: job.file, message: "not parsed") }
      try FileManager.default.createDirectory(atPath: job.directory, withIntermediateDirectories: true)
      let folder = try staging.folder(in: job.directory)
      // The old record goes first: if this render fails halfway, the next run renders again.
      try? FileManager.default.removeItem(atPath: job.recordPath)
      let renderer = try AssetLoader.makeRenderer(for: spec)
      reporter.jobNotes(job, spec.notes)
      for (format, output) in zip(job.formats, job.outputs) {
        if Cancellation.shared.isCancelled { throw CancellationError() }
        let staged = (folder as NSString).appendingPathComponent((output as NSString).lastPathComponent)
        var summary = try OutputWriter.write(format: format, renderer: renderer, to: staged) { n in
          // Stop between frames: the writer closes its encoder and removes its temporary file.
          if Cancellation.shared.isCancelled { throw CancellationError() }
          reporter.frameRendered(job, n)
        }
        try Cancellation.shared.commit { try Self.move(staged, to: output) }
        summary.path = output
        outputs.append(summary)
        reporter.outputWritten(job, summary)
      }
      let record = CacheRecord(
        key: key, job: job.file, version: TransvidCommand.version,
        outputs: outputs.map {
          .init(file: ($0.path as NSString).lastPathComponent, bytes: $0.bytes, frames: $0.frames, duration: $0.duration)
        })
      let stagedRecord = (folder as NSString).appendingPathComponent("\(job.name).record.json")
      try record.encoded().write(to: URL(fileURLWithPath: stagedRecord))
      try Cancellation.shared.commit {
        try FileManager.default.createDirectory(
          atPath: (job.recordPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Self.move(stagedRecord, to: job.recordPath)
      }
      let seconds = ProgressReporter.seconds(start, .now)
      reporter.jobFinished(job, seconds: seconds, bytes: outputs.reduce(0) { $0 + $1.bytes })
      return JobResult(job: job, status: .rendered, outputs: outputs, seconds: seconds, key: key)
    } catch {
      let failure = JobFailure(file: job.file, error: error)
      reporter.jobFailed(job, failure)
      return JobResult(
        job: job, status: .failed, outputs: outputs, seconds: ProgressReporter.seconds(start, .now), failure: failure,
        key: key)
    }
  }

  /// Renames `source` onto `destination`, replacing it atomically.
  static func move(_ source: String, to destination: String) throws {
    guard rename(source, destination) == 0 else {
      throw JobFailure(
        file: destination, message: "cannot move the finished file into place: \(String(cString: strerror(errno)))")
    }
  }

  /// Writes `--report`, `--junit` and `--gallery`; false when one could not be written.
  func writeReports(_ results: [JobResult], shard: Shard) -> Bool {
    var ok = true
    func save(_ text: String, to path: String, what: String) {
      do {
        try Self.writeAtomically(text, to: path)
      } catch {
        console.error("transvid: cannot write the \(what) '\(path)': \(error)")
        ok = false
      }
    }
    if let path = options.report { save(BatchReport.json(results, shard: shard), to: path, what: "report") }
    if let path = options.junit { save(BatchReport.junit(results), to: path, what: "JUnit report") }
    if let dir = options.gallery {
      do {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        save(Gallery.html(results, in: dir), to: (dir as NSString).appendingPathComponent("index.html"), what: "gallery")
      } catch {
        console.error("transvid: cannot create the gallery folder '\(dir)': \(error)")
        ok = false
      }
    }
    return ok
  }

  /// Writes through a temp file beside `path`, removed if a signal comes first.
  static func writeAtomically(_ text: String, to path: String) throws {
    let temp = "\(path).tmp-\(getpid())"
    Cancellation.shared.register(temp)
    defer { Cancellation.shared.unregister(temp) }
    try Data(text.utf8).write(to: URL(fileURLWithPath: temp))
    do {
      try Cancellation.shared.commit { try move(temp, to: path) }
    } catch {
      try? FileManager.default.removeItem(atPath: temp)
      throw error
    }
  }
}

/// The staging folders of this process, one per output folder:
/// `<dir>/.transvid-partial-<host>-<pid>/`. Outputs are written there and renamed
/// into place when complete; a signal deletes the folders (`Cancellation`).
final class StagingArea: Sendable {
  private let folders = Mutex<[String: String]>([:])

  /// The staging folder in `directory`, created on first use.
  func folder(in directory: String) throws -> String {
    try folders.withLock { folders in
      if let folder = folders[directory] { return folder }
      let folder = (directory as NSString).appendingPathComponent(StaleStaging.folderName)
      Cancellation.shared.register(folder)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      folders[directory] = folder
      return folder
    }
  }

  /// Deletes every staging folder (empty unless a job failed halfway).
  func removeAll() {
    folders.withLock { folders in
      for folder in folders.values {
        try? FileManager.default.removeItem(atPath: folder)
        Cancellation.shared.unregister(folder)
      }
      folders.removeAll()
    }
  }
}

/// A job that failed for a reason outside its file's contents.
struct JobError: Error, CustomStringConvertible {
  var job: String
  var message: String
  var description: String { "\(job): error: \(message)" }
}
