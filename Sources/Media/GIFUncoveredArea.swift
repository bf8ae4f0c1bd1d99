import Raster

/// What a GIF shows where its first image does not cover its logical
/// screen (grown to hold that image, `GIFLogicalScreen`): nothing. The GIF89a specification fills that part with the
/// screen's background colour, and libavcodec does (when the file has a
/// global colour table and no transparent index before the image), but
/// browsers (Chromium's and Firefox's decoders) leave it transparent, so a
/// GIF whose first image is a 10 × 10 square inside a 20 × 20 screen shows
/// the square alone over what is behind it.
enum GIFUncoveredArea {
  /// A rectangle of pixels on the logical screen (its first image's, as its descriptor gives it).
  struct Rectangle: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    /// Whether it is the whole `width × height` screen.
    func covers(width screenWidth: Int, height screenHeight: Int) -> Bool {
      x == 0 && y == 0 && width == screenWidth && height == screenHeight
    }
  }

  /// Makes every pixel of `bitmap` (premultiplied, the logical screen)
  /// outside `covered` transparent.
  static func clear(_ bitmap: inout Bitmap, outside covered: Rectangle) {
    let w = bitmap.width, h = bitmap.height
    guard !covered.covers(width: w, height: h) else { return }
    bitmap.bytes.withUnsafeMutableBytes { raw in
      let pixels = raw.bindMemory(to: UInt32.self)
      for y in 0..<h {
        let row = y * w
        guard y >= covered.y, y < covered.y + covered.height, covered.width > 0 else {
          for x in 0..<w { pixels[row + x] = 0 }
          continue
        }
        for x in 0..<covered.x { pixels[row + x] = 0 }
        for x in (covered.x + covered.width)..<w { pixels[row + x] = 0 }
      }
    }
  }
}
