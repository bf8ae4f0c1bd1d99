// Shaping through HarfBuzz and FriBidi: Latin lines keep the positions of
// FreeType's advances and `kern` pairs (so existing outputs keep their
// bytes), Arabic joins and runs right to left, Devanagari forms conjuncts,
// Thai marks sit on their base, each script takes its own font.

import Geometry
import Testing

@testable import Raster

enum ScriptFonts {
  static func noto(_ name: String) -> Font {
    try! Font(data: TestFonts.read("/usr/share/fonts/truetype/noto/NotoSans\(name)-Regular.ttf"))
  }
  static let arabic = noto("Arabic"), hebrew = noto("Hebrew"), devanagari = noto("Devanagari"), thai = noto("Thai")
  static let symbola = try! Font(data: TestFonts.read("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"))
  static let set = FontSet(
    regular: TestFonts.set.regular, bold: TestFonts.set.bold,
    scripts: [
      "Arab": FontSet(regular: [arabic]), "Hebr": FontSet(regular: [hebrew]), "Deva": FontSet(regular: [devanagari]),
      "Thai": FontSet(regular: [thai]),
    ], fallback: [symbola])
}

@Suite enum ShapingTests {
  /// The layout before HarfBuzz: one glyph per scalar from the first font
  /// that has it, FreeType's advances, the `kern` table between neighbours.
  static func freeTypeLayout(_ text: String, fonts: [Font], pixelSize: Double) -> [(font: Int, glyph: UInt32, x: Double)] {
    var result: [(font: Int, glyph: UInt32, x: Double)] = []
    var pen = 0.0
    for scalar in text.unicodeScalars {
      let choice = fonts.indices.lazy.compactMap { i in fonts[i].glyph(for: scalar).map { (i, $0) } }.first ?? (0, 0)
      let font = fonts[choice.0]
      if let p = result.last, p.font == choice.0 { pen += font.kerning(p.glyph, choice.1, pixelSize: pixelSize) }
      result.append((choice.0, choice.1, pen))
      pen += font.advance(of: choice.1, pixelSize: pixelSize)
    }
    return result
  }

  @Test(arguments: [
    ("照片 Photos", true, 51.0), ("Recents 最近项目", false, 51), ("Artist · 2024", false, 45),
    ("Open Settings 打开设置", true, 51), ("Yesterday 18:42", false, 45), ("AVAWAY Ty. To, LT", false, 17),
  ])
  static func latinKeepsFreeTypePositions(text: String, bold: Bool, pixelSize: Double) {
    let cascade = bold ? [TestFonts.dejaVuBold, TextTests.CJKBold.font] : TestFonts.set.regular
    let expected = freeTypeLayout(text, fonts: cascade, pixelSize: pixelSize)
    let line = TextLayout(text, fonts: FontSet(regular: cascade), weight: .regular, pixelSize: pixelSize, maxWidth: 1e6)
    #expect(line.glyphs.map(\.glyph) == expected.map(\.glyph))
    #expect(line.glyphs.map(\.x) == expected.map(\.x))
    #expect(line.glyphs.map(\.font) == expected.map(\.font))
  }

  @Test static func latinLigaturesComeFromTheFont() {
    // DejaVu Sans Bold has an "fi" ligature; HarfBuzz applies `liga` as browsers do.
    let line = TextLayout("fit", fonts: [TestFonts.dejaVuBold], pixelSize: 40, maxWidth: 1e6)
    #expect(line.glyphs.count == 2)
    #expect(line.glyphs[0].glyph != TestFonts.dejaVuBold.glyph(for: "f"))
  }

