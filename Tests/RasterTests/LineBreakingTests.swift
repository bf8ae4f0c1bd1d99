// Labels that wrap (`lines` ≠ 1, UILabel's numberOfLines): where lines break
// in English (after spaces, greedily), Japanese (between ideographs and
// kana, never before 。), Thai (between dictionary words) and Arabic (right
// to left, right-aligned, the first words on the top line); truncation of
// the last line; the block centred in the frame.

import Geometry
import Testing

@testable import Raster

@Suite enum LineBreakingTests {
  static func lines(
    _ text: String, fonts: FontSet, width: Double, pixelSize: Double = 20, language: String? = nil, maxLines: Int = 0,
    height: Double = 10_000
  ) -> [String] {
    TextBlock(
      text, fonts: fonts, weight: .regular, language: language, pixelSize: pixelSize, maxWidth: width,
      maxLines: maxLines, maxHeight: height
    ).lines.map { String(String.UnicodeScalarView($0.scalars.compactMap(Unicode.Scalar.init))) }
  }

  static let sentence = "The quick brown fox jumps over the lazy dog and keeps on running far away"

  @Test static func englishBreaksAtTheLastSpaceThatFits() {
    let width = 150.0
    let result = lines(sentence, fonts: TestFonts.latinOnly, width: width)
    #expect(result.count > 3)
    #expect(result.joined(separator: " ") == sentence)
    #expect(result.last == "far away")
    func measured(_ s: String) -> Double {
      Label(s, style: TextStyle(size: 20)).width(scale: 1, fonts: TestFonts.latinOnly)
    }
    for (i, line) in result.enumerated() {
      #expect(measured(line) <= width, "line \(i) '\(line)' is wider than the frame")
      // Greedy: the next line's first word would not have fitted; but the
      // line above the last, which gave its last word to the last line's
      // one ("far away", pushed out: noWordIsLeftAloneOnTheLastLine).
      if i + 2 < result.count {
        let next = result[i + 1].split(separator: " ")[0]
        #expect(measured(line + " " + next) > width, "'\(next)' fits on line \(i) '\(line)'")
      }
    }
  }

