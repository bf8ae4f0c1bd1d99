// An animated WebP embeds the sRGB profile, as the poster PNG and the APNG
// are tagged sRGB: Firefox (153 ESR), which colour-manages only tagged
// images, showed an untagged WebP of #E03020 on a Display P3 display as
// (224, 48, 32), its numbers unconverted, beside the PNG's (206, 65, 47).
// The file is read here chunk by chunk (RIFF, as the WebP container spec
// lays it out) and the profile by LittleCMS: an RGB profile that maps every
// colour of a grid to itself in the sRGB profile LittleCMS builds, where a
// Display P3 profile moves them.

import CLCMS
import Foundation
import Raster
import Testing
import TestSupport

@testable import Media

@Suite struct WebPColorTagTests {
  /// The RIFF chunks of a WebP file: each four-letter type and its payload.
  static func chunks(_ bytes: [UInt8]) -> [(type: String, payload: [UInt8])] {
    var result: [(String, [UInt8])] = []
    var i = 12
    while i + 8 <= bytes.count {
      let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
      let end = min(bytes.count, i + 8 + size)
      result.append((String(decoding: bytes[i..<(i + 4)], as: UTF8.self), Array(bytes[(i + 8)..<end])))
      i = i + 8 + size + (size & 1)
    }
    return result
  }

  /// The most any channel of a 16-level RGB grid moves from `icc` to
  /// LittleCMS's sRGB, in levels (floating point).
  static func largestMove(_ icc: [UInt8]) throws -> Double {
    let source = try #require(cmsOpenProfileFromMem(icc, UInt32(icc.count)))
    defer { cmsCloseProfile(source) }
    let srgb = try #require(cmsCreate_sRGBProfile())
    defer { cmsCloseProfile(srgb) }
    #expect(cmsGetColorSpace(source) == cmsSigRgbData)
    let rgbFloat = UInt32(1 << 22 | PT_RGB << 16 | 3 << 3 | 4)
    let transform = try #require(
      cmsCreateTransform(source, rgbFloat, srgb, rgbFloat, UInt32(INTENT_RELATIVE_COLORIMETRIC), 0))
    defer { cmsDeleteTransform(transform) }
    let levels = (0...15).map { Float($0) / 15 }
    var grid: [Float] = []
    for r in levels { for g in levels { for b in levels { grid += [r, g, b] } } }
    var out = [Float](repeating: 0, count: grid.count)
    grid.withUnsafeBytes { input in
      out.withUnsafeMutableBytes { cmsDoTransform(transform, input.baseAddress, $0.baseAddress, UInt32(grid.count / 3)) }
    }
    return Double(zip(grid, out).map { abs($0 - $1) }.max()!) * 255
  }

  @Test static func anAnimatedWebPEmbedsTheSRGBProfile() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("tagged.webp")
    let writer = try WebPWriter(path: path, width: 16, height: 16, fps: 10)
    var frame = Bitmap(width: 16, height: 16, fill: Pixel(r: 224, g: 48, b: 32, a: 255))
    try writer.append(frame)
    frame[3, 3] = Pixel(r: 255, g: 255, b: 255, a: 255)
    try writer.append(frame)
    try writer.finish()
    let chunks = Self.chunks(try Platform.readFile(path))
    let types = chunks.map(\.type)
    // VP8X first, its ICC flag (bit 5) set; ICCP before ANIM, as the spec orders them.
    try #require(types.first == "VP8X" && !chunks[0].payload.isEmpty)
    #expect(chunks[0].payload[0] & 0x20 != 0, "the VP8X flags say ICC")
    let iccp = try #require(types.firstIndex(of: "ICCP"), "an ICCP chunk among \(types)")
    let anim = try #require(types.firstIndex(of: "ANIM"))
    #expect(iccp < anim)
    let profile = chunks[iccp].payload
    let move = try Self.largestMove(profile)
    #expect(move < 0.5, "the embedded profile moves a colour \(move) levels from sRGB")
    // A Display P3 profile would move them (the check can fail).
    let p3Move = try Self.largestMove(try ColorProfileTests.displayP3())
    #expect(p3Move > 20)
    // The same bytes on every run: the creation date is fixed, 1999-10-18.
    #expect(Array(profile[24..<36]) == [0x07, 0xCF, 0, 10, 0, 18, 0, 0, 0, 0, 0, 0])
  }
}
