// JobDecoder: a `YAMLNode` tree → a validated `JobSpec`.
//
// The decoder is the job file's grammar. Each section lives in its own
// extension (`JobDecoder+Canvas.swift`, `+Output`, `+Screens`, `+Steps`,
// `+Parameters`); this file holds the shared vocabulary they speak:
//
// - `Fields`: a mapping whose keys were checked against the section's list,
//   so an unknown key fails at once, with "did you mean" for a near miss or
//   the list of valid keys otherwise.
// - typed readers (`string`, `number`, `integer`, `color`, `numbers`), each
//   failing with `PATH: expected WHAT, got VALUE` at the value's position.
//
// Errors stop decoding: the first problem is thrown as a `Diagnostic`.
// Unknown keys of a mapping are reported before its values are read, then
// values in the order the grammar needs them (screens before the timeline).

import Geometry
import Raster
import Transitions

struct JobDecoder {
  let file: String
  /// The transitions steps may name (the catalog; tests add their own).
  var transitions: [TransitionDescriptor] = Catalog.all
  /// The caps on canvas size, frame count and pixels (`JobDecoder+Limits.swift`).
  var limits = JobLimits()
  /// Which files besides the job file it may read (its String Catalog).
  var access = FileAccess.any
  /// The formats the run writes when not the job's own (`--format`): the
  /// outputs whose sizes are checked.
  var formats: [OutputFormat]? = nil
  /// The appearance system colours resolve in (`appearances:`); nil is the
  /// light one, decoded first.
  var appearance: String? = nil
  var isDark: Bool { appearance == "dark" }
  /// Whether the screen being decoded is presented as a sheet: its system
  /// backgrounds take the elevated level's dark values (`ColorSyntax`).
  var isElevated = false

