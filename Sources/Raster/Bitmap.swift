// Raster: bitmaps and the compositor.
//
// A `Bitmap` is the one pixel store of transvid: premultiplied RGBA8, rows top
// to bottom, no padding (stride == width × 4), bytes in memory R, G, B, A. It
// is a value type (copy on write), so a snapshot taken once can be shared by
// every frame and every thread without locks.

/// A premultiplied RGBA8 image, `width × height` pixels, rows packed.
public struct Bitmap: Hashable, Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width × height × 4` bytes: premultiplied R, G, B, A per pixel, row-major.
  public var bytes: [UInt8]

  /// A bitmap filled with `fill` (transparent by default). Sizes must be
  /// positive; callers validate user input before getting here.
  public init(width: Int, height: Int, fill: Pixel = .clear) {
    precondition(width > 0 && height > 0, "Bitmap size must be positive")
    self.width = width
    self.height = height
    if fill == .clear {
      bytes = [UInt8](repeating: 0, count: width * height * 4)
    } else {
      var b = [UInt8](repeating: 0, count: width * height * 4)
      b.withUnsafeMutableBytes { raw in
        let p = raw.bindMemory(to: Pixel.self)
        p.initialize(repeating: fill)
      }
      bytes = b
    }
  }

  /// Wraps existing premultiplied RGBA8 bytes; `nil` when the count is wrong.
  public init?(width: Int, height: Int, bytes: [UInt8]) {
    guard width > 0, height > 0, bytes.count == width * height * 4 else { return nil }
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  /// Bytes per row.
  @inlinable public var stride: Int { width * 4 }

  /// The pixel at column `x`, row `y` (0-based, top-left origin).
  @inlinable public subscript(x: Int, y: Int) -> Pixel {
    get {
      let i = (y * width + x) * 4
      return Pixel(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2], a: bytes[i + 3])
    }
    set {
      let i = (y * width + x) * 4
      bytes[i] = newValue.r
      bytes[i + 1] = newValue.g
      bytes[i + 2] = newValue.b
      bytes[i + 3] = newValue.a
    }
  }
}
