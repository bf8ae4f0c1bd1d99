// YAMLNode: the job file as a tree, before any meaning is given to it.
//
// `YAMLReader` builds it from libyaml's events; `JobDecoder` turns it into a
// `JobSpec`. Every node keeps the place it starts at (1-based line and column,
// as editors show them), so any later complaint can point at the exact value.
//
// Only what a job file needs survives: scalars keep their text and whether
// they were written plain (a plain `60` is a number, a quoted `"60"` is text,
// as YAML 1.2's core schema says), sequences keep their items and mappings
// keep their pairs in file order. Anchors, aliases, tags and complex keys are
// rejected by the reader, so none of them appears here.

/// A node of a parsed YAML document.
struct YAMLNode: Sendable {
  /// How a scalar was written.
  enum ScalarStyle: Sendable {
    /// Unquoted: resolved by the core schema (`60` is a number, `~` is null).
    case plain
    /// Single- or double-quoted: always text.
    case quoted
    /// Literal (`|`) or folded (`>`), on the lines below its key: always text.
    case block
  }

  /// A mapping key with its place, and its value.
  struct Pair: Sendable {
    var key: String
    var keyLocation: SourceLocation
    var value: YAMLNode
  }

  enum Content: Sendable {
    case scalar(String, ScalarStyle)
    case sequence([YAMLNode])
    case mapping([Pair])
  }

  var content: Content
  /// Where the node starts (for a block mapping: its first key).
  var location: SourceLocation

  init(_ content: Content, at location: SourceLocation) {
    self.content = content
    self.location = location
  }

  // MARK: Core-schema resolution of plain scalars

  /// True for an empty plain scalar or a plain `~`/`null`: YAML's null.
  var isNull: Bool {
    guard case .scalar(let text, .plain) = content else { return false }
    return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
  }

  /// The text of a scalar that is not null, whatever its style.
  var text: String? {
    guard case .scalar(let text, _) = content, !isNull else { return nil }
    return text
  }

  /// A plain scalar that the core schema reads as a number, including
  /// `.inf`, `-.inf` and `.nan` (callers range-check, which rejects those).
  var number: Double? {
    guard case .scalar(let text, .plain) = content else { return nil }
    return YAMLNode.number(fromPlain: text)
  }

  /// A plain `1/0.55` or `1/6`: the quotient of two numbers, as the seeds
  /// write a spring's velocity and README writes a gesture's interval; nil
  /// for anything else (a plain number included: callers try `number` first).
  var quotient: Double? {
    guard case .scalar(let text, .plain) = content else { return nil }
    return YAMLNode.quotient(fromPlain: text)
  }

  /// `1/0.55` read as its quotient, or nil.
  static func quotient(fromPlain text: String) -> Double? {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let numerator = YAMLNode.number(fromPlain: String(parts[0])),
      let denominator = YAMLNode.number(fromPlain: String(parts[1]))
    else { return nil }
    return numerator / denominator
  }

  /// The number a scalar written as text would be written plain (`"60"`,
  /// or `>-` with 60 on the line below), for the hint that says so where a
  /// number is expected; nil for any other node.
  var quotedNumber: Double? {
    guard case .scalar(let text, let style) = content, style != .plain else { return nil }
    return YAMLNode.number(fromPlain: text).flatMap { $0.isFinite ? $0 : nil }
  }

  /// The quotient a scalar written as text would be written plain
  /// (`"1/60"`), for the same hint where a quotient is taken; nil for any
  /// other node.
  var quotedQuotient: Double? {
    guard case .scalar(let text, let style) = content, style != .plain else { return nil }
    return YAMLNode.quotient(fromPlain: text).flatMap { $0.isFinite ? $0 : nil }
  }

  /// ` (in quotes, so text: write 60 without them)` when `accepted` takes the
  /// number a scalar written as text would be written plain (or, where
  /// `quotients` are taken, the quotient: `"1/60"`); else nothing.
  func quotedNumberHint(quotients: Bool = false, accepted: (Double) -> Bool) -> String {
    guard let value = quotedNumber ?? (quotients ? quotedQuotient : nil), accepted(value), case .scalar(let text, _) = content
    else { return "" }
    return textHint(writing: text)
  }

  /// Why this scalar is text where `plain`, written plain, is what is
  /// wanted, and how to write it: ` (in quotes, so text: write 60 without
  /// them)`, or for a block scalar, which has no quotes, ` (a block scalar,
  /// | or >, so text: write 60 after the key's colon)`.
  func textHint(writing plain: String) -> String {
    guard case .scalar(_, .block) = content else { return " (in quotes, so text: write \(plain) without them)" }
    return " (a block scalar, | or >, so text: write \(plain) after the key's colon)"
  }

  /// A plain boolean as YAML 1.2's core schema spells it (`true`, `True`,
  /// `TRUE`, and the three of `false`), or nil: a quoted `"false"` is text,
  /// as a quoted `"60"` is no number.
  var plainBoolean: Bool? {
    guard case .scalar(let text, .plain) = content else { return nil }
    switch text {
    case "true", "True", "TRUE": return true
    case "false", "False", "FALSE": return false
    default: return nil
    }
  }

