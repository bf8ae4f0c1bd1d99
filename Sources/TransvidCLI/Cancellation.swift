#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import Synchronization

/// Stops the process cleanly on Ctrl-C (SIGINT), SIGTERM and SIGHUP (the
/// terminal or ssh session closed).
///
/// Outputs are written into a staging folder beside their destination
/// (`<output dir>/.transvid-partial-<host>-<boot>.<pidns>-<pid>/`; the writers' own temp files land
/// there too) and renamed into place, a job's together, under this object's lock. On a
/// signal, under the same lock, the handler marks the batch cancelled, moves
/// each staging folder aside (so no writer can create a file in it any more)
/// and deletes it, then ends the process with 128 + the signal number (129,
/// 130, 143). So after a signal every output path holds either nothing new or a
/// complete file, and no temp file is left behind.
///
/// The writers' frame loops live in `OutputWriter`, which has no cancellation
/// hook yet, so a running encoder is not asked to stop: the process exits
/// under it and its file, already unlinked with its folder, goes with it.
///
/// SIGPIPE is ignored (`main`): a reader of standard output that goes away
/// (`transvid … | head`) makes writes fail, not the process die halfway.
final class Cancellation: Sendable {
  static let shared = Cancellation()

  private struct State {
    var isCancelled = false
    /// Staging folders and temp files to delete on a signal.
    var unfinished: Set<String> = []
    /// Worker processes writing into them (`WorkerProcess`), killed first.
    var workers: Set<pid_t> = []
    /// What the batch still has to say once cleaned up, given the signal's
    /// name (result lines it holds, ndjson's last `summary`).
    var lastWords: (@Sendable (_ signal: String) -> Void)?
  }

  private let state = Mutex(State())
  /// Kept alive for the life of the process; set once, by `main`, before any work.
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

  var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// Remembers a path (file or folder) to delete if the process is stopped.
  func register(_ path: String) { state.withLock { _ = $0.unfinished.insert(path) } }

  /// Forgets a path registered earlier (it was finished or cleaned up normally).
  func unregister(_ path: String) { state.withLock { _ = $0.unfinished.remove(path) } }

  /// Remembers a worker process to kill before the cleanup, so that none
  /// can write into a staging folder once it is deleted.
  func register(worker pid: pid_t) { state.withLock { _ = $0.workers.insert(pid) } }

  /// Forgets a worker that has ended and been waited for.
  func unregister(worker pid: pid_t) { state.withLock { _ = $0.workers.remove(pid) } }

  /// Sets what a signal prints after the cleanup, before the process ends
  /// (nil: nothing): the result lines of finished jobs the batch still
  /// holds, and ndjson's `summary` saying the batch was stopped.
  func setLastWords(_ body: (@Sendable (_ signal: String) -> Void)?) { state.withLock { $0.lastWords = body } }

  /// Runs `body` (moving finished files into place) unless the batch was
  /// cancelled; a signal arriving meanwhile waits until it is done.
  func commit<T>(_ body: () throws -> T) throws -> T {
    try state.withLock { state in
      if state.isCancelled { throw CancellationError() }
      return try body()
    }
  }

  /// Marks the batch cancelled (by `signal`, named as `SIGINT`) and deletes
  /// every unfinished path, then runs `last` with the lock still held (the signal handler ends the process
  /// there, so that no thread — one whose worker was just killed, say —
  /// finishes the batch first with its own exit status). Later `commit`s throw.
  func cancelAndCleanUp(by signal: String, last: () -> Void = {}) {
    state.withLock { state in
      state.isCancelled = true
      // Workers go first, and are waited for: a process killed is still in
      // the call it was making until that returns.
      for pid in state.workers { kill(pid, SIGKILL) }
      for pid in state.workers {
        while waitpid(pid, nil, 0) < 0 && errno == EINTR {}
      }
      state.workers.removeAll()
      for path in state.unfinished.sorted() {
        let aside = "\(path).cancelled"
        // Moving the folder first makes every later create inside it fail.
        let target = rename(path, aside) == 0 ? aside : path
        for _ in 0..<5 {
          try? FileManager.default.removeItem(atPath: target)
          if !FileManager.default.fileExists(atPath: target) { break }
        }
      }
      state.unfinished.removeAll()
      state.lastWords?(signal)
      last()
    }
  }

  /// Installs the SIGINT/SIGTERM/SIGHUP handlers of the `transvid`
  /// executable: clean up, say so on standard error and exit with 128 + the
  /// signal. SIGPIPE is ignored.
  static func installSignalHandlers(console: Console) {
    signal(SIGPIPE, SIG_IGN)
    for signo in [SIGINT, SIGTERM, SIGHUP] {
      signal(signo, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
      source.setEventHandler {
        let name = WorkerProcess.signalName(signo)
        shared.cancelAndCleanUp(by: name) {
          // On a terminal the line starts after the `^C` it echoed; a log gets no empty line.
          console.error((isatty(2) == 1 ? "\n" : "") + "transvid: stopped by \(name); unfinished outputs removed")
          _exit(128 + signo)
        }
      }
      source.resume()
      sources.append(source)
    }
  }
}

/// The batch was stopped by a signal.
struct CancellationError: Error, CustomStringConvertible {
  var description: String { "cancelled" }
}
