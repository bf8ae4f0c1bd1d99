#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs
import Media

/// `--cache DIR`: a content-addressed store of finished outputs shared by
/// every shard and every run (a mounted volume, a CI cache folder). An entry
/// is `DIR/entries/<key>/`, `<key>` the job's `OutputCache` key, holding the
/// job's outputs and `manifest.json` (a `CacheRecord` giving each file's
/// format, size, frames, duration and SHA-256). A job whose key has an entry is copied, not
/// rendered; a rendered job is stored.
///
/// What is true, and why it holds with many writers and SIGKILL:
/// - An entry is built in this process's staging folder inside DIR
///   (`staging/.transvid-partial-<host>-<boot>.<pidns>-<pid>/`, the name `StaleStaging`
///   removes once its process is gone) and appears by one `rename(2)` of the whole folder:
///   `entries/<key>` is either absent or complete. Two writers of one key
///   race on that rename; the loser's rename fails (the target is a full
///   folder) and it drops its copy.
/// - A reader trusts an entry only when its manifest names the key and
///   every file's bytes hash to the manifest's SHA-256, checked on the bytes
///   it copies out; anything else is a miss (and the job renders).
/// - Eviction (`--cache-max-bytes`) renames an entry into the staging folder
///   before deleting it, so no reader sees half an entry. Least recently used
///   goes first: a hit touches the manifest, and its time orders entries.
final class SharedCache: Sendable {
  let root: String
  let maxBytes: Int?
  private var entries: String { (root as NSString).appendingPathComponent("entries") }
  /// This process's staging folder, `DIR/staging/.transvid-partial-<namespace>-<pid>` (`StaleStaging`).
  private var staging: String { ((root as NSString).appendingPathComponent("staging") as NSString).appendingPathComponent(StaleStaging.folderName) }

  /// Opens (creating) the store at `root`, removing the staging folders of
  /// processes on this host that are gone. A folder this process cannot
  /// write (a read-only mount, another user's store) is a store all the
  /// same, whether or not it has `entries` yet: what it holds is copied, and
  /// each job it cannot take renders and says so, as with a full disk. Only
  /// a `root` that is no folder and cannot be made one throws.
  init(root: String, maxBytes: Int?) throws {
    self.root = root
    self.maxBytes = maxBytes
    do {
      try Platform.createDirectories((root as NSString).appendingPathComponent("entries"))
    } catch {
      var info = stat()
      guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { throw error }
    }
    StaleStaging.removeAll(in: [(root as NSString).appendingPathComponent("staging")])
  }

  private func entry(_ key: String) -> String { (entries as NSString).appendingPathComponent(key) }

