import Synchronization

/// The String Catalogs this process has decoded, each kept with its bytes
/// and what they decoded to, so the jobs of a batch that share a catalog
/// (an app's `Localizable.xcstrings` beside each of its demos) decode it
/// once, not once per job file while the batch waits for its plan.
///
/// What a catalog decodes to (its tables, or the error at its own
/// file:line:col) depends on its resolved path and its bytes alone; each
/// job still reads the bytes and they are compared whole, so a catalog
/// saved since is decoded again. A few catalogs are kept, the least
/// recently used dropped first, so `watch` does not gather every version
/// it saw.
enum StringCatalogMemo {
  struct Decoded: Sendable {
    var sourceLanguage: String
    var tables: [String: [String: LocalizedString]]
  }

  /// How many catalogs are kept, and how many of their bytes at most (the
  /// newest is kept whatever its size).
  static let keptCatalogs = 4
  static let keptBytes = 128 << 20

  private struct Entry: Sendable {
    var path: String
    var bytes: [UInt8]
    var decoded: Result<Decoded, Diagnostic>
  }

  private static let entries = Mutex<[Entry]>([])
  /// How many times this process decoded the catalog at each path (found here, it is not).
  static let decodings = Mutex<[String: Int]>([:])

  /// What the catalog at `path` with these `bytes` decodes to: the kept
  /// result, else `decode`'s, then kept.
  static func decoded(
    path: String, bytes: [UInt8], decode: () throws(Diagnostic) -> Decoded
  ) throws(Diagnostic) -> Decoded {
    let kept = entries.withLock { entries -> Result<Decoded, Diagnostic>? in
      guard let i = entries.firstIndex(where: { $0.path == path && $0.bytes == bytes }) else { return nil }
      let entry = entries.remove(at: i)
      entries.append(entry)
      return entry.decoded
    }
    if let kept { return try kept.get() }
    decodings.withLock { $0[path, default: 0] += 1 }
    let result: Result<Decoded, Diagnostic>
    do throws(Diagnostic) {
      result = .success(try decode())
    } catch {
      result = .failure(error)
    }
    entries.withLock { entries in
      entries.append(Entry(path: path, bytes: bytes, decoded: result))
      while entries.count > 1
        && (entries.count > keptCatalogs || entries.reduce(0, { $0 + $1.bytes.count }) > keptBytes)
      {
        entries.removeFirst()
      }
    }
    return try result.get()
  }
}
