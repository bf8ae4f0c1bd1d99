import CJPEG

/// The orientation an EXIF block records: how the stored picture is turned
/// from upright (1…8, as `ImageDecoder.oriented` applies it).
///
/// A PNG's EXIF (its eXIf chunk) is a bare TIFF structure, a JPEG's APP1
/// segment the same after an "Exif\0\0" header: both are read by libexif
/// (`cjpeg_exif_orientation`, which `TurboJPEG` reads a JPEG's with), the
/// PNG's given that header. A malformed block has no orientation.
enum EXIFOrientation {
  /// The Orientation of `tiff`'s IFD0, 1…8; nil when the block is not
  /// TIFF, IFD0 has no such entry, or the entry is not a SHORT of 1…8.
  static func orientation(tiff: ArraySlice<UInt8>) -> Int? {
    let block = Array("Exif\0\0".utf8) + tiff
    let value = block.withUnsafeBufferPointer { cjpeg_exif_orientation($0.baseAddress, $0.count) }
    return value == 0 ? nil : Int(value)
  }
}