  /// Whether the store at `root` has an entry for `key` (its manifest; the
  /// files are checked when restored), without opening the store: what
  /// `transvid plan` shows.
  static func holds(_ key: String, in root: String) -> Bool {
    let manifest = (((root as NSString).appendingPathComponent("entries") as NSString)
      .appendingPathComponent(key) as NSString).appendingPathComponent("manifest.json")
    var info = stat()
    return stat(manifest, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// Copies the outputs stored under `key` for `formats` into `folder` as
  /// `names` (one per format, in that order: the entry may list them in
  /// another, as the key does not depend on it), each checked against its
  /// SHA-256, and marks the entry used; nil (nothing left in `folder`) when
  /// there is no complete, matching entry.
  func restore(key: String, formats: [OutputFormat], names: [String], into folder: String) -> [OutputSummary]? {
    let directory = entry(key)
    let manifestPath = (directory as NSString).appendingPathComponent("manifest.json")
    let manifest = (try? Platform.readRegularFile(manifestPath, maxBytes: 1 << 20)).flatMap {
      try? JSONDecoder().decode(CacheRecord.self, from: Data($0))
    }
    let items = formats.compactMap { format in manifest?.outputs.first { $0.format == format.rawValue } }
    guard let manifest, manifest.key == key, manifest.outputs.count == formats.count, items.count == formats.count else {
      // Entries appear whole (one rename): one there without its manifest is damaged, and goes.
      var status = stat()
      if lstat(directory, &status) == 0 { remove(key, as: "damaged") }
      return nil
    }
    var restored: [OutputSummary] = []
    for (item, name) in zip(items, names) {
      let target = (folder as NSString).appendingPathComponent(name)
      guard let data = try? Platform.readRegularFile((directory as NSString).appendingPathComponent(item.file), maxBytes: Int.max),
        data.count == item.bytes, item.sha256 == SHA256.hex(data)
      else {
        for summary in restored { try? FileManager.default.removeItem(atPath: summary.path) }
        // A damaged entry goes, so that this render stores a whole one in its place.
        remove(key, as: "damaged")
        return nil
      }
      guard (try? Platform.writeAtomically(data, to: target)) != nil else {
        for summary in restored { try? FileManager.default.removeItem(atPath: summary.path) }
        return nil
      }
      restored.append(
        OutputSummary(path: target, frames: item.frames, duration: item.duration, bytes: item.bytes, sha256: item.sha256))
    }
    _ = utimes(manifestPath, nil)  // used now: last to be evicted
    return restored
  }

  /// Stores a job's finished outputs under `key` (best effort: a full disk
  /// or a lost race leaves the store as it was), then evicts down to
  /// `maxBytes`. Returns the summaries, each with the SHA-256 of the bytes
  /// it read (none where it read nothing), and why nothing was stored when
  /// writing failed (a full disk: the run goes on, and says so).
  func store(key: String, job: String, outputs: [(format: OutputFormat, summary: OutputSummary)])
    -> (summaries: [OutputSummary], failure: String?)
  {
    var summaries = outputs.map(\.summary)
    guard !FileManager.default.fileExists(atPath: entry(key)) else { return (summaries, nil) }
    let stage = (staging as NSString).appendingPathComponent(key)
    Cancellation.shared.register(staging)
    defer { try? FileManager.default.removeItem(atPath: stage) }
    do {
      try? FileManager.default.removeItem(atPath: stage)
      try Platform.createDirectories(stage)
      var items: [CacheRecord.Output] = []
      for (i, (format, summary)) in outputs.enumerated() {
        let data = try Platform.readRegularFile(summary.path, maxBytes: Int.max)
        summaries[i].sha256 = SHA256.hex(data)
        let file = "\(format.rawValue).\(PathText.fileExtension(of: summary.path))"
        try Platform.writeAtomically(data, to: (stage as NSString).appendingPathComponent(file))
        items.append(
          .init(
            file: file, bytes: data.count, frames: summary.frames, duration: summary.duration, format: format.rawValue,
            sha256: summaries[i].sha256))
      }
      let manifest = CacheRecord(key: key, job: job, version: TransvidCommand.version, outputs: items)
      try Platform.writeAtomically(Array(manifest.encoded()), to: (stage as NSString).appendingPathComponent("manifest.json"))
      // The entry appears whole or not at all; a full target (another writer won) makes this fail.
      _ = rename(stage, entry(key))
    } catch {
      return (summaries, "\(error)")
    }
    evict()
    return (summaries, nil)
  }

  /// Removes least recently used entries until the store holds at most `maxBytes`.
  func evict() {
    guard let maxBytes else { return }
    let fm = FileManager.default
    let keys = (try? fm.contentsOfDirectory(atPath: entries)) ?? []
    var sized: [(key: String, used: Date, bytes: Int)] = keys.compactMap { key in
      let directory = entry(key)
      let manifest = (directory as NSString).appendingPathComponent("manifest.json")
      guard let used = (try? fm.attributesOfItem(atPath: manifest))?[.modificationDate] as? Date else { return nil }
      let files = (try? fm.contentsOfDirectory(atPath: directory)) ?? []
      let bytes = files.reduce(0) {
        $0 + ((try? fm.attributesOfItem(atPath: (directory as NSString).appendingPathComponent($1)))?[.size] as? Int ?? 0)
      }
      return (key, used, bytes)
    }
    var total = sized.reduce(0) { $0 + $1.bytes }
    sized.sort { ($0.used, $0.key) < ($1.used, $1.key) }
    for old in sized where total > maxBytes {
      remove(old.key, as: "evicted")
      total -= old.bytes
    }
  }

  /// Removes the entry of `key`: out of `entries` in one rename first (to
  /// `<staging>/<why>-<key>`), so a reader sees the whole entry or none.
  private func remove(_ key: String, as why: String) {
    let trash = (staging as NSString).appendingPathComponent("\(why)-\(key)")
    try? Platform.createDirectories(staging)
    if rename(entry(key), trash) == 0 { try? FileManager.default.removeItem(atPath: trash) }
  }

  /// Evicts down to `maxBytes` (a store filled under a higher bound, or by
  /// runs that only copied from it, shrinks once a run ends; the entries
  /// this run used are the last to go) and deletes this process's staging
  /// folder (at the end of a run).
  func close() {
    evict()
    try? FileManager.default.removeItem(atPath: staging)
    Cancellation.shared.unregister(staging)
  }
}
