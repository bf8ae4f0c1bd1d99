#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Staging folders left behind by a transvid that could not clean up: one
/// killed with SIGKILL, by the OOM killer or a power cut leaves
/// `<output dir>/.transvid-partial-<host>-<pid>/` (or `….cancelled`, if it
/// died while deleting it) with half-written files inside. They never reach
/// an output path, but they pile up; a run removes those of processes that
/// are gone before it starts.
///
/// "Gone" means the folder names this host and no process with that pid runs
/// here. Folders of other hosts (an output folder on network storage shared
/// by several machines, e.g. shards) are left alone: their pids mean nothing
/// here.
public enum StaleStaging {
  static let prefix = ".transvid-partial-"

  /// This machine's name, as it appears in staging folder names.
  public static let host: String = {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let name = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "/", with: "_")
    return name.isEmpty ? "localhost" : name
  }()

  /// The staging folder name of this process.
  static var folderName: String { "\(prefix)\(host)-\(getpid())" }

  /// Removes the stale staging folders directly inside each of `directories`
  /// and returns their paths. Folders of live processes (this one included)
  /// are left alone; missing or unreadable directories are skipped.
  @discardableResult
  static func removeAll(in directories: some Sequence<String>) -> [String] {
    var removed: [String] = []
    for directory in Set(directories) {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
      for name in names.sorted() {
        guard let pid = owner(ofFolderNamed: name), pid != getpid(), !isRunning(pid) else { continue }
        let path = (directory as NSString).appendingPathComponent(name)
        if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
      }
    }
    return removed
  }

  /// The pid in `.transvid-partial-<host>-<pid>` (or `….cancelled`) when
  /// `<host>` is this machine; nil for anything else.
  static func owner(ofFolderNamed name: String) -> pid_t? {
    guard name.hasPrefix(prefix) else { return nil }
    var rest = name.dropFirst(prefix.count)
    if rest.hasSuffix(".cancelled") { rest = rest.dropLast(".cancelled".count) }
    guard let dash = rest.lastIndex(of: "-"), rest[..<dash] == host[...],
      let pid = pid_t(rest[rest.index(after: dash)...]), pid > 0
    else { return nil }
    return pid
  }

  /// Whether a process `pid` exists here (EPERM: it does, owned by someone else).
  static func isRunning(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }
}
