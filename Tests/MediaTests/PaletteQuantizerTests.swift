import Testing

@testable import Media

/// libimagequant is given each image cropped to the rows that count, with
/// what the rows left out add to the histogram added as colours: the
/// palette must be the one of the whole images, byte for byte.
@Suite struct PaletteQuantizerTests {
  /// What a test frame shows.
  enum Content: CaseIterable {
    /// A gradient with noise: every pixel nearly its own colour.
    case photo
    /// Flat blocks of six UI colours with hard edges.
    case flat
    /// 4 × 4 blocks of 300 colours, none of them common: fewer than 256
    /// colours reach a middling quality.
    case blocks
  }

  /// A packed BGRA frame of `content`; `seed` varies it.
  static func frame(width: Int, height: Int, seed: UInt64, _ content: Content) -> [UInt8] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes = [UInt8](repeating: 255, count: 4 * width * height)
    let ui: [(UInt8, UInt8, UInt8)] = [
      (242, 242, 247), (255, 255, 255), (0, 122, 255), (52, 199, 89), (28, 28, 30), (255, 59, 48),
    ]
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let i = 4 * (y * width + x)
        switch content {
        case .photo:
          let noise = Int(truncatingIfNeeded: state >> 58)
          bytes[i] = UInt8((x * 255 / width + noise + Int(seed)) & 0xFF)
          bytes[i + 1] = UInt8((y * 255 / height + noise) & 0xFF)
          bytes[i + 2] = UInt8(((x + y) * 3 + Int(seed) * 29) & 0xFF)
        case .flat:
          (bytes[i], bytes[i + 1], bytes[i + 2]) = ui[(x / 23 + y / 17 + Int(seed % 5)) % 6]
        case .blocks:
          let k = ((x / 4) * 7919 + (y / 4) * 104_729 + Int(seed) * 31) % 300
          (bytes[i], bytes[i + 1], bytes[i + 2]) = (UInt8(k * 37 % 256), UInt8(k * 91 % 256), UInt8(k * 13 % 256))
        }
      }
    }
    return bytes
  }

  /// `base` with the rows of `bands` taken from `other`.
  static func changing(_ base: [UInt8], rows bands: [Range<Int>], from other: [UInt8], width: Int) -> [UInt8] {
    var bytes = base
    for band in bands {
      let range = 4 * width * band.lowerBound..<4 * width * band.upperBound
      bytes.replaceSubrange(range, with: other[range])
    }
    return bytes
  }

  /// The palette of a clip: its first frame whole, then each frame's pixels
  /// that changed, with a rest after the second; and the rows left out.
  static func palette(
    of clip: [[UInt8]], width: Int, height: Int, quality: Int? = nil, crops: Bool
  ) throws -> (GIFPalette, Int) {
    let quantizer = try PaletteQuantizer(maxColors: 256, width: width, height: height, targetQuality: quality)
    quantizer.cropsRows = crops
    try quantizer.add(clip[0]) { _ in true }
    for k in 1..<clip.count {
      let (now, before) = (clip[k], clip[k - 1])
      try quantizer.add(now) { p in
        (0..<3).contains { now[4 * p + $0] != before[4 * p + $0] }
      }
      if k == 2 { try quantizer.add(now, times: 5) }
    }
    return (try quantizer.palette(), quantizer.rowsLeftOut)
  }

  /// Changes confined to bands of rows (at the top, at the bottom, two apart,
  /// one row, the whole frame), for the most colours and for the fewest
  /// that reach a quality: that weighs the error against the whole
  /// histogram's weight, the transparent colour's included, and the palettes
  /// of `blocks` differ (by a colour) if the rows left out are not added.
  /// `add(_:changedFrom:)`, eight pixels at a time, makes the palette
  /// that `add(_:counts:)` with `colorDiffers` makes: the same pixels, the
  /// same flat-colour tally (every fourth counted pixel), the same error.
  /// Frames 61 pixels wide (blocks of eight end mid-row), changed in
  /// bands, in single pixels (blocks where some pixels changed) and in
  /// alpha only (which does not count).
  @Test(arguments: Content.allCases) func changedFromMatchesItsTest(_ content: Content) throws {
    let (width, height) = (61, 48)
    var clip = [Self.frame(width: width, height: height, seed: 1, content)]
    let other = Self.frame(width: width, height: height, seed: 2, content)
    clip.append(Self.changing(clip[0], rows: [3..<9, 30..<31], from: other, width: width))
    var dots = clip[1]
    for p in stride(from: 5, to: width * height, by: 13) { dots[4 * p] ^= 0x21 }
    clip.append(dots)
    var alpha = dots
    for p in 0..<(width * height) where p % 3 == 0 { alpha[4 * p + 3] = 7 }
    clip.append(alpha)
    clip.append(Self.changing(alpha, rows: [0..<height], from: other, width: width))
    var palettes: [(GIFPalette, Double?, [UInt32: Int], Int)] = []
    for fast in [true, false] {
      let quantizer = try PaletteQuantizer(maxColors: 256, width: width, height: height)
      try quantizer.add(clip[0]) { _ in true }
      for k in 1..<clip.count {
        if fast {
          try quantizer.add(clip[k], changedFrom: clip[k - 1])
        } else {
          let (now, before) = (clip[k], clip[k - 1])
          try now.withUnsafeBytes { a in
            try before.withUnsafeBytes { b in try quantizer.add(now) { colorDiffers(a, b, $0) } }
          }
        }
      }
      palettes.append((try quantizer.palette(), quantizer.quantizationError, quantizer.tally, quantizer.tallied))
    }
    #expect(palettes[0].0 == palettes[1].0)
    #expect(palettes[0].1 == palettes[1].1)
    #expect(palettes[0].2 == palettes[1].2 && palettes[0].3 == palettes[1].3, "flat-colour tallies differ")
  }

  @Test(arguments: Content.allCases, [nil, 30, 70])
  static func croppingToTheRowsThatCountKeepsThePalette(content: Content, quality: Int?) throws {
    let (width, height) = (96, 160)
    let bands: [[Range<Int>]] = [[0..<20], [150..<160], [40..<50, 100..<104], [77..<78], [0..<160], [60..<90]]
    var clip = [frame(width: width, height: height, seed: 1, content)]
    for (k, rows) in bands.enumerated() {
      let other = frame(width: width, height: height, seed: UInt64(k + 2), content)
      clip.append(changing(clip[clip.count - 1], rows: rows, from: other, width: width))
    }
    let (whole, none) = try palette(of: clip, width: width, height: height, quality: quality, crops: false)
    let (cropped, leftOut) = try palette(of: clip, width: width, height: height, quality: quality, crops: true)
    #expect(none == 0)
    #expect(leftOut > 0, "no image was cropped")
    let same = cropped == whole
    #expect(same, "cropping changed the palette (\(cropped.colors.count) colours, whole images \(whole.colors.count))")
  }

  /// A first frame of more colours than libimagequant keeps exactly makes it
  /// posterize the histogram, which then takes no colours: images go in
  /// whole, and the palette is still the one of the whole images.
  @Test static func aPosterizedHistogramTakesImagesWhole() throws {
    let (width, height) = (1320, 1320)
    // Every pixel a colour of its own: p times an odd number, modulo 2^24.
    let first = [UInt32](unsafeUninitializedCapacity: width * height) { out, n in
      for p in 0..<(width * height) { out[p] = UInt32(truncatingIfNeeded: p &* 2_654_435_761) | 0xFF00_0000 }
      n = width * height
    }.withUnsafeBytes { [UInt8]($0) }
    // Then rows 0..<40 change, then rows 600..<640.
    var second = first, third = first
    for i in 0..<(4 * width * 40) where i % 4 != 3 { second[i] ^= 0x55 }
    third.replaceSubrange(0..<(4 * width * 40), with: second[0..<(4 * width * 40)])
    for i in (4 * width * 600)..<(4 * width * 640) where i % 4 != 3 { third[i] ^= 0x33 }
    func palette(crops: Bool) throws -> (GIFPalette, Int) {
      let quantizer = try PaletteQuantizer(maxColors: 64, width: width, height: height)
      quantizer.cropsRows = crops
      try quantizer.add(first) { _ in true }
      try quantizer.add(second) { $0 < 40 * width }
      try quantizer.add(third) { $0 >= 600 * width && $0 < 640 * width }
      return (try quantizer.palette(), quantizer.rowsLeftOut)
    }
    let (whole, _) = try palette(crops: false)
    let (cropped, leftOut) = try palette(crops: true)
    #expect(leftOut == 0, "an image was cropped for a posterized histogram")
    let same = cropped == whole
    #expect(same, "the palette differs from the whole images'")
  }
}
