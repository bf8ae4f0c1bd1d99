import Raster
import Testing

@testable import Media
import TestSupport

/// The images of a GIF file, read from its bytes: each image descriptor's
/// rectangle, whether it carries a local colour table (and its entries),
/// and its graphic control extension's transparent index (nil when the
/// flag is clear).
struct GIFImageHeader: Equatable {
  var x: Int, y: Int, width: Int, height: Int
  var hasLocalTable: Bool
  var transparentIndex: Int?
  /// The local table's entries as stored (a power of two), nil without one.
  var localTableEntries: Int? = nil
}

func gifImageHeaders(_ bytes: [UInt8]) -> [GIFImageHeader] {
  // A graphic control extension followed by an image descriptor
  // (2C x y w h flags, LE16 numbers).
  graphicControlOffsets(bytes).filter { $0 + 18 < bytes.count && bytes[$0 + 8] == 0x2C }.map { i in
    func le(_ k: Int) -> Int { Int(bytes[i + k]) | Int(bytes[i + k + 1]) << 8 }
    return GIFImageHeader(
      x: le(9), y: le(11), width: le(13), height: le(15), hasLocalTable: bytes[i + 17] & 0x80 != 0,
      transparentIndex: bytes[i + 3] & 1 != 0 ? Int(bytes[i + 6]) : nil,
      localTableEntries: bytes[i + 17] & 0x80 != 0 ? 2 << Int(bytes[i + 17] & 7) : nil)
  }
}

@Suite enum GIFTransparencyTests {
  static let width = 64, height = 48

  /// Left half: a still grey ramp. Right half: a hue that turns from red to
  /// blue over the clip (so every frame wants other colours), except a still
  /// 8×8 white square in its middle.
  static func clip(_ i: Int) -> Bitmap {
    var b = Bitmap(width: width, height: height, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
    for y in 0..<height {
      for x in 0..<width {
        if x < width / 2 {
          let v = UInt8(40 + 5 * x + y)
          b[x, y] = Pixel(r: v, g: v, b: v, a: 255)
        } else if (44..<52).contains(x) && (20..<28).contains(y) {
          b[x, y] = Pixel(r: 255, g: 255, b: 255, a: 255)
        } else {
          let t = Double(i) / 7, shade = Double(x - width / 2 + y) / Double(width / 2 + height)
          b[x, y] = Pixel(
            r: UInt8((1 - t) * (120 + 135 * shade)), g: UInt8(60 * shade), b: UInt8(t * (120 + 135 * shade)),
            a: 255)
        }
      }
    }
    return b
  }

  static func isStill(_ x: Int, _ y: Int) -> Bool { x < width / 2 || ((44..<52).contains(x) && (20..<28).contains(y)) }

  /// With a palette per frame, every image after the first carries its own
  /// table, covers only the right half, and leaves the still square
  /// transparent: decoded, the still pixels never change.
  @Test static func unchangedPixelsStayTransparentAcrossPaletteChanges() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("local.gif")
    let summary = try GIFWriter.write(
      to: path, frameCount: 8, fps: 10, options: GIFOptions(palette: .perFrame), frame: clip)
    #expect(summary.frames == 8)
    let headers = gifImageHeaders(try Platform.readFile(path))
    #expect(headers.count == 8)
    #expect(headers[0] == GIFImageHeader(x: 0, y: 0, width: width, height: height, hasLocalTable: false))
    for (k, header) in headers.enumerated().dropFirst() {
      #expect(header.hasLocalTable, "image \(k)")
      #expect(header.x >= width / 2, "image \(k) starts at x \(header.x)")
      #expect(header.transparentIndex != nil, "image \(k): the still square must be transparent")
    }
    let gif = try GIFReader(path: path)
    #expect(gif.frames.count == 8)
    for k in 1..<gif.frames.count {
      #expect(psnr(gif.frames[k], gif.frames[0], including: isStill) == .infinity, "image \(k)")
      #expect(psnr(gif.frames[k], clip(k), including: { !isStill($0, $1) }) > 30, "image \(k)")
    }
  }

