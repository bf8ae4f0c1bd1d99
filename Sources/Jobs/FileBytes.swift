// FileBytes: the few reads Jobs does besides the job file itself — checking
// that assets can be opened, and reading font files for labels.

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

  /// The whole file at `path`, or strerror's text for why not.
  static func contents(of path: String) -> Result<[UInt8], ReadError> {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return .failure(ReadError(errno)) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return .failure(ReadError(errno)) }
    if (info.st_mode & S_IFMT) == S_IFDIR { return .failure(ReadError(EISDIR)) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: Swift.max(65536, Int(info.st_size) + 1))
    bytes.reserveCapacity(Int(info.st_size))
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(ReadError(errno))
      }
      if n == 0 { break }
      bytes += chunk.prefix(n)
    }
    return .success(bytes)
  }

  struct ReadError: Error, CustomStringConvertible {
    var code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
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
