// Localization: one job, a demo per language.
//
//   locales: [en, ar, ja, de]            # one output per locale: <name>.<locale>.<ext>
//   strings: Localizable.xcstrings       # Xcode's String Catalog (JSON), or inline:
//   strings: { en: { greet: "Hello" }, ar: { greet: "مرحبا" } }
//   … text: { key: greet } … image: shots/{locale}/home.png
//
// A job with locales is parsed once; `JobSpec.localized(to:)` makes the job
// one locale renders: its strings, its screenshots, its outputs' names, and
// for right-to-left languages its mirrored layout. A key a locale lacks
// falls back to the source language with a note naming key, locale and file.
//
// Locale codes are BCP 47 tags checked against ISO 639 languages, ISO 15924
// scripts and ISO 3166 regions as Foundation's `Locale` lists them; the
// writing direction is the language's (`Locale.Language.characterDirection`).

import Foundation
import Transitions

/// The job's locales and string tables.
public struct Localization: Hashable, Sendable {
  /// The locales to render, in file order (BCP 47: `en`, `pt-BR`, `zh-Hans`).
  public var locales: [String]
  /// Where each locale is written.
  public var localeLocations: [SourceLocation]
  /// The language strings fall back to (the catalog's `sourceLanguage`, or
  /// the first inline table's).
  public var sourceLanguage: String
  /// Strings by language, then key.
  public var tables: [String: [String: LocalizedString]]
  /// The `.xcstrings` file as the job writes it, or nil for inline tables.
  public var stringsFile: String?
  /// Where the strings are, as messages name it: `'App.xcstrings'` or the inline strings.
  var stringsPlace: String { stringsFile.map { "'\($0)'" } ?? "the inline strings" }

  public init(
    locales: [String], localeLocations: [SourceLocation], sourceLanguage: String, tables: [String: [String: LocalizedString]],
    stringsFile: String? = nil
  ) {
    self.locales = locales
    self.localeLocations = localeLocations
    self.sourceLanguage = sourceLanguage
    self.tables = tables
    self.stringsFile = stringsFile
  }

  /// The string for `key` in `locale`: the first of its tables
  /// (`fallbacks(of:)`) that has it, else the source language's
  /// (`fellBack`); and the language it is written in, whose plural rules it
  /// takes.
  public func string(_ key: String, locale: String) -> (value: LocalizedString, fellBack: Bool, language: String)? {
    for table in Localization.fallbacks(of: locale) {
      if let value = tables[table]?[key] { return (value, false, Localization.baseTag(locale)) }
    }
    if let value = tables[sourceLanguage]?[key] { return (value, true, sourceLanguage) }
    return nil
  }

