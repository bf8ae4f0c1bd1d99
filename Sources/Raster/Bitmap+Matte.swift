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
}
