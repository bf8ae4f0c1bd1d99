// FileBytes: the one read Jobs does besides the job file itself — font files
// for labels. Images are checked and read by the command line through
// Media's `Platform` (regular files only, capped in bytes).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FileBytes {
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
