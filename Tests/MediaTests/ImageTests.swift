import CZlib
import Foundation
import Raster
import Testing

@testable import Media
import TestSupport

/// Opaque quadrants (red, green, blue, white) 64×48, for lossy formats.
func quadrants() -> Bitmap {
  var b = Bitmap(width: 64, height: 48)
  let colours = [
    Pixel(r: 255, g: 0, b: 0, a: 255), Pixel(r: 0, g: 255, b: 0, a: 255),
    Pixel(r: 0, g: 0, b: 255, a: 255), Pixel(r: 255, g: 255, b: 255, a: 255),
  ]
  for y in 0..<48 {
    for x in 0..<64 { b[x, y] = colours[(y / 24) * 2 + x / 32] }
  }
  return b
}

/// Premultiplied pixels of every kind: an opaque gradient on the left, then
/// translucent colours with alpha varying down the rows, and a transparent column.
func translucentSample() -> Bitmap {
  var b = Bitmap(width: 40, height: 30)
  for y in 0..<30 {
    for x in 0..<40 {
      let straight = Color(
        red8: UInt8(x * 6), green8: UInt8(255 - y * 8), blue8: UInt8((x * y) % 256),
        alpha8: x < 16 ? 255 : x == 39 ? 0 : UInt8(y * 8 + 7))
      b[x, y] = straight.premultipliedPixel
    }
  }
  return b
}

func maxChannelDifference(_ a: Pixel, _ b: Pixel) -> Int {
  max(
    abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)),
    abs(Int(a.a) - Int(b.a)))
}

@Suite struct AlphaTests {
  @Test func premultiplyRoundsToNearest() {
    for a in 0...255 {
      var bytes: [UInt8] = []
      for c in 0...255 { bytes += [UInt8(c), UInt8(c), UInt8(c), UInt8(a)] }
      Alpha.premultiply(&bytes)
      for c in 0...255 {
        let expected = UInt8((Double(c * a) / 255).rounded())
        #expect(bytes[c * 4] == expected, "c \(c) a \(a)")
      }
    }
  }

  /// Every valid premultiplied pixel survives un-premultiply → premultiply.
  @Test func unpremultiplyRoundTripsExactly() {
    var mismatches = 0
    for a in 0...255 {
      let source = (0...a).flatMap { [UInt8($0), UInt8($0), UInt8($0), UInt8(a)] }
      var straight = [UInt8](repeating: 0, count: source.count)
      source.withUnsafeBufferPointer { s in
        straight.withUnsafeMutableBufferPointer { d in
          Alpha.unpremultiply(s.baseAddress!, into: d.baseAddress!, pixels: a + 1)
        }
      }
      Alpha.premultiply(&straight)
      if a == 0 { #expect(straight == [0, 0, 0, 0]) }
      mismatches += zip(source, straight).filter { $0 != $1 }.count
    }
    #expect(mismatches == 0)
  }
}

@Suite struct PNGTests {
  @Test func roundTripIsExact() throws {
    let source = translucentSample()
    let png = try PNGWriter.encode(source)
    #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let decoded = try ImageDecoder.decode(data: png, name: "sample.png")
    #expect(decoded.width == source.width && decoded.height == source.height)
    var worst = 0
    for y in 0..<source.height {
      for x in 0..<source.width {
        let d = maxChannelDifference(source[x, y], decoded[x, y])
        if source[x, y].a == 255 { #expect(d == 0, "opaque pixel \(x),\(y)") }
        worst = max(worst, d)
      }
    }
    #expect(worst <= 1)
  }

  @Test func encodingIsDeterministicAndTaggedSRGB() throws {
    let a = try PNGWriter.encode(translucentSample())
    let b = try PNGWriter.encode(translucentSample())
    #expect(a == b)
    #expect(a.firstRange(of: Array("sRGB".utf8)) != nil)
    #expect(a.firstRange(of: Array("tIME".utf8)) == nil)
  }

  /// The pixels are square: one pHYs chunk, 1:1, unit unknown (libavcodec
  /// writes pHYs always; left unset it said 0:1, which readers such as PIL
  /// take as an aspect of 0).
  @Test func declaresSquarePixels() throws {
    let png = try PNGWriter.encode(quadrants())
    var chunks: [(type: String, body: [UInt8])] = []
    var offset = 8
    while offset + 12 <= png.count {
      let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
      chunks.append((String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self), Array(png[(offset + 8)..<(offset + 8 + length)])))
      offset += 12 + length
    }
    #expect(offset == png.count && chunks.last?.type == "IEND")
    let physical = chunks.filter { $0.type == "pHYs" }
    #expect(physical.count == 1 && physical.first?.body == [0, 0, 0, 1, 0, 0, 0, 1, 0])
  }

