// JobParser: the public way in — job file bytes (or a path) → `JobSpec`.
//
//   bytes ─SourceText (UTF-8, no NUL/control chars)─▶ YAMLReader (libyaml events)
//         ─▶ YAMLNode tree ─JobDecoder─▶ JobSpec
//
// Parsing is pure: the same bytes and file name give the same spec or the
// same diagnostic. Only `load(path:)` and `catalogPath(ofJobAt:)` touch the
// file system. The first problem found is thrown; a `Diagnostic` prints as
// `FILE:LINE:COL: error: …`.
//
// The Jobs module is parsing only: job file → validated `JobSpec`, plus the
// spec's schedule (`Timeline`), since checking a job's length against the
// limits needs it. Drawing a job is the Rendering module's. Jobs imports
// Raster only for the values a spec holds (`Color`, `Gradient`, `TextStyle`,
// `ContentsGravity`), Transitions for the catalog's parameter lists, and
// Motion for curves, springs and gesture tracks.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Transitions

/// Parses and validates job files.
public enum JobParser {
  /// The job in `bytes`; `file` is the name diagnostics and `JobSpec.file` use
  /// (its base name, without extension, is the default job name). A job
  /// bigger than `limits` allow is an error naming the cap.
  /// `access` says which other files it may read (its String Catalog);
  /// `formats`, the formats the run writes when not the job's own (whose
  /// outputs' sizes are checked).
  public static func parse(
    bytes: [UInt8], file: String, limits: JobLimits = JobLimits(), access: FileAccess = .any,
    formats: [OutputFormat]? = nil
  ) throws(Diagnostic) -> JobSpec {
    try parse(bytes: bytes, file: file, transitions: Catalog.all, limits: limits, access: access, formats: formats)
  }

  /// `parse(bytes:file:)` against another list of transitions (for tests).
  static func parse(
    bytes: [UInt8], file: String, transitions: [TransitionDescriptor], limits: JobLimits = JobLimits(),
    access: FileAccess = .any, formats: [OutputFormat]? = nil
  ) throws(Diagnostic) -> JobSpec {
    let source = try SourceText(bytes: bytes, file: file)
    guard let root = try YAMLReader.parse(source), !root.isNull else {
      throw Diagnostic(SourceLocation(file: file, line: 1, column: 1), "the job file is empty")
    }
    return try JobDecoder(file: file, transitions: transitions, limits: limits, access: access, formats: formats).job(root)
  }

  /// The job in `text` (UTF-8).
  public static func parse(_ text: String, file: String, limits: JobLimits = JobLimits()) throws(Diagnostic) -> JobSpec {
    try parse(bytes: Array(text.utf8), file: file, limits: limits)
  }

  /// Reads and parses the job file at `path`; an unreadable file is
  /// `PATH:1:1: error: cannot read job file: REASON`. The images the job
  /// names are not opened here: the runner decides which paths a job may
  /// reach and checks them (`AssetLoader.checkFiles(of:)`).
  public static func load(
    path: String, limits: JobLimits = JobLimits(), access: FileAccess = .any, formats: [OutputFormat]? = nil
  ) throws(Diagnostic) -> JobSpec {
    try parse(bytes: try read(path), file: path, limits: limits, access: access, formats: formats)
  }

  /// The String Catalog the job file at `path` names (`strings: FILE`),
  /// resolved against it, found from its YAML alone: a job whose catalog is
  /// not there yet (or is broken) does not parse, yet reads that file, and
  /// `transvid watch` waits for it. Nil when the job names none, or its
  /// file is no YAML.
  public static func catalogPath(ofJobAt path: String) -> String? {
    guard case .success(let bytes) = JobDecoder.read(path),
      let source = try? SourceText(bytes: bytes, file: path),
      let root = try? YAMLReader.parse(source),
      let written = root.pairs?.first(where: { $0.key == "strings" })?.value.text, !written.isEmpty,
      !written.utf8.contains(0)
    else { return nil }
    return JobDecoder.resolve(written, relativeTo: path)
  }

  private static func read(_ path: String) throws(Diagnostic) -> [UInt8] {
    switch JobDecoder.read(path) {
    case .success(let bytes): return bytes
    case .failure(let failure):
      let reason = failure.code == ENOENT ? RegularFile.notUTF8(path) ?? "\(failure)" : "\(failure)"
      throw Diagnostic(SourceLocation(file: path, line: 1, column: 1), "cannot read job file: \(reason)")
    }
  }
}
