#if canImport(Glibc)
import Glibc
#endif
import CJPEG
import Raster

/// JPEG decoding by libjpeg-turbo (the CJPEG target), the path
/// `ImageDecoder` takes first for every JPEG.
///
/// libjpeg-turbo writes packed RGBA itself: its SIMD inverse DCT (the
/// accurate integer one, whose SIMD and C code give the same bits, so every
/// machine decodes alike), "fancy" (triangular) chroma upsampling and
/// colour conversion, straight into the bitmap. libavcodec's decoder
/// followed by swscale's bit-exact C conversion took about three times as
/// long for a 12 Mpx photo, and made a whole YUV copy of it on the way.
/// libjpeg-turbo is also the JPEG decoder of Chromium, Firefox and most
/// image tools; `TurboJPEGTests` hold this decode to its own `djpeg`.
///
/// A CMYK (or YCCK) JPEG comes from libjpeg-turbo as CMYK, and each
/// colour is its sample times K's over 255, rounded down: the browsers'
/// arithmetic for Adobe's inverted CMYK, which Photoshop and other encoders
/// write, so white is 255. libavcodec's own conversion made it 254 and
/// other colours up to two levels off. With a CMYK ICC profile (a print
/// workflow's, such as SWOP) the samples go through the profile instead
/// (`ColorProfile.convertCMYKToSRGB`), as Chromium converts them.
///
/// A JPEG whose pixel data libjpeg finds cut short or corrupt (its
/// warnings "premature end of data segment", "bad Huffman code", …: it
/// would fill the rest with a flat colour) is an error, in libjpeg's words.
/// A warning that loses no pixel (extraneous bytes before a marker) leaves
/// the decode as it is, as a browser's libjpeg-turbo shows it. One libjpeg
/// fails on (lossless or 12-bit) returns nil here, and `ImageDecoder`
/// decodes it with libavcodec as before, with that decoder's errors.
enum TurboJPEG {
  /// `data` decoded at 1/2^`scaleShift` of its size (each side rounded up,
  /// as `header` declares it), in sRGB (its ICC profile's colours
  /// converted, `ColorProfile`), premultiplied (opaque) and upright by its
  /// EXIF orientation; nil when libjpeg-turbo fails, or finds more
  /// than `maxScans` scans. Throws `corrupt JPEG data (…)` when a warning
  /// says pixel data is lost.
  static func decode(
    _ data: [UInt8], header: ImageHeader, scaleShift: Int, maxScans: Int, operation: String
  ) throws(MediaError) -> Bitmap? {
    var corruption = [CChar](repeating: 0, count: Int(CJPEG_MESSAGE_SIZE))
    let bitmap = corruption.withUnsafeMutableBufferPointer { corruption in
      decode(data, header: header, scaleShift: scaleShift, maxScans: maxScans, corruption: corruption.baseAddress!)
    }
    if bitmap == nil, corruption[0] != 0 {
      let message = String(decoding: corruption.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw MediaError(operation, "corrupt JPEG data (\(reason(message)))")
    }
    return bitmap
  }

  /// libjpeg's warning as the reason in an error: "Corrupt JPEG data:
  /// premature end of data segment" is "premature end of data segment".
  static func reason(_ message: String) -> String {
    let prefix = "Corrupt JPEG data: "
    let text = message.hasPrefix(prefix) ? message.dropFirst(prefix.count) : Substring(message)
    guard let first = text.first else { return message }
    return first.lowercased() + text.dropFirst()
  }

  private static func decode(
    _ data: [UInt8], header: ImageHeader, scaleShift: Int, maxScans: Int, corruption: UnsafeMutablePointer<CChar>
  ) -> Bitmap? {
    let expected = ImageDecoder.reducedSize(width: header.width, height: header.height, steps: scaleShift)
    return data.withUnsafeBufferPointer { source -> Bitmap? in
      var width: Int32 = 0, height: Int32 = 0, orientation: Int32 = 1
      guard
        let decoder = cjpeg_open(
          source.baseAddress, source.count, Int32(scaleShift), &width, &height, &orientation,
          Int32(clamping: maxScans), corruption)
      else { return nil }
      guard Int(width) == expected.width, Int(height) == expected.height else {
        cjpeg_close(decoder)
        return nil
      }
      var icc: UnsafeMutablePointer<UInt8>?, iccSize: UInt32 = 0
      let profile = cjpeg_icc(decoder, &icc, &iccSize) == 1 ? icc : nil
      defer { free(profile) }
      // A CMYK profile converts the CMYK samples themselves, as Chromium's does.
      let cmykProfile =
        profile != nil && header.colorComponents == 4
        && ColorProfile.isCMYK(UnsafeRawBufferPointer(start: profile, count: Int(iccSize)))
        && cjpeg_keep_cmyk(decoder) == 1
      var decoded = false
      let bytes = [UInt8](unsafeUninitializedCapacity: Int(width) * Int(height) * 4) { out, count in
        decoded = cjpeg_read(decoder, out.baseAddress) == 0
        count = decoded ? out.count : 0
        if decoded, cmykProfile, let profile {
          decoded = ColorProfile.convertCMYKToSRGB(
            out.baseAddress!, pixels: Int(width) * Int(height), icc: UnsafeRawBufferPointer(start: profile, count: Int(iccSize)))
          if !decoded { count = 0 }
        } else if decoded, let profile {
          // Opaque, so straight and premultiplied alike: converted in place.
          // A grey JPEG's pixels come with r = g = b (libjpeg's grey to RGBA).
          ColorProfile.convertToSRGB(
            out.baseAddress!, pixels: Int(width) * Int(height), icc: UnsafeRawBufferPointer(start: profile, count: Int(iccSize)),
            components: header.colorComponents)
        }
      }
      guard decoded, var bitmap = Bitmap(width: Int(width), height: Int(height), bytes: bytes) else { return nil }
      bitmap.pictureRect = ImageDecoder.reducedPicture(width: header.width, height: header.height, steps: scaleShift)
      return ImageDecoder.oriented(bitmap, Int(orientation))
    }
  }
}
