// PathCase: a path a job writes in another case than its file's. A Mac's
// disk ignores case, so a job written there opens `shots/Home.png` for
// `Shots/home.png`; Linux, where a nightly batch renders it, names files by
// their bytes, and its "No such file or directory" does not say that a
// file differs only in case. When the path as written names nothing and,
// folder by folder, exactly one entry matches each part ignoring case, the
// error names that file.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum PathCase {
  /// `; did you mean 'Shots/home.png'? (…)` when `written` (the path as the
  /// job writes it, which `resolved` opens) names nothing and names one file
  /// when each part is read ignoring case; else nothing.
  public static func hint(written: String, resolved: String) -> String {
    guard !written.isEmpty, let folder = PathHint.folder(of: written, in: resolved) else { return "" }
    var info = stat()
    guard stat(resolved, &info) != 0 else { return "" }
    let parts = written.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count <= maximumParts else { return "" }
    var prefix = folder
    var named: [String] = []
    var changed = false
    for part in parts {
      var name = part
      if !(part.isEmpty || part == "." || part == ".."), lstat(prefix + part, &info) != 0 {
        guard let match = onlyEntry(in: prefix.isEmpty ? "." : prefix, matching: part) else { return "" }
        name = match
        changed = true
      }
      named.append(name)
      prefix += name + "/"
    }
    let path = named.joined(separator: "/")
    guard changed, stat(folder + path, &info) == 0 else { return "" }
    return "; did you mean '\(SourceLocation.shown(path))'? (file names here tell case apart, as a Mac's disk does not)"
  }

  /// Parts of a path looked up at most: a path of more is not a typo's.
  static let maximumParts = 64
  /// Entries of a folder read at most while looking for one.
  static let maximumEntries = 100_000

  /// The one entry of `folder` whose name is `part` ignoring case, if
  /// exactly one is.
  static func onlyEntry(in folder: String, matching part: String) -> String? {
    guard let dir = opendir(folder) else { return nil }
    defer { closedir(dir) }
    let wanted = part.lowercased()
    var match: String?
    var read = 0
    while let entry = readdir(dir), read < maximumEntries {
      read += 1
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard name.lowercased() == wanted else { continue }
      if match != nil { return nil }
      match = name
    }
    return match
  }
}