  @Test static func arabicRunsRightToLeftInJoinedForms() {
    let text = "سلام"
    let line = TextLayout(text, fonts: ScriptFonts.set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
    #expect(line.isRightToLeft)
    #expect(line.faces[line.glyphs[0].font] === ScriptFonts.arabic)
    // Visual order is the reverse of logical: the first letter (seen) is at
    // the right end; lam + alef are the one lam-alef ligature.
    #expect(line.glyphs.map(\.cluster) == [3, 1, 0])
    // Joined forms are not the isolated ones the cmap gives.
    let isolated = text.unicodeScalars.map { ScriptFonts.arabic.glyph(for: $0)! }
    #expect(line.glyphs.last!.glyph != isolated[0])
    #expect(![isolated[1], isolated[2]].contains(line.glyphs[1].glyph))
    // Alef does not join to the left, so the meem after it stays isolated.
    #expect(line.glyphs[0].glyph == isolated[3])
  }

  @Test static func mixedDirectionsKeepEachRunsOrder() {
    // "abc שלום 12" in an LTR paragraph: the number after the Hebrew word
    // belongs to its right-to-left run (rules W7, N1, I2), so it shows left
    // of the reversed word, its digits still left to right.
    let line = TextLayout("abc שלום 12", fonts: ScriptFonts.set, weight: .regular, pixelSize: 30, maxWidth: 1e6)
    #expect(!line.isRightToLeft)
    #expect(line.glyphs.map(\.cluster) == [0, 1, 2, 3, 9, 10, 8, 7, 6, 5, 4])
    #expect(line.faces[line.glyphs[7].font] === ScriptFonts.hebrew)
    // An RTL paragraph with a Latin word: the Latin word keeps its order, placed left of the Hebrew.
    let rtl = TextLayout("שלום abc", fonts: ScriptFonts.set, weight: .regular, pixelSize: 30, maxWidth: 1e6)
    #expect(rtl.isRightToLeft)
    #expect(rtl.glyphs.map(\.cluster) == [5, 6, 7, 4, 3, 2, 1, 0])
  }

  @Test static func devanagariFormsConjuncts() {
    // क + ् + ष is the conjunct क्ष: one glyph, not three.
    let line = TextLayout("क्ष", fonts: ScriptFonts.set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
    #expect(line.glyphs.count == 1)
    #expect(line.faces[line.glyphs[0].font] === ScriptFonts.devanagari)
    // The vowel sign ि is drawn before (left of) the consonant it follows in memory.
    let ki = TextLayout("कि", fonts: ScriptFonts.set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
    #expect(ki.glyphs.count == 2)
    #expect(ki.glyphs[0].glyph != ScriptFonts.devanagari.glyph(for: "क"))
  }

  @Test static func thaiMarksTakeNoAdvance() {
    let base = TextLayout("ท", fonts: ScriptFonts.set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
    let marked = TextLayout("ที่", fonts: ScriptFonts.set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
    #expect(marked.glyphs.count == 3)
    #expect(marked.width == base.width)
    #expect(Set(marked.glyphs.map(\.font)).count == 1)
  }

  /// A combining mark with no base before it sits on a dotted circle
  /// (U+25CC), as CoreText draws it (the stage sweep): a label of "\u{301}"
  /// alone drew nothing, its zero-width accent hanging left of the line,
  /// and "\u{301}abc" an accent outside the label. After any other text,
  /// in another font too, the mark is that text's and no circle is drawn.
  @Test static func aMarkWithoutABaseSitsOnADottedCircle() {
    let circle = TestFonts.dejaVu.glyph(for: "\u{25CC}")
    let alone = TextLayout("\u{301}", fonts: ScriptFonts.set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
    #expect(alone.glyphs.map(\.glyph) == [circle, TestFonts.dejaVu.glyph(for: "\u{301}")])
    #expect(alone.width == TestFonts.dejaVu.advance(of: circle!, pixelSize: 40))
    let leading = TextLayout("\u{301}ab", fonts: ScriptFonts.set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
    #expect(leading.glyphs.first?.glyph == circle && leading.glyphs.count == 4)
    for text in ["a\u{301}", "\u{5D0}\u{301}", "ท\u{E31}", "日\u{301}"] {
      let line = TextLayout(text, fonts: ScriptFonts.set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
      #expect(!line.glyphs.contains { line.faces[$0.font].glyph(for: "\u{25CC}") == $0.glyph }, "\(text)")
    }
    let size = Size(width: 100, height: 60)
    let ink = Ink(Label("\u{301}", style: TextStyle(size: 40)).render(size: size, scale: 1, fonts: ScriptFonts.set))
    let inside = ink.total > 0 && ink.minX >= 0 && ink.maxX < 40
    #expect(inside)
  }

  /// A mark on a space is drawn (the stage sweep): " \u{301}" and
  /// "\u{A0}\u{301}", as Unicode writes an accent shown alone, drew
  /// nothing, as every glyph of a space's cluster was skipped as blank.
  @Test static func aMarkOnASpaceIsDrawn() {
    let size = Size(width: 100, height: 60)
    func ink(_ text: String) -> Ink {
      Ink(Label(text, style: TextStyle(size: 40, alignment: .left)).render(size: size, scale: 1, fonts: ScriptFonts.set))
    }
    let accent = ink("x\u{301}").total - ink("x").total
    #expect(accent > 0)
    for text in [" \u{301}", "\u{A0}\u{301}", "a \u{301}b"] {
      let drawn = ink(text).total - ink(text.replacingOccurrences(of: "\u{301}", with: "")).total
      #expect(drawn > accent / 2, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
    #expect(ink(" ").isEmpty && ink("\u{A0}").isEmpty)
  }

  @Test static func naturalAlignmentIsTheLeadingEdge() {
    let size = Size(width: 300, height: 60)
    func ink(_ text: String, _ alignment: TextAlignment) -> Ink {
      Ink(Label(text, style: TextStyle(size: 30, alignment: alignment)).render(size: size, scale: 1, fonts: ScriptFonts.set))
    }
    #expect(ink("مرحبا", .natural).maxX >= 295)
    #expect(ink("مرحبا", .natural).minX > 150)
    #expect(ink("Hello", .natural).minX <= 3)
    #expect(ink("Hello", .natural).total == ink("Hello", .left).total)
  }

  @Test static func emojiIsAGlyphNotABox() {
    let line = TextLayout("👍", fonts: ScriptFonts.set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
    #expect(line.faces[line.glyphs[0].font] === ScriptFonts.symbola)
    #expect(line.glyphs[0].glyph == ScriptFonts.symbola.glyph(for: "👍"))
  }

  @Test static func rightToLeftTruncationCutsTheLogicalEnd() {
    let text = "مرحبا بالعالم الجميل جدا"
    let full = TextLayout(text, fonts: ScriptFonts.set, weight: .regular, pixelSize: 30, maxWidth: 1e6)
    let cut = TextLayout(text, fonts: ScriptFonts.set, weight: .regular, pixelSize: 30, maxWidth: full.width / 2)
    #expect(cut.isTruncated)
    #expect(cut.width <= full.width / 2)
    // The ellipsis ends the line logically: at the left end of an RTL line.
    #expect(cut.glyphs.first?.glyph == TestFonts.dejaVu.glyph(for: "\u{2026}"))
    // The kept start of the text is at the right, as in the full line.
    #expect(cut.glyphs.last?.cluster == 0)
  }

  @Test static func aRightToLeftLineCutToItsNumbersStaysRightToLeft() {
    // Its first strong character is Arabic: the paragraph is right to left
    // however little of it is kept, as UILabel truncates the typeset line.
    let text = "1234567890 مرحبا بالعالم"
    let digits = TextLayout("123456", fonts: ScriptFonts.set, weight: .regular, pixelSize: 30, maxWidth: 1e6)
    let ellipsis = TextLayout("\u{2026}", fonts: ScriptFonts.set, weight: .regular, pixelSize: 30, maxWidth: 1e6)
    let cut = TextLayout(
      text, fonts: ScriptFonts.set, weight: .regular, pixelSize: 30, maxWidth: digits.width + ellipsis.width + 1)
    #expect(cut.isTruncated)
    #expect(cut.isRightToLeft)
    #expect(cut.glyphs.map(\.cluster) == [6, 0, 1, 2, 3, 4, 5])
    // Natural alignment puts it at the right edge, as the whole line is:
    // the 10 pixels a seventh digit does not fit in are on its left.
    let style = TextStyle(size: 30, color: .black, alignment: .natural)
    let width = (digits.width + ellipsis.width + 10).rounded()
    let label = Ink(Label(text, style: style).render(size: Size(width: width, height: 44), scale: 1, fonts: ScriptFonts.set))
    let rightAligned = label.minX >= 8 && label.maxX >= Int(width) - 4
    #expect(rightAligned)
  }
}

@Suite enum LanguageFontTests {
  static let japanese = try! Font(data: TestFonts.read("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"), faceIndex: 0)
  /// `ja`'s cascade, as FontLibrary gives it: the Japanese face after the system font, before the SC face.
  static let japaneseCascade = FontSet(regular: [TestFonts.dejaVu, japanese, TestFonts.cjk])

  @Test static func japaneseKanjiTakeTheJapaneseFace() {
    var set = TestFonts.set
    set.cascades["ja"] = japaneseCascade
    let ja = TextLayout("直 A", fonts: set, weight: .regular, language: "ja", pixelSize: 40, maxWidth: 1e6)
    let plain = TextLayout("直 A", fonts: set, weight: .regular, pixelSize: 40, maxWidth: 1e6)
    #expect(ja.faces[ja.glyphs[0].font] === japanese)
    #expect(plain.faces[plain.glyphs[0].font] === TestFonts.cjk)
    // Latin in Japanese text keeps the cascade's font.
    #expect(ja.faces[ja.glyphs[2].font] === TestFonts.dejaVu)
  }

  /// The digits, spaces and Latin punctuation beside Japanese text are the
  /// system font's, as SF draws every character it has in any language;
  /// the language's face draws what the system font lacks: kana, kanji,
  /// 、。「」, fullwidth forms, and the marks on what it draws. They took
  /// Noto Sans CJK JP's narrower digits and wider space in `ja`, before or
  /// after Japanese ("1234 ファイル", "写真 1234", "3分前").
  @Test static func digitsAndSpacesBesideJapaneseAreTheSystemFonts() {
    var set = TestFonts.set
    set.cascades["ja"] = japaneseCascade
    func faces(_ text: String) -> [String] {
      let line = ShapedLine(text.unicodeScalars.map(\.value), fonts: set, weight: .regular, language: "ja", pixelSize: 40)
      return line.glyphs.sorted { $0.cluster < $1.cluster }.map { line.faces[$0.font] === japanese ? "J" : line.faces[$0.font] === TestFonts.dejaVu ? "D" : "?" }
    }
    #expect(faces("1234 ファイル") == ["D", "D", "D", "D", "D", "J", "J", "J", "J"])
    #expect(faces("写真 1,234…") == ["J", "J", "D", "D", "D", "D", "D", "D", "D"])
    #expect(faces("3分前に同期しました") == ["D"] + Array(repeating: "J", count: 9))
    #expect(faces("「写真」、１２。") == Array(repeating: "J", count: 8))
    // A combining voiced mark stays with the kana it is on (one glyph or two).
    let marked = faces("か\u{3099} 1")
    #expect(marked.first == "J" && marked.suffix(2) == ["D", "D"] && !marked.dropLast(2).contains("D"))
    // The same digits draw the same pixels beside Japanese as alone, the
    // line perhaps lower: its box is as tall as its tallest font's.
    let style = TextStyle(size: 30, alignment: .left, language: "ja")
    let digits = Label("1234", style: style).render(size: Size(width: 200, height: 44), scale: 1, fonts: set)
    let mixed = Label("1234 ファイル", style: style).render(size: Size(width: 200, height: 44), scale: 1, fonts: set)
    let width = Int(TextLayout("1234", fonts: set, weight: .regular, pixelSize: 30, maxWidth: 1e6).width)
    let same = (-8...8).contains { dy in
      (0..<44).allSatisfy { y in (0..<width).allSatisfy { x in digits[x, y] == mixed[x, min(max(y + dy, 0), 43)] } }
    }
    #expect(same)
  }

  @Test static func theAppsOwnFontDrawsBeforeTheLanguagesFace() {
    // The app's font (here Noto Sans CJK's SC face) draws every character
    // it has, in Japanese text too: the language's face stands behind it.
    var set = TestFonts.set
    set.cascades["ja"] = japaneseCascade
    set.named["app"] = FontSet(regular: [TestFonts.cjk])
    let own = TextLayout("直す", fonts: set.using("app"), weight: .regular, language: "ja", pixelSize: 40, maxWidth: 1e6)
    let ownFaces = own.glyphs.map { own.faces[$0.font] === TestFonts.cjk }
    #expect(ownFaces == [true, true])
    let system = TextLayout("直す", fonts: set, weight: .regular, language: "ja", pixelSize: 40, maxWidth: 1e6)
    let systemFaces = system.glyphs.map { system.faces[$0.font] === japanese }
    #expect(systemFaces == [true, true])
  }
}
