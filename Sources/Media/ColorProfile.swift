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
/// A grey image (a grey PNG or JPEG) takes a grey profile: LittleCMS
/// converts its 256 levels to sRGB once, and each pixel (r = g = b, the
/// grey decoded) takes its level's colour from that table. It takes an RGB
/// profile too, as Chromium applies one (Skia's decoders take any profile
/// but CMYK on a grey image): its pixels, r = g = b, are converted as an
/// RGB image's.
///
/// A profile that maps every colour to itself (an embedded sRGB profile,
/// checked on a 17-level grid of the RGB cube; a grey one on every level)
/// leaves the pixels as they are, bit for bit. A grey profile on an RGB
/// image (a malformed file, which libpng and browsers ignore) and one
/// LittleCMS cannot read are ignored, and the pixels are taken as sRGB. A
/// CMYK JPEG's CMYK profile converts its CMYK samples
/// (`convertCMYKToSRGB`, called by `TurboJPEG`).
enum ColorProfile {
  /// Converts `pixels` straight RGBA pixels at `bytes` from the colour space
  /// `icc` describes to sRGB, alpha as it is, for an image that stores
  /// `components` colour channels (`ImageHeader.colorComponents`): an RGB
  /// profile converts an RGB image (3) or a grey one (1, its pixels decoded
  /// with r = g = b), a grey profile a grey one. Returns whether anything
  /// was converted.
  @discardableResult
  static func convertToSRGB(
    _ bytes: UnsafeMutablePointer<UInt8>, pixels: Int, icc: UnsafeRawBufferPointer, components: Int
  ) -> Bool {
    guard pixels > 0, icc.count >= 132, icc.count <= UInt32.max,
      let source = cmsOpenProfileFromMem(icc.baseAddress, UInt32(icc.count))
    else { return false }
    defer { cmsCloseProfile(source) }
    let space = cmsGetColorSpace(source)
    if space == cmsSigGrayData, components == 1 {
      guard let table = greyTable(source) else { return false }
      for i in 0..<pixels {
        let pixel = bytes + 4 * i
        let colour = 3 * Int(pixel[0])
        (pixel[0], pixel[1], pixel[2]) = (table[colour], table[colour + 1], table[colour + 2])
      }
      return true
    }
    guard space == cmsSigRgbData, components == 3 || components == 1, let transform = transform(source) else { return false }
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

  /// Whether `icc` reads as a CMYK profile.
  static func isCMYK(_ icc: UnsafeRawBufferPointer) -> Bool {
    guard icc.count >= 132, icc.count <= UInt32.max, let profile = cmsOpenProfileFromMem(icc.baseAddress, UInt32(icc.count))
    else { return false }
    defer { cmsCloseProfile(profile) }
    return cmsGetColorSpace(profile) == cmsSigCmykData
  }

  /// Converts `pixels` CMYK samples at `bytes` (four a pixel, Adobe's
  /// inverted CMYK as libjpeg gives a CMYK JPEG's) by the CMYK profile
  /// `icc` to opaque sRGB RGBA, in place: perceptual intent, the profile's
  /// A2B0 table, the one Chromium (skcms) reads. False when LittleCMS
  /// makes no transform of it.
  static func convertCMYKToSRGB(_ bytes: UnsafeMutablePointer<UInt8>, pixels: Int, icc: UnsafeRawBufferPointer) -> Bool {
    guard icc.count >= 132, icc.count <= UInt32.max, let source = cmsOpenProfileFromMem(icc.baseAddress, UInt32(icc.count)),
      let srgb = cmsCreate_sRGBProfile()
    else { return false }
    defer {
      cmsCloseProfile(source)
      cmsCloseProfile(srgb)
    }
    guard cmsGetColorSpace(source) == cmsSigCmykData,
      let transform = cmsCreateTransform(source, invertedCMYK8, srgb, rgba8, UInt32(INTENT_PERCEPTUAL), 0)
    else { return false }
    defer { cmsDeleteTransform(transform) }
    // Through a buffer a row of pixels long at a time: the formats differ.
    let step = 4096
    var row = [UInt8](repeating: 255, count: 4 * step)
    var done = 0
    while done < pixels {
      let count = min(pixels - done, step)
      row.withUnsafeMutableBufferPointer { out in
        cmsDoTransform(transform, bytes + 4 * done, out.baseAddress, UInt32(count))
        for i in 0..<count {
          (bytes + 4 * (done + i)).update(from: out.baseAddress! + 4 * i, count: 3)
          bytes[4 * (done + i) + 3] = 255
        }
      }
      done += count
    }
    return true
  }

  /// Whether `icc` reads as a profile (LittleCMS opens it): a PNG's that
  /// does not is passed over for its other colour chunks
  /// (`PNGColorChunks`), as Chromium passes it over.
  static func isReadable(_ icc: [UInt8]) -> Bool {
    guard icc.count >= 132, icc.count <= UInt32.max, let profile = cmsOpenProfileFromMem(icc, UInt32(icc.count)) else {
      return false
    }
    cmsCloseProfile(profile)
    return true
  }

  /// The ICC profile (version 4, as LittleCMS writes it) of `space`: its
  /// primaries and white point, adapted to D50 (Bradford, as ICC profiles
  /// and Skia's take them), and its curve on each channel; nil when
  /// LittleCMS builds none (primaries that span no space).
  static func icc(of space: PNGColorChunks.Space) -> [UInt8]? {
    var white = cmsCIExyY(x: space.white[0], y: space.white[1], Y: 1)
    var primaries = cmsCIExyYTRIPLE(
      Red: cmsCIExyY(x: space.red[0], y: space.red[1], Y: 1), Green: cmsCIExyY(x: space.green[0], y: space.green[1], Y: 1),
      Blue: cmsCIExyY(x: space.blue[0], y: space.blue[1], Y: 1))
    let curve: OpaquePointer?
    switch space.transfer {
    case .power(let exponent): curve = cmsBuildGamma(nil, exponent)
    case .parametric(var parameters): curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
    }
    guard let curve else { return nil }
    defer { cmsFreeToneCurve(curve) }
    var curves: [OpaquePointer?] = [curve, curve, curve]
    guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else { return nil }
    defer { cmsCloseProfile(profile) }
    var size: UInt32 = 0
    guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
    return bytes
  }

  /// The transform from the RGB space `source` to sRGB (8-bit RGBA, alpha
  /// copied), or nil when there is none to do.
  private static func transform(_ source: cmsHPROFILE) -> cmsHTRANSFORM? {
    guard let srgb = cmsCreate_sRGBProfile() else { return nil }
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

  /// The sRGB colour of each level 0…255 of the grey space `source`, three
  /// bytes a level, each rounded to nearest; nil when there is no
  /// transform, or it leaves every level as it is. Worked out in floating
  /// point, as browsers do: 256 colours cost nothing, and LittleCMS's
  /// 8-bit transform, optimised for whole images, is a level off in places
  /// among the darkest greys.
  private static func greyTable(_ source: cmsHPROFILE) -> [UInt8]? {
    guard let srgb = cmsCreate_sRGBProfile() else { return nil }
    defer { cmsCloseProfile(srgb) }
    guard let transform = cmsCreateTransform(source, greyFloat, srgb, rgbFloat, UInt32(INTENT_RELATIVE_COLORIMETRIC), 0)
    else { return nil }
    defer { cmsDeleteTransform(transform) }
    let levels = (0...255).map { Float($0) / 255 }
    var colours = [Float](repeating: 0, count: 3 * 256)
    levels.withUnsafeBytes { input in
      colours.withUnsafeMutableBytes { output in cmsDoTransform(transform, input.baseAddress, output.baseAddress, 256) }
    }
    let table = colours.map { UInt8(min(max(($0 * 255).rounded(), 0), 255)) }
    let identity = (0...255).flatMap { [UInt8($0), UInt8($0), UInt8($0)] }
    return table == identity ? nil : table
  }

  /// LittleCMS's TYPE_CMYK_8_REV: 4 channels of 1 byte, CMYK, each stored
  /// inverted (255 is no ink), as Adobe's CMYK JPEGs store them.
  private static let invertedCMYK8 = UInt32(PT_CMYK << 16 | 4 << 3 | 1 | 1 << 13)
  /// LittleCMS's TYPE_RGBA_8: 4 channels (one extra) of 1 byte, RGB.
  private static let rgba8 = UInt32(PT_RGB << 16 | 1 << 7 | 3 << 3 | 1)
  /// LittleCMS's TYPE_RGB_FLT: floating point, 3 channels of 4 bytes, RGB (0…1).
  private static let rgbFloat = UInt32(1 << 22 | PT_RGB << 16 | 3 << 3 | 4)
  /// LittleCMS's TYPE_GRAY_FLT: floating point, 1 channel of 4 bytes, grey (0…1).
  private static let greyFloat = UInt32(1 << 22 | PT_GRAY << 16 | 1 << 3 | 4)

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
