// PathHint: why a path a job writes names nothing, where the system's
// "No such file or directory" cannot show it: a blank at one of its ends
// (PathBlanks) or a case other than its file's (PathCase).

public enum PathHint {
  /// The hint of `PathBlanks`, else of `PathCase`, else nothing.
  public static func hint(written: String, resolved: String) -> String {
    let blanks = PathBlanks.hint(written: written, resolved: resolved)
    return blanks.isEmpty ? PathCase.hint(written: written, resolved: resolved) : blanks
  }
}
