// SourceText: the raw bytes of a job file, checked before libyaml sees them.
//
// libyaml reports encoding problems by byte offset, without a line or
// column, and accepts UTF-16 silently; job files are UTF-8 text, so this
// check runs first and points at the exact character: invalid UTF-8, NUL
// bytes and the control characters YAML forbids. It also turns a byte offset
// into a line and column the way libyaml counts them (lines end at LF, CR or
// CRLF; columns count Unicode scalars), for the rare libyaml error that only
// has an offset.

/// A job file's bytes with positions in them.
struct SourceText: Sendable {
  /// The bytes, a leading UTF-8 byte-order mark removed.
  var bytes: [UInt8]
  var file: String
  /// What the file is, for errors: "the job file", "the String Catalog".
  var what: String

  /// Largest job file accepted: job files are short, so anything bigger is
  /// almost surely the wrong file.
  static let maximumSize = 1 << 20

  /// Largest String Catalog accepted: Xcode writes 400 strings in 30
  /// languages in 2 MB, so no app's comes near, and the bound still keeps
  /// what a hostile file makes the reader do to seconds.
  static let maximumCatalogSize = 64 << 20

  /// Checks that `bytes` (at most `maximumSize`) are UTF-8 text YAML allows
  /// and drops a leading BOM; errors call the file `what`.
  init(bytes: [UInt8], file: String, what: String = "the job file", maximumSize: Int = SourceText.maximumSize) throws(Diagnostic) {
    self.file = file
    self.what = what
    let start = SourceLocation(file: file, line: 1, column: 1)
    if bytes.count > maximumSize {
      throw Diagnostic(
        start, "\(what) is larger than \(maximumSize >> 20) MiB; is it \(what == "the job file" ? "a job file" : "the right file")?")
    }
    self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    try check()
  }

