import Geometry
import Testing
@testable import Raster

@Suite struct MicroBenchmarks {
  @Test(.enabled(if: Benchmarks.enabled, "timings: set TRANSVID_BENCH=1"))
  func kernels() {
    let b = Bitmap(width: 1170, height: 2532, fill: Pixel(r: 200, g: 100, b: 50, a: 255))
    var out = Bitmap(width: 1170, height: 2532)
    let n = 1170 * 2532
    b.bytes.withUnsafeBufferPointer { pb in
      out.bytes.withUnsafeMutableBufferPointer { po in
        let s = pb.baseAddress!, d = po.baseAddress!
        var ok = true
        let t1 = Benchmarks.time(50) { ok = ok && Kernels.isOpaque(s, n, .simd) }
        let t2 = Benchmarks.time(50) { Kernels.copy(d, s, n) }
        let t3 = Benchmarks.time(50) {
          for y in 0..<2532 { Kernels.copy(d + y * 4680, s + y * 4680, 1170) }
        }
        let t4 = Benchmarks.time(50) { Kernels.blend(d, s, n, .simd) }
        let t5 = Benchmarks.time(50) { Kernels.blend(d, s, n, coverage: 128, .simd) }
        print("isOpaque frame \(t1) ms, memcpy frame \(t2) ms, row copies \(t3) ms, blend \(t4) ms, blend c=128 \(t5) ms \(ok)")
      }
    }
  }
}
