// FileAccess: which files parsing a job may read besides the job file.
//
// A job names one file the parser itself reads, its String Catalog
// (`strings: FILE.xcstrings`); the runner decides which paths a job may
// reach (its `PathPolicy`: the job's folder and `--allow-outside` ones) and
// hands that rule in here, so a job rendered unattended cannot make
// transvid read `/etc/passwd` as a catalog and print it in an error.

/// The rule for the files a job's parse may open.
public struct FileAccess: Sendable {
  /// Why the file at `path` (as resolved against the job file) may not be
  /// read, or nil when it may.
  public var refusal: @Sendable (_ path: String) -> String?

  public init(refusal: @escaping @Sendable (_ path: String) -> String?) {
    self.refusal = refusal
  }

  /// Any file may be read (tests, and callers that check paths themselves).
  public static let any = FileAccess { _ in nil }
}
