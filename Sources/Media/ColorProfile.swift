import CLCMS

/// An image's embedded ICC profile, and its pixels brought to sRGB.
///
/// transvid composites in sRGB and tags its videos BT.709 (sRGB's
/// primaries), as a browser shows untagged pixels. An image that embeds a
/// profile says its numbers mean other colours: iPhone screenshots and
/// photos are Display P3, whose (234, 51, 35) is sRGB's pure red. Taken as
/// sRGB they would show duller and shifted; a browser, Photos and the
/// device itself convert them. So does this, with LittleCMS (a matrix-shaper
/// or LUT profile to the sRGB profile LittleCMS builds, relative
/// colorimetric, no black point compensation: what browsers do for such
/// profiles; colours outside sRGB clip to its gamut, as an sRGB video must).
///
/// A profile that maps every colour to itself (an embedded sRGB profile,
/// checked on a 17-level grid of the RGB cube) leaves the pixels as they
/// are, bit for bit; a profile that is not RGB (grey, CMYK) or that
/// LittleCMS cannot read is ignored, and the pixels are taken as sRGB, as
/// before.
enum ColorProfile {
  /// Converts `pixels` straight RGBA pixels at `bytes` from the colour space
  /// `icc` describes to sRGB, alpha as it is. Returns whether anything was
  /// converted.
  @discardableResult
  static func convertToSRGB(_ bytes: UnsafeMutablePointer<UInt8>, pixels: Int, icc: UnsafeRawBufferPointer) -> Bool {
    guard pixels > 0, let transform = transform(icc) else { return false }
    defer { cmsDeleteTransform(transform) }
    // In place, in pieces (LittleCMS takes a UInt32 count).
    var done = 0
    while done < pixels {
      let count = min(pixels - done, 1 << 24)
      cmsDoTransform(transform, bytes + 4 * done, bytes + 4 * done, UInt32(count))
      done += count
    }
    return true
  }

  /// The transform from `icc`'s RGB space to sRGB (8-bit RGBA, alpha
  /// copied), or nil when there is none to do.
  private static func transform(_ icc: UnsafeRawBufferPointer) -> cmsHTRANSFORM? {
    guard icc.count >= 132, icc.count <= UInt32.max,
      let source = cmsOpenProfileFromMem(icc.baseAddress, UInt32(icc.count))
    else { return nil }
    defer { cmsCloseProfile(source) }
    guard cmsGetColorSpace(source) == cmsSigRgbData, let srgb = cmsCreate_sRGBProfile() else { return nil }
    defer { cmsCloseProfile(srgb) }
    let format = rgba8
    guard
      let transform = cmsCreateTransform(
        source, format, srgb, format, UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_COPY_ALPHA))
    else { return nil }
    if isIdentity(transform) {
      cmsDeleteTransform(transform)
      return nil
    }
    return transform
  }

  /// LittleCMS's TYPE_RGBA_8: 4 channels (one extra) of 1 byte, RGB.
  private static let rgba8 = UInt32(PT_RGB << 16 | 1 << 7 | 3 << 3 | 1)

  /// Whether `transform` leaves every colour of a 17-level RGB grid as it is.
  private static func isIdentity(_ transform: cmsHTRANSFORM) -> Bool {
    let levels = (0...16).map { UInt8(min(255, $0 * 16)) }
    var grid: [UInt8] = []
    grid.reserveCapacity(17 * 17 * 17 * 4)
    for r in levels { for g in levels { for b in levels { grid += [r, g, b, 255] } } }
    var out = grid
    grid.withUnsafeBytes { input in
      out.withUnsafeMutableBytes { output in
        cmsDoTransform(transform, input.baseAddress, output.baseAddress, UInt32(17 * 17 * 17))
      }
    }
    return out == grid
  }
}