  @Test func ffmpegReadsOurPNG() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("poster.png")
    let source = translucentSample()
    try PNGWriter.write(source, to: path)
    #expect(try dir.entries() == ["poster.png"])
    let raw = Array(
      try runData("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"]))
    #expect(raw.count == source.width * source.height * 4)
    guard raw.count == source.bytes.count else { return }
    var straight = raw
    Alpha.premultiply(&straight)
    #expect(straight.elementsEqual(source.bytes))
  }

  @Test func writeReplacesAtomicallyAndFailsCleanly() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("out.png")
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    try PNGWriter.write(quadrants(), to: path)
    #expect(try ImageDecoder.decode(path: path).bytes.elementsEqual(quadrants().bytes))
    #expect(try dir.entries() == ["out.png"])
    // A missing folder is made; a file where a folder should be is an error, and nothing is left.
    try PNGWriter.write(quadrants(), to: dir.path("missing/out.png"))
    #expect(try dir.entries() == ["missing", "out.png"])
    #expect(FileManager.default.fileExists(atPath: dir.path("missing/out.png")))
    let error = #expect(throws: MediaError.self) {
      try PNGWriter.write(quadrants(), to: dir.path("out.png/x.png"))
    }
    #expect(error?.message == "'\(dir.path("out.png"))' is a regular file")
    // The folder named as written, without a trailing slash (`transvid frame -o out.png/x.png`: the CLI sweep).
    #expect(error?.operation == "create folder '\(dir.path("out.png"))'")
    #expect(try dir.entries() == ["missing", "out.png"])
  }
}

@Suite struct ImageDecoderTests {
  /// Converts a PNG of ours with the ffmpeg CLI and returns the new file's bytes.
  func convert(_ bitmap: Bitmap, to name: String, _ options: [String]) throws -> [UInt8] {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try PNGWriter.write(bitmap, to: dir.path("in.png"))
    _ = try run("ffmpeg", ["-v", "error", "-i", dir.path("in.png")] + options + [dir.path(name)])
    return Array(try Data(contentsOf: URL(fileURLWithPath: dir.path(name))))
  }

  func expectClose(_ decoded: Bitmap, _ source: Bitmap, within tolerance: Int, _ what: String) {
    #expect(decoded.width == source.width && decoded.height == source.height, "\(what) size")
    guard decoded.width == source.width && decoded.height == source.height else { return }
    // Quadrant centres, away from the edges that lossy formats blur.
    for (x, y) in [(16, 12), (48, 12), (16, 36), (48, 36)] {
      let d = maxChannelDifference(decoded[x, y], source[x, y])
      #expect(d <= tolerance, "\(what) at \(x),\(y): \(decoded[x, y]) vs \(source[x, y])")
    }
  }

  @Test func decodesJPEG() throws {
    let jpeg = try convert(quadrants(), to: "q.jpg", ["-q:v", "2"])
    #expect(try ImageDecoder.info(data: jpeg, name: "q.jpg") == .init(format: "JPEG", width: 64, height: 48))
    expectClose(try ImageDecoder.decode(data: jpeg, name: "q.jpg"), quadrants(), within: 6, "JPEG")
  }

  /// A phone photo stored sideways with EXIF orientation 6 comes out upright.
  @Test func appliesJPEGExifOrientation() throws {
    let jpeg = try convert(quadrants(), to: "q.jpg", ["-q:v", "2"])
    // APP1 "Exif": big-endian TIFF, one IFD entry: Orientation (0x0112) = 6.
    let exif: [UInt8] =
      [0xFF, 0xE1, 0x00, 0x22] + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
      + [0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0x00, 0x06, 0x00, 0x00, 0, 0, 0, 0]
    let rotated = try ImageDecoder.decode(data: Array(jpeg.prefix(2)) + exif + jpeg.dropFirst(2), name: "r.jpg")
    #expect(rotated.width == 48 && rotated.height == 64)
    // Rotated 90° clockwise: blue (bottom left) is now top left, red top right.
    let expected = [
      (12, 16, Pixel(r: 0, g: 0, b: 255, a: 255)), (36, 16, Pixel(r: 255, g: 0, b: 0, a: 255)),
      (12, 48, Pixel(r: 255, g: 255, b: 255, a: 255)), (36, 48, Pixel(r: 0, g: 255, b: 0, a: 255)),
    ]
    for (x, y, colour) in expected {
      #expect(maxChannelDifference(rotated[x, y], colour) <= 6, "\(x),\(y): \(rotated[x, y])")
    }
  }

