import Foundation

/// The folders tests write in: all under one folder of the test process
/// (`transvid-tests-<pid>` in the system's temporary folder), which is
/// removed when the process exits. So a run of the suite leaves nothing in
/// /tmp, whichever way its tests end (one that throws before its own
/// clean-up, a Chromium profile an oracle made), and what a crashed run
/// leaves is one folder named by its process.
public enum ScratchFolders {
  /// The process's folder, made (empty) on first use.
  public static let root: String = {
    let path = NSTemporaryDirectory() + "transvid-tests-\(getpid())"
    try? FileManager.default.removeItem(atPath: path)
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: ScratchFolders.root) }
    return path
  }()

  /// A fresh, empty folder in `root` whose name starts with `prefix`.
  public static func make(_ prefix: String) throws -> String {
    let path = root + "/\(prefix)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
  }
}
