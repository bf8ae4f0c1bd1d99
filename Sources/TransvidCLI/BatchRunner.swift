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
  /// `stopped`: the batch was stopped by a signal before the job finished
  /// (or before it started); its `failure` says which.
  enum Status: String, Sendable { case rendered, cached, failed, stopped }

  var job: PlannedJob
  var status: Status
  /// Every output, with final paths (for a cached job, from its record).
  var outputs: [OutputSummary] = []
  var seconds = 0.0
  var failure: JobFailure?
  var key = ""
  /// Its outputs were copied from a `--cache` store (status `cached`), not found up to date.
  var copied = false
  /// Read from a report (`transvid gallery`): its job file's absolute path
  /// there (`absolute_file`), nil from a report written before reports gave
  /// it. A run's own results leave it nil: `BatchReport` works it out.
  var absoluteFile: String?
  /// Read from a report: the job's place in its batch (`order`, its
  /// `PlannedJob.position`), by which a merge lists the jobs of several
  /// shards; nil from a report written before reports gave it.
  var order: Int?

  /// The bytes of its outputs on disk (a `missing` one has none).
  var bytes: Int { outputs.reduce(0) { $0 + ($1.missing ? 0 : $1.bytes) } }
}

/// Renders a batch: finds the jobs, keeps this shard's, skips the up-to-date
/// ones, renders the rest on `-j` workers (a failing job is reported and the
/// others run on), then writes the reports. The exit status is 1 if any job
/// failed.
///
/// Isolation: every job renders in a worker process (`WorkerProcess`, one
/// per thread; a job alone too), so a job that crashes or runs the machine
/// out of memory fails alone, in one line; finding jobs up to date, the shared
/// cache, renaming outputs into place and the reports stay in this process.
///
/// Parallelism: jobs run on `-j` threads (default: one per core, at most one
/// per job), costliest first (`claimOrder`). Inside a job an MP4 goes through
/// `FramePipeline`: a worker per core renders frames ahead of the encoder
/// (at idle priority when the batch renders one job at a time), repeated
/// frames are not rendered again, and x264 uses a fixed 4 threads — so a
/// single big job still keeps the machine busy; many small jobs gain most
/// side by side.
/// Output bytes do not depend on `-j`: each job's pixels and encoder settings
/// are fixed, and every output is written alone.
struct BatchRunner: Sendable {
  let options: Options
  let console: Console
  let environment: [String: String]
  /// How to start worker processes; nil renders every job in this process
  /// (as a batch of one job does without `--job-timeout`: it has no other
  /// job to protect).
  var workerLaunch: WorkerLaunch? = nil