  @Test func orientationsInvertEachOther() {
    let source = translucentSample()
    for (a, b) in [(2, 2), (3, 3), (4, 4), (5, 5), (6, 8), (8, 6), (7, 7)] {
      let back = ImageDecoder.oriented(ImageDecoder.oriented(source, a), b)
      #expect(back.width == source.width && back.bytes.elementsEqual(source.bytes), "\(a) then \(b)")
    }
    let turned = ImageDecoder.oriented(source, 6)
    #expect(turned.width == source.height && turned[source.height - 1, 0] == source[0, 0])
  }

  /// The tiled turn against the definition, pixel by pixel: every
  /// orientation, on a size of whole and partial 32-pixel tiles whose
  /// pixels all differ.
  @Test func orientedMatchesEachPixelsDefinition() throws {
    let w = 70, h = 37
    var bytes = [UInt8](repeating: 0, count: w * h * 4)
    for i in 0..<(w * h) {
      bytes[4 * i] = UInt8(i & 255)
      bytes[4 * i + 1] = UInt8(i >> 8)
      bytes[4 * i + 2] = UInt8((i * 7) & 255)
      bytes[4 * i + 3] = 255
    }
    let source = try #require(Bitmap(width: w, height: h, bytes: bytes))
    for orientation in 2...8 {
      let turned = ImageDecoder.oriented(source, orientation)
      let dw = orientation >= 5 ? h : w, dh = orientation >= 5 ? w : h
      #expect(turned.width == dw && turned.height == dh)
      var mismatches = 0
      for dy in 0..<dh {
        for dx in 0..<dw {
          let (sx, sy): (Int, Int)
          switch orientation {
          case 2: (sx, sy) = (w - 1 - dx, dy)
          case 3: (sx, sy) = (w - 1 - dx, h - 1 - dy)
          case 4: (sx, sy) = (dx, h - 1 - dy)
          case 5: (sx, sy) = (dy, dx)
          case 6: (sx, sy) = (dy, h - 1 - dx)
          case 7: (sx, sy) = (w - 1 - dy, h - 1 - dx)
          default: (sx, sy) = (w - 1 - dy, dx)
          }
          if turned[dx, dy] != source[sx, sy] { mismatches += 1 }
        }
      }
      #expect(mismatches == 0, "orientation \(orientation)")
    }
  }

  @Test func decodesLossyWebP() throws {
    let webp = try convert(quadrants(), to: "q.webp", ["-quality", "95"])
    #expect(try ImageDecoder.info(data: webp, name: "q.webp").format == "WebP")
    expectClose(try ImageDecoder.decode(data: webp, name: "q.webp"), quadrants(), within: 8, "WebP")
  }

  /// Lossless WebP keeps straight alpha, so the premultiplied result must be exact.
  @Test func decodesLosslessWebPWithAlphaExactly() throws {
    let source = translucentSample()
    let webp = try convert(source, to: "t.webp", ["-lossless", "1"])
    let decoded = try ImageDecoder.decode(data: webp, name: "t.webp")
    #expect(decoded.bytes.elementsEqual(source.bytes))
  }

  /// What the ffmpeg CLI decodes from `bytes`, premultiplied: the oracle for
  /// formats whose conversion to RGBA has one right answer.
  func ffmpegDecode(_ bytes: [UInt8], width: Int, height: Int) throws -> Bitmap? {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try Data(bytes).write(to: URL(fileURLWithPath: dir.path("in")))
    var raw = Array(
      try runData(
        "ffmpeg", ["-v", "error", "-i", dir.path("in"), "-f", "rawvideo", "-pix_fmt", "rgba", "-"]))
    Alpha.premultiply(&raw)
    return Bitmap(width: width, height: height, bytes: raw)
  }

  @Test func decodesBMPAndGIF() throws {
    let bmp = try convert(quadrants(), to: "q.bmp", [])
    #expect(try ImageDecoder.decode(data: bmp, name: "q.bmp").bytes.elementsEqual(quadrants().bytes))
    // ffmpeg's GIF encoder quantises to a fixed 3-3-2 palette (255 → 252).
    let gif = try convert(quadrants(), to: "q.gif", [])
    #expect(try ImageDecoder.info(data: gif, name: "q.gif") == .init(format: "GIF", width: 64, height: 48))
    let decoded = try ImageDecoder.decode(data: gif, name: "q.gif")
    let oracle = try #require(try ffmpegDecode(gif, width: 64, height: 48))
    #expect(decoded.bytes.elementsEqual(oracle.bytes))
    expectClose(decoded, quadrants(), within: 3, "GIF")
  }

