import CICU

/// Where a line of a paragraph may end, by the Unicode line breaking
/// algorithm (UAX #14) as ICU implements it: after spaces and hyphens in
/// English, between ideographs and kana in Japanese and Chinese (but not
/// before 。 or 」), between words found in ICU's dictionaries in Thai,
/// Lao, Khmer and Burmese.
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
    return breaks[..<Int(count)].map { scalarIndex[Int($0)] }
  }
}
