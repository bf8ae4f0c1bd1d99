import Testing

@testable import Media

/// The importance map transvid hands libimagequant is the one libimagequant
/// would draw itself: the SIMD path equals the line-for-line port of its C,
/// and libimagequant's palettes and quantisation errors (a function of every
/// weight in the histogram) are the same with the map and without it.
@Suite struct ImportanceMapTests {
  /// Packed RGBA of `width × height`: `kind` 0 `ResamplerTests.frame`'s
  /// noise, gradients and flat blocks, opaque; 1 the same with a third of
  /// the pixels transparent (the GIF writer's images: unchanged pixels left
  /// out); 2 as it is, with bands of every alpha; 3 flat UI blocks.
  static func image(width: Int, height: Int, kind: Int) -> [UInt8] {
    var bytes = ResamplerTests.frame(width: width, height: height, seed: UInt64(7 + kind)).bytes
    for y in 0..<height {
      for x in 0..<width {
        let i = 4 * (y * width + x)
        switch kind {
        case 0: bytes[i + 3] = 255
        case 1: bytes[i + 3] = (x * 7 + y * 13) % 3 == 0 ? 0 : 255
        case 3:
          let k = (x / 5 + y / 3) % 4
          (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) = ([0, 255, 30, 242][k], [122, 255, 30, 242][k], [255, 255, 30, 247][k], 255)
        default: break
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
