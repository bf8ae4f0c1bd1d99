// AssetLoader: a job's images decoded through Media, failures as
// `FILE:LINE:COL: error:` at the `image:` key; and the showcase screens
// (navigation bar, cells in English and Chinese, an image view, a
// screenshot) rendered end to end.

import Foundation
import Jobs
import Media
import Raster
import Rendering
import Testing
import TransvidCLI

@Suite struct AssetLoaderTests {
  /// The repository's `jobs/assets` folder.
  static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("jobs/assets").path

  static func job(image: String) -> String {
    """
    canvas: { size: 60x80, scale: 1 }
    screens:
      home:
        views:
          - { id: a, frame: [0, 0, 60, 40], image: \(image) }
    timeline: [hold: 0.1]
    """
  }

  /// Expects the job whose one view's font is `file` (YAML, as written
  /// after `file:`) to fail at that key with `message` after
  /// `screens.home.views[0].font: `.
  static func expectFontError(file: String, in dir: String, _ message: String) throws {
    let font = try write(
      "canvas: { size: 60x80, scale: 1 }\nscreens:\n  home:\n    views:\n"
        + "      - { frame: [0, 0, 60, 40], text: Hi, font: { file: \(file) } }\ntimeline: [hold: 0.1]\n",
      to: "font.cfg", in: dir)
    #expect(throws: Diagnostic(SourceLocation(file: font, line: 5, column: 58), "screens.home.views[0].font: \(message)")) {
      try AssetLoader.makeRenderer(for: try JobParser.load(path: font))
    }
  }

  /// The file checks before rendering: a missing file and a folder are
  /// reported at their `image:` key without decoding anything.
  @Test func missingImageAndFolderAreReportedAtTheirKey() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/shot.png", withIntermediateDirectories: true)
    for (image, reason) in [("photo.jpg", "No such file or directory"), ("shot.png", "Is a directory")] {
      let path = try write(Self.job(image: image), to: "job.cfg", in: dir)
      let spec = try JobParser.load(path: path)
      #expect(throws: Diagnostic(
        SourceLocation(file: path, line: 5, column: 41), "screens.home.views[0].image: cannot read '\(image)': \(reason)")) {
        try AssetLoader.checkFiles(of: spec)
      }
    }
  }

  /// A path with a blank at an end that names nothing, where the path
  /// without it names a file, says so: an image's, a font file's and a
  /// String Catalog's alike. A path whose trimmed form names nothing either
  /// gets no hint.
  @Test func aBlankAtAPathsEndIsNamed() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/shots", withIntermediateDirectories: true)
    try write("not read", to: "shots/home.png", in: dir)
    // Named whole, past the 40 characters a value's echo is cut at.
    let long = "shots/" + String(repeating: "s", count: 40) + ".png"
    try write("not read", to: long, in: dir)
    let missing = "No such file or directory"
    for (image, hint) in [
      ("\"shots/home.png \"", "; the path ends in a space; did you mean 'shots/home.png'?"),
      ("\" shots/home.png\"", "; the path starts with a space; did you mean 'shots/home.png'?"),
      ("\"shots/home.png\\u00A0\"", "; the path ends in a blank (U+00A0); did you mean 'shots/home.png'?"),
      ("\"\(long) \"", "; the path ends in a space; did you mean '\(long)'?"),
      ("\"shots/away.png \"", ""),
    ] {
      let path = try write(Self.job(image: image), to: "job.cfg", in: dir)
      let spec = try JobParser.load(path: path)
      let written = try #require(spec.assets.first?.path)
      #expect(throws: Diagnostic(
        SourceLocation(file: path, line: 5, column: 41),
        "screens.home.views[0].image: cannot read '\(SourceLocation.shown(written))': \(missing)\(hint)")) {
        try AssetLoader.checkFiles(of: spec)
      }
    }
    try write("not read", to: "App.ttf", in: dir)
    try Self.expectFontError(file: "\"App.ttf \"", in: dir, "cannot load font 'App.ttf ': \(missing); the path ends in a space; did you mean 'App.ttf'?")
    try write("{}", to: "App.xcstrings", in: dir)
    let strings = try write(
      "locales: [en]\nstrings: |\n  App.xcstrings\ncanvas: { size: 60x80, scale: 1 }\nscreens: { home: {} }\ntimeline: [hold: 0.1]\n",
      to: "strings.cfg", in: dir)
    let error = try #require(throws: Diagnostic.self) { try JobParser.load(path: strings) }
    #expect(error.location == SourceLocation(file: strings, line: 2, column: 10))
    #expect(error.message.hasSuffix("\(missing); the path ends in a line break; did you mean 'App.xcstrings'?"))
  }

  /// A path that names nothing, where reading each of its parts ignoring
  /// case names one file, names that file: a job written on a Mac, whose
  /// disk ignores case, rendered on Linux. An image's and a font file's
  /// alike; a part two entries match ignoring case gets no hint.
  @Test func aPathInAnotherCaseIsNamed() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/Shots", withIntermediateDirectories: true)
    try write("not read", to: "Shots/Home.png", in: dir)
    try write("not read", to: "Shots/away.png", in: dir)
    try write("not read", to: "Shots/AWAY.png", in: dir)
    let missing = "No such file or directory"
    let mac = "(file names here tell case apart, as a Mac's disk does not)"
    for (image, hint) in [
      ("shots/home.png", "; did you mean 'Shots/Home.png'? \(mac)"),
      ("Shots/HOME.PNG", "; did you mean 'Shots/Home.png'? \(mac)"),
      ("shots/Away.png", ""),
      ("shots/none.png", ""),
    ] {
      let path = try write(Self.job(image: image), to: "job.cfg", in: dir)
      #expect(throws: Diagnostic(
        SourceLocation(file: path, line: 5, column: 41), "screens.home.views[0].image: cannot read '\(image)': \(missing)\(hint)")) {
        try AssetLoader.checkFiles(of: try JobParser.load(path: path))
      }
    }
    try write("not read", to: "App.ttf", in: dir)
    try Self.expectFontError(file: "app.ttf", in: dir, "cannot load font 'app.ttf': \(missing); did you mean 'App.ttf'? \(mac)")
  }

  /// A path the job writes is echoed on one line, as values are: a block
  /// scalar's line break (`image: |`) and the characters a terminal shows
  /// as nothing are written `\u{a}`, in an image's, a font file's and a
  /// String Catalog's errors alike.
  @Test func aPathIsEchoedOnOneLine() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let image = try write(
      "canvas: { size: 60x80, scale: 1 }\nscreens:\n  home:\n    image: |\n      shot.png\ntimeline: [hold: 0.1]\n",
      to: "image.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: image, line: 4, column: 5), "screens.home.image: cannot read 'shot.png\\u{a}': No such file or directory")) {
      try AssetLoader.checkFiles(of: try JobParser.load(path: image))
    }
    try Self.expectFontError(file: "\"App\\u200B.ttf\"", in: dir, "cannot load font 'App\\u{200b}.ttf': No such file or directory")
    let strings = try write(
      "locales: [en]\nstrings: \"App\\r.xcstrings\"\ncanvas: { size: 60x80, scale: 1 }\nscreens: { home: {} }\ntimeline: [hold: 0.1]\n",
      to: "strings.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: strings, line: 2, column: 10), "strings: cannot read 'App\\u{d}.xcstrings': No such file or directory")) {
      try JobParser.load(path: strings)
    }
  }

  @Test func corruptPNGIsReportedAtItsKey() throws {
    let dir = try makeTemporaryDirectory()
    // A PNG signature and IHDR, then nonsense instead of image data (its CRC does not match).
    let good = try Data(contentsOf: URL(fileURLWithPath: Self.assets + "/cover.png"))
    var bytes = Array(good.prefix(33))
    bytes += [0, 0, 0, 16] + Array("IDAT".utf8) + [UInt8](repeating: 0xA5, count: 20) + Array(good.suffix(12))
    try Data(bytes).write(to: URL(fileURLWithPath: dir + "/bad.png"))
    let path = try write(Self.job(image: "bad.png"), to: "job.cfg", in: dir)
    let spec = try JobParser.load(path: path)
    #expect(throws: Diagnostic.self) { try AssetLoader.images(for: spec) }
    do {
      _ = try AssetLoader.images(for: spec)
    } catch {
      #expect(error.location == SourceLocation(file: path, line: 5, column: 41))
      #expect(
        error.description
          == "\(path):5:41: error: screens.home.views[0].image: cannot decode 'bad.png': corrupt PNG: chunk 'IDAT' at byte 33 does not match "
            + "its CRC (the file is damaged)")
    }
  }

  @Test func truncatedAndEmptyImages() throws {
    let dir = try makeTemporaryDirectory()
    let good = try Data(contentsOf: URL(fileURLWithPath: Self.assets + "/cover.png"))
    try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: dir + "/cut.png"))
    try Data().write(to: URL(fileURLWithPath: dir + "/empty.png"))
    let cases = [
      ("cut.png", "cannot decode 'cut.png': truncated PNG: chunk 'IDAT' at byte 4162 needs 4108 bytes, only 794 left"),
      ("empty.png", "cannot decode 'empty.png': the file is empty"),
    ]
    for (name, reason) in cases {
      let path = try write(Self.job(image: name), to: "job-\(name).cfg", in: dir)
      let spec = try JobParser.load(path: path)
      do {
        _ = try AssetLoader.images(for: spec)
        Issue.record("\(name) decoded")
      } catch {
        #expect(error.description == "\(path):5:41: error: screens.home.views[0].image: \(reason)")
      }
    }
  }

  @Test func imagesOverTheLimitAreRefusedBeforeDecoding() throws {
    let dir = try makeTemporaryDirectory()
    let path = try write(Self.job(image: "\(Self.assets)/cover.png"), to: "job.cfg", in: dir)
    let spec = try JobParser.load(path: path)
    #expect(throws: Diagnostic(
      SourceLocation(file: path, line: 5, column: 41),
      "screens.home.views[0].image: cannot decode '\(Self.assets)/cover.png': "
        + "PNG declares 512×512 = 262144 pixels, over the limits of 256 per side and 65536 in all")) {
      try AssetLoader.images(for: spec, limits: ImageDecoder.Limits(maxSide: 256, maxPixels: 65536))
    }
  }

  /// A file named under several spellings is decoded once (eight spellings
  /// of a 100 Mpx PNG held 3.8 GB), and the job's images together may
  /// decode to at most `maxTotalPixels`, checked from their headers before
  /// any is decoded: an error at the image that passes it.
  @Test func aJobsImagesAreDecodedOnceAndBoundedTogether() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.copyItem(atPath: "\(Self.assets)/cover.png", toPath: dir + "/a.png")
    try FileManager.default.copyItem(atPath: "\(Self.assets)/cover.png", toPath: dir + "/b.png")
    try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: dir + "/link.png", withDestinationPath: "a.png")
    func job(_ images: [String]) -> String {
      """
      canvas: { size: 60x80, scale: 1 }
      screens:
        home:
          views:
      \(images.map { "      - { frame: [0, 0, 60, 40], image: \($0) }" }.joined(separator: "\n"))
      timeline: [hold: 0.1]
      """
    }
    let one = 512 * 512
    let spelled = try write(job(["a.png", "./a.png", "sub/../a.png", ".//a.png", "link.png"]), to: "spelled.cfg", in: dir)
    let images = try AssetLoader.images(
      for: try JobParser.load(path: spelled), limits: ImageDecoder.Limits(maxTotalPixels: one))
    #expect(images.count == 5 && Set(images.values).count == 1)
    // One decode: every spelling holds the same pixel buffer.
    let buffers = Set(images.values.map { $0.bytes.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } })
    #expect(buffers.count == 1)
    let two = try write(job(["a.png", "./a.png", "b.png"]), to: "two.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: two, line: 7, column: 34),
      "screens.home.views[2].image: the job's images come to more than \(2 * one - 1) pixels decoded with 'b.png' "
        + "(2 MiB, all held while it renders); use smaller or fewer images")) {
      _ = try AssetLoader.images(for: try JobParser.load(path: two), limits: ImageDecoder.Limits(maxTotalPixels: 2 * one - 1))
    }
  }

  @Test func projectImagesDecode() throws {
    let dir = try makeTemporaryDirectory()
    let path = try write(
      """
      canvas: { size: 60x80, scale: 1 }
      screens:
        home:
          image: \(Self.assets)/settings.png
          views:
            - { frame: [0, 0, 60, 40], image: \(Self.assets)/photo.jpg }
            - { frame: [0, 40, 60, 40], image: \(Self.assets)/cover.png }
            - { frame: [0, 40, 60, 40], image: \(Self.assets)/cover.png }
      timeline: [hold: 0.1]
      """, to: "job.cfg", in: dir)
    let images = try AssetLoader.images(for: try JobParser.load(path: path))
    #expect(images.count == 3)
    #expect(images[Self.assets + "/settings.png"].map { [$0.width, $0.height] } == [786, 1704])
    // Drawn 60×45 px, ≥ 12.8× smaller either way round: decoded at 1/4
    // (ScreenBuilder.decodeReduction, ImageDecoder's allowedReduction).
    #expect(images[Self.assets + "/photo.jpg"].map { [$0.width, $0.height] } == [256, 192])
    #expect(images[Self.assets + "/cover.png"].map { [$0.width, $0.height] } == [512, 512])
  }

  /// A list with a navigation bar, cells in English and Chinese and a photo,
  /// pushing to a photo detail over the settings screenshot.
  static func showcase(scale: Int = 3) -> String {
    """
    name: showcase
    canvas: { device: iphone-15, fps: 30, scale: \(scale) }
    screens:
      list:
        background: systemGroupedBackground
        views:
          - { kind: navbar, text: "照片 Photos" }
          - { id: hero, frame: [16, 119, 361, 200], image: \(assets)/photo.jpg, corner: 12 }
          - { frame: [16, 119, 361, 200], gradient: { colors: ["#00000000", "#00000099"], locations: [0.5, 1] }, corner: 12 }
          - { frame: [32, 279, 300, 30], text: "Sunset 日落", font: { size: 22, weight: bold }, textColor: white }
          - { kind: cell, frame: [16, 335, 361, 44], text: "Recents 最近项目" }
          - { kind: cell, frame: [16, 387, 361, 44], text: "Favourites 个人收藏" }
          - { kind: cell, frame: [16, 439, 361, 44], text: "设置", corner: 10 }
          - { id: cover, frame: [16, 499, 120, 120], image: \(assets)/cover.png, contentMode: fit, color: white, corner: 16 }
          - { frame: [148, 519, 229, 24], text: "Album with a title far too long to fit", font: { size: 17, weight: semibold } }
          - { frame: [148, 547, 229, 20], text: "Artist · 2024", font: 15, textColor: secondaryLabel }
          - { kind: button, frame: [16, 760, 361, 50], text: "Open Settings 打开设置" }
      settings:
        image: \(assets)/settings.png
    timeline:
      - hold: 0.2
      - push: { from: list, to: settings, transition: push }
      - hold: 0.2
    """
  }

  @Test func showcaseRenders() throws {
    // @3x when dumping to look at; @1x otherwise (debug builds are slow).
    let dump = ProcessInfo.processInfo.environment["TRANSVID_DUMP"] != nil
    let scale = dump ? 3 : 1
    let dir = try makeTemporaryDirectory()
    let path = try write(Self.showcase(scale: scale), to: "showcase.cfg", in: dir)
    let renderer = try AssetLoader.makeRenderer(for: try JobParser.load(path: path))
    let spec = renderer.spec
    let first = renderer.frame(0, width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight)
    // The photo's sun is in the hero image (warm pixels near its middle right).
    let sun = first[270 * scale, 219 * scale]
    #expect(sun.r > 200 && sun.g > 180 && sun.b < 200)
    // The settings screenshot fills the second screen (a 2× asset at the canvas scale).
    let settings = renderer.snapshot(of: "settings")!
    #expect(settings[200 * scale, 800 * scale] == Pixel(r: 242, g: 242, b: 247, a: 255))
    if dump {
      try PNGWriter.write(first, to: "/tmp/transvid-showcase-list.png")
      let mid = renderer.frame(Int(0.45 * 30), width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight)
      try PNGWriter.write(mid, to: "/tmp/transvid-showcase-push.png")
    }
  }

  @Test func missingFontsAreADiagnostic() throws {
    // With fonts installed, a job with text loads them; without text, none are needed.
    let dir = try makeTemporaryDirectory()
    let path = try write(
      "canvas: { size: 60x80, scale: 1 }\nscreens:\n  home:\n    views: [ { frame: [0, 0, 60, 40] } ]\ntimeline: [hold: 0.1]\n",
      to: "job.cfg", in: dir)
    #expect(try AssetLoader.fonts(for: try JobParser.load(path: path)).regular.isEmpty)
  }
  /// The fonts load beside the images; a job with a broken image and an
  /// unknown font family still reports the image, as when loaded in turn,
  /// and the font's error stands alone once the image is fixed.
  @Test func imageErrorsComeBeforeFontErrors() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func job(image: String) -> String {
      """
      canvas: { size: 60x80, scale: 1 }
      screens:
        home:
          views:
            - { id: a, frame: [0, 0, 60, 40], image: \(image) }
            - { frame: [0, 40, 60, 40], text: "Hi", font: { family: No Such Face } }
      timeline: [hold: 0.1]
      """
    }
    try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: dir + "/bad.png"))
    let broken = try write(job(image: "bad.png"), to: "broken.cfg", in: dir)
    let imageError = try #require(throws: Diagnostic.self) {
      try AssetLoader.makeRenderer(for: try JobParser.load(path: broken))
    }
    #expect(imageError.location == SourceLocation(file: broken, line: 5, column: 41))
    #expect("\(imageError)".contains("screens.home.views[0].image: cannot decode 'bad.png': "))
    let fixed = try write(job(image: "\(Self.assets)/cover.png"), to: "fixed.cfg", in: dir)
    let fontError = try #require(throws: Diagnostic.self) {
      try AssetLoader.makeRenderer(for: try JobParser.load(path: fixed))
    }
    #expect(fontError.location == SourceLocation(file: fixed, line: 6, column: 63))
    #expect("\(fontError)".contains("screens.home.views[1].font: cannot load font 'No Such Face'"))
  }
  /// The images decode side by side, largest first: each is still exactly
  /// the bitmap of decoding its file alone, with the reduction its screens allow.
  @Test func imagesDecodedSideBySideAreTheOnesDecodedAlone() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // A thumbnail (a reduced JPEG decode), the same photo whole elsewhere
    // under another name, a PNG, a screenshot: different sizes and costs.
    try FileManager.default.copyItem(atPath: Self.assets + "/photo.jpg", toPath: dir + "/thumb.jpg")
    let job = """
      canvas: { size: 390x844, scale: 1 }
      screens:
        home:
          views:
            - { id: a, frame: [0, 0, 60, 45], image: thumb.jpg }
            - { id: b, frame: [0, 50, 390, 292], image: \(Self.assets)/photo.jpg }
            - { id: c, frame: [0, 350, 120, 120], image: \(Self.assets)/cover.png }
        settings:
          image: \(Self.assets)/settings.png
      timeline: [hold: 0.1]
      """
    let spec = try JobParser.load(path: try write(job, to: "job.cfg", in: dir))
    let images = try AssetLoader.images(for: spec)
    #expect(images.count == 4)
    for asset in spec.assets {
      let path = asset.resolvedPath
      let alone = try ImageDecoder.decode(path: path) { info in
        ScreenBuilder.decodeReduction(ofImage: path, width: info.width, height: info.height, in: spec)
      }
      #expect(images[path] == alone, "\(asset.path)")
    }
    // The thumbnail really was reduced (so the decodes differ in cost).
    func image(_ name: String) throws -> Bitmap {
      try #require(spec.assets.first { $0.path.hasSuffix(name) }.flatMap { images[$0.resolvedPath] })
    }
    #expect(try image("thumb.jpg").width < image("/photo.jpg").width)
  }
}
