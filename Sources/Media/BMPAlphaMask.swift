/// The alpha of a 16-bit BMP whose header gives an alpha mask: a
/// BITMAPV4HEADER or V5 (or the 56-byte V3) with BI_BITFIELDS, as GIMP
/// writes A1R5G5B5 and A4R4G4B4.
///
/// libavcodec decodes such a file's colour by its red, green and blue masks
/// (5-5-5, 5-6-5, 4-4-4) and drops the alpha bits, so a 1-bit cut-out drew
/// opaque where Chromium and Firefox draw it transparent. Each pixel's
/// alpha bits come to the nearest 8-bit level, as its colour's do
/// (`PackedColorSamples`). A file whose alpha is 0 in every pixel is
/// opaque, as libavcodec draws a 32-bit one: such a mask is a writer's
/// default, not a picture of nothing.
///
/// Pure: the file's bytes in, one alpha level a pixel (rows top-down) out.
enum BMPAlphaMask {
  /// The straight alpha of each pixel of `bmp`, a whole BMP file of
  /// `width × height` as its header declares, rows from the top; nil when it
  /// has no alpha mask, is not 16-bit, its pixels do not fit in the file, or
  /// every alpha is 0.
  static func levels(in bmp: [UInt8], width: Int, height: Int) -> [UInt8]? {
    let header = 14
    guard bmp.count >= header + 56, width > 0, height > 0 else { return nil }
    let size = le32(bmp, header), bits = le16(bmp, header + 14), compression = le32(bmp, header + 16)
    let mask = le32(bmp, header + 52)
    guard size >= 56, bits == 16, compression == 3, mask > 0, mask <= 0xFFFF else { return nil }
    let shift = mask.trailingZeroBitCount, largest = mask >> shift
    // A mask of contiguous bits.
    guard largest & (largest + 1) == 0 else { return nil }
    let offset = le32(bmp, 10), stride = (width * 2 + 3) / 4 * 4
    guard offset >= header + size, offset <= bmp.count, (bmp.count - offset) / stride >= height else { return nil }
    // A negative height stores the rows from the top.
    let topDown = Int32(truncatingIfNeeded: le32(bmp, header + 8)) < 0
    var levels = [UInt8](repeating: 0, count: width * height)
    var any = false
    for y in 0..<height {
      let row = offset + (topDown ? y : height - 1 - y) * stride
      for x in 0..<width {
        let v = (le16(bmp, row + 2 * x) & mask) >> shift
        levels[y * width + x] = UInt8((v * 255 + largest / 2) / largest)
        any = any || v != 0
      }
    }
    return any ? levels : nil
  }

  private static func le16(_ d: [UInt8], _ i: Int) -> Int { Int(d[i]) | Int(d[i + 1]) << 8 }
  private static func le32(_ d: [UInt8], _ i: Int) -> Int { le16(d, i) | le16(d, i + 2) << 16 }
}
