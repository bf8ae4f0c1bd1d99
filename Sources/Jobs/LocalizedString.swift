// A string of the job's tables as a String Catalog holds it, and the text
// an app shows for it given the job's `args:`.
//
//   text: { key: photos, args: [3] }      # "%lld photos" → "3 photos"
//
// A catalog entry is one text, or variations by plural category (CLDR's
// `zero`, `one`, `two`, `few`, `many`, `other`) or by device (`iphone`,
// `ipad`, `other`, …), and may stand for parts of itself by substitutions
// (`%#@photos@`, each with its argument, specifier and plural forms). As
// Foundation resolves them on the job's device: the device variation is
// `iphone`'s or `ipad`'s (else `other`'s); the plural form is the one of the number's category in
// the locale by ICU's CLDR rules, except that a `zero` form takes 0 in every
// language (Foundation's own rule since OS X 10.9), and a missing form is
// `other`'s. Without arguments the `other` form is drawn as written.
//
// `device` below is Xcode's name of the device family: `iphone` or `ipad`.

import CICU

/// A value a job gives a string's format specifiers (`args: [3, Anna]`): a
/// plain whole number, another plain number, or text.
public enum FormatArgument: Hashable, Sendable, CustomStringConvertible {
  case integer(Int64)
  case real(Double)
  case text(String)

  /// The number it is, if it is one.
  var number: Double? {
    switch self {
    case .integer(let n): Double(n)
    case .real(let x): x
    case .text: nil
    }
  }

  public var description: String {
    switch self {
    case .integer(let n): String(n)
    case .real(let x): String(x)
    case .text(let s): YAMLNode.quoted(s)
    }
  }
}

/// One key's string in one language of the job's tables.
public indirect enum LocalizedString: Hashable, Sendable {
  case text(String)
  /// Forms by CLDR plural category.
  case plural([String: LocalizedString])
  /// Forms by device (`iphone`, `ipad`, `mac`, `other`, …).
  case device([String: LocalizedString])
  /// A string with `%#@NAME@` tokens, and what each name stands for.
  case substituted(LocalizedString, [String: Substitution])

  /// A `%#@NAME@` token's meaning: which argument (1-based; nil: the
  /// token's place among the string's arguments), its format specifier
  /// without the `%` (`lld`), and its text by plural category, where
  /// `%arg` stands for the argument.
  public struct Substitution: Hashable, Sendable {
    public var argument: Int?
    public var specifier: String
    public var forms: [String: String]

    public init(argument: Int?, specifier: String, forms: [String: String]) {
      self.argument = argument
      self.specifier = specifier
      self.forms = forms
    }
  }

  /// The text drawn without arguments on `device`: each variation's
  /// device or `other` form, as written.
  public func asWritten(device: String = "iphone") -> String {
    switch self {
    case .text(let text): text
    case .plural(let forms): Self.form(forms, "other").asWritten(device: device)
    case .device(let forms): Self.form(forms, device).asWritten(device: device)
    case .substituted(let base, _): base.asWritten(device: device)
    }
  }

  /// The text an app shows with `args` in `locale` (a BCP 47 tag: its
  /// numbers' digits and separators), its plural forms chosen by the rules
  /// of `language`, the string's own (the source language's for a string
  /// that fell back to it: English words take English plurals).
  public func text(
    args: [FormatArgument], locale: String, language: String? = nil, device: String = "iphone"
  ) throws(StringFormat.Problem) -> String {
    try text(args: args, locale: locale, language: language ?? locale, device: device, substitutions: [:])
  }

  private func text(
    args: [FormatArgument], locale: String, language: String, device: String, substitutions: [String: Substitution]
  ) throws(StringFormat.Problem) -> String {
    switch self {
    case .text(let text):
      return try StringFormat.format(text, args, locale: locale, language: language, substitutions: substitutions)
    case .device(let forms):
      return try Self.form(forms, device).text(
        args: args, locale: locale, language: language, device: device, substitutions: substitutions)
    case .plural(let forms):
      // Xcode varies a whole string by plural only when it has one argument: the first number.
      let number = args.lazy.compactMap(\.number).first
      let form = number.map { Self.pluralForm(forms, of: $0, language: language) } ?? Self.form(forms, "other")
      return try form.text(args: args, locale: locale, language: language, device: device, substitutions: substitutions)
    case .substituted(let base, let more):
      return try base.text(
        args: args, locale: locale, language: language, device: device,
        substitutions: substitutions.merging(more) { $1 })
    }
  }

  /// The form for `number` in `language`: `zero` for 0 where there is
  /// one, else its CLDR category's, else `other`'s.
  static func pluralForm<Form>(_ forms: [String: Form], of number: Double, language: String) -> Form {
    if number == 0, let zero = forms["zero"] { return zero }
    return forms[pluralCategory(of: number, language: language)] ?? form(forms, "other")
  }

  /// CLDR's plural category of `number` in `language` (a BCP 47 tag), by
  /// ICU (`other` where ICU has no rules).
  static func pluralCategory(of number: Double, language: String) -> String {
    var category = [CChar](repeating: 0, count: 16)
    let identifier = String(language.map { $0 == "-" ? "_" : $0 })
    guard cicu_plural_category(identifier, number, &category, Int32(category.count)) > 0 else { return "other" }
    return String(decoding: category.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `forms[key]`, else `other`'s, else the first by name (a decoded
  /// variation has at least one form).
  static func form<Form>(_ forms: [String: Form], _ key: String) -> Form {
    forms[key] ?? forms["other"] ?? forms[forms.keys.sorted()[0]]!
  }
}
