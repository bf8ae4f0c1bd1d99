// CurveSyntax: `curve:` values → `TimingFunction`.
//
//   linear | easeIn | easeOut | easeInEaseOut | default
//   cubic-bezier(x1, y1, x2, y2)      x1 and x2 in 0…1, y1 and y2 finite
//
// A stand-in until Motion's `TimingFunction(parsing:)` lands: it is internal
// and has one entry point, `parse(_:)`, so swapping it is a one-line change
// in `JobDecoder+Parameters.swift`.

import Motion

enum CurveSyntax {
  /// The named curves, in the order messages list them.
  static let names: [(String, TimingFunction)] = [
    ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
    ("easeInEaseOut", .easeInEaseOut), ("default", .default),
  ]

  /// What a curve value may be, for messages.
  static let expected = "a timing curve: linear, easeIn, easeOut, easeInEaseOut, default or cubic-bezier(x1, y1, x2, y2)"

  /// Why a curve did not parse: a short reason to append to the message.
  struct Failure: Error {
    var reason: String?
  }

  static func parse(_ text: String) -> Result<TimingFunction, Failure> {
    if let named = names.first(where: { $0.0 == text }) { return .success(named.1) }
    let trimmed = text.trimmingSpaces
    let prefix = "cubic-bezier("
    guard trimmed.hasPrefix(prefix) else {
      return .failure(Failure(reason: Suggestion.closest(to: text, in: names.map(\.0)).map { "did you mean '\($0)'?" }))
    }
    guard trimmed.hasSuffix(")") else {
      return .failure(Failure(reason: "missing ')'; inside { … } quote the whole value: \"cubic-bezier(…)\""))
    }
    let inner = trimmed.dropFirst(prefix.count).dropLast()
    let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
    let values = parts.compactMap { YAMLNode.number(fromPlain: $0) }
    guard parts.count == 4, values.count == 4, values.allSatisfy(\.isFinite) else {
      return .failure(Failure(reason: "cubic-bezier takes 4 numbers"))
    }
    guard (0...1).contains(values[0]), (0...1).contains(values[2]) else {
      return .failure(Failure(reason: "x1 and x2 must be from 0 to 1"))
    }
    return .success(TimingFunction(controlPoints: values[0], values[1], values[2], values[3]))
  }
}

extension String {
  /// `self` without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
      let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
    else { return "" }
    return String(scalars[first...last])
  }
}
