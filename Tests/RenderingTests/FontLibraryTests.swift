// The fonts labels draw with: the faces scripts/bootstrap installs, and the
// error naming the package when one is missing.

#if canImport(Glibc)
  import Glibc
#endif
import Geometry
import Testing

@testable import Raster

@testable import Rendering

@Suite enum FontLibraryTests {
  @Test static func fontLibraryLoadsTheBootstrapFonts() throws {
    let fonts = try FontLibrary.system.get()
    #expect(fonts.regular.map(\.familyName) == ["DejaVu Sans", "Noto Sans CJK SC"])
    #expect(fonts.bold.map(\.styleName) == ["Bold", "Bold"])
    let missing = FontLibrary.FontFile(path: "/no/such/font.ttf", faceIndex: 0, package: "fonts-none")
    #expect(throws: FontLibrary.LoadError(file: missing, reason: "No such file or directory")) {
      try FontLibrary.font(missing)
    }
    #expect(
      FontLibrary.LoadError(file: missing, reason: "No such file or directory").description
        == "cannot load font '/no/such/font.ttf': No such file or directory (install fonts-none: scripts/bootstrap)")
  }

  /// Font files are mapped, not read: a mapped face draws what the same
  /// bytes read into memory draw; an empty file is FreeType's error, as read.
  @Test static func aMappedFontDrawsAsItsBytes() throws {
    let path = FontLibrary.latinRegular.path
    let mapped = try FontLibrary.font(FontLibrary.latinRegular)
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    let read = try Font(data: try FontLibrary.contents(of: fd, size: 0).get())
    #expect(mapped.familyName == "DejaVu Sans")
    func ink(_ font: Font) -> [UInt8] {
      Label("Harbour ffi 42", style: TextStyle(size: 30, alignment: .left))
        .render(size: Size(width: 260, height: 50), scale: 2, fonts: FontSet(regular: [font])).bytes
    }
    #expect(ink(mapped) == ink(read))
    #expect(ink(mapped).contains { $0 > 200 })
    let empty = "/tmp/transvid-empty-font-\(getpid()).ttf"
    #expect(creat(empty, 0o644) >= 0)
    defer { unlink(empty) }
    let file = FontLibrary.FontFile(path: empty, package: "none")
    // transvid's own check, not FreeType's: no "(FreeType error 0)", an error FreeType never raised (the hardening sweep).
    #expect(throws: FontLibrary.LoadError(file: file, reason: "empty font data")) {
      try FontLibrary.font(file)
    }
    #expect("\(FontLibrary.LoadError(file: file, reason: "empty font data"))" == "cannot load font '\(empty)': empty font data (install none: scripts/bootstrap)")
  }

  /// A font FreeType had no memory to open says so, with no advice to
  /// install it: "cannot open face 0 of the font data (FreeType error 64)
  /// (install fonts-noto-core: scripts/bootstrap)" under `ulimit -v` (the
  /// hardening sweep).
  @Test static func aFontFreeTypeHasNoMemoryForSaysSo() {
    let error = FontError(code: 64, message: "cannot open face 0 of the font data")
    #expect(error.isOutOfMemory)
    #expect(error.description == "cannot open face 0 of the font data: ran out of memory (FreeType error 64)")
    let file = FontLibrary.FontFile(path: "/usr/share/fonts/x.ttf", package: "fonts-noto-core")
    let load = FontLibrary.LoadError(file: file, reason: error.description, isOutOfMemory: error.isOutOfMemory)
    #expect("\(load)" == "cannot load font '/usr/share/fonts/x.ttf': cannot open face 0 of the font data: ran out of memory (FreeType error 64)")
    let broken = FontError(code: 2, message: "cannot open face 0 of the font data")
    #expect(!broken.isOutOfMemory && broken.description == "cannot open face 0 of the font data (FreeType error 2)")
  }

  /// Scripts whose fonts fonts-noto-core installs draw in them, regular
  /// and bold, never as the missing glyph (each was drawn as boxes once,
  /// where Chromium and an iPhone draw them).
  @Test(arguments: [
    ("Orya", "ଓଡ଼ିଆ ଭାଷା"), ("Tibt", "བོད་ཡིག"), ("Syrc", "ܠܫܢܐ ܣܘܪܝܝܐ"), ("Thaa", "ދިވެހި"), ("Cher", "ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ"),
    ("Yiii", "ꆈꌠꁱꂷ"), ("Ethi", "ግዕዝ"), ("Arab", "مرحبا"),
    // Scripts of fonts-noto-core's other faces (these were boxes too).
    ("Adlm", "𞤀𞤣𞤤𞤢𞤥"), ("Olck", "ᱥᱟᱱᱛᱟᱲᱤ"), ("Mong", "ᠮᠣᠩᠭᠣᠯ"), ("Vaii", "ꕙꔤ"), ("Rohg", "𐴌𐴟𐴇𐴥𐴝𐴚𐴒𐴙𐴝"),
    ("Java", "ꦧꦱꦗꦮ"), ("Bali", "ᬅᬓ᭄ᬱᬭ"), ("Tfng", "ⵜⴰⵎⴰⵣⵉⵖⵜ"), ("Tang", "𗼇𗟲"),
  ])
  static func eachScriptDrawsInItsFont(script: String, sample: String) throws {
    let fonts = try FontLibrary.system.get()
    #expect(fonts.scripts[script] != nil, "no font for \(script)")
    for weight in [FontWeight.regular, .bold] {
      let line = ShapedLine(sample.unicodeScalars.map(\.value), fonts: fonts, weight: weight, language: nil, pixelSize: 20)
      #expect(!line.glyphs.isEmpty && line.glyphs.allSatisfy { $0.glyph != 0 }, "\(script) \(weight): a missing glyph")
    }
  }

  /// Emoji sequences on text-style emoji are one colour glyph, as Noto
  /// Color Emoji (hb-shape) and iOS draw them, not a black outline beside a
  /// colour swatch (the locales sweep): a skin tone after ✌ ☝ ✍, "❤‍🔥"
  /// without U+FE0F, a keycap without it; after Arabic text too.
  @Test(arguments: [
    ("", "✌🏽"), ("", "☝🏿"), ("", "✍🏻"), ("", "❤\u{200D}🔥"), ("", "1\u{20E3}"), ("", "#\u{20E3}"), ("", "👁\u{200D}🗨"),
    ("مرحبا ", "✌🏽"),
  ])
  static func emojiSequencesAreOneColourGlyph(before: String, sequence: String) throws {
    let fonts = try FontLibrary.system.get()
    let text = (before + sequence).unicodeScalars.map(\.value)
    let line = ShapedLine(text, fonts: fonts, weight: .regular, language: nil, pixelSize: 20)
    let start = before.unicodeScalars.count
    let emoji = line.glyphs.filter { $0.cluster >= start }
    #expect(emoji.count == 1, "\(sequence): \(emoji.count) glyphs")
    #expect(emoji.allSatisfy { line.faces[$0.font].familyName == "Noto Color Emoji" }, "\(sequence): not the colour font")
  }

  /// A label's alpha, drawn with the system fonts in `language`.
  static func ink(_ text: String, language: String?) throws -> [UInt8] {
    let label = Label(text, style: TextStyle(size: 48, alignment: .left, language: language))
    return label.render(size: Size(width: 120, height: 60), scale: 1, fonts: try FontLibrary.system.get()).bytes
      .enumerated().filter { $0.offset % 4 == 3 }.map(\.element)
  }

  /// 直 and 骨 are drawn differently in China, Taiwan, Japan and Korea:
  /// each language takes its own face of Noto Sans CJK (SC, TC, JP, KR).
  @Test(arguments: ["直", "骨"]) static func hanCharactersTakeTheirLanguagesForms(character: String) throws {
    let sc = try ink(character, language: "zh-Hans"), ja = try ink(character, language: "ja")
    let tc = try ink(character, language: "zh-Hant"), ko = try ink(character, language: "ko")
    #expect(sc != ja)
    if character == "骨" { #expect(sc != tc && tc != ja) }
    #expect(sc.contains { $0 > 128 } && ja.contains { $0 > 128 } && tc.contains { $0 > 128 } && ko.contains { $0 > 128 })
    // A region or script subtag finds its face; plain Chinese is Simplified.
    #expect(try ink(character, language: "zh-TW") == tc)
    #expect(try ink(character, language: "zh-Hant-TW") == tc)
    #expect(try ink(character, language: "zh") == sc)
    #expect(try ink(character, language: "zh-CN") == sc)
    #expect(try ink(character, language: "ja-JP") == ja)
  }

  /// Cantonese takes Hong Kong's face of Noto Sans CJK, and in Simplified
  /// script the mainland's (the locales sweep): `yue` and `yue-Hant` drew
  /// with the cascade's SC face, unlike `zh-HK` (HarfBuzz's `locl` for
  /// Cantonese gave the Han characters Hong Kong's forms in any face).
  /// Cantonese in mainland China is Simplified (CLDR's likely subtags:
  /// `yue-CN` → `yue-Hans-CN`): `yue-CN` looked up the face of `yue` and
  /// HarfBuzz read it as Hong Kong's (OpenType ZHH).
  /// Their spaces and "…" are DejaVu's, as `zh-HK`'s are.
  @Test static func cantoneseTakesHongKongsFace() throws {
    let fonts = try FontLibrary.system.get()
    func ink(_ language: String) -> Bitmap {
      Label("直骨令 返 化 次 せ 한", style: TextStyle(size: 36, alignment: .left, language: language))
        .render(size: Size(width: 290, height: 50), scale: 1, fonts: fonts)
    }
    let hk = ink("zh-HK"), sc = ink("zh-Hans")
    #expect(hk != sc)
    for language in ["yue", "yue-Hant", "yue-HK", "yue-Hant-HK", "yue-Hant-CN", "yue-MO"] {
      let same = ink(language) == hk
      #expect(same, "\(language) is not drawn as zh-HK")
    }
    for language in ["yue-Hans", "yue-CN", "yue-Hans-CN", "yue_CN"] {
      let same = ink(language) == sc
      #expect(same, "\(language) is not drawn as zh-Hans")
    }
    #expect(fonts.cascades["yue"]?.regular.map(\.familyName) == ["DejaVu Sans", "Noto Sans CJK HK", "Noto Sans CJK SC"])
  }

  /// The digits, spaces and Latin punctuation beside Chinese, Japanese or
  /// Korean text are DejaVu's in every language, as SF draws every
  /// character it has on an iPhone whatever the language: in `ja` "1234"
  /// before or after Japanese ("1234 ファイル", "写真 1234", "3分前に…")
  /// took Noto Sans CJK JP's narrower digits, and the space its wider one.
  /// What DejaVu lacks (、。「」, fullwidth forms) takes the language's
  /// face, next to Latin text too.
  @Test static func digitsBesideCJKTextAreTheSystemFonts() throws {
    let fonts = try FontLibrary.system.get()
    func ink(_ text: String, _ language: String?) -> Bitmap {
      Label(text, style: TextStyle(size: 30, alignment: .left, language: language))
        .render(size: Size(width: 300, height: 44), scale: 1, fonts: fonts)
    }
    func width(_ text: String, _ language: String?) -> Double {
      TextLayout(text, fonts: fonts, weight: .regular, language: language, pixelSize: 30, maxWidth: 1e6).width
    }
    let digits = ink("1234", nil), columns = Int(width("1234", nil))
    for (language, text) in [("ja", "ファイル"), ("ko", "파일"), ("zh-Hans", "文件"), ("zh-Hant", "檔案"), ("zh-HK", "檔案")] {
      let leading = ink("1234 " + text, language)
      // The same pixels, the line perhaps lower: its box is as tall as its tallest font's.
      let same = (-8...8).contains { dy in
        (0..<44).allSatisfy { y in (0..<columns).allSatisfy { x in leading[x, min(max(y + dy, 0), 43)] == digits[x, y] } }
      }
      #expect(same, "\(language): 1234 before \(text)")
      for mixed in [text + " 1,234…", "3" + text] {
        let asInEnglish = width(mixed, language) == width(mixed, "en")
        #expect(asInEnglish, "\(language): \(mixed)")
      }
    }
    // What DejaVu lacks takes the language's face: Traditional Chinese
    // centres its full stop, Simplified puts it low on the left.
    for text in ["OK。", "１。"] {
      let differ = ink(text, "zh-Hant") != ink(text, "zh-Hans")
      #expect(differ, "\(text)")
    }
  }

  /// Urdu is drawn in Nastaliq, as iOS draws it (Noto Nastaliq Urdu, in
  /// both weights); the same letters in Arabic, Persian or no language take
  /// Noto Sans Arabic, and Latin in Urdu text keeps the cascade.
  @Test static func urduTakesNastaliq() throws {
    let fonts = try FontLibrary.system.get()
    func faces(_ text: String, _ language: String?, _ weight: FontWeight = .regular) -> [String] {
      let line = ShapedLine(text.unicodeScalars.map(\.value), fonts: fonts, weight: weight, language: language, pixelSize: 20)
      return line.glyphs.map { line.faces[$0.font].familyName + " " + line.faces[$0.font].styleName }
    }
    let urdu = "اردو زبان"
    for language in ["ur", "ur-PK", "ur-Arab-IN"] {
      #expect(Set(faces(urdu, language)) == ["Noto Nastaliq Urdu Regular"], "\(language)")
    }
    #expect(Set(faces(urdu, "ur", .bold)) == ["Noto Nastaliq Urdu Bold"])
    for language in ["ar", "fa", nil] {
      #expect(Set(faces(urdu, language)) == ["Noto Sans Arabic UI Regular"], "\(language ?? "none")")
    }
    #expect(faces("A", "ur") == ["DejaVu Sans Book"])
    #expect(FontLibrary.files.contains(FontLibrary.urduRegular.path))
  }

  @Test static func theLanguagesShareOneCopyOfTheCollection() throws {
    let fonts = try FontLibrary.system.get()
    let names = ["ja", "ko", "zh-Hans", "zh-Hant", "zh-HK"].map { fonts.cascades[$0]?.regular[1].familyName }
    #expect(names == ["Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans CJK SC", "Noto Sans CJK TC", "Noto Sans CJK HK"])
    let simplified = fonts.cascades["zh-Hans"]?.regular.map { ObjectIdentifier($0) } == fonts.regular.map { ObjectIdentifier($0) }
    #expect(simplified)
    let shared = fonts.cascades["ja"]?.regular[0] === fonts.regular[0] && fonts.cascades["ja"]?.bold[2] === fonts.bold[1]
    #expect(shared)
  }

  @Test static func hangulIsDrawnNotABox() throws {
    // An unassigned code point draws the primary font's missing-glyph box.
    let box = try ink("\u{0378}", language: "ko")
    for text in ["한", "국"] {
      let ko = try ink(text, language: "ko")
      #expect(ko.contains { $0 > 128 })
      #expect(ko != box)
      // The same with no language: the cascade's CJK face has Hangul too.
      #expect(try ink(text, language: nil) != box)
    }
  }

  @Test static func emojiComeInColourWithSymbolaBehind() throws {
    let fonts = try FontLibrary.system.get()
    #expect(fonts.fallback.map(\.familyName) == ["Noto Color Emoji", "Symbola"])
    let label = Label("😀", style: TextStyle(size: 40, color: .black))
    let b = label.render(size: Size(width: 60, height: 60), scale: 1, fonts: fonts)
    // Yellow, though the text colour is black.
    let opaque = (0..<60).flatMap { y in (0..<60).map { x in b[x, y] } }.filter { $0.a == 255 }
    #expect(opaque.contains { Int($0.r) > 200 && Int($0.g) > 150 && Int($0.b) < 80 }, "\(Set(opaque.map { [$0.r, $0.g, $0.b] }).prefix(8))")
  }
  /// A wrapped label's lines are about as tall in the scripts with a UI
  /// variant as in Latin, as on iOS: Noto Sans Arabic's own metrics made
  /// an Arabic line 2.11 em (Myanmar's 2.18), so a label showed half the
  /// lines; the UI variants keep 1.36 em (DejaVu Sans: 1.16).
  @Test static func scriptLinesAreAsTallAsUILines() throws {
    let fonts = try FontLibrary.system.get()
    func lineHeight(_ text: String, _ language: String) -> Double {
      let block = TextBlock(
        text, fonts: fonts, weight: .regular, language: language, pixelSize: 100, maxWidth: 10_000, maxLines: 0,
        maxHeight: 10_000)
      return block.lines[0].height / 100
    }
    let latin = lineHeight("Settings", "en")
    for (text, language) in [("الإعدادات", "ar"), ("ဆက်တင်များ", "my"), ("การตั้งค่า", "th"), ("सेटिंग्स", "hi"), ("ការកំណត់", "km")] {
      let height = lineHeight(text, language)
      #expect(height >= latin && height <= 1.4, "\(language): \(height) em (Latin \(latin))")
    }
  }
}
