import CICU

/// Where a line of a paragraph may end, by the Unicode line breaking
/// algorithm (UAX #14) as ICU implements it: after spaces and hyphens in
/// English, between ideographs and kana in Japanese and Chinese (but not
/// before 。 or 」), between words found in ICU's dictionaries in Thai,
/// Lao, Khmer and Burmese. Korean keeps its words whole, and no line ends
/// inside a grapheme cluster (an accent on a space, " \u{301}", stays with
/// its space), as CoreText keeps a character's marks with it.
enum LineBreaks {
  /// The scalar indices of `text` where a line may end, ascending; the last
  /// is `text.count`. `language` (BCP 47) picks the language's tailoring.
  static func opportunities(_ text: [UInt32], language: String?) -> [Int] {
    guard !text.isEmpty else { return [0] }
    // ICU counts in UTF-16 units: the scalar each unit belongs to.
    var units: [UInt16] = []
    var scalarIndex: [Int] = []
    units.reserveCapacity(text.count)
    for (i, value) in text.enumerated() {
      for unit in (Unicode.Scalar(value) ?? "\u{FFFD}").utf16 {
        units.append(unit)
        scalarIndex.append(i)
      }
    }
    scalarIndex.append(text.count)
    var breaks = [Int32](repeating: 0, count: units.count + 1)
    let locale = String((language ?? "").map { $0 == "-" ? "_" : $0 })
    let count = cicu_line_breaks(units, Int32(units.count), locale, &breaks, Int32(breaks.count))
    guard count > 0 else { return [text.count] }
    // Korean lines break between words, as UIKit's default line-break
    // strategy (`hangulWordPriority`) does, not between any two syllables.
    // UAX #14 reads a mark after a space as a letter (rule LB10) and may
    // break before it; the mark is the space's cluster, so no line does.
    let clusterStarts = LineBreaks.clusterStarts(text)
    return breaks[..<Int(count)].map { scalarIndex[Int($0)] }.filter { i in
      i == text.count || i == 0 || (clusterStarts[i] && !(isHangul(text[i - 1]) && isHangul(text[i])))
    }
  }

  /// Whether an extended grapheme cluster (UAX #29, as Swift's `Character`
  /// reads one) starts at each scalar index of `text`, and at its end.
  static func clusterStarts(_ text: [UInt32]) -> [Bool] {
    var starts = [Bool](repeating: false, count: text.count + 1)
    var scalars = String.UnicodeScalarView()
    for value in text { scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
    var i = 0
    for character in String(scalars) {
      starts[i] = true
      i += character.unicodeScalars.count
    }
    starts[text.count] = true
    return starts
  }

  /// Hangul syllables and jamo.
  static func isHangul(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF: return true
    default: return false
    }
  }
}
