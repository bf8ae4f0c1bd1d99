// Text against an independent oracle: the same strings, the same font
// files, rendered by headless Chromium (HarfBuzz inside Blink, but its own
// itemization, bidi, font fallback and rasterizer). Compared by the ink's
// bounding box and by how much of each ink lies on the other's; Arabic is
// also counted in connected ink blobs (joined letters are one blob each
// word part, isolated letters one each).

import Foundation
import Geometry
import Media
import Raster
import Rendering
import Testing

@Suite(.serialized) struct TextOracleTests {
  struct Case: Sendable, CustomStringConvertible {
    var text: String
    /// Font files, first choice first, as CSS `font-family` fallbacks.
    var files: [String]
    var description: String { text }
  }

  static let noto = "/usr/share/fonts/truetype/noto/"
  static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
  static let cases = [
    Case(text: "سلام عليكم", files: [noto + "NotoSansArabic-Regular.ttf"]),
    Case(text: "مرحبا بالعالم", files: [noto + "NotoSansArabic-Regular.ttf"]),
    Case(text: "שלום עולם", files: [noto + "NotoSansHebrew-Regular.ttf"]),
    Case(text: "नमस्ते क्षत्रिय", files: [noto + "NotoSansDevanagari-Regular.ttf"]),
    Case(text: "สวัสดีครับ ที่นี่", files: [noto + "NotoSansThai-Regular.ttf"]),
    Case(text: "Office AVATAR", files: [dejaVu]),
    Case(text: "Hi مرحبا 123", files: [noto + "NotoSansArabic-Regular.ttf", dejaVu]),
    Case(text: "😀👍🎉", files: ["/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"]),
  ]
  static let rowHeight = 100, width = 700, pixelSize = 40.0

  static var chromium: String? {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// One screenshot holding every case, a row each, black on white.
  static let oracle: Result<Bitmap, any Error> = Result {
    var css = "div { position: absolute; left: 0; height: \(rowHeight)px; line-height: \(rowHeight)px; "
    css += "font-size: \(Int(pixelSize))px; white-space: pre; color: #000; font-kerning: normal; }\n"
    var body = ""
    for (row, c) in cases.enumerated() {
      let families = c.files.indices.map { "f\(row)x\($0)" }
      css += fontFaces(families, c.files)
      body += "<div dir=\"auto\" style=\"top: \(row * rowHeight)px; font-family: \(families.joined(separator: ", "))\">"
      body += c.text + "</div>\n"
    }
    return try screenshot(css: css, body: body, width: width, height: rowHeight * cases.count)
  }

  static func fontFaces(_ families: [String], _ files: [String]) -> String {
    zip(families, files).map { family, file in
      "@font-face { font-family: \(family); src: url(\"\(URL(fileURLWithPath: file).absoluteString)\"); }\n"
    }.joined()
  }

  /// Headless Chromium's screenshot of a page with `css` and `body`, at one device pixel per CSS pixel.
  static func screenshot(css: String, body: String, width: Int, height: Int) throws -> Bitmap {
    let dir = try makeTemporaryDirectory()
    let style = "body { margin: 0; background: #fff; }\n" + css
    let html =
      "<!doctype html><html><head><meta charset=\"utf-8\"><style>\(style)</style></head><body>\(body)</body></html>"
    try write(html, to: "text.html", in: dir)
    let png = path(dir, "text.png")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: chromium!)
    process.arguments = [
      "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--hide-scrollbars",
      "--force-device-scale-factor=1", "--user-data-dir=\(path(dir, "profile"))",
      "--window-size=\(width),\(height)", "--screenshot=\(png)",
      URL(fileURLWithPath: path(dir, "text.html")).absoluteString,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return try ImageDecoder.decode(path: png)
  }

  /// Ink coverage 0…255 per pixel of one row of the oracle (255 − red on white).
  static func oracleInk(row: Int) throws -> [[UInt8]] {
    let shot = try oracle.get()
    return (0..<rowHeight).map { y in (0..<width).map { x in 255 - shot[x, row * rowHeight + y].r } }
  }

  /// Ink of transvid's label: its alpha.
  static func ownInk(_ c: Case) throws -> [[UInt8]] {
    let faces = try c.files.map { try FontLibrary.font(FontLibrary.FontFile(path: $0, faceIndex: 0, package: "test")) }
    let label = Label(c.text, style: TextStyle(size: pixelSize, alignment: .left))
    let b = label.render(size: Size(width: Double(width), height: Double(rowHeight)), scale: 1, fonts: FontSet(regular: faces))
    return (0..<b.height).map { y in (0..<b.width).map { x in b[x, y].a } }
  }

  @Test(.enabled(if: chromium != nil, "needs Chromium (scripts/bootstrap)"), arguments: cases.indices)
  func sameInkAsChromium(row: Int) throws {
    let c = Self.cases[row]
    let theirs = Mask(try Self.oracleInk(row: row)), ours = Mask(try Self.ownInk(c))
    let a = try #require(ours.box, "no ink for \(c.text)"), b = try #require(theirs.box, "Chromium drew nothing")
    // The same extent, within the hinting Chromium applies and transvid does not.
    #expect(abs(a.width - b.width) <= max(3, b.width / 40), "\(c.text): width \(a.width) vs Chromium \(b.width)")
    #expect(abs(a.height - b.height) <= 3, "\(c.text): height \(a.height) vs Chromium \(b.height)")
    // Aligned on the boxes' corners, each ink lies on the other's (within one
    // pixel); measured: at least 0.995 both ways for every case.
    let onTheirs = ours.fraction(near: theirs, shift: (b.minX - a.minX, b.minY - a.minY))
    let onOurs = theirs.fraction(near: ours, shift: (a.minX - b.minX, a.minY - b.minY))
    #expect(onTheirs > 0.99 && onOurs > 0.99, "\(c.text): \(onTheirs), \(onOurs)")
    if c.text == "سلام عليكم" {
      // Joined: سلا م عليكم and the dots of ي — not one blob per letter.
      #expect(ours.components == theirs.components)
      #expect(ours.components <= 6)
    }
  }
}

/// Pixels with at least half coverage.
struct Mask: CustomStringConvertible {
  var description: String { "\(width)×\(height) mask, ink box \(String(describing: box))" }

