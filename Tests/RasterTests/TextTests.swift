// Labels through FreeType: ink where the glyphs are, alignment, truncation,
// CJK fallback, weight and determinism. Uses the fonts scripts/bootstrap
// installs (fonts-dejavu-core, fonts-noto-cjk).

#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing

@testable import Raster

enum TestFonts {
  static func read(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
      bytes += chunk.prefix(n)
      if n < chunk.count { break }
    }
    return bytes
  }

  static let dejaVu = try! Font(data: read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
  static let dejaVuBold = try! Font(data: read("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"))
  static let cjk = try! Font(data: read("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"), faceIndex: 2)
  static let set = FontSet(regular: [dejaVu, cjk], bold: [dejaVuBold, cjk])
  static let latinOnly = FontSet(regular: [dejaVu], bold: [dejaVuBold])
}

/// Ink statistics of a label bitmap: total alpha and the inked box.
struct Ink {
  var total = 0
  var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min

  init(_ b: Bitmap, threshold: UInt8 = 0) {
    for y in 0..<b.height {
      for x in 0..<b.width {
        let a = b[x, y].a
        total += Int(a)
        if a > threshold {
          minX = min(minX, x)
          maxX = max(maxX, x)
          minY = min(minY, y)
          maxY = max(maxY, y)
        }
      }
    }
  }

  var isEmpty: Bool { total == 0 }
  var centerX: Double { Double(minX + maxX) / 2 }
  var centerY: Double { Double(minY + maxY) / 2 }
}

@Suite enum TextTests {
  static let size = Size(width: 200, height: 44)

  @Test static func fontsOpen() {
    #expect(TestFonts.dejaVu.familyName == "DejaVu Sans")
    #expect(TestFonts.dejaVuBold.styleName == "Bold")
    #expect(TestFonts.cjk.familyName == "Noto Sans CJK SC")
    #expect(TestFonts.dejaVu.hasKerning)
  }

  @Test static func badFontDataThrows() {
    #expect(throws: FontError.self) { try Font(data: [1, 2, 3, 4]) }
    #expect(throws: FontError.self) { try Font(data: []) }
  }

  @Test static func inkIsColouredAndCentredVertically() {
    let red = Color(red: 1, green: 0, blue: 0)
    let b = Label("Photos", style: TextStyle(size: 17, color: red)).render(size: size, scale: 2, fonts: TestFonts.set)
    #expect(b.width == 400 && b.height == 88)
    let ink = Ink(b)
    #expect(!ink.isEmpty)
    // Left-aligned: ink starts at the left edge (P's stem, a pixel or two in).
    #expect(ink.minX <= 6)
    // Cap height and descender-free word sit around the middle.
    #expect(abs(ink.centerY - 44) < 8)
    // Premultiplied red: green and blue stay 0, red equals alpha.
    for y in 0..<b.height {
      for x in 0..<b.width {
        let p = b[x, y]
        #expect(p.g == 0 && p.b == 0 && p.r == p.a)
      }
    }
    // A fully covered pixel exists (the P's stem at 34 px per em).
    #expect(b.bytes.enumerated().contains { $0.offset % 4 == 3 && $0.element == 255 })
  }

  @Test static func alignmentMovesTheInk() {
    func ink(_ a: TextAlignment) -> Ink {
      Ink(Label("Edit", style: TextStyle(alignment: a)).render(size: size, scale: 1, fonts: TestFonts.set))
    }
    let left = ink(.left), center = ink(.center), right = ink(.right)
    #expect(left.minX <= 3)
    #expect(right.maxX >= 196 && right.maxX <= 199)
    #expect(abs(center.centerX - 100) <= 2)
    // Same glyphs, same widths.
    #expect(left.maxX - left.minX == right.maxX - right.minX)
    #expect(left.total == right.total)
  }

