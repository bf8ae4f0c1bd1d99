// LookalikeBlank: a character that shows as a space and that YAML reads
// as text. YAML indents with spaces and separates with
// spaces and tabs only, so a no-break space (U+00A0) that a web page, a chat
// or a word processor brings along, at a line's start, makes the key after
// it a key of its own one level up (`canvas:` above `\u{a0} size: …` is the
// key '\u{a0} size' at the top level), and one after a key's colon glues
// the key to its value (`hold:\u{a0}1`). Errors that meet one name it,
// where a space is meant.

enum LookalikeBlank {
  /// Whether `c` shows as a space but is no space or tab to YAML: U+00A0,
  /// U+3000, U+2000…U+200A and the like. Line breaks are not (U+0085,
  /// U+2028, U+2029 end lines), nor are the zero-width characters, which
  /// show as nothing: a key that starts with one is told apart by its
  /// escape (`unknown key '\u{200b}canvas'; did you mean 'canvas'?`).
  static func contains(_ c: Unicode.Scalar) -> Bool {
    switch c {
    case " ", "\t", "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": false
    default: c.properties.isWhitespace
    }
  }

  /// What a message calls `c`, after "a" or "this": "no-break space
  /// (U+00A0)", else "blank (U+3000)", as a path's blank is named.
  static func name(of c: Unicode.Scalar) -> String {
    c == "\u{A0}" ? "no-break space (U+00A0)" : String(PathBlanks.name(of: c).dropFirst(2))
  }
}
