#if canImport(Glibc)
import Glibc
#endif
import CProcess
import Foundation
import Jobs
import Media

/// The worker side of a batch's process isolation (`WorkerProcess` is the
/// batch's side): `transvid __worker N PID ARGS…` renders the jobs it is
/// sent, one at a time, for the batch of process PID, which runs N workers
/// and was started with the command line ARGS (the worker takes its options
/// from them, and ignores their inputs).
///
/// Each request is one line of JSON on standard input (`Request`); the
/// replies are lines of JSON on standard output (`Reply`): `received` as
/// soon as the request is read, a line per frame, one per finished output,
/// then `done` or `failed`. Standard error is the
/// worker's own: whatever a crash prints there becomes part of the job's
/// error. The worker ends when its standard input does.
///
/// The worker renders exactly what a batch renders in its own process
/// (`BatchRunner.writeOutputs`), so the bytes are the same; it only writes
/// the staged files the batch names and renames nothing into place.
enum JobWorker {
  /// The first argument that makes `transvid` a worker; not in the help, as
  /// only the batch starts one.
  static let command = "__worker"

  /// One job to render: the file, which of its jobs (`PlannedJob.unit`: a
  /// file makes one per locale and appearance), the digest of the job as the
  /// batch keyed it (`digest(ofJobText:)`), and for each of its formats where to
  /// write (`staged`) and what to call that file in errors (`outputs`).
  struct Request: Codable {
    var file: String
    var unit: Int
    var spec: String
    var formats: [String]
    var staged: [String]
    var outputs: [String]
  }

  /// What the worker reports while it renders a job.
  enum Reply: Codable {
    /// The request is read, before anything of the job is: a worker that
    /// ends before saying so never had the job (`WorkerProcess` sends it
    /// to a new one).
    case received
    /// The job's images and fonts are loaded: it renders.
    case started
    /// A frame of the current output is rendered (its number).
    case frame(Int)
    /// An output is written at its staged path (its index in the request's formats).
    case output(Int, OutputSummary)
    /// The job failed: the error as printed, and where in the job file.
    case failed(description: String, location: SourceLocation?)
    /// Every output is written.
    case done
  }

  /// `transvid __worker N PID ARGS…`: serves requests until standard input
  /// ends; the exit status is 0, or 2 when the arguments are not a batch's.
  static func run(_ arguments: [String], console: Console) -> Int32 {
    // Ctrl-C or a closed terminal reaches the whole process group: the batch
    // cleans up and stops, and the worker ends with it (the parent-death signal).
    signal(SIGINT, SIG_IGN)
    signal(SIGHUP, SIG_IGN)
    guard arguments.count >= 2, let count = Int(arguments[0]), count >= 1, let parent = pid_t(arguments[1]),
      let options = try? Options.parse(Array(arguments.dropFirst(2)))
    else {
      console.error("transvid: '\(command)' is started by a batch, not by hand")
      return 2
    }
    // Set, then checked: a batch that ended before the signal was set is no longer the parent.
    guard tv_set_parent_death_signal(SIGKILL) == 0, getppid() == parent else { return 2 }
    // Memory running out takes this process, not the batch (best effort: /proc may be read-only).
    if let file = fopen("/proc/self/oom_score_adj", "w") {
      fputs("500", file)
      fclose(file)
    }
    FramePipeline.jobsAtOnce.store(count, ordering: .relaxed)
    let decoder = JSONDecoder()
    while let line = readLine(strippingNewline: true) {
      guard let request = try? decoder.decode(Request.self, from: Data(line.utf8)) else {
        console.error("transvid: the worker got a request it cannot read")
        return 2
      }
      send(.received)
      send(render(request, options: options))
    }
    if let timings = StageTimings.shared { console.error(timings.report()) }
    return 0
  }

  /// Renders one request, sending a reply per frame and per output; returns the last reply.
  static func render(_ request: Request, options: Options, send: (Reply) -> Void = send) -> Reply {
    let changed = JobFailure(file: request.file, message: "the job file changed while the batch ran; run the batch again")
    do {
      let jobs = BatchPlan.place(file: request.file, options: options)
      guard jobs.indices.contains(request.unit) || jobs.count == 1 else { throw changed }
      // A file that no longer parses is one failed job: its error is the one to give.
      let job = jobs.indices.contains(request.unit) ? jobs[request.unit] : jobs[0]
      if let failure = job.failure { throw failure }
      // The worker parses the file again: it must still be the job the batch planned and keyed.
      guard let spec = job.spec, digest(ofJobText: OutputCache.jobText(of: job)) == request.spec,
        job.formats.map(\.rawValue) == request.formats
      else { throw changed }
      try BatchRunner.writeOutputs(
        of: spec, formats: job.formats, staged: request.staged, outputs: request.outputs,
        onStart: { send(.started) }, onFrame: { send(.frame($0)) },
        onOutput: { i, summary in send(.output(i, summary)) })
      return .done
    } catch {
      let failure = JobFailure(file: request.file, error: error)
      return .failed(description: failure.description, location: failure.location)
    }
  }

  /// The SHA-256 of a job's text as its cache key reads it (`OutputCache.jobText(of:)`):
  /// the worker renders the job the batch keyed, whatever else of the file changed.
  static func digest(ofJobText text: String) -> String {
    var hash = SHA256()
    hash.update(text)
    return hash.hexDigest()
  }

  /// Writes one reply line on standard output, whole.
  static func send(_ reply: Reply) {
    guard let data = try? JSONEncoder().encode(reply) else { return }
    Console.writeText(String(decoding: data, as: UTF8.self) + "\n", to: 1)
  }
}
