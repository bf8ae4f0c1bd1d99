/// One line of text laid out in pixels: glyphs with their pen positions,
/// from x = 0 at the start of the line.
struct TextLayout {
  struct Glyph {
    /// Index into the cascade of the font that draws it.
    var font: Int
    var glyph: UInt32
    var x: Double
    var advance: Double
    var isWhitespace: Bool
  }

  var glyphs: [Glyph]
  /// Sum of advances and kerning, in pixels.
  var width: Double
  /// Whether the text was cut and ends in "…".
  var isTruncated: Bool

  /// Lays `text` out on one line at `pixelSize` pixels per em with `fonts`,
  /// cut to fit `maxWidth` pixels with a trailing "…" when it is too long.
  /// Line breaks and tabs count as spaces; other control characters are dropped.
  init(_ text: String, fonts: [Font], pixelSize: Double, maxWidth: Double) {
    var glyphs = TextLayout.shape(Array(text.unicodeScalars), fonts: fonts, pixelSize: pixelSize)
    var width = glyphs.last.map { $0.x + $0.advance } ?? 0
    var isTruncated = false
    // A little slack so a label exactly as wide as its text is not cut by rounding.
    if width > maxWidth + 1e-6 {
      isTruncated = true
      let ellipsis = TextLayout.shape(["\u{2026}"], fonts: fonts, pixelSize: pixelSize)
      let ellipsisWidth = ellipsis.last.map { $0.x + $0.advance } ?? 0
      var count = glyphs.count
      while count > 0, glyphs[count - 1].x + glyphs[count - 1].advance + ellipsisWidth > maxWidth + 1e-6 {
        count -= 1
      }
      // "Photo …" reads worse than "Photo…".
      while count > 0, glyphs[count - 1].isWhitespace { count -= 1 }
      glyphs.removeSubrange(count...)
      let start = glyphs.last.map { $0.x + $0.advance } ?? 0
      for var g in ellipsis {
        g.x += start
        glyphs.append(g)
      }
      width = start + ellipsisWidth
    }
    self.glyphs = glyphs
    self.width = width
    self.isTruncated = isTruncated
  }

  /// One glyph per scalar, from the first font that has it (else the first
  /// font's missing-glyph box), with kerning between neighbours of one font.
  static func shape(_ scalars: [Unicode.Scalar], fonts: [Font], pixelSize: Double) -> [Glyph] {
    guard !fonts.isEmpty else { return [] }
    var result: [Glyph] = []
    var pen = 0.0
    for var scalar in scalars {
      if scalar == "\n" || scalar == "\r" || scalar == "\t" { scalar = " " }
      if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { continue }
      var choice = (font: 0, glyph: UInt32(0))
      for (i, font) in fonts.enumerated() {
        if let glyph = font.glyph(for: scalar) {
          choice = (i, glyph)
          break
        }
      }
      let font = fonts[choice.font]
      if let previous = result.last, previous.font == choice.font {
        pen += font.kerning(previous.glyph, choice.glyph, pixelSize: pixelSize)
      }
      let advance = font.advance(of: choice.glyph, pixelSize: pixelSize)
      result.append(
        Glyph(
          font: choice.font, glyph: choice.glyph, x: pen, advance: advance,
          isWhitespace: scalar.properties.isWhitespace))
      pen += advance
    }
    return result
  }
}
