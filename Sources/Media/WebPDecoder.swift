import CWebP
import Raster

/// WebP stills decoded by libwebp itself, the path `ImageDecoder` takes
/// first for every WebP.
///
/// libwebp is the decoder of Chromium, Firefox, Safari's WebKit and
/// Pillow: its lossy decode upsamples chroma with its "fancy" (bilinear)
/// filter and converts with its own fixed-point BT.601, so a screenshot
/// saved as WebP shows here as it does in a browser, where libavcodec and
/// swscale's conversion differed at colour edges by up to 34 levels.
/// libwebp writes straight RGBA into the bitmap; an ICCP chunk (read by
/// libwebpmux, already linked for the writer) converts it to sRGB
/// (`ColorProfile`), and it is then premultiplied. `WebPDecoderTests`
/// hold the decode to libwebp's own `dwebp`.
///
/// An animated WebP, or data libwebp rejects, returns nil, and
/// `ImageDecoder` decodes it with libavcodec as before, with that
/// decoder's errors.
enum WebPDecoder {
  /// `data` as premultiplied RGBA in sRGB, `header`'s size; nil when
  /// libwebp cannot decode it as one still image of that size.
  static func decode(_ data: [UInt8], header: ImageHeader) -> Bitmap? {
    data.withUnsafeBufferPointer { source -> Bitmap? in
      guard let base = source.baseAddress else { return nil }
      var features = WebPBitstreamFeatures()
      guard WebPGetFeatures(base, source.count, &features) == VP8_STATUS_OK, features.has_animation == 0,
        Int(features.width) == header.width, Int(features.height) == header.height
      else { return nil }
      let (width, height) = (header.width, header.height)
      var decoded = false
      var bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
        decoded = WebPDecodeRGBAInto(base, source.count, out.baseAddress, out.count, Int32(width * 4)) != nil
        count = decoded ? out.count : 0
      }
      guard decoded else { return nil }
      if let icc = iccProfile(source) {
        bytes.withUnsafeMutableBufferPointer { rgba in
          icc.withUnsafeBytes {
            _ = ColorProfile.convertToSRGB(
              rgba.baseAddress!, pixels: width * height, icc: $0, components: header.colorComponents)
          }
        }
      }
      if features.has_alpha != 0 { Alpha.premultiply(&bytes) }
      return Bitmap(width: width, height: height, bytes: bytes)
    }
  }

  /// The file's ICCP chunk, if it has one.
  private static func iccProfile(_ source: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var whole = WebPData(bytes: source.baseAddress, size: source.count)
    guard let mux = WebPMuxCreate(&whole, 0) else { return nil }
    defer { WebPMuxDelete(mux) }
    var chunk = WebPData()
    guard WebPMuxGetChunk(mux, "ICCP", &chunk) == WEBP_MUX_OK, let bytes = chunk.bytes, chunk.size > 0 else { return nil }
    return Array(UnsafeBufferPointer(start: bytes, count: chunk.size))
  }
}
