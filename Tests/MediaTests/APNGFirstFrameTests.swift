// An animated PNG draws its first frame, as a browser shows it before it
// plays: the image data when a frame control comes before it, else the
// frame of the first fcTL after it (the image data being a default image
// for viewers without APNG).

import Raster
import Testing

@testable import Media

@Suite struct APNGFirstFrameTests {
  typealias PNG = PNGAncillaryChunksTests

  static let orange = Pixel(r: 255, g: 149, b: 0, a: 255)
  static let green = Pixel(r: 0, g: 200, b: 0, a: 255)

  static func be(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

  /// A 4×4 image of one colour, as a PNG's rows (filter 0) deflated.
  static func rows(_ p: Pixel, width: Int = 4, height: Int = 4) -> [UInt8] {
    let row: [UInt8] = [0] + (0..<width).flatMap { _ in [p.r, p.g, p.b] }
    return PNG.deflated((0..<height).flatMap { _ in row })
  }

  /// A frame control: sequence, size, offset, delay 1/10 s, dispose, blend (none, source by default).
  static func frameControl(
    _ sequence: Int, width: Int = 4, height: Int = 4, x: Int = 0, y: Int = 0, dispose: UInt8 = 0, blend: UInt8 = 0
  ) -> [UInt8] {
    PNG.chunk("fcTL", be(sequence) + be(width) + be(height) + be(x) + be(y) + [0, 1, 0, 10, dispose, blend])
  }

  /// A 4×4 RGB APNG: `hiddenDefault` puts the image data (orange) before
  /// any fcTL, so it is a default image and the frames (green, then
  /// orange) follow in fdAT; else the image data is the first frame
  /// (orange), green the second.
  static func apng(hiddenDefault: Bool, firstFrame: [UInt8]? = nil, fdAT: (([UInt8]) -> [UInt8])? = nil) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header = PNG.chunk("IHDR", [0, 0, 0, 4, 0, 0, 0, 4, 8, 2, 0, 0, 0])
    let control = PNG.chunk("acTL", be(2) + be(0))
    let data = PNG.chunk("IDAT", rows(orange))
    func frameData(_ sequence: Int, _ p: Pixel) -> [UInt8] {
      let chunk = PNG.chunk("fdAT", be(sequence) + rows(p))
      return fdAT?(chunk) ?? chunk
    }
    let end = PNG.chunk("IEND", [])
    if hiddenDefault {
      return signature + header + control + data + (firstFrame ?? frameControl(0)) + frameData(1, green)
        + frameControl(2) + frameData(3, orange) + end
    }
    return signature + header + control + frameControl(0) + data + frameControl(1) + frameData(2, green) + end
  }

  @Test func aHiddenDefaultImageGivesWayToTheFirstFrame() throws {
    let decoded = try ImageDecoder.decode(data: Self.apng(hiddenDefault: true), name: "hidden.png")
    #expect(decoded.width == 4 && decoded.height == 4)
    #expect(decoded[0, 0] == Self.green && decoded[3, 3] == Self.green)
  }

  @Test func imageDataAfterAFrameControlIsTheFirstFrame() throws {
    #expect(try APNGFirstFrame.frame(Self.apng(hiddenDefault: false), operation: "test") == nil)
    let decoded = try ImageDecoder.decode(data: Self.apng(hiddenDefault: false), name: "apng.png")
    #expect(decoded[0, 0] == Self.orange)
    // A still PNG is left as it is.
    #expect(try APNGFirstFrame.frame(PNG.png([]), operation: "test") == nil)
  }

  /// A first frame whose data fails its CRC cannot stand in for the image:
  /// the default image is drawn, as a viewer without APNG draws it.
  @Test func aFirstFrameThatCannotStandInLeavesTheDefaultImage() throws {
    let damaged = Self.apng(hiddenDefault: true) { chunk in
      var c = chunk
      c[c.count - 1] ^= 0xFF
      return c
    }
    #expect(try APNGFirstFrame.frame(damaged, operation: "test") == nil)
    let decoded = try ImageDecoder.decode(data: damaged, name: "damaged.png")
    #expect(decoded[0, 0] == Self.orange)
  }