  /// Throws at the first byte that is not UTF-8, a NUL, or another control
  /// character outside YAML's printable set.
  private func check() throws(Diagnostic) {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    var line = 1
    var column = 1
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .emptyInput:
        return
      case .error:
        let byte = "0x" + String(bytes[offset], radix: 16, uppercase: true)
        throw Diagnostic(
          SourceLocation(file: file, line: line, column: column),
          "\(what) is not valid UTF-8 (byte \(byte)); save it as UTF-8")
      case .valid(let encoded):
        let scalar = Unicode.UTF8.decode(encoded)
        let here = SourceLocation(file: file, line: line, column: column)
        if scalar.value == 0 {
          throw Diagnostic(here, "\(what) contains a NUL byte; is it a text file?")
        }
        if !SourceText.isPrintable(scalar) {
          let code = String(scalar.value, radix: 16, uppercase: true)
          let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
          throw Diagnostic(here, "\(what) contains a control character (U+\(padded))")
        }
        offset += encoded.count
        if scalar == "\n" || (scalar == "\r" && offset < bytes.count && bytes[offset] != UInt8(ascii: "\n")) {
          line += 1
          column = 1
        } else if scalar != "\r" {
          column += 1
        }
      }
    }
  }

  /// YAML's printable characters (libyaml's reader accepts exactly these).
  static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
    default: return false
    }
  }

  /// The Unicode scalar at 1-based `line` and `column`, if there is one.
  func character(atLine line: Int, column: Int) -> Unicode.Scalar? {
    let text = String(decoding: bytes, as: UTF8.self).unicodeScalars
    var l = 1
    var c = 1
    var previous: Unicode.Scalar?
    for scalar in text {
      if previous == "\r" && scalar != "\n" {
        l += 1
        c = 1
      }
      if l == line && c == column && scalar != "\n" && scalar != "\r" { return scalar }
      if scalar == "\n" {
        l += 1
        c = 1
      } else if scalar != "\r" {
        c += 1
      }
      if l > line { return nil }
      previous = scalar
    }
    return nil
  }

  /// The first `#` that starts a comment (unquoted, after white space or at
  /// a line's start) hiding a `}` or `]` later on its line, from 1-based
  /// (`line`, `column`) up to (`endLine`, `endColumn`), or nil: in a
  /// `{ … }` or `[ … ]` such a `#` hides the closing bracket.
  func comment(fromLine line: Int, column: Int, toLine endLine: Int, column endColumn: Int) -> SourceLocation? {
    var l = 1, c = 1
    var previous: Unicode.Scalar?
    var quote: Unicode.Scalar?
    var escaped = false
    // A comment found on the current line, waiting for a bracket after it.
    var comment: SourceLocation?
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      if previous == "\r" && scalar != "\n" { (l, c) = (l + 1, 1) }
      if let found = comment {
        if scalar == "}" || scalar == "]" { return found }
        if scalar == "\n" || scalar == "\r" { comment = nil }
        if scalar == "\n" { (l, c) = (l + 1, 1) } else if scalar != "\r" { c += 1 }
        previous = scalar
        continue
      }
      if (l, c) > (endLine, endColumn) { return nil }
      if (l, c) >= (line, column), scalar != "\n", scalar != "\r" {
        if let q = quote {
          if escaped {
            escaped = false
          } else if q == "\"" && scalar == "\\" {
            escaped = true
          } else if scalar == q {
            quote = nil
          }
        } else if scalar == "\"" || scalar == "'" {
          quote = scalar
        } else if scalar == "#", c == 1 || previous == " " || previous == "\t" {
          comment = SourceLocation(file: file, line: l, column: c)
        }
      }
      if scalar == "\n" {
        (l, c) = (l + 1, 1)
      } else if scalar != "\r" {
        c += 1
      }
      previous = scalar
    }
    return nil
  }

  /// The unquoted value a `#` at `hash` stands inside of, after other
  /// text of it on its line (`text: Price #1`, not `color: #FFFFFF`),
  /// from after the `: `, `,`, `[` or `{` before it to the `,`, `}` or `]`
  /// after it, without blanks at its ends; else nil.
  func value(around hash: SourceLocation) -> String? {
    let line = scalars(ofLine: hash.line)
    var i = hash.column - 2
    while i >= 0, line[i] == " " || line[i] == "\t" { i -= 1 }
    guard i >= 0, hash.column - 1 < line.count, ![":", ",", "[", "{", "-", "\"", "'"].contains(line[i]) else { return nil }
    var start = i
    while start > 0 {
      let before = line[start - 1]
      if [",", "[", "{"].contains(before) || (before == " " || before == "\t") && start >= 2 && line[start - 2] == ":" { break }
      start -= 1
    }
    var end = hash.column - 1
    while end < line.count, ![",", "}", "]"].contains(line[end]) { end += 1 }
    var text = ""
    text.unicodeScalars.append(contentsOf: line[start..<end])
    return text.trimmingSpaces
  }

  /// Where the key starts whose colon is at `colon`, in a flow mapping
  /// (`{ "key": value }`, `{ key: value }`), or nil when `colon` holds no
  /// colon: back from it past blanks, to the quote opening a quoted key,
  /// else to the `{`, `,` or blank before a plain one, on its line.
  func key(endingBefore colon: SourceLocation) -> SourceLocation? {
    let line = scalars(ofLine: colon.line)
    var i = colon.column - 1
    guard i < line.count, line[i] == ":" else { return nil }
    i -= 1
    while i >= 0, line[i] == " " || line[i] == "\t" { i -= 1 }
    guard i >= 0 else { return nil }
    if line[i] == "\"" || line[i] == "'" {
      let quote = line[i]
      i -= 1
      while i >= 0, line[i] != quote || (quote == "\"" && i > 0 && line[i - 1] == "\\") { i -= 1 }
    } else {
      while i > 0, !["{", ",", " ", "\t"].contains(line[i - 1]) { i -= 1 }
    }
    guard i >= 0 else { return nil }
    return SourceLocation(file: file, line: colon.line, column: i + 1)
  }

  /// The place just after the colon that follows, past blanks on its line,
  /// a key whose text ends at `keyEnd` (`{ duration: }`: the space before
  /// `}`), or nil when no colon follows it there (`{ a: 1, b }`).
  func place(afterColonFrom keyEnd: SourceLocation) -> SourceLocation? {
    let line = scalars(ofLine: keyEnd.line)
    var i = keyEnd.column - 1
    while i < line.count, line[i] == " " || line[i] == "\t" { i += 1 }
    guard i < line.count, line[i] == ":" else { return nil }
    return SourceLocation(file: file, line: keyEnd.line, column: i + 2)
  }

  /// The unquoted call, `NAME(` with its parenthesis still open, that
  /// the plain scalar ending at the colon at `colon` begins with
  /// (`spring(damping` before `: 0.55`), as its start and `NAME`; nil for
  /// any other key. YAML ends a plain scalar at `: `, so `curve:
  /// spring(damping: 0.55, velocity: 0)` unquoted is read as a key there.
  func unclosedCall(endingBefore colon: SourceLocation) -> (start: SourceLocation, name: String)? {
    guard let start = key(endingBefore: colon) else { return nil }
    let line = scalars(ofLine: colon.line)
    let text = line[(start.column - 1)..<(colon.column - 1)]
    guard let open = text.firstIndex(of: "("), !text.contains(")") else { return nil }
    let name = text[text.startIndex..<open]
    guard !name.isEmpty, name.allSatisfy({ $0.properties.isAlphabetic || $0 == "-" }) else { return nil }
    var written = ""
    written.unicodeScalars.append(contentsOf: name)
    return (start, written)
  }

  /// The colon of a block key glued to the bracket that opens its value
  /// (`canvas:{ size: 60x80, scale: 1 }`, `- push:[…]`) on `location`'s
  /// line before it, and the key, or nil. YAML reads `canvas:{ size` as one
  /// plain key, so the line's next `: ` is a mapping value out of place.
  func gluedBracketKey(before location: SourceLocation) -> (colon: SourceLocation, key: String)? {
    let line = scalars(ofLine: location.line)
    var i = 0
    while i < line.count, line[i] == " " { i += 1 }
    if i + 1 < line.count, line[i] == "-", line[i + 1] == " " {
      i += 1
      while i < line.count, line[i] == " " { i += 1 }
    }
    let start = i
    while i < line.count, line[i].properties.isAlphabetic || line[i].properties.numericType != nil || ["_", "-", "."].contains(line[i]) {
      i += 1
    }
    guard i > start, i + 1 < line.count, i + 1 < location.column - 1, line[i] == ":", ["{", "["].contains(line[i + 1]) else { return nil }
    var key = ""
    key.unicodeScalars.append(contentsOf: line[start..<i])
    return (SourceLocation(file: file, line: location.line, column: i + 1), key)
  }

  /// The quote that closes a quoted value on `location`'s line with only
  /// blanks between it and `location`, where text that is no `:`, `,`,
  /// `}`, `]` or `#` stands, or nil: text left over after a value its
  /// own quote ended (`text: 'It's here'` ends at `'It'`). A quote opens a
  /// value only after `,`, `[` or `{`, or `:`, `-` or `?` and a blank, on
  /// the line (an apostrophe inside plain text, `It's`, opens none);
  /// inside single quotes `''` is a quote, inside double quotes `\"`.
  func closingQuote(before location: SourceLocation) -> Unicode.Scalar? {
    let line = scalars(ofLine: location.line)
    let end = location.column - 1
    guard end < line.count, ![":", ",", "}", "]", "#"].contains(line[end]) else { return nil }
    var quote: Unicode.Scalar?
    // The last non-blank outside quotes, and the quote that closed just before, if nothing came since.
    var previous: Unicode.Scalar?
    var closed: Unicode.Scalar?
    var i = 0
    while i < end {
      let c = line[i]
      if let q = quote {
        if q == "\"", c == "\\" {
          i += 2
          continue
        }
        if c == q {
          if q == "'", i + 1 < end, line[i + 1] == "'" {
            i += 2
            continue
          }
          quote = nil
          closed = q
          previous = c
        }
      } else if c != " " && c != "\t" {
        if c == "#", i > 0, line[i - 1] == " " || line[i - 1] == "\t" { return nil }
        // After a flow indicator, or a block one and a blank (`key: 'v'`, `- 'v'`).
        if c == "'" || c == "\"", let p = previous,
          [",", "[", "{"].contains(p) || [":", "-", "?"].contains(p) && (line[i - 1] == " " || line[i - 1] == "\t")
        {
          quote = c
        }
        closed = nil
        previous = c
      }
      i += 1
    }
    return quote == nil ? closed : nil
  }

  /// The first line from 1-based `first` through `last` that starts with
  /// a byte-order mark (U+FEFF) before text other than a comment, or nil.
  /// libyaml skips a BOM at a line's start (YAML lets one start each
  /// document), so what follows reads one column further in than it
  /// shows: a second BOM at the file's start, or one a file joined to
  /// another brings along, indents a key.
  func lineStartingWithBOM(from first: Int, through last: Int) -> Int? {
    var line = 1
    // Where the current line's BOM is, while the line is read after it.
    var bomLine: Int?
    var atStart = true
    var previous: Unicode.Scalar?
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      defer { previous = scalar }
      if previous == "\r" && scalar != "\n" || previous == "\n" {
        line += 1
        atStart = true
        bomLine = nil
      }
      if line > last { return nil }
      if scalar == "\n" || scalar == "\r" { continue }
      if atStart {
        atStart = false
        if scalar == "\u{FEFF}", line >= first { bomLine = line }
        continue
      }
      if let found = bomLine, scalar != " ", scalar != "\t" {
        if scalar != "#" { return found }
        bomLine = nil
      }
    }
    return nil
  }

  /// The Unicode scalars of 1-based line `number`, without its line end.
  func scalars(ofLine number: Int) -> [Unicode.Scalar] {
    var l = 1
    var line: [Unicode.Scalar] = []
    var previous: Unicode.Scalar?
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      defer { previous = scalar }
      if previous == "\r" && scalar != "\n" { l += 1 }
      if scalar == "\n" { l += 1 }
      if l > number { break }
      if l == number, scalar != "\n", scalar != "\r" { line.append(scalar) }
    }
    return line
  }

  /// The place of byte `offset` (clamped to the text).
  func location(ofByte offset: Int) -> SourceLocation {
    let prefix = String(decoding: bytes.prefix(max(0, offset)), as: UTF8.self).unicodeScalars
    var line = 1
    var column = 1
    var previous: Unicode.Scalar?
    for scalar in prefix {
      if previous == "\r" && scalar != "\n" {
        line += 1
        column = 1
      }
      if scalar == "\n" {
        line += 1
        column = 1
      } else if scalar != "\r" {
        column += 1
      }
      previous = scalar
    }
    if previous == "\r" {
      line += 1
      column = 1
    }
    return SourceLocation(file: file, line: line, column: column)
  }
}