  /// A one-line label's trailing white space hangs past the line's end, as
  /// UILabel's (TextKit's) does (the views sweep): "ab    " right-aligned
  /// drew "ab" 22 pt left of the edge, centred 11 pt left of the centre, and
  /// "abcdef" followed by spaces was cut to "abcd…" in a frame "abcdef" fits.
  /// Leading white space still moves the text.
  @Test static func trailingWhiteSpaceHangsPastTheLineEnd() {
    let size = Size(width: 200, height: 30)
    func render(_ text: String, _ alignment: TextAlignment, rightToLeftLayout: Bool = false, width: Double = 200) -> Bitmap {
      var style = TextStyle(size: 17, alignment: alignment)
      style.rightToLeftLayout = rightToLeftLayout
      return Label(text, style: style).render(size: Size(width: width, height: size.height), scale: 1, fonts: TestFonts.latinOnly)
    }
    for alignment in [TextAlignment.left, .center, .right, .natural] {
      let trailing = render("ab    ", alignment) == render("ab", alignment)
      #expect(trailing, "\(alignment)")
      let tab = render("ab\t \u{A0}\n", alignment) == render("ab", alignment)
      #expect(tab, "\(alignment), a tab, a no-break space and a line break")
    }
    // Natural alignment in a right-to-left interface: "ab" at the right edge.
    let natural = render("ab    ", .natural, rightToLeftLayout: true) == render("ab", .right)
    #expect(natural)
    // Text that fits is not cut for the spaces after it.
    let fits = render("abcdef            ", .left, width: 60) == render("abcdef", .left, width: 60)
    #expect(fits)
    #expect(Ink(render("abcdef", .left, width: 60)).maxX < 60)
    // Leading spaces are text: they move it.
    #expect(Ink(render("   ab", .left)).minX > Ink(render("ab", .left)).minX + 10)
    // Only spaces draw nothing.
    #expect(Ink(render("     ", .right)).isEmpty)
  }

  /// Text fits a frame of fractional pixels as UILabel fits it, by the
  /// frame's width (the views sweep): "Hello" at 17 pt is 43.09 pt, 129.27
  /// pixels at 3x; a 43.1-pt frame holds it, but it was measured against
  /// the bitmap's 129 whole columns, so it ended "Hell…", and a wrapped
  /// label cut the word.
  @Test static func aFractionalFrameHoldsTextUpToItsEdge() throws {
    let scale = 3.0, height = 30.0
    let width = Label("Hello", style: TextStyle(size: 17)).width(scale: scale, fonts: TestFonts.latinOnly)
    // A frame 0.05 pixels wider than the text, whose bitmap rounds down below it.
    let frame = width + 0.05 / scale
    try #require((frame * scale).rounded() < width * scale)
    let columns = Int((frame * scale).rounded())
    for lines in [1, 0] {
      let style = TextStyle(size: 17, alignment: .left, lines: lines)
      let label = Label("Hello", style: style)
      let fitted = label.render(size: Size(width: frame, height: height), scale: scale, fonts: TestFonts.latinOnly)
      let wide = label.render(size: Size(width: 100, height: height), scale: scale, fonts: TestFonts.latinOnly)
      #expect(fitted.width == columns)
      #expect(fitted == crop(wide, x: 0, width: columns), "lines: \(lines)")
    }
  }

  @Test static func truncationEndsInEllipsisWithinTheFrame() {
    let text = "A rather long title that cannot fit in the frame"
    let style = TextStyle(size: 17)
    let line = TextLayout(text, fonts: TestFonts.latinOnly.regular, pixelSize: 17, maxWidth: 120)
    #expect(line.isTruncated)
    #expect(line.width <= 120)
    #expect(line.glyphs.last?.glyph == TestFonts.dejaVu.glyph(for: "\u{2026}"))
    // Cut between characters, as UILabel's tail truncation does: "A rather lon…".
    #expect(line.glyphs.count == 13)
    #expect(line.glyphs.dropLast().last?.isWhitespace == false)
    // A space just before the cut is dropped: "A…", not "A …".
    let a = TextLayout("A rather", fonts: TestFonts.latinOnly.regular, pixelSize: 17, maxWidth: 40)
    #expect(a.glyphs.count == 2)
    let fits = TextLayout("Short", fonts: TestFonts.latinOnly.regular, pixelSize: 17, maxWidth: 120)
    #expect(!fits.isTruncated)

    let b = Label(text, style: style).render(size: Size(width: 120, height: 30), scale: 1, fonts: TestFonts.set)
    let ink = Ink(b)
    #expect(ink.maxX < 120)
    #expect(ink.maxX > 100)
    // The ellipsis dots sit on the baseline: ink in the last columns is low.
    let dots = Ink(crop(b, x: Int(line.glyphs.last!.x), width: 120 - Int(line.glyphs.last!.x)))
    #expect(!dots.isEmpty)
    #expect(dots.minY > 15)
  }