  /// A first frame smaller than the image stands at its place on a
  /// transparent image, as browsers draw it (Chromium's test of a 30 × 30
  /// frame at (10, 10) of a 50 × 50 APNG): none of the default image shows.
  @Test func aFirstFrameSmallerThanTheImageStandsAtItsPlace() throws {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let data =
      signature + PNG.chunk("IHDR", [0, 0, 0, 4, 0, 0, 0, 4, 8, 2, 0, 0, 0]) + PNG.chunk("acTL", Self.be(1) + Self.be(0))
      + PNG.chunk("IDAT", Self.rows(Self.orange)) + Self.frameControl(0, width: 2, height: 3, x: 1, y: 1)
      + PNG.chunk("fdAT", Self.be(1) + Self.rows(Self.green, width: 2, height: 3)) + PNG.chunk("IEND", [])
    let decoded = try ImageDecoder.decode(data: data, name: "part.png")
    #expect(decoded.width == 4 && decoded.height == 4)
    let clear = Pixel(r: 0, g: 0, b: 0, a: 0)
    for y in 0..<4 {
      for x in 0..<4 {
        let inside = (1...2).contains(x) && (1...3).contains(y)
        #expect(decoded[x, y] == (inside ? Self.green : clear), "(\(x), \(y))")
      }
    }
  }

  /// A damaged frame control for the first frame after a default image is
  /// the image's error, as Chromium fails the PNG there: its CRC, length,
  /// sequence number, size, place and operations. The chunk stands after
  /// the signature and IHDR (33 bytes), the acTL (20) and the IDAT.
  @Test func aDamagedFirstFrameControlIsAnError() throws {
    var crc = Self.frameControl(0)
    crc[crc.count - 1] ^= 0xFF
    let body = Array(Self.frameControl(0)[8..<34])
    let long = PNG.chunk("fcTL", body + [0, 0, 0, 0])
    let cases: [(label: String, control: [UInt8], message: String)] = [
      ("crc", crc, "does not match its CRC (the file is damaged)"),
      ("length", long, "holds 30 bytes, not 26 (the file is damaged)"),
      ("sequence", Self.frameControl(5), "has sequence number 5, not 0 (the file is damaged)"),
      ("empty", Self.frameControl(0, width: 0), "gives the frame an empty size 0×4 (the file is damaged)"),
      ("outside", Self.frameControl(0, x: 2), "places a 4×4 frame at (2, 0), outside the 4×4 image (the file is damaged)"),
      (
        "overflow", Self.frameControl(0, width: 0xFFFF_FFFF, x: 2),
        "places a 4294967295×4 frame at (2, 0), outside the 4×4 image (the file is damaged)"
      ),
      ("dispose", Self.frameControl(0, dispose: 3), "has dispose operation 3, not 0, 1 or 2 (the file is damaged)"),
      ("blend", Self.frameControl(0, blend: 2), "has blend operation 2, not 0 or 1 (the file is damaged)"),
    ]
    let at = 33 + 20 + PNG.chunk("IDAT", Self.rows(Self.orange)).count
    for (label, control, message) in cases {
      let data = Self.apng(hiddenDefault: true, firstFrame: control)
      let expected = "decode image '\(label).png': corrupt APNG: its first frame's control chunk 'fcTL' at byte \(at) \(message)"
      let decoded = #expect(throws: MediaError.self, "\(label)") { try ImageDecoder.decode(data: data, name: "\(label).png") }
      #expect(decoded?.description == expected, "\(label)")
      // `transvid check` says the same without decoding.
      let checked = #expect(throws: MediaError.self, "\(label)") {
        try ImageDecoder.checkHeader(data: data, name: "\(label).png")
      }
      #expect(checked?.description == expected, "\(label)")
    }
  }

  /// A damaged frame control before the image data leaves a still PNG, as
  /// Chromium then ignores the animation: the image data is drawn.
  @Test func aDamagedControlBeforeTheImageDataLeavesAStillPNG() throws {
    var data = Self.apng(hiddenDefault: false)
    let fcTL = try #require(data.firstRange(of: Array("fcTL".utf8))).lowerBound
    data[fcTL + 4 + 26] ^= 0xFF
    #expect(try APNGFirstFrame.frame(data, operation: "test") == nil)
    #expect(try ImageDecoder.decode(data: data, name: "still.png")[0, 0] == Self.orange)
  }
}