  /// A place in the file.
  func location(line: Int, column: Int) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column)
  }

  /// `PATH: expected WHAT, got VALUE` at `node`.
  func mismatch(_ node: YAMLNode, _ path: KeyPath, expected: String, hint: String = "") -> Diagnostic {
    Diagnostic(node.location, "\(path.subject): expected \(expected), got \(node.summary)\(hint)")
  }

  // MARK: Mappings

  /// A mapping's pairs, keys already checked.
  struct Fields {
    let node: YAMLNode
    let path: KeyPath
    let pairs: [YAMLNode.Pair]

    /// The value of `key`, if present.
    subscript(key: String) -> YAMLNode? { pairs.first { $0.key == key }?.value }

    /// Where `key`'s value sits.
    func path(_ key: String) -> KeyPath { path.appending(key) }
  }

  /// The mapping at `node`, failing on any key not in `keys`. Keys in
  /// `notYetSupported` are part of the contract but not implemented yet.
  /// A null `node` (a key with nothing after it) reads as an empty mapping
  /// when `allowsNull`.
  func fields(
    _ node: YAMLNode, _ path: KeyPath, expected: String = "a mapping", keys: [String],
    notYetSupported: [String] = [], allowsNull: Bool = false
  ) throws(Diagnostic) -> Fields {
    if allowsNull, node.isNull { return Fields(node: node, path: path, pairs: []) }
    guard let pairs = node.pairs else {
      // `canvas:` above `fps:10`: one text to YAML, where a key of the mapping was meant.
      let glued = node.text.flatMap { Suggestion.gluedColon($0, in: keys, readAs: "value") } ?? ""
      throw mismatch(node, path, expected: expected, hint: glued)
    }
    for pair in pairs where !keys.contains(pair.key) {
      if notYetSupported.contains(pair.key) {
        throw Diagnostic(pair.keyLocation, "\(path.appending(pair.key)): not supported yet")
      }
      throw unknownKey(pair, in: path, keys: keys)
    }
    return Fields(node: node, path: path, pairs: pairs)
  }

  /// `unknown key 'x' in PATH; did you mean 'y'?`, or what to write for a
  /// key glued to its value (`scale:2`).
  func unknownKey(_ pair: YAMLNode.Pair, in path: KeyPath, keys: [String]) -> Diagnostic {
    Diagnostic(
      pair.keyLocation,
      "unknown key \(YAMLNode.singleQuoted(pair.key)) \(path.keyPlace)"
        + (Suggestion.gluedColon(pair.key, in: keys) ?? Suggestion.hint(for: pair.key, in: keys)))
  }

  /// The value of `key`, which must be there. `what` says what it is for.
  func required(_ key: String, in fields: Fields, _ what: String) throws(Diagnostic) -> YAMLNode {
    if let value = fields[key] { return value }
    let prefix = fields.path.isRoot ? "" : "\(fields.path): "
    throw Diagnostic(fields.node.location, "\(prefix)missing '\(key)' (\(what))")
  }

  // MARK: Scalars

  /// Any non-null scalar, as text.
  func string(_ node: YAMLNode, _ path: KeyPath, expected: String) throws(Diagnostic) -> String {
    guard let text = node.text else { throw mismatch(node, path, expected: expected) }
    return text
  }

  /// A finite plain number in `range`.
  func number(
    _ node: YAMLNode, _ path: KeyPath, in range: ClosedRange<Double>, expected: String
  ) throws(Diagnostic) -> Double {
    guard let value = node.number, value.isFinite, range.contains(value) else {
      var hint = node.quotedNumberHint { range.contains($0) }
      if hint.isEmpty { hint = JobDecoder.decimalCommaHint(node, in: range) }
      if hint.isEmpty, expected.contains("seconds") { hint = JobDecoder.secondsUnitHint(node, in: range) }
      throw mismatch(node, path, expected: expected, hint: hint)
    }
    return value
  }

  /// `; did you mean 0.3? (seconds, without a unit)` for a time written
  /// with its unit (`0.3s`, `300ms`, `0.3 sec`, as CSS and editors write
  /// them) that is a number of seconds in `range` without it; else nothing.
  static func secondsUnitHint(_ node: YAMLNode, in range: ClosedRange<Double>) -> String {
    guard let text = node.text else { return "" }
    let units: [(suffix: String, seconds: Double)] = [
      ("ms", 0.001), ("s", 1), ("sec", 1), ("secs", 1), ("second", 1), ("seconds", 1),
    ]
    for unit in units where text.hasSuffix(unit.suffix) {
      let digits = String(text.dropLast(unit.suffix.count)).trimmingSpaces
      guard let number = YAMLNode.number(fromPlain: digits), number.isFinite else { continue }
      let value = number * unit.seconds
      // In milliseconds to the microsecond, as a time is written: 300ms is 0.3, not 0.30000000000000004.
      let written = JobDecoder.format((value * 1e6).rounded() / 1e6)
      guard range.contains(value) else { return "" }
      return "; did you mean \(written)? (seconds, without a unit)"
    }
    return ""
  }

  /// `; did you mean 1.5?` for a number written with a decimal comma
  /// (`1,5`, as German or French write it) that is one in `range` with a
  /// point; else nothing. Three digits after the comma (`1,000`) may be
  /// a thousands separator: nothing for them.
  static func decimalCommaHint(_ node: YAMLNode, in range: ClosedRange<Double>) -> String {
    guard let text = node.text, text.filter({ $0 == "," }).count == 1,
      let after = text.split(separator: ",", omittingEmptySubsequences: false).last, after.count != 3
    else { return "" }
    let written = text.replacingAll(",", with: ".")
    guard let value = YAMLNode.number(fromPlain: written), value.isFinite, range.contains(value) else { return "" }
    return "; did you mean \(written)? (a decimal point, not a comma)"
  }

  /// A plain whole number in `range` (`60` or `60.0`), described as
  /// "an integer from LOW to HIGH".
  func integer(_ node: YAMLNode, _ path: KeyPath, in range: ClosedRange<Int>) throws(Diagnostic) -> Int {
    let expected = "an integer from \(range.lowerBound) to \(range.upperBound)"
    func isAccepted(_ value: Double) -> Bool {
      value.rounded() == value && Double(range.lowerBound) <= value && value <= Double(range.upperBound)
    }
    guard let value = node.number, value.isFinite, isAccepted(value) else {
      throw mismatch(node, path, expected: expected, hint: node.quotedNumberHint(accepted: isAccepted))
    }
    return Int(value)
  }

  /// A plain `true` or `false` (`YAMLNode.plainBoolean`).
  func boolean(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Bool {
    guard let value = node.plainBoolean else {
      // A near miss (`ture`) is suggested; a quoted "false" is the word already.
      let text = node.text ?? ""
      let hint = ["true", "false"].contains(text.lowercased()) ? "" : Suggestion.hint(for: text, in: ["true", "false"], listing: false)
      throw mismatch(node, path, expected: "true or false", hint: hint)
    }
    return value
  }

  /// A colour (see `ColorSyntax`).
  func color(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Color {
    if let text = node.text, let color = ColorSyntax.color(text, dark: isDark, elevated: isElevated) { return color }
    var hint = ""
    if case .scalar("", .plain) = node.content {
      hint = " (quote hex colours: an unquoted # starts a comment)"
    } else if let text = node.text, case let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines), trimmed != text,
      ColorSyntax.color(trimmed) != nil
    {
      // A blank at an end, which the message's quotes show: the colour without it.
      hint = "; did you mean \(YAMLNode.singleQuoted(trimmed))?"
    } else if let text = node.text, !text.hasPrefix("#"), let match = Suggestion.closest(to: text, in: ColorSyntax.names) {
      hint = "; did you mean '\(match)'?"
    } else if let text = node.text, let hex = ColorSyntax.hexWithoutHash(text) {
      hint = "; did you mean \(YAMLNode.singleQuoted(hex))? (quote it: an unquoted # starts a comment)"
    }
    throw mismatch(node, path, expected: ColorSyntax.expected, hint: hint)
  }

  /// A list of exactly `count` finite plain numbers.
  func numbers(_ node: YAMLNode, _ path: KeyPath, count: Int, expected: String) throws(Diagnostic) -> [Double] {
    guard let items = node.items, items.count == count else {
      throw mismatch(node, path, expected: expected, hint: JobDecoder.bracketlessListHint(node, count: count))
    }
    var values: [Double] = []
    for (i, item) in items.enumerated() {
      guard let value = item.number, value.isFinite, abs(value) <= JobDecoder.maximumCoordinate else {
        throw mismatch(
          item, path.appending(index: i), expected: "a number from -100000 to 100000",
          hint: item.quotedNumberHint { abs($0) <= JobDecoder.maximumCoordinate })
      }
      values.append(value)
    }
    return values
  }

  /// `; did you mean [0, 0, 10, 10]? (a list is written in brackets)` for
  /// text that is `count` numbers between commas (`frame: 0, 0, 10, 10`
  /// outside braces, which YAML reads as one text); else nothing.
  static func bracketlessListHint(_ node: YAMLNode, count: Int) -> String {
    guard let text = node.text else { return "" }
    let items = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
    guard items.count == count, items.allSatisfy({ YAMLNode.number(fromPlain: $0)?.isFinite ?? false }) else { return "" }
    return "; did you mean [\(items.joined(separator: ", "))]? (a list is written in brackets)"
  }

  /// Largest coordinate or length accepted, in points.
  static let maximumCoordinate = 100_000.0

  /// `[x, y, width, height]` with width and height ≥ 0.
  func rect(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Rect {
    let expected = "[x, y, width, height] in points"
    let v = try numbers(node, path, count: 4, expected: expected)
    for i in 2...3 where v[i] < 0 {
      let item = node.items![i]
      throw mismatch(item, path.appending(index: i), expected: "a \(i == 2 ? "width" : "height") ≥ 0")
    }
    return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
  }

  /// `[x, y]`.
  func point(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Point {
    let v = try numbers(node, path, count: 2, expected: "[x, y] in points")
    return Point(x: v[0], y: v[1])
  }

  /// `value` as a job file would write it: `390`, `0.5`.
  static func format(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
  }

  /// A length the job's steps add up to, to the microsecond: 60 000 holds
  /// of 0.02 s are `1200`, not the sum's `1199.9999999991987`.
  static func format(seconds: Double) -> String {
    format((seconds * 1e6).rounded() / 1e6)
  }
}