  /// A 32-bit BMP without bit masks (BI_RGB, as Pillow writes an RGBA
  /// image) is opaque, its fourth byte reserved, as Windows and Chromium
  /// draw it: a pixel stored with 0 there is its colour, not transparent.
  @Test func a32BitBMPWithoutMasksIsOpaque() throws {
    func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    // Two pixels, bottom-up rows of BGRX: orange with 0, blue with 128 in the fourth byte.
    let pixels: [UInt8] = [0, 149, 255, 0, 255, 0, 0, 128]
    let info = le32(40) + le32(2) + le32(1) + [1, 0, 32, 0] + le32(0) + le32(pixels.count) + le32(2835) + le32(2835) + le32(0) + le32(0)
    let bmp = Array("BM".utf8) + le32(14 + info.count + pixels.count) + le32(0) + le32(14 + info.count) + info + pixels
    let decoded = try ImageDecoder.decode(data: bmp, name: "rgba.bmp")
    #expect(decoded[0, 0] == Pixel(r: 255, g: 149, b: 0, a: 255) && decoded[1, 0] == Pixel(r: 0, g: 0, b: 255, a: 255))
  }

  /// An OS/2 1.x BMP (a 12-byte BITMAPCOREHEADER, whose sides are 16-bit
  /// fields) decodes, as Chromium and Pillow draw it: its sides were read
  /// as 32-bit fields running into the planes and bit count, 65538×1572865,
  /// and refused as over the size limits.
  @Test func anOS2BMPDecodes() throws {
    func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    // Two pixels, one row of BGR (orange, blue), padded to four bytes.
    let pixels: [UInt8] = [0, 149, 255, 255, 0, 0, 0, 0]
    let core = le32(12) + le16(2) + le16(1) + le16(1) + le16(24)
    let bmp = Array("BM".utf8) + le32(14 + core.count + pixels.count) + le32(0) + le32(14 + core.count) + core + pixels
    #expect(try ImageDecoder.info(data: bmp, name: "os2.bmp") == .init(format: "BMP", width: 2, height: 1))
    let decoded = try ImageDecoder.decode(data: bmp, name: "os2.bmp")
    #expect(decoded.width == 2 && decoded.height == 1)
    #expect(decoded[0, 0] == Pixel(r: 255, g: 149, b: 0, a: 255) && decoded[1, 0] == Pixel(r: 0, g: 0, b: 255, a: 255))
  }

  /// A 16-bit BMP's 5-, 6- and 4-bit channels come to the nearest 8-bit
  /// levels, as Chromium draws them (Skia's `SkMasks` table): a white 555
  /// pixel is 255, not 248, and 20 of 31 is 165.
  @Test func a16BitBMPsChannelsReachTheNearestLevels() throws {
    func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    /// Two pixels, one row; `masks`: BI_BITFIELDS's red, green and blue masks, else BI_RGB (555).
    func bmp(_ pixels: [Int], masks: [Int]?) -> [UInt8] {
      let data = pixels.flatMap(le16)
      let info =
        le32(40) + le32(2) + le32(1) + [1, 0, 16, 0] + le32(masks == nil ? 0 : 3) + le32(data.count) + le32(2835)
        + le32(2835) + le32(0) + le32(0) + (masks ?? []).flatMap(le32)
      return Array("BM".utf8) + le32(14 + info.count + data.count) + le32(0) + le32(14 + info.count) + info + data
    }
    let rgb555 = try ImageDecoder.decode(data: bmp([0x7FFF, 20 << 10 | 6 << 5 | 13], masks: nil), name: "555.bmp")
    #expect(rgb555[0, 0] == Pixel(r: 255, g: 255, b: 255, a: 255))
    #expect(rgb555[1, 0] == Pixel(r: 165, g: 49, b: 107, a: 255))
    let rgb565 = try ImageDecoder.decode(
      data: bmp([0xFFFF, 20 << 11 | 33 << 5 | 13], masks: [0xF800, 0x07E0, 0x001F]), name: "565.bmp")
    #expect(rgb565[0, 0] == Pixel(r: 255, g: 255, b: 255, a: 255))
    #expect(rgb565[1, 0] == Pixel(r: 165, g: 134, b: 107, a: 255))
    let rgb444 = try ImageDecoder.decode(
      data: bmp([0x0FFF, 9 << 8 | 2 << 4 | 15], masks: [0x0F00, 0x00F0, 0x000F]), name: "444.bmp")
    #expect(rgb444[0, 0] == Pixel(r: 255, g: 255, b: 255, a: 255))
    #expect(rgb444[1, 0] == Pixel(r: 153, g: 34, b: 255, a: 255))
  }

