// WebP stills decode as libwebp decodes them (the decoder of browsers and
// Pillow): its own `dwebp` is the oracle, pixel for pixel, for lossy
// colour edges (where libavcodec and swscale's chroma upsampling differed
// by up to 34 levels), lossy with alpha, and lossless; an ICCP chunk is
// honoured as in the other formats.

import Foundation
import Raster
import Testing
import TestSupport

@testable import Media

@Suite struct WebPDecoderTests {
  /// Saturated colours meeting at sharp edges (where chroma upsampling
  /// shows), with straight alpha varying down the rows when `alpha`.
  static func edges(alpha: Bool) -> Bitmap {
    var b = Bitmap(width: 90, height: 60)
    let colours: [(UInt8, UInt8, UInt8)] = [(230, 40, 30), (30, 60, 220), (250, 220, 40), (20, 180, 90), (255, 255, 255)]
    for y in 0..<60 {
      for x in 0..<90 {
        let c = colours[(x / 7 + y / 5) % colours.count]
        b[x, y] = Color(red8: c.0, green8: c.1, blue8: c.2, alpha8: alpha ? UInt8(255 - y * 3) : 255).premultipliedPixel
      }
    }
    return b
  }

  /// `dwebp`'s RGBA of `webp` (a PAM), premultiplied.
  static func dwebp(_ webp: String, in dir: TempDirectory) throws -> Bitmap {
    _ = try run("dwebp", ["-quiet", webp, "-pam", "-o", dir.path("out.pam")])
    let pam = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("out.pam"))))
    // The header ends with "ENDHDR\n"; then width × height RGBA.
    let end = Array("ENDHDR\n".utf8)
    let start = try #require((0..<(pam.count - end.count)).first { Array(pam[$0..<($0 + end.count)]) == end }) + end.count
    var bytes = Array(pam[start...])
    Alpha.premultiply(&bytes)
    return try #require(Bitmap(width: 90, height: 60, bytes: bytes))
  }

  @Test(arguments: [
    (alpha: false, options: ["-q", "80"]), (alpha: true, options: ["-q", "80"]),
    (alpha: true, options: ["-lossless"]),
  ])
  func decodesAsLibWebPDoes(alpha: Bool, options: [String]) throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try PNGWriter.write(Self.edges(alpha: alpha), to: dir.path("in.png"))
    _ = try run("cwebp", ["-quiet"] + options + [dir.path("in.png"), "-o", dir.path("in.webp")])
    let decoded = try ImageDecoder.decode(path: dir.path("in.webp"))
    let expected = try Self.dwebp(dir.path("in.webp"), in: dir)
    let same = decoded.bytes == expected.bytes
    #expect(same, "\(options) alpha \(alpha): PSNR \(TestSupport.psnr(decoded, expected, alpha: true)) dB against dwebp")
  }

  /// A Display P3 WebP (its ICCP chunk set by libwebp's `webpmux`) decodes
  /// to the colours the P3 → sRGB matrices give, as a JPEG and a PNG do.
  @Test func aDisplayP3WebPDecodesToSRGB() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try Data(try ColorProfileTests.displayP3()).write(to: URL(fileURLWithPath: dir.path("p3.icc")))
    try Data(ColorProfileTests.ppm()).write(to: URL(fileURLWithPath: dir.path("p3.ppm")))
    _ = try run("ffmpeg", ["-v", "error", "-i", dir.path("p3.ppm"), dir.path("p3.png")])
    _ = try run("cwebp", ["-quiet", "-lossless", dir.path("p3.png"), "-o", dir.path("plain.webp")])
    _ = try run("webpmux", ["-set", "icc", dir.path("p3.icc"), dir.path("plain.webp"), "-o", dir.path("p3.webp")])
    ColorProfileTests.checkBlocks(try ImageDecoder.decode(path: dir.path("p3.webp")), bound: 2, "WebP")
    // Untagged, the same pixels are taken as sRGB.
    let plain = try ImageDecoder.decode(path: dir.path("plain.webp"))
    #expect(plain[8, 8] == Pixel(r: 234, g: 51, b: 35, a: 255))
  }

  /// An animated WebP draws its first frame on its canvas, as a browser
  /// shows it before it plays (and as an APNG's or GIF's first frame is
  /// drawn): a lossless 30 × 20 frame at (10, 20) of a 90 × 60 canvas whose
  /// second frame covers it all is that frame there, transparent elsewhere.
  @Test func anAnimatedWebPDrawsItsFirstFrame() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    var small = Bitmap(width: 30, height: 20)
    for y in 0..<20 {
      for x in 0..<30 { small[x, y] = Color(red8: UInt8(8 * x), green8: UInt8(12 * y), blue8: 200, alpha8: 255 - UInt8(4 * x)).premultipliedPixel }
    }
    try PNGWriter.write(small, to: dir.path("small.png"))
    try PNGWriter.write(Self.edges(alpha: false), to: dir.path("whole.png"))
    for name in ["small", "whole"] {
      _ = try run("cwebp", ["-quiet", "-lossless", "-exact", dir.path("\(name).png"), "-o", dir.path("\(name).webp")])
    }
    _ = try run(
      "webpmux",
      ["-frame", dir.path("small.webp"), "+100+10+20", "-frame", dir.path("whole.webp"), "+100+0+0", "-loop", "0", "-o", dir.path("anim.webp")])
    let decoded = try ImageDecoder.decode(path: dir.path("anim.webp"))
    var expected = Bitmap(width: 90, height: 60)
    for y in 0..<20 { for x in 0..<30 { expected[10 + x, 20 + y] = small[x, y] } }
    #expect(decoded == expected)
  }
}