  func run(inputs: [String]) -> Int32 {
    let files: [String]
    let shard: Shard
    do {
      files = try BatchPlan.findJobs(inputs)
      shard = try Shard.forBatch(options.shard, count: options.shardCount, environment: environment)
    } catch let error as NoJobsFound {
      console.error("transvid: \(error)")
      return 1
    } catch {
      console.error("transvid: \(error)")
      return 2
    }
    // A signal while the jobs are planned writes the reports too, each job file `stopped`
    // (`StoppedWhilePlanned`), where the path holds no file of the run's that is known yet.
    // ndjson's last `summary` says so, as after the plan.
    Cancellation.shared.setLastWords { [self] signal in
      let stopped = StoppedWhilePlanned.results(files, by: signal)
      let mode = ProgressReporter.mode(options.progress, quiet: options.quiet, console: console)
      ProgressReporter(mode: mode, console: console, jobs: stopped.map(\.job)).stopped(by: signal, shard: shard)
      _ = writeReports(stopped, shard: shard, stoppedBy: signal, whilePlanned: files)
    }
    defer { Cancellation.shared.setLastWords(nil) }
    let plan = BatchPlan(files: files, options: options, shardCount: shard.count)
    if let unlisted = plan.unlistedLocales {
      console.error("transvid: \(unlisted)")
      return 2
    }
    if !options.quiet, let note = plan.notRenderedNote(options: options) { console.error(note) }
    if let clash = reportClash(plan) {
      console.error("transvid: \(clash)")
      return 2
    }
    let jobs = plan.jobs.filter { $0.shard == shard.index }
    let mode = ProgressReporter.mode(options.progress, quiet: options.quiet, console: console)
    let reporter = ProgressReporter(mode: mode, console: console, jobs: jobs)
    let results = Mutex([JobResult?](repeating: nil, count: jobs.count))
    // The jobs a worker has taken, by their index in `jobs`: those without a result when a signal comes were rendering.
    let taken = Mutex(Set<Int>())
    // A signal ends the process: finished jobs' result lines still held (`ResultLines`), ndjson's last event,
    // and the reports, with the jobs finished until then and the others stopped, so that no earlier run's
    // report stays under their names.
    Cancellation.shared.setLastWords { [self] signal in
      reporter.stopped(by: signal, shard: shard)
      let finished = results.withLock { $0 }
      let rendering = taken.withLock { $0 }
      _ = writeReports(
        Self.stopped(jobs, finished: finished, rendering: rendering, by: signal), shard: shard, stoppedBy: signal)
    }
    StaleStaging.removeAll(in: plan.jobs.filter { $0.failure == nil }.map(\.directory))
    let staging = StagingArea()
    let cache = OutputCache()
    var shared: SharedCache?
    if let dir = options.cache {
      do {
        shared = try SharedCache(root: dir, maxBytes: options.cacheMaxBytes)
      } catch {
        // Like a --report that cannot be written: refused before anything renders, no job having failed.
        console.error("transvid: cannot use the cache '\(dir)': \((error as? MediaError)?.message ?? "\(error)")")
        return 2
      }
    }
    let sharedCache = shared

    reporter.begin()
    let workers = min(options.jobs ?? ProcessInfo.processInfo.activeProcessorCount, max(jobs.count, 1))
    let order = workers > 1 ? Self.claimOrder(jobs) : Array(jobs.indices)
    FramePipeline.jobsAtOnce.store(workers, ordering: .relaxed)
    let next = Atomic(0)
    // Even a job alone renders in a worker: one that runs out of memory or
    // crashes is then a failed job with one line saying so, its staged files
    // removed, not a backtrace (a worker starts in about 15 ms).
    var launch = workerLaunch
    launch?.workers = workers
    let work: @Sendable () -> Void = { [launch, console] in
      let worker = launch.map { WorkerProcess(launch: $0, console: console) }
      defer { worker?.finish() }
      while !Cancellation.shared.isCancelled {
        let claimed = next.add(1, ordering: .relaxed).oldValue
        guard claimed < order.count else { return }
        let i = order[claimed]
        taken.withLock { _ = $0.insert(i) }
        // A job whose outputs went into place is finished for a signal's reports from that moment, though
        // its record and `--cache` copy are still to be written: the report agrees with the disk.
        let result = render(
          jobs[i], cache: cache, shared: sharedCache, staging: staging, reporter: reporter, worker: worker,
          placed: { placed in results.withLock { $0[i] = placed } })
        // A job failed by the signal (its worker killed, its commit refused) was stopped: the signal's reports say so.
        if result.status == .failed && Cancellation.shared.isCancelled { return }
        results.withLock { $0[i] = result }
      }
    }
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
    shared?.close()
    AssetDigestMemo.shared.save()

    let done = results.withLock { $0.compactMap { $0 } }
    let count = { (status: JobResult.Status) in done.filter { $0.status == status }.count }
    reporter.finish(
      rendered: count(.rendered), cached: count(.cached), copied: done.filter { $0.status == .cached && $0.copied }.count,
      failed: count(.failed), shard: shard)
    if let timings = StageTimings.shared { console.error(timings.report()) }
    var status: Int32 = count(.failed) == 0 ? 0 : 1
    if !writeReports(done, shard: shard) { status = 1 }
    return status
  }

