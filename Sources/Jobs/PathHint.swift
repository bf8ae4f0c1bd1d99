// PathHint: why a path a job writes names nothing, where the system's
// "No such file or directory" cannot show it: a blank at one of its ends
// (PathBlanks) or a case other than its file's (PathCase).

public enum PathHint {
  /// The hint of `PathBlanks`, else of `PathCase`, else nothing.
  public static func hint(written: String, resolved: String) -> String {
    let blanks = PathBlanks.hint(written: written, resolved: resolved)
    return blanks.isEmpty ? PathCase.hint(written: written, resolved: resolved) : blanks
  }

  /// The job's folder that `resolved` puts before `written` (empty for an
  /// absolute `written`), or nil when `resolved` does not end in it.
  static func folder(of written: String, in resolved: String) -> String? {
    guard resolved.utf8.count >= written.utf8.count, resolved.utf8.suffix(written.utf8.count).elementsEqual(written.utf8)
    else { return nil }
    return String(decoding: resolved.utf8.dropLast(written.utf8.count), as: UTF8.self)
  }
}
