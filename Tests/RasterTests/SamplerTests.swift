import Geometry
import Testing
@testable import Raster

/// The projective sampler: SIMD path vs the scalar reference (±1), and the
/// reference's 8-bit weights vs exact Double bilinear filtering (±1).
@Suite struct SamplerTests {
  /// Exact bilinear (Double weights, edge clamp, rounded) of one channel.
  static func exact(_ img: Bitmap, _ u: Double, _ v: Double, _ k: Int) -> Int {
    let w = img.width, h = img.height
    let uu = min(max(u - 0.5, 0), Double(w - 1)), vv = min(max(v - 0.5, 0), Double(h - 1))
    let fx = uu.rounded(.down), fy = vv.rounded(.down)
    let tx = uu - fx, ty = vv - fy
    let x0 = Int(fx), y0 = Int(fy), x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
    func p(_ x: Int, _ y: Int) -> Double { Double(img.bytes[(y * w + x) * 4 + k]) }
    let top = p(x0, y0) + (p(x1, y0) - p(x0, y0)) * tx
    let bottom = p(x0, y1) + (p(x1, y1) - p(x0, y1)) * tx
    return Int((top + (bottom - top) * ty).rounded())
  }

  static func maps(_ rng: inout SplitMix) -> [Homography] {
    var out: [Homography] = [
      .identity, .scale(x: 0.37, y: 0.41), .translation(x: 3.25, y: -2.5).concatenating(.scale(x: 2.3, y: 2.3)),
    ]
    for _ in 0..<20 {
      let theta = (rng.unit() - 0.5) * 2.6
      var t = Transform3D.rotation(y: theta)
      t.m34 = -0.004 * rng.unit()
      let m = Homography(flattening: t.concatenating(.rotation(z: rng.unit() - 0.5)))
        .concatenating(.translation(x: rng.unit() * 20 - 10, y: rng.unit() * 20 - 10))
      out.append(m.concatenating(.scale(x: 0.5 + rng.unit() * 2, y: 0.5 + rng.unit() * 2)))
    }
    return out
  }

  @Test func simdMatchesReferenceAndExact() {
    var rng = SplitMix(seed: 7)
    for (iw, ih) in [(37, 29), (2, 2), (1, 5), (64, 1)] {
      let img = noiseBitmap(width: iw, height: ih, seed: rng.next(), opaque: iw > 10)
      for m in SamplerTests.maps(&rng) {
        for (y, x0, count) in [(0, -5, 70), (13, 3, 1), (20, 0, 33), (7, 11, 5)] {
          var a = [UInt8](repeating: 0, count: count * 4), b = a
          img.bytes.withUnsafeBufferPointer { buf in
            a.withUnsafeMutableBufferPointer {
              Sampler.sampleRow(buf.baseAddress!, width: iw, height: ih, toImage: m, y: y, x0: x0, count: count, into: $0.baseAddress!, .simd)
            }
            b.withUnsafeMutableBufferPointer {
              Sampler.sampleRow(buf.baseAddress!, width: iw, height: ih, toImage: m, y: y, x0: x0, count: count, into: $0.baseAddress!, .reference)
            }
          }
          var worst = 0, worstExact = 0
          for i in 0..<count {
            let xc = Double(x0 + i) + 0.5, yc = Double(y) + 0.5
            let W = xc * m.m13 + yc * m.m23 + m.m33
            for k in 0..<4 {
              worst = max(worst, abs(Int(a[i * 4 + k]) - Int(b[i * 4 + k])))
              if W > 1e-6 {
                let u = (xc * m.m11 + yc * m.m21 + m.m31) / W, v = (xc * m.m12 + yc * m.m22 + m.m32) / W
                worstExact = max(worstExact, abs(Int(b[i * 4 + k]) - SamplerTests.exact(img, u, v, k)))
              }
            }
          }
          #expect(worst <= 1, "SIMD vs reference: \(worst) (image \(iw)×\(ih), map \(m))")
          #expect(worstExact <= 1, "reference vs exact: \(worstExact) (image \(iw)×\(ih))")
        }
      }
    }
  }

  @Test func identityReproducesTheImage() {
    let img = noiseBitmap(width: 19, height: 7, seed: 3, opaque: false)
    var out = [UInt8](repeating: 0, count: 19 * 4)
    for set in [KernelSet.simd, .reference] {
      for y in 0..<7 {
        img.bytes.withUnsafeBufferPointer { buf in
          out.withUnsafeMutableBufferPointer {
            Sampler.sampleRow(buf.baseAddress!, width: 19, height: 7, toImage: .identity, y: y, x0: 0, count: 19, into: $0.baseAddress!, set)
          }
        }
        #expect(Array(img.bytes[(y * 19 * 4)..<((y + 1) * 19 * 4)]) == out, "\(set) row \(y)")
      }
    }
  }
}
