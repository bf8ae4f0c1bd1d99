/// The picture a GIF draws: its logical screen grown to hold its first
/// image, as Chromium draws it. A GIF whose first image is larger than the
/// screen it declares, or lies partly outside it (a 0 × 0 screen, a
/// 10 × 10 screen around a 20 × 20 image), shows that whole image in a
/// browser: the picture is `max(screen, x + width) × max(screen, y + height)`
/// and the part the image does not cover is transparent
/// (`GIFUncoveredArea`). libavcodec cuts the image to the declared screen,
/// so the decoder is given the grown screen in the file's header.
enum GIFLogicalScreen {
  /// The size of the picture whose declared screen is `width × height` and
  /// whose first image is `first`.
  static func grown(width: Int, height: Int, toHold first: GIFUncoveredArea.Rectangle) -> (width: Int, height: Int) {
    (max(width, first.x + first.width), max(height, first.y + first.height))
  }

  /// `data`, a GIF, declaring a `width × height` logical screen (each side
  /// at most 65 535, its 16-bit fields; the decoder's limits are far lower).
  static func declaring(width: Int, height: Int, in data: [UInt8]) -> [UInt8] {
    let declared = (Int(data[6]) | Int(data[7]) << 8, Int(data[8]) | Int(data[9]) << 8)
    guard declared != (width, height), width <= 0xFFFF, height <= 0xFFFF else { return data }
    var data = data
    data[6] = UInt8(width & 0xFF)
    data[7] = UInt8(width >> 8 & 0xFF)
    data[8] = UInt8(height & 0xFF)
    data[9] = UInt8(height >> 8 & 0xFF)
    return data
  }
}
