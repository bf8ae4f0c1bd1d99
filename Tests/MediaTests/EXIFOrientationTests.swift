// A PNG's EXIF orientation (its eXIf chunk, a bare TIFF structure) is read
// in either byte order and applied as a JPEG's is; a malformed block, cut
// anywhere or with offsets past its end, has no orientation.

import Raster
import Testing

@testable import Media

@Suite struct EXIFOrientationTests {
  /// A TIFF block whose IFD0 holds `entries` (tag, type, count, value as
  /// a SHORT) before Orientation = `orientation`, in `littleEndian` order.
  static func tiff(_ orientation: Int, littleEndian: Bool, type: Int = 3, before entries: Int = 1) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
    var block = (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8) + u16(entries + 1)
    // ImageWidth (0x0100), a LONG, before it: entries are walked in order.
    for _ in 0..<entries { block += u16(0x0100) + u16(4) + u32(1) + u32(4032) }
    return block + u16(0x0112) + u16(type) + u32(1) + u16(orientation) + u16(0) + u32(0)
  }

  @Test func readsEitherByteOrder() {
    for little in [true, false] {
      for value in 1...8 {
        #expect(EXIFOrientation.orientation(tiff: Self.tiff(value, littleEndian: little)[...]) == value)
      }
      #expect(EXIFOrientation.orientation(tiff: Self.tiff(6, littleEndian: little, before: 0)[...]) == 6)
      #expect(EXIFOrientation.orientation(tiff: Self.tiff(0, littleEndian: little)[...]) == nil)
      #expect(EXIFOrientation.orientation(tiff: Self.tiff(9, littleEndian: little)[...]) == nil)
      // A LONG is not the SHORT the tag is.
      #expect(EXIFOrientation.orientation(tiff: Self.tiff(6, littleEndian: little, type: 4)[...]) == nil)
    }
    // A slice that does not start at 0, as a chunk's body is.
    let padded = [UInt8](repeating: 0x4D, count: 5) + Self.tiff(8, littleEndian: false)
    #expect(EXIFOrientation.orientation(tiff: padded[5...]) == 8)
  }

  /// Hostile blocks: cut at every length, offsets and counts pointing past
  /// the end, a wrong signature: no orientation, and no read out of bounds.
  @Test func malformedBlocksHaveNone() {
    let whole = Self.tiff(6, littleEndian: false)
    // Cut anywhere before the end of the Orientation entry (the next IFD's offset after it is not read).
    for length in 0..<(whole.count - 4) {
      #expect(EXIFOrientation.orientation(tiff: whole[..<length]) == nil, "cut at \(length)")
    }
    var farDirectory = whole
    farDirectory.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
    // 65 535 entries declared, two there, neither Orientation.
    var manyEntries = whole
    manyEntries.replaceSubrange(8..<10, with: [0xFF, 0xFF])
    manyEntries[23] = 0x13
    var notTIFF = whole
    notTIFF[3] = 43
    var mixedOrder = whole
    mixedOrder[1] = 0x49
    var directoryInHeader = whole
    directoryInHeader[7] = 2
    for block in [farDirectory, manyEntries, notTIFF, mixedOrder, directoryInHeader, Array("Exif\0\0".utf8) + whole] {
      #expect(EXIFOrientation.orientation(tiff: block[...]) == nil)
    }
    var generator = SplitMix64(seed: 274)
    for _ in 0..<2000 {
      var block = whole
      for _ in 0..<3 { block[Int.random(in: 0..<block.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
      if let value = EXIFOrientation.orientation(tiff: block[...]) { #expect((1...8).contains(value)) }
    }
  }

  /// A PNG stored sideways with eXIf orientation 6, or upside down with 3,
  /// decodes upright, as UIImage and Safari show it; the first eXIf counts.
  @Test func aPNGsOrientationIsApplied() throws {
    let png = try PNGWriter.encode(quadrants())
    // After the signature and IHDR.
    func withChunks(_ chunks: [UInt8]) -> [UInt8] { Array(png.prefix(33)) + chunks + png.dropFirst(33) }
    let red = Pixel(r: 255, g: 0, b: 0, a: 255), green = Pixel(r: 0, g: 255, b: 0, a: 255)
    let blue = Pixel(r: 0, g: 0, b: 255, a: 255), white = Pixel(r: 255, g: 255, b: 255, a: 255)
    #expect(quadrants()[16, 12] == red && quadrants()[48, 12] == green)
    #expect(quadrants()[16, 36] == blue && quadrants()[48, 36] == white)

    for little in [false, true] {
      let exif = PNGAncillaryChunksTests.chunk("eXIf", Self.tiff(6, littleEndian: little))
      let turned = try ImageDecoder.decode(data: withChunks(exif), name: "six.png")
      #expect(turned == ImageDecoder.oriented(quadrants(), 6))
      // Turned 90° clockwise: blue (bottom left) is now top left, red top right.
      #expect(turned.width == 48 && turned.height == 64)
      #expect(turned[12, 16] == blue && turned[36, 16] == red && turned[12, 48] == white && turned[36, 48] == green)
    }
    let upsideDown = PNGAncillaryChunksTests.chunk("eXIf", Self.tiff(3, littleEndian: true))
    let sideways = PNGAncillaryChunksTests.chunk("eXIf", Self.tiff(6, littleEndian: true))
    let turned = try ImageDecoder.decode(data: withChunks(upsideDown + sideways), name: "three.png")
    #expect(turned.width == 64 && turned[16, 12] == white && turned[48, 36] == red)
    let separated = PNGAncillaryChunks.separated(withChunks(upsideDown))
    #expect(separated.orientation == 3 && separated.stream == nil)
    // A malformed block is no orientation: the picture as stored.
    let broken = PNGAncillaryChunksTests.chunk("eXIf", Array(Self.tiff(6, littleEndian: true).prefix(20)))
    #expect(try ImageDecoder.decode(data: withChunks(broken), name: "broken.png") == quadrants())
  }

  /// An eXIf after the image data is no orientation: Chromium draws such a
  /// PNG as stored (CSS Images 3 ignores metadata after the image data),
  /// even when an eXIf before it came to nothing; a malformed one before
  /// the image data still takes the place of the first.
  @Test func anOrientationAfterTheImageDataIsNone() throws {
    let png = try PNGWriter.encode(quadrants())
    let sideways = PNGAncillaryChunksTests.chunk("eXIf", Self.tiff(6, littleEndian: true))
    // Before IEND, after the IDAT chunks.
    let late = Array(png.dropLast(12)) + sideways + Array(png.suffix(12))
    #expect(PNGAncillaryChunks.separated(late).orientation == nil)
    #expect(try ImageDecoder.decode(data: late, name: "late.png") == quadrants())
  }
}