  /// The order several workers take jobs in: the costliest first (longest
  /// processing time first), so the batch does not end on one long job
  /// while the other workers idle; equal costs keep the plan's order. One
  /// worker keeps the plan's order (the total time is the same). Results
  /// and reports stay in the plan's order either way.
  static func claimOrder(_ jobs: [PlannedJob]) -> [Int] {
    jobs.indices.sorted { a, b in jobs[a].cost != jobs[b].cost ? jobs[a].cost > jobs[b].cost : a < b }
  }

  /// Renders one job, or finds it up to date, or reports why it failed.
  /// With a shared cache (`--cache`), a job it holds is copied from it, and a rendered one is stored in it.
  /// With a `worker`, the job's outputs are rendered in that process and
  /// renamed into place here; without, in this process.
  ///
  /// A job's outputs are all or nothing: each is written in the staging
  /// folder, and they go into place together once every one is written
  /// (`moveIntoPlace`). A job that fails part way (a budget no rate meets,
  /// a crash, a timeout, a signal) leaves the previous run's outputs as they
  /// were, never some of each run, and its staged files are removed.
  /// `placed` gets the job's result (`rendered`, or `cached` for a copy
  /// from `--cache`) as its outputs go into place, in the same commit, so a
  /// signal's reports (written under `Cancellation`'s lock) never call a job
  /// stopped whose outputs are this run's.
  func render(
    _ job: PlannedJob, cache: OutputCache, shared: SharedCache? = nil, staging: StagingArea, reporter: ProgressReporter,
    worker: WorkerProcess? = nil, placed: (JobResult) -> Void = { _ in }
  ) -> JobResult {
    if let failure = job.failure {
      reporter.jobFailed(job, failure)
      return JobResult(job: job, status: .failed, failure: failure)
    }
    // The job's text is the costly part of its key: worked out once, for both keys and the worker's request.
    let jobText = OutputCache.jobText(of: job)
    var key = cache.key(for: job, jobText: jobText)
    if !options.force, let record = OutputCache.validRecord(for: job, key: key) {
      reporter.jobCached(job, record)
      let outputs = record.outputs.map {
        OutputSummary(
          path: (job.directory as NSString).appendingPathComponent($0.file), frames: $0.frames,
          duration: $0.duration, bytes: $0.bytes)
      }
      return JobResult(job: job, status: .cached, outputs: outputs, key: key)
    }
    // What the key read, as stamped now; the key again from those files (only a
    // file whose stamp moved since is read again). After the render the stamps
    // must be the same, or the outputs may show bytes the key does not name.
    let stamps = cache.inputStamps(of: job)
    key = cache.key(for: job, jobText: jobText)
    reporter.jobStarted(job)
    let start = ContinuousClock.now
    var outputs: [OutputSummary] = []
    // Written in the staging folder, not yet in place: removed if the job fails.
    var pending: [String] = []
    defer { for path in pending { _ = unlink(path) } }
    do {
      guard let spec = job.spec else { throw JobFailure(file: job.file, message: "not parsed") }
      do {
        try Platform.createDirectories(job.directory)
        // A folder it may not write in (a read-only mount, no write permission) is named as such, before
        // the staging folder in it would be (`.transvid-partial-…`, which the user never made).
        try Platform.checkCanCreate(in: job.directory, operation: "write the outputs")
      } catch {
        // When the folder is the job's own `output.dir`, the error is at that key.
        throw OutputPlace.located(error, spec: spec, options: options)
      }
      // A file or link where the cache folder goes, a folder or FIFO where the record or an output
      // goes, fails the job before any work (the folder is made, the outputs replaced, at commit).
      try OutputPlace.checkRecordsAndOutputs(of: job)
      let folder = try staging.folder(in: job.directory)
      // The old record goes first: if this render fails halfway, the next run renders again.
      _ = unlink(job.recordPath)
      let names = job.outputs.map { PathText.fileName(of: $0) }
      let copied = options.force ? nil : shared?.restore(key: key, formats: job.formats, names: names, into: folder)
      // The outputs written, by their index in the job's formats, with their staged files.
      var written: [(index: Int, staged: String, summary: OutputSummary)] = []
      for (i, summary) in (copied ?? []).enumerated() {
        pending.append(summary.path)
        var copy = summary
        copy.notes = ["copied from the cache"]
        written.append((i, summary.path, copy))
        reporter.outputRendered(job, copy)
      }
      if copied == nil {
        let staged = job.outputs.map { (folder as NSString).appendingPathComponent(PathText.fileName(of: $0)) }
        func commit(_ i: Int, _ summary: OutputSummary) throws {
          pending.append(staged[i])
          written.append((i, staged[i], summary))
          reporter.outputRendered(job, summary)
        }
        if let worker {
          let request = JobWorker.Request(
            file: job.file, unit: job.unit, spec: JobWorker.digest(ofJobText: jobText),
            formats: job.formats.map(\.rawValue), staged: staged, outputs: job.outputs)
          try worker.render(request, file: job.file, timeout: options.jobTimeout) { reply in
            switch reply {
            case .started: reporter.jobNotes(job, spec.notes)
            case .frame(let n): reporter.frameRendered(job, n)
            case .output(let i, let summary): try commit(i, summary)
            case .failed(let description, let location): throw JobFailure(description: description, location: location)
            case .received, .done: break  // `received` is the worker's own (`WorkerProcess`)
            }
          }
        } else {
          try Self.writeOutputs(
            of: spec, formats: job.formats, staged: staged, outputs: job.outputs,
            onStart: { reporter.jobNotes(job, spec.notes) },
            onFrame: { n in
              // Stop between frames: the writer closes its encoder and removes its temporary file.
              if Cancellation.shared.isCancelled { throw CancellationError() }
              reporter.frameRendered(job, n)
            }, onOutput: commit)
        }
      }
      let inPlace = written.map { output in
        var summary = output.summary
        summary.path = job.outputs[output.index]
        return summary
      }
      try Self.moveIntoPlace(written.map { (from: $0.staged, to: job.outputs[$0.index]) }) {
        placed(
          JobResult(
            job: job, status: copied == nil ? .rendered : .cached, outputs: inPlace,
            seconds: ProgressReporter.seconds(start, .now), key: key, copied: copied != nil))
      }
      pending.removeAll()
      for (n, summary) in inPlace.enumerated() {
        outputs.append(summary)
        reporter.outputWritten(job, summary, number: n + 1)
      }
      if copied == nil, let changed = Self.changedInput(of: job, since: stamps, cache: cache) {
        // Kept, as rendered, but neither recorded nor stored: the next run renders them again.
        reporter.jobNotes(job, [changed])
        let seconds = ProgressReporter.seconds(start, .now)
        reporter.jobFinished(job, seconds: seconds, bytes: outputs.reduce(0) { $0 + $1.bytes }, copied: false)
        return JobResult(job: job, status: .rendered, outputs: outputs, seconds: seconds, key: key)
      }
      if copied == nil, let shared {
        let stored = shared.store(key: key, job: job.file, outputs: Array(zip(job.formats, outputs)))
        outputs = stored.summaries
        if let failure = stored.failure {
          reporter.jobNotes(
            job, [JobNote(SourceLocation(file: job.file, line: 1, column: 1), "its outputs are not in the cache: \(failure)")])
        }
      }
      let record = CacheRecord(
        key: key, job: job.file, version: TransvidCommand.version,
        outputs: outputs.map {
          .init(
            file: PathText.fileName(of: $0.path), bytes: $0.bytes, frames: $0.frames, duration: $0.duration,
            sha256: $0.sha256 ?? (try? Platform.readRegularFile($0.path, maxBytes: Int.max)).map(SHA256.hex),
            stamp: CacheRecord.Output.stamp(of: $0.path))
        })
      // Named as the record (by name and formats): two jobs of one name with other formats
      // stage theirs in the same folder at once.
      let stagedRecord = (folder as NSString).appendingPathComponent(PathText.fileName(of: job.recordPath))
      do throws(MediaError) {
        try Platform.writeAtomically(Array(record.encoded()), to: stagedRecord)
      } catch {
        // Named as the record it becomes (a full disk named the staging folder's file).
        var named = error
        named.operation = Self.naming(error.operation, output: job.recordPath, staged: stagedRecord)
        throw named
      }
      try Cancellation.shared.commit {
        try Platform.createDirectories(PathText.folder(of: job.recordPath))
        try Platform.move(stagedRecord, to: job.recordPath)
      }
      let seconds = ProgressReporter.seconds(start, .now)
      reporter.jobFinished(job, seconds: seconds, bytes: outputs.reduce(0) { $0 + $1.bytes }, copied: copied != nil)
      return JobResult(
        job: job, status: copied == nil ? .rendered : .cached, outputs: outputs, seconds: seconds, key: key,
        copied: copied != nil)
    } catch {
      let failure = JobFailure(file: job.file, error: error)
      reporter.jobFailed(job, failure)
      return JobResult(
        job: job, status: .failed, outputs: outputs, seconds: ProgressReporter.seconds(start, .now), failure: failure,
        key: key)
    }
  }

