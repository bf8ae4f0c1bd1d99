// An animated PNG is tagged sRGB as the poster PNG is: a viewer that
// colour-manages only tagged images shows the two alike.

import Foundation
import Raster
import Testing

@testable import Media
import TestSupport

@Suite struct APNGWriterTests {
  /// The colour chunks (sRGB, cHRM, gAMA, iCCP, cICP) of `png` before its
  /// image data, whole (length, type, body, CRC), in order.
  static func colourChunks(_ png: [UInt8]) -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var offset = 8
    while offset + 12 <= png.count {
      let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
      let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
      if type == "IDAT" { break }
      if ["sRGB", "cHRM", "gAMA", "iCCP", "cICP"].contains(type) { chunks.append(Array(png[offset..<(offset + 12 + length)])) }
      offset += 12 + length
    }
    return chunks
  }

  @Test func anAPNGIsTaggedAsThePosterIs() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("a.apng.png")
    let frames = (0..<3).map { syntheticFrame($0, width: 16, height: 12) }
    let writer = try APNGWriter(path: path, width: 16, height: 12, fps: 10)
    for frame in frames { try writer.append(frame) }
    _ = try writer.finish()
    let apng = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let poster = Self.colourChunks(try PNGWriter.encode(frames[0]))
    let types = poster.map { String(decoding: $0[4..<8], as: UTF8.self) }
    #expect(types == ["sRGB", "cHRM", "gAMA"])
    #expect(Self.colourChunks(apng) == poster)
  }
}
