// FileBytes: the one read Jobs does besides the job file itself — checking
// that assets can be opened (decoding them is the CLI's, through Media).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FileBytes {
  /// Why `path` cannot be read as a file (strerror's text), or nil when it can.
  static func unreadableReason(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return String(cString: strerror(errno)) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return String(cString: strerror(errno)) }
    if (info.st_mode & S_IFMT) == S_IFDIR { return String(cString: strerror(EISDIR)) }
    return nil
  }
}

extension JobParser {
  /// Checks that every image `spec` refers to can be opened: a missing or
  /// unreadable file is `FILE:LINE:COL: error: KEY: cannot read 'PATH': REASON`
  /// at the `image` key. Decoding (and its errors) is the loader's job.
  public static func checkAssets(of spec: JobSpec) throws(Diagnostic) {
    for asset in spec.assets {
      if let reason = FileBytes.unreadableReason(asset.resolvedPath) {
        throw Diagnostic(asset.location, "\(asset.key): cannot read '\(asset.path)': \(reason)")
      }
    }
  }
}