  /// The tables a locale reads, most specific first, as iOS matches an
  /// app's localizations to a preferred language: the tag; without its
  /// variants (`de-CH-1996` → `de-CH`, ICU's parent); without its
  /// script (`zh-Hant-HK` → `zh-HK`); its CLDR parent where the language
  /// has regional families (`es-MX` → `es-419`; `en-NZ` → `en-AU` →
  /// `en-GB` → `en-001`, Apple's, `englishParents`; `pt-AO` → `pt-PT`; `zh-MO` →
  /// `zh-HK`); the language in its script, written or likely (`zh-TW` →
  /// `zh-Hant`, `zh-CN` → `zh-Hans`: Foundation's likely subtags), and
  /// the Chinese tables after it (`chineseParents`); the language (`pt`
  /// for `pt-BR`); last, for Chinese, the tables iOS falls back to when
  /// none of those is there (`chineseBackups`: `zh-TW` → `zh-HK`). A
  /// locale that writes its script reads
  /// no table in another: a tag without a script is in its likely one
  /// (`sr-Latn` does not read `sr`, Cyrillic; `zh-Hant` not `zh`,
  /// Simplified; `pa-Arab` not `pa`, Gurmukhi; `sr-Latn-ME` does read
  /// `sr-ME`, Latin), so a key missing in its script takes the source
  /// language's string with the usual note. A Chinese locale is in its
  /// likely script though it writes none, as Apple reads `zh` as
  /// `zh-Hans` and `zh-TW` as `zh-Hant-TW` (`zh-TW` never reads `zh`).
  static func fallbacks(of tag: String) -> [String] {
    // Its `-u-` keywords (`ar-u-nu-latn`) pick no table.
    let locale = baseTag(tag)
    let parts = locale.split(separator: "-").map(String.init)
    guard let language = parts.first else { return [locale] }
    let region = parts.dropFirst().first { ($0.count == 2 && $0.allSatisfy(\.isLetter)) || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }
    // Apple's ICU reads a Chinese tag as in its likely script (`zh-TW` is
    // `zh-Hant-TW`, `zh` `zh-Hans`: `ualoc_normalize`), so its script counts as written.
    let written =
      parts.dropFirst().first { $0.count == 4 && $0.allSatisfy(\.isLetter) }
      ?? (language == "zh" ? script(of: locale) : nil)
    var result = [locale]
    // A variant (`1996`, `rozaj`, `valencia`) refines its language and
    // region: their table serves it; and `zh-TW`'s table is `zh-Hant-TW`'s.
    let plain = ([language] + [written, region].compactMap { $0 }).joined(separator: "-")
    if plain != locale, plain != language { result.append(plain) }
    if let region, written != nil { result.append("\(language)-\(region)") }
    if let region {
      switch language {
      case "es" where latinAmericanSpanish.contains(region): result.append("es-419")
      case "en": result += englishParents(region: region)
      case "pt" where europeanPortuguese.contains(region): result.append("pt-PT")
      case "zh" where region == "MO": result += ["zh-Hant-HK", "zh-HK"]
      default: break
      }
    }
    if let script = written ?? Locale.Language(identifier: locale).script?.identifier {
      result.append("\(language)-\(script)")
      result += chineseParents(language: language, script: script)
    }
    result.append(language)
    if language == "zh", let written { result += chineseBackups(script: written) }
    var seen = Set<String>()
    return result.filter { tag in
      guard seen.insert(tag).inserted else { return false }
      guard let written, tag != locale else { return true }
      // A tag Foundation knows no script of is read.
      return script(of: tag).map { nastaliqAsArabic($0) == nastaliqAsArabic(written) } ?? true
    }
  }

  /// The regions whose Spanish is Latin America's, `es-419` their CLDR
  /// parent; Spain's others (`es-IC`, Canary Islands, and `es-EA`) and
  /// `es-GQ` and `es-PH` have `es` for theirs.
  static let latinAmericanSpanish: Set<String> = [
    "AR", "BO", "BR", "BZ", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR", "PY", "SV",
    "US", "UY", "VE",
  ]

  /// The regions whose Portuguese is Portugal's, `pt-PT` their CLDR parent; any other's is `pt`.
  static let europeanPortuguese: Set<String> = ["AO", "CH", "CV", "GQ", "GW", "LU", "MO", "MZ", "ST", "TL"]

  /// The script `tag` writes (`sr-Latn-ME`: Latn), else its likely one
  /// (Foundation's likely subtags, CLDR's: `sr` Cyrl, `sr-ME` Latn, `pa`
  /// Guru, `zh-HK` Hant).
  static func script(of tag: String) -> String? {
    tag.split(separator: "-").dropFirst().first { $0.count == 4 && $0.allSatisfy(\.isLetter) }.map(String.init)
      ?? Locale.Language(identifier: tag).script?.identifier
  }

  /// Nastaliq (`Aran`, CLDR's likely script of `pa-PK` and `ks`) is the
  /// Arabic script: a table in one serves a locale in the other.
  static func nastaliqAsArabic(_ script: String) -> String { script == "Aran" ? "Arab" : script }

