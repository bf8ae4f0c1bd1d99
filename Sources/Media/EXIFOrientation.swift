/// The orientation an EXIF block records: how the stored picture is turned
/// from upright (1…8, as `ImageDecoder.oriented` applies it).
///
/// A PNG's EXIF (its eXIf chunk) is a bare TIFF structure: a byte order
/// ("II" little-endian, "MM" big-endian), 42, and the offset of the first
/// image file directory (IFD0): a count, then 12-byte entries of tag,
/// type, count and value. Orientation is tag 0x0112, one SHORT, whose
/// value sits in the entry itself. The block comes from the file, so every
/// offset is checked against its size, and a malformed block has no
/// orientation. (A JPEG's EXIF is read by libexif, in `TurboJPEG`.)
enum EXIFOrientation {
  /// The Orientation of `tiff`'s IFD0, 1…8; nil when the block is not
  /// TIFF, IFD0 has no such entry, or the entry is not a SHORT of 1…8.
  static func orientation(tiff: ArraySlice<UInt8>) -> Int? {
    let count = tiff.count
    func byte(_ i: Int) -> Int { Int(tiff[tiff.startIndex + i]) }
    guard count >= 8 else { return nil }
    let little: Bool
    switch (byte(0), byte(1)) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    func u16(_ i: Int) -> Int { little ? byte(i) | byte(i + 1) << 8 : byte(i) << 8 | byte(i + 1) }
    func u32(_ i: Int) -> Int { little ? u16(i) | u16(i + 2) << 16 : u16(i) << 16 | u16(i + 2) }
    guard u16(2) == 42 else { return nil }
    let directory = u32(4)
    guard directory >= 8, directory <= count - 2 else { return nil }
    for k in 0..<u16(directory) {
      let entry = directory + 2 + 12 * k
      guard entry <= count - 12 else { return nil }
      guard u16(entry) == 0x0112 else { continue }
      // Type 3 is SHORT; the first one is the entry's first two value bytes.
      guard u16(entry + 2) == 3, u32(entry + 4) >= 1 else { return nil }
      let value = u16(entry + 8)
      return (1...8).contains(value) ? value : nil
    }
    return nil
  }
}