  /// Moves a job's staged files into place, in one commit (a signal waits
  /// until the last has moved). Every output path is checked first, so one
  /// that cannot be replaced (a folder there) fails the job before any
  /// output moves. `moved` runs in the same commit once all have moved.
  static func moveIntoPlace(_ files: [(from: String, to: String)], moved: () -> Void = {}) throws {
    try Cancellation.shared.commit {
      for file in files { try Platform.checkReplaceable(file.to) }
      for file in files { try Platform.move(file.from, to: file.to) }
      moved()
    }
  }

  /// A note on the first file the job reads whose stamp is not `stamps`'
  /// (saved while the job rendered), at the image's key where it is one;
  /// nil when none moved.
  static func changedInput(of job: PlannedJob, since stamps: [String: AssetDigestMemo.Stamp?], cache: OutputCache)
    -> JobNote?
  {
    let now = cache.inputStamps(of: job)
    guard let path = now.keys.sorted().first(where: { now[$0] != stamps[$0] }), let spec = job.spec else { return nil }
    let asset = spec.assets.first { $0.resolvedPath == path }
    return JobNote(
      asset?.location ?? SourceLocation(file: job.file, line: 1, column: 1),
      "'\(asset?.path ?? path)' changed while the job rendered; its outputs are kept but not recorded as up to date, "
        + "so the next run renders them again")
  }

