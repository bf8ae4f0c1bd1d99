// `text: { key: K, args: [...] }`: a String Catalog's format strings filled
// in as an app fills them — plural forms by CLDR's rules for the language
// (the categories below are CLDR's published ones, not this code's), the
// numbers in the locale's digits and separators, substitutions, device
// variations — and the arguments a string cannot take are errors at `args`.

import Foundation
import Jobs
import Testing

@Suite struct CatalogArgumentsTests {
  static func unit(_ value: String) -> String {
    "{ \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"\(value)\" } }"
  }

  /// `count`: a form per category, each naming itself.
  static func plural(_ categories: [String]) -> String {
    "{ \"variations\" : { \"plural\" : { "
      + categories.map { "\"\($0)\" : \(unit("%lld \($0)"))" }.joined(separator: ", ") + " } } }"
  }

  static let catalog = """
    {
      "sourceLanguage" : "en",
      "version" : "1.0",
      "strings" : {
        "count" : { "localizations" : {
          "en" : \(plural(["zero", "one", "other"])),
          "ru" : \(plural(["one", "few", "many", "other"])),
          "ar" : \(plural(["zero", "one", "two", "few", "many", "other"])),
          "pl" : \(plural(["one", "few", "many", "other"])),
          "ja" : \(plural(["other"])),
          "de" : \(unit("%lld Fotos, %.1f km"))
        } },
        "albums" : { "localizations" : { "en" : {
          "stringUnit" : { "state" : "translated", "value" : "%1$@ has %#@photos@ in %#@albums@" },
          "substitutions" : {
            "photos" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
              "one" : \(unit("%arg photo")), "other" : \(unit("%arg photos")) } } },
            "albums" : { "argNum" : 3, "formatSpecifier" : "lld", "variations" : { "plural" : {
              "one" : \(unit("one album")), "other" : \(unit("%arg albums")) } } }
          }
        } } },
        "device" : { "localizations" : { "en" : { "variations" : { "device" : {
          "ipad" : \(unit("on iPad")), "iphone" : \(unit("on iPhone %@")), "other" : \(unit("elsewhere")) } } } } },
        "plain" : { "localizations" : { "en" : \(unit("50% off, %lld%% more, 100 % sure")) } },
        "family" : { "localizations" : { "en" : { "variations" : { "device" : {
          "ipad" : \(unit("On iPad")), "iphone" : \(unit("On iPhone")), "other" : \(unit("On device")) } } } } },
        "percent" : { "localizations" : { "en" : \(unit("100%% done")) } },
        "cstring" : { "localizations" : { "en" : \(unit("%s")) } },
        "lld" : { "localizations" : { "en" : \(unit("%lld")) } },
        "far" : { "localizations" : { "en" : \(unit("%18446744073709551617$@")) } },
        "star" : { "localizations" : { "en" : \(unit("%*d")) } },
        "write" : { "localizations" : { "en" : \(unit("%n")) } },
        "twice" : { "localizations" : { "en" : \(unit("%1$@ %1$@")) } },
        "form" : { "localizations" : { "en" : {
          "stringUnit" : { "state" : "translated", "value" : "%#@x@" },
          "substitutions" : {
            "x" : { "argNum" : 1, "formatSpecifier" : "lld", "variations" : { "plural" : {
              "other" : \(unit("%arg%% x %2$lld and %#@y@")) } } },
            "y" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
              "one" : \(unit("one y")), "other" : \(unit("%arg ys")) } } }
          }
        } } },
        "wide" : { "localizations" : { "en" : \(unit("%5000lld")) } }
      }
    }
    """

  static func job(_ locales: String, key: String, args: String?, canvas: String = "size: 120x60, scale: 1") -> String {
    """
    canvas: { \(canvas), fps: 10, background: "#FFFFFF" }
    output: { formats: [png] }
    locales: \(locales)
    strings: App.xcstrings
    screens:
      home:
        views:
          - { frame: [0, 0, 120, 30], text: { key: \(key)\(args.map { ", args: \($0)" } ?? "") } }
    timeline: [hold: 0.1]
    """
  }

  /// The text each locale's job draws.
  func texts(_ locales: String, key: String, args: String?, canvas: String = "size: 120x60, scale: 1") throws -> [String: String] {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(Self.catalog, to: "App.xcstrings", in: dir)
    let path = try write(Self.job(locales, key: key, args: args, canvas: canvas), to: "j.cfg", in: dir)
    var texts: [String: String] = [:]
    for job in try JobParser.load(path: path).localizedJobs() {
      #expect(job.notes.allSatisfy { !$0.description.contains("format specifier") })
      texts[job.locale!] = job.screens[0].views[0].text
    }
    return texts
  }

