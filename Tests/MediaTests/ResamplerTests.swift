import CFFmpeg
import Foundation
import Raster
import Testing

@testable import Media

/// The GIF writer's resize: swscale's planar G, B, R output interleaved as
/// opaque BGRA must give exactly the colour bytes of swscale's packed BGRA
/// output (the writer's frames before), on photo-like content, flat
/// colours with hard edges, and premultiplied transparency.
@Suite struct ResamplerTests {
  /// A premultiplied RGBA frame: smooth gradients, noise, flat blocks with
  /// hard edges, and a band of partly transparent pixels.
  static func frame(width: Int, height: Int, seed: UInt64) -> Bitmap {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: 4 * width * height)
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let noise = Int(truncatingIfNeeded: state >> 59)
        let i = 4 * (y * width + x)
        var r = (x * 255 / width + noise) & 0xFF, g = (y * 255 / height) & 0xFF, b = ((x ^ y) * 7 + noise) & 0xFF
        var a = 255
        if (x / 37 + y / 23) % 5 == 0 { (r, g, b) = (250, 20, 90) }
        if y % 97 < 11 {
          a = Int(truncatingIfNeeded: state >> 40) & 0xFF
          (r, g, b) = (r * a / 255, g * a / 255, b * a / 255)
        }
        bytes[i] = UInt8(r)
        bytes[i + 1] = UInt8(g)
        bytes[i + 2] = UInt8(b)
        bytes[i + 3] = UInt8(a)
      }
    }
    return Bitmap(width: width, height: height, bytes: bytes)!
  }

  @Test(arguments: [(390, 844, 120, 260), (1170, 2532, 360, 779), (301, 203, 150, 101), (64, 48, 128, 96)])
  static func planarResizeGivesThePackedColourBytes(sizes: (Int, Int, Int, Int)) throws {
    let (sw, sh, w, h) = sizes
    let source = frame(width: sw, height: sh, seed: UInt64(sw * 7 + w))
    let packed = try Resampler(from: sw, sh, to: w, h, format: AV_PIX_FMT_BGRA)
    let planar = try Resampler(from: sw, sh, to: w, h, format: AV_PIX_FMT_GBRP)
    var expected = [UInt8](repeating: 0, count: 4 * w * h)
    try expected.withUnsafeMutableBufferPointer { (p) throws(MediaError) in
      try packed.resize(source, into: p.baseAddress!, stride: 4 * w)
    }
    for i in stride(from: 3, to: expected.count, by: 4) { expected[i] = 255 }
    // Twice: the planes kept between frames are overwritten, not added to.
    for _ in 0..<2 {
      var got = [UInt8](repeating: 7, count: 4 * w * h)
      try got.withUnsafeMutableBufferPointer { (p) throws(MediaError) in
        try planar.resizeToOpaqueBGRA(source, into: p.baseAddress!)
      }
      let differing = zip(got, expected).filter { $0 != $1 }.count
      #expect(differing == 0, "\(differing) of \(got.count) bytes differ")
    }
  }

  /// `source` resized to opaque BGRA by `resampler`.
  static func opaqueBGRA(_ source: Bitmap, _ resampler: Resampler) throws -> [UInt8] {
    var out = [UInt8](repeating: 7, count: 4 * resampler.width * resampler.height)
    try out.withUnsafeMutableBufferPointer { (p) throws(MediaError) in
      try resampler.resizeToOpaqueBGRA(source, into: p.baseAddress!)
    }
    return out
  }

  /// `frame` with rows `rows` drawn from another seed.
  static func changing(_ frame: Bitmap, rows: Range<Int>, seed: UInt64) -> Bitmap {
    let other = Self.frame(width: frame.width, height: frame.height, seed: seed)
    var bytes = frame.bytes
    let rowBytes = 4 * frame.width
    for y in rows {
      let row = y * rowBytes..<(y + 1) * rowBytes
      bytes.replaceSubrange(row, with: other.bytes[row])
    }
    return Bitmap(width: frame.width, height: frame.height, bytes: bytes)!
  }

  /// A frame that differs from the one before only in some rows is resized
  /// there only: the result is byte for byte that of resizing it alone in
  /// one band, whichever rows changed (the first, the last, one, all, none),
  /// shrinking by whole or fractional factors or enlarging, with bands of 64
  /// rows or more split in two halves resized at once; and a third frame
  /// after it still is (the kept planes are the second frame's); by
  /// transvid's own kernels and by swscale's.
  @Test(arguments: [
    (590, 1266, 180, 389), (390, 844, 120, 260), (301, 203, 150, 101), (64, 48, 128, 96), (300, 900, 300, 100),
  ])
  static func aFrameChangedInSomeRowsResizesAsAlone(sizes: (Int, Int, Int, Int)) throws {
    let (sw, sh, w, h) = sizes
    let base = frame(width: sw, height: sh, seed: 11)
    let bands = [
      0..<1, 0..<(sh / 5), (sh / 2)..<(sh / 2 + 1), (sh / 3)..<(sh / 2), (sh - sh / 7)..<sh, (sh - 1)..<sh, 0..<sh, 0..<0,
    ]
    // transvid's own kernels and swscale's (what cascades still take).
    for own in [true, false] {
      for (k, band) in bands.enumerated() {
        let changed = changing(base, rows: band, seed: UInt64(100 + k))
        let kept = try Resampler(from: sw, sh, to: w, h, format: AV_PIX_FMT_GBRP)
        if !own { kept.resizer = nil }
        let first = try opaqueBGRA(base, kept)
        let second = try opaqueBGRA(changed, kept)
        let third = try opaqueBGRA(base, kept)
        // Alone, and in one band (`kept` splits bands of 64 rows or more in two).
        let single = try Resampler(from: sw, sh, to: w, h, format: AV_PIX_FMT_GBRP)
        single.splitsBands = false
        if !own { single.resizer = nil }
        let alone = try opaqueBGRA(changed, single)
        let differing = zip(second, alone).filter { $0 != $1 }.count
        #expect(differing == 0, "rows \(band): \(differing) of \(alone.count) bytes differ from the frame resized alone")
        #expect(third == first, "rows \(band): the frame before, resized again after it, differs")
        if !band.isEmpty { #expect(second != first, "rows \(band): the change does not show") }
      }
    }
  }

  /// transvid's own kernels (`LanczosResizer`, SIMD and the scalar
  /// reference) give swscale's planar bytes exactly: synthetic frames
  /// shrunk by whole and fractional factors, enlarged, with one axis kept,
  /// flat UI (runs of equal rows), and photos and UI screenshots shrunk as
  /// the GIF writer shrinks frames.
  @Test func ownKernelsGiveSwscalesBytes() throws {
    let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("jobs/assets")
    var cases: [(Bitmap, Int, Int)] = [
      (Self.frame(width: 1179, height: 2556, seed: 3), 393, 852),
      (Self.frame(width: 1170, height: 2532, seed: 4), 360, 779),
      (Self.frame(width: 301, height: 203, seed: 5), 150, 101),
      (Self.frame(width: 64, height: 48, seed: 6), 128, 96),
      (Self.frame(width: 300, height: 900, seed: 7), 300, 100),
      (Self.frame(width: 900, height: 120, seed: 8), 97, 120),
      (Self.frame(width: 1000, height: 40, seed: 9), 41, 13),
      (Self.frame(width: 9, height: 7, seed: 10), 4, 3),
    ]
    // Flat UI: runs of equal rows, each row textured across.
    var flat = Bitmap(width: 1179, height: 2556)
    for y in 0..<2556 {
      let band = y / 37 % 2 == 0 ? y / 37 : y
      for x in 0..<1179 {
        flat[x, y] = Pixel(r: UInt8(truncatingIfNeeded: band * 29 + x / 9), g: UInt8(truncatingIfNeeded: band * 7), b: 200, a: 255)
      }
    }
    cases.append((flat, 393, 852))
    for name in ["photo.jpg", "cover.png", "settings.png"] {
      let image = try ImageDecoder.decode(path: assets.appendingPathComponent(name).path)
      cases.append((image, image.width / 3, image.height / 3))
      cases.append((image, image.width * 2 / 7, image.height * 2 / 7))
    }
    for (source, w, h) in cases {
      let swscale = try Resampler(from: source.width, source.height, to: w, h, format: AV_PIX_FMT_GBRP)
      swscale.resizer = nil
      let expected = try Self.opaqueBGRA(source, swscale)
      // The scalar reference (slow in a debug build) on frames up to 1.4 Mpx.
      let kernels: [KernelSet] = source.width * source.height <= 1_400_000 ? [.simd, .reference] : [.simd]
      for kernels in kernels {
        let own = try Resampler(from: source.width, source.height, to: w, h, format: AV_PIX_FMT_GBRP)
        try #require(own.resizer != nil, "\(source.width)×\(source.height) → \(w)×\(h) is left to swscale")
        own.resizer?.kernels = kernels
        let got = try Self.opaqueBGRA(source, own)
        let differing = zip(got, expected).filter { $0 != $1 }.count
        #expect(
          differing == 0, "\(source.width)×\(source.height) → \(w)×\(h), \(kernels): \(differing) bytes differ from swscale")
      }
    }
  }

  /// Sizes swscale cascades (a shrink of 28 times or more) or that are too
  /// small for the filter stay swscale's, and are still resized.
  @Test func cascadesAndTinyFramesAreSwscales() throws {
    let tiny = try Resampler(from: 3, 2, to: 2, 1, format: AV_PIX_FMT_GBRP)
    #expect(tiny.resizer == nil)
    let out = try Self.opaqueBGRA(Self.frame(width: 3, height: 2, seed: 1), tiny)
    #expect(out.count == 8 && out[3] == 255 && out[7] == 255)
    let far = try Resampler(from: 1000, 40, to: 11, 13, format: AV_PIX_FMT_GBRP)
    #expect(far.resizer == nil)
    #expect(try Self.opaqueBGRA(Self.frame(width: 1000, height: 40, seed: 2), far).count == 4 * 11 * 13)
  }

  /// A resize keeps every alpha level: columns of each alpha from 0 to 255
  /// (premultiplied colour half of it), flat down each column, resized to
  /// half the height and to a third more of it come out as they went in,
  /// where swscale's RGBA path gave each alpha from 128 to 254 one more (a
  /// half see-through 128 as 129); and a photo-like frame's colours stay at
  /// most their alpha.
  @Test(arguments: [8, 21])
  static func everyAlphaLevelKeepsItsLevel(height: Int) throws {
    var bytes = [UInt8](repeating: 0, count: 4 * 256 * 16)
    for y in 0..<16 {
      for x in 0..<256 {
        let i = 4 * (y * 256 + x)
        (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) = (UInt8(x / 2), UInt8(x / 4), 0, UInt8(x))
      }
    }
    let source = try #require(Bitmap(width: 256, height: 16, bytes: bytes))
    let out = try Resampler(resizing: 256, 16, to: 256, height).resized(source)
    var wrong: [String] = []
    for y in 0..<height {
      for x in 0..<256 where out[x, y] != source[x, 0] {
        if wrong.count < 5 { wrong.append("(\(x), \(y)): \(out[x, y]) for \(source[x, 0])") }
      }
    }
    #expect(wrong.isEmpty, "\(wrong)")

    let photo = frame(width: 301, height: 203, seed: 5)
    let small = try Resampler(resizing: 301, 203, to: 150, 101).resized(photo)
    let over = small.bytes.indices.filter { $0 % 4 != 3 && small.bytes[$0] > small.bytes[$0 | 3] }
    #expect(over.isEmpty, "\(over.count) colours over their alpha")
  }

  @Test static func aFrameOfAnotherSizeIsAnError() throws {
    let planar = try Resampler(from: 40, 30, to: 20, 15, format: AV_PIX_FMT_GBRP)
    var out = [UInt8](repeating: 0, count: 4 * 20 * 15)
    #expect(throws: MediaError("resize frame", "frame is 41×30, expected 40×30")) {
      try out.withUnsafeMutableBufferPointer { (p) throws(MediaError) in
        try planar.resizeToOpaqueBGRA(frame(width: 41, height: 30, seed: 1), into: p.baseAddress!)
      }
    }
  }
}
