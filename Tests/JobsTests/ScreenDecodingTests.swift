// Screens built from screenshots and views: what the new keys decode to,
// their exact diagnostics, and the paths `JobParser.load` resolves (the files
// themselves are checked by the runner: TransvidCLITests/AssetLoaderTests).

#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import TestSupport
import Testing

@testable import Jobs

@Suite enum ScreenDecodingTests {
  static let example = """
    canvas: { device: iphone-15 }
    screens:
      home:
        image: assets/home.png
        contentMode: fit
        views:
          - { kind: navbar, text: "设置" }
          - { id: wifi, kind: cell, frame: [16, 120, 361, 44], text: "Wi-Fi" }
          - { id: go, kind: button, frame: [16, 700, 361, 50], text: "Continue", corner: 25 }
          - { id: hero, frame: [0, 200, 393, 300], image: ../common/photo.jpg, contentMode: center, corner: 8 }
          - frame: [16, 520, 361, 30]
            text: Photos
            font: { size: 22, weight: bold }
            textColor: systemBlue
            align: right
          - { frame: [0, 0, 100, 100], gradient: { colors: [white, "#00000000"], locations: [0.2, 1], start: [0, 0], end: [1, 1] } }
          - { frame: [0, 0, 10, 10], text: "x", font: 12 }
      detail:
        views:
          - { frame: [0, 0, 10, 10], image: /abs/photo.jpg }
    timeline: [hold: 1]
    """

  static func at(_ line: Int, _ column: Int, file: String = "jobs/demo.cfg") -> Jobs.SourceLocation {
    SourceLocation(file: file, line: line, column: column)
  }

