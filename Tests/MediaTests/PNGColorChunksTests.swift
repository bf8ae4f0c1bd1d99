// A PNG's cICP, gAMA and cHRM say what its numbers mean, and it decodes as
// Chromium draws it: the colours are worked out here in Double from the
// chunks' own numbers (nothing shared with LittleCMS), and Chromium's
// levels for a linear ramp are held as it drew them; the chunks decide in
// Chromium's order (cICP, the ICC profile, sRGB, gAMA with or without
// cHRM), and those after the image data, or that say nothing, are none.

import Foundation
import Raster
import Testing

@testable import Media

@Suite struct PNGColorChunksTests {
  typealias Chunks = PNGAncillaryChunksTests

  /// A 256 × 1 PNG of colour type `colorType` (0 grey, 2 RGB) whose pixel x
  /// is level x (grey, or `rgb(x)`), with `before` chunks after its header
  /// and `after` chunks after its image data.
  static func ramp(
    colorType: UInt8 = 2, rgb: (Int) -> [UInt8] = { [UInt8($0), UInt8($0), UInt8($0)] }, before: [UInt8] = [],
    after: [UInt8] = []
  ) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header = Chunks.chunk("IHDR", [0, 0, 1, 0, 0, 0, 0, 1, 8, colorType, 0, 0, 0])
    let row: [UInt8] = [0] + (0..<256).flatMap { colorType == 0 ? [UInt8($0)] : rgb($0) }
    return signature + header + before + Chunks.chunk("IDAT", Chunks.deflated(row)) + after + Chunks.chunk("IEND", [])
  }

  static func gAMA(_ value: UInt32) -> [UInt8] { Chunks.chunk("gAMA", be(value)) }
  static func cHRM(_ xy: [Double]) -> [UInt8] { Chunks.chunk("cHRM", xy.flatMap { be(UInt32(($0 * 100_000).rounded())) }) }
  static func cICP(_ points: [UInt8]) -> [UInt8] { Chunks.chunk("cICP", points) }
  static func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

  static func encodedSRGB(_ light: Double) -> Double {
    let l = min(max(light, 0), 1)
    return (l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055) * 255
  }

  /// Pixel x's red, green and blue.
  static func colour(_ image: Bitmap, _ x: Int) -> [Int] { (0..<3).map { Int(image.bytes[4 * x + $0]) } }

  /// gAMA 1.0 is linear light: level v is drawn as sRGB encodes v / 255,
  /// on an RGB and on a grey PNG; Chromium draws levels 0…11 as 0, 13, 22,
  /// 28, 34, 38, 42, 46, 50, 53, 56, 59. gAMA 1/1.8 (0.55556) decodes by
  /// the power 1.8.
  @Test func gammaAloneIsAPowerCurveOnSRGBsPrimaries() throws {
    let chromium = [0, 13, 22, 28, 34, 38, 42, 46, 50, 53, 56, 59]
    for colorType: UInt8 in [2, 0] {
      let linear = try ImageDecoder.decode(data: Self.ramp(colorType: colorType, before: Self.gAMA(100_000)), name: "linear.png")
      for v in 0..<256 {
        let expected = Self.encodedSRGB(Double(v) / 255)
        let drawn = Self.colour(linear, v)
        #expect(drawn.allSatisfy { abs(Double($0) - expected) <= 1 }, "type \(colorType) level \(v): \(drawn), \(expected)")
      }
      #expect((0..<12).map { Self.colour(linear, $0)[0] } == chromium, "type \(colorType)")
    }
    let image = try ImageDecoder.decode(data: Self.ramp(before: Self.gAMA(55_556)), name: "g18.png")
    for v in 0..<256 {
      let expected = Self.encodedSRGB(pow(Double(v) / 255, 1.8))
      #expect(Self.colour(image, v).allSatisfy { abs(Double($0) - expected) <= 1 }, "level \(v)")
    }
  }

  /// cICP's Display P3 (primaries 12, sRGB's curve 13, RGB, full range)
  /// converts as a Display P3 profile does: the P3 matrices' sRGB.
  @Test func cicpDisplayP3IsConverted() throws {
    let colours = ColorProfileTests.colours
    let data = Self.ramp(rgb: { colours[$0 % colours.count] }, before: Self.cICP([12, 13, 0, 1]))
    let image = try ImageDecoder.decode(data: data, name: "p3.png")
    for (i, colour) in colours.enumerated() {
      let expected = ColorProfileTests.srgb(fromP3: colour.map(Double.init))
      let drawn = Self.colour(image, i)
      #expect(zip(drawn, expected).allSatisfy { abs(Double($0) - $1) <= 2 }, "\(colour): \(drawn), \(expected)")
    }
    // gAMA 1/2.2 with cHRM of P3's primaries: P3's colours, light by the power 2.2.
    let p3 = [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]
    let chrm = try ImageDecoder.decode(
      data: Self.ramp(rgb: { colours[$0 % colours.count] }, before: Self.gAMA(45_455) + Self.cHRM(p3)), name: "chrm.png")
    for (i, colour) in colours.enumerated() {
      // The same light as P3 with sRGB's curve would give, from v^2.2 instead.
      let asSRGBCurve = colour.map { v -> Double in
        let light = pow(Double(v) / 255, 2.2)
        return (light <= 0.0031308 ? light * 12.92 : 1.055 * pow(light, 1 / 2.4) - 0.055) * 255
      }
      let expected = ColorProfileTests.srgb(fromP3: asSRGBCurve)
      let drawn = Self.colour(chrm, i)
      #expect(zip(drawn, expected).allSatisfy { abs(Double($0) - $1) <= 2 }, "\(colour): \(drawn), \(expected)")
    }
  }

  /// A PNG whose cICP gives an HDR transfer function (PQ, HLG), with no
  /// ICC profile to take instead, is refused with the file named: its
  /// numbers are light beyond SDR white, which Chromium tone-maps (PQ's
  /// levels 128, 150, 200 as 132, 193, 255; HLG's as 99, 122, 202) and
  /// transvid does not, where drawn as sRGB they would be those levels.
  @Test func anHDRPNGIsRefused() throws {
    for (points, name) in [([9, 16, 0, 1] as [UInt8], "PQ"), ([9, 18, 0, 1], "HLG"), ([1, 16, 0, 1], "PQ")] {
      for also in [[], Chunks.chunk("sRGB", [0]), Self.gAMA(45_455)] {
        var message = ""
        do {
          _ = try ImageDecoder.decode(data: Self.ramp(before: Self.cICP(points) + also), name: "hdr.png")
        } catch { message = "\(error)" }
        let expected =
          "decode image 'hdr.png': an HDR PNG (its cICP chunk gives the \(name) transfer function), which transvid "
          + "does not tone-map: export it as SDR (sRGB or Display P3)"
        #expect(message == expected, "\(points) \(also.count)")
        // `transvid check` reads no pixels, and says the same from the chunks.
        var checked = ""
        do {
          _ = try ImageDecoder.checkHeader(data: Self.ramp(before: Self.cICP(points) + also), name: "hdr.png")
        } catch { checked = "\(error)" }
        #expect(checked == expected, "\(points) \(also.count)")
      }
    }
    // Beside a profile, the profile decides: no error, in check as in decode.
    let iccp = Chunks.chunk("iCCP", Array("p".utf8) + [0, 0] + Chunks.deflated(try ColorProfileTests.displayP3()))
    let withProfile = Self.ramp(before: Self.cICP([9, 16, 0, 1]) + iccp)
    #expect(try ImageDecoder.checkHeader(data: withProfile, name: "p.png").width == 256)
    #expect(try ImageDecoder.decode(data: withProfile, name: "p.png").width == 256)
  }

  /// Which chunk decides: cICP over the profile, the profile over sRGB and
  /// gAMA, sRGB over gAMA; a neutral gAMA (within 5 % of 1/2.2), cHRM
  /// alone, a cICP with a matrix or narrow range, an HDR one (PQ) beside
  /// a profile, one of SMPTE ST 428's curve, and chunks after the image
  /// data say nothing.
  @Test func chunksDecideInChromiumsOrder() throws {
    let plain = try ImageDecoder.decode(data: Self.ramp(), name: "plain.png")
    let linear = try ImageDecoder.decode(data: Self.ramp(before: Self.gAMA(100_000)), name: "linear.png")
    // Display P3 with sRGB's curve: greys stay as they are.
    let p3 = try ColorProfileTests.displayP3()
    let iccp = Chunks.chunk("iCCP", Array("p".utf8) + [0, 0] + Chunks.deflated(p3))
    let srgb = Chunks.chunk("sRGB", [0])
    let cases: [(String, [UInt8], [UInt8], Bitmap)] = [
      ("neutral gAMA", Self.gAMA(45_455), [], plain),
      ("gAMA 0.45 is within 5 %", Self.gAMA(45_000), [], plain),
      ("cHRM alone", Self.cHRM([0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]), [], plain),
      ("sRGB over gAMA", srgb + Self.gAMA(100_000), [], plain),
      ("cICP sRGB over gAMA", Self.cICP([1, 13, 0, 1]) + Self.gAMA(100_000), [], plain),
      ("cICP linear", Self.cICP([1, 8, 0, 1]), [], linear),
      ("cICP over the profile", Self.cICP([1, 8, 0, 1]) + iccp, [], linear),
      ("a cICP with a matrix is none", Self.cICP([1, 13, 1, 1]) + Self.gAMA(100_000), [], linear),
      ("a narrow-range cICP is none", Self.cICP([1, 13, 0, 0]) + Self.gAMA(100_000), [], linear),
      ("PQ beside a profile is passed over", Self.cICP([9, 16, 0, 1]) + iccp + Self.gAMA(100_000), [], plain),
      ("gAMA after the image data", [], Self.gAMA(100_000), plain),
      ("a cHRM whose white has y = 0", Self.gAMA(100_000) + Self.cHRM([0.3127, 0, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]), [], plain),
      ("a cHRM of one primary thrice", Self.gAMA(100_000) + Self.cHRM([0.3127, 0.3290] + Array(repeating: [0.64, 0.33], count: 3).flatMap { $0 }), [], plain),
      ("cICP after the image data", [], Self.cICP([1, 8, 0, 1]), plain),
    ]
    for (label, before, after, expected) in cases {
      let image = try ImageDecoder.decode(data: Self.ramp(before: before, after: after), name: "\(label).png")
      #expect(image == expected, "\(label)")
    }
    // The profile over gAMA: the grey ramp keeps its levels, not gAMA 1.0's.
    let profiled = try ImageDecoder.decode(data: Self.ramp(before: iccp + Self.gAMA(100_000)), name: "iccp.png")
    for v in 0..<256 {
      #expect(Self.colour(profiled, v).allSatisfy { abs($0 - v) <= 1 }, "level \(v)")
    }
    // cICP's BT.709 curve is shown as a BT.1886 display shows it, as Chromium does: light = level^2.4.
    let bt709 = try ImageDecoder.decode(data: Self.ramp(before: Self.cICP([1, 1, 0, 1])), name: "bt709.png")
    for v in 0..<256 {
      let expected = Self.encodedSRGB(pow(Double(v) / 255, 2.4))
      #expect(Self.colour(bt709, v).allSatisfy { abs(Double($0) - expected) <= 1 }, "BT.709 level \(v)")
    }
    // SMPTE ST 428-1's curve, light = (52.37 / 48)·level^2.6, over gAMA:
    // the levels Chromium 156 draws (a screenshot of the PNG in an <img>).
    let st428 = try ImageDecoder.decode(data: Self.ramp(before: Self.cICP([1, 17, 0, 1]) + Self.gAMA(100_000)), name: "st428.png")
    let chromium = [0: 0, 16: 3, 32: 15, 64: 48, 100: 87, 128: 118, 160: 154, 192: 191, 224: 228, 240: 247, 255: 255]
    for (v, shown) in chromium {
      #expect(Self.colour(st428, v).allSatisfy { abs($0 - shown) <= 1 }, "ST 428 level \(v): \(Self.colour(st428, v))")
    }
    // A profile that does not read as one is passed over for gAMA.
    let broken = Chunks.chunk("iCCP", Array("p".utf8) + [0, 0] + Chunks.deflated([UInt8](repeating: 7, count: 200)))
    #expect(try ImageDecoder.decode(data: Self.ramp(before: broken + Self.gAMA(100_000)), name: "broken.png") == linear)
  }
}
