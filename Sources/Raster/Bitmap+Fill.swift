extension Bitmap {
  /// Sets every pixel to `pixel`.
  public mutating func fill(_ pixel: Pixel) {
    bytes.withUnsafeMutableBytes { raw in
      raw.bindMemory(to: Pixel.self).update(repeating: pixel)
    }
  }

  /// Copies the overlapping top-left region of `source` into `self`
  /// (pixels outside `source` are left as they are).
  public mutating func copy(from source: Bitmap) {
    let w = Swift.min(width, source.width), h = Swift.min(height, source.height)
    let dstStride = stride, srcStride = source.stride
    if w == width && srcStride == dstStride && h <= source.height {
      bytes.withUnsafeMutableBytes { dst in
        source.bytes.withUnsafeBytes { src in
          dst.baseAddress!.copyMemory(from: src.baseAddress!, byteCount: h * dstStride)
        }
      }
      return
    }
    bytes.withUnsafeMutableBytes { dst in
      source.bytes.withUnsafeBytes { src in
        for y in 0..<h {
          (dst.baseAddress! + y * dstStride).copyMemory(from: src.baseAddress! + y * srcStride, byteCount: w * 4)
        }
      }
    }
  }
}