  /// Whether any table has `key`.
  public func hasKey(_ key: String) -> Bool { tables.values.contains { $0[key] != nil } }

  /// Whether UIKit mirrors `transition` in a right-to-left layout: its
  /// navigation controller's push and pop do; modal styles and the seeds'
  /// custom animations (written left to right) do not. A `sheet` is drawn
  /// mirrored too: its motion is symmetric, and a card narrower than the
  /// screen (an iPad's form sheet) lays its screen out right to left in its
  /// own width, so it shows the screen's leading, right-hand part.
  public static func mirrorsByDefault(_ transition: String) -> Bool {
    transition == "sheet" || Catalog.descriptor(named: transition)?.isNavigationController == true
  }

  /// Whether `locale` is written right to left (Arabic, Hebrew, Persian,
  /// Urdu, …): its language's direction, or its script's (`az-Arab`, whose
  /// language Foundation gives as left to right).
  public static func isRightToLeft(_ locale: String) -> Bool {
    let language = Locale.Language(identifier: baseTag(locale))
    return language.characterDirection == .rightToLeft || language.script.map { rightToLeftScripts.contains($0.identifier) } == true
  }

  /// ISO 15924 scripts written right to left (Unicode's bidi class R or AL).
  static let rightToLeftScripts: Set<String> = [
    "Adlm", "Arab", "Aran", "Hebr", "Mand", "Mend", "Nkoo", "Rohg", "Samr", "Syrc", "Thaa", "Yezi",
  ]

  /// `tag` in BCP 47's canonical case (RFC 5646 §2.1.1): the language and
  /// variants lower case, a script title case, a region upper case
  /// (`AR` → `ar`, `zh-hant-tw` → `zh-Hant-TW`), an extension lower case
  /// (`ar-u-nu-latn`). Tags match in any case; the tables, the mirroring
  /// and the output names take this one.
  public static func canonical(_ tag: String) -> String {
    var inExtension = false
    return tag.split(separator: "-", omittingEmptySubsequences: false).enumerated().map { i, part in
      if i > 0, part.count == 1 { inExtension = true }
      if inExtension { return part.lowercased() }
      if i > 0, part.count == 4, part.allSatisfy(\.isLetter) { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }
      if i > 0, (part.count == 2 && part.allSatisfy(\.isLetter)) || (part.count == 3 && part.allSatisfy(\.isNumber)) {
        return part.uppercased()
      }
      return part.lowercased()
    }.joined(separator: "-")
  }

  /// Why `tag` is not a BCP 47 locale code of a known language, or nil; a
  /// locale's (`extensions`) may end in a `-u-` extension
  /// (`extensionProblem`), a table's language not.
  static func problem(with tag: String, extensions: Bool = false) -> String? {
    if tag.contains("_"), problem(with: tag.replacingOccurrences(of: "_", with: "-"), extensions: extensions) == nil {
      return "BCP 47 joins its parts with '-': write \(YAMLNode.singleQuoted(tag.replacingOccurrences(of: "_", with: "-")))"
    }
    let parts = tag.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
    guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(\.isLetter) else {
      return "not a BCP 47 tag (a language code of 2 or 3 letters first: en, ar, ja, pt-BR, zh-Hans)"
    }
    if let current = replacedLanguages[language.lowercased()] {
      return "'\(language)' is the former code of that language: write '\(current)'"
    }
    guard knownLanguages.contains(language.lowercased()) else { return "no ISO 639 language '\(language)'" }
    var variants: Set<String> = []
    for (i, part) in parts.enumerated().dropFirst() {
      if part.count == 1 {
        guard extensions else {
          return "a table's language takes no extension: write \(YAMLNode.singleQuoted(parts[..<i].joined(separator: "-")))"
        }
        return extensionProblem(parts[i...])
      }
      if part.count == 4, part.allSatisfy(\.isLetter) {
        guard Locale.Script(part.prefix(1).uppercased() + part.dropFirst().lowercased()).isISOScript else {
          return "no ISO 15924 script '\(part)'"
        }
      } else if (part.count == 2 && part.allSatisfy(\.isLetter)) || (part.count == 3 && part.allSatisfy(\.isNumber)) {
        guard knownRegions.contains(part.uppercased()) else { return "no ISO 3166 region '\(part)'" }
      } else if !((5...8).contains(part.count) || (part.count == 4 && part.first!.isNumber))
        || !part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
      {
        // A variant: 5–8 letters or digits, or 4 beginning with a digit (de-1996, sl-rozaj).
        return "\(YAMLNode.singleQuoted(part)) is not a script, region or variant subtag"
      } else if !variants.insert(part.lowercased()).inserted {
        // RFC 5646 §2.2.5: a variant appears once.
        return "the variant '\(part)' is given twice"
      }
    }
    return nil
  }

