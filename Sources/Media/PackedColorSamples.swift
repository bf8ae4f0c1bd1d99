import CFFmpeg
import Raster

/// Frames of 16-bit pixels packing 5, 6 or 4 bits a channel (a 16-bit
/// BMP's RGB 555, 565 or 444) brought to RGBA8 as Chromium's decoder
/// (Skia's `SkMasks`) does it.
///
/// A channel of n bits holding v stands for v / (2ⁿ − 1); its 8-bit value is
/// the nearest one, (v · 255 + (2ⁿ − 1) / 2) / (2ⁿ − 1), so the largest
/// value is 255: a white 555 pixel is white. swscale is not used for these:
/// it shifts the bits up and leaves the low ones 0 (white as 248).
enum PackedColorSamples {
  /// `frame` as opaque RGBA8, or nil when its format is not one of little-
  /// endian RGB 565, 555 or 444.
  static func rgba(from frame: Frame) -> Bitmap? {
    let f = frame.pointer.pointee
    guard let bits = bits(AVPixelFormat(rawValue: f.format)), let rows = f.data.0 else { return nil }
    let width = Int(f.width), height = Int(f.height), stride = Int(f.linesize.0)
    guard width > 0, height > 0 else { return nil }
    // Red's field is above green's, green's above blue's, from bit 0 up.
    let blueShift = 0, greenShift = bits.blue, redShift = bits.blue + bits.green
    let bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
      for y in 0..<height {
        let row = UnsafePointer(rows + y * stride)
        let line = out.baseAddress! + y * width * 4
        for x in 0..<width {
          let v = Int(row[2 * x]) | Int(row[2 * x + 1]) << 8
          @inline(__always) func level(_ shift: Int, _ n: Int) -> UInt8 {
            let largest = (1 << n) - 1
            return UInt8(truncatingIfNeeded: (((v >> shift) & largest) * 255 + largest / 2) / largest)
          }
          let o = line + x * 4
          (o[0], o[1], o[2], o[3]) = (level(redShift, bits.red), level(greenShift, bits.green), level(blueShift, bits.blue), 255)
        }
      }
      count = out.count
    }
    return Bitmap(width: width, height: height, bytes: bytes)
  }

  /// The bits of red, green and blue in a packed 16-bit format.
  private static func bits(_ format: AVPixelFormat) -> (red: Int, green: Int, blue: Int)? {
    switch format {
    case AV_PIX_FMT_RGB565LE: (5, 6, 5)
    case AV_PIX_FMT_RGB555LE: (5, 5, 5)
    case AV_PIX_FMT_RGB444LE: (4, 4, 4)
    default: nil
    }
  }
}