  /// A 16-bit BMP whose V5 header gives an alpha mask (GIMP's A1R5G5B5 and
  /// A4R4G4B4) is transparent where its alpha bits say so, as Chromium
  /// draws it: libavcodec decoded its colour and dropped the alpha, so a
  /// cut-out drew opaque. Alpha 8 of 15 is level 136; a file whose alpha
  /// bits are all 0 is opaque, as a 32-bit one is.
  @Test func a16BitBMPsAlphaMaskIsHonoured() throws {
    func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    /// Two pixels, one row, under a BITMAPV5HEADER with BI_BITFIELDS `masks` (red, green, blue, alpha).
    func bmp(_ pixels: [Int], masks: [Int]) -> [UInt8] {
      let data = pixels.flatMap(le16)
      let info =
        le32(124) + le32(2) + le32(1) + [1, 0, 16, 0] + le32(3) + le32(data.count) + le32(2835) + le32(2835) + le32(0)
        + le32(0) + masks.flatMap(le32) + Array("BGRs".utf8) + [UInt8](repeating: 0, count: 48) + le32(4) + le32(0)
        + le32(0) + le32(0)
      return Array("BM".utf8) + le32(14 + info.count + data.count) + le32(0) + le32(14 + info.count) + info + data
    }
    let clear = Pixel(r: 0, g: 0, b: 0, a: 0)
    let a1 = try ImageDecoder.decode(data: bmp([0xFFFF, 0x7C00], masks: [0x7C00, 0x03E0, 0x001F, 0x8000]), name: "1555.bmp")
    #expect(a1[0, 0] == Pixel(r: 255, g: 255, b: 255, a: 255) && a1[1, 0] == clear)
    let a4 = try ImageDecoder.decode(data: bmp([0x8FFF, 0x0F00], masks: [0x0F00, 0x00F0, 0x000F, 0xF000]), name: "4444.bmp")
    #expect(a4[0, 0] == Pixel(r: 136, g: 136, b: 136, a: 136) && a4[1, 0] == clear)
    let none = try ImageDecoder.decode(data: bmp([0x7FFF, 0x7C00], masks: [0x7C00, 0x03E0, 0x001F, 0x8000]), name: "0555.bmp")
    #expect(none[0, 0] == Pixel(r: 255, g: 255, b: 255, a: 255) && none[1, 0] == Pixel(r: 255, g: 0, b: 0, a: 255))
  }

  /// A GIF of a `screen` of background index 1 (red) of black, red, blue,
  /// green, whose first image is 2×1 pixels of blue at `x, y`.
  static func twoBluePixelsGIF(screen: (Int, Int), x: Int, y: Int) -> [UInt8] {
    /// LZW data of 2-bit `indices`: a clear code before each, so every code is 3 bits.
    func lzw(_ indices: [UInt8]) -> [UInt8] {
      var bits = 0, count = 0
      var bytes: [UInt8] = []
      for code in indices.flatMap({ [4, Int($0)] }) + [5] {
        bits |= code << count
        count += 3
        while count >= 8 {
          bytes.append(UInt8(bits & 0xFF))
          bits >>= 8
          count -= 8
        }
      }
      if count > 0 { bytes.append(UInt8(bits)) }
      return [2, UInt8(bytes.count)] + bytes + [0]
    }
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    return Array("GIF89a".utf8) + le16(screen.0) + le16(screen.1) + [0x81, 1, 0]
      + [0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 255, 0]
      + [0x2C] + le16(x) + le16(y) + le16(2) + le16(1) + [0] + lzw([2, 2]) + [0x3B]
  }

  /// A GIF whose first image covers part of its logical screen shows the
  /// rest transparent, as Chromium and Firefox draw it, not in the
  /// screen's background colour (libavcodec's fill without a transparent
  /// index).
  @Test func aGIFsScreenOutsideItsFirstImageIsTransparent() throws {
    let blue = Pixel(r: 0, g: 0, b: 255, a: 255)
    let inside = try ImageDecoder.decode(data: Self.twoBluePixelsGIF(screen: (4, 3), x: 1, y: 1), name: "inside.gif")
    var expected = Bitmap(width: 4, height: 3)
    expected[1, 1] = blue
    expected[2, 1] = blue
    #expect(inside == expected)
  }

