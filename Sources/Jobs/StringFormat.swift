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
//
// The work is bounded by what a label holds, not by what a catalog writes:
// substitutions may name substitutions, so 200 tokens a level, 4 levels
// deep, would come to 200⁴ expansions, all within the limits on a string's
// length and nesting. Filling in stops as soon as the text built passes
// `JobDecoder.maximumTextLength` characters, or the specifiers filled in
// (its own and its substitutions') pass `maximumSpecifiers`, which bounds a
// string whose substitutions expand to nothing.

import Foundation

public enum StringFormat {
  /// Why a string cannot take the arguments given.
  public struct Problem: Error, Hashable, Sendable {
    public var message: String
  }

  /// The widest field (width or precision) a specifier may ask for.
  static let maximumField = 999

  /// A specifier: `%%`, a substitution token `%[N$]#@NAME@` (a name is any
  /// characters but `@`, `%` and spaces, as `.stringsdict` files and Xcode
  /// take them), or `%[N$][flags][width][.precision][length]conversion`
  /// (a `*` width or precision, and `%n`, are specifiers a job cannot fill).
  /// No space flag: "50% off" is text, not "% o". A width starts with 1–9,
  /// as in printf (a 0 is the flag), so a run of zeros splits between flags
  /// and width one way only: were it any way, each `%` followed by a
  /// thousand zeros and no conversion would be tried at every split.
  nonisolated(unsafe) static let specifier =
    /%%|%(?:([0-9]+)\$)?#@([^@%\s]+)@|%(?:([0-9]+)\$)?([-+#0]*)([1-9][0-9]*|\*)?(?:\.([0-9]*|\*))?([hlqztjL]*)([@dDiuUxXoOfFeEgGaAcCsSpn])/

  /// How deep substitutions may name substitutions (`%arg and %#@more@`).
  static let maximumNesting = 4

  /// Most specifiers one string fills in, its substitutions' included: as
  /// many as the characters a label holds (a string's own text has at most
  /// half as many, each specifier being two characters or more).
  static let maximumSpecifiers = JobDecoder.maximumTextLength

  /// What filling in one string has done so far, across its substitutions.
  private struct Work {
    /// Characters of the text built.
    var characters = 0
    /// Specifiers filled in (`%%` and `%#@NAME@` tokens included).
    var specifiers = 0

    /// Counts `text` as built; throws once the text passes what a label holds.
    mutating func add(_ text: some StringProtocol) throws(Problem) {
      characters += text.unicodeScalars.count
      guard characters <= JobDecoder.maximumTextLength else {
        throw Problem(message: "the text comes to more than the \(JobDecoder.maximumTextLength) characters a label holds")
      }
    }

    /// Counts one specifier; throws once there are more than `maximumSpecifiers`.
    mutating func fill() throws(Problem) {
      specifiers += 1
      guard specifiers <= maximumSpecifiers else {
        throw Problem(message: "its substitutions expand to more than \(maximumSpecifiers) format specifiers")
      }
    }
  }

  /// `text` with its specifiers filled in from `args` in `locale`;
  /// `%#@NAME@` tokens take their `substitutions`' form for their argument
  /// by the plural rules of `language` (nil: the locale's), `%arg` in it
  /// standing for that argument, and the form is formatted in turn. The
  /// result is at most `JobDecoder.maximumTextLength` characters, as any
  /// text, and takes at most `maximumSpecifiers` specifiers to fill in.
  public static func format(
    _ text: String, _ args: [FormatArgument], locale: String, language: String? = nil,
    substitutions: [String: LocalizedString.Substitution] = [:]
  ) throws(Problem) -> String {
    var work = Work()
    return try format(
      text, args, locale: Localization.formattingLocale(locale), language: language ?? Localization.baseTag(locale),
      substitutions: substitutions,
      depth: 0, work: &work)
  }

  private static func format(
    _ text: String, _ args: [FormatArgument], locale: Locale, language: String,
    substitutions: [String: LocalizedString.Substitution], depth: Int, work: inout Work
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
    while let match = try nextSpecifier(in: rest, work: work) {
      try work.add(rest[..<match.range.lowerBound])
      result += rest[..<match.range.lowerBound]
      rest = rest[match.range.upperBound...]
      let whole = match.output.0
      try work.fill()
      if whole == "%%" {
        try work.add("%")
        result += "%"
        continue
      }
      let sequential = next
      next += 1
      if let name = match.output.2 {
        guard let substitution = substitutions[String(name)] else {
          throw Problem(message: "'\(whole)' has no substitution '\(name)' in the catalog")
        }
        guard depth < maximumNesting else {
          throw Problem(message: "'\(whole)' nests substitutions more than \(maximumNesting) deep")
        }
        // The token's own position (`%2$#@name@`) first, then the substitution's `argNum`.
        let (slot, value) = try argument(
          match.output.1 ?? Substring(String(substitution.argument ?? sequential)), for: whole)
        guard let number = value.number else {
          throw Problem(message: "'\(whole)' varies by plural and needs a number as argument \(slot), not \(value)")
        }
        // The form, `%arg` its argument's own specifier, formatted like any string.
        let form = LocalizedString.pluralForm(substitution.forms, of: number, language: language)
          .replacing("%arg", with: "%\(slot)$\(substitution.specifier)")
        // The form's text is counted as it is built, so it is not counted again here.
        result += try format(
          form, args, locale: locale, language: language, substitutions: substitutions, depth: depth + 1, work: &work)
        continue
      }
      let (slot, value) = try argument(match.output.3 ?? Substring(String(sequential)), for: whole)
      let filled = try formatOne(whole, value, slot: slot, locale: locale)
      try work.add(filled)
      result += filled
    }
    try work.add(rest)
    result += rest
    return result
  }

  /// A match of `specifier`: the whole, then its eight groups.
  typealias SpecifierMatch = Regex<
    (Substring, Substring?, Substring?, Substring?, Substring?, Substring?, Substring?, Substring?, Substring?)
  >.Match

  /// The first specifier in `text`, found from one `%` to the next, each
  /// stretch before one counted onto `work` (a copy): the search stops as
  /// soon as the text would come to more than a label holds. A catalog's
  /// string may be megabytes long, and a regular expression searching all
  /// of it took seconds.
  private static func nextSpecifier(in text: Substring, work: Work) throws(Problem) -> SpecifierMatch? {
    var counted = work
    var from = text.startIndex
    var i = from
    // Characters from `from` to `i`: past the limit, the stretch is past it in what `add` counts, scalars.
    var characters = 0
    while i < text.endIndex {
      if characters > JobDecoder.maximumTextLength { try counted.add(text[from..<i]) }
      if text[i] == "%" {
        try counted.add(text[from..<i])
        if let match = text[i...].prefixMatch(of: specifier) { return match }
        (from, characters) = (i, 0)
      }
      i = text.index(after: i)
      characters += 1
    }
    return nil
  }

  /// One specifier (`%lld`, `%.1f`, `%@`, with or without `N$`) filled in with `value`.
  static func formatOne(
    _ spec: some StringProtocol, _ value: FormatArgument, slot: Int, locale: Locale
  ) throws(Problem) -> String {
    guard let match = String(spec).wholeMatch(of: specifier), let conversion = match.output.8 else {
      throw Problem(message: "'\(spec)' is not a format specifier")
    }
    let flags = match.output.4 ?? "", width = match.output.5 ?? "", precision = match.output.6
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
