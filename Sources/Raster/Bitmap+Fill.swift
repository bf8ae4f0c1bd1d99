extension Bitmap {
  /// Sets every pixel to `pixel`.
  public mutating func fill(_ pixel: Pixel) {
    fill(pixel, x: 0, y: 0, width: width, height: height)
  }

  /// Sets the pixels of columns `x..<x + width` in rows `y..<y + height`
  /// to `pixel` (the rectangle must lie inside the bitmap).
  public mutating func fill(_ pixel: Pixel, x: Int, y: Int, width: Int, height: Int) {
    precondition(
      x >= 0 && y >= 0 && width >= 0 && height >= 0 && x + width <= self.width && y + height <= self.height,
      "fill outside the bitmap")
    let stride = self.stride
    bytes.withUnsafeMutableBufferPointer { buffer in
      for row in y..<(y + height) { Kernels.fill(buffer.baseAddress! + row * stride + x * 4, pixel, width) }
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
