// A catalog string's format specifiers filled in with a job's `args:`, as
// `String(localized:)` and `String.localizedStringWithFormat` fill them on a
// device: each number is formatted by Foundation for the locale (its digits,
// its grouping and decimal separators: `1,234` in en, `1.234` in de,
// `١٬٢٣٤` in ar-EG).
//
// The string is never handed to a printf whole: each specifier is checked
// against the argument it takes (a whole number for `%lld`, a number for
// `%f`, anything for `%@`) and formatted on its own, so a catalog cannot make
// Foundation read an argument that is not there (`%*d`, `%s`, a `%lld` given
// text). What is not a specifier is copied as it is (`50% off`).

import Foundation

public enum StringFormat {
  /// Why a string cannot take the arguments given.
  public struct Problem: Error, Hashable, Sendable {
    public var message: String
  }

  /// The widest field (width or precision) a specifier may ask for.
  static let maximumField = 999

  /// A specifier: `%%`, a substitution token `%#@NAME@`, or `%[N$][flags][width][.precision][length]conversion`.
  /// No space flag: "50% off" is text, not "% o".
  nonisolated(unsafe) static let specifier =
    /%%|%#@([A-Za-z0-9_]+)@|%(?:([0-9]+)\$)?([-+#0]*)([0-9]*)(?:\.([0-9]+))?([hlqztjL]*)([@dDiuUxXoOfFeEgGaAcCsSp])/

  /// `text` with its specifiers filled in from `args` in `locale`;
  /// `%#@NAME@` tokens take their `substitutions`' form for their argument
  /// by the plural rules of `language` (nil: the locale's).
  public static func format(
    _ text: String, _ args: [FormatArgument], locale: String, language: String? = nil,
    substitutions: [String: LocalizedString.Substitution] = [:]
  ) throws(Problem) -> String {
    let foundationLocale = Locale(identifier: locale)
    var result = ""
    var rest = text[...]
    var next = 1
    /// The argument numbered `slot` (1-based) for `what`.
    func argument(_ slot: Int, for what: Substring) throws(Problem) -> FormatArgument {
      guard slot >= 1, slot <= args.count else {
        throw Problem(
          message: "'\(what)' takes argument \(slot), and args gives \(args.count)")
      }
      return args[slot - 1]
    }
    while let match = rest.firstMatch(of: specifier) {
      result += rest[..<match.range.lowerBound]
      rest = rest[match.range.upperBound...]
      let whole = match.output.0
      if whole == "%%" {
        result += "%"
        continue
      }
      let sequential = next
      next += 1
      if let name = match.output.1 {
        guard let substitution = substitutions[String(name)] else {
          throw Problem(message: "'\(whole)' has no substitution '\(name)' in the catalog")
        }
        let slot = substitution.argument ?? sequential
        let value = try argument(slot, for: whole)
        guard let number = value.number else {
          throw Problem(message: "'\(whole)' varies by plural and needs a number as argument \(slot), not \(value)")
        }
        let form = LocalizedString.pluralForm(substitution.forms, of: number, language: language ?? locale)
        let formatted = try formatOne("%" + substitution.specifier, value, slot: slot, locale: foundationLocale)
        result += form.replacing("%arg", with: formatted)
        continue
      }
      let slot = match.output.2.flatMap { Int($0) } ?? sequential
      result += try formatOne(whole, try argument(slot, for: whole), slot: slot, locale: foundationLocale)
    }
    result += rest
    return result
  }

  /// One specifier (`%lld`, `%.1f`, `%@`, with or without `N$`) filled in with `value`.
  static func formatOne(
    _ spec: some StringProtocol, _ value: FormatArgument, slot: Int, locale: Locale
  ) throws(Problem) -> String {
    guard let match = String(spec).wholeMatch(of: specifier), let conversion = match.output.7 else {
      throw Problem(message: "'\(spec)' is not a format specifier")
    }
    let flags = match.output.3 ?? "", width = match.output.4 ?? "", precision = match.output.5
    for field in [width, precision ?? ""] where (Int(field) ?? 0) > maximumField {
      throw Problem(message: "'\(spec)' asks for a field wider than \(maximumField) characters")
    }
    let shape = "%" + flags + width + (precision.map { "." + $0 } ?? "")
    switch conversion {
    case "@":
      switch value {
      case .text(let text): return text
      case .integer(let n): return String(n)
      case .real(let x): return String(x)
      }
    case "d", "D", "i", "u", "U", "x", "X", "o", "O":
      guard case .integer(let n) = value else {
        throw Problem(message: "'\(spec)' takes a whole number as argument \(slot), not \(value)")
      }
      // `%D`, `%U` and `%O` are the long forms of `%d`, `%u` and `%o`; `%i` is `%d`.
      let c = ["D": "d", "U": "u", "O": "o", "i": "d"][String(conversion)] ?? String(conversion)
      return String(format: shape + "ll" + c, locale: locale, n)
    case "f", "F", "e", "E", "g", "G", "a", "A":
      guard let x = value.number else {
        throw Problem(message: "'\(spec)' takes a number as argument \(slot), not \(value)")
      }
      return String(format: shape + conversion, locale: locale, x)
    default:
      throw Problem(
        message: "'\(spec)' takes a C string, character or pointer, which a job cannot give (use %@ for text)")
    }
  }
}
