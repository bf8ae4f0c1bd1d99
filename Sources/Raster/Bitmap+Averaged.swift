// Bitmap+Averaged: a region averaged over square blocks — the frosted look of
// a blurred placeholder at a fraction of a Gaussian's cost: drawn as a layer's
// contents scaled back up, the compositor's bilinear filter smooths the blocks.
// Hand-written because it is compositor work on transvid's own bitmaps.

extension Bitmap {
  /// The pixels of the region `x, y, width, height` (pixels, clipped to the
  /// bitmap) averaged over `factor × factor` blocks, premultiplied, rounded
  /// to nearest: a `⌈w/factor⌉ × ⌈h/factor⌉` bitmap (edge blocks average the
  /// pixels they have). An empty region gives one transparent pixel.
  public func averaged(x: Int, y: Int, width w: Int, height h: Int, factor: Int) -> Bitmap {
    let x0 = Swift.max(0, x), y0 = Swift.max(0, y)
    let x1 = Swift.min(width, x + w), y1 = Swift.min(height, y + h)
    let f = Swift.max(1, factor)
    guard x1 > x0, y1 > y0 else { return Bitmap(width: 1, height: 1) }
    let ow = (x1 - x0 + f - 1) / f, oh = (y1 - y0 + f - 1) / f
    var out = Bitmap(width: ow, height: oh)
    let rowBytes = stride
    bytes.withUnsafeBufferPointer { src in
      out.bytes.withUnsafeMutableBufferPointer { dst in
        for by in 0..<oh {
          let sy0 = y0 + by * f, sy1 = Swift.min(y1, sy0 + f)
          for bx in 0..<ow {
            let sx0 = x0 + bx * f, sx1 = Swift.min(x1, sx0 + f)
            var sum = SIMD4<UInt32>(repeating: 0)
            for sy in sy0..<sy1 {
              var i = sy * rowBytes + sx0 * 4
              for _ in sx0..<sx1 {
                sum &+= SIMD4(UInt32(src[i]), UInt32(src[i + 1]), UInt32(src[i + 2]), UInt32(src[i + 3]))
                i += 4
              }
            }
            let n = UInt32((sy1 - sy0) * (sx1 - sx0))
            let mean = (sum &+ SIMD4(repeating: n / 2)) / SIMD4(repeating: n)
            let o = (by * ow + bx) * 4
            dst[o] = UInt8(mean[0])
            dst[o + 1] = UInt8(mean[1])
            dst[o + 2] = UInt8(mean[2])
            dst[o + 3] = UInt8(mean[3])
          }
        }
      }
    }
    return out
  }
}