  @Test(arguments: [
    // CLDR cardinal rules: English one/other (and Foundation's zero form for 0),
    // Russian and Polish one/few/many, Arabic all six, Japanese other alone.
    (0, ["en": "0 zero", "ru": "0 many", "ar": "0 zero", "pl": "0 many", "ja": "0 other"]),
    (1, ["en": "1 one", "ru": "1 one", "ar": "1 one", "pl": "1 one", "ja": "1 other"]),
    (2, ["en": "2 other", "ru": "2 few", "ar": "2 two", "pl": "2 few", "ja": "2 other"]),
    (5, ["en": "5 other", "ru": "5 many", "ar": "5 few", "pl": "5 many", "ja": "5 other"]),
    (11, ["en": "11 other", "ru": "11 many", "ar": "11 many", "pl": "11 many", "ja": "11 other"]),
    (21, ["en": "21 other", "ru": "21 one", "ar": "21 many", "pl": "21 many", "ja": "21 other"]),
    (22, ["en": "22 other", "ru": "22 few", "ar": "22 many", "pl": "22 few", "ja": "22 other"]),
    (100, ["en": "100 other", "ru": "100 many", "ar": "100 other", "pl": "100 many", "ja": "100 other"]),
  ])
  func pluralFormsFollowEachLanguagesRules(count: Int, expected: [String: String]) throws {
    #expect(try texts("[en, ru, ar, pl, ja]", key: "count", args: "[\(count)]") == expected)
  }

  @Test func numbersTakeTheLocalesDigitsAndSeparators() throws {
    let texts = try texts("[en, de, ar-EG]", key: "count", args: "[1234, 2.25]")
    #expect(texts["en"] == "1,234 other")
    #expect(texts["de"] == "1.234 Fotos, 2,2 km")
    // ar-EG takes the ar table, Arabic's rules (1234 mod 100 in 11…99: many) and Egypt's Arabic-Indic digits.
    #expect(texts["ar-EG"] == "١٬٢٣٤ many")
  }