  /// A GIF's picture is its logical screen grown to hold its first image,
  /// as Chromium 156 draws it (its pixels read back from a canvas): the
  /// image one column past a 4×3 screen's right edge shows whole on a 5×3
  /// picture, one on a 0×0 screen at (1, 1) on a 3×2 one, the rest
  /// transparent.
  @Test func aGIFsPictureGrowsToHoldItsFirstImage() throws {
    let blue = Pixel(r: 0, g: 0, b: 255, a: 255)
    let past = try ImageDecoder.decode(data: Self.twoBluePixelsGIF(screen: (4, 3), x: 3, y: 2), name: "past.gif")
    var expected = Bitmap(width: 5, height: 3)
    expected[3, 2] = blue
    expected[4, 2] = blue
    #expect(past == expected)
    let info = try ImageDecoder.info(data: Self.twoBluePixelsGIF(screen: (4, 3), x: 3, y: 2), name: "past.gif")
    #expect(info.width == 5 && info.height == 3)
    let noScreen = try ImageDecoder.decode(data: Self.twoBluePixelsGIF(screen: (0, 0), x: 1, y: 1), name: "none.gif")
    expected = Bitmap(width: 3, height: 2)
    expected[1, 1] = blue
    expected[2, 1] = blue
    #expect(noScreen == expected)
  }

  /// What libpng makes of `bytes`, a 16-bit PNG of `format` (its samples
  /// read back as they are by the ffmpeg CLI): each sample's nearest 8-bit
  /// level, premultiplied (`SixteenBitSamplesTests.expected`).
  func libpngLevels(_ bytes: [UInt8], format: String, width: Int, height: Int) throws -> Bitmap? {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try Data(bytes).write(to: URL(fileURLWithPath: dir.path("in.png")))
    let raw = Array(
      try runData("ffmpeg", ["-v", "error", "-i", dir.path("in.png"), "-f", "rawvideo", "-pix_fmt", format, "-"]))
    let channels = ["gray16be": 1, "rgb48be": 3, "rgba64be": 4][format]!
    guard raw.count == width * height * channels * 2 else { return nil }
    func sample(_ k: Int) -> UInt16 { UInt16(raw[2 * k]) << 8 | UInt16(raw[2 * k + 1]) }
    var levels: [UInt8] = []
    for i in 0..<(width * height) {
      let s = (0..<channels).map { sample(i * channels + $0) }
      let p =
        switch channels {
        case 1: SixteenBitSamplesTests.expected(s[0], s[0], s[0], 65535)
        case 3: SixteenBitSamplesTests.expected(s[0], s[1], s[2], 65535)
        default: SixteenBitSamplesTests.expected(s[0], s[1], s[2], s[3])
        }
      levels += [p.r, p.g, p.b, p.a]
    }
    return Bitmap(width: width, height: height, bytes: levels)
  }

  /// 8-bit PNGs decode as the ffmpeg CLI decodes them; 16-bit ones to the
  /// nearest 8-bit levels, as libpng scales them (the CLI's swscale
  /// dithers them instead).
  @Test(arguments: ["pal8", "gray", "ya8", "rgb24", "rgb48be", "rgba64be", "gray16be"])
  func decodesEveryPNGPixelFormat(format: String) throws {
    let source = format.hasPrefix("ya") || format.hasPrefix("rgba") ? translucentSample() : quadrants()
    let png = try convert(source, to: "q.png", ["-pix_fmt", format])
    let decoded = try ImageDecoder.decode(data: png, name: "q-\(format).png")
    let sixteen = format.hasSuffix("16be") || format.hasSuffix("48be") || format.hasSuffix("64be")
    let oracle = try #require(
      sixteen
        ? try libpngLevels(png, format: format, width: source.width, height: source.height)
        : try ffmpegDecode(png, width: source.width, height: source.height))
    #expect(decoded.width == source.width && decoded.height == source.height)
    #expect(decoded.bytes.elementsEqual(oracle.bytes), "\(format)")
    // 8-bit sources decode exactly.
    if format == "rgb24" { #expect(decoded.bytes.elementsEqual(source.bytes)) }
  }

  // MARK: - Errors

  @Test func emptyFile() {
    let error = #expect(throws: MediaError.self) { try ImageDecoder.decode(data: [], name: "empty.png") }
    #expect(error?.description == "decode image 'empty.png': the file is empty")
  }

  @Test func randomBytes() {
    var generator = SplitMix64(seed: 7)
    let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let error = #expect(throws: MediaError.self) { try ImageDecoder.decode(data: bytes, name: "noise.png") }
    #expect(error?.message == "not a PNG, JPEG, WebP, GIF or BMP image (unrecognised signature)")
  }