  /// One global palette: the same rectangles, no local tables. The default
  /// (`palette: .auto`) writes the same file: every image shows for one
  /// frame, too short for a table of its own to pay.
  @Test(arguments: [GIFOptions.Palette.global, .auto])
  static func globalPaletteCarriesOnlyTheChangedRectangle(_ palette: GIFOptions.Palette) throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("global.gif")
    try GIFWriter.write(to: path, frameCount: 8, fps: 10, options: GIFOptions(palette: palette), frame: clip)
    let headers = gifImageHeaders(try Platform.readFile(path))
    #expect(headers.count == 8)
    #expect(headers.allSatisfy { !$0.hasLocalTable })
    #expect(headers.dropFirst().allSatisfy { $0.x >= width / 2 && $0.transparentIndex != nil })
    let gif = try GIFReader(path: path)
    for k in 1..<gif.frames.count {
      #expect(psnr(gif.frames[k], gif.frames[0], including: isStill) == .infinity, "image \(k)")
    }
  }

  /// A grey ramp rests 30 frames, then a red–green field rests 12: a
  /// global palette of 16 colours, weighed by the rests, is mostly greys,
  /// and shares its entries between both. With `palette: .auto` each
  /// image carries its own table, the first too: decoded, the ramp and
  /// the field are each nearer their source than with the global palette
  /// alone, and the greys of the ramp that stay on screen are those of the
  /// first image.
  @Test static func aScreenTheGlobalPaletteFailsTakesItsOwnWhenItRests() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    func frame(_ i: Int) -> Bitmap {
      var b = Bitmap(width: width, height: height, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
      for y in 0..<height {
        for x in 0..<width {
          let grey = UInt8(4 * x)
          b[x, y] = x >= 8 && i >= 30
            ? Pixel(r: UInt8(60 + 3 * x), g: UInt8(40 + 4 * y), b: 30, a: 255)
            : Pixel(r: grey, g: grey, b: grey, a: 255)
        }
      }
      return b
    }
    var gifs: [GIFOptions.Palette: (headers: [GIFImageHeader], frames: [Bitmap])] = [:]
    for palette in [GIFOptions.Palette.global, .auto] {
      let path = dir.path("\(palette).gif")
      try GIFWriter.write(
        to: path, frameCount: 42, fps: 10, options: GIFOptions(maxColors: 16, palette: palette), frame: frame)
      gifs[palette] = (gifImageHeaders(try Platform.readFile(path)), try GIFReader(path: path).frames)
    }
    let (global, auto) = (gifs[.global]!, gifs[.auto]!)
    try #require(global.headers.count == 2 && auto.headers.count == 2 && auto.frames.count == 2)
    #expect(global.headers.allSatisfy { !$0.hasLocalTable })
    #expect(auto.headers.map(\.hasLocalTable) == [true, true])
    #expect(auto.headers[1].x == 8)
    let (ramp, rampOne) = (psnr(auto.frames[0], frame(0)), psnr(global.frames[0], frame(0)))
    #expect(ramp > rampOne, "own palette \(ramp) dB, global \(rampOne) dB")
    let field = { (x: Int, _: Int) in x >= 8 }
    let (own, one) = (psnr(auto.frames[1], frame(30), including: field), psnr(global.frames[1], frame(30), including: field))
    #expect(own > one + 3, "own palette \(own) dB, global \(one) dB")
    #expect(psnr(auto.frames[1], auto.frames[0], including: { x, _ in x < 8 }) == .infinity)
  }

  /// Colours that fill large flat areas come out exactly (libimagequant
  /// averages black with its neighbours into #010000 otherwise): a black
  /// left half beside moving noise of near-blacks, in 16 colours.
  @Test static func flatColoursAreExact() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("flat.gif")
    func flat(_ i: Int) -> Bitmap {
      var b = Bitmap(width: width, height: height, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
      for y in 0..<height {
        for x in (width / 2)..<width {
          let h = (x * 7919 + y * 104_729 + i * 1_299_709) & 0xFFFF
          b[x, y] = Pixel(r: UInt8(1 + h % 50), g: UInt8(1 + (h >> 4) % 40), b: UInt8(1 + (h >> 8) % 30), a: 255)
        }
      }
      return b
    }
    try GIFWriter.write(to: path, frameCount: 8, fps: 10, options: GIFOptions(maxColors: 16), frame: flat)
    let gif = try GIFReader(path: path)
    #expect(gif.frames.count == 8)
    for k in 0..<gif.frames.count {
      #expect(psnr(gif.frames[k], flat(k), including: { x, _ in x < width / 2 }) == .infinity, "image \(k)")
    }
  }
}