  @Test static func chineseDrawsWithTheCJKFont() {
    let style = TextStyle(size: 17)
    let line = TextLayout("设置 Photos 照片", fonts: TestFonts.set.regular, pixelSize: 17, maxWidth: 1000)
    #expect(line.glyphs.map(\.font) == [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1])
    // A CJK character is one em wide in Noto Sans CJK.
    #expect(abs(line.glyphs[0].advance - 17) < 0.01)
    let cjk = Ink(Label("设置", style: style).render(size: size, scale: 2, fonts: TestFonts.set))
    #expect(cjk.total > 255 * 100)
    // Without a CJK font the characters are missing-glyph boxes from DejaVu, not nothing,
    // and differ from the real glyphs.
    let boxes = Label("设置", style: style).render(size: size, scale: 2, fonts: TestFonts.latinOnly)
    #expect(boxes != Label("设置", style: style).render(size: size, scale: 2, fonts: TestFonts.set))
  }

  /// A one-line label's line is as tall as its tallest font, as UILabel's
  /// is: "OK 写真", whose CJK face (ascender 1.16 em, descender 0.288)
  /// is taller than DejaVu (0.928, 0.236), is centred by that face's box,
  /// so its "OK" sits (1.16 − 0.288 − 0.928 + 0.236) / 2 em = 3 px lower at
  /// 34 px than in "OK" alone, and it draws as the same text wrapped
  /// (`lines: 0`), one line either way, does.
  @Test static func aOneLineLabelIsAsTallAsItsTallestFont() {
    let scale = 2.0
    func label(_ text: String, lines: Int) -> Bitmap {
      Label(text, style: TextStyle(size: 17, lines: lines)).render(size: size, scale: scale, fonts: TestFonts.set)
    }
    let mixed = label("OK 写真", lines: 1)
    #expect(mixed == label("OK 写真", lines: 0))
    /// The inked rows of the first `columns` columns.
    func rows(_ b: Bitmap, columns: Int) -> ClosedRange<Int> {
      let inked = (0..<b.height).filter { y in (0..<columns).contains { b[$0, y].a > 0 } }
      return inked.first!...inked.last!
    }
    let alone = rows(label("OK", lines: 1), columns: 48), beside = rows(mixed, columns: 48)
    let cjk = TestFonts.cjk, latin = TestFonts.dejaVu
    let drop = ((cjk.ascender - cjk.descender) - (latin.ascender - latin.descender)) / 2 * 17 * scale
    #expect(drop.rounded() == 3)
    let moved = beside.lowerBound - alone.lowerBound == 3 && beside.upperBound - alone.upperBound == 3
    #expect(moved, "\(alone) \(beside)")
  }

  @Test static func boldHasMoreInk() {
    let regular = Ink(Label("Settings", style: TextStyle(weight: .regular)).render(size: size, scale: 2, fonts: TestFonts.set))
    let medium = Ink(Label("Settings", style: TextStyle(weight: .medium)).render(size: size, scale: 2, fonts: TestFonts.set))
    let semibold = Ink(Label("Settings", style: TextStyle(weight: .semibold)).render(size: size, scale: 2, fonts: TestFonts.set))
    let bold = Ink(Label("Settings", style: TextStyle(weight: .bold)).render(size: size, scale: 2, fonts: TestFonts.set))
    #expect(Double(bold.total) > Double(regular.total) * 1.2)
    #expect(medium.total == regular.total)
    #expect(semibold.total == bold.total)
    let cjkRegular = Ink(Label("照片", style: TextStyle(weight: .regular)).render(size: size, scale: 2, fonts: TestFonts.set))
    let cjkBold = Ink(
      Label("照片", style: TextStyle(weight: .bold)).render(
        size: size, scale: 2,
        fonts: FontSet(regular: TestFonts.set.regular, bold: [TestFonts.dejaVuBold, CJKBold.font])))
    #expect(cjkBold.total > cjkRegular.total)
  }

