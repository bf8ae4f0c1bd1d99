import CFFmpeg
import Raster

/// The alpha of a premultiplied RGBA resize, made again through swscale's
/// grey path: the source's alpha as an 8-bit plane, resized with the same
/// filter, replaces the alpha the RGBA resize wrote, and each colour is kept
/// at most its alpha (premultiplied colour never exceeds it; Lanczos's
/// lobes can put one a level over).
///
/// swscale's packed RGBA path, resizing, rounds every alpha from 128 to 254
/// one level high (a flat 128 comes out 129, as if read as `a × 257/256`);
/// its grey path keeps a flat level, as its colour paths do. A frame whose
/// alpha is 255 everywhere (an opaque canvas) keeps the RGBA path's, 255.
final class ResampledAlpha {
  let sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
  private let context: OpaquePointer
  /// The source's alpha plane, and the resized plane (kept between frames).
  private var plane: [UInt8]
  private var resized: [UInt8]

  init(from sourceWidth: Int, _ sourceHeight: Int, to width: Int, _ height: Int, flags: Int32) throws(MediaError) {
    self.sourceWidth = sourceWidth
    self.sourceHeight = sourceHeight
    self.width = width
    self.height = height
    guard
      let context = sws_getContext(
        Int32(sourceWidth), Int32(sourceHeight), AV_PIX_FMT_GRAY8, Int32(width), Int32(height), AV_PIX_FMT_GRAY8,
        flags, nil, nil, nil)
    else {
      throw MediaError("resize alpha \(sourceWidth)×\(sourceHeight) to \(width)×\(height)", code: cff_averror(EINVAL))
    }
    self.context = context
    plane = [UInt8](repeating: 0, count: sourceWidth * sourceHeight)
    resized = [UInt8](repeating: 0, count: width * height)
  }

  deinit { sws_freeContext(context) }

  /// Writes `source`'s alpha, resized, into the RGBA `destination` the
  /// RGBA resize of `source` filled (`width × height`, rows `stride` bytes
  /// apart), each colour at most its pixel's alpha.
  func resize(_ source: Bitmap, into destination: UnsafeMutablePointer<UInt8>, stride: Int) throws(MediaError) {
    let (w, h) = (sourceWidth, sourceHeight)
    var lowest: UInt8 = 255
    source.bytes.withUnsafeBufferPointer { src in
      plane.withUnsafeMutableBufferPointer { a in
        for y in 0..<h {
          let row = src.baseAddress! + y * source.stride + 3
          let out = a.baseAddress! + y * w
          for x in 0..<w {
            let v = row[4 * x]
            out[x] = v
            lowest = min(lowest, v)
          }
        }
      }
    }
    guard lowest < 255 else { return }
    let rows = plane.withUnsafeBufferPointer { a in
      resized.withUnsafeMutableBufferPointer { r in
        let s: [UnsafePointer<UInt8>?] = [a.baseAddress, nil, nil, nil]
        let sStride: [Int32] = [Int32(w), 0, 0, 0]
        let d: [UnsafeMutablePointer<UInt8>?] = [r.baseAddress, nil, nil, nil]
        let dStride: [Int32] = [Int32(width), 0, 0, 0]
        return sws_scale(context, s, sStride, 0, Int32(h), d, dStride)
      }
    }
    guard rows == Int32(height) else {
      throw MediaError("resize alpha", code: rows < 0 ? rows : cff_averror(EINVAL))
    }
    resized.withUnsafeBufferPointer { r in
      for y in 0..<height {
        let row = destination + y * stride
        let alpha = r.baseAddress! + y * width
        for x in 0..<width {
          let a = alpha[x]
          let p = row + 4 * x
          p[0] = min(p[0], a)
          p[1] = min(p[1], a)
          p[2] = min(p[2], a)
          p[3] = a
        }
      }
    }
  }
}
