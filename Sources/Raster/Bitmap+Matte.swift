extension Bitmap {
  /// Every pixel composited over the opaque `matte` (source-over, the
  /// bitmap on top): what a format without alpha shows of a frame with
  /// alpha. Row by row through `Kernels.blend`, whose SIMD path is tested
  /// against its scalar reference.
  public mutating func composite(over matte: Pixel, _ set: KernelSet = .simd) {
    guard !isKnownOpaque else { return }
    let (width, height, stride) = (width, height, stride)
    var row = [UInt8](repeating: 0, count: width * 4)
    bytes.withUnsafeMutableBufferPointer { pixels in
      row.withUnsafeMutableBufferPointer { scratch in
        let base = pixels.baseAddress!, line = scratch.baseAddress!
        for y in 0..<height {
          let source = base + y * stride
          Kernels.fill(line, matte, width)
          Kernels.blend(line, UnsafePointer(source), width, set)
          Kernels.copy(source, UnsafePointer(line), width)
        }
      }
    }
    updateOpacityHint()
  }

  /// The pixels of the rectangle at `x`, `y` composited over `pixel`
  /// (premultiplied, opaque or not; source-over, the bitmap on top): a
  /// see-through canvas's background put under what was drawn on it.
  public mutating func composite(over pixel: Pixel, x: Int, y: Int, width w: Int, height h: Int, _ set: KernelSet = .simd) {
    let (x0, y0) = (max(0, x), max(0, y))
    let (w, h) = (min(width, x + w) - x0, min(height, y + h) - y0)
    guard w > 0, h > 0, pixel.a > 0, !isKnownOpaque else { return }
    let stride = stride
    var row = [UInt8](repeating: 0, count: w * 4)
    bytes.withUnsafeMutableBufferPointer { pixels in
      row.withUnsafeMutableBufferPointer { scratch in
        let base = pixels.baseAddress!, line = scratch.baseAddress!
        for y in y0..<(y0 + h) {
          let source = base + y * stride + x0 * 4
          Kernels.fill(line, pixel, w)
          Kernels.blend(line, UnsafePointer(source), w, set)
          Kernels.copy(source, UnsafePointer(line), w)
        }
      }
    }
    updateOpacityHint()
  }
}
