#if canImport(Glibc)
import Glibc
#endif

/// Where the command writes: standard output and error, or a capture for tests.
public struct Console: Sendable {
  public var print: @Sendable (String) -> Void
  public var error: @Sendable (String) -> Void

  public init(print: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
    self.print = print
    self.error = error
  }

  /// The process's standard output and standard error, one unbuffered
  /// `write` per line so lines from several threads never interleave.
  public static let standard = Console(
    print: { line in writeLine(line, to: 1) },
    error: { line in writeLine(line, to: 2) })

  private static func writeLine(_ line: String, to fd: Int32) {
    var bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n <= 0 { return }
      offset += n
    }
  }
}
