// Wrapped text and colour emoji against Chromium (see TextOracleTests): the
// same string in a box of the same width with the same font file wraps
// into as many lines, and each line's ink box lands where Chromium's does;
// an emoji from Noto Color Emoji draws in colour with Chromium's ink box.

import Foundation
import Geometry
import Media
import Raster
import Rendering
import Testing

@Suite(.serialized) struct WrappedTextOracleTests {
  struct Case: Sendable, CustomStringConvertible {
    var text: String
    var file: String
    var faceIndex = 0
    var language: String
    var description: String { text }
  }

  static let noto = "/usr/share/fonts/truetype/noto/"
  static let cases = [
    Case(
      text: "The quick brown fox jumps over the lazy dog and keeps on running",
      file: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", language: "en"),
    // Face 0 of the collection (JP) is the one Chromium's @font-face opens.
    Case(
      text: "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。",
      file: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", language: "ja"),
    Case(
      text: "ภาษาไทยเขียนติดกันโดยไม่มีช่องว่างระหว่างคำ การตัดบรรทัดใช้พจนานุกรม",
      file: noto + "NotoSansThai-Regular.ttf", language: "th"),
    Case(text: "مرحبا بالعالم، هذا نص عربي طويل يلتف على عدة أسطر", file: noto + "NotoSansArabic-Regular.ttf", language: "ar"),
  ]
  static let rowHeight = 300, width = 300, pixelSize = 32.0

  static let oracle: Result<Bitmap, any Error> = Result {
    var css = "div { position: absolute; left: 0; width: \(width)px; font-size: \(Int(pixelSize))px; "
    css += "line-height: normal; color: #000; font-kerning: normal; }\n"
    var body = ""
    for (row, c) in cases.enumerated() {
      css += TextOracleTests.fontFaces(["w\(row)"], [c.file])
      body += "<div dir=\"auto\" lang=\"\(c.language)\" style=\"top: \(row * rowHeight)px; font-family: w\(row)\">"
      body += c.text + "</div>\n"
    }
    return try TextOracleTests.screenshot(css: css, body: body, width: width, height: rowHeight * cases.count)
  }

  /// Each line's ink box: rows of ink split at blank gaps taller than 4 rows.
  static func lineBoxes(_ ink: [[UInt8]]) -> [(minX: Int, minY: Int, maxX: Int, maxY: Int)] {
    var boxes: [(minX: Int, minY: Int, maxX: Int, maxY: Int)] = []
    for (y, row) in ink.enumerated() {
      guard let first = row.firstIndex(where: { $0 >= 128 }), let last = row.lastIndex(where: { $0 >= 128 }) else {
        continue
      }
      if let box = boxes.last, y - box.maxY <= 5 {
        boxes[boxes.count - 1] = (min(box.minX, first), box.minY, max(box.maxX, last), y)
      } else {
        boxes.append((first, y, last, y))
      }
    }
    return boxes
  }

  @Test(.enabled(if: TextOracleTests.chromium != nil, "needs Chromium (scripts/bootstrap)"), arguments: cases.indices)
  func wrapsAsChromiumDoes(row: Int) throws {
    let c = Self.cases[row]
    let shot = try Self.oracle.get()
    let theirs = Self.lineBoxes(
      (0..<Self.rowHeight).map { y in (0..<Self.width).map { x in 255 - shot[x, row * Self.rowHeight + y].r } })
    let face = try FontLibrary.font(FontLibrary.FontFile(path: c.file, faceIndex: c.faceIndex, package: "test"))
    let label = Label(c.text, style: TextStyle(size: Self.pixelSize, language: c.language, lines: 0))
    let b = label.render(
      size: Size(width: Double(Self.width), height: Double(Self.rowHeight)), scale: 1, fonts: FontSet(regular: [face]))
    let ours = Self.lineBoxes((0..<b.height).map { y in (0..<b.width).map { x in b[x, y].a } })
    #expect(ours.count == theirs.count && ours.count >= 2, "\(c.text): \(ours.count) lines vs Chromium's \(theirs.count)")
    guard ours.count == theirs.count, let ourTop = ours.first?.minY, let theirTop = theirs.first?.minY else { return }
    for (i, (a, t)) in zip(ours, theirs).enumerated() {
      // Left and right ink edges (alignment and where the line broke) within
      // hinting's few pixels; rows from the first line's top within the
      // rounding of the line height (Chromium rounds ascent and descent).
      #expect(abs(a.minX - t.minX) <= 3 && abs(a.maxX - t.maxX) <= 3, "\(c.text) line \(i): x \(a) vs \(t)")
      #expect(
        abs((a.minY - ourTop) - (t.minY - theirTop)) <= 3 && abs((a.maxY - ourTop) - (t.maxY - theirTop)) <= 3,
        "\(c.text) line \(i): y \(a) vs \(t)")
    }
  }

  static let emojiFile = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

  @Test(
    .enabled(if: TextOracleTests.chromium != nil, "needs Chromium (scripts/bootstrap)"),
    .enabled(if: FileManager.default.fileExists(atPath: emojiFile), "needs fonts-noto-color-emoji"))
  func emojiDrawInColourWithChromiumsInkBox() throws {
    let text = "😀👍🎉", size = 120, fontSize = 48.0
    let css =
      TextOracleTests.fontFaces(["emoji"], [Self.emojiFile])
      + "div { position: absolute; left: 0; top: 0; height: \(size)px; line-height: \(size)px; "
      + "font-size: \(Int(fontSize))px; white-space: pre; font-family: emoji; }\n"
    // Headless Chromium leaves a window much shorter than this blank: the
    // page is taller than the row it reads.
    let shot = try TextOracleTests.screenshot(css: css, body: "<div>\(text)</div>", width: 400, height: 400)
    // Chromium's ink: any channel away from the white page.
    let theirs = Mask(
      (0..<size).map { y in (0..<400).map { x in let p = shot[x, y]; return 255 - min(p.r, p.g, p.b) } })
    let emoji = try FontLibrary.font(FontLibrary.FontFile(path: Self.emojiFile, package: "fonts-noto-color-emoji"))
    let b = Label(text, style: TextStyle(size: fontSize, alignment: .left)).render(
      size: Size(width: 400, height: Double(size)), scale: 1, fonts: FontSet(regular: [emoji]))
    let ours = Mask((0..<b.height).map { y in (0..<b.width).map { x in b[x, y].a } })
    let a = try #require(ours.box, "no ink"), t = try #require(theirs.box, "Chromium drew nothing")
    #expect(abs(a.minX - t.minX) <= 2 && abs(a.width - t.width) <= 3, "x: \(a) vs Chromium \(t)")
    #expect(abs(a.height - t.height) <= 3, "height: \(a) vs Chromium \(t)")
    // In colour: the grinning face's yellow (red and green well above blue)
    // and the party popper's other hues, not one ink colour.
    let pixels = (0..<b.height).flatMap { y in (0..<b.width).map { x in b[x, y] } }.filter { $0.a == 255 }
    #expect(pixels.contains { Int($0.r) - Int($0.b) > 100 && Int($0.g) - Int($0.b) > 60 }, "no yellow")
    #expect(pixels.contains { Int($0.b) - Int($0.r) > 60 || Int($0.g) - Int($0.r) > 60 }, "no blue or green")
  }
}

extension WrappedTextOracleTests {
  /// Writes what transvid draws for every case to $TRANSVID_TEXT_DUMP (a
  /// folder), to look at; skipped without it.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["TRANSVID_TEXT_DUMP"] != nil))
  func dump() throws {
    let dir = ProcessInfo.processInfo.environment["TRANSVID_TEXT_DUMP"]!
    for (row, c) in Self.cases.enumerated() {
      let face = try FontLibrary.font(FontLibrary.FontFile(path: c.file, faceIndex: c.faceIndex, package: "test"))
      let b = Label(c.text, style: TextStyle(size: Self.pixelSize, language: c.language, lines: 0)).render(
        size: Size(width: Double(Self.width), height: Double(Self.rowHeight)), scale: 1, fonts: FontSet(regular: [face]))
      try PNGWriter.write(b, to: "\(dir)/wrap\(row).png")
    }
    let emoji = try FontLibrary.font(FontLibrary.FontFile(path: Self.emojiFile, package: "test"))
    let b = Label("😀👍🎉", style: TextStyle(size: 48, alignment: .left)).render(
      size: Size(width: 400, height: 120), scale: 1, fonts: FontSet(regular: [emoji]))
    try PNGWriter.write(b, to: "\(dir)/emoji.png")
    try PNGWriter.write(Self.oracle.get(), to: "\(dir)/chromium.png")
  }
}