  /// Renders a job's outputs, one per format, each to its `staged` path:
  /// `onStart` once its images and fonts are loaded, `onFrame` after every
  /// frame (it may throw to stop the writer, which removes its temporary
  /// file), `onOutput` with each output's index and summary once written.
  /// An error names the output (`outputs`), not the staged file.
  static func writeOutputs(
    of spec: JobSpec, formats: [OutputFormat], staged: [String], outputs: [String], onStart: () -> Void,
    onFrame: (Int) throws -> Void, onOutput: (Int, OutputSummary) throws -> Void
  ) throws {
    let renderer = try AssetLoader.makeRenderer(for: GIFOutput.loaded(spec, formats: formats))
    onStart()
    for (i, format) in formats.enumerated() {
      if Cancellation.shared.isCancelled { throw CancellationError() }
      let start = ContinuousClock.now
      var summary: OutputSummary
      do {
        summary = try OutputWriter.write(format: format, renderer: renderer, to: staged[i], onFrame: onFrame)
      } catch var error as MediaError {
        // The user knows the output path, not the staging folder or a writer's temp file in it.
        error.operation = Self.naming(error.operation, output: outputs[i], staged: staged[i])
        throw error
      }
      summary.seconds = ProgressReporter.seconds(start, .now)
      try onOutput(i, summary)
    }
  }

