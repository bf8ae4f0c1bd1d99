// PathBlanks: a path a job writes with a blank at an end. A path copied
// with the space after it (`image: "shots/home.png "`), or written as a
// block scalar, which keeps its line break (`image: |` above
// `shots/home.png`), names another file than the one meant, and the
// system's "No such file or directory" does not say why: a blank at a
// path's end shows as nothing. When the path without its blanks names a
// file and the path as written names nothing, the error says so.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum PathBlanks {
  /// `; the path ends in a space; did you mean 'shots/home.png'?` when
  /// `written` (the path as the job writes it, which `resolved` opens)
  /// starts or ends with blanks, names nothing, and names a file without
  /// them; else nothing.
  public static func hint(written: String, resolved: String) -> String {
    let scalars = Array(written.unicodeScalars)
    guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }),
      first > 0 || last < scalars.count - 1
    else { return "" }
    var trimmed = ""
    trimmed.unicodeScalars.append(contentsOf: scalars[first...last])
    guard let folder = PathHint.folder(of: written, in: resolved) else { return "" }
    let candidate = trimmed.hasPrefix("/") ? trimmed : folder + trimmed
    var info = stat()
    guard stat(resolved, &info) != 0, stat(candidate, &info) == 0 else { return "" }
    let blank = last < scalars.count - 1 ? scalars[last + 1] : scalars[first - 1]
    let end = last < scalars.count - 1 ? "ends in" : "starts with"
    // Whole, as a path is named: cut, it would not say which file.
    return "; the path \(end) \(name(of: blank)); did you mean '\(SourceLocation.shown(trimmed))'?"
  }

  /// Whether `c` shows as a space or as nothing: white space, line breaks
  /// and the zero-width characters a path copied from a web page brings.
  static func isBlank(_ c: Unicode.Scalar) -> Bool {
    c.properties.isWhitespace || c == "\u{200B}" || c == "\u{2060}" || c == "\u{FEFF}"
  }

  /// What a message calls the blank `c`: "a space", "a tab", "a line break",
  /// else its code (`U+00A0`).
  static func name(of c: Unicode.Scalar) -> String {
    switch c {
    case " ": return "a space"
    case "\t": return "a tab"
    case "\n", "\r": return "a line break"
    default:
      let code = String(c.value, radix: 16, uppercase: true)
      return "a blank (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
    }
  }
}
