import Testing

@testable import Media

/// The importance map transvid hands libimagequant is the one libimagequant
/// would draw itself: the SIMD path equals the line-for-line port of its C,
/// and libimagequant's palettes and quantisation errors (a function of every
/// weight in the histogram) are the same with the map and without it.
@Suite struct ImportanceMapTests {
  /// Packed RGBA of `width × height`: `kind` 0 photo-like noise on
  /// gradients, opaque; 1 the same with a third of the pixels transparent
  /// (the GIF writer's images: unchanged pixels left out); 2 every alpha;
  /// 3 flat blocks with hard edges.
  static func image(width: Int, height: Int, kind: Int, seed: UInt64 = 7) -> [UInt8] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes = [UInt8](repeating: 0, count: 4 * width * height)
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let noise = Int(truncatingIfNeeded: state >> 59)
        let i = 4 * (y * width + x)
        if kind == 3 {
          let k = (x / 5 + y / 3) % 4
          (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) = ([0, 255, 30, 242][k], [122, 255, 30, 242][k], [255, 255, 30, 247][k], 255)
          continue
        }
        bytes[i] = UInt8((x * 255 / max(1, width - 1) + noise) & 0xFF)
        bytes[i + 1] = UInt8((y * 255 / max(1, height - 1) + 3 * noise) & 0xFF)
        bytes[i + 2] = UInt8(((x ^ y) * 5 + noise) & 0xFF)
        switch kind {
        case 1: bytes[i + 3] = (state >> 40) % 3 == 0 ? 0 : 255
        case 2: bytes[i + 3] = UInt8(truncatingIfNeeded: state >> 48)
        default: bytes[i + 3] = 255
        }
      }
    }
    return bytes
  }

  static func computed(_ rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
    var map = [UInt8](repeating: 0, count: width * height)
    var scratch = [UInt8](repeating: 0xEE, count: ImportanceMap.scratchCount(width: width, height: height))
    rgba.withUnsafeBufferPointer { rgba in
      map.withUnsafeMutableBufferPointer { map in
        scratch.withUnsafeMutableBytes { scratch in
          ImportanceMap.compute(
            rgba.baseAddress!, width: width, height: height, into: map.baseAddress!, scratch: scratch.baseAddress!)
        }
      }
    }
    return map
  }

  /// Sizes around the vector widths (8 floats, 16 bytes) and the blur's
  /// minimum of 7, on every kind of content.
  @Test(arguments: [(4, 4), (5, 9), (6, 6), (7, 7), (8, 5), (16, 12), (17, 31), (19, 7), (20, 20), (33, 8), (100, 37), (393, 45)])
  func theSIMDPathIsTheReference(size: (Int, Int)) {
    let (width, height) = size
    var values = Set<UInt8>()
    for kind in 0..<4 {
      let rgba = Self.image(width: width, height: height, kind: kind)
      let expected = ImportanceMap.reference(rgba, width: width, height: height)
      let got = Self.computed(rgba, width: width, height: height)
      let differing = zip(got, expected).filter { $0 != $1 }.count
      #expect(differing == 0, "\(width)×\(height) kind \(kind): \(differing) bytes differ")
      values.formUnion(expected)
    }
    // Not a constant: noisy areas weigh less than flat ones.
    #expect(values.count > 1, "\(values)")
  }

  /// libimagequant itself as the oracle: the same clip's palette with the
  /// map drawn here and with libimagequant drawing its own, for photo-like,
  /// flat and many-coloured content, cropped or not, at all colours and at
  /// a target quality.
  @Test(arguments: PaletteQuantizerTests.Content.allCases, [nil, 70])
  func libimagequantWeighsThePixelsAsWithItsOwnMap(content: PaletteQuantizerTests.Content, quality: Int?) throws {
    let (width, height) = (96, 160)
    let bands: [[Range<Int>]] = [[0..<20], [150..<160], [40..<50, 100..<104], [77..<78], [0..<160], [60..<90]]
    var clip = [PaletteQuantizerTests.frame(width: width, height: height, seed: 1, content)]
    for (k, rows) in bands.enumerated() {
      let other = PaletteQuantizerTests.frame(width: width, height: height, seed: UInt64(k + 2), content)
      clip.append(PaletteQuantizerTests.changing(clip[clip.count - 1], rows: rows, from: other, width: width))
    }
    func palette(drawsMaps: Bool) throws -> (GIFPalette, Double?) {
      let quantizer = try PaletteQuantizer(maxColors: 256, width: width, height: height, targetQuality: quality)
      quantizer.drawsImportanceMaps = drawsMaps
      try quantizer.add(clip[0]) { _ in true }
      for k in 1..<clip.count {
        let (now, before) = (clip[k], clip[k - 1])
        try quantizer.add(now) { p in (0..<3).contains { now[4 * p + $0] != before[4 * p + $0] } }
      }
      return (try quantizer.palette(), quantizer.quantizationError)
    }
    let (own, ownError) = try palette(drawsMaps: false)
    let (drawn, drawnError) = try palette(drawsMaps: true)
    let same = drawn == own
    #expect(same, "the palette differs (\(drawn.colors.count) colours, libimagequant's own map \(own.colors.count))")
    #expect(drawnError != nil)
    #expect(drawnError == ownError)
  }
}
