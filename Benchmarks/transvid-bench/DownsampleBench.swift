#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster

/// `ImageDownsampling.fitted` on a 12 Mpx photo (4032×3024 noise) into a
/// 244×183 pt and a 390×292 pt view at @3x (732×549 and 1170×877 px, as the
/// floor bench's grid and full-screen photo): milliseconds of wall time and
/// of the process's CPU time (the reduction spreads over threads), medians
/// of `runs`.
func downsampleCost(runs: Int) -> [(String, Double)] {
  var rng: UInt64 = 0x2545_F491_4F6C_DD1D
  var photo = Bitmap(width: 4032, height: 3024)
  photo.bytes.withUnsafeMutableBufferPointer { p in
    for i in stride(from: 0, to: p.count, by: 4) {
      rng ^= rng << 13
      rng ^= rng >> 7
      rng ^= rng << 17
      p[i] = UInt8(truncatingIfNeeded: rng)
      p[i + 1] = UInt8(truncatingIfNeeded: rng >> 8)
      p[i + 2] = UInt8(truncatingIfNeeded: rng >> 16)
      p[i + 3] = 255
    }
  }
  func cpu() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func s(_ v: timeval) -> Double { Double(v.tv_sec) + Double(v.tv_usec) * 1e-6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
  }
  var results: [(String, Double)] = []
  for (name, size) in [("grid", Size(width: 244, height: 183)), ("full", Size(width: 390, height: 292))] {
    var walls: [Double] = [], cpus: [Double] = []
    for _ in 0..<max(runs, 1) {
      let (w0, c0) = (now(), cpu())
      let small = ImageDownsampling.fitted(photo, gravity: .resizeAspectFill, in: size, scale: 3)
      walls.append((now() - w0) * 1000)
      cpus.append((cpu() - c0) * 1000)
      if small.width == 0 { print("unexpected empty result") }
    }
    results.append(("ms.downsample_\(name)", walls.sorted()[walls.count / 2]))
    results.append(("ms.cpu_downsample_\(name)", cpus.sorted()[cpus.count / 2]))
  }
  return results
}
