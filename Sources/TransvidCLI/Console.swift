#if canImport(Glibc)
import Glibc
#endif

/// Where the command writes: standard output and error, or a capture for tests.
public struct Console: Sendable {
  public var print: @Sendable (String) -> Void
  public var error: @Sendable (String) -> Void
  /// Writes raw text (no newline added) to a terminal for live progress;
  /// nil when standard error is not a terminal, or one that cannot move its
  /// cursor (`drawsOnTerminal`).
  public var terminal: (@Sendable (String) -> Void)?
  /// Whether `print` writes to a terminal (standard output is one): the
  /// result lines are then beside the live progress, else in a file or a
  /// pipe, a log.
  public var printsToTerminal: Bool

  public init(
    print: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
    terminal: (@Sendable (String) -> Void)? = nil, printsToTerminal: Bool = false
  ) {
    self.print = print
    self.error = error
    self.terminal = terminal
    self.printsToTerminal = printsToTerminal
  }

  /// The process's standard output and standard error, one unbuffered
  /// `write` per line so lines from several threads never interleave.
  public static let standard: Console = {
    let terminal: (@Sendable (String) -> Void)?
    if isatty(2) == 1, drawsOnTerminal(term: getenv("TERM").map { String(cString: $0) }) {
      terminal = { text in Console.writeText(text, to: 2) }
    } else {
      terminal = nil
    }
    return Console(
      print: { line in Console.writeText(Console.visible(line) + "\n", to: 1) },
      error: { line in Console.writeText(Console.visible(line) + "\n", to: 2) },
      terminal: terminal, printsToTerminal: isatty(1) == 1)
  }()

  /// Whether a terminal of type `term` (`$TERM`) takes the progress bars'
  /// cursor-control codes: not `dumb` (Emacs' shell, some CI consoles),
  /// which would show them as text, nor an unknown type (unset or empty),
  /// which git takes as dumb too. Those get plain lines, as a pipe does.
  static func drawsOnTerminal(term: String?) -> Bool {
    guard let term, !term.isEmpty else { return false }
    return term != "dumb"
  }

  /// `text` with control characters other than newline and tab written as
  /// `\u{1b}`: a path or value from a job may hold any of them, and an
  /// escape sequence must not reach the terminal (only `terminal`, whose text
  /// is transvid's own, writes raw).
  public static func visible(_ text: String) -> String {
    func isControl(_ c: Unicode.Scalar) -> Bool {
      (c.value < 0x20 && c != "\n" && c != "\t") || (0x7F...0x9F).contains(c.value)
    }
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = String.UnicodeScalarView()
    for c in text.unicodeScalars {
      if isControl(c) {
        out.append(contentsOf: "\\u{\(String(c.value, radix: 16))}".unicodeScalars)
      } else {
        out.append(c)
      }
    }
    return String(out)
  }

  static func writeText(_ text: String, to fd: Int32) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n <= 0 { return }
      offset += n
    }
  }
}
