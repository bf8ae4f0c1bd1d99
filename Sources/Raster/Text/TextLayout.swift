/// One line of text laid out in pixels: glyphs with their pen positions,
/// from x = 0 at the left of the line, in visual order.
struct TextLayout {
  struct Glyph {
    /// Index into `faces` of the font that draws it.
    var font: Int
    var glyph: UInt32
    var x: Double
    /// Offset from the baseline, down (marks above a Thai or Devanagari base go up).
    var y: Double = 0
    var advance: Double
    /// The scalar (index into the cleaned text) the glyph's cluster starts at.
    var cluster: Int = 0
    var isWhitespace: Bool
  }

  /// The fonts `Glyph.font` indexes.
  var faces: [Font]
  var glyphs: [Glyph]
  /// Sum of advances, in pixels.
  var width: Double
  /// Whether the text was cut and ends in "…".
  var isTruncated: Bool
  /// The paragraph's base direction, from its first strong character.
  var isRightToLeft: Bool

  /// `text` with one cascade of fonts and nothing per script.
  init(_ text: String, fonts: [Font], pixelSize: Double, maxWidth: Double) {
    self.init(text, fonts: FontSet(regular: fonts), weight: .regular, pixelSize: pixelSize, maxWidth: maxWidth)
  }

  /// Lays `text` out on one line at `pixelSize` pixels per em with `fonts`,
  /// cut to fit `maxWidth` pixels with a trailing "…" when it is too long
  /// (the logical end is cut, as UILabel's tail truncation: the left end
  /// of a right-to-left line). Line breaks and tabs count as spaces; other
  /// control characters are dropped.
  init(
    _ text: String, fonts: FontSet, weight: FontWeight, language: String? = nil, pixelSize: Double, maxWidth: Double
  ) {
    self.init(
      TextLayout.clean(text), fonts: fonts, weight: weight, language: language, pixelSize: pixelSize, maxWidth: maxWidth)
  }

  /// Lays cleaned `scalars` out on one line as above. `rightToLeft` sets
  /// the paragraph direction (a wrapped line takes its paragraph's; nil:
  /// the first strong character's) and `levels` the scalars' embedding
  /// levels (a wrapped line's, as its paragraph resolves them; nil: the
  /// line's own); `ellipsis` ends the line in "…" even when it fits, for
  /// text that follows and is not shown. The "…" takes the paragraph's
  /// level, at the line's logical end. `tabInterval` (pixels) widens each
  /// tab the scalars keep (`clean(_:keepingTabs:)`) to the next tab stop
  /// (`ShapedLine`).
  init(
    _ scalars: [UInt32], fonts: FontSet, weight: FontWeight, language: String?, pixelSize: Double, maxWidth: Double,
    rightToLeft: Bool? = nil, levels: [Int8]? = nil, ellipsis: Bool = false, tabInterval: Double? = nil
  ) {
    func shape(_ s: [UInt32], levels: [Int8]?, rightToLeft: Bool?, breakBefore: Int? = nil) -> ShapedLine {
      ShapedLine(
        s, fonts: fonts, weight: weight, language: language, pixelSize: pixelSize, breakBefore: breakBefore,
        rightToLeft: rightToLeft, levels: levels, tabInterval: tabInterval)
    }
    let levels = levels?.count == scalars.count ? levels : nil
    var line = shape(scalars, levels: levels, rightToLeft: rightToLeft)
    // The whole text's direction is the cut line's: "1234 مرحبا" cut to
    // "12…" is still a right-to-left paragraph, though no strong character is left.
    let direction = rightToLeft ?? line.isRightToLeft
    isTruncated = false
    // A little slack so a label exactly as wide as its text is not cut by rounding.
    if line.width > maxWidth + 1e-6 || ellipsis {
      isTruncated = true
      // The width of each scalar's clusters, in logical order, bounds where to cut.
      var clusterWidth = [Double](repeating: 0, count: scalars.count)
      var isClusterStart = [Bool](repeating: false, count: scalars.count + 1)
      isClusterStart[0] = true
      isClusterStart[scalars.count] = true
      for g in line.glyphs {
        clusterWidth[g.cluster] += g.advance
        isClusterStart[g.cluster] = true
      }
      let ellipsisWidth = shape([0x2026], levels: nil, rightToLeft: nil).width
      var count = 0, used = 0.0
      while count < scalars.count, used + clusterWidth[count] + ellipsisWidth <= maxWidth + 1e-6 {
        used += clusterWidth[count]
        count += 1
      }
      while true {
        while count > 0, !isClusterStart[count] { count -= 1 }
        // "Photo …" reads worse than "Photo…".
        var kept = Array(scalars[..<count])
        while let last = kept.last, Unicode.Scalar(last)?.properties.isWhitespace == true { kept.removeLast() }
        let base: Int8 = direction ? 1 : 0
        line = shape(
          kept + [0x2026], levels: levels.map { Array($0[..<kept.count]) + [base] }, rightToLeft: direction,
          breakBefore: kept.count)
        if line.width <= maxWidth + 1e-6 || count == 0 { break }
        count -= 1
      }
    }
    faces = line.faces
    glyphs = line.glyphs
    width = line.width
    isRightToLeft = line.isRightToLeft
  }

  /// The text's scalars, tabs and line breaks as spaces (a CR LF pair is
  /// one break, one space; NEL, U+2028 LINE SEPARATOR and U+2029
  /// PARAGRAPH SEPARATOR are breaks, as `TextBlock.paragraphs` reads
  /// them), other controls dropped; tabs kept `keepingTabs`, for a line
  /// that widens them to its tab stops.
  static func clean(_ text: String, keepingTabs: Bool = false) -> [UInt32] {
    var previous: Unicode.Scalar?
    return text.unicodeScalars.compactMap { scalar in
      defer { previous = scalar }
      if scalar == "\n" && previous == "\r" { return nil }
      if keepingTabs && scalar == "\t" { return 0x09 }
      if ["\n", "\r", "\t", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) { return 0x20 }
      if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { return nil }
      return scalar.value
    }
  }
}
