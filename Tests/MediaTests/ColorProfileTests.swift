// Images that embed an ICC profile decode to sRGB: a Display P3 JPEG
// (libjpeg-turbo's own cjpeg writes the profile) and PNG (FFmpeg carries
// the profile over) decode to the colours the standard P3 → sRGB matrices
// give, worked out here in Double from the primaries (the oracle shares
// nothing with LittleCMS but the profile); a grey PNG or JPEG with a grey
// profile decodes to the levels its curve gives, worked out the same way;
// an sRGB profile leaves every pixel as it is; a profile of another space
// than the image's, or a broken one, is ignored.

import CLCMS
import Foundation
import Raster
import Testing
import TestSupport

@testable import Media

@Suite struct ColorProfileTests {
  /// The Display P3 profile: P3's primaries, D65, sRGB's transfer curve, as
  /// an ICC profile LittleCMS writes.
  static func displayP3(gamma: Double? = nil) throws -> [UInt8] {
    var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
    var primaries = cmsCIExyYTRIPLE(
      Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1), Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
      Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
    var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
    let curve = try #require(
      gamma.map { cmsBuildGamma(nil, $0) } ?? cmsBuildParametricToneCurve(nil, 4, &parameters))
    defer { cmsFreeToneCurve(curve) }
    var curves: [OpaquePointer?] = [curve, curve, curve]
    let profile = try #require(cmsCreateRGBProfile(&white, &primaries, &curves))
    defer { cmsCloseProfile(profile) }
    var size: UInt32 = 0
    try #require(cmsSaveProfileToMem(profile, nil, &size) != 0)
    var bytes = [UInt8](repeating: 0, count: Int(size))
    try #require(cmsSaveProfileToMem(profile, &bytes, &size) != 0)
    return bytes
  }

  /// sRGB of Display P3 `rgb` (0…255), by the matrices: P3 to XYZ from its
  /// primaries and D65, XYZ to sRGB (IEC 61966-2-1), clipped.
  static func srgb(fromP3 rgb: [Double]) -> [Double] {
    func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    func encoded(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
    let p3ToXYZ = [
      [0.4865709, 0.2656677, 0.1982173], [0.2289746, 0.6917385, 0.0792869], [0.0000000, 0.0451134, 1.0439444],
    ]
    let xyzToSRGB = [
      [3.2404542, -1.5371385, -0.4985314], [-0.9692660, 1.8760108, 0.0415560], [0.0556434, -0.2040259, 1.0572252],
    ]
    let l = rgb.map { linear($0 / 255) }
    let xyz = p3ToXYZ.map { row in zip(row, l).map(*).reduce(0, +) }
    return xyzToSRGB.map { row in encoded(min(max(zip(row, xyz).map(*).reduce(0, +), 0), 1)) * 255 }
  }

  /// P3 colours of a screenshot: UI greys and tints, and P3's own red,
  /// green and blue at the edge of sRGB (clipped there).
  static let colours: [[UInt8]] = [
    [234, 51, 35], [200, 120, 80], [90, 160, 220], [128, 128, 128], [250, 245, 230], [30, 40, 50], [117, 251, 76],
  ]

  /// A PPM of `colours` as 16×16 blocks side by side.
  static func ppm() -> [UInt8] {
    let width = 16 * colours.count, height = 16
    var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
    for _ in 0..<height { for c in colours { for _ in 0..<16 { bytes += c } } }
    return bytes
  }

  /// Each block's centre pixel of `image` against the matrices' sRGB.
  static func checkBlocks(_ image: Bitmap, bound: Double, _ label: String) {
    for (k, colour) in colours.enumerated() {
      let expected = srgb(fromP3: colour.map(Double.init))
      let p = image[16 * k + 8, 8]
      let got = [Double(p.r), Double(p.g), Double(p.b)]
      let off = zip(got, expected).map { abs($0 - $1) }.max()!
      #expect(off <= bound, "\(label) P3 \(colour): \(got), expected \(expected.map { ($0 * 10).rounded() / 10 })")
    }
  }

  @Test func aDisplayP3JPEGAndPNGDecodeToSRGB() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try Data(try Self.displayP3()).write(to: URL(fileURLWithPath: dir.path("p3.icc")))
    try Data(Self.ppm()).write(to: URL(fileURLWithPath: dir.path("p3.ppm")))
    // libjpeg-turbo's encoder at 4:4:4 and quality 100: the blocks' centres within a level.
    let jpeg = try runData("cjpeg", ["-quality", "100", "-sample", "1x1", "-icc", dir.path("p3.icc"), dir.path("p3.ppm")])
    try jpeg.write(to: URL(fileURLWithPath: dir.path("p3.jpg")))
    let decoded = try ImageDecoder.decode(path: dir.path("p3.jpg"))
    Self.checkBlocks(decoded, bound: 2, "JPEG")
    // The same pixels untagged are taken as sRGB: the profile is what moved them.
    let plain = try ImageDecoder.decode(data: [UInt8](try runData("cjpeg", ["-quality", "100", "-sample", "1x1", dir.path("p3.ppm")])), name: "plain.jpg")
    #expect(plain[8, 8].r >= 233 && plain[8, 8].g <= 52 && decoded[8, 8].r >= 254 && decoded[8, 8].g <= 2)

    // A PNG: FFmpeg's PNG encoder writes the JPEG's profile as iCCP.
    _ = try runData("ffmpeg", ["-v", "error", "-i", dir.path("p3.jpg"), "-y", dir.path("p3.png")])
    let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("p3.png"))))
    let chunk = Array("iCCP".utf8)
    try #require((0..<(png.count - 4)).contains { Array(png[$0..<($0 + 4)]) == chunk }, "ffmpeg wrote no iCCP")
    Self.checkBlocks(try ImageDecoder.decode(data: png, name: "p3.png"), bound: 2, "PNG")
  }

  /// A BMP whose BITMAPV5HEADER embeds a profile (colour space type
  /// 'MBED') is converted by it, as Chromium converts it: a Display P3 BMP
  /// of `colours` decodes to the matrices' sRGB; libavcodec reads no profile
  /// from a BMP, and P3's red (234, 51, 35) was drawn as it is stored. The
  /// same file whose colour space type says sRGB keeps its numbers, and so
  /// does one whose profile lies past the file's end.
  @Test func aBMPsEmbeddedProfileIsHonoured() throws {
    func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    let icc = try Self.displayP3()
    // One row of BGR, padded to four bytes.
    var row = Self.colours.flatMap { [$0[2], $0[1], $0[0]] }
    row += [UInt8](repeating: 0, count: (4 - row.count % 4) % 4)
    func bmp(type: String, profileSize: Int) -> [UInt8] {
      let header =
        le32(124) + le32(Self.colours.count) + le32(1) + [1, 0, 24, 0] + le32(0) + le32(row.count) + le32(2835)
        + le32(2835) + le32(0) + le32(0) + le32(0) + le32(0) + le32(0) + le32(0) + Array(type.utf8.reversed())
        + [UInt8](repeating: 0, count: 48) + le32(4) + le32(124 + row.count) + le32(profileSize) + le32(0)
      let size = 14 + header.count + row.count + icc.count
      return Array("BM".utf8) + le32(size) + le32(0) + le32(14 + header.count) + header + row + icc
    }
    let decoded = try ImageDecoder.decode(data: bmp(type: "MBED", profileSize: icc.count), name: "p3.bmp")
    for (k, colour) in Self.colours.enumerated() {
      let expected = Self.srgb(fromP3: colour.map(Double.init))
      let p = decoded[k, 0]
      let off = zip([Double(p.r), Double(p.g), Double(p.b)], expected).map { abs($0 - $1) }.max()!
      #expect(off <= 2, "P3 \(colour): \(p), expected \(expected.map { ($0 * 10).rounded() / 10 })")
    }
    for (type, size, label) in [("sRGB", icc.count, "sRGB"), ("MBED", icc.count + 1, "past the end")] {
      let image = try ImageDecoder.decode(data: bmp(type: type, profileSize: size), name: "p3.bmp")
      let stored = Self.colours.indices.map { k in [image[k, 0].r, image[k, 0].g, image[k, 0].b] }
      #expect(stored == Self.colours, "\(label)")
    }
  }

  /// An RGB profile on a grey image is honoured, as Chromium honours it: a
  /// grey JPEG by `cjpeg -grayscale -icc` with P3's primaries and gamma
  /// 1.8, and a grey PNG FFmpeg writes from it, draw each grey djpeg or
  /// FFmpeg decodes as sRGB encodes its light, level^1.8 (a neutral stays
  /// neutral: P3's white is sRGB's). Chromium draws the greys 0…11 of a
  /// grey PNG with a linear RGB profile as 0, 13, 22, 28, 34, 38, 42, 46,
  /// 50, 53, 56, 59.
  @Test func anRGBProfileOnAGreyImageIsHonoured() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try Data(try Self.displayP3(gamma: 1.8)).write(to: URL(fileURLWithPath: dir.path("p3.icc")))
    try Data(Self.ppm()).write(to: URL(fileURLWithPath: dir.path("p3.ppm")))
    let jpeg = try runData("cjpeg", ["-quality", "100", "-grayscale", "-icc", dir.path("p3.icc"), dir.path("p3.ppm")])
    try jpeg.write(to: URL(fileURLWithPath: dir.path("grey.jpg")))
    let width = 16 * Self.colours.count
    let reference = [UInt8](try runData("djpeg", ["-grayscale", "-pnm", dir.path("grey.jpg")])).suffix(width * 16)
    func drawn(_ level: UInt8) -> Double {
      let light = pow(Double(level) / 255, 1.8)
      return (light <= 0.0031308 ? light * 12.92 : 1.055 * pow(light, 1 / 2.4) - 0.055) * 255
    }
    func honoured(_ image: Bitmap, _ levels: (Int) -> UInt8) -> Bool {
      (0..<(width * 16)).allSatisfy { p in (0..<3).allSatisfy { abs(Double(image.bytes[4 * p + $0]) - drawn(levels(p))) <= 1 } }
    }
    let decoded = try ImageDecoder.decode(path: dir.path("grey.jpg"))
    #expect(honoured(decoded) { reference[reference.startIndex + $0] })
    _ = try runData("ffmpeg", ["-v", "error", "-i", dir.path("grey.jpg"), "-pix_fmt", "gray", "-y", dir.path("grey.png")])
    let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("grey.png"))))
    let raw = [UInt8](try runData("ffmpeg", ["-v", "error", "-i", dir.path("grey.png"), "-f", "rawvideo", "-pix_fmt", "gray", "-"]))
    let greyPNG = try ImageDecoder.decode(data: png, name: "grey.png")
    #expect(raw.count == width * 16 && honoured(greyPNG) { raw[$0] })
    // A 256-level grey ramp with a linear RGB profile: Chromium's levels.
    let ramp = PNGColorChunksTests.ramp(
      colorType: 0,
      before: PNGAncillaryChunksTests.chunk(
        "iCCP", Array("p".utf8) + [0, 0] + PNGAncillaryChunksTests.deflated(try Self.displayP3(gamma: 1.0))))
    let linear = try ImageDecoder.decode(data: ramp, name: "linear.png")
    #expect((0..<12).map { linear.bytes[4 * $0] } == [0, 13, 22, 28, 34, 38, 42, 46, 50, 53, 56, 59])
  }

  /// A grey profile of gamma `gamma`, D65, as an ICC profile LittleCMS
  /// writes.
  static func grey(gamma: Double) throws -> [UInt8] {
    let curve = try #require(cmsBuildGamma(nil, gamma))
    defer { cmsFreeToneCurve(curve) }
    var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
    let grey = try #require(cmsCreateGrayProfile(&white, curve))
    defer { cmsCloseProfile(grey) }
    var size: UInt32 = 0
    try #require(cmsSaveProfileToMem(grey, nil, &size) != 0)
    var bytes = [UInt8](repeating: 0, count: Int(size))
    try #require(cmsSaveProfileToMem(grey, &bytes, &size) != 0)
    return bytes
  }

  /// The sRGB level of grey `v` (0…255) of a gamma-2.2 space: its light
  /// (v / 255)^2.2, encoded by sRGB's curve.
  static func srgb(fromGamma22 v: Int) -> Double {
    let light = pow(Double(v) / 255, 2.2)
    return (light <= 0.0031308 ? light * 12.92 : 1.055 * pow(light, 1 / 2.4) - 0.055) * 255
  }

  /// A grey image with a grey profile is converted as browsers convert it
  /// (LittleCMS and Chrome draw gamma-2.2 greys 10, 30, 50, 100, 128, 200
  /// as 3, 24, 46, 100, 129, 201): a grey PNG, a grey + alpha one (the
  /// grey converted, then premultiplied) and a grey JPEG (libjpeg-turbo's
  /// encoder writes the profile), every level to the curve's sRGB,
  /// rounded to nearest.
  @Test func aGreyProfileOnAGreyImageIsHonoured() throws {
    let icc = try Self.grey(gamma: 2.2)
    let levels = (0...255).map { UInt8($0) }
    let iccp = PNGAncillaryChunksTests.chunk("iCCP", Array("g22".utf8) + [0, 0] + PNGAncillaryChunksTests.deflated(icc))
    /// A 256×1 PNG of `colorType` whose row is `samples`, with the profile.
    func png(colorType: UInt8, _ samples: [UInt8]) -> [UInt8] {
      let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      return signature + PNGAncillaryChunksTests.chunk("IHDR", [0, 0, 1, 0, 0, 0, 0, 1, 8, colorType, 0, 0, 0]) + iccp
        + PNGAncillaryChunksTests.chunk("IDAT", PNGAncillaryChunksTests.deflated([0] + samples))
        + PNGAncillaryChunksTests.chunk("IEND", [])
    }
    func check(_ image: Bitmap, stored: [UInt8], _ label: String) {
      var off: [String] = []
      for x in 0..<256 {
        let p = image[x, 0], expected = Self.srgb(fromGamma22: Int(stored[x]))
        if p.r != p.g || p.g != p.b || Double(p.r) != expected.rounded() { off.append("\(stored[x]): \(p)") }
      }
      #expect(off.isEmpty, "\(label): \(off.count) levels off the curve, first \(off.prefix(4))")
    }

    let grey = try ImageDecoder.decode(data: png(colorType: 0, levels), name: "grey.png")
    check(grey, stored: levels, "PNG")
    #expect([10, 30, 50, 100, 128, 200].map { grey[$0, 0].r } == [3, 24, 46, 100, 129, 201])
    // Grey + alpha 128: the grey converted, then premultiplied.
    let translucent = try ImageDecoder.decode(data: png(colorType: 4, levels.flatMap { [$0, 128] }), name: "ya.png")
    let premultiplied = (0..<256).map { UInt8((Double(grey[$0, 0].r) * 128 / 255).rounded()) }
    #expect((0..<256).map { translucent[$0, 0].r } == premultiplied && translucent[200, 0].a == 128)

    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try Data(icc).write(to: URL(fileURLWithPath: dir.path("g22.icc")))
    try Data(Array("P5\n256 1\n255\n".utf8) + levels).write(to: URL(fileURLWithPath: dir.path("ramp.pgm")))
    let jpeg = try runData("cjpeg", ["-quality", "100", "-grayscale", "-icc", dir.path("g22.icc"), dir.path("ramp.pgm")])
    try jpeg.write(to: URL(fileURLWithPath: dir.path("grey.jpg")))
    // The JPEG's own levels, as djpeg decodes them (it applies no profile).
    let stored = Array([UInt8](try runData("djpeg", ["-grayscale", "-pnm", dir.path("grey.jpg")])).suffix(256))
    check(try ImageDecoder.decode(path: dir.path("grey.jpg")), stored: stored, "JPEG")
  }

  /// An embedded sRGB profile changes nothing, bit for bit; a grey profile
  /// on an RGB image, and bytes that are no profile, are ignored.
  @Test func sRGBGreyAndBrokenProfilesLeavePixelsAsTheyAre() throws {
    let srgb = try #require(cmsCreate_sRGBProfile())
    defer { cmsCloseProfile(srgb) }
    var size: UInt32 = 0
    _ = cmsSaveProfileToMem(srgb, nil, &size)
    var icc = [UInt8](repeating: 0, count: Int(size))
    _ = cmsSaveProfileToMem(srgb, &icc, &size)
    let curve = try #require(cmsBuildGamma(nil, 2.2))
    defer { cmsFreeToneCurve(curve) }
    var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
    let grey = try #require(cmsCreateGrayProfile(&white, curve))
    defer { cmsCloseProfile(grey) }
    _ = cmsSaveProfileToMem(grey, nil, &size)
    var greyICC = [UInt8](repeating: 0, count: Int(size))
    _ = cmsSaveProfileToMem(grey, &greyICC, &size)
    var original: [UInt8] = []
    for i in 0..<4096 {
      let r = UInt8(i % 256), g = UInt8(i / 16 % 256), b = UInt8(i * 7 % 256)
      original += [r, g, b, 255]
    }
    for (label, profile) in [("sRGB", icc), ("grey", greyICC), ("broken", Array(icc.prefix(200)) + [UInt8](repeating: 7, count: 300))] {
      var pixels = original
      let converted = pixels.withUnsafeMutableBufferPointer { p in
        profile.withUnsafeBytes { ColorProfile.convertToSRGB(p.baseAddress!, pixels: 4096, icc: $0, components: 3) }
      }
      #expect(!converted && pixels == original, "\(label)")
    }
  }
}
