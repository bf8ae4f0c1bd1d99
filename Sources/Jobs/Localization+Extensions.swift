// A locale's Unicode extension (BCP 47's `-u-`, RFC 6067): keywords after
// its language, script, region and variants that change how it formats,
// not which strings it reads. `ar-u-nu-latn` is Arabic with Latin digits
// (iOS's Language & Region › Number Format): it reads the `ar` table and
// takes Arabic's fonts, plural rules and direction, as ICU's base name
// (`uloc_getBaseName`, which Apple's localization matching calls) drops
// the keywords, and it writes the job's numbers and its status bar's clock
// in 0–9. The other keywords (`hc-h23`, `co-phonebk`, `ca-japanese`)
// change nothing transvid draws.

import CICU
import Foundation

extension Localization {
  /// `tag` without its extensions, as ICU's base name (`ar-u-nu-latn` →
  /// `ar`): what picks its tables, fonts, plural rules and direction.
  public static func baseTag(_ tag: String) -> String {
    let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
    guard let singleton = parts.indices.dropFirst().first(where: { parts[$0].count == 1 }) else { return tag }
    return parts[..<singleton].joined(separator: "-")
  }

  /// The numbering system `tag`'s `-u-nu-` keyword names (`latn`), or nil.
  static func numberingSystem(of tag: String) -> String? {
    let parts = tag.lowercased().split(separator: "-", omittingEmptySubsequences: false)
    guard let u = parts.indices.dropFirst().first(where: { parts[$0] == "u" }),
      let nu = parts[(u + 1)...].prefix(while: { $0.count != 1 }).firstIndex(of: "nu"), nu + 1 < parts.count
    else { return nil }
    return String(parts[nu + 1])
  }

  /// The Foundation locale that formats `tag`'s numbers: its base, with the
  /// numbering system of its `-u-nu-` as ICU's keyword (`ar@numbers=latn`):
  /// Foundation's formatter takes that form, where BCP 47's crashes it for
  /// a language's own digits (`th-u-nu-thai`).
  static func formattingLocale(_ tag: String) -> Locale {
    let base = baseTag(tag)
    guard let digits = numberingSystem(of: tag) else { return Locale(identifier: base) }
    return Locale(identifier: "\(base)@numbers=\(digits)")
  }

  /// Why `parts`, a locale's subtags from its first singleton on, are not
  /// one `-u-` extension of Unicode's locale keywords (RFC 6067: a key of
  /// two letters or digits, the second a letter, each followed by its
  /// types of 3 to 8; `nu` a numbering system of ten digits ICU and
  /// Foundation know), or nil.
  static func extensionProblem(_ parts: ArraySlice<String>) -> String? {
    guard let singleton = parts.first?.lowercased(), singleton == "u" else {
      return "the \(YAMLNode.singleQuoted("-\(parts.first ?? "")-")) extension is not taken "
        + "(a locale may end in Unicode's '-u-' keywords: ar-u-nu-latn)"
    }
    var keys: [String: [String]] = [:]
    var key: String?
    for part in parts.dropFirst().map({ $0.lowercased() }) {
      guard part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
        return "\(YAMLNode.singleQuoted(part)) is not a '-u-' key or type (letters and digits: nu-latn)"
      }
      if part.count == 1 { return "a locale takes one extension, '-u-': '-\(part)-' follows it" }
      if part.count == 2, part.last!.isLetter {
        guard keys[part] == nil else { return "the '-u-' key '\(part)' is given twice" }
        keys[part] = []
        key = part
      } else if (3...8).contains(part.count), let key {
        keys[key]?.append(part)
      } else {
        return "\(YAMLNode.singleQuoted(part)) is not a '-u-' key (2 letters or digits: nu) or type (3 to 8: latn)"
      }
    }
    if keys.isEmpty { return "'-u-' names no keyword (ar-u-nu-latn: Latin digits)" }
    if let types = keys["nu"] {
      guard !types.isEmpty else { return "'-u-nu-' names no numbering system (latn, arab, arabext, deva, beng, thai, …)" }
      let system = types.joined(separator: "-")
      let known = Set(Locale.NumberingSystem.availableNumberingSystems.map(\.identifier))
      guard types.count == 1, known.contains(system), cicu_is_decimal_numbering_system(system) == 1 else {
        return "no numbering system '\(system)' of ten digits for '-u-nu-' (latn, arab, arabext, deva, beng, thai, …)"
      }
    }
    return nil
  }
}
