#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Media
import Synchronization

/// The SHA-256 of asset files (images, fonts) without reading a file again
/// while it is unchanged, across runs: a memo of digests keyed by each
/// file's device, inode, size, modification time and change time, as git's
/// index keeps them (ctime moves with every write and with `tar -x`,
/// `cp -p` or `touch -r`, which set mtime back). A file is read and hashed
/// only when one of those differs from the memo's entry, so a fully cached
/// batch does not read a 20 MB CJK font again every night.
///
/// What is true, and why:
/// - A digest is trusted only for the exact stamp it was computed at, and it
///   is recorded only if the stamp read before hashing equals the one read
///   after (a file rewritten while it was read is hashed again next time).
/// - A file modified within `racyWindow` of its hashing is not recorded:
///   a second write within the file system's timestamp granularity could
///   leave size and mtime as they were (git's "racily clean" entries).
/// - The memo lives in `$XDG_CACHE_HOME/transvid/asset-digests` (default
///   `~/.cache`), one line per file: `device inode size mtime-ns ctime-ns digest path`.
///   A missing, unreadable or malformed file is an empty memo; a memo that
///   cannot be written costs only the hashing next run.
/// - The folder is one the environment really gives (`cacheFolder`): an
///   `XDG_CACHE_HOME` that is not absolute is ignored, as the XDG spec
///   says (it would be a folder of that name wherever transvid runs), and
///   `~/.cache` is used only when `HOME` is an absolute path to a folder
///   that exists (a missing one is not created). Without such a folder the
///   memo is kept in memory for the run only.
final class AssetDigestMemo: Sendable {
  /// A file's identity and version as `stat` reports it.
  struct Stamp: Hashable, Sendable {
    var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64

    /// The stamp of the file at `path` (following links, as reading does), or nil.
    init?(path: String) {
      var s = stat()
      guard stat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return nil }
      device = UInt64(s.st_dev)
      inode = UInt64(s.st_ino)
      size = Int64(s.st_size)
      modified = Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
      changed = Int64(s.st_ctim.tv_sec) * 1_000_000_000 + Int64(s.st_ctim.tv_nsec)
    }

    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
      (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }
  }

  /// How recent a modification may be and the digest still not recorded
  /// (nanoseconds; 2 s, FAT's granularity).
  let racyWindow: Int64

  /// The memo of this process, in the user's cache folder.
  static let shared = AssetDigestMemo(
    file: cacheFolder(ProcessInfo.processInfo.environment).map { ($0 as NSString).appendingPathComponent("transvid/asset-digests") })

  /// Where the memo is kept; nil keeps it in memory only.
  let file: String?
  private let state: Mutex<(entries: [String: (Stamp, String)], changed: Bool, loaded: Bool)>

  init(file: String?, racyWindow: Int64 = 2_000_000_000) {
    self.file = file
    self.racyWindow = racyWindow
    state = Mutex((entries: [:], changed: false, loaded: file == nil))
  }

  /// The hex SHA-256 of the bytes of the regular file at `path` (read as the
  /// decoder reads, capped at `maxBytes`), or `missing` when it cannot be read.
  func digest(of path: String, maxBytes: Int) -> String {
    guard let before = Stamp(path: path) else { return "missing" }
    if let known = state.withLock({ state -> String? in
      loadIfNeeded(&state)
      guard let (stamp, digest) = state.entries[path], stamp == before else { return nil }
      return digest
    }) {
      return known
    }
    guard let bytes = try? Platform.readRegularFile(path, maxBytes: maxBytes) else { return "missing" }
    let digest = SHA256.hex(bytes)
    let now = Int64(Date().timeIntervalSince1970 * 1e9)
    if Stamp(path: path) == before, now - max(before.modified, before.changed) > racyWindow, !path.contains("\n") {
      state.withLock {
        $0.entries[path] = (before, digest)
        $0.changed = true
      }
    }
    return digest
  }

  /// Writes the memo if this run added to it.
  func save() {
    guard let file else { return }
    let text: String? = state.withLock { state in
      guard state.changed else { return nil }
      state.changed = false
      return state.entries.sorted { $0.key < $1.key }.map { path, entry in
        let (s, digest) = entry
        return "\(s.device) \(s.inode) \(s.size) \(s.modified) \(s.changed) \(digest) \(path)\n"
      }.joined()
    }
    guard let text else { return }
    try? Platform.createDirectories(PathText.folder(of: file))
    try? Platform.writeAtomically(Array(text.utf8), to: file)
  }

  private func loadIfNeeded(_ state: inout (entries: [String: (Stamp, String)], changed: Bool, loaded: Bool)) {
    guard !state.loaded, let file else { return }
    state.loaded = true
    guard let bytes = try? Platform.readRegularFile(file, maxBytes: 64 << 20) else { return }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 6)
      guard fields.count == 7, let device = UInt64(fields[0]), let inode = UInt64(fields[1]),
        let size = Int64(fields[2]), let modified = Int64(fields[3]), let changed = Int64(fields[4]),
        fields[5].utf8.count == 64
      else { continue }
      state.entries[String(fields[6])] = (
        Stamp(device: device, inode: inode, size: size, modified: modified, changed: changed), String(fields[5])
      )
    }
  }

  /// The user's cache folder for `environment`: `XDG_CACHE_HOME` when it
  /// is an absolute path (it may be created), else `$HOME/.cache` when
  /// `HOME` is an absolute path to an existing folder, else nil.
  static func cacheFolder(_ environment: [String: String]) -> String? {
    if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    var info = stat()
    guard stat(home, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
    return (home as NSString).appendingPathComponent(".cache")
  }
}
