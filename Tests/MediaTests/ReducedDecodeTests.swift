// ImageDecoder's allowedReduction: a JPEG decoded at 1/2, 1/4 or 1/8 of its
// size (libjpeg-turbo's scaled IDCT, libavcodec's lowres when it falls back),
// each side rounded up; everything else whole.

import Foundation
import Geometry
import Raster
import Testing
import TestSupport

@testable import Media

@Suite struct ReducedDecodeTests {
  /// A JPEG (or other file named `name`) made by the ffmpeg CLI from a lavfi source.
  static func generated(_ source: String, _ name: String, _ options: [String] = ["-q:v", "3"]) throws -> [UInt8] {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    _ = try run(
      "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", source, "-frames:v", "1"] + options + [dir.path(name)])
    return Array(try Data(contentsOf: URL(fileURLWithPath: dir.path(name))))
  }

  /// The factor picks the largest power of two at most half of it (up to
  /// 8: twice the pixels asked for are kept); odd sides round up.
  @Test(arguments: [(1.0, 1002, 754), (3.99, 1002, 754), (4, 501, 377), (7.9, 501, 377), (8, 251, 189), (16, 126, 95), (100, 126, 95)])
  func jpegComesBackAtTheLargestPowerOfTwoAllowed(factor: Double, width: Int, height: Int) throws {
    let jpeg = try Self.generated("testsrc2=s=1002x754", "t.jpg")
    var asked: [ImageDecoder.Info] = []
    let image = try ImageDecoder.decode(data: jpeg, name: "t.jpg") { info in
      asked.append(info)
      return factor
    }
    #expect(asked == [.init(format: "JPEG", width: 1002, height: 754)])
    #expect(image.width == width && image.height == height)
  }

  /// `decodedPixels` (what orders a job's decodes) counts the pixels the
  /// decode returns, reduced or not; other formats are counted whole.
  @Test(arguments: [1.0, 4, 7.9, 8, 100])
  func decodedPixelsIsTheDecodedSize(factor: Double) throws {
    let jpeg = try Self.generated("testsrc2=s=1002x754", "t.jpg")
    let image = try ImageDecoder.decode(data: jpeg, name: "t.jpg") { _ in factor }
    let info = try ImageDecoder.info(data: jpeg, name: "t.jpg")
    #expect(ImageDecoder.decodedPixels(info) { _ in factor } == image.width * image.height)
    let png = ImageDecoder.Info(format: "PNG", width: 1002, height: 754)
    #expect(ImageDecoder.decodedPixels(png) { _ in factor } == 1002 * 754)
  }

  /// Below a factor of 4 the decode is the plain one, byte for byte.
  @Test func jpegNotReducedIsTheWholeDecode() throws {
    let jpeg = try Self.generated("testsrc2=s=640x480", "t.jpg")
    let whole = try ImageDecoder.decode(data: jpeg, name: "t.jpg")
    let asIs = try ImageDecoder.decode(data: jpeg, name: "t.jpg") { _ in 3.99 }
    #expect(whole.width == 640 && asIs.bytes == whole.bytes)
  }

  /// PNG has no reduced decode: it comes back whole and identical.
  @Test func pngIsNeverReduced() throws {
    let png = try Self.generated("testsrc2=s=320x240", "t.png", [])
    let reduced = try ImageDecoder.decode(data: png, name: "t.png") { _ in 8 }
    #expect(reduced.width == 320 && reduced.height == 240)
    #expect(reduced.bytes == (try ImageDecoder.decode(data: png, name: "t.png")).bytes)
  }

  /// A lossless JPEG cannot be decoded scaled (libavcodec refuses): it
  /// is decoded whole instead.
  @Test func losslessJPEGFallsBackToTheWholeDecode() throws {
    let jpeg = try Self.generated("testsrc2=s=320x240", "l.jpg", ["-c:v", "ljpeg", "-pix_fmt", "bgr24"])
    let reduced = try ImageDecoder.decode(data: jpeg, name: "l.jpg") { _ in 8 }
    #expect(reduced.width == 320 && reduced.height == 240)
    #expect(reduced.bytes == (try ImageDecoder.decode(data: jpeg, name: "l.jpg")).bytes)
  }

  /// A sideways photo (EXIF orientation 6) is reduced, then turned upright.
  @Test func reducedJPEGIsStillTurnedUpright() throws {
    let jpeg = try Self.generated("testsrc2=s=640x480", "t.jpg")
    let exif: [UInt8] =
      [0xFF, 0xE1, 0x00, 0x22] + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
      + [0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0x00, 0x06, 0x00, 0x00, 0, 0, 0, 0]
    let sideways = Array(jpeg.prefix(2)) + exif + jpeg.dropFirst(2)
    let reduced = try ImageDecoder.decode(data: sideways, name: "r.jpg") { _ in 8 }
    #expect(reduced.width == 120 && reduced.height == 160)
    let whole = try ImageDecoder.decode(data: sideways, name: "r.jpg")
    #expect(whole.width == 480 && whole.height == 640)
  }

  /// A corrupt JPEG's error is the whole decode's, whatever the factor.
  @Test func corruptJPEGReportsTheSameError() throws {
    var jpeg = try Self.generated("testsrc2=s=320x240", "t.jpg")
    // The frame header gives the first component sampling factors of 0.
    let frame = try #require((0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
    jpeg[frame + 11] = 0
    func message(_ factor: Double) -> String? {
      do {
        _ = try ImageDecoder.decode(data: jpeg, name: "c.jpg") { _ in factor }
        return nil
      } catch let error as MediaError {
        return error.message
      } catch {
        return "\(error)"
      }
    }
    #expect(message(1)?.hasPrefix("corrupt JPEG data (") == true, "\(message(1) ?? "decoded")")
    #expect(message(8) == message(1))
  }

  /// A JPEG whose sides 2^k does not divide, decoded at 1/2^k, is averaged
  /// over its picture, not over its rounded-up pixels: a 1001-pixel-wide
  /// photo at 1/4 is 251 pixels, of which the picture covers 250.25, and
  /// reduced to 100 its edge at x = 900 lands where the whole decode's does
  /// (x = 89.9), where it landed 0.27 pixels short, 68 levels off. Turned
  /// upright by EXIF (3: 180°, the partial column the first; 6: a quarter
  /// turn, the partial column the last row), the same.
  @Test(arguments: [1, 3, 6])
  func aReducedJPEGKeepsTheWholePicturesGeometry(orientation: UInt8) throws {
    let jpeg = try Self.generated(
      "color=white:s=1001x16,format=rgb24,drawbox=x=900:y=0:w=101:h=16:color=black:t=fill", "e.jpg",
      ["-q:v", "2", "-pix_fmt", "yuvj444p"])
    let exif: [UInt8] =
      [0xFF, 0xE1, 0x00, 0x22] + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
      + [0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0x00, orientation, 0x00, 0x00, 0, 0, 0, 0]
    let turned = Array(jpeg.prefix(2)) + exif + jpeg.dropFirst(2)
    let whole = try ImageDecoder.decode(data: turned, name: "e.jpg")
    let reduced = try ImageDecoder.decode(data: turned, name: "e.jpg") { _ in 8 }
    let picture: Rect =
      switch orientation {
      case 3: Rect(x: 0.75, y: 0, width: 250.25, height: 4)
      case 6: Rect(x: 0, y: 0, width: 4, height: 250.25)
      default: Rect(x: 0, y: 0, width: 250.25, height: 4)
      }
    #expect(reduced.pictureRect == picture)
    let sideways = orientation == 6
    let size = sideways ? Size(width: 4, height: 100) : Size(width: 100, height: 4)
    let expected = ImageDownsampling.fitted(whole, gravity: .resize, in: size, scale: 1)
    let drawn = ImageDownsampling.fitted(reduced, gravity: .resize, in: size, scale: 1)
    let same = drawn.width == expected.width && drawn.height == expected.height
    #expect(same)
    let worst = (0..<100).map { i in
      let (x, y) = sideways ? (2, i) : (i, 2)
      return abs(Int(drawn[x, y].r) - Int(expected[x, y].r))
    }.max()!
    #expect(worst <= 3, "\(worst) levels off the whole decode's average")
  }
}
