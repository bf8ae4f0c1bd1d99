// JPEGs decode through libjpeg-turbo (TurboJPEG): held byte for byte to
// libjpeg-turbo's own command-line decoder, djpeg, with its SIMD on and
// off, so the glue (scaling, rows, colour, orientation) is checked against
// a program that shares none of it.

import CLCMS
import Foundation
import Raster
import Testing
import TestSupport

@testable import Media

@Suite struct TurboJPEGTests {
  /// djpeg's decode of `jpeg` (accurate integer IDCT, RGB even for grey,
  /// scaled by 1/`denominator`) as RGB bytes and its size; `environment`
  /// goes before the command (`JSIMD_FORCENONE=1`: libjpeg-turbo's plain C).
  static func djpeg(_ jpeg: [UInt8], denominator: Int, environment: [String] = []) throws -> (
    width: Int, height: Int, rgb: [UInt8]
  ) {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try Data(jpeg).write(to: URL(fileURLWithPath: dir.path("in.jpg")))
    let ppm = [UInt8](
      try runData(
        environment.isEmpty ? "djpeg" : environment[0],
        Array(environment.dropFirst()) + (environment.isEmpty ? [] : ["djpeg"])
          + ["-dct", "int", "-rgb", "-scale", "1/\(denominator)", "-ppm", dir.path("in.jpg")]))
    // "P6\n<w> <h>\n255\n", then the samples.
    var fields: [Int] = [], i = 2, field = 0, digits = false
    while fields.count < 3, i < ppm.count {
      let c = ppm[i]
      if c >= 48 && c <= 57 {
        field = field * 10 + Int(c - 48)
        digits = true
      } else if digits {
        fields.append(field)
        field = 0
        digits = false
      }
      i += 1
    }
    try #require(ppm.starts(with: Array("P6".utf8)) && fields.count == 3 && fields[2] == 255, "djpeg wrote no PPM")
    return (fields[0], fields[1], Array(ppm[i...]))
  }

  /// A JPEG of FFmpeg's test pattern with the given chroma layout.
  static func pattern(_ pixelFormat: String, size: String = "518x390") throws -> [UInt8] {
    try ReducedDecodeTests.generated(
      "testsrc2=s=\(size)", "t.jpg", ["-pix_fmt", pixelFormat, "-q:v", "3"])
  }

  /// Every chroma layout, whole and at each scale, is djpeg's picture: the
  /// same RGB bytes, alpha 255, each side rounded up.
  @Test(arguments: ["yuvj420p", "yuvj422p", "yuvj444p", "gray"])
  func decodesAsDjpeg(pixelFormat: String) throws {
    let jpeg = try Self.pattern(pixelFormat)
    for (factor, denominator) in [(1.0, 1), (4, 2), (8, 4), (16, 8)] {
      let image = try ImageDecoder.decode(data: jpeg, name: "t.jpg") { _ in factor }
      let reference = try Self.djpeg(jpeg, denominator: denominator)
      #expect(image.width == reference.width && image.height == reference.height, "\(pixelFormat) 1/\(denominator)")
      #expect(image.width == (518 + denominator - 1) / denominator && image.height == (390 + denominator - 1) / denominator, "\(pixelFormat) 1/\(denominator)")
      var rgb = [UInt8](), opaque = true
      rgb.reserveCapacity(image.width * image.height * 3)
      for p in 0..<(image.width * image.height) {
        rgb.append(contentsOf: image.bytes[4 * p..<4 * p + 3])
        opaque = opaque && image.bytes[4 * p + 3] == 255
      }
      let differing = zip(rgb, reference.rgb).filter { $0 != $1 }.count
      #expect(rgb.count == reference.rgb.count && differing == 0, "\(pixelFormat) 1/\(denominator): \(differing) samples differ")
      #expect(opaque)
    }
  }

  /// The bytes do not depend on the CPU: libjpeg-turbo's plain C path (as on
  /// a machine without SSE2 or AVX2) gives the decode transvid made with
  /// this machine's SIMD.
  @Test func sameBytesWithoutSIMD() throws {
    let jpeg = try Self.pattern("yuvj420p", size: "1001x751")
    for (factor, denominator) in [(1.0, 1), (4, 2)] {
      let image = try ImageDecoder.decode(data: jpeg, name: "t.jpg") { _ in factor }
      let plain = try Self.djpeg(jpeg, denominator: denominator, environment: ["JSIMD_FORCENONE=1"])
      let rgb = (0..<(image.width * image.height)).flatMap { image.bytes[4 * $0..<4 * $0 + 3] }
      // Counted, not compared as arrays: a failing #expect would diff millions of samples.
      let differing = zip(rgb, plain.rgb).filter { $0 != $1 }.count
      #expect(rgb.count == plain.rgb.count && differing == 0, "1/\(denominator): \(differing) samples differ")
    }
  }

