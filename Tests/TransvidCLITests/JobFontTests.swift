// A job's own fonts: `font: { file: … }` draws with that file, `font:
// { family: … }` with fontconfig's file for the family, and a family
// fontconfig does not have is an error at the family's value; the stage's
// caption alike. A family's file is part of the job's cache key.

import Foundation
import Jobs
import Media
import Raster
import Testing
import TransvidCLI

@Suite struct JobFontTests {
  static func job(font: String) -> String {
    """
    canvas: { size: 200x40, scale: 1, background: "#FFFFFF" }
    screens:
      home:
        views:
          - { frame: [0, 0, 200, 40], text: "Hamburgefonstiv", font: \(font) }
    timeline: [hold: 0.1]
    """
  }

  static func render(_ font: String) throws -> Bitmap {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let spec = try JobParser.load(path: try write(job(font: font), to: "job.cfg", in: dir))
    return try AssetLoader.makeRenderer(for: spec).snapshot(of: "home")!
  }

  @Test func fileAndFamilyDrawWithThatFont() throws {
    let system = try Self.render("{ size: 20 }")
    let file = try Self.render("{ size: 20, file: /usr/share/fonts/truetype/noto/NotoSans-Regular.ttf }")
    let family = try Self.render("{ size: 20, family: Noto Sans }")
    let dejaVu = try Self.render("{ size: 20, family: DejaVu Sans }")
    #expect(file != system)
    // fontconfig's Noto Sans is that same file.
    #expect(family == file)
    #expect(dejaVu == system)
  }

  /// A variable font file (made here by fontTools: a box glyph 200 units
  /// wide at wght 400, 600 at 900, its advance alike) draws its weights:
  /// regular, medium, semibold and bold at 400, 500, 600 and 700, as
  /// browsers set font-weight on the axis. At 100 px a unit is a tenth of a
  /// pixel, so the box is 20 px wide, and 20 + 8, 16, 24 px at 500, 600, 700
  /// (interpolated: a fifth, two fifths, three fifths of the way to 900).
  static let variableFont = """
    import sys
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib.tables.TupleVariation import TupleVariation
    pen = TTGlyphPen(None)
    pen.moveTo((100, 0)); pen.lineTo((100, 700)); pen.lineTo((300, 700)); pen.lineTo((300, 0)); pen.closePath()
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "I"])
    fb.setupCharacterMap({ord("I"): "I"})
    fb.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "I": pen.glyph()})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "I": (400, 100)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Transvid Test VF", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.setupFvar(axes=[("wght", 100, 400, 900, "Weight")], instances=[])
    # The box's right edge and the advance (the last four are phantom points) move 400 units at 900.
    deltas = [(0, 0), (0, 0), (400, 0), (400, 0), (0, 0), (400, 0), (0, 0), (0, 0)]
    fb.setupGvar({"I": [TupleVariation({"wght": (0, 1.0, 1.0)}, deltas)]})
    fb.save(sys.argv[1])
    """