  /// `text` with every quoted path in the staged file's folder ('…/.demo.mp4.tmp-12-1')
  /// replaced by the output's path.
  static func naming(_ text: String, output: String, staged: String) -> String {
    let prefix = "'" + PathText.folder(of: staged) + "/"
    var result = "", rest = Substring(text)
    while let start = rest.range(of: prefix), let end = rest[start.upperBound...].firstIndex(of: "'") {
      result += rest[..<start.lowerBound] + "'\(output)'"
      rest = rest[rest.index(after: end)...]
    }
    return result + rest
  }

  /// The results of a batch stopped by `signal`: each finished job's own,
  /// a job that failed to parse failed, and every other job `stopped`,
  /// saying whether it was rendering (`rendering`) or never started.
  static func stopped(_ jobs: [PlannedJob], finished: [JobResult?], rendering: Set<Int>, by signal: String) -> [JobResult] {
    jobs.indices.map { i in
      if let result = finished[i] { return result }
      let job = jobs[i]
      if let failure = job.failure { return JobResult(job: job, status: .failed, failure: failure) }
      let why = rendering.contains(i) ? "stopped by \(signal) while it rendered" : "not run: the batch was stopped by \(signal)"
      return JobResult(
        job: job, status: .stopped, failure: JobFailure(description: "\(SourceLocation.shown(job.file)): \(why)", location: nil))
    }
  }

  /// Writes `--report`, `--junit` and `--gallery`; false when one could not be written.
  /// `stoppedBy`: the signal that stopped the batch, whose handler calls this
  /// holding `Cancellation`'s lock (the files are not registered with it).
  /// `whilePlanned`: the job files of a batch stopped before its plan was
  /// done, whose reports are written only where `StoppedWhilePlanned.mayWrite`.
  func writeReports(
    _ results: [JobResult], shard: Shard, stoppedBy signal: String? = nil, whilePlanned jobFiles: [String]? = nil
  ) -> Bool {
    var ok = true
    func save(_ text: @autoclosure () -> String, to path: String, what: String, kind: StoppedWhilePlanned.Kind) {
      if let jobFiles, !StoppedWhilePlanned.mayWrite(path, kind: kind, jobFiles: jobFiles) { return }
      do {
        try Self.writeAtomically(text(), to: path, registered: signal == nil)
      } catch {
        let reason = (error as? MediaError)?.message ?? "\(error)"
        console.error("transvid: cannot write the \(what) '\(path)': \(reason)")
        ok = false
      }
    }
    if let path = options.report {
      save(
        BatchReport.json(results, shard: shard, at: path, stoppedBy: signal, planned: jobFiles == nil), to: path,
        what: "report", kind: .json)
    }
    if let path = options.junit { save(BatchReport.junit(results), to: path, what: "JUnit report", kind: .junit) }
    if let dir = options.gallery {
      save(Gallery.html(results, in: dir), to: Self.galleryPage(dir), what: "gallery", kind: .gallery)
    }
    return ok
  }

  static func galleryPage(_ dir: String) -> String { (dir as NSString).appendingPathComponent("index.html") }

  /// Writes `text` through `AtomicFile` (missing folders created), its
  /// private temp folder removed if a signal comes first; not `registered`
  /// (a signal's own reports, written holding `Cancellation`'s lock), it is
  /// written and renamed without asking.
  static func writeAtomically(_ text: String, to path: String, registered: Bool = true) throws {
    let file = try AtomicFile(replacing: path)
    if registered { Cancellation.shared.register(file.folder) }
    defer { if registered { Cancellation.shared.unregister(file.folder) } }
    do {
      try file.write(Array(text.utf8))
      if registered { try Cancellation.shared.commit { try file.commit() } } else { try file.commit() }
    } catch {
      file.discard()
      throw error
    }
  }

