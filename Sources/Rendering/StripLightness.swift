import Raster

/// Whether a strip of a picture is dark, for the system's overlays that
/// follow the screen under them (the status bar's glyphs over the top
/// strip, the home indicator over the bottom one): 1 (light ink) when the
/// strip's mean luma (BT.709 weights on the sRGB bytes) is below half,
/// else 0 (dark ink).
enum StripLightness {
  /// The lightness of the ink over `rows` of `image`; where `image` is
  /// see-through, what shows there is `image` over `behind`, whose row 0
  /// lies under `rows.lowerBound`, at least as tall and as wide.
  static func lightness(over image: Bitmap, rows: Range<Int>, behind: Bitmap? = nil) -> Double {
    let rows = rows.clamped(to: 0..<image.height)
    guard !rows.isEmpty else { return 0 }
    var total = 0
    let start = rows.lowerBound * image.stride, end = rows.upperBound * image.stride
    image.bytes.withUnsafeBufferPointer { p in
      guard let behind else {
        for i in stride(from: start, to: end, by: 4) {
          total += 54 * Int(p[i]) + 183 * Int(p[i + 1]) + 19 * Int(p[i + 2])
        }
        return
      }
      behind.bytes.withUnsafeBufferPointer { q in
        for i in stride(from: start, to: end, by: 4) {
          let clear = 255 - Int(p[i + 3])
          let j = i - start
          func shown(_ k: Int) -> Int { Swift.min(255, Int(p[i + k]) + (Int(q[j + k]) * clear + 127) / 255) }
          total += 54 * shown(0) + 183 * shown(1) + 19 * shown(2)
        }
      }
    }
    return total < 128 * 256 * rows.count * image.width ? 1 : 0
  }
}
