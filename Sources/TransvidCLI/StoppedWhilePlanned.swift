#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs

/// A batch stopped by a signal while its jobs are planned (parsed, placed
/// and split into shards; a large String Catalog makes that seconds): its
/// reports list every job file found, each `stopped` (`not run: the batch
/// was stopped by SIGTERM while it was planned`), the JSON report marked
/// `"planned": false`, so that no earlier run's report stays under their
/// names for a CI step to upload as this run's.
///
/// What the jobs read and write is not known before they are parsed, so a
/// report path is written only where nothing the run could need is: it is
/// none of the job files found, and holds nothing or a file transvid wrote
/// as that report (a JSON report, a JUnit file, a gallery page, known by
/// how each begins). Anything else there (an image the path names by
/// mistake) is left as it is; the finished plan would refuse the path.
///
/// The jobs are named by their files (their `name:` is not read yet), have
/// no `order` (a file's locales are not known) and no shard: each shard of
/// a split lists them all, and `transvid gallery` keeps such an entry only
/// for a file no other report lists.
enum StoppedWhilePlanned {
  /// Every job file of `files` stopped by `signal` before the plan was done.
  static func results(_ files: [String], by signal: String) -> [JobResult] {
    files.map { file in
      JobResult(
        job: PlannedJob(file: file, name: PathText.baseName(of: file)), status: .stopped,
        failure: JobFailure(
          description: "\(SourceLocation.shown(file)): not run: the batch was stopped by \(signal) while it was planned",
          location: nil))
    }
  }

  /// How transvid begins each report it writes.
  enum Kind {
    case json, junit, gallery

    var beginning: String {
      switch self {
      case .json: "{\n  \"version\": "
      case .junit: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"transvid\" "
      case .gallery: "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      }
    }
  }

  /// Whether the report of `kind` at `path` may be written before the plan
  /// is done: the path lands on none of `jobFiles`, and holds nothing or a
  /// regular file that begins as transvid writes such a report.
  static func mayWrite(_ path: String, kind: Kind, jobFiles: [String]) -> Bool {
    guard let landing = PathPolicy.landing(path) else { return false }
    if jobFiles.contains(where: { PathPolicy.resolve($0) == landing }) { return false }
    var info = stat()
    guard lstat(landing, &info) == 0 else { return errno == ENOENT }
    guard info.st_mode & S_IFMT == S_IFREG else { return false }
    let prefix = Array(kind.beginning.utf8)
    let fd = open(landing, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: prefix.count)
    let n = head.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
    return n == prefix.count && head == prefix
  }
}