  /// An iPhone's HEIC photo, an AVIF and an MP4 say what they are (their
  /// `ftyp` brand), not only that the signature is unknown, and a HEIC or
  /// AVIF names the export that works.
  @Test func isoMediaFilesSayWhatTheyAre() {
    func ftyp(_ brand: String) -> [UInt8] {
      [0, 0, 0, 0x1C] + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0] + Array("mif1heicmiaf".utf8) + [0, 0, 1, 0x7D]
    }
    let cases = [
      ("heic", "a HEIC (HEIF) image, as an iPhone's camera saves photos; transvid does not decode it: export it as JPEG or PNG (Photos' Export, or Settings › Camera › Formats › Most Compatible)"),
      ("mif1", "a HEIC (HEIF) image, as an iPhone's camera saves photos; transvid does not decode it: export it as JPEG or PNG (Photos' Export, or Settings › Camera › Formats › Most Compatible)"),
      ("avif", "an AVIF image; transvid does not decode it: export it as JPEG or PNG"),
      ("isom", "an MP4 or QuickTime file (a video or audio), not a PNG, JPEG, WebP, GIF or BMP image"),
    ]
    for (brand, message) in cases {
      let error = #expect(throws: MediaError.self) { try ImageDecoder.decode(data: ftyp(brand), name: "IMG_0001.HEIC") }
      #expect(error?.message == message, "\(brand)")
    }
  }

  @Test func truncatedPNG() throws {
    let png = try PNGWriter.encode(translucentSample())
    for length in [10, 30, png.count / 2, png.count - 5] {
      let error = #expect(throws: MediaError.self) {
        try ImageDecoder.decode(data: Array(png.prefix(length)), name: "cut.png")
      }
      #expect(error?.message.hasPrefix("truncated PNG: ") == true, "\(length): \(String(describing: error))")
    }
    let error = try #require(throws: MediaError.self) {
      try ImageDecoder.decode(data: Array(png.prefix(png.count / 2)), name: "cut.png")
    }
    #expect(error.message.contains("chunk 'IDAT'"))
    #expect(error.message.contains("left"))
  }

  @Test func corruptPNGData() throws {
    var png = try PNGWriter.encode(quadrants())
    // Scramble the compressed pixels (IDAT starts after the 33-byte header and
    // the sRGB chunk); the chunk structure stays intact.
    let idat = try #require(png.firstRange(of: Array("IDAT".utf8)))
    for i in idat.upperBound + 2..<min(idat.upperBound + 40, png.count - 16) { png[i] ^= 0x5A }
    // Its CRC no longer matches: the damage is found from the chunk list.
    let damaged = #expect(throws: MediaError.self) { try ImageDecoder.decode(data: png, name: "bad.png") }
    #expect(
      damaged?.message
        == "corrupt PNG: chunk 'IDAT' at byte \(idat.lowerBound - 4) does not match its CRC (the file is damaged)")
    // With a CRC made for the scrambled bytes, the image data fails to inflate.
    sealChunk(&png, at: idat.lowerBound - 4)
    let error = #expect(throws: MediaError.self) { try ImageDecoder.decode(data: png, name: "bad.png") }
    #expect(error?.message == "corrupt PNG data (inflate returned error -3)")
  }

  /// Writes the CRC of the PNG chunk at `offset` (its length field) for its type and body as they are.
  func sealChunk(_ png: inout [UInt8], at offset: Int) {
    let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
    let crc = png.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress! + offset + 4, UInt32(length + 4))) }
    for k in 0..<4 { png[offset + 8 + length + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
  }

  @Test func truncatedJPEG() throws {
    let jpeg = try convert(quadrants(), to: "q.jpg", [])
    // Cut halfway through the entropy-coded data, after the scan header.
    let scan = try #require(jpeg.firstRange(of: [0xFF, 0xDA])).lowerBound
    let data = scan + 2 + (Int(jpeg[scan + 2]) << 8 | Int(jpeg[scan + 3]))
    let error = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: Array(jpeg.prefix((data + jpeg.count) / 2)), name: "cut.jpg")
    }
    #expect(error?.message == "truncated JPEG: no end-of-image marker after the image data")
    let header = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: Array(jpeg.prefix(40)), name: "cut.jpg")
    }
    #expect(header?.message.hasPrefix("truncated JPEG: ") == true)
  }

  /// Flaws that leave every pixel as encoded are no error: a JPEG with
  /// bytes between its image data and its end marker (libjpeg's
  /// "extraneous bytes" warning), a PNG
  /// whose ancillary chunk fails its CRC (libpng drops such a chunk, and
  /// so browsers show the image), a GIF without its trailer after its
  /// first image, a GIF whose second frame is cut: the picture each shows
  /// is the one its clean file shows.
  @Test func harmlessFlawsStillDecode() throws {
    let jpeg = try convert(quadrants(), to: "q.jpg", ["-q:v", "2"])
    #expect(jpeg.suffix(2) == [0xFF, 0xD9])
    let extraneous = Array(jpeg.dropLast(2)) + Array(1...39) + [0xFF, 0xD9]
    expectClose(try ImageDecoder.decode(data: extraneous, name: "x.jpg"), quadrants(), within: 6, "extraneous bytes")

    let png = try PNGWriter.encode(quadrants())
    // A pHYs chunk (ancillary: lower-case first letter) with a wrong CRC, after IHDR.
    let phys: [UInt8] = [0, 0, 0, 9] + Array("pHYs".utf8) + [0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1] + [0xDE, 0xAD, 0xBE, 0xEF]
    let damaged = Array(png[..<33]) + phys + Array(png[33...])
    #expect(try ImageDecoder.decode(data: damaged, name: "d.png") == quadrants())

    let frames = try convert(quadrants(), to: "q.gif", [])
    let clean = try ImageDecoder.decode(data: frames, name: "q.gif")
    #expect(frames.last == 0x3B)
    #expect(try ImageDecoder.decode(data: Array(frames.dropLast()), name: "t.gif") == clean)
    let animated = try ReducedDecodeTests.generated("testsrc2=s=64x48:r=10", "a.gif", ["-frames:v", "3"])
    let first = try ImageDecoder.decode(data: animated, name: "a.gif")
    #expect(try ImageDecoder.decode(data: Array(animated.prefix(animated.count - 40)), name: "a.gif") == first)
  }

  /// Bytes between a JPEG's header segments that are no marker (an editor's
  /// padding after a segment) lose no pixel: libjpeg skips them with a
  /// warning, and browsers show the file. They are no error, and the
  /// picture is the clean file's, to the byte; `transvid check` says the
  /// same, as its header is read alike.
  @Test func strayBytesBetweenJPEGSegments() throws {
    let jpeg = try convert(quadrants(), to: "q.jpg", ["-q:v", "2"])
    let clean = try ImageDecoder.decode(data: jpeg, name: "q.jpg")
    for marker: [UInt8] in [[0xFF, 0xDB], [0xFF, 0xC0], [0xFF, 0xDA]] {
      let at = try #require(jpeg.firstRange(of: marker)).lowerBound
      for stray: [UInt8] in [[0, 1, 2], [0x55], [0xFF, 0x00, 7]] {
        let flawed = Array(jpeg[..<at]) + stray + Array(jpeg[at...])
        let info = try ImageDecoder.checkHeader(data: flawed, name: "q.jpg")
        #expect(info.width == clean.width && info.height == clean.height)
        let image = try ImageDecoder.decode(data: flawed, name: "q.jpg")
        #expect(image == clean, "\(stray) before \(marker)")
      }
    }
  }

  @Test func truncatedWebP() throws {
    let webp = try convert(quadrants(), to: "q.webp", [])
    let error = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: Array(webp.prefix(webp.count - 10)), name: "cut.webp")
    }
    #expect(error?.message.hasPrefix("truncated WebP: the header declares ") == true)
  }

  /// A PNG header that declares a huge or empty size is refused before decoding.
  @Test func declaredSizeIsCheckedFirst() throws {
    let png = try PNGWriter.encode(quadrants())
    func withSize(_ width: UInt32, _ height: UInt32) -> [UInt8] {
      var p = png
      for (k, v) in [(16, width), (20, height)] {
        p[k] = UInt8(v >> 24)
        p[k + 1] = UInt8(truncatingIfNeeded: v >> 16)
        p[k + 2] = UInt8(truncatingIfNeeded: v >> 8)
        p[k + 3] = UInt8(truncatingIfNeeded: v)
      }
      sealChunk(&p, at: 8)
      return p
    }
    let bomb = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: withSize(50_000, 50_000), name: "bomb.png")
    }
    #expect(
      bomb?.message
        == "PNG declares 50000×50000 = 2500000000 pixels, over the limits of 16384 per side and 100000000 in all")
    let wide = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: withSize(12_000, 10_000), name: "wide.png")
    }
    // Only the limit passed: each side is within 16384.
    #expect(wide?.message == "PNG declares 12000×10000 = 120000000 pixels, over the limit of 100000000 in all")
    let long = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: withSize(20_000, 100), name: "long.png")
    }
    #expect(long?.message == "PNG declares 20000×100 pixels, over the limit of 16384 per side")
    let empty = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: withSize(0, 0), name: "zero.png")
    }
    #expect(empty?.message == "PNG declares an empty size 0×0")
    let small = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: png, name: "q.png", limits: .init(maxSide: 32))
    }
    #expect(small?.message == "PNG declares 64×48 pixels, over the limit of 32 per side")
    #expect(try ImageDecoder.info(data: withSize(50_000, 50_000), name: "bomb.png").width == 50_000)
  }

  @Test func missingFile() {
    let error = #expect(throws: MediaError.self) { try ImageDecoder.decode(path: "/nonexistent/x.png") }
    #expect(error?.description == "read '/nonexistent/x.png': No such file or directory")
  }
}

/// A small seeded generator, so "random" test data is the same on every run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
