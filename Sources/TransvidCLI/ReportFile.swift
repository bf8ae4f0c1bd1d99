import Foundation
import Media

/// A `--report` file as `transvid gallery` reads it: a regular file of at
/// most `maxBytes`, read whole and parsed whole. A job takes about 600
/// bytes of a report (a failure's message more), and the parsed JSON is
/// held as objects of about thirty times the file (40 MB of 110 000 jobs
/// take 1.2 GB and 30 s), so a larger file, a stray export or one written
/// on purpose, is an error naming it, read no further.
enum ReportFile {
  /// 64 MiB: a hundred thousand jobs.
  static let maxBytes = 64 << 20

  /// The bytes of the report at `path`; a file larger than `maxBytes` is
  /// refused by its size, before it is read.
  static func read(_ path: String) throws(MediaError) -> [UInt8] {
    if let size = oversize(path) {
      throw MediaError("read '\(path)'", "it is \(size) bytes, more than a report may have (\(maxBytes >> 20) MiB)")
    }
    return try Platform.readRegularFile(path, maxBytes: maxBytes)
  }

  /// The size of the regular file at `path` (through links) when it is
  /// larger than `maxBytes`, else nil.
  static func oversize(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > maxBytes else { return nil }
    return Int(info.st_size)
  }

  /// Whether the file at `path` begins as transvid writes a report
  /// (`{`, a newline, `  "version": `): a large `*.json` that does not is
  /// another tool's, which a merge passes over in a folder as it passes
  /// over a smaller JSON file that is no report.
  static func beginsAsReport(_ path: String) -> Bool {
    let prefix = Array("{\n  \"version\": ".utf8)
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: prefix.count)
    let n = head.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
    return n == prefix.count && head == prefix
  }
}
