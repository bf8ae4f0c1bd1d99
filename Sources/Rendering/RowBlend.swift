import Raster
import Synchronization

/// Row-wise copies and blends of one bitmap into a rectangle of a larger
/// one: a canvas into a stage's screen, a caption strip, a status bar. Each
/// clips to the smaller of the two; what lies outside is left as it is.
enum RowBlend {
  /// The pixels `a` and `b` share with `area` (their top-left at its top-left).
  private static func overlap(_ a: Bitmap, _ b: Bitmap, _ area: PixelArea, rows: Int? = nil) -> (width: Int, height: Int) {
    (Swift.min(area.width, a.width, b.width), Swift.min(rows ?? area.height, area.height, a.height, b.height))
  }

  /// `area` of `out` becomes `a` and `b` mixed at `progress` (0: `a`, 1: `b`),
  /// in premultiplied bytes, each rounded; `rows` limits it to the top rows.
  static func crossfade(from a: Bitmap, to b: Bitmap, progress: Double, into out: inout Bitmap, area: PixelArea, rows: Int? = nil) {
    let weight = UInt32((Swift.min(1, Swift.max(0, progress)) * 256).rounded())
    let (width, height) = overlap(a, b, area, rows: rows)
    guard width > 0, height > 0 else { return }
    let stride = out.stride, aStride = a.stride, bStride = b.stride
    out.bytes.withUnsafeMutableBufferPointer { o in
      a.bytes.withUnsafeBufferPointer { p in
        b.bytes.withUnsafeBufferPointer { q in
          for y in 0..<height {
            let orow = (area.y + y) * stride + area.x * 4, prow = y * aStride, qrow = y * bStride
            if weight == 256 || weight == 0 {
              let source = weight == 0 ? p.baseAddress! + prow : q.baseAddress! + qrow
              UnsafeMutableRawPointer(o.baseAddress! + orow).copyMemory(from: source, byteCount: width * 4)
              continue
            }
            for i in 0..<(width * 4) {
              o[orow + i] = UInt8((UInt32(p[prow + i]) * (256 - weight) + UInt32(q[qrow + i]) * weight + 128) >> 8)
            }
          }
        }
      }
    }
  }

  /// `source` copied into `area` of `out`.
  static func copy(_ source: Bitmap, into out: inout Bitmap, area: PixelArea) {
    crossfade(from: source, to: source, progress: 0, into: &out, area: area)
  }

  /// Every pixel of `area` of `out` set to `pixel`.
  static func fill(_ pixel: Pixel, into out: inout Bitmap, area: PixelArea) {
    out.fill(pixel, x: area.x, y: area.y, width: area.width, height: area.height)
  }

  /// `a` and `b` (premultiplied, the same shapes in two inks) mixed at
  /// `progress` (0: `a`, 1: `b`) and drawn source-over into `area` of `out`.
  static func sourceOver(_ a: Bitmap, _ b: Bitmap? = nil, progress: Double = 0, into out: inout Bitmap, area: PixelArea) {
    let b = b ?? a
    let weight = UInt32((Swift.min(1, Swift.max(0, progress)) * 256).rounded())
    let (width, height) = overlap(a, b, area)
    guard width > 0, height > 0 else { return }
    let stride = out.stride, aStride = a.stride, bStride = b.stride
    out.bytes.withUnsafeMutableBufferPointer { o in
      a.bytes.withUnsafeBufferPointer { p in
        b.bytes.withUnsafeBufferPointer { q in
          // The source byte: `a`'s or `b`'s, or the two mixed.
          func source(_ i: Int, _ j: Int) -> UInt32 {
            switch weight {
            case 0: UInt32(p[i])
            case 256: UInt32(q[j])
            default: (UInt32(p[i]) * (256 - weight) + UInt32(q[j]) * weight + 128) >> 8
            }
          }
          for y in 0..<height {
            for x in 0..<width {
              let i = y * aStride + x * 4, j = y * bStride + x * 4
              let alpha = source(i + 3, j + 3)
              if alpha == 0 { continue }
              let d = (area.y + y) * stride + (area.x + x) * 4
              for k in 0..<4 {
                o[d + k] = UInt8(source(i + k, j + k) + (UInt32(o[d + k]) * (255 - alpha) + 127) / 255)
              }
            }
          }
        }
      }
    }
  }
}

/// Bitmaps of one size to draw into and give back, so a frame that needs
/// a scratch bitmap takes one made for an earlier frame instead of
/// allocating (and faulting in) a new one. Safe from any thread.
final class BitmapPool: Sendable {
  let width: Int, height: Int
  private let free = Mutex<[Bitmap]>([])

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// A bitmap of the pool's size, with whatever pixels it last held.
  func take() -> Bitmap {
    free.withLock { $0.popLast() } ?? Bitmap(width: width, height: height)
  }

  /// Returns `bitmap` for a later `take()`.
  func give(_ bitmap: Bitmap) {
    free.withLock { $0.append(bitmap) }
  }
}