  /// UILabel leaves no word alone on a paragraph's last line (its standard
  /// line-break strategy pushes out the line above, since iOS 11): where
  /// greedy filling would leave one, the last word of the line above goes
  /// down with it, if the two fit; each paragraph on its own. Text with no
  /// spaces to break at (Japanese) and a last line that is a cut word's
  /// rest are filled greedily.
  @Test static func noWordIsLeftAloneOnTheLastLine() {
    func measured(_ s: String) -> Double { Label(s, style: TextStyle(size: 20)).width(scale: 1, fonts: TestFonts.latinOnly) }
    let text = "Share your photos with friends"
    // Just too narrow for the whole text: greedy filling would leave "friends" alone.
    let width = measured("Share your photos with") + 1
    let ok = measured(text) > width && measured("with friends") <= width
    #expect(ok)
    #expect(lines(text, fonts: TestFonts.latinOnly, width: width) == ["Share your photos", "with friends"])
    // Each paragraph on its own; the last line of two words is left as it is.
    #expect(
      lines(text + "\nand family too", fonts: TestFonts.latinOnly, width: width)
        == ["Share your photos", "with friends", "and family too"])
    #expect(lines("Share your photos with two friends", fonts: TestFonts.latinOnly, width: width) == [
      "Share your photos with", "two friends",
    ])
    // The two words would not fit one line: the word stays alone.
    let narrow = measured("photos") + 1
    let alone = lines("Share photos extraordinarily", fonts: TestFonts.latinOnly, width: measured("extraordinarily") + 1)
    #expect(alone == ["Share photos", "extraordinarily"])
    // A line above of one word has none to give.
    #expect(lines("photos dogs", fonts: TestFonts.latinOnly, width: narrow) == ["photos", "dogs"])
    // An orphan after a line that was the end of a cut word is left too.
    #expect(lines("Supercalifragilistic ok", fonts: TestFonts.latinOnly, width: 80).last?.hasSuffix(" ok") == true)
  }

  @Test static func aWordWiderThanTheLineIsCutBetweenLetters() {
    let result = lines("Supercalifragilistic ok", fonts: TestFonts.latinOnly, width: 80)
    #expect(result.count >= 3)
    // The word is cut where the line is full; the rest wraps as usual.
    #expect(result.joined() == "Supercalifragilistic ok")
    #expect(result.dropLast().allSatisfy { !$0.contains(" ") })
    #expect(result.last?.hasSuffix(" ok") == true)
  }

  /// A soft hyphen is where a long word may break, and a line broken there
  /// ends in a hyphen (TextKit's, and a browser's); one not broken at shows
  /// nothing. The hyphen counts in the line's width.
  @Test static func aLineBrokenAtASoftHyphenShowsAHyphen() {
    func measured(_ s: String) -> Double { Label(s, style: TextStyle(size: 20)).width(scale: 1, fonts: TestFonts.latinOnly) }
    let word = "extra\u{AD}ordinary"
    let hyphenated = measured("extra\u{2010}")
    let broken = lines(word, fonts: TestFonts.latinOnly, width: max(hyphenated, measured("ordinary")) + 1)
    #expect(broken == ["extra\u{2010}", "ordinary"])
    // Too narrow for the hyphen too: the word is cut where the line is full, no hyphen.
    let cut = lines(word, fonts: TestFonts.latinOnly, width: hyphenated - 1)
    #expect(!cut.contains { $0.contains("\u{2010}") }, "\(cut)")
    // A soft hyphen beside a space or at the start splits no word: no hyphen, no line of its own.
    let narrow = measured("Schifffahrt") + 1
    #expect(lines("Donau\u{AD} Schifffahrt", fonts: TestFonts.latinOnly, width: narrow) == ["Donau\u{AD}", "Schifffahrt"])
    #expect(lines("Donau \u{AD}Schifffahrt", fonts: TestFonts.latinOnly, width: narrow) == ["Donau", "\u{AD}Schifffahrt"])
    #expect(!lines("\u{AD}Schifffahrtsgesellschaft", fonts: TestFonts.latinOnly, width: narrow).contains { $0 == "\u{2010}" || $0 == "\u{AD}" })
    // Wide enough for the whole word: one line, the soft hyphen invisible in it.
    let whole = lines(word, fonts: TestFonts.latinOnly, width: 1000)
    #expect(whole == [word] && measured(word) == measured("extraordinary"))
  }

  /// A line never ends inside a grapheme cluster (the stage sweep): UAX #14
  /// reads an accent on a space as a letter and may break before it, and
  /// "a \u{301}b" too narrow for one line wrapped as "a " and "\u{301}b",
  /// the accent starting its line on a dotted circle; the accent is its
  /// space's cluster, as CoreText keeps it, so the text is cut between
  /// whole clusters. A break between clusters is kept ("a \u{301} b").
  @Test static func aLineNeverEndsInsideAGraphemeCluster() {
    func breaks(_ text: String) -> [Int] { LineBreaks.opportunities(text.unicodeScalars.map(\.value), language: nil) }
    #expect(breaks("a \u{301}b") == [4])
    #expect(breaks("a \u{301} b") == [4, 5])
    #expect(breaks("ab cd") == [3, 5])
    func measured(_ s: String) -> Double { Label(s, style: TextStyle(size: 20)).width(scale: 1, fonts: TestFonts.latinOnly) }
    let wrapped = lines("a \u{301}b", fonts: TestFonts.latinOnly, width: measured("a") + 1)
    #expect(wrapped.count > 1 && wrapped.joined() == "a \u{301}b", "\(wrapped)")
    #expect(!wrapped.contains { $0.unicodeScalars.first == "\u{301}" }, "\(wrapped)")
    #expect(lines("a \u{301} b", fonts: TestFonts.latinOnly, width: measured("a \u{301}") + 1) == ["a \u{301}", "b"])
  }

  /// A line the breaker chose is drawn whole, never ending in "…" (the
  /// locales sweep): "Multi-" fits 55 px as the paragraph measures it
  /// (the hyphen kerned against "Y") but is 2 px wider alone, and was
  /// drawn "Mu…"; the pieces of an Arabic word cut between letters take
  /// their final and initial forms, wider than in the word, and lost
  /// letters to "…". Only a last line with text left over ends in "…".
  @Test static func aLineTheBreakerChoseIsDrawnWhole() {
    let latin = TextBlock(
      "Multi-Year plan", fonts: TestFonts.latinOnly, weight: .regular, language: nil, pixelSize: 20, maxWidth: 55,
      maxLines: 0, maxHeight: 10_000)
    #expect(latin.lines.map { String(String.UnicodeScalarView($0.scalars.compactMap(Unicode.Scalar.init))) } == ["Multi-", "Year", "plan"])
    #expect(latin.lines.allSatisfy { !$0.layout.isTruncated })
    #expect(latin.lines[0].layout.glyphs.last?.glyph == TestFonts.dejaVu.glyph(for: "-"))
    // Drawn left-aligned, the first line's ink is the same as with room to spare.
    let style = TextStyle(size: 20, alignment: .left, lines: 0)
    let narrow = Label("Multi-Year plan", style: style).render(size: Size(width: 55, height: 90), scale: 1, fonts: TestFonts.latinOnly)
    let wide = Label("Multi-\nYear\nplan", style: style).render(size: Size(width: 80, height: 90), scale: 1, fonts: TestFonts.latinOnly)
    let same = (0..<90).allSatisfy { y in (0..<55).allSatisfy { x in narrow[x, y] == wide[x, y] } }
    #expect(same, "the wrapped lines are not drawn as the same lines with room")

    let word = "والاستراتيجيات"
    let fonts = FontSet(regular: [ScriptFonts.arabic])
    let arabic = TextBlock(word, fonts: fonts, weight: .regular, language: "ar", pixelSize: 20, maxWidth: 50, maxLines: 0, maxHeight: 10_000)
    #expect(arabic.lines.count >= 2)
    #expect(arabic.lines.flatMap(\.scalars) == word.unicodeScalars.map(\.value))
    for line in arabic.lines {
      #expect(!line.layout.isTruncated && line.layout.width <= 50, "\(line.scalars): \(line.layout.width) px")
    }
  }

  /// A caption's lines (`Label.wrapped`) are one-line labels drawn whole.
  @Test static func wrappedLinesAreDrawnWhole() {
    let label = Label("Multi-Year plan", style: TextStyle(size: 20, alignment: .left))
    let lines = label.wrapped(width: 55, scale: 1, fonts: TestFonts.latinOnly).lines
    #expect(lines.map(\.text) == ["Multi-", "Year", "plan"])
    let first = lines[0].render(size: Size(width: 55, height: 30), scale: 1, fonts: TestFonts.latinOnly)
    let wide = Label("Multi-", style: label.style).render(size: Size(width: 80, height: 30), scale: 1, fonts: TestFonts.latinOnly)
    let same = (0..<30).allSatisfy { y in (0..<55).allSatisfy { x in first[x, y] == wide[x, y] } }
    #expect(same, "the caption's first line is not 'Multi-'")
  }

  @Test static func japaneseBreaksBetweenCharactersButNotBeforeAFullStop() {
    // Every character here is one em (20 px) wide: five fit in 110 px.
    let result = lines("吾輩は猫である。名前はまだ無い。", fonts: FontSet(regular: [LanguageFontTests.japanese]), width: 110, language: "ja")
    #expect(result == ["吾輩は猫で", "ある。名前", "はまだ無", "い。"])
  }

  @Test static func thaiBreaksBetweenDictionaryWords() {
    // "สวัสดีครับ" is two words, สวัสดี and ครับ: too narrow for both, the
    // line ends between them rather than inside one.
    let text = "สวัสดีครับ"
    let fonts = FontSet(regular: [ScriptFonts.thai])
    let full = Label(text, style: TextStyle(size: 20)).width(scale: 1, fonts: fonts)
    #expect(lines(text, fonts: fonts, width: full - 1, language: "th") == ["สวัสดี", "ครับ"])
  }

  @Test static func koreanBreaksBetweenWordsNotSyllables() {
    // UAX #14 allows a break between any two Hangul syllables; UIKit keeps
    // Korean words whole (hangulWordPriority).
    let text = "한국어 텍스트는 단어 사이에서 바꿉니다"
    let result = lines(text, fonts: FontSet(regular: [TestFonts.cjk]), width: 150, language: "ko")
    #expect(result.count >= 2)
    #expect(result.joined(separator: " ") == text)
  }

  @Test static func arabicWrapsRightToLeftWithItsFirstWordsOnTop() {
    let text = "مرحبا بالعالم من جديد اليوم"
    let fonts = FontSet(regular: [ScriptFonts.arabic])
    let result = lines(text, fonts: fonts, width: 130, language: "ar")
    #expect(result.count >= 2)
    #expect(result.joined(separator: " ") == text)
    #expect(result[0].hasPrefix("مرحبا"))
    // Natural alignment: every line's ink ends at the frame's right edge.
    let style = TextStyle(size: 20, language: "ar", lines: 0)
    let bitmap = Label(text, style: style).render(size: Size(width: 130, height: 200), scale: 1, fonts: fonts)
    let bands = inkBands(bitmap)
    #expect(bands.count == result.count)
    for band in bands {
      #expect(band.maxX >= 126, "a line ends at \(band.maxX), not at the right edge")
    }
    // The top line is the first words: as wide as they are alone.
    let firstWidth = Label(result[0], style: TextStyle(size: 20)).width(scale: 1, fonts: fonts)
    #expect(abs(Double(bands[0].maxX - bands[0].minX + 1) - firstWidth) < 4)
  }

  /// Levels come from the whole paragraph, lines are reordered each on
  /// its own (UAX #9; the locales sweep): in "التاريخ 2024-05-12 للنسخة"
  /// the date's digits follow Arabic letters, so they are Arabic numbers
  /// and its hyphens run right to left ("12-05-2024" on one line); cut
  /// after "2024-05-", that line reads "-05-2024", as Chromium draws it
  /// with the same font and width. Alone, the line was a European number
  /// and read "-2024-05". A caption's lines (`Label.wrapped`) carry the
  /// paragraph's levels and draw the same.
  @Test static func linesAreOrderedByTheirParagraphsLevels() {
    let text = "التاريخ 2024-05-12 للنسخة"
    let block = TextBlock(
      text, fonts: ScriptFonts.set, weight: .regular, language: "ar", pixelSize: 22, maxWidth: 100, maxLines: 0,
      maxHeight: 10_000)
    func string(_ scalars: [UInt32]) -> String { String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init))) }
    let lines = block.lines.map { string($0.scalars) }
    #expect(lines == ["التاريخ", "2024-05-", "12 للنسخة"])
    guard lines.count == 3 else { return }
    // Left to right on the page.
    let visual = string(block.lines[1].layout.glyphs.map { block.lines[1].scalars[$0.cluster] })
    #expect(visual == "-05-2024")
    let one = TextLayout("2024-05-", fonts: ScriptFonts.set, weight: .regular, language: "ar", pixelSize: 22, maxWidth: 1000)
    #expect(string(one.glyphs.map { Array("2024-05-".unicodeScalars.map(\.value))[$0.cluster] }) == "2024-05-")

    let label = Label(text, style: TextStyle(size: 22, language: "ar"))
    let wrapped = label.wrapped(width: 100, scale: 1, fonts: ScriptFonts.set).lines
    #expect(wrapped.map(\.text) == lines)
    let size = Size(width: 100, height: 30)
    var drawn = Label("-05-2024", style: TextStyle(size: 22, alignment: .right))
    drawn.rightToLeft = false
    let same = wrapped[1].render(size: size, scale: 1, fonts: ScriptFonts.set) == drawn.render(size: size, scale: 1, fonts: ScriptFonts.set)
    #expect(same, "the caption's line does not read -05-2024")
  }

  @Test static func theLastAllowedLineEndsInAnEllipsis() {
    let block = TextBlock(
      sentence, fonts: TestFonts.latinOnly, weight: .regular, language: nil, pixelSize: 20, maxWidth: 150, maxLines: 2,
      maxHeight: 10_000)
    #expect(block.lines.count == 2)
    #expect(!block.lines[0].layout.isTruncated)
    #expect(block.lines[1].layout.isTruncated)
    #expect(block.lines[1].layout.width <= 150)
    let ellipsis = TestFonts.dejaVu.glyph(for: "…")
    #expect(block.lines[1].layout.glyphs.last?.glyph == ellipsis)
  }

  @Test static func unlimitedLinesStopAtTheFrameHeight() {
    // DejaVu's line is 1.164 em: three 20 px lines (69.8 px) fit in 75.
    let result = lines(sentence, fonts: TestFonts.latinOnly, width: 150, height: 75)
    #expect(result.count == 3)
    let block = TextBlock(
      sentence, fonts: TestFonts.latinOnly, weight: .regular, language: nil, pixelSize: 20, maxWidth: 150, maxLines: 0,
      maxHeight: 75)
    #expect(block.lines[2].layout.isTruncated)
  }

  @Test static func lineBreaksStartNewParagraphs() {
    #expect(lines("One\nTwo\r\nThree", fonts: TestFonts.latinOnly, width: 500) == ["One", "Two", "Three"])
    // With more text below than lines allowed, the last line says so.
    let block = TextBlock(
      "One\nTwo\nThree", fonts: TestFonts.latinOnly, weight: .regular, language: nil, pixelSize: 20, maxWidth: 500,
      maxLines: 2, maxHeight: 10_000)
    #expect(block.lines.count == 2 && block.lines[1].layout.isTruncated)
  }

  @Test static func aBreakThatEndsTheTextStartsNoLine() {
    #expect(lines("Done\n", fonts: TestFonts.latinOnly, width: 500) == ["Done"])
    #expect(lines("Done\r\n", fonts: TestFonts.latinOnly, width: 500) == ["Done"])
    #expect(lines("Done\n\n", fonts: TestFonts.latinOnly, width: 500) == ["Done", ""])
    #expect(lines("\n", fonts: TestFonts.latinOnly, width: 500) == [""])
    // So it sits where the same text without the break sits, centred in its frame.
    let style = TextStyle(size: 20, lines: 0)
    let size = Size(width: 150, height: 120)
    let plain = Label("Done", style: style).render(size: size, scale: 1, fonts: TestFonts.latinOnly)
    let broken = Label("Done\n", style: style).render(size: size, scale: 1, fonts: TestFonts.latinOnly)
    let same = plain == broken
    #expect(same)
  }

  @Test static func theLinesAreCentredInTheFrameWithTheFontsLineHeight() {
    let style = TextStyle(size: 20, lines: 0)
    let bitmap = Label(sentence, style: style).render(size: Size(width: 150, height: 300), scale: 1, fonts: TestFonts.latinOnly)
    let bands = inkBands(bitmap)
    let count = lines(sentence, fonts: TestFonts.latinOnly, width: 150).count
    #expect(bands.count == count, "\(bands)")
    // Baselines one line height apart (1.164 em at 20 px), within rounding.
    let lineHeight = (TestFonts.dejaVu.ascender + TestFonts.dejaVu.descender + TestFonts.dejaVu.lineGap) * 20
    #expect(abs(lineHeight - 23.28) < 0.01)
    let ink = Ink(bitmap)
    #expect(abs(Double(ink.maxY + ink.minY) / 2 - 150) < lineHeight / 2, "the block is not centred")
    // A single line of lines: 1 and of lines: 0 sit at the same place.
    let one = Label("Hello", style: TextStyle(size: 20)).render(size: Size(width: 150, height: 44), scale: 1, fonts: TestFonts.latinOnly)
    let many = Label("Hello", style: style).render(size: Size(width: 150, height: 44), scale: 1, fonts: TestFonts.latinOnly)
    #expect(one == many)
  }

  /// Rows of ink separated by more than three blank rows (a j's dot
  /// belongs to its line): each line's box.
  static func inkBands(_ b: Bitmap) -> [(minY: Int, maxY: Int, minX: Int, maxX: Int)] {
    var bands: [(minY: Int, maxY: Int, minX: Int, maxX: Int)] = []
    var open = false
    for y in 0..<b.height {
      let xs = (0..<b.width).filter { b[$0, y].a > 64 }
      if let first = xs.first, let last = xs.last {
        if open || (bands.last.map { y - $0.maxY <= 4 } ?? false) {
          bands[bands.count - 1].maxY = y
          bands[bands.count - 1].minX = min(bands[bands.count - 1].minX, first)
          bands[bands.count - 1].maxX = max(bands[bands.count - 1].maxX, last)
        } else {
          bands.append((y, y, first, last))
        }
        open = true
      } else {
        open = false
      }
    }
    return bands
  }
}
