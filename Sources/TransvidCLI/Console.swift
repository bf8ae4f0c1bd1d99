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

  /// The process's standard output and standard error.
  public static let standard = Console(
    print: { line in
      fputs(line + "\n", stdout)
      fflush(stdout)
    },
    error: { line in
      fputs(line + "\n", stderr)
    })
}
