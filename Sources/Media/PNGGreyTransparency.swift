import CFFmpeg
import Raster

/// The transparency a 1-bit grey PNG's tRNS chunk gives: its pixels whose
/// sample is the chunk's grey value are transparent, as libpng and so
/// browsers draw them.
///
/// libavcodec decodes such a PNG as `AV_PIX_FMT_MONOBLACK` and has no alpha
/// for it (it honours tRNS for grey of 2, 4, 8 and 16 bits and for colour),
/// so a black-and-white mask stored in one bit a pixel, as optimisers store
/// a QR code or a glyph on a clear ground, would show its clear ground
/// opaque. The value is read from the stream libavcodec decodes (damaged
/// ancillary chunks already left out, `PNGAncillaryChunks`), before the
/// image data, as the PNG specification places tRNS; a value of neither 0
/// nor 1 matches no pixel.
enum PNGGreyTransparency {
  /// The 1-bit sample (0 or 1) that `png`'s tRNS makes transparent, or nil
  /// when it is not a 1-bit grey PNG with a tRNS chunk before its image data.
  static func transparentSample(in png: [UInt8]) -> UInt8? {
    var offset = 8
    var isOneBitGrey = false
    while offset + 12 <= png.count {
      let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
      let body = offset + 8
      guard body + length + 4 <= png.count else { return nil }
      let type = Array(png[(offset + 4)..<body])
      switch type {
      case Array("IHDR".utf8):
        guard length == 13 else { return nil }
        isOneBitGrey = png[body + 8] == 1 && png[body + 9] == 0
        if !isOneBitGrey { return nil }
      case Array("tRNS".utf8):
        guard isOneBitGrey, length == 2, png[body] == 0, png[body + 1] <= 1 else { return nil }
        return png[body + 1]
      case Array("IDAT".utf8), Array("IEND".utf8):
        return nil
      default:
        break
      }
      offset = body + length + 4
    }
    return nil
  }

  /// Clears, in `bitmap` (premultiplied RGBA of `frame`'s size), every pixel
  /// whose sample in `frame`, a `AV_PIX_FMT_MONOBLACK` picture (1 is white),
  /// is `sample`; any other frame is left alone.
  static func clear(_ bitmap: inout Bitmap, sample: UInt8, in frame: Frame) {
    let f = frame.pointer.pointee
    guard f.format == AV_PIX_FMT_MONOBLACK.rawValue, let plane = f.data.0,
      Int(f.width) == bitmap.width, Int(f.height) == bitmap.height
    else { return }
    let width = bitmap.width, height = bitmap.height, stride = Int(f.linesize.0)
    bitmap.bytes.withUnsafeMutableBufferPointer { rgba in
      for y in 0..<height {
        let row = plane + y * stride
        for x in 0..<width where (row[x >> 3] >> (7 - UInt8(x & 7))) & 1 == sample {
          let i = 4 * (y * width + x)
          rgba[i] = 0
          rgba[i + 1] = 0
          rgba[i + 2] = 0
          rgba[i + 3] = 0
        }
      }
    }
  }
}
