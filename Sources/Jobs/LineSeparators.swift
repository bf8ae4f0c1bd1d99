// LineSeparators: U+0085 NEXT LINE, U+2028 LINE SEPARATOR and U+2029
// PARAGRAPH SEPARATOR read as the ordinary characters they are in YAML 1.2
// and JSON, though libyaml (YAML 1.1) breaks lines at them.
//
// Editors, `SourceText` and YAML 1.2 end lines only at LF, CR and CR LF;
// libyaml also ends them at these three, so its line numbers after one were
// an editor's plus one, a NEL in a comment ended the comment (the rest of the
// line read as YAML) and one in a quoted string was folded into a space. So
// before libyaml reads the text, each is replaced by a stand-in: a character
// of the Private Use Area that the file neither holds nor writes as an escape
// (`\uE000`, `\U0000E000`), which libyaml takes as any other character; every
// scalar it reads gets the originals back (`restore`). The replacement is
// character for character, so libyaml's lines and columns are the file's.
//
// A file that leaves no three private-use characters free (6400 of them,
// held or escaped) cannot be read so; it is an error at its first separator,
// which says how to write the character instead.

struct LineSeparators {
  /// The three characters, in the order of `standIns`.
  static let separators: [Unicode.Scalar] = ["\u{85}", "\u{2028}", "\u{2029}"]

  /// The stand-in of each of `separators`, in the same order; empty when
  /// the text holds none of them.
  private(set) var standIns: [Unicode.Scalar] = []

  /// Where, in the rewritten text, a stand-in of NEL starts: one byte longer
  /// than NEL (three bytes, NEL two), so byte offsets after it move back by one.
  private(set) var longerAt: [Int] = []

  /// `source`'s bytes with each separator replaced by its stand-in, and the
  /// stand-ins; the bytes unchanged when they hold no separator.
  static func replacing(in source: SourceText) throws(Diagnostic) -> ([UInt8], LineSeparators) {
    let bytes = source.bytes
    var result = LineSeparators()
    guard let first = firstSeparator(in: bytes) else { return (bytes, result) }
    guard let standIns = freeStandIns(in: bytes) else {
      let scalar = separator(at: first, in: bytes)!
      throw Diagnostic(
        source.location(ofByte: first),
        "\(name(of: scalar)) is a line break to the YAML reader, and this file leaves no private-use character to read "
          + "it as an ordinary one; write \(escape(of: scalar)) in a double-quoted string instead")
    }
    result.standIns = standIns
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 2)
    var i = 0
    while i < bytes.count {
      if let scalar = separator(at: i, in: bytes), let index = separators.firstIndex(of: scalar) {
        if scalar == "\u{85}" { result.longerAt.append(out.count) }
        out += Array(String(standIns[index]).utf8)
        i += String(scalar).utf8.count
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return (out, result)
  }

  /// `text` with every stand-in turned back into its separator.
  func restore(_ text: String) -> String {
    guard !standIns.isEmpty, text.unicodeScalars.contains(where: standIns.contains) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if let index = standIns.firstIndex(of: scalar) {
        out.append(Self.separators[index])
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// The byte offset in the original text of `offset` in the rewritten one.
  func originalOffset(_ offset: Int) -> Int {
    offset - longerAt.count { $0 < offset }
  }

  /// The offset of the first separator in `bytes`, or nil.
  private static func firstSeparator(in bytes: [UInt8]) -> Int? {
    bytes.indices.first { separator(at: $0, in: bytes) != nil }
  }

  /// The separator whose UTF-8 starts at `i`, or nil: NEL is C2 85, U+2028
  /// and U+2029 are E2 80 A8 and E2 80 A9.
  private static func separator(at i: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
    switch bytes[i] {
    case 0xC2 where i + 1 < bytes.count && bytes[i + 1] == 0x85: "\u{85}"
    case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xA8: "\u{2028}"
    case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xA9: "\u{2029}"
    default: nil
    }
  }

  /// The Private Use Area's first three characters that `bytes` neither
  /// holds nor names in a `\u` or `\U` escape (any backslash counts, inside
  /// a double-quoted string or not: a character left out needlessly costs
  /// nothing), or nil when fewer than three are free.
  private static func freeStandIns(in bytes: [UInt8]) -> [Unicode.Scalar]? {
    let area: ClosedRange<UInt32> = 0xE000...0xF8FF
    var used = [Bool](repeating: false, count: area.count)
    func mark(_ value: UInt32) {
      if area.contains(value) { used[Int(value - area.lowerBound)] = true }
    }
    func hex(_ start: Int, _ count: Int) -> UInt32? {
      guard start + count <= bytes.count else { return nil }
      var value: UInt32 = 0
      for byte in bytes[start..<(start + count)] {
        guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
    for i in bytes.indices {
      switch bytes[i] {
      // U+E000…U+F8FF are EE 80 80 … EF A3 BF (the text is valid UTF-8: `SourceText`).
      case 0xEE...0xEF where i + 2 < bytes.count:
        mark(UInt32(bytes[i] & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F))
      case UInt8(ascii: "\\") where i + 1 < bytes.count:
        if bytes[i + 1] == UInt8(ascii: "u"), let value = hex(i + 2, 4) { mark(value) }
        if bytes[i + 1] == UInt8(ascii: "U"), let value = hex(i + 2, 8) { mark(value) }
      default: break
      }
    }
    let free = used.indices.lazy.filter { !used[$0] }.prefix(3).map { Unicode.Scalar(area.lowerBound + UInt32($0))! }
    return free.count == 3 ? Array(free) : nil
  }

  /// `U+2028 LINE SEPARATOR`.
  static func name(of separator: Unicode.Scalar) -> String {
    switch separator {
    case "\u{85}": "U+0085 NEXT LINE"
    case "\u{2028}": "U+2028 LINE SEPARATOR"
    default: "U+2029 PARAGRAPH SEPARATOR"
    }
  }

  /// YAML's escape of `separator` in a double-quoted string, as JSON writes it.
  private static func escape(of separator: Unicode.Scalar) -> String {
    separator == "\u{85}" ? "\\u0085" : "\\u\(String(separator.value, radix: 16))"
  }
}