  @Test func substitutionsDeviceVariationsAndPlainText() throws {
    #expect(try texts("[en]", key: "albums", args: "[Anna, 3, 1]") == ["en": "Anna has 3 photos in one album"])
    #expect(try texts("[en]", key: "albums", args: "[Anna, 1, 4]") == ["en": "Anna has 1 photo in 4 albums"])
    // A key Russian lacks falls back to English, and English words take English plurals (21 photos, not 21 photo).
    #expect(try texts("[ru]", key: "albums", args: "[Anna, 21, 2]") == ["ru": "Anna has 21 photos in 2 albums"])
    #expect(try texts("[en]", key: "device", args: "[15]") == ["en": "on iPhone 15"])
    // What is not a specifier stays as written; %% is a percent sign, with arguments or without.
    #expect(try texts("[en]", key: "plain", args: "[7]") == ["en": "50% off, 7% more, 100 % sure"])
    #expect(try texts("[en]", key: "percent", args: nil) == ["en": "100% done"])
    // A device variation is the job's device family's: an iPad preset takes `ipad`, anything else `iphone`.
    #expect(try texts("[en]", key: "family", args: nil) == ["en": "On iPhone"])
    #expect(try texts("[en]", key: "family", args: nil, canvas: "device: ipad-11") == ["en": "On iPad"])
    #expect(try texts("[en]", key: "family", args: nil, canvas: "device: iphone-se") == ["en": "On iPhone"])
    // Whole numbers are read exactly, to 64 bits (a Double rounds past 2^53).
    #expect(try texts("[en]", key: "lld", args: "[1234567890123456789]") == ["en": "1,234,567,890,123,456,789"])
    #expect(try texts("[en]", key: "lld", args: "[9223372036854775807]") == ["en": "9,223,372,036,854,775,807"])
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(Self.catalog, to: "App.xcstrings", in: dir)
    let path = try write(Self.job("[en]", key: "lld", args: "[9223372036854775808]"), to: "j.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: path, line: 8, column: 60),
      "screens.home.views[0].text.args[0]: expected a whole number from -9223372036854775808 to 9223372036854775807, "
        + "got 9223372036854775808")) { try JobParser.load(path: path) }
    // A substitution's form is formatted in turn: its %%, its other specifiers, a substitution it names.
    #expect(try texts("[en]", key: "form", args: "[3, 5]") == ["en": "3% x 5 and 5 ys"])
    #expect(try texts("[en]", key: "form", args: "[3, 1]") == ["en": "3% x 1 and one y"])
  }

  @Test(arguments: [
    ("count", "[2.5]",
     "the 'en' string of 'count' in 'App.xcstrings' (\"%lld other\") cannot take them: '%lld' takes a whole number as argument 1, not 2.5"),
    ("count", "[Anna]",
     "the 'en' string of 'count' in 'App.xcstrings' (\"%lld other\") cannot take them: '%lld' takes a whole number as argument 1, not \"Anna\""),
    ("albums", "[Anna, 3]",
     "the 'en' string of 'albums' in 'App.xcstrings' (\"%1$@ has %#@photos@ in %#@albums@\") cannot take them: '%#@albums@' takes argument 3, and args gives 2"),
    ("albums", "[Anna, two, 1]",
     "the 'en' string of 'albums' in 'App.xcstrings' (\"%1$@ has %#@photos@ in %#@albums@\") cannot take them: '%#@photos@' varies by plural and needs a number as argument 2, not \"two\""),
    ("cstring", "[x]",
     "the 'en' string of 'cstring' in 'App.xcstrings' (\"%s\") cannot take them: '%s' takes a C string, character or pointer, which a job cannot give (use %@ for text)"),
    ("wide", "[1]",
     "the 'en' string of 'wide' in 'App.xcstrings' (\"%5000lld\") cannot take them: '%5000lld' asks for a field wider than 999 characters"),
    ("far", "[a, b]",
     "the 'en' string of 'far' in 'App.xcstrings' (\"%18446744073709551617$@\") cannot take them: '%18446744073709551617$@' takes argument 18446744073709551617, and args gives 2"),
    ("star", "[3, 4]",
     "the 'en' string of 'star' in 'App.xcstrings' (\"%*d\") cannot take them: '%*d' takes its field width from an argument, which a job cannot give (write the width)"),
    ("write", "[3]",
     "the 'en' string of 'write' in 'App.xcstrings' (\"%n\") cannot take them: '%n' writes to its argument, which a job cannot give"),
    ("twice", "[\"\(String(repeating: "a", count: 600))\"]",
     "the 'en' string of 'twice' in 'App.xcstrings' (\"%1$@ %1$@\") cannot take them: the text comes to more than the 1000 characters a label holds"),
    ("count", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]",
     "expected a list of at most 16 numbers or texts, such as [3] or [Anna, 2], got a list of 17 items"),
  ])
  func argumentsAStringCannotTakeAreErrorsAtArgs(key: String, args: String, message: String) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(Self.catalog, to: "App.xcstrings", in: dir)
    let path = try write(Self.job("[en]", key: key, args: args), to: "j.cfg", in: dir)
    let error = try #require(throws: Diagnostic.self) { try JobParser.load(path: path) }
    #expect(error.location == SourceLocation(file: path, line: 8, column: 56 + key.count))
    #expect(error.message == "screens.home.views[0].text.args: " + message)
  }

  /// A catalog of one key `k` whose text is `%#@a@` 200 times, `a`'s form
  /// `%#@b@` 200 times, `b`'s `%#@c@`, `c`'s `%#@d@`, and `d`'s `bottom`:
  /// every string within the length limit and the nesting within 4 levels.
  static func multiplying(bottom: String) -> String {
    func substitution(_ form: String) -> String {
      "{ \"argNum\" : 1, \"formatSpecifier\" : \"lld\", \"variations\" : { \"plural\" : { \"other\" : \(unit(form)) } } }"
    }
    let tokens = { (name: String) in String(repeating: "%#@\(name)@", count: 200) }
    return """
      { "sourceLanguage" : "en", "version" : "1.0", "strings" : { "k" : { "localizations" : { "en" : {
        "stringUnit" : { "state" : "translated", "value" : "\(tokens("a"))" },
        "substitutions" : {
          "a" : \(substitution(tokens("b"))), "b" : \(substitution(tokens("c"))),
          "c" : \(substitution(tokens("d"))), "d" : \(substitution(bottom)) } } } } } }
      """
  }

  // 200⁴ expansions, 1.6 billion characters (or none, of as many empty forms), once hung
  // `transvid check` while the job was read: filling in stops once the work passes what a label holds.
  @Test(arguments: [
    ("%arg photo", "the text comes to more than the 1000 characters a label holds"),
    ("", "its substitutions expand to more than 1000 format specifiers"),
  ])
  func substitutionsThatMultiplyStopAtWhatALabelHolds(bottom: String, problem: String) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(Self.multiplying(bottom: bottom), to: "App.xcstrings", in: dir)
    let path = try write(Self.job("[en]", key: "k", args: "[1]"), to: "j.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: path, line: 8, column: 57),
      "screens.home.views[0].text.args: the 'en' string of 'k' in 'App.xcstrings' "
        + "(\"%#@a@%#@a@%#@a@%#@a@%#@a@%#@a@%#@a@%#@a@…\") cannot take them: \(problem)")) {
      try JobParser.load(path: path)
    }
  }

  // A 0 after the `%` (and its `N$`) is the zero flag, as many times as written; the width starts at
  // the first other digit. A `%` and 999 zeros has no conversion: it is text, copied as written.
  @Test(arguments: [
    ("%-5lld|", "42   |"), ("%0lld", "42"), ("%1$00lld", "42"),
    ("%" + String(repeating: "0", count: 999), "%" + String(repeating: "0", count: 999)),
    ("%00001000lld", "'%00001000lld' asks for a field wider than 999 characters"),
  ])
  func zeroFlagsAndWidthsAreReadAsPrintfReadsThem(format: String, text: String) {
    do {
      #expect(try StringFormat.format(format, [.integer(42)], locale: "en") == text)
    } catch {
      #expect(error.message == text)
    }
  }
}
