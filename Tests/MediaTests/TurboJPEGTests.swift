// JPEGs decode through libjpeg-turbo (TurboJPEG): held byte for byte to
// libjpeg-turbo's own command-line decoder, djpeg, with its SIMD on and
// off, so the glue (scaling, rows, colour, orientation) is checked against
// a program that shares none of it.

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
}
