#if canImport(Glibc)
import Glibc
#endif
import CProcess
import Foundation
import Jobs

/// How a batch starts its worker processes: the batch's own command line
/// (the workers take their options from it), and how many workers the batch
/// runs (a worker renders at idle priority when it is the only one, as a
/// batch's own jobs do).
struct WorkerLaunch: Sendable {
  var arguments: [String]
  var workers = 1

  /// The program a worker runs: this process's own executable by its
  /// `/proc` link, so a worker is the batch's own build even when the file
  /// on disk was replaced (a rebuild, an upgrade) while the batch ran.
  static let executable = "/proc/self/exe"
}

/// One worker process of a batch (`JobWorker` is the worker's side): a
/// batch of several jobs renders each of them in a worker, so that a job
/// that crashes transvid or a library, or that the kernel kills for its
/// memory, fails alone — the batch reports it and its other jobs run on.
///
/// Each of the batch's threads owns one worker, started when its first job
/// is to be rendered (a job found up to date starts none) and started again
/// after a crash, or when it is found dead as a job is handed to it (the
/// job then goes to the new one); it renders that thread's jobs one after
/// another, so a batch pays the process's start-up once per thread, not
/// once per job.
///
/// A worker dies with the batch: the kernel sends it SIGKILL when the
/// thread that started it ends (`PR_SET_PDEATHSIG`), so a batch stopped by a
/// signal, or killed, leaves no worker behind. It also tells the kernel's
/// out-of-memory killer to take it before the batch (`oom_score_adj`).
final class WorkerProcess {
  let launch: WorkerLaunch
  /// Where what a worker prints beside a job's error goes.
  let console: Console
  private var running: Running?

  /// A started worker: its pid and the batch's ends of its three pipes.
  private struct Running {
    var pid: pid_t
    var requests: Int32
    var replies: Int32
    var errors: Int32
  }

  init(launch: WorkerLaunch, console: Console) {
    self.launch = launch
    self.console = console
  }

  deinit { finish() }

