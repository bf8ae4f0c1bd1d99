// A PNG's compressed chunks besides its pixels: text is never handed to
// libavcodec (which inflates it without a limit), and the ICC profile is
// inflated within a bound; one that does not inflate within it is no profile.

import CZlib
import Foundation
import Raster
import Testing

@testable import Media

@Suite struct PNGAncillaryChunksTests {
  /// A chunk: length, type, body, CRC.
  static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    let crc = UInt32(typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    return be(UInt32(body.count)) + typed + be(crc)
  }

  static func deflated(_ bytes: [UInt8]) -> [UInt8] {
    var size = compressBound(UInt(bytes.count))
    var out = [UInt8](repeating: 0, count: Int(size))
    _ = compress2(&out, &size, bytes, UInt(bytes.count), 9)
    return Array(out[..<Int(size)])
  }

  /// A 4×4 opaque orange PNG with `extra` chunks after its header.
  static func png(_ extra: [UInt8]) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header = chunk("IHDR", [0, 0, 0, 4, 0, 0, 0, 4, 8, 2, 0, 0, 0])
    let row: [UInt8] = [0] + [UInt8]([255, 149, 0, 255, 149, 0, 255, 149, 0, 255, 149, 0])
    let rows = row + row + row + row
    return signature + header + extra + chunk("IDAT", deflated(rows)) + chunk("IEND", [])
  }

  /// Text chunks of 16 MiB each once inflated decode as the PNG without them,
  /// and what libavcodec is given holds none of them (nor the profile).
  @Test func textChunksNeverReachTheDecoder() throws {
    let text = Self.deflated([UInt8](repeating: 0x41, count: 16 << 20))
    let plain = Self.png([])
    let withText = Self.png(
      Self.chunk("zTXt", Array("Comment".utf8) + [0, 0] + text) + Self.chunk("tEXt", Array("Title\0x".utf8))
        + Self.chunk("iTXt", Array("XML".utf8) + [0, 1, 0, 0, 0] + text))
    let separated = PNGAncillaryChunks.separated(withText)
    #expect(separated.stream == plain && separated.profile == nil)
    #expect(PNGAncillaryChunks.separated(plain).stream == nil)
    let decoded = try ImageDecoder.decode(data: withText, name: "text.png")
    #expect(decoded == (try ImageDecoder.decode(data: plain, name: "plain.png")))
    #expect(decoded[2, 2] == Pixel(r: 255, g: 149, b: 0, a: 255))
  }

  /// A profile is inflated whole up to the bound (a profile of exactly
  /// 16 MiB is taken), and handed on; the chunk is left out of the stream.
  @Test func aProfileIsInflatedUpToTheBound() throws {
    let profile = [UInt8](repeating: 7, count: PNGAncillaryChunks.maxProfileBytes)
    let data = Self.png(Self.chunk("iCCP", Array("p".utf8) + [0, 0] + Self.deflated(profile)))
    let separated = PNGAncillaryChunks.separated(data)
    #expect(separated.profile == profile && separated.stream == Self.png([]))
  }

  /// A profile that does not inflate (cut short, corrupt, no name, another
  /// compression method) or inflates past the bound is no profile: the PNG
  /// decodes as the one without it (libpng's benign error; browsers show
  /// such a PNG), and the first iCCP is the one that counts.
  @Test func aBrokenProfileIsNoProfile() throws {
    let plain = try ImageDecoder.decode(data: Self.png([]), name: "plain.png")
    let stream = Self.deflated([UInt8](repeating: 7, count: 4096))
    let bodies: [(String, [UInt8])] = [
      ("cut short", Array("p".utf8) + [0, 0] + stream.prefix(stream.count / 2)),
      ("not zlib", Array("p".utf8) + [0, 0] + Array("garbage-not-zlib".utf8)),
      ("no name", [0, 0] + stream), ("method 1", Array("p".utf8) + [0, 1] + stream),
      ("no NUL", Array(repeating: 0x41, count: 100)),
      ("over the bound", Array("p".utf8) + [0, 0] + Self.deflated([UInt8](repeating: 7, count: PNGAncillaryChunks.maxProfileBytes + 1))),
    ]
    for (label, body) in bodies {
      let data = Self.png(Self.chunk("iCCP", body))
      let separated = PNGAncillaryChunks.separated(data)
      #expect(separated.profile == nil && separated.stream == Self.png([]), "\(label)")
      let decoded = try ImageDecoder.decode(data: data, name: "broken-profile.png")
      #expect(decoded == plain, "\(label)")
    }
    let good = Array("p".utf8) + [0, 0] + stream
    let second = PNGAncillaryChunks.separated(Self.png(Self.chunk("iCCP", bodies[0].1) + Self.chunk("iCCP", good)))
    #expect(second.profile == nil)
  }

  /// A profile after the image data is none (libpng drops it there, and
  /// Chromium reads colour chunks before IDAT only): it is still left out
  /// of the stream, and the PNG decodes as the one without it.
  @Test func aProfileAfterTheImageDataIsNone() throws {
    let profile = try ColorProfileTests.displayP3()
    let iccp = Self.chunk("iCCP", Array("p".utf8) + [0, 0] + Self.deflated(profile))
    let plain = Self.png([])
    let late = Array(plain.dropLast(12)) + iccp + Array(plain.suffix(12))
    let separated = PNGAncillaryChunks.separated(late)
    #expect(separated.profile == nil && separated.stream == plain)
    #expect(try ImageDecoder.decode(data: late, name: "late.png") == (try ImageDecoder.decode(data: plain, name: "plain.png")))
    // Before the image data, the same profile turns the orange.
    #expect(PNGAncillaryChunks.separated(Self.png(iccp)).profile == profile)
  }

  /// An ancillary chunk that fails its CRC is as if it were not there, as
  /// libpng drops it and Chromium draws the PNG: a damaged profile, cICP,
  /// gAMA, cHRM or tRNS changes no colour, a damaged sRGB leaves gAMA to
  /// decide, a damaged eXIf turns nothing, a damaged acTL leaves a still
  /// PNG. Each is left out of the stream libavcodec reads.
  @Test func aDamagedAncillaryChunkIsNone() throws {
    func damaged(_ chunk: [UInt8]) -> [UInt8] { chunk.dropLast() + [chunk.last! ^ 0x01] }
    let plainData = Self.png([])
    let plain = try ImageDecoder.decode(data: plainData, name: "plain.png")
    let linear = Self.chunk("gAMA", [0, 1, 0x86, 0xA0])  // 1.0: linear light
    let chunks: [(String, [UInt8])] = [
      ("iCCP", Self.chunk("iCCP", Array("p".utf8) + [0, 0] + Self.deflated(try ColorProfileTests.displayP3()))),
      ("cICP", Self.chunk("cICP", [12, 13, 0, 1])), ("gAMA", linear),
      ("cHRM", Self.chunk("gAMA", [0, 0, 0xB1, 0x8F]) + Self.chunk("cHRM", [31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000].flatMap(APNGFirstFrameTests.be))),
      ("tRNS", Self.chunk("tRNS", [0, 255, 0, 149, 0, 0])),
      ("eXIf", Self.chunk("eXIf", EXIFOrientationTests.tiff(6, littleEndian: true))),
    ]
    for (label, chunk) in chunks {
      // The cHRM case's gAMA (1/2.2) stays whole: only the last chunk is damaged.
      let whole = try ImageDecoder.decode(data: Self.png(chunk), name: "whole.png")
      let cut = label == "cHRM" ? Array(chunk.prefix(16)) : []
      let data = Self.png(cut + damaged(Array(chunk.dropFirst(cut.count))))
      let separated = PNGAncillaryChunks.separated(data)
      #expect(whole[1, 1] != plain[1, 1] || label == "eXIf", "\(label)")
      #expect(separated.profile == nil && separated.orientation == nil, "\(label)")
      #expect(separated.stream == Self.png(cut), "\(label)")
      #expect(try ImageDecoder.decode(data: data, name: "damaged.png") == plain, "\(label)")
    }
    // A damaged sRGB: gAMA 1.0 decides, as without the sRGB.
    let srgb = try ImageDecoder.decode(data: Self.png(damaged(Self.chunk("sRGB", [0])) + linear), name: "srgb.png")
    #expect(srgb == (try ImageDecoder.decode(data: Self.png(linear), name: "linear.png")) && srgb != plain)
    // A damaged acTL: the image data is a still PNG's, not a default image.
    let apng = APNGFirstFrameTests.apng(hiddenDefault: true)
    let acTL = try #require(apng.firstRange(of: Array("acTL".utf8))).lowerBound
    var still = apng
    still[acTL + 4 + 8 + 3] ^= 0x01
    #expect(try APNGFirstFrame.frame(still, operation: "test") == nil)
    #expect(try ImageDecoder.decode(data: still, name: "still.png")[0, 0] == APNGFirstFrameTests.orange)
  }
}
