/// A path's folder, file name and extension, worked out from its text.
///
/// These give NSString's answers (`deletingLastPathComponent`,
/// `lastPathComponent`, `pathExtension`; but the root, not `""`, for a
/// path of slashes only), which swift-corelibs-foundation traps on for
/// some paths: the folder of `r`, `a/` or `a///`, the file name or
/// extension of `a//é`. `transvid job.cfg --report r` stopped the batch
/// after its jobs had rendered. Here every index comes from the text's
/// own search, so no path can trap; `PathTextTests` holds both to the
/// same answers on the paths where NSString does not trap.
enum PathText {
  /// `path` without its last component: `""` for a bare name (`r`, `a/`),
  /// `/` for a name in the root (`/a`, `/`); slashes repeated or at the end
  /// are one separator (`a//b/` → `a`).
  static func folder(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(oneSlashEach(path))
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    let head = trimmed[..<slash]
    return head.isEmpty ? "/" : String(head)
  }

  /// The last component of `path` (`/tmp/a.gif/` → `a.gif`); `/` for the
  /// root, `""` for `""`.
  static func fileName(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(oneSlashEach(path))
    if trimmed == "/" { return "/" }
    guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// The extension of `path`'s file name without its dot (`a.b.gif` →
  /// `gif`), or `""`: no dot, or its only dot starts it (`.cfg`).
  static func fileExtension(of path: String) -> String {
    let name = fileName(of: path)
    guard let dot = extensionDot(in: name) else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// `path`'s file name without its extension and dot (`jobs/intro.cfg` →
  /// `intro`, `a.` → `a`).
  static func baseName(of path: String) -> String {
    let name = fileName(of: path)
    guard let dot = extensionDot(in: name) else { return name }
    return String(name[..<dot])
  }

  /// The dot before `name`'s extension: its last dot, unless that starts
  /// the name (`.cfg`) or the name is `..`.
  private static func extensionDot(in name: String) -> String.Index? {
    guard name != "..", let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    return dot
  }

  /// `path` without `.` components, repeated or trailing slashes, and
  /// `name/..` pairs (`./jobs//a/../b.cfg` → `jobs/b.cfg`), from its text
  /// alone (a `..` after a link is not the link's parent).
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
      if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
    }
    let joined = parts.joined(separator: "/")
    return path.hasPrefix("/") ? "/" + joined : joined
  }

  /// `path` with each run of slashes made one.
  private static func oneSlashEach(_ path: String) -> Substring {
    guard path.contains("//") else { return Substring(path) }
    var out = "", slash = false
    for c in path {
      if c == "/" && slash { continue }
      slash = c == "/"
      out.append(c)
    }
    return Substring(out)
  }

  /// `text` without the slashes it ends with, except a lone `/`.
  private static func withoutTrailingSlashes(_ text: Substring) -> Substring {
    var text = text
    while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
    return text
  }
}
