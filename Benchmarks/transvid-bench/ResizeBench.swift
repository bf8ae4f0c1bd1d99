import Raster

/// `LanczosResizer` on one 1179×2556 frame (an iPhone 15 screen at @3x:
/// noise, so no row repeats) to 393×852 (the GIF writer's one pixel per
/// point), on one thread: milliseconds of CPU time per frame, SIMD and the
/// scalar reference, medians of `runs`.
func resizeCost(runs: Int) -> [(String, Double)] {
  let (sw, sh, w, h) = (1179, 2556, 393, 852)
  var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
  var frame = Bitmap(width: sw, height: sh)
  frame.bytes.withUnsafeMutableBufferPointer { p in
    for i in 0..<p.count {
      rng ^= rng << 13
      rng ^= rng >> 7
      rng ^= rng << 17
      p[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: rng)
    }
  }
  var results: [(String, Double)] = []
  for kernels in [KernelSet.simd, .reference] {
    var resizer = LanczosResizer(from: sw, sh, to: w, h)!
    resizer.kernels = kernels
    var out = [UInt8](repeating: 0, count: 4 * w * h)
    let n = kernels == .simd ? runs : 1
    frame.bytes.withUnsafeBytes { pixels in
      out.withUnsafeMutableBytes { o in
        results.append(("ms.resize_frame_\(kernels == .simd ? "simd" : "reference")", median(n, cpu: true) {
          resizer.resize(rows: 0..<h, of: pixels.baseAddress!, stride: frame.stride, into: o.baseAddress!, destinationStride: 4 * w)
        }))
      }
    }
  }
  return results
}
