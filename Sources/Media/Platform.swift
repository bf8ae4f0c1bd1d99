// The only file of Media that calls the C library directly for files:
// reading, atomic replacement (temp + rename) and clean-up.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// File-system helpers for the media sinks and sources.
enum Platform {
  /// Sequence number that keeps temp names unique within this process.
  private static let tempCounter = Atomic<Int>(0)

  /// A temp path beside `path`, in the same directory so that `rename` is
  /// atomic: `dir/.<name>.tmp-<pid>-<n>`.
  static func temporaryPath(besides path: String) -> String {
    let n = tempCounter.add(1, ordering: .relaxed).newValue
    let (dir, name) = split(path)
    return "\(dir).\(name).tmp-\(getpid())-\(n)"
  }

  /// `("dir/", "name")`; the directory part is empty for a bare name.
  static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return ("", path) }
    return (String(path[...slash]), String(path[path.index(after: slash)...]))
  }

  /// The text of the current `errno`.
  static func errnoMessage(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
  }

  /// Renames `source` to `destination`, replacing it atomically.
  static func move(_ source: String, to destination: String) throws(MediaError) {
    if rename(source, destination) != 0 {
      let code = errno
      throw MediaError("rename '\(source)' to '\(destination)'", errnoMessage(code))
    }
  }

  /// Removes `path`, ignoring a missing file.
  static func remove(_ path: String) {
    _ = unlink(path)
  }

  /// The size of the file at `path` in bytes, or `nil` when it cannot be stat'ed.
  static func fileSize(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_size)
  }

  /// The whole content of the file at `path`.
  static func readFile(_ path: String) throws(MediaError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw MediaError("read '\(path)'", errnoMessage()) }
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw MediaError("read '\(path)'", errnoMessage())
      }
      if n == 0 { return result }
      result.append(contentsOf: chunk[0..<n])
    }
  }

  /// Writes `bytes` to `path` atomically: into a temp file beside it, then
  /// `rename`. On failure the temp file is removed and `path` is untouched.
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws(MediaError) {
    let temp = temporaryPath(besides: path)
    let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw MediaError("create '\(temp)'", errnoMessage()) }
    var offset = 0
    var failure: Int32 = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        failure = errno
        break
      }
      offset += n
    }
    if close(fd) != 0 && failure == 0 { failure = errno }
    if failure != 0 {
      remove(temp)
      throw MediaError("write '\(temp)'", errnoMessage(failure))
    }
    do {
      try move(temp, to: path)
    } catch {
      remove(temp)
      throw error
    }
  }
}
