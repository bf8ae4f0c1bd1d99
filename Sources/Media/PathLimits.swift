// The kernel's limits on a path it opens and on one name in it, worded
// once: every error that refuses a path for its length (a job file too
// deep, an `-o` folder, a report's temporary file) says the limit the same
// way, in bytes, with the constant's name a user can look up.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The longest path the system opens and the longest name in it.
public enum PathLimits {
  /// Bytes of the longest path `open` takes: `PATH_MAX` counts the NUL.
  public static let longestPath = Int(PATH_MAX) - 1
  /// Bytes of the longest name in a folder.
  public static let longestName = Int(NAME_MAX)

  /// "…, and the system opens paths of at most 4095 (PATH_MAX)", the end
  /// of a sentence whose start names the path and its length.
  public static let pathClause = ", and the system opens paths of at most \(longestPath) (PATH_MAX)"

  /// "…, and the system takes names of at most 255 (NAME_MAX)".
  public static let nameClause = ", and the system takes names of at most \(longestName) (NAME_MAX)"

  /// Why `path` cannot be opened by the system, or nil when it can.
  public static func pathProblem(_ path: String) -> String? {
    let bytes = path.utf8.count
    return bytes > longestPath ? "its path is \(bytes) bytes long" + pathClause : nil
  }
}
