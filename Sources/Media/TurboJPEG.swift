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
/// A JPEG libjpeg fails or warns on (corrupt or truncated data, CMYK,
/// lossless or 12-bit) returns nil here, and `ImageDecoder` decodes it
/// with libavcodec as before, with that decoder's errors.
enum TurboJPEG {
  /// `data` decoded at 1/2^`scaleShift` of its size (each side rounded up,
  /// as `header` declares it), in sRGB (its ICC profile's colours
  /// converted, `ColorProfile`), premultiplied (opaque) and upright by its
  /// EXIF orientation; nil when libjpeg-turbo fails or warns, or finds more
  /// than `maxScans` scans.
  static func decode(_ data: [UInt8], header: ImageHeader, scaleShift: Int, maxScans: Int) -> Bitmap? {
    let expected = ImageDecoder.reducedSize(width: header.width, height: header.height, steps: scaleShift)
    return data.withUnsafeBufferPointer { source -> Bitmap? in
      var width: Int32 = 0, height: Int32 = 0, orientation: Int32 = 1
      guard
        let decoder = cjpeg_open(
          source.baseAddress, source.count, Int32(scaleShift), &width, &height, &orientation,
          Int32(clamping: maxScans))
      else { return nil }
      guard Int(width) == expected.width, Int(height) == expected.height else {
        cjpeg_close(decoder)
        return nil
      }
      var icc: UnsafeMutablePointer<UInt8>?, iccSize: UInt32 = 0
      let profile = cjpeg_icc(decoder, &icc, &iccSize) == 1 ? icc : nil
      defer { free(profile) }
      var decoded = false
      let bytes = [UInt8](unsafeUninitializedCapacity: Int(width) * Int(height) * 4) { out, count in
        decoded = cjpeg_read(decoder, out.baseAddress) == 0
        count = decoded ? out.count : 0
        // Opaque, so straight and premultiplied alike: converted in place.
        if decoded, let profile {
          // A grey JPEG's pixels come with r = g = b (libjpeg's grey to RGBA).
          ColorProfile.convertToSRGB(
            out.baseAddress!, pixels: Int(width) * Int(height), icc: UnsafeRawBufferPointer(start: profile, count: Int(iccSize)),
            components: header.colorComponents)
        }
      }
      guard decoded, let bitmap = Bitmap(width: Int(width), height: Int(height), bytes: bytes) else { return nil }
      return ImageDecoder.oriented(bitmap, Int(orientation))
    }
  }
}
