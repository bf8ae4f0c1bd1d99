/// The ICC profile a BMP embeds: a BITMAPV5HEADER whose colour space type
/// is `PROFILE_EMBEDDED` ('MBED') holds the profile's offset (from the
/// header's start) and size, and the profile's bytes lie there in the file.
///
/// Chromium honours it, as it honours a PNG's or a JPEG's (a Display P3 or
/// ProPhoto BMP shows converted to sRGB); libavcodec reads no colour space
/// from a BMP, so `ImageDecoder` converts the decoded pixels by it
/// (`ColorProfile`). A linked profile ('LNKD', a file name) and the other
/// colour space types are sRGB. A profile that does not lie within the file
/// is none.
///
/// Pure: bytes in, bytes out.
enum BMPEmbeddedProfile {
  /// The bytes of the profile `bmp` (a whole BMP file) embeds, or nil.
  static func profile(in bmp: [UInt8]) -> [UInt8]? {
    let header = 14
    // bV5Size, bV5CSType, bV5ProfileData and bV5ProfileSize, little-endian.
    guard bmp.count >= header + 124, le32(bmp, header) >= 124, le32(bmp, header + 56) == embedded else { return nil }
    let offset = header + le32(bmp, header + 112), size = le32(bmp, header + 116)
    guard size > 0, offset <= bmp.count, size <= bmp.count - offset else { return nil }
    return Array(bmp[offset..<offset + size])
  }

  /// `PROFILE_EMBEDDED`, 'MBED' as a little-endian number.
  private static let embedded = 0x4D42_4544

  private static func le32(_ d: [UInt8], _ i: Int) -> Int {
    Int(d[i]) | Int(d[i + 1]) << 8 | Int(d[i + 2]) << 16 | Int(d[i + 3]) << 24
  }
}