  /// Why `--report`, `--junit` or `--gallery` would overwrite a file the run
  /// reads or writes (a job file, an image, a font, a String Catalog, an
  /// output, a cache record, anything in the `--cache` store, another
  /// report), or would need a folder where one of them is a file, or be a
  /// file where one of them needs a folder (`--report out/r --gallery out/r`,
  /// `-o out/r.json --report out/r.json`), or nil: the run could write
  /// only one of the two, so it is refused before anything renders. Paths are
  /// compared where they land (`PathPolicy.landing`).
  func reportClash(_ plan: BatchPlan) -> String? {
    let reports = [
      ("--report", options.report), ("--junit", options.junit), ("--gallery", options.gallery.map(Self.galleryPage)),
    ]
    guard reports.contains(where: { $0.1 != nil }) else { return nil }
    var taken = BatchPlan.inputs(of: plan.jobs)
    func take(_ path: String, _ what: String) {
      if let resolved = PathPolicy.landing(path), taken[resolved] == nil { taken[resolved] = what }
    }
    for job in plan.jobs {
      for output in job.outputs { take(output, "the output '\(output)' of \(job.file)") }
      if job.spec != nil { take(job.recordPath, "the cache record of \(job.file)") }
    }
    let store = options.cache.flatMap(PathPolicy.resolve)
    for case (let flag, let path?) in reports {
      guard let resolved = PathPolicy.landing(path) else { continue }
      if let what = taken[resolved] { return "\(flag) '\(path)' would overwrite \(what)" }
      if let store, resolved == store || resolved.hasPrefix(store + "/") {
        return "\(flag) '\(path)' would overwrite a file of the --cache store '\(options.cache ?? store)'"
      }
      var folder = PathText.folder(of: resolved)
      while folder.count > 1 {
        if let what = taken[folder] { return "\(flag) '\(path)' would need a folder where \(what) is" }
        folder = PathText.folder(of: folder)
      }
      // The nearest such file: an output rather than its cache record.
      let below = taken.keys.filter { $0.hasPrefix(resolved + "/") }
      if let inside = below.min(by: { ($0.count, $0) < ($1.count, $1) }), let what = taken[inside] {
        return "\(flag) '\(path)' would be a file where \(what) needs a folder"
      }
      if let store, store.hasPrefix(resolved + "/") {
        return "\(flag) '\(path)' would be a file where the --cache store '\(options.cache ?? store)' needs a folder"
      }
      taken[resolved] = "the \(flag) file"
    }
    return nil
  }
}

/// The staging folders of this process, one per output folder:
/// `<dir>/.transvid-partial-<host>-<boot>.<pidns>-<pid>/`. Outputs are written there and renamed
/// into place when complete; a signal deletes the folders (`Cancellation`).
final class StagingArea: Sendable {
  private let folders = Mutex<[String: String]>([:])

  /// The staging folder in `directory`, created on first use, and again
  /// when it has gone (the output folder deleted while the batch ran: the
  /// job then rendering fails, the later ones render).
  func folder(in directory: String) throws -> String {
    try folders.withLock { folders in
      var status = stat()
      if let folder = folders[directory], lstat(folder, &status) == 0 { return folder }
      let folder = (directory as NSString).appendingPathComponent(StaleStaging.folderName)
      Cancellation.shared.register(folder)
      // Made here, exclusively (mode 0700). Something already at this name is not
      // this process's (it has not made it yet): a leftover of an earlier process
      // with the same pid, or something planted; it goes (a link, not its target).
      do {
        try Platform.createPrivateDirectory(folder)
      } catch {
        try? FileManager.default.removeItem(atPath: folder)
        try Platform.createPrivateDirectory(folder)
      }
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