  enum CJKBold {
    static let font = try! Font(data: TestFonts.read("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"), faceIndex: 2)
  }

  @Test static func renderingIsDeterministic() {
    let label = Label("Hello, 世界 — Wave", style: TextStyle(size: 15.5, weight: .semibold, color: Color(red: 0, green: 0.48, blue: 1), alignment: .center))
    let a = label.render(size: Size(width: 150, height: 31), scale: 3, fonts: TestFonts.set)
    let b = label.render(size: Size(width: 150, height: 31), scale: 3, fonts: TestFonts.set)
    #expect(a == b)
    // A fresh set of faces gives the same bytes.
    let fresh = FontSet(
      regular: [try! Font(data: TestFonts.read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")), TestFonts.cjk],
      bold: [try! Font(data: TestFonts.read("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")), TestFonts.cjk])
    #expect(label.render(size: Size(width: 150, height: 31), scale: 3, fonts: fresh) == a)
  }

  @Test static func kerningTightensPairs() {
    // "AV" is kerned in DejaVu Sans: narrower than A's and V's advances.
    let av = TextLayout("AV", fonts: [TestFonts.dejaVu], pixelSize: 100, maxWidth: 1000)
    let a = TextLayout("A", fonts: [TestFonts.dejaVu], pixelSize: 100, maxWidth: 1000)
    let v = TextLayout("V", fonts: [TestFonts.dejaVu], pixelSize: 100, maxWidth: 1000)
    #expect(av.width < a.width + v.width - 1)
  }

  /// In a one-line label a line break is a space, and a CR LF pair is one
  /// break (it drew as two spaces).
  @Test static func aLineBreakInOneLineIsOneSpace() {
    func width(_ text: String) -> Double { TextLayout(text, fonts: [TestFonts.dejaVu], pixelSize: 50, maxWidth: 1000).width }
    #expect(width("a\r\nb") == width("a b") && width("a\nb") == width("a b") && width("a\rb") == width("a b"))
    #expect(width("a\r\n\r\nb") == width("a  b"))
    // So is each of the other line breaks wrapped text breaks at (the locales
    // sweep): "Line\u{2028}Sep\u{2029}Para\u{85}Nel" drew "LineSepParaNel".
    for separator in ["\u{2028}", "\u{2029}", "\u{85}"] {
      #expect(width("a\(separator)b") == width("a b"), "U+\(String(separator.unicodeScalars.first!.value, radix: 16))")
    }
    let size = Size(width: 400, height: 44)
    let one = Label("Line\u{2028}Sep\u{2029}Para\u{85}Nel", style: TextStyle(size: 20)).render(size: size, scale: 1, fonts: TestFonts.latinOnly)
    let spaced = Label("Line Sep Para Nel", style: TextStyle(size: 20)).render(size: size, scale: 1, fonts: TestFonts.latinOnly)
    let same = one == spaced
    #expect(same)
    // Wrapped, each is a break, as a line feed is.
    #expect(LineBreakingTests.lines("Line\u{2028}Sep\u{2029}Para\u{85}Nel", fonts: TestFonts.latinOnly, width: 500) == ["Line", "Sep", "Para", "Nel"])
  }

  /// A tab in a one-line label moves what follows to the next of UILabel's
  /// default tab stops, every 28 pt from the line's leading end
  /// (NSParagraphStyle), where it drew one space: "\tB" is "B" 28 pt on,
  /// pixel for pixel, "A\tB" as wide as 28 pt and a "B", past 28 pt the
  /// next stop (56); right to left from the right end. Wrapped text breaks
  /// with its tabs as spaces.
  @Test static func aTabMovesToTheNextTabStop() {
    let size = Size(width: 200, height: 44)
    for scale in [1.0, 2.0] {
      let style = TextStyle(size: 20)
      let tabbed = Label("\tB", style: style).render(size: size, scale: scale, fonts: TestFonts.latinOnly)
      let plain = Label("B", style: style).render(size: size, scale: scale, fonts: TestFonts.latinOnly)
      let shift = Int(28 * scale)
      var same = true
      for y in 0..<plain.height {
        for x in 0..<(plain.width - shift) where tabbed[x + shift, y] != plain[x, y] { same = false }
        for x in 0..<shift where tabbed[x, y].a != 0 { same = false }
      }
      #expect(same, "@\(scale)")
    }
    func width(_ text: String) -> Double { Label(text, style: TextStyle(size: 20)).width(scale: 1, fonts: TestFonts.latinOnly) }
    #expect(abs(width("A\tB") - (28 + width("B"))) < 1e-9)
    #expect(abs(width("AAA\tB") - (56 + width("B"))) < 1e-9, "\(width("AAA"))")
    #expect(abs(width("A\tB\tC") - (56 + width("C"))) < 1e-9)
    #expect(abs(width("\u{5D0}\t\u{5D1}") - (28 + width("\u{5D1}"))) < 1e-9)
    #expect(LineBreakingTests.lines("Tab\tStop", fonts: TestFonts.latinOnly, width: 500) == ["Tab Stop"])
  }

  @Test static func labelLayerCompositesWhereItsFrameIs() {
    var root = solidLayer(Rect(x: 0, y: 0, width: 100, height: 60), .white)
    root.sublayers = [Label("Hi", style: TextStyle(size: 20)).layer(frame: Rect(x: 50, y: 20, width: 50, height: 30), scale: 2, fonts: TestFonts.set)]
    let b = Compositor(scale: 2).snapshot(root)
    var dark = 0
    for y in 0..<b.height {
      for x in 0..<b.width where b[x, y].r < 128 {
        dark += 1
        #expect(x >= 100 && y >= 40)
      }
    }
    #expect(dark > 50)
  }

  @Test(.enabled(if: VisualDump.enabled, "writes PAM files for a look: set TRANSVID_DUMP=1"))
  static func dump() {
    var root = solidLayer(Rect(x: 0, y: 0, width: 240, height: 200), Color(red: 0.95, green: 0.95, blue: 0.97))
    let rows: [(String, TextStyle)] = [
      ("Photos", TextStyle(size: 17, weight: .semibold, alignment: .center)),
      ("Settings  设置  照片", TextStyle(size: 17)),
      ("AVATAR Wave Typography", TextStyle(size: 15, color: Color(red: 0, green: 0.48, blue: 1))),
      ("Bold headline 标题", TextStyle(size: 22, weight: .bold)),
      ("A rather long title that cannot fit", TextStyle(size: 17, alignment: .right)),
      ("secondary text · 12:30", TextStyle(size: 13, color: Color(red: 0.24, green: 0.24, blue: 0.26, alpha: 0.6))),
    ]
    for (i, (text, style)) in rows.enumerated() {
      root.sublayers.append(Label(text, style: style).layer(frame: Rect(x: 10, y: 8 + Double(i) * 31, width: 220, height: 30), scale: 3, fonts: TestFonts.set))
    }
    dumpPAM(Compositor(scale: 3).snapshot(root), "/tmp/transvid-raster-text@3x.pam")
    dumpPAM(Compositor(scale: 1).snapshot(root), "/tmp/transvid-raster-text@1x.pam")
  }

  @Test static func noFontsDrawNothing() {
    let b = Label("Photos").render(size: size, scale: 1, fonts: .empty)
    #expect(Ink(b).isEmpty)
  }

  static func crop(_ b: Bitmap, x: Int, width: Int) -> Bitmap {
    var out = Bitmap(width: width, height: b.height)
    for y in 0..<b.height {
      for i in 0..<width { out[i, y] = b[x + i, y] }
    }
    return out
  }
}
