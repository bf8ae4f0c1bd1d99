#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Staging folders left behind by a transvid that could not clean up: one
/// killed with SIGKILL, by the OOM killer or a power cut leaves
/// `<output dir>/.transvid-partial-<host>-<boot>.<pidns>-<pid>/` (or `….cancelled`, if it
/// died while deleting it) with half-written files inside. They never reach
/// an output path, but they pile up; a run removes those of processes that
/// are gone before it starts.
///
/// "Gone" means the folder names this host, this boot and this pid
/// namespace (`namespace`), and no process with that pid runs here. Folders
/// of other hosts (an output folder on network storage shared by several
/// machines, e.g. shards) or other pid namespaces (containers that share a
/// host name and a volume: `--uts=host`, host-network pods) are left alone:
/// their pids mean nothing here. A folder named by an older transvid, with
/// the host alone, is judged by the host alone.
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

  /// Where a pid means this process's pid: `<host>-<boot>.<pidns>`, the
  /// first 8 hex digits of the kernel's boot id (a machine's boots differ)
  /// and the inode of this process's pid namespace (`/proc/self/ns/pid`).
  public static let namespace: String = {
    let boot = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?.prefix(8) ?? ""
    let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/pid")) ?? ""
    let inode = link.filter(\.isNumber)
    return "\(host)-\(boot.isEmpty ? "0" : String(boot)).\(inode.isEmpty ? "0" : inode)"
  }()

  /// The staging folder name of process `pid` of this namespace.
  public static func folderName(pid: pid_t) -> String { "\(prefix)\(namespace)-\(pid)" }

  /// The staging folder name of this process.
  static var folderName: String { folderName(pid: getpid()) }

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

  /// The pid in `.transvid-partial-<namespace>-<pid>` (or `….cancelled`)
  /// when `<namespace>` is this process's, or in an older transvid's
  /// `.transvid-partial-<host>-<pid>` when `<host>` is this machine; nil for
  /// anything else.
  static func owner(ofFolderNamed name: String) -> pid_t? {
    guard name.hasPrefix(prefix) else { return nil }
    var rest = name.dropFirst(prefix.count)
    if rest.hasSuffix(".cancelled") { rest = rest.dropLast(".cancelled".count) }
    guard let dash = rest.lastIndex(of: "-"), rest[..<dash] == namespace[...] || rest[..<dash] == host[...],
      let pid = pid_t(rest[rest.index(after: dash)...]), pid > 0
    else { return nil }
    return pid
  }

  /// Whether a process `pid` exists here (EPERM: it does, owned by someone else).
  static func isRunning(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }
}
