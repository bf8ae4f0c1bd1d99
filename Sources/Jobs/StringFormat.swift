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

  /// A specifier: `%%`, a substitution token `%#@NAME@`, or `%[N$][flags][width][.precision][length]conversion`
  /// (a `*` width or precision, and `%n`, are specifiers a job cannot fill).
  /// No space flag: "50% off" is text, not "% o".
  nonisolated(unsafe) static let specifier =
    /%%|%#@([A-Za-z0-9_]+)@|%(?:([0-9]+)\$)?([-+#0]*)([0-9]*|\*)(?:\.([0-9]*|\*))?([hlqztjL]*)([@dDiuUxXoOfFeEgGaAcCsSpn])/

  /// How deep substitutions may name substitutions (`%arg and %#@more@`).
  static let maximumNesting = 4

  /// `text` with its specifiers filled in from `args` in `locale`;
  /// `%#@NAME@` tokens take their `substitutions`' form for their argument
  /// by the plural rules of `language` (nil: the locale's), `%arg` in it
  /// standing for that argument, and the form is formatted in turn. The
  /// result is at most `JobDecoder.maximumTextLength` characters, as any text.
  public static func format(
    _ text: String, _ args: [FormatArgument], locale: String, language: String? = nil,
    substitutions: [String: LocalizedString.Substitution] = [:]
  ) throws(Problem) -> String {
    let result = try format(
      text, args, locale: Locale(identifier: locale), language: language ?? locale, substitutions: substitutions,
      depth: 0)
    let length = result.unicodeScalars.count
    guard length <= JobDecoder.maximumTextLength else {
      throw Problem(message: "the text comes to \(length) characters, more than the \(JobDecoder.maximumTextLength) a label holds")
    }
    return result
  }

  private static func format(
    _ text: String, _ args: [FormatArgument], locale: Locale, language: String,
    substitutions: [String: LocalizedString.Substitution], depth: Int
  ) throws(Problem) -> String {
    var result = ""
    var rest = text[...]
    var next = 1
    /// The argument numbered `slot` (1-based, as written) for `what`.
    func argument(_ slot: Substring, for what: Substring) throws(Problem) -> (Int, FormatArgument) {
      guard let n = Int(slot), n >= 1, n <= args.count else {
        throw Problem(message: "'\(what)' takes argument \(slot), and args gives \(args.count)")
      }
      return (n, args[n - 1])
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
        guard depth < maximumNesting else {
          throw Problem(message: "'\(whole)' nests substitutions more than \(maximumNesting) deep")
        }
        let (slot, value) = try argument(Substring(String(substitution.argument ?? sequential)), for: whole)
        guard let number = value.number else {
          throw Problem(message: "'\(whole)' varies by plural and needs a number as argument \(slot), not \(value)")
        }
        // The form, `%arg` its argument's own specifier, formatted like any string.
        let form = LocalizedString.pluralForm(substitution.forms, of: number, language: language)
          .replacing("%arg", with: "%\(slot)$\(substitution.specifier)")
        result += try format(
          form, args, locale: locale, language: language, substitutions: substitutions, depth: depth + 1)
        continue
      }
      let (slot, value) = try argument(match.output.2 ?? Substring(String(sequential)), for: whole)
      result += try formatOne(whole, value, slot: slot, locale: locale)
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
    if width == "*" || precision == "*" {
      throw Problem(message: "'\(spec)' takes its field width from an argument, which a job cannot give (write the width)")
    }
    for field in [width, precision ?? ""] where field.count > 3 || (Int(field) ?? 0) > maximumField {
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
    case "n":
      throw Problem(message: "'\(spec)' writes to its argument, which a job cannot give")
    default:
      throw Problem(
        message: "'\(spec)' takes a C string, character or pointer, which a job cannot give (use %@ for text)")
    }
  }
}