  /// Sends `request` and hands every reply to `onReply` until the job is
  /// `done` or `failed`. A worker that ends after taking the job (its
  /// `received` reply) is a `JobFailure` naming the signal or status and
  /// what it printed; so is one that cannot be started, and one still at
  /// the job after `timeout` seconds (it is killed). When `onReply` throws,
  /// the worker is killed (it may be halfway through an output) and the
  /// error rethrown.
  ///
  /// A worker that ended before taking the job never had it: it died
  /// between jobs (killed, or taken by the out-of-memory killer while it
  /// waited, holding the last job's memory), and the write of the request
  /// failed (EPIPE: SIGPIPE is ignored) or its replies ended first. The job
  /// then goes to a new worker, once; only a second worker ending before it
  /// takes the job fails it.
  func render(
    _ request: JobWorker.Request, file: String, timeout: Double? = nil, onReply: (JobWorker.Reply) throws -> Void
  ) throws {
    let deadline = timeout.map { ContinuousClock.now + .milliseconds(Int(($0 * 1000).rounded(.up))) }
    var line = (try? JSONEncoder().encode(request)).map { Array($0) } ?? []
    line.append(UInt8(ascii: "\n"))
    for attempt in 1...2 {
      let worker = try running ?? start(file: file)
      running = worker
      var taken = false
      var printed: [UInt8] = []
      var fds = [worker.replies, worker.errors].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      if Self.writeAll(line, to: worker.requests) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
          var wait: Int32 = -1
          if let deadline {
            let left = deadline - ContinuousClock.now
            let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            wait = Int32(clamping: max(0, ms))
          }
          let ready = poll(&fds, 2, wait)
          if ready < 0 {
            if errno == EINTR { continue }
            break
          }
          if ready == 0, let deadline, ContinuousClock.now >= deadline, let timeout {
            end(worker)
            throw JobFailure(
              file: file, message: "stopped after --job-timeout \(Self.seconds(timeout)) s; it was still rendering")
          }
          if fds[1].revents != 0 {
            let n = read(worker.errors, &chunk, chunk.count)
            if n > 0 { printed += chunk[..<n] } else if n == 0 { fds[1].fd = -1 }
            // What a crash prints matters at its end: keep the last 16 KiB.
            if printed.count > 1 << 14 { printed.removeFirst(printed.count - (1 << 14)) }
          }
          guard fds[0].revents != 0 else { continue }
          let n = read(worker.replies, &chunk, chunk.count)
          if n < 0 && errno == EINTR { continue }
          if n <= 0 { break }
          pending += chunk[..<n]
          while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let text = Array(pending[..<newline])
            pending.removeFirst(newline + 1)
            guard let reply = try? JSONDecoder().decode(JobWorker.Reply.self, from: Data(text)) else { continue }
            if case .received = reply {
              taken = true
              continue
            }
            do {
              try onReply(reply)
            } catch {
              end(worker)
              throw error
            }
            switch reply {
            case .done, .failed:
              if !printed.isEmpty { console.error(Self.trimmed(printed)) }
              return
            case .received, .frame, .output, .started: continue
            }
          }
        }
      }
      // The worker ended before the job did: what it printed last, then how it ended.
      if fds[1].fd >= 0 { printed += Self.readToEnd(worker.errors) }
      let status = end(worker)
      if !taken && attempt == 1 {
        // What a worker that died between jobs printed belongs to no job (as `finish` prints it).
        if !printed.isEmpty { console.error(Self.trimmed(printed)) }
        continue
      }
      throw JobFailure(file: file, message: Self.describe(status: status, printed: Self.trimmed(printed)))
    }
  }

  /// Ends the worker: closes its requests (so it returns), waits for it and
  /// prints what it printed since its last job (`TRANSVID_TIMINGS`' line).
  func finish() {
    guard let worker = running else { return }
    close(worker.requests)
    let printed = Self.readToEnd(worker.errors)
    var status: Int32 = 0
    while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
    Cancellation.shared.unregister(worker: worker.pid)
    close(worker.replies)
    close(worker.errors)
    running = nil
    if !printed.isEmpty { console.error(Self.trimmed(printed)) }
  }

  /// Kills the worker if it still runs, reaps it and closes its pipes;
  /// returns its wait status (how it ended, when it had ended already).
  @discardableResult
  private func end(_ worker: Running) -> Int32 {
    // Killed first: the worker may be alive still, when its replies ended for another reason.
    kill(worker.pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
    Cancellation.shared.unregister(worker: worker.pid)
    close(worker.requests)
    close(worker.replies)
    close(worker.errors)
    running = nil
    return status
  }

  /// Starts a worker: `transvid __worker N PARENT-PID ARGS…`, its standard
  /// input, output and error on pipes.
  private func start(file: String) throws -> Running {
    // The batch writes to workers that may have died: that is an EPIPE to handle, not a signal to die of.
    signal(SIGPIPE, SIG_IGN)
    var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
    guard tv_pipe_cloexec(&input) == 0 else { throw startFailure(file) }
    guard tv_pipe_cloexec(&output) == 0 else {
      close(input[0]); close(input[1])
      throw startFailure(file)
    }
    guard tv_pipe_cloexec(&errors) == 0 else {
      for fd in input + output { close(fd) }
      throw startFailure(file)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The batch ignores SIGPIPE and handles SIGTERM; a worker takes both as a
    // plain process does (it sets its own SIGINT and SIGHUP), nothing blocked.
    var defaults = sigset_t(), mask = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    sigaddset(&defaults, SIGTERM)
    sigemptyset(&mask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let arguments = ["transvid", JobWorker.command, String(launch.workers), String(getpid())] + launch.arguments
    var environment = ProcessInfo.processInfo.environment
    // A crash's report is its first line (Swift's "Fatal error: …"); the
    // backtracer would take seconds to symbolicate for a job error.
    if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for p in argv + envp { free(p) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, WorkerLaunch.executable, &actions, &attributes, argv, envp)
    close(input[0])
    close(output[1])
    close(errors[1])
    guard result == 0 else {
      close(input[1]); close(output[0]); close(errors[0])
      errno = result
      throw startFailure(file)
    }
    Cancellation.shared.register(worker: pid)
    return Running(pid: pid, requests: input[1], replies: output[0], errors: errors[0])
  }

  private func startFailure(_ file: String) -> JobFailure {
    JobFailure(file: file, message: "cannot start a process to render it (\(String(cString: strerror(errno))))")
  }

  /// `600`, `0.5`: seconds as given on the command line.
  static func seconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// What is left to read from `fd`, up to its end (or an error).
  private static func readToEnd(_ fd: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = read(fd, &chunk, chunk.count)
      if n > 0 { bytes += chunk[..<n] } else if n == 0 || errno != EINTR { return bytes }
    }
  }

  /// Writes all of `bytes`; false when the pipe is closed.
  private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }
      offset += n
    }
    return true
  }

  /// Text a worker printed, without its trailing blank lines.
  private static func trimmed(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Why a worker ended before its job did, for the job's error.
  static func describe(status: Int32, printed: String) -> String {
    // What went wrong: a Swift trap's "Fatal error: …" line, else the last
    // lines printed, without the stack trace the runtime prints after it.
    let lines = printed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    let said: String
    if let fatal = lines.last(where: { $0.contains("Fatal error: ") }) {
      said = fatal
    } else {
      said = lines.filter { !isStackFrame($0) && $0 != "Current stack trace:" }.suffix(3).joined(separator: " / ")
    }
    let signal = status & 0x7f
    var text: String
    if signal == 0 {
      text = "the process rendering this job ended with status \((status >> 8) & 0xff) before the job was done"
    } else if signal == SIGKILL {
      text = "the process rendering this job was killed (SIGKILL; the kernel sends it when memory runs out)"
    } else if said.contains("failed to allocate") || said.contains("allocate memory") {
      // An allocation the process's memory limit (ulimit -v, RLIMIT_AS) refused: no bug, too big a job for it.
      text = "the process rendering this job ran out of memory (\(signalName(signal)))"
    } else if crashSignals.contains(signal) {
      text =
        "the process rendering this job crashed (\(signalName(signal))); a bug in transvid, please report it with the job"
    } else {
      text = "the process rendering this job was stopped by \(signalName(signal))"
    }
    if !said.isEmpty { text += ": \(said)" }
    return text
  }

  /// `14   libdispatch.so   0x00007fba… <unavailable> + 217493`: a line of
  /// the stack trace Swift's runtime prints after a fatal error.
  static func isStackFrame(_ line: String) -> Bool {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    return fields.count >= 3 && Int(fields[0]) != nil && fields.dropFirst(2).first?.hasPrefix("0x") == true
  }

  /// The signals a process gets from its own fault (a trap, a bad address), not from another process.
  static let crashSignals: Set<Int32> = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS]

  /// `SIGSEGV` for 11: the names of the signals a worker may end with.
  static func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
      SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
      SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP",
      SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS", SIGQUIT: "SIGQUIT", SIGPIPE: "SIGPIPE",
      SIGALRM: "SIGALRM", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
    ]
    return names[signal] ?? "signal \(signal)"
  }
}
