// A 1-bit grey PNG's tRNS makes its pixels of that grey transparent, as
// libpng draws them, though libavcodec decodes such a PNG without alpha.

import Raster
import Testing

@testable import Media

@Suite struct PNGGreyTransparencyTests {
  /// A 16×2 1-bit grey PNG (Adam7-interlaced when `interlaced`): row 0
  /// alternates black and white, row 1 is white; `extra` chunks after its
  /// header.
  static func png(_ extra: [UInt8], interlaced: Bool = false) -> [UInt8] {
    typealias T = PNGAncillaryChunksTests
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header = T.chunk("IHDR", [0, 0, 0, 16, 0, 0, 0, 2, 1, 0, 0, 0, interlaced ? 1 : 0])
    let rows: [[Int]] = [(0..<16).map { $0 & 1 }, [Int](repeating: 1, count: 16)]
    func packed(_ row: [Int]) -> [UInt8] {
      [0] + stride(from: 0, to: row.count, by: 8).map { start in
        row[start..<min(start + 8, row.count)].enumerated().reduce(UInt8(0)) { $0 | UInt8($1.element) << (7 - $1.offset) }
      }
    }
    var raw: [UInt8] = []
    if interlaced {
      // Adam7's passes (x0, y0, dx, dy); a pass with no pixel has no rows.
      for (x0, y0, dx, dy) in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] {
        for y in stride(from: y0, to: rows.count, by: dy) {
          let row = stride(from: x0, to: 16, by: dx).map { rows[y][$0] }
          if !row.isEmpty { raw += packed(row) }
        }
      }
    } else {
      raw = rows.flatMap(packed)
    }
    return signature + header + extra + T.chunk("IDAT", T.deflated(raw)) + T.chunk("IEND", [])
  }

  static let clear = Pixel(r: 0, g: 0, b: 0, a: 0)
  static let white = Pixel(r: 255, g: 255, b: 255, a: 255)
  static let black = Pixel(r: 0, g: 0, b: 0, a: 255)

  /// tRNS grey 1 clears the white pixels and grey 0 the black ones, stored
  /// in rows or interlaced; without tRNS, or with a value no 1-bit sample
  /// has, every pixel is opaque.
  @Test func theGreyTheChunkNamesIsTransparent() throws {
    typealias T = PNGAncillaryChunksTests
    for interlaced in [false, true] {
      let clearWhite = try ImageDecoder.decode(data: Self.png(T.chunk("tRNS", [0, 1]), interlaced: interlaced), name: "w.png")
      let whiteOk = clearWhite[0, 0] == Self.black && clearWhite[1, 0] == Self.clear && clearWhite[15, 1] == Self.clear
      #expect(whiteOk, "interlaced \(interlaced)")
      let clearBlack = try ImageDecoder.decode(data: Self.png(T.chunk("tRNS", [0, 0]), interlaced: interlaced), name: "b.png")
      let blackOk = clearBlack[0, 0] == Self.clear && clearBlack[1, 0] == Self.white && clearBlack[15, 1] == Self.white
      #expect(blackOk, "interlaced \(interlaced)")
    }
    for extra in [[], T.chunk("tRNS", [0, 2])] {
      let opaque = try ImageDecoder.decode(data: Self.png(extra), name: "o.png")
      let ok = opaque[0, 0] == Self.black && opaque[1, 0] == Self.white
      #expect(ok)
    }
  }

  /// A damaged tRNS is no tRNS, as libpng drops it: the PNG is opaque.
  @Test func aDamagedChunkChangesNothing() throws {
    var chunk = PNGAncillaryChunksTests.chunk("tRNS", [0, 1])
    chunk[chunk.count - 1] ^= 0xFF
    let decoded = try ImageDecoder.decode(data: Self.png(chunk), name: "d.png")
    let ok = decoded[1, 0] == Self.white && decoded[0, 0] == Self.black
    #expect(ok)
  }
}
