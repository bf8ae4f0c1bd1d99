import Testing

@testable import Media

/// `GIFScreen.draw` against the rule it implements, pixel by pixel: an image
/// draws the changed pixels `isDrawn` picks on the screen the images before
/// left, its rectangle is their bounding box (1 × 1 at the origin when it
/// draws none), every other pixel of it is the transparent index, and it is
/// coded from there with each pixel's limit. The reference builds the
/// indices and the coder's view of the rectangle with scalar code and codes
/// them with a fresh coder; the screen it keeps is what those codes decode
/// to.
@Suite struct GIFScreenDrawTests {
  /// A sequence on one screen 37 pixels wide (four blocks of eight and a
  /// tail): the first image, changes in a band of rows with limits that
  /// keep some of them off, an image whose changes all stay within their
  /// limits (it draws nothing; its 1 × 1 rectangle lies in a row the first
  /// image drew and it does not change), changes in the tail columns only,
  /// and changes in rows the images before drew.
  @Test static func drawDrawsThePixelsTheRulePicks() {
    let width = 37, height = 9, count = width * height
    let colors: [UInt32] = (0..<16).map { (i: Int) -> UInt32 in
      let b = UInt32(i * 16), g = UInt32(255 - i * 16), r = UInt32(i * 7)
      return b | g << 8 | r << 16
    }
    let palette = GIFPalette(packed: colors)
    let transparent = UInt8(palette.transparentIndex)
    let codeSize = GIFLZWEncoder.minimumCodeSize(entries: colors.count + 1)
    var rng = GIFLZWStressTests.XorShift(2024)
    var screen = GIFScreen(width: width, height: height)
    var coder = GIFLZWEncoder()
    var model = [UInt32](repeating: 0, count: count)
    var indices = (0..<count).map { _ in UInt8(rng.next(colors.count)) }

    // Each image: the pixels that change, and the limit each change gets.
    let images: [(changes: [Int], limit: (Int) -> UInt8)] = [
      (Array(0..<count), { p in [0, 40][p % 2] }),
      (Array((2 * width)..<(7 * width)).filter { $0 % 3 != 0 }, { p in [0, 40, 255][p % 3] }),
      (Array((3 * width)..<(6 * width)).filter { $0 % 5 == 0 }, { _ in 255 }),
      ([7 * width + 33, 7 * width + 36, 8 * width + 34, 8 * width + 35], { _ in 0 }),
      (Array(0..<(4 * width)).filter { $0 % 4 == 1 }, { p in [0, 16][p % 2] }),
    ]
    var drewNothing = 0
    for (k, image) in images.enumerated() {
      for p in image.changes {
        let step = 1 + rng.next(colors.count - 1)
        indices[p] = UInt8((Int(indices[p]) + step) % colors.count)
      }
      var pixels = [UInt8](repeating: 255, count: 4 * count)
      for p in 0..<count {
        let c = colors[Int(indices[p])]
        pixels[4 * p] = UInt8(truncatingIfNeeded: c)
        pixels[4 * p + 1] = UInt8(truncatingIfNeeded: c >> 8)
        pixels[4 * p + 2] = UInt8(truncatingIfNeeded: c >> 16)
      }
      var plan = GIFImagePlan(
        pixels, changed: image.changes, indices: indices, colors: colors, bounds: nil, bound: 0, width: width,
        height: height)
      for p in image.changes { plan.limits[p] = image.limit(p) }

      // The reference: the drawn pixels and their bounding box.
      let first = k == 0
      let drawn = (0..<count).map { p in GIFScreen.isDrawn(model[p], plan.wanted[p], plan.limits[p], first: first) }
      let box = drawn.indices.filter { drawn[$0] }
      var (minX, minY, maxX, maxY) = (0, 0, 0, 0)
      if !box.isEmpty {
        (minX, maxX) = (box.map { $0 % width }.min()!, box.map { $0 % width }.max()!)
        (minY, maxY) = (box.first! / width, box.last! / width)
      } else {
        drewNothing += 1
      }
      let w = maxX - minX + 1, h = maxY - minY + 1
      var out: [UInt8] = [], shown: [UInt32] = [], wanted: [UInt32] = [], bounds: [UInt8] = []
      for y in minY...maxY {
        for x in minX...maxX {
          let p = y * width + x
          out.append(drawn[p] ? indices[p] : transparent)
          shown.append(model[p])
          wanted.append(plan.wanted[p])
          bounds.append(plan.limits[p])
        }
      }
      let tolerance = GIFLZWEncoder.Tolerance(
        colors: colors, transparentIndex: first ? nil : palette.transparentIndex, shown: shown, wanted: wanted,
        bounds: bounds, width: w)
      var reference = GIFLZWEncoder()
      let expectedData = reference.encode(&out, minimumCodeSize: codeSize, tolerance: tolerance)

      let (drawnImage, data) = screen.draw(plan, palette: palette, coder: &coder, codeSize: codeSize)
      #expect(
        [drawnImage.x, drawnImage.y, drawnImage.width, drawnImage.height] == [minX, minY, w, h],
        "image \(k): the rectangle of the drawn pixels")
      #expect(data == expectedData, "image \(k): the codes of the rule's indices")
      // The screen the codes leave, for the next image.
      for y in 0..<h {
        for x in 0..<w where out[y * w + x] != transparent {
          model[(minY + y) * width + minX + x] = colors[Int(out[y * w + x])]
        }
      }
    }
    #expect(drewNothing == 1)
  }
}
