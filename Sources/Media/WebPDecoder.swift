import CWebP
import Raster

/// WebP stills, and an animated WebP's first frame, decoded by libwebp
/// itself, the path `ImageDecoder` takes first for every WebP.
///
/// libwebp is the decoder of Chromium, Firefox, Safari's WebKit and
/// Pillow: its lossy decode upsamples chroma with its "fancy" (bilinear)
/// filter and converts with its own fixed-point BT.601, so a screenshot
/// saved as WebP shows here as it does in a browser, where libavcodec and
/// swscale's conversion differed at colour edges by up to 34 levels.
/// libwebp writes straight RGBA into the bitmap; an ICCP chunk (read by
/// libwebpmux, already linked for the writer) converts it to sRGB
/// (`ColorProfile`), and it is then premultiplied. `WebPDecoderTests`
/// hold the decode to libwebp's own `dwebp`. An EXIF chunk's orientation
/// is not applied: the chunk follows the image data, and metadata there is
/// ignored (CSS Images 3), as Chromium and Firefox ignore it.
///
/// Data libwebp finds cut short or broken (its statuses NOT_ENOUGH_DATA
/// and BITSTREAM_ERROR: a VP8 chunk whose partitions end early, say, which
/// libavcodec decodes anyway, with the rest of the picture grey) is an
/// error. A WebP libwebp declines for another reason (a feature it does
/// not support) returns nil, and `ImageDecoder` decodes it with libavcodec
/// as before, with that decoder's errors.
enum WebPDecoder {
  /// `data` as premultiplied RGBA in sRGB, `header`'s size (an animated
  /// one's first frame on its canvas); nil when libwebp cannot decode it as
  /// an image of that size. Throws
  /// `corrupt WebP data (…)` when libwebp finds the data short or broken,
  /// and `ImageDecoder.outOfMemory` when it could not get the memory.
  static func decode(_ data: [UInt8], header: ImageHeader, operation: String) throws(MediaError) -> Bitmap? {
    var status = VP8_STATUS_OK
    let bitmap = data.withUnsafeBufferPointer { source -> Bitmap? in
      guard let base = source.baseAddress else { return nil }
      var config = WebPDecoderConfig()
      guard WebPInitDecoderConfig(&config) != 0 else { return nil }
      status = WebPGetFeatures(base, source.count, &config.input)
      guard status == VP8_STATUS_OK, Int(config.input.width) == header.width, Int(config.input.height) == header.height
      else { return nil }
      if config.input.has_animation != 0 { return firstFrame(source, header: header, status: &status) }
      let (width, height) = (header.width, header.height)
      var bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = out.baseAddress
        config.output.u.RGBA.stride = Int32(width * 4)
        config.output.u.RGBA.size = out.count
        status = WebPDecode(base, source.count, &config)
        count = status == VP8_STATUS_OK ? out.count : 0
      }
      guard status == VP8_STATUS_OK else { return nil }
      if let icc = iccProfile(source) {
        bytes.withUnsafeMutableBufferPointer { rgba in
          icc.withUnsafeBytes {
            _ = ColorProfile.convertToSRGB(
              rgba.baseAddress!, pixels: width * height, icc: $0, components: header.colorComponents)
          }
        }
      }
      if config.input.has_alpha != 0 { Alpha.premultiply(&bytes) }
      return Bitmap(width: width, height: height, bytes: bytes)
    }
    switch status {
    case VP8_STATUS_NOT_ENOUGH_DATA: throw MediaError(operation, "corrupt WebP data (premature end of the image data)")
    case VP8_STATUS_BITSTREAM_ERROR: throw MediaError(operation, "corrupt WebP data (invalid bitstream)")
    case VP8_STATUS_OUT_OF_MEMORY: throw ImageDecoder.outOfMemory(header, operation)
    default: return bitmap
    }
  }

  /// An animated WebP's first frame on its canvas, as a browser shows it
  /// before it plays and as a GIF's or APNG's first frame is drawn: the
  /// canvas transparent (the background colour is a hint browsers do not
  /// use), the frame at its offset, premultiplied; no ICC profile, as
  /// Chromium takes none for an animation. Nil, with `status` set, when the
  /// frame is missing or does not decode.
  private static func firstFrame(
    _ source: UnsafeBufferPointer<UInt8>, header: ImageHeader, status: inout VP8StatusCode
  ) -> Bitmap? {
    var whole = WebPData(bytes: source.baseAddress, size: source.count)
    guard let mux = WebPMuxCreate(&whole, 0) else {
      status = VP8_STATUS_BITSTREAM_ERROR
      return nil
    }
    defer { WebPMuxDelete(mux) }
    var frame = WebPMuxFrameInfo()
    guard WebPMuxGetFrame(mux, 1, &frame) == WEBP_MUX_OK, let bitstream = frame.bitstream.bytes else {
      status = VP8_STATUS_BITSTREAM_ERROR
      return nil
    }
    defer { WebPDataClear(&frame.bitstream) }
    var config = WebPDecoderConfig()
    guard WebPInitDecoderConfig(&config) != 0 else { return nil }
    status = WebPGetFeatures(bitstream, frame.bitstream.size, &config.input)
    let (width, height) = (header.width, header.height)
    let frameWidth = Int(config.input.width), frameHeight = Int(config.input.height)
    let x = Int(frame.x_offset), y = Int(frame.y_offset)
    guard status == VP8_STATUS_OK, x >= 0, y >= 0, x + frameWidth <= width, y + frameHeight <= height else {
      if status == VP8_STATUS_OK { status = VP8_STATUS_BITSTREAM_ERROR }
      return nil
    }
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    bytes.withUnsafeMutableBufferPointer { out in
      config.output.colorspace = MODE_RGBA
      config.output.is_external_memory = 1
      config.output.u.RGBA.rgba = out.baseAddress! + 4 * (y * width + x)
      config.output.u.RGBA.stride = Int32(width * 4)
      config.output.u.RGBA.size = out.count - 4 * (y * width + x)
      status = WebPDecode(bitstream, frame.bitstream.size, &config)
    }
    guard status == VP8_STATUS_OK else { return nil }
    Alpha.premultiply(&bytes)
    return Bitmap(width: width, height: height, bytes: bytes)
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