  var width: Int, height: Int
  var bits: [Bool]

  init(_ ink: [[UInt8]]) {
    height = ink.count
    width = ink.first?.count ?? 0
    bits = ink.flatMap { $0.map { $0 >= 128 } }
  }

  subscript(x: Int, y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height && bits[y * width + x] }

  var box: (minX: Int, minY: Int, width: Int, height: Int)? {
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    for y in 0..<height {
      for x in 0..<width where self[x, y] {
        minX = min(minX, x)
        minY = min(minY, y)
        maxX = max(maxX, x)
        maxY = max(maxY, y)
      }
    }
    return maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
  }

  /// The share of this mask's pixels that, moved by `shift`, have ink of
  /// `other` within one pixel.
  func fraction(near other: Mask, shift: (Int, Int)) -> Double {
    var total = 0, near = 0
    for y in 0..<height {
      for x in 0..<width where self[x, y] {
        total += 1
        let (ox, oy) = (x + shift.0, y + shift.1)
        if (-1...1).contains(where: { dy in (-1...1).contains { dx in other[ox + dx, oy + dy] } }) { near += 1 }
      }
    }
    return total == 0 ? 0 : Double(near) / Double(total)
  }

  /// 8-connected blobs of ink.
  var components: Int {
    var seen = [Bool](repeating: false, count: bits.count)
    var count = 0
    for start in bits.indices where bits[start] && !seen[start] {
      count += 1
      var stack = [start]
      seen[start] = true
      while let i = stack.popLast() {
        let x = i % width, y = i / width
        for dy in -1...1 {
          for dx in -1...1 where self[x + dx, y + dy] {
            let j = (y + dy) * width + x + dx
            if !seen[j] {
              seen[j] = true
              stack.append(j)
            }
          }
        }
      }
    }
    return count
  }
}
