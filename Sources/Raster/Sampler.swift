import Geometry

// Sampler: fills a row of source pixels from a bitmap seen through a
// homography (device pixel coordinates → image pixel coordinates). Pixel
// centres sit at +0.5 on both sides, so an integer translation at scale 1
// reproduces the image exactly; bilinear weights are `u − 0.5 − ⌊u − 0.5⌋`
// (as tiny-skia and pixman); coordinates outside the image clamp to its
// edge (the draw's shape, not the sampler, decides where the image ends);
// pixels behind the eye (W ≤ 0) are transparent.

enum Sampler {
  /// Samples `count` pixels of row `y` starting at column `x0` into `dst`.
  static func sampleRow(
    _ img: UnsafePointer<UInt8>, width w: Int, height h: Int, toImage m: Homography, y: Int, x0: Int,
    count: Int, into dst: UnsafeMutablePointer<UInt8>, _ set: KernelSet
  ) {
    let yc = Double(y) + 0.5
    let xs = Double(x0) + 0.5
    let bu = xs * m.m11 + yc * m.m21 + m.m31
    let bv = xs * m.m12 + yc * m.m22 + m.m32
    let bw = xs * m.m13 + yc * m.m23 + m.m33
    let wm = w - 1, hm = h - 1
    let affine = m.m13 == 0
    switch set {
    case .simd:
      let pixels = UnsafeRawPointer(img)
      for i in 0..<count {
        let fi = Double(i)
        var u = bu + fi * m.m11, v = bv + fi * m.m12
        if !affine {
          let W = bw + fi * m.m13
          if !(W > 1e-12) {
            UnsafeMutableRawPointer(dst + i * 4).storeBytes(of: 0, as: UInt32.self)
            continue
          }
          let r = 1 / W
          u *= r
          v *= r
        } else if bw != 1 {
          u /= bw
          v /= bw
        }
        u -= 0.5
        v -= 0.5
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let tx = Float(u - fu), ty = Float(v - fv)
        let ix = clampedInt(fu, -1, w), iy = clampedInt(fv, -1, h)
        let xa = min(max(ix, 0), wm), xb = min(max(ix + 1, 0), wm)
        let ya = min(max(iy, 0), hm), yb = min(max(iy + 1, 0), hm)
        let p00 = texel(pixels, ya * w + xa), p10 = texel(pixels, ya * w + xb)
        let p01 = texel(pixels, yb * w + xa), p11 = texel(pixels, yb * w + xb)
        let top = p00 + (p10 - p00) * tx
        let bottom = p01 + (p11 - p01) * tx
        let c = top + (bottom - top) * ty
        // Round to nearest (even) by the magic-number trick: 1.5·2²³.
        let bits = unsafeBitCast(c + 12582912.0, to: SIMD4<UInt32>.self) & 0xFF
        let packed = bits[0] | bits[1] << 8 | bits[2] << 16 | bits[3] << 24
        UnsafeMutableRawPointer(dst + i * 4).storeBytes(of: packed, as: UInt32.self)
      }
    case .reference:
      for i in 0..<count {
        let xc = Double(x0 + i) + 0.5
        let X = xc * m.m11 + yc * m.m21 + m.m31
        let Y = xc * m.m12 + yc * m.m22 + m.m32
        let W = xc * m.m13 + yc * m.m23 + m.m33
        let d = dst + i * 4
        guard W > 1e-12 else {
          for k in 0..<4 { d[k] = 0 }
          continue
        }
        let u = X / W - 0.5, v = Y / W - 0.5
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let tx = u - fu, ty = v - fv
        let ix = clampedInt(fu, -1, w), iy = clampedInt(fv, -1, h)
        let xa = min(max(ix, 0), wm), xb = min(max(ix + 1, 0), wm)
        let ya = min(max(iy, 0), hm), yb = min(max(iy + 1, 0), hm)
        for k in 0..<4 {
          let p00 = Double(img[(ya * w + xa) * 4 + k]), p10 = Double(img[(ya * w + xb) * 4 + k])
          let p01 = Double(img[(yb * w + xa) * 4 + k]), p11 = Double(img[(yb * w + xb) * 4 + k])
          let top = p00 + (p10 - p00) * tx, bottom = p01 + (p11 - p01) * tx
          d[k] = UInt8(min(max((top + (bottom - top) * ty).rounded(), 0), 255))
        }
      }
    }
  }

  @inline(__always) static func texel(_ p: UnsafeRawPointer, _ index: Int) -> SIMD4<Float> {
    SIMD4<Float>(p.loadUnaligned(fromByteOffset: index * 4, as: SIMD4<UInt8>.self))
  }
}
