import CFFmpeg
import Raster

/// Frames of 16-bit samples (a 16-bit PNG's grey, grey + alpha, RGB or
/// RGBA, either byte order) brought to straight RGBA8 as libpng does it.
///
/// A 16-bit sample v stands for v / 65535; its 8-bit value is the nearest
/// one, (v · 255 + 32895) >> 16 (libpng's `png_set_scale_16`, which
/// ImageIO and browsers match): v · 257, the 8-bit value v written as 16
/// bits, comes back as v, every channel alike (a grey stays grey), and
/// alpha is scaled the same way, before it is premultiplied. swscale is
/// not used for these: its conversion to 8 bits dithers.
enum SixteenBitSamples {
  /// `frame` as straight RGBA8, or nil when its format is not one of 16-bit
  /// packed grey, grey + alpha, RGB or RGBA.
  static func rgba(from frame: Frame) -> Bitmap? {
    let f = frame.pointer.pointee
    guard let layout = layout(AVPixelFormat(rawValue: f.format)), let rows = f.data.0 else { return nil }
    let width = Int(f.width), height = Int(f.height), stride = Int(f.linesize.0)
    guard width > 0, height > 0 else { return nil }
    let channels = layout.channels, bigEndian = layout.bigEndian
    let bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
      for y in 0..<height {
        let row = UnsafePointer(rows + y * stride)
        let line = out.baseAddress! + y * width * 4
        for x in 0..<width {
          let pixel = row + x * channels * 2
          @inline(__always) func sample(_ k: Int) -> UInt8 {
            let hi = UInt32(pixel[2 * k + (bigEndian ? 0 : 1)]), lo = UInt32(pixel[2 * k + (bigEndian ? 1 : 0)])
            return UInt8(truncatingIfNeeded: ((hi << 8 | lo) &* 255 &+ 32895) >> 16)
          }
          let o = line + x * 4
          switch channels {
          case 1, 2:
            let v = sample(0)
            (o[0], o[1], o[2], o[3]) = (v, v, v, channels == 2 ? sample(1) : 255)
          default:
            (o[0], o[1], o[2], o[3]) = (sample(0), sample(1), sample(2), channels == 4 ? sample(3) : 255)
          }
        }
      }
      count = out.count
    }
    return Bitmap(width: width, height: height, bytes: bytes)
  }

  /// Samples per pixel (grey, grey + alpha, RGB, RGBA) and byte order of
  /// a packed 16-bit format.
  private static func layout(_ format: AVPixelFormat) -> (channels: Int, bigEndian: Bool)? {
    switch format {
    case AV_PIX_FMT_GRAY16BE: (1, true)
    case AV_PIX_FMT_GRAY16LE: (1, false)
    case AV_PIX_FMT_YA16BE: (2, true)
    case AV_PIX_FMT_YA16LE: (2, false)
    case AV_PIX_FMT_RGB48BE: (3, true)
    case AV_PIX_FMT_RGB48LE: (3, false)
    case AV_PIX_FMT_RGBA64BE: (4, true)
    case AV_PIX_FMT_RGBA64LE: (4, false)
    default: nil
    }
  }
}