  @Test static func keysDecode() throws {
    let job = try JobParser.parse(example, file: "jobs/demo.cfg")
    let home = job.screens[0]
    #expect(home.image == ImageSpec(
      asset: AssetReference(path: "assets/home.png", resolvedPath: "jobs/assets/home.png", key: "screens.home.image", location: at(4, 5)),
      contentMode: .fit))
    let v = home.views
    // A navbar: full width under the Dynamic Island, translucent, semibold centred title.
    #expect(v[0].kind == .navbar)
    #expect(v[0].frame == Rect(x: 0, y: 0, width: 393, height: 59 + 44))
    #expect(v[0].color == Color(red8: 249, green8: 249, blue8: 249, alpha8: 240))
    #expect(v[0].text == "设置")
    #expect(v[0].textStyle == TextStyle(size: 17, weight: .semibold, color: .black, alignment: .center))
    #expect(v[0].textFrame == Rect(x: 16, y: 59, width: 361, height: 44))
    // A cell: white, corner 10, body text inset 16 at the leading edge (UILabel's natural alignment).
    #expect(v[1].color == .white && v[1].cornerRadius == 10)
    #expect(v[1].textStyle == TextStyle(size: 17, weight: .regular, color: .black, alignment: .natural))
    #expect(v[1].textFrame == Rect(x: 16, y: 0, width: 329, height: 44))
    // A button: systemBlue, white semibold centred; `corner` overrides the default.
    #expect(v[2].color == Color(red8: 0, green8: 122, blue8: 255) && v[2].cornerRadius == 25)
    #expect(v[2].textStyle == TextStyle(size: 17, weight: .semibold, color: .white, alignment: .center))
    // Image views resolve against the job file's folder.
    #expect(v[3].image == ImageSpec(
      asset: AssetReference(
        path: "../common/photo.jpg", resolvedPath: "jobs/../common/photo.jpg", key: "screens.home.views[3].image",
        location: at(10, 48)),
      contentMode: .center))
    #expect(v[4].text == "Photos")
    #expect(v[4].textStyle == TextStyle(size: 22, weight: .bold, color: Color(red8: 0, green8: 122, blue8: 255), alignment: .right))
    #expect(v[5].gradient == Gradient(
      colors: [.white, Color(red: 0, green: 0, blue: 0, alpha: 0)], locations: [0.2, 1],
      startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1)))
    #expect(v[6].textStyle.size == 12)
    #expect(job.screens[1].views[0].image?.asset.resolvedPath == "/abs/photo.jpg")
    #expect(job.screens[1].views[0].image?.contentMode == .fill)
    // Every reference, in file order.
    #expect(job.assets.map(\.key) == ["screens.home.image", "screens.home.views[3].image", "screens.detail.views[0].image"])
    #expect(job.hasText)
  }

  @Test static func navbarFrameFollowsTheDevice() throws {
    let se = try JobParser.parse(
      "canvas: { device: iphone-se }\nscreens: { a: { views: [ { kind: navbar } ] } }\ntimeline: [hold: 1]\n", file: "j.cfg")
    #expect(se.screens[0].views[0].frame == Rect(x: 0, y: 0, width: 375, height: 64))
    #expect(!se.hasText)
  }

  /// UINavigationController's bar: under the status bar, 44 pt (50 on an
  /// iPad); an iPhone held sideways shows no status bar and a 32 pt bar (44
  /// on a Max); a screen a sheet presents has a 56 pt bar at the card's
  /// top, as wide as the card (an iPad's form sheet: 580 pt on an iPad
  /// mini, whose longest side is over 1024 pt). The title centres in the bar, not in the status bar above it.
  @Test(arguments: [
    ("device: iphone-15", false, Rect(x: 0, y: 0, width: 393, height: 103), 44.0),
    ("device: iphone-15, orientation: landscape", false, Rect(x: 0, y: 0, width: 852, height: 32), 32),
    ("device: iphone-se, orientation: landscape", false, Rect(x: 0, y: 0, width: 667, height: 32), 32),
    ("device: iphone-15-pro-max, orientation: landscape", false, Rect(x: 0, y: 0, width: 932, height: 44), 44),
    ("size: 844x390", false, Rect(x: 0, y: 0, width: 844, height: 32), 32),
    // A size of no device is an iPad's where its short side is (600 pt or more): `800x550` is an
    // iPhone's under a 20 pt status bar (it was an iPad's 24 pt one over an iPhone's 44 pt bar).
    ("size: 800x550", false, Rect(x: 0, y: 0, width: 800, height: 64), 44),
    ("size: 1000x700", false, Rect(x: 0, y: 0, width: 1000, height: 74), 50),
    ("device: ipad-mini", false, Rect(x: 0, y: 0, width: 744, height: 74), 50),
    ("device: ipad-11, orientation: landscape", false, Rect(x: 0, y: 0, width: 1194, height: 74), 50),
    ("device: iphone-15", true, Rect(x: 0, y: 0, width: 393, height: 56), 56),
    ("device: ipad-mini", true, Rect(x: 0, y: 0, width: 580, height: 56), 56),
  ])
  static func navbarIsUIKitsBar(canvas: String, inSheet: Bool, frame: Rect, bar: Double) throws {
    let job = try JobParser.parse(
      """
      canvas: { \(canvas) }
      screens: { a: {}, b: { views: [ { kind: navbar, text: T } ] } }
      timeline: [\(inSheet ? "present: { from: a, to: b, transition: sheet }" : "hold: 1")]
      """, file: "j.cfg")
    let view = job.screens[1].views[0]
    #expect(view.frame == frame)
    #expect(view.textFrame == Rect(x: 16, y: frame.height - bar, width: frame.width - 32, height: bar))
  }

  /// A screen pushed while a sheet is up is shown in the sheet's card (the
  /// renderer hosts the push there), so its bar is the card's too; once the
  /// sheet is dismissed, a screen pushed is the whole screen's again.
  @Test(arguments: ["device: iphone-15", "device: ipad-11"])
  static func aScreenPushedInASheetHasTheCardsBar(canvas: String) throws {
    let job = try JobParser.parse(
      """
      canvas: { \(canvas) }
      screens:
        a: {}
        b: { views: [ { kind: navbar, text: B } ] }
        c: { views: [ { kind: navbar, text: C } ] }
        d: { views: [ { kind: navbar, text: D } ] }
      timeline:
        - present: { to: b, transition: sheet }
        - push: { to: c, transition: push }
        - pop: {}
        - dismiss: {}
        - push: { to: d, transition: push }
      """, file: "j.cfg")
    let card = try #require(job.screens[1].views.first?.frame)
    #expect(card.height == 56)
    #expect(job.screens[2].views.first?.frame == card)
    let whole = try #require(job.screens[3].views.first?.frame)
    #expect(whole.width == job.canvas.size.width && whole.height > 56)
  }

  /// A sheet presentation a gesture cancels leaves the stack as it was, so
  /// the screen pushed next is on the whole screen; and a screen the job
  /// shows on the whole screen and later in a sheet keeps the whole
  /// screen's layout (one layout a screen). Both had the sheet's 56 pt bar
  /// at the top, under the status bar, and in dark the elevated
  /// systemBackground, #1C1C1E for black. The cancelled sheet's own screen
  /// is still shown in its card.
  @Test static func aScreenOnTheWholeScreenHasTheWholeScreensBar() throws {
    let job = try JobParser.parse(
      """
      canvas: { size: 200x400, scale: 1 }
      appearances: [light, dark]
      screens:
        a: {}
        s: { views: [ { kind: navbar, text: S } ] }
        b: { background: systemBackground, views: [ { kind: navbar, text: B } ] }
        c: { background: systemBackground, views: [ { kind: navbar, text: C } ] }
      timeline:
        - present: { to: s, transition: sheet, gesture: { progress: [0, 0.2], release: cancel } }
        - push: { to: b, transition: push }
        - present: { to: c, transition: sheet }
        - dismiss: {}
        - push: { to: c, transition: push }
      """, file: "j.cfg")
    let bars = job.screens.map { $0.views.first?.frame.height }
    #expect(bars == [nil, 56, 64, 64])
    let dark = job.inAppearance("dark")
    let backgrounds = dark.screens.map(\.background)
    #expect(backgrounds == [nil, nil, .black, .black])
  }

  /// A sheet's bar spans its card, as README says, however wide the sheet
  /// writes its card (`cardWidth:`), and so does the bar of a screen pushed
  /// there: the bar took the device's form-sheet width (580 pt on an iPad
  /// Pro 12.9) in a 700 pt card, its title 60 pt left of the card's middle,
  /// and the whole screen's width in a card on a size that is no device.
  /// A sheet as wide as the screen on an iPad (`cardWidth: 0`, a page
  /// sheet, or a card at least as wide as the screen) has a bar as wide as
  /// the screen: it kept the form sheet's 580 pt on the iPad mini's 744.
  @Test(arguments: [
    ("device: ipad-13, scale: 1", "cardWidth: 700, cardHeight: 700", 700.0), ("size: 200x400", "cardWidth: 100", 100.0),
    ("device: ipad-13, scale: 1", "", 580.0), ("device: ipad-mini, scale: 1", "cardWidth: 0", 744.0),
    ("device: ipad-mini, scale: 1", "cardWidth: 900", 744.0),
  ])
  static func aSheetsBarSpansTheCardItWrites(canvas: String, card: String, width: Double) throws {
    let job = try JobParser.parse(
      """
      canvas: { \(canvas) }
      screens:
        a: {}
        b: { views: [ { kind: navbar, text: B } ] }
        c: { views: [ { kind: navbar, text: C } ] }
      timeline:
        - present: { to: b, transition: sheet, \(card) }
        - push: { to: c, transition: push }
      """, file: "j.cfg")
    #expect(job.screens[1].views.first?.frame.width == width)
    #expect(job.screens[2].views.first?.frame.width == width)
    #expect(job.screens[1].views.first?.textFrame.width == width - 32)
  }

  /// A screen the job shows on the whole screen and later in a card keeps
  /// the whole screen's layout (one layout a screen): laid out in the card,
  /// the root screen's bar was 300 of the 600 pt it is shown across at the
  /// job's first frame, and an Arabic view at x 10 was at 240, not 540.
  /// A screen shown only in the card is laid out there.
  @Test static func aScreenAlsoShownWholeKeepsTheWholeScreensLayout() throws {
    let job = try JobParser.parse(
      """
      canvas: { size: 600x800, scale: 1 }
      locales: [ar]
      screens:
        a: { views: [ { kind: navbar, text: Title }, { frame: [10, 300, 50, 50], color: "#FFFF00" } ] }
        b: {}
        c: { views: [ { kind: navbar, text: C }, { frame: [10, 300, 50, 50], color: "#FFFF00" } ] }
      timeline:
        - hold: 0.2
        - present: { to: b, transition: sheet, cardWidth: 300, cardHeight: 400 }
        - push: { to: a, transition: push }
        - push: { to: c, transition: push }
      """, file: "j.cfg")
    let arabic = try #require(job.localizedJobs().first)
    let a = try #require(arabic.screens.first { $0.name == "a" })
    #expect(a.cardWidth == nil)
    #expect(a.views.map(\.frame.width) == [600, 50])
    #expect(a.views[1].frame.minX == 540)
    let c = try #require(arabic.screens.first { $0.name == "c" })
    #expect(c.cardWidth == 300)
    #expect(c.views.map(\.frame.width) == [300, 50])
    #expect(c.views[1].frame.minX == 240)
  }

  static let broken: [BrokenJob] = [
    BrokenJob(
      "screen contentMode stretch", "screens:\n  home: { image: a.png, contentMode: stretch }\n",
      "job.cfg:2:38: error: screens.home.contentMode: unknown content mode \"stretch\"; expected one of: fill, fit"),
    BrokenJob(
      "view contentMode typo", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], image: a.png, contentMode: fil }\n",
      "job.cfg:4:59: error: screens.home.views[0].contentMode: unknown content mode \"fil\"; did you mean 'fill'?"),
    BrokenJob(
      "contentMode without image", "screens:\n  home: { contentMode: fit }\n",
      "job.cfg:2:11: error: screens.home.contentMode: there is no 'image' to apply it to"),
    BrokenJob(
      "image is a list", "screens:\n  home: { image: [a.png] }\n",
      "job.cfg:2:18: error: screens.home.image: expected the path of an image file (PNG, JPEG, WebP, GIF or BMP), got a list of 1 item"),
    BrokenJob(
      "image is empty", "screens:\n  home: { image: \"\" }\n",
      "job.cfg:2:18: error: screens.home.image: expected the path of an image file (PNG, JPEG, WebP, GIF or BMP), got \"\""),
    BrokenJob(
      "unknown font weight", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], text: Hi, font: { weight: heavy } }\n",
      "job.cfg:4:58: error: screens.home.views[0].font.weight: unknown font weight \"heavy\"; expected one of: regular, medium, semibold, bold"),
    BrokenJob(
      "misspelt font weight", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], text: Hi, font: { weight: semibod } }\n",
      "job.cfg:4:58: error: screens.home.views[0].font.weight: unknown font weight \"semibod\"; did you mean 'semibold'?"),
    BrokenJob(
      "font size 0", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], text: Hi, font: { size: 0 } }\n",
      "job.cfg:4:56: error: screens.home.views[0].font.size: expected a font size in points from 1 to 500, got 0"),
    BrokenJob(
      "unknown font key", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], text: Hi, font: { sise: 12 } }\n",
      "job.cfg:4:50: error: unknown key 'sise' in screens.home.views[0].font; did you mean 'size'?"),
    BrokenJob(
      "font without text", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], font: 12 }\n",
      "job.cfg:4:32: error: screens.home.views[0].font: there is no 'text' to apply it to"),
    BrokenJob(
      "negative lines", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], text: Hi, lines: -1 }\n",
      "job.cfg:4:49: error: screens.home.views[0].lines: expected an integer from 0 to 100, got -1"),
    BrokenJob(
      "lines without text", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], lines: 2 }\n",
      "job.cfg:4:32: error: screens.home.views[0].lines: there is no 'text' to apply it to"),
    BrokenJob(
      "british alignment", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], text: Hi, align: centre }\n",
      "job.cfg:4:49: error: screens.home.views[0].align: unknown alignment \"centre\"; did you mean 'center'?"),
    BrokenJob(
      "unknown kind", "screens:\n  home:\n    views:\n      - { kind: tabbar, frame: [0, 0, 1, 1] }\n",
      "job.cfg:4:17: error: screens.home.views[0].kind: unknown view kind \"tabbar\"; did you mean 'navbar'?"),
    BrokenJob(
      "text is a mapping without key", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], text: { a: b } }\n",
      "job.cfg:4:40: error: unknown key 'a' in screens.home.views[0].text; expected one of: key, args"),
    BrokenJob(
      "text is a list", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], text: [a] }\n",
      "job.cfg:4:38: error: screens.home.views[0].text: expected one line of text (at most 1000 characters) or { key: KEY }, got a list of 1 item"),
    BrokenJob(
      "textColor misspelt", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], text: a, textColor: lable }\n",
      "job.cfg:4:52: error: screens.home.views[0].textColor: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got \"lable\"; did you mean 'label'?"),
    BrokenJob(
      "gradient with one colour", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], gradient: { colors: [red] } }\n",
      "job.cfg:4:52: error: screens.home.views[0].gradient.colors: expected a list of 2 to 16 colours, got a list of 1 item"),
    BrokenJob(
      "gradient without colours", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], gradient: { start: [0, 0] } }\n",
      "job.cfg:4:42: error: screens.home.views[0].gradient: missing 'colors' (a list of 2 to 16 colours)"),
    BrokenJob(
      "gradient locations descend", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], gradient: { colors: [red, blue], locations: [0.5, 0.2] } }\n",
      "job.cfg:4:82: error: screens.home.views[0].gradient.locations[1]: expected a number ≥ 0.5 (locations ascend), got 0.2"),
    BrokenJob(
      "gradient start of three", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], gradient: { colors: [red, blue], start: [0, 0, 1] } }\n",
      "job.cfg:4:72: error: screens.home.views[0].gradient.start: expected [x, y] in unit coordinates of the view (0 to 1), got a list of 3 items"),
    BrokenJob(
      "unknown view key", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], imgae: a.png }\n",
      "job.cfg:4:32: error: unknown key 'imgae' in screens.home.views[0]; did you mean 'image'?"),
    // A placeholder stands for each value of a list the job does not have: it said "cannot read 'shot-{appearance}.png'".
    BrokenJob(
      "{appearance} without appearances", "screens:\n  home: { image: \"shot-{appearance}.png\" }\n",
      "job.cfg:2:11: error: screens.home.image: {appearance} in 'shot-{appearance}.png' stands for each of the job's appearances, and it lists none: add appearances: [light, dark], or write the file's own name"),
    BrokenJob(
      "{locale} without locales", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 1, 1], image: \"a-{locale}.png\" }\n",
      "job.cfg:4:32: error: screens.home.views[0].image: {locale} in 'a-{locale}.png' stands for each of the job's locales, and it lists none: add locales: [en, ar] and their strings, or write the file's own name"),
    BrokenJob(
      "the stage's placeholder is the first written",
      "stage: { device: none, background: { image: \"bg-{appearance}.png\" } }\nscreens:\n  home: { image: \"{locale}.png\" }\n",
      "job.cfg:1:38: error: stage.background.image: {appearance} in 'bg-{appearance}.png' stands for each of the job's appearances, and it lists none: add appearances: [light, dark], or write the file's own name"),
    BrokenJob(
      "view without frame", "screens:\n  home:\n    views:\n      - { kind: cell, text: Hi }\n",
      "job.cfg:4:9: error: screens.home.views[0]: missing 'frame' ([x, y, width, height] in points)"),
  ]

  @Test(arguments: broken)
  static func diagnostic(_ broken: BrokenJob) {
    do {
      let job = try JobParser.parse(bytes: broken.bytes + Array("timeline: [hold: 1]\n".utf8), file: "job.cfg")
      Issue.record("parsed, expected \(broken.expected); got \(job)")
    } catch {
      #expect(error.description == broken.expected)
    }
  }

  // MARK: Files

  /// A fresh scratch folder with `files` (name → bytes) and a job file.
  static func folder(_ job: String, files: [String: [UInt8]] = [:]) -> String {
    let dir = try! ScratchFolders.make("transvid-screens")
    mkdir(dir + "/assets", 0o755)
    for (name, bytes) in files { write(bytes, to: dir + "/" + name) }
    write(Array(job.utf8), to: dir + "/job.cfg")
    return dir
  }

  static func write(_ bytes: [UInt8], to path: String) {
    let f = fopen(path, "wb")!
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
  }

  static let imageJob = """
    screens:
      home:
        image: assets/shot.png
        views:
          - { id: a, frame: [0, 0, 10, 10], image: assets/photo.jpg }
    timeline: [hold: 1]

    """

  /// A job that lists locales and appearances takes `{locale}` and
  /// `{appearance}` in its paths, each job its own file.
  @Test static func placeholdersWithTheirListsParse() throws {
    let job = """
      locales: [en, ar]
      strings: { en: { a: b }, ar: { a: c } }
      appearances: [light, dark]
      stage: { device: none, background: { image: "bg-{appearance}.png" } }
      screens:
        home: { image: "shots/{locale}/home-{appearance}.png" }
      timeline: [hold: 1]

      """
    let spec = try JobParser.parse(bytes: Array(job.utf8), file: "job.cfg")
    #expect(spec.localizedJobs().map { $0.assets.map(\.path) } == [
      ["shots/en/home-light.png", "bg-light.png"], ["shots/en/home-dark.png", "bg-dark.png"],
      ["shots/ar/home-light.png", "bg-light.png"], ["shots/ar/home-dark.png", "bg-dark.png"],
    ])
    // A job with strings and no locales is its strings' source language's.
    let english = "strings: { en: { a: b } }\nscreens:\n  home: { image: \"{locale}.png\" }\ntimeline: [hold: 1]\n"
    #expect(try JobParser.parse(bytes: Array(english.utf8), file: "job.cfg").assets.map(\.path) == ["en.png"])
  }

  @Test static func readableImagesLoad() throws {
    let dir = folder(imageJob, files: ["assets/shot.png": [1], "assets/photo.jpg": [2]])
    let job = try JobParser.load(path: dir + "/job.cfg")
    #expect(job.assets.map(\.resolvedPath) == [dir + "/assets/shot.png", dir + "/assets/photo.jpg"])
  }
}
