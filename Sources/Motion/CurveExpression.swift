/// The shape every curve specification shares: `name` or `name(arguments)`,
/// where an argument is `value` or `label: value`, separated by commas.
///
/// Names are letters, digits, `-` and `_`, starting with a letter; values are
/// runs of anything but whitespace, `,`, `(`, `)` and `:`. Whitespace may go
/// between any two tokens. Columns in messages count characters of the text
/// without its surrounding whitespace, from 1.
struct CurveExpression: Hashable, Sendable {
  struct Argument: Hashable, Sendable {
    var label: String?
    var value: String
  }

  /// The text without surrounding whitespace.
  var text: String
  var name: String
  /// nil without parentheses; empty for `name()`.
  var arguments: [Argument]?

  /// Longest specification accepted, in characters (the longest real one,
  /// a CA spring with every label, is under 100); longer text is refused
  /// before any of it is echoed in a message.
  static let maximumLength = 200

  init(parsing input: String) throws(MotionParseError) {
    let characters = Array(input.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    let text = String(characters)
    guard !characters.isEmpty else {
      throw MotionParseError(
        .empty,
        "empty curve; expected a name such as easeInEaseOut, cubic-bezier(x1, y1, x2, y2) or spring(...)")
    }
    guard characters.count <= CurveExpression.maximumLength else {
      throw MotionParseError(
        .syntax,
        "a curve of \(characters.count) characters; a curve is at most \(CurveExpression.maximumLength), as in spring(damping: 0.55, velocity: 1.818, duration: 0.75)")
    }
    var index = 0
    func fail(_ expected: String) -> MotionParseError {
      MotionParseError(.syntax, "malformed curve '\(text)': expected \(expected) at column \(index + 1)")
    }
    func skipWhitespace() {
      while index < characters.count, characters[index].isWhitespace { index += 1 }
    }
    func word(_ accepts: (Character) -> Bool) -> String {
      let start = index
      while index < characters.count, accepts(characters[index]) { index += 1 }
      return String(characters[start..<index])
    }
    let isNameCharacter: (Character) -> Bool = { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    let isValueCharacter: (Character) -> Bool = { !$0.isWhitespace && !",():".contains($0) }

    guard characters[0].isLetter else { throw fail("a name") }
    let name = word(isNameCharacter)
    skipWhitespace()
    guard index < characters.count else {
      self.text = text
      self.name = name
      self.arguments = nil
      return
    }
    guard characters[index] == "(" else { throw fail("'(' or the end") }
    index += 1
    skipWhitespace()
    var arguments: [Argument] = []
    if index < characters.count, characters[index] == ")" {
      index += 1
    } else {
      while true {
        skipWhitespace()
        let first = word(isValueCharacter)
        guard !first.isEmpty else { throw fail("an argument") }
        skipWhitespace()
        if index < characters.count, characters[index] == ":" {
          index += 1
          skipWhitespace()
          let value = word(isValueCharacter)
          guard !value.isEmpty else { throw fail("a value after '\(first):'") }
          arguments.append(Argument(label: first, value: value))
          skipWhitespace()
        } else {
          arguments.append(Argument(label: nil, value: first))
        }
        guard index < characters.count else { throw fail("',' or ')'") }
        if characters[index] == "," {
          index += 1
          continue
        }
        guard characters[index] == ")" else { throw fail("',' or ')'") }
        index += 1
        break
      }
    }
    skipWhitespace()
    guard index == characters.count else { throw fail("the end") }
    self.text = text
    self.name = name
    self.arguments = arguments
  }

  /// The argument as a finite number: a decimal (`0.55`, `-1e-3`) or a
  /// quotient of two (`1/0.55`, as the seeds write velocities).
  static func number(_ text: String) -> Double? {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    let value: Double?
    switch parts.count {
    case 1:
      value = Double(text)
    case 2:
      guard let numerator = Double(parts[0]), let denominator = Double(parts[1]) else { return nil }
      value = numerator / denominator
    default:
      value = nil
    }
    guard let value, value.isFinite else { return nil }
    return value
  }

  /// The candidate closest to `word` when it is a near miss: equal ignoring
  /// case, at most two edits away (for words longer than three letters), or
  /// the only candidate that starts with it (for words of three or more).
  static func suggestion(for word: String, among candidates: [String]) -> String? {
    let lowered = Array(word.lowercased())
    if lowered.count >= 3 {
      let extensions = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
      if extensions.count == 1 { return extensions[0] }
    }
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(lowered, Array(candidate.lowercased()))
      if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    guard let best else { return nil }
    let limit = lowered.count > 3 ? 2 : 0
    return best.distance <= limit ? best.candidate : nil
  }

  /// Levenshtein distance.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = Swift.min(substitution, previous[j] + 1, current[j - 1] + 1)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