  /// A plain boolean in any of the core schema's spellings.
  var isBoolean: Bool { plainBoolean != nil }

  /// The pairs of a mapping.
  var pairs: [Pair]? {
    guard case .mapping(let pairs) = content else { return nil }
    return pairs
  }

  /// The items of a sequence.
  var items: [YAMLNode]? {
    guard case .sequence(let items) = content else { return nil }
    return items
  }

  /// How an error message shows this value after "got": numbers, booleans
  /// and nulls as written (up to 40 characters), text in double quotes
  /// (`quoted`), containers by kind.
  var summary: String {
    switch content {
    // A list's length is what is wrong when the kind was right: "expected a
    // list of locale codes, got an empty list", "expected [x, y, width,
    // height], got a list of 3 items".
    case .sequence(let items):
      return items.isEmpty ? "an empty list" : items.count == 1 ? "a list of 1 item" : "a list of \(items.count) items"
    case .mapping(let pairs): return pairs.isEmpty ? "an empty mapping" : "a mapping"
    case .scalar(let text, let style):
      if style == .plain {
        if text.isEmpty { return "nothing" }
        if isNull || isBoolean || number != nil {
          return text.unicodeScalars.count <= 40 ? text : String(text.unicodeScalars.prefix(40)) + "…"
        }
      }
      return YAMLNode.quoted(text)
    }
  }

  /// `text` in double quotes with quotes, backslashes and control
  /// characters escaped, shortened to 40 characters.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for (i, c) in text.unicodeScalars.enumerated() {
      if i == 40 {
        out += "…"
        break
      }
      switch c {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default:
        if YAMLNode.isEscaped(c) {
          out += "\\u{\(String(c.value, radix: 16))}"
        } else {
          out.unicodeScalars.append(c)
        }
      }
    }
    return out + "\""
  }

  /// Whether messages write `c` as `\u{…}`: controls, the marks that
  /// reorder or break a terminal's line (U+202E, U+061C, U+2028…), and the
  /// characters a terminal shows as a space or as nothing, which a key or
  /// value copied from a web page or a chat brings along (U+00A0, U+200B,
  /// U+FEFF…): `unknown key 'canvas\u{200b}'; did you mean 'canvas'?`
  /// says what differs.
  static func isEscaped(_ c: Unicode.Scalar) -> Bool {
    c.value < 0x20 || c.value == 0x7F || (0x80...0xA0).contains(c.value) || c.value == 0xAD || c.value == 0x061C
      || c.value == 0x180E || (0x2000...0x200B).contains(c.value) || (0x200E...0x200F).contains(c.value)
      || (0x2028...0x202F).contains(c.value) || (0x205F...0x2064).contains(c.value)
      || (0x2066...0x2069).contains(c.value) || c.value == 0x3000 || c.value == 0xFEFF
  }

  /// `text` as messages echo a name: in single quotes (`'hero'`), escaped
  /// and shortened to 40 characters as `quoted` does.
  static func singleQuoted(_ text: String) -> String {
    "'\(quoted(text).dropFirst().dropLast())'"
  }

  /// The core schema's number forms: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`,
  /// its integers in base 16 and 8, `0x[0-9a-fA-F]+` and `0o[0-7]+` (`0x1E`
  /// is 30, `0o17` is 15; no sign, and `0X1E` is text, as the schema writes
  /// them), `[-+]?\.inf` and `.nan` in their three spellings.
  static func number(fromPlain text: String) -> Double? {
    switch text {
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
    case "-.inf", "-.Inf", "-.INF": return -.infinity
    case ".nan", ".NaN", ".NAN": return .nan
    default: break
    }
    let bytes = Array(text.utf8)
    if bytes.count > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "o") {
      return YAMLNode.integer(digits: bytes[2...], radix: bytes[1] == UInt8(ascii: "x") ? 16 : 8)
    }
    var i = 0
    func digits() -> Int {
      let start = i
      while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
      return i - start
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
    var mantissa = digits()
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      mantissa += digits()
    }
    guard mantissa > 0 else { return nil }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
      guard digits() > 0 else { return nil }
    }
    guard i == bytes.count else { return nil }
    return Double(text)
  }

  /// The whole number `digits` write in `radix` (16 or 8), rounded to the
  /// nearest Double past 2⁵³; nil when a character is no such digit.
  private static func integer(digits: ArraySlice<UInt8>, radix: Int) -> Double? {
    var exact: UInt64 = 0
    var value = 0.0
    var fits = true
    for byte in digits {
      let digit: Int
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
      default: return nil
      }
      guard digit < radix else { return nil }
      if fits {
        let (shifted, overflow) = exact.multipliedReportingOverflow(by: UInt64(radix))
        let (sum, carry) = shifted.addingReportingOverflow(UInt64(digit))
        if overflow || carry { fits = false } else { exact = sum }
        value = Double(exact)
      }
      if !fits { value = value * Double(radix) + Double(digit) }
    }
    return fits ? Double(exact) : value
  }
}