  /// ICU's ISO 639 languages, and Tagalog's `tl`, which it folds into Filipino's `fil`.
  static let knownLanguages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier) + ["tl"])
  /// Withdrawn ISO 639-1 codes and the ones that replaced them (Hebrew, Indonesian, Yiddish).
  static let replacedLanguages = ["iw": "he", "in": "id", "ji": "yi"]
  static let knownRegions = Set(Locale.Region.isoRegions.map(\.identifier))
}

extension Localization {
  /// `text` with its ASCII digits in `locale`'s own, as Foundation formats
  /// the job's numbers for it (`StringFormat`): ١٢ in ar-EG, ۱۲ in fa,
  /// १२ in ne, ๑๒ in th-u-nu-thai; unchanged where the locale writes 0–9
  /// (ar-EG-u-nu-latn too).
  public static func localDigits(_ text: String, locale: String) -> String {
    let own = formattingLocale(locale)
    let digits = (0...9).map { String(format: "%lld", locale: own, Int64($0)) }
    guard digits.allSatisfy({ $0.count == 1 }) else { return text }
    return text.map { c in c.isASCII && c.isNumber ? digits[Int(c.asciiValue! - 48)] : String(c) }.joined()
  }

  /// The first printf-style format specifier in `text` (`%@`, `%lld`,
  /// `%1$@`, `%.2f`, `%#@name@`; not `%%`), or nil: a catalog string an app
  /// formats (`StringFormat.specifier`).
  public static func formatSpecifier(in text: String) -> String? {
    text.matches(of: StringFormat.specifier).lazy.map { String(text[$0.range]) }.first { $0 != "%%" }
  }

  /// `text` as drawn without arguments: each `%%` a percent sign, its other
  /// specifiers as written (`%lld at 50%% off` → `%lld at 50% off`).
  public static func asWritten(_ text: String) -> String {
    var out = ""
    var rest = text.startIndex
    for match in text.matches(of: StringFormat.specifier) where text[match.range] == "%%" {
      out += text[rest..<match.range.lowerBound]
      out += "%"
      rest = match.range.upperBound
    }
    return out + text[rest...]
  }
}

/// `text: { key: greet }`: a view's text from the job's strings, and
/// `args:` for its format specifiers (`{ key: photos, args: [3] }`).
public struct TextKey: Hashable, Sendable {
  public var key: String
  /// Where the key is written, and its key path (`screens.home.views[0].text.key`).
  public var location: SourceLocation
  public var path: String
  /// The arguments of its format specifiers (empty: drawn as written).
  public var args: [FormatArgument]
  /// Where `args` is written, and its key path (nil without `args`).
  public var argsLocation: SourceLocation?
  public var argsPath: String?

  public init(
    key: String, location: SourceLocation, path: String, args: [FormatArgument] = [],
    argsLocation: SourceLocation? = nil, argsPath: String? = nil
  ) {
    self.key = key
    self.location = location
    self.path = path
    self.args = args
    self.argsLocation = argsLocation
    self.argsPath = argsPath
  }
}
