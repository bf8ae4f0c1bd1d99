import CLCMS

/// The sRGB profile an output embeds where its format has no sRGB tag of
/// its own: an animated WebP's ICCP chunk (PNG and APNG say sRGB in their
/// sRGB, cHRM and gAMA chunks; the videos in their BT.709 tags).
///
/// A browser that colour-manages only tagged images (Firefox, by default)
/// shows an untagged image's numbers on the display as they are, so on a
/// Display P3 screen an untagged WebP shows more saturated than the poster
/// PNG beside it; with this profile it converts the WebP as it does the
/// PNG. Chromium takes an animated WebP as sRGB whatever it embeds.
///
/// It is the sRGB profile LittleCMS builds (version 4, 588 bytes), with
/// the creation date LittleCMS stamps on it (the time it is built) fixed to
/// the date IEC 61966-2-1 was published, so a file is the same on every
/// run; the profile ID stays unset (zero), as LittleCMS leaves it.
extension ColorProfile {
  /// The profile's bytes; empty if LittleCMS builds none.
  static let sRGB: [UInt8] = {
    guard let profile = cmsCreate_sRGBProfile() else { return [] }
    defer { cmsCloseProfile(profile) }
    var size: UInt32 = 0
    guard cmsSaveProfileToMem(profile, nil, &size) != 0, size >= 128 else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return [] }
    // The header's dateTimeNumber (ICC.1 7.2.8): six big-endian UInt16,
    // year, month, day, hours, minutes, seconds (UTC), at byte 24.
    for (k, value) in [1999, 10, 18, 0, 0, 0].enumerated() {
      bytes[24 + 2 * k] = UInt8(value >> 8)
      bytes[25 + 2 * k] = UInt8(value & 0xFF)
    }
    return bytes
  }()
}
