// 16-bit samples come to 8 bits as libpng scales them: the nearest 8-bit
// level, v · 257 back to v, every channel and alpha alike. The expected
// values are worked out here in floating point from the 16-bit input.

import CFFmpeg
import Raster
import Testing

@testable import Media

@Suite struct SixteenBitSamplesTests {
  /// The nearest 8-bit level to the 16-bit sample `v`.
  static func nearest(_ v: UInt16) -> Int { Int((Double(v) * 255 / 65535).rounded()) }

  /// Samples over the whole range: every v · 257 and the values just above
  /// and below each rounding boundary, then pseudo-random ones.
  static func samples(count: Int) -> [UInt16] {
    var values: [UInt16] = (0...255).map { UInt16($0 * 257) }
    for level in 0..<255 {
      let boundary = (Double(level) + 0.5) * 65535 / 255
      values += [UInt16(boundary.rounded(.down)), UInt16(boundary.rounded(.up))]
    }
    var generator = SplitMix64(seed: 16)
    while values.count < count { values.append(UInt16.random(in: 0...65535, using: &generator)) }
    return Array(values.prefix(count))
  }

  /// The pixel straight samples `r, g, b, a` (16-bit) draw: each scaled
  /// to its nearest level, then premultiplied (rounded to nearest).
  static func expected(_ r: UInt16, _ g: UInt16, _ b: UInt16, _ a: UInt16) -> Pixel {
    let alpha = nearest(a)
    func premultiplied(_ c: UInt16) -> UInt8 { UInt8((Double(nearest(c) * alpha) / 255).rounded()) }
    return Pixel(r: premultiplied(r), g: premultiplied(g), b: premultiplied(b), a: UInt8(alpha))
  }

  /// A 16-bit PNG of `colorType` (0 grey, 2 RGB, 4 grey + alpha, 6 RGBA)
  /// whose rows hold `samples` (big-endian, as PNG stores them).
  static func png(colorType: UInt8, width: Int, height: Int, samples: [UInt16]) -> [UInt8] {
    let channels = [0: 1, 2: 3, 4: 2, 6: 4][Int(colorType)]!
    var raw: [UInt8] = []
    for y in 0..<height {
      raw.append(0)
      for v in samples[(y * width * channels)..<((y + 1) * width * channels)] { raw += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    }
    func be(_ v: Int) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    return signature + PNGAncillaryChunksTests.chunk("IHDR", be(width) + be(height) + [16, colorType, 0, 0, 0])
      + PNGAncillaryChunksTests.chunk("IDAT", PNGAncillaryChunksTests.deflated(raw)) + PNGAncillaryChunksTests.chunk("IEND", [])
  }

  /// Every 16-bit PNG colour type decodes to the nearest 8-bit levels: a
  /// 16-bit grey of 128 · 257 draws (128, 128, 128), not (129, 129, 129),
  /// and a grey RGB stays grey.
  @Test(arguments: [UInt8(0), 2, 4, 6])
  func pngDecodesToTheNearestLevels(colorType: UInt8) throws {
    let channels = [0: 1, 2: 3, 4: 2, 6: 4][Int(colorType)]!
    let width = 64, height = 32
    let values = Self.samples(count: width * height * channels)
    let decoded = try ImageDecoder.decode(
      data: Self.png(colorType: colorType, width: width, height: height, samples: values), name: "sixteen.png")
    #expect(decoded.width == width && decoded.height == height)
    var mismatches: [String] = []
    for i in 0..<(width * height) {
      let s = values[(i * channels)..<((i + 1) * channels)].map { $0 }
      let want: Pixel
      switch channels {
      case 1: want = Self.expected(s[0], s[0], s[0], 65535)
      case 2: want = Self.expected(s[0], s[0], s[0], s[1])
      case 3: want = Self.expected(s[0], s[1], s[2], 65535)
      default: want = Self.expected(s[0], s[1], s[2], s[3])
      }
      if decoded[i % width, i / width] != want { mismatches.append("\(s): \(decoded[i % width, i / width]) not \(want)") }
    }
    #expect(mismatches.isEmpty, "colour type \(colorType): \(mismatches.count) pixels, first \(mismatches.prefix(4))")

    let opaqueGrey: [UInt16] = [128 * 257, 128 * 257, 128 * 257, 65535]
    let grey = Self.png(
      colorType: colorType, width: 1, height: 1,
      samples: channels == 2 ? [128 * 257, 65535] : Array(opaqueGrey.prefix(channels)))
    let pixel = try ImageDecoder.decode(data: grey, name: "grey.png")[0, 0]
    #expect(pixel.r == 128 && pixel.g == 128 && pixel.b == 128, "colour type \(colorType): \(pixel)")
  }

  /// Both byte orders of every 16-bit layout, as frames straight from a
  /// decoder: the same straight RGBA from the same samples.
  @Test func everyLayoutInEitherByteOrder() throws {
    let formats: [(AVPixelFormat, AVPixelFormat, Int)] = [
      (AV_PIX_FMT_GRAY16BE, AV_PIX_FMT_GRAY16LE, 1), (AV_PIX_FMT_YA16BE, AV_PIX_FMT_YA16LE, 2),
      (AV_PIX_FMT_RGB48BE, AV_PIX_FMT_RGB48LE, 3), (AV_PIX_FMT_RGBA64BE, AV_PIX_FMT_RGBA64LE, 4),
    ]
    let width = 37, height = 5
    for (big, little, channels) in formats {
      let values = Self.samples(count: width * height * channels)
      for (format, bigEndian) in [(big, true), (little, false)] {
        let frame = try Frame(width: width, height: height, format: format)
        let stride = Int(frame.pointer.pointee.linesize.0)
        let rows = try #require(frame.pointer.pointee.data.0)
        for y in 0..<height {
          for k in 0..<(width * channels) {
            let v = values[y * width * channels + k]
            let (first, second) = bigEndian ? (UInt8(v >> 8), UInt8(v & 0xFF)) : (UInt8(v & 0xFF), UInt8(v >> 8))
            rows[y * stride + 2 * k] = first
            rows[y * stride + 2 * k + 1] = second
          }
        }
        let rgba = try Scaler().rgba(from: frame, defaultMatrix: SWS_CS_ITU601)
        #expect(rgba.width == width && rgba.height == height)
        var mismatches = 0
        for i in 0..<(width * height) {
          let s = values[(i * channels)..<((i + 1) * channels)].map { Self.nearest($0) }
          let want: [Int] =
            switch channels {
            case 1: [s[0], s[0], s[0], 255]
            case 2: [s[0], s[0], s[0], s[1]]
            case 3: [s[0], s[1], s[2], 255]
            default: s
            }
          if Array(rgba.bytes[(i * 4)..<(i * 4 + 4)]).map(Int.init) != want { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(String(cString: av_get_pix_fmt_name(format))): \(mismatches) pixels")
      }
    }
  }
}