  /// EXIF in Intel byte order (phones write both): orientation 8 turns the
  /// picture 90° counter-clockwise, and an orientation outside 1…8 is none.
  @Test func littleEndianExifOrientation() throws {
    let jpeg = try Self.pattern("yuvj420p", size: "64x48")
    func withOrientation(_ value: UInt8) -> [UInt8] {
      let exif: [UInt8] =
        [0xFF, 0xE1, 0x00, 0x22] + Array("Exif".utf8) + [0, 0, 0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
        + [0x01, 0x00, 0x12, 0x01, 0x03, 0x00, 1, 0, 0, 0, value, 0x00, 0x00, 0x00, 0, 0, 0, 0]
      return Array(jpeg.prefix(2)) + exif + jpeg.dropFirst(2)
    }
    let upright = try ImageDecoder.decode(data: jpeg, name: "t.jpg")
    let turned = try ImageDecoder.decode(data: withOrientation(8), name: "t.jpg")
    #expect(turned.width == 48 && turned.height == 64)
    let turnedAsUpright = turned.bytes == ImageDecoder.oriented(upright, 8).bytes
    #expect(turnedAsUpright)
    let unknown = try ImageDecoder.decode(data: withOrientation(9), name: "t.jpg")
    let unknownIsUpright = unknown.width == 64 && unknown.bytes == upright.bytes
    #expect(unknownIsUpright)
  }

  /// Bytes between a JPEG's image data and its end marker lose no pixel:
  /// libjpeg-turbo warns ("extraneous bytes before marker 0xd9") and
  /// decodes every pixel, as a browser shows the file, so the picture is
  /// the clean file's (djpeg's, `decodesAsDjpeg`) to the byte, colour edges
  /// of its 4:2:0 chroma included, whole and scaled. A CMYK one's white
  /// stays 255.
  @Test func extraneousBytesKeepLibjpegTurbosDecode() throws {
    let jpeg = try Self.pattern("yuvj420p")
    let stray = Array(jpeg.dropLast(2)) + Array(repeating: 0x55, count: 40) + [0xFF, 0xD9]
    for factor in [1.0, 4] {
      let clean = try ImageDecoder.decode(data: jpeg, name: "t.jpg") { _ in factor }
      let flawed = try ImageDecoder.decode(data: stray, name: "t.jpg") { _ in factor }
      let sameAsClean = flawed.width == clean.width && flawed.bytes == clean.bytes
      #expect(sameAsClean, "reduced \(factor)×")
    }
    let cmyk = Array(Self.cmykJPEG.dropLast(2)) + Array(repeating: 0x55, count: 40) + [0xFF, 0xD9]
    let image = try ImageDecoder.decode(data: cmyk, name: "cmyk.jpg")
    #expect(Array(image.bytes[0..<4]) == [255, 255, 255, 255])
  }

  /// A CMYK JPEG (Adobe's inverted samples, as Photoshop and Pillow write
  /// them) decodes as Chromium draws it: each colour its sample times K's
  /// over 255, rounded down, so white is 255, not libavcodec's 254. Three
  /// flat 8 × 8 blocks, stored at quality 100 (every sample exact): white
  /// (255, 255, 255, 255 stored), C 40 M 120 Y 200 K 30 (215, 135, 55, 225
  /// stored: Chromium shows 189, 119, 48) and K 128 alone (127 grey).
  @Test func cmykIsDrawnAsChromiumDrawsIt() throws {
    let image = try ImageDecoder.decode(data: Self.cmykJPEG, name: "cmyk.jpg")
    #expect(image.width == 24 && image.height == 8)
    let blocks: [[UInt8]] = [[255, 255, 255, 255], [189, 119, 48, 255], [127, 127, 127, 255]]
    for y in 0..<8 {
      for x in 0..<24 {
        let pixel = Array(image.bytes[4 * (y * 24 + x)..<4 * (y * 24 + x) + 4])
        #expect(pixel == blocks[x / 8], "(\(x), \(y))")
      }
    }
  }

  /// The CMYK JPEG of `cmykIsDrawnAsChromiumDrawsIt`: Pillow's, Adobe's
  /// APP14 marker and inverted samples, 4:4:4, quality 100.
  static let cmykJPEG: [UInt8] = [
    0xFF, 0xD8, 0xFF, 0xEE, 0x00, 0x0E, 0x41, 0x64, 0x6F, 0x62, 0x65, 0x00, 0x64, 0x00, 0x00, 0x00,
    0x00, 0x00, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0xFF, 0xC0, 0x00, 0x14, 0x08, 0x00, 0x08, 0x00, 0x18,
    0x04, 0x43, 0x11, 0x00, 0x4D, 0x11, 0x00, 0x59, 0x11, 0x00, 0x4B, 0x11, 0x00, 0xFF, 0xC4, 0x00,
    0x1F, 0x00, 0x00, 0x01, 0x05, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0xFF, 0xC4,
    0x00, 0xB5, 0x10, 0x00, 0x02, 0x01, 0x03, 0x03, 0x02, 0x04, 0x03, 0x05, 0x05, 0x04, 0x04, 0x00,
    0x00, 0x01, 0x7D, 0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13,
    0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15,
    0x52, 0xD1, 0xF0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25,
    0x26, 0x27, 0x28, 0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46,
    0x47, 0x48, 0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66,
    0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83, 0x84, 0x85, 0x86,
    0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4,
    0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2,
    0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9,
    0xDA, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5,
    0xF6, 0xF7, 0xF8, 0xF9, 0xFA, 0xFF, 0xDA, 0x00, 0x0E, 0x04, 0x43, 0x00, 0x4D, 0x00, 0x59, 0x00,
    0x4B, 0x00, 0x00, 0x3F, 0x00, 0xFE, 0xFE, 0x2B, 0xFB, 0xF8, 0xAF, 0xEF, 0xE2, 0xBF, 0xBF, 0x8A,
    0xFC, 0xBF, 0xAF, 0xE0, 0xFE, 0xBF, 0xC6, 0xFE, 0xBE, 0x0F, 0xAF, 0xD4, 0x0A, 0xFE, 0xF0, 0x2B,
    0xFD, 0x90, 0x2B, 0xF8, 0xEF, 0xAF, 0xFF, 0xD9,
  ]

  /// A CMYK profile whose colours are the naive ones with red and blue
  /// swapped: red from yellow ink and K, blue from cyan, in a 9-point
  /// table (its A2B0) of Lab, which LittleCMS works out from sRGB.
  static func swappingCMYKProfile() throws -> [UInt8] {
    let srgb = try #require(cmsCreate_sRGBProfile()), lab = try #require(cmsCreateLab4Profile(nil))
    defer {
      cmsCloseProfile(srgb)
      cmsCloseProfile(lab)
    }
    let rgb16 = UInt32(PT_RGB << 16 | 3 << 3 | 2), lab16 = UInt32(PT_Lab << 16 | 3 << 3 | 2)
    var toLab = try #require(cmsCreateTransform(srgb, rgb16, lab, lab16, UInt32(INTENT_RELATIVE_COLORIMETRIC), 0))
    defer { cmsDeleteTransform(toLab) }
    let profile = try #require(cmsCreateProfilePlaceholder(nil))
    defer { cmsCloseProfile(profile) }
    cmsSetProfileVersion(profile, 2.1)
    cmsSetDeviceClass(profile, cmsSigOutputClass)
    cmsSetColorSpace(profile, cmsSigCmykData)
    cmsSetPCS(profile, cmsSigLabData)
    let pipeline = try #require(cmsPipelineAlloc(nil, 4, 3))
    defer { cmsPipelineFree(pipeline) }
    let table = try #require(cmsStageAllocCLut16bit(nil, 9, 4, 3, nil))
    _ = withUnsafeMutablePointer(to: &toLab) { cargo in
      cmsStageSampleCLut16bit(
        table,
        { input, output, cargo in
          let ink = (0..<4).map { 1 - Double(input![$0]) / 65535 }
          var rgb: [UInt16] = [ink[2], ink[1], ink[0]].map { UInt16(($0 * ink[3] * 65535).rounded()) }
          let transform = cargo!.assumingMemoryBound(to: cmsHTRANSFORM.self).pointee
          cmsDoTransform(transform, &rgb, output, 1)
          return 1
        }, cargo, 0)
    }
    cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 4, nil))
    cmsPipelineInsertStage(pipeline, cmsAT_END, table)
    cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
    try #require(cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)) != 0)
    var size: UInt32 = 0
    try #require(cmsSaveProfileToMem(profile, nil, &size) != 0)
    var bytes = [UInt8](repeating: 0, count: Int(size))
    try #require(cmsSaveProfileToMem(profile, &bytes, &size) != 0)
    return bytes
  }

  /// A CMYK JPEG's CMYK profile converts its inks, as Chromium converts them
  /// (it drew a yellow block of a JPEG with this swapping profile cyan):
  /// the blocks of `cmykIsDrawnAsChromiumDrawsIt` come out with red and
  /// blue swapped, within 3 levels of Chromium's 255, 255, 255; 52, 119,
  /// 189 and 127, 127, 127 (both interpolate the table).
  @Test func aCMYKProfileConvertsTheInks() throws {
    let profile = try Self.swappingCMYKProfile()
    let length = 2 + 14 + profile.count
    let app2: [UInt8] = [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
    let jpeg = Array(Self.cmykJPEG.prefix(2)) + app2 + Self.cmykJPEG.dropFirst(2)
    let image = try ImageDecoder.decode(data: jpeg, name: "swop.jpg")
    let blocks: [[Int]] = [[255, 255, 255], [52, 119, 189], [127, 127, 127]]
    for (k, expected) in blocks.enumerated() {
      let p = image[8 * k + 4, 4]
      let got = [Int(p.r), Int(p.g), Int(p.b)]
      #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 3 } && p.a == 255, "block \(k): \(got), expected \(expected)")
    }
  }
}