  static var hasFontTools: Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", "import fontTools.fontBuilder"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  @Test(.enabled(if: hasFontTools, "needs fontTools for /usr/bin/python3 (Debian package python3-fonttools, scripts/bootstrap)"))
  func aVariableFontDrawsItsWeights() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Self.runFontScript(Self.variableFont, arguments: [path(dir, "vf.ttf")], in: dir)
    var inkWidths: [String: Double] = [:]
    for weight in ["regular", "medium", "semibold", "bold"] {
      let job = """
        canvas: { size: 100x100, scale: 1, background: "#FFFFFF" }
        screens:
          home:
            views:
              - { frame: [0, 0, 100, 100], text: "I", textColor: "#000000", font: { size: 100, file: vf.ttf, weight: \(weight) } }
        timeline: [hold: 0.1]
        """
      let spec = try JobParser.load(path: try write(job, to: "\(weight).cfg", in: dir))
      let bitmap = try AssetLoader.makeRenderer(for: spec).snapshot(of: "home")!
      // Ink in a row through the box's middle: its width in pixels.
      inkWidths[weight] = (0..<100).reduce(0.0) { $0 + Double(255 - Int(bitmap[$1, 50].g)) / 255 }
    }
    #expect(inkWidths == ["regular": 20, "medium": 28, "semibold": 36, "bold": 44], "\(inkWidths)")
  }

  /// DejaVu Sans cut down by fontTools to "abc" and the acute accent
  /// (U+0301), with no dotted circle (U+25CC): an app's font without one.
  static let fontWithoutADottedCircle = """
    import sys
    from fontTools import subset
    from fontTools.ttLib import TTFont
    font = TTFont("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    subsetter = subset.Subsetter(subset.Options())
    subsetter.populate(unicodes=[0x61, 0x62, 0x63, 0x301])
    subsetter.subset(font)
    assert 0x25CC not in font.getBestCmap()
    font.save(sys.argv[1])
    """

  /// A mark with no base in an app's font that lacks the dotted circle is
  /// drawn on one from the fallback font, as CoreText draws it (the stage
  /// sweep): "\u{301}abc" drew "abc" alone, the accent hanging left of the
  /// label, outside it, where the system font drew "◌́abc". The circle and
  /// its accent are as the fallback (DejaVu Sans) draws them, "abc" the app's.
  @Test(.enabled(if: hasFontTools, "needs fontTools for /usr/bin/python3 (Debian package python3-fonttools, scripts/bootstrap)"))
  func aMarkWithoutABaseInAnAppsFontSitsOnTheFallbacksCircle() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Self.runFontScript(Self.fontWithoutADottedCircle, arguments: [path(dir, "app.ttf")], in: dir)
    func label(_ text: String, _ font: String) throws -> Bitmap {
      let job = """
        canvas: { size: 200x60, scale: 1, background: "#FFFFFF" }
        screens:
          home:
            views:
              - { frame: [0, 0, 200, 60], text: "\(text)", textColor: "#000000", align: left, font: { size: 40\(font) } }
        timeline: [hold: 0.1]
        """
      let spec = try JobParser.load(path: try write(job, to: "job.cfg", in: dir))
      return try AssetLoader.makeRenderer(for: spec).snapshot(of: "home")!
    }
    let app = try label("\\u0301abc", ", file: app.ttf"), system = try label("\\u0301abc", "")
    // The app's "abc" are DejaVu Sans's own glyphs: the label is the
    // system font's, the circle and accent included, pixel for pixel.
    let same = app == system
    #expect(same)
    #expect(app != (try label("abc", ", file: app.ttf")))
  }

  @Test func unknownFamilyAndMissingFileAreErrorsAtTheirValue() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = try write(Self.job(font: "{ family: No Such Face }"), to: "job.cfg", in: dir)
    let spec = try JobParser.load(path: path)
    // Fontconfig's closest family depends on the machine's fonts.
    let error = try #require(throws: Diagnostic.self) { try AssetLoader.makeRenderer(for: spec) }
    #expect(error.location == SourceLocation(file: path, line: 5, column: 76))
    #expect(
      "\(error)".contains(
        "error: screens.home.views[0].font: cannot load font 'No Such Face': fontconfig has no family 'No Such Face' "
          + "(its closest is '"))
    let missing = try write(Self.job(font: "{ file: fonts/App.ttf }"), to: "missing.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: missing, line: 5, column: 74),
      "screens.home.views[0].font: cannot load font 'fonts/App.ttf': No such file or directory")) {
      try AssetLoader.makeRenderer(for: try JobParser.load(path: missing))
    }
    #expect(throws: Diagnostic(
      SourceLocation(file: "j.cfg", line: 5, column: 89), "screens.home.views[0].font.family: a font has a 'file' or a 'family', not both")) {
      try JobParser.parse(Self.job(font: "{ file: a.ttf, family: X }"), file: "j.cfg")
    }
  }

  /// A job with a stage whose caption says "Hamburgefonstiv" in `font`.
  static func captionJob(font: String) -> String {
    """
    canvas: { size: 240x40, scale: 1, background: "#FFFFFF" }
    stage: { caption: { text: Hamburgefonstiv, position: top, font: \(font), textColor: "#000000" } }
    screens:
      home: {}
    timeline: [hold: 0.1]
    """
  }

  static func renderCaption(_ font: String, in dir: String) throws -> Bitmap {
    let spec = try JobParser.load(path: try write(captionJob(font: font), to: "caption.cfg", in: dir))
    return try AssetLoader.makeRenderer(for: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
  }

  /// The caption draws with its own `file:` or `family:` (it drew with the
  /// system font whatever they said), and a missing file is an error at it.
  @Test func captionDrawsWithItsOwnFont() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let system = try Self.renderCaption("{ size: 20, weight: regular }", in: dir)
    let file = try Self.renderCaption(
      "{ size: 20, weight: regular, file: /usr/share/fonts/truetype/noto/NotoSans-Regular.ttf }", in: dir)
    let family = try Self.renderCaption("{ size: 20, weight: regular, family: Noto Sans }", in: dir)
    #expect(file != system)
    #expect(family == file)
    let missing = try write(Self.captionJob(font: "{ file: fonts/Caption.ttf }"), to: "missing.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: missing, line: 2, column: 73),
      "stage.caption.font: cannot load font 'fonts/Caption.ttf': No such file or directory")) {
      try AssetLoader.makeRenderer(for: try JobParser.load(path: missing))
    }
  }

  /// A font of the family "Transvid Test Box" whose letters are boxes
  /// `sys.argv[2]` units wide (of 1000), made by fontTools.
  static let boxFont = """
    import sys
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    width = int(sys.argv[2])
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    pen = TTGlyphPen(None)
    pen.moveTo((100, 0)); pen.lineTo((100, 700)); pen.lineTo((100 + width, 700)); pen.lineTo((100 + width, 0)); pen.closePath()
    box = pen.glyph()
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef"] + letters)
    fb.setupCharacterMap({ord(c): c for c in letters})
    fb.setupGlyf(dict([(".notdef", TTGlyphPen(None).glyph())] + [(c, box) for c in letters]))
    fb.setupHorizontalMetrics(dict([(".notdef", (500, 0))] + [(c, (width + 200, 100)) for c in letters]))
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Transvid Test Box", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.save(sys.argv[1])
    """

  /// A font of narrow boxes with two family names, as a static face of a
  /// large family has them: its typographic family, "Transvid Test Bar",
  /// and the legacy one its width is named in, "Transvid Test Bar
  /// Condensed" (fc-list: "Transvid Test Bar,Transvid Test Bar Condensed").
  static let twoNamedFont = """
    import sys
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    pen = TTGlyphPen(None)
    pen.moveTo((100, 0)); pen.lineTo((100, 700)); pen.lineTo((200, 700)); pen.lineTo((200, 0)); pen.closePath()
    box = pen.glyph()
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef"] + letters)
    fb.setupCharacterMap({ord(c): c for c in letters})
    fb.setupGlyf(dict([(".notdef", TTGlyphPen(None).glyph())] + [(c, box) for c in letters]))
    fb.setupHorizontalMetrics(dict([(".notdef", (500, 0))] + [(c, (300, 100)) for c in letters]))
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({
        "familyName": "Transvid Test Bar Condensed", "styleName": "Regular",
        "typographicFamily": "Transvid Test Bar", "typographicSubfamily": "Condensed"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.save(sys.argv[1])
    """

  /// Runs one of the fontTools scripts above (written to `dir`) with
  /// `arguments`, the font file it writes first; it must succeed.
  static func runFontScript(_ script: String, arguments: [String], in dir: String) throws {
    let file = try write(script, to: "font.py", in: dir)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [file] + arguments
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
  }

  /// Writes the box font with letters `width` units wide to `file` as a
  /// package upgrade does: a new file renamed over the old one.
  static func installBoxFont(width: Int, at file: String, in dir: String) throws {
    try runFontScript(boxFont, arguments: [file + ".new", "\(width)"], in: dir)
    try #require(rename(file + ".new", file) == 0)
  }

  /// The environment of a transvid whose fontconfig reads the system's
  /// configuration and the folder `fonts` (with its cache in `dir`).
  static func fontconfigEnvironment(fonts: String, in dir: String) throws -> [String: String] {
    let conf = try write(
      """
      <?xml version="1.0"?>
      <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
      <fontconfig>
        <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
        <dir>\(fonts)</dir>
        <cachedir>\(path(dir, "fontconfig-cache"))</cachedir>
      </fontconfig>
      """, to: "fonts.conf", in: dir)
    return ["FONTCONFIG_FILE": conf]
  }

  /// A job of one label in `family`: black ink on white.
  static func familyJob(_ family: String) -> String {
    """
    canvas: { size: 100x40, scale: 1, background: "#FFFFFF" }
    output: { formats: [png] }
    screens:
      home:
        views:
          - { frame: [0, 0, 100, 40], text: "Hamburg", textColor: "#000000", font: { size: 24, family: \(family) } }
    timeline: [hold: 0.1]
    """
  }

  /// The ink of a PNG: how dark its pixels are, summed (255 a black pixel).
  static func ink(_ png: String) throws -> Int {
    let bitmap = try ImageDecoder.decode(path: png)
    var ink = 0
    for y in 0..<bitmap.height { for x in 0..<bitmap.width { ink += 255 - Int(bitmap[x, y].g) } }
    return ink
  }

  /// The file fontconfig finds for a job's `font: { family: … }` is part of
  /// the job's key: when a package upgrade replaces it, `plan` says the job
  /// is to render, a run renders it with the new font, and a `--cache`
  /// store does not hand out the old outputs. (The key hashed only the
  /// system fonts and `font: { file: … }`: the job stayed up to date, with
  /// the old letters, the fleet sweep.)
  @Test(.enabled(if: hasFontTools, "needs fontTools for /usr/bin/python3 (Debian package python3-fonttools, scripts/bootstrap)"))
  func aFamilysNewFileRendersAgain() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fonts = path(dir, "fonts")
    try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
    try Self.installBoxFont(width: 100, at: path(fonts, "box.ttf"), in: dir)
    let environment = try Self.fontconfigEnvironment(fonts: fonts, in: dir)
    _ = try write(Self.familyJob("Transvid Test Box"), to: "job.cfg", in: dir)
    let first = try runTransvid(["job.cfg", "-o", "out", "--cache", "store"], in: dir, environment: environment)
    #expect(first.status == 0 && first.stdout.contains("rendered in"), "\(first.stdout) \(first.stderr)")
    let narrow = try Self.ink(path(dir, "out/job.png"))
    #expect(try runTransvid(["plan", "job.cfg", "-o", "out"], in: dir, environment: environment).stdout.hasSuffix("  up to date\n"))

    try Self.installBoxFont(width: 300, at: path(fonts, "box.ttf"), in: dir)
    let plan = try runTransvid(["plan", "job.cfg", "-o", "out", "--cache", "store"], in: dir, environment: environment)
    #expect(plan.stdout.hasSuffix("  to render\n"), "\(plan.stdout)")
    let fresh = try runTransvid(["job.cfg", "-o", "fresh", "--cache", "store"], in: dir, environment: environment)
    #expect(fresh.status == 0 && fresh.stdout.contains("rendered in") && !fresh.stdout.contains("copied"), "\(fresh.stdout)")
    let again = try runTransvid(["job.cfg", "-o", "out"], in: dir, environment: environment)
    #expect(again.status == 0 && again.stdout.contains("rendered in"), "\(again.stdout)")
    let wide = try Self.ink(path(dir, "out/job.png"))
    #expect(wide > narrow * 2, "\(narrow) \(wide)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path(dir, "fresh/job.png"))) == Data(contentsOf: URL(fileURLWithPath: path(dir, "out/job.png"))))
  }

  /// A family is found by any of its names, as fontconfig matches it and
  /// Chromium takes it: a face fc-list shows as "Transvid Test Bar,Transvid
  /// Test Bar Condensed" draws for `family: Transvid Test Bar Condensed`
  /// (in any case) as for its first name. (Only the first name counted:
  /// the second said "fontconfig has no family 'Transvid Test Bar
  /// Condensed' (its closest is 'Transvid Test Bar')", and so did
  /// `DejaVu Sans Condensed` and `DejaVu Sans Light`, the locales sweep.)
  @Test(.enabled(if: hasFontTools, "needs fontTools for /usr/bin/python3 (Debian package python3-fonttools, scripts/bootstrap)"))
  func aFamilyIsFoundByAnyOfItsNames() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fonts = path(dir, "fonts")
    try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
    try Self.runFontScript(Self.twoNamedFont, arguments: [path(fonts, "bar.ttf")], in: dir)
    let environment = try Self.fontconfigEnvironment(fonts: fonts, in: dir)
    var pictures: [Data] = []
    for (i, family) in ["Transvid Test Bar", "Transvid Test Bar Condensed", "transvid test bar condensed"].enumerated() {
      _ = try write(Self.familyJob(family), to: "job\(i).cfg", in: dir)
      let run = try runTransvid(["job\(i).cfg", "-o", "out"], in: dir, environment: environment)
      #expect(run.status == 0, "\(family): \(run.stderr)")
      pictures.append(try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/job\(i).png"))))
    }
    #expect(pictures[1] == pictures[0] && pictures[2] == pictures[0])
  }
}
