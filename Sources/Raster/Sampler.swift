import CPrefetch
import Geometry
import Glibc

// Sampler: fills a row of source pixels from a bitmap seen through a
// homography (device pixel coordinates → image pixel coordinates). Pixel
// centres sit at +0.5 on both sides, so an integer translation at scale 1
// reproduces the image exactly; coordinates outside the image clamp to its
// edge (the draw's shape, not the sampler, decides where the image ends);
// pixels behind the eye (W ≤ 0) are transparent.
//
// Bilinear arithmetic (both paths): u = X/W − 0.5 clamped to [0, width − 1]
// (sampling clamped to the edge), g = round(256·u), i = min(g >> 8, width −
// 2) and weight wx = g − 256·i ∈ 0…256, so the pair (i, i + 1) is always
// inside the image (likewise v, wy); then per channel, in integers,
//   top = (p00·(256 − wx) + p10·wx + 128) >> 8,  bottom likewise (p01, p11),
//   out = (top·(256 − wy) + bottom·wy + 128) >> 8.
// Every intermediate fits in 16 bits (255·256 = 65280), so the SIMD path
// runs the products as `SIMD8<UInt16>` on the (R, B)/(G, A) pairs of four
// pixels, like the blend kernels. Premultiplied input stays valid (each
// step is monotone). Weights quantised to 1/256 put the result within ±1
// of exact Double bilinear filtering.
//
// The SIMD path (`KernelSet.simd`) walks the projective map incrementally:
// per row, (X, Y, W) at the span's start and its per-pixel steps (m11, m12,
// m13); per four pixels, the start in Double then lanes in Float, one SIMD
// divide, 24.8 fixed point by the 1.5·2²³ magic number (baseline x86-64
// has no roundps or cvtps2dq with a chosen rounding), and each pixel's two
// texel pairs (p00 p10, p01 p11) read as two 8-byte loads. `KernelSet.reference` computes the
// same arithmetic per pixel and per channel, in Double coordinates; tests
// hold the two within ±1. Images narrower or shorter than 2 pixels, and
// spans that cross W ≤ 0, take the reference path.

enum Sampler {
  /// Samples `count` pixels of row `y` starting at column `x0` into `dst`.
  static func sampleRow(
    _ img: UnsafePointer<UInt8>, width w: Int, height h: Int, toImage m: Homography, y: Int, x0: Int,
    count: Int, into dst: UnsafeMutablePointer<UInt8>, _ set: KernelSet,
    tint: (color: Pixel, coverage: UInt8)? = nil
  ) {
    guard count > 0 else { return }
    if set == .simd && w >= 2 && h >= 2 && w < 1 << 20 && h < 1 << 20 {
      let yc = Double(y) + 0.5
      let xs = Double(x0) + 0.5
      let wStart = xs * m.m13 + yc * m.m23 + m.m33
      let wEnd = wStart + Double(count - 1) * m.m13
      // W is linear along the row: positive at both ends ⇒ positive throughout.
      if wStart > 1e-9 && wEnd > 1e-9 {
        if let tint, tint.coverage > 0 {
          // The tint, premultiplied by its coverage, blended in registers:
          // what `Kernels.blend(_:solid:_:coverage:_:)` does to the row.
          let c = UInt32(tint.coverage), p = tint.color
          let s = Pixel(
            r: UInt8(mul255(UInt32(p.r), c)), g: UInt8(mul255(UInt32(p.g), c)),
            b: UInt8(mul255(UInt32(p.b), c)), a: UInt8(mul255(UInt32(p.a), c)))
          sampleRowSIMD(
            img, width: w, height: h, toImage: m, y: y, x0: x0, count: count, into: dst, tint: s, tinted: true)
        } else {
          sampleRowSIMD(
            img, width: w, height: h, toImage: m, y: y, x0: x0, count: count, into: dst, tint: .clear,
            tinted: false)
        }
        return
      }
    }
    sampleRowReference(img, width: w, height: h, toImage: m, y: y, x0: x0, count: count, into: dst)
    if let tint { Kernels.blend(dst, solid: tint.color, count, coverage: tint.coverage, set) }
  }

  // MARK: - SIMD

  /// round(x) for 0 ≤ x < 2²² (nearest, ties to even).
  @inline(__always) static func roundedInt(_ x: SIMD4<Float>) -> SIMD4<Int32> {
    unsafeBitCast(x + 12_582_912, to: SIMD4<Int32>.self) &- 0x4B40_0000
  }

  /// Index and 8-bit weight of coordinates clamped to [0, n − 1]: g =
  /// round(256·u), i = min(g >> 8, n − 2), w = g − 256·i.
  @inline(__always) static func indexAndWeight(_ u: SIMD4<Float>, _ n: Int32) -> (SIMD4<Int32>, SIMD4<Int32>) {
    let g = roundedInt(u * 256)
    var i = g &>> 8
    i.replace(with: n &- 2, where: i .> n &- 2)
    return (i, g &- (i &<< 8))
  }

  @inline(__always) static func pairs(_ v: SIMD4<Int32>) -> SIMD8<UInt16> {
    let u = unsafeBitCast(v, to: SIMD4<UInt32>.self)
    return u16(u | (u &<< 16))
  }

  /// (a·(256 − w) + b·w + 128) >> 8 on 16-bit lanes.
  @inline(__always) static func lerp8(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ w: SIMD8<UInt16>, _ iw: SIMD8<UInt16>) -> SIMD8<UInt16> {
    (a &* iw &+ b &* w &+ 128) &>> 8
  }

  /// Four texel pairs, each read as one 8-byte load (left texel in the low
  /// half), split into the four left texels and the four right ones.
  @inline(__always) static func texelPairs(
    _ t0: UInt64, _ t1: UInt64, _ t2: UInt64, _ t3: UInt64
  ) -> (left: SIMD4<UInt32>, right: SIMD4<UInt32>) {
    let a = unsafeBitCast(SIMD2<UInt64>(t0, t1), to: SIMD4<UInt32>.self)
    let b = unsafeBitCast(SIMD2<UInt64>(t2, t3), to: SIMD4<UInt32>.self)
    return (SIMD4<UInt32>(a[0], a[2], b[0], b[2]), SIMD4<UInt32>(a[1], a[3], b[1], b[3]))
  }

  /// Four pixels lerped channel by channel (`lerp8` on both pairs, joined):
  /// the (G, A) sums masked with 0xFF00 are already the results shifted
  /// into place, so `join`'s shift and `lerp8`'s cancel out.
  @inline(__always) static func lerp(
    _ a: (rb: SIMD8<UInt16>, ga: SIMD8<UInt16>), _ b: (rb: SIMD8<UInt16>, ga: SIMD8<UInt16>),
    _ w: SIMD8<UInt16>, _ iw: SIMD8<UInt16>
  ) -> SIMD4<UInt32> {
    let rb = (a.rb &* iw &+ b.rb &* w &+ 128) &>> 8
    let ga = (a.ga &* iw &+ b.ga &* w &+ 128) & 0xFF00
    return u32(rb) | u32(ga)
  }

  static func sampleRowSIMD(
    _ img: UnsafePointer<UInt8>, width w: Int, height h: Int, toImage m: Homography, y: Int, x0: Int,
    count: Int, into dst: UnsafeMutablePointer<UInt8>, tint: Pixel, tinted: Bool
  ) {
    let tintPairs = split(SIMD4<UInt32>(repeating: unsafeBitCast(tint, to: UInt32.self)))
    let yc = Double(y) + 0.5
    let xs = Double(x0) + 0.5
    let bu = xs * m.m11 + yc * m.m21 + m.m31
    let bv = xs * m.m12 + yc * m.m22 + m.m32
    let bw = xs * m.m13 + yc * m.m23 + m.m33
    let lanes = SIMD4<Float>(0, 1, 2, 3)
    let su = lanes * Float(m.m11), sv = lanes * Float(m.m12), sw = lanes * Float(m.m13)
    let projective = m.m13 != 0 || m.m23 != 0
    let wInv = 1 / bw  // affine: W is the same for the whole row
    let maxU = SIMD4<Float>(repeating: Float(w - 1)), maxV = SIMD4<Float>(repeating: Float(h - 1))
    let zero = SIMD4<Float>()
    let stride = w * 4
    let raw = UnsafeRawPointer(img)
    let out = UnsafeMutableRawPointer(dst)
    let nw = Int32(w), nh = Int32(h)
    var tail = SIMD4<UInt32>()
    var i = 0
    while i < count {
      let fi = Double(i)
      var u: SIMD4<Float>, v: SIMD4<Float>
      if projective {
        let X = SIMD4<Float>(repeating: Float(bu + fi * m.m11)) + su
        let Y = SIMD4<Float>(repeating: Float(bv + fi * m.m12)) + sv
        let W = SIMD4<Float>(repeating: Float(bw + fi * m.m13)) + sw
        let r = 1 / W
        u = X * r
        v = Y * r
      } else {
        u = (SIMD4<Float>(repeating: Float((bu + fi * m.m11) * wInv)) + su * Float(wInv))
        v = (SIMD4<Float>(repeating: Float((bv + fi * m.m12) * wInv)) + sv * Float(wInv))
      }
      u -= 0.5
      v -= 0.5
      u.replace(with: zero, where: .!(u .>= zero))  // also catches NaN
      u.replace(with: maxU, where: .!(u .<= maxU))
      v.replace(with: zero, where: .!(v .>= zero))
      v.replace(with: maxV, where: .!(v .<= maxV))
      let (ix, wx) = indexAndWeight(u, nw)
      let (iy, wy) = indexAndWeight(v, nh)
      // Two 8-byte loads per pixel: (p00, p10) on row iy, (p01, p11) on row iy + 1.
      let o0 = Int(iy[0]) &* stride &+ Int(ix[0]) &* 4, o1 = Int(iy[1]) &* stride &+ Int(ix[1]) &* 4
      let o2 = Int(iy[2]) &* stride &+ Int(ix[2]) &* 4, o3 = Int(iy[3]) &* stride &+ Int(ix[3]) &* 4
      let t0 = raw.loadUnaligned(fromByteOffset: o0, as: UInt64.self)
      let t1 = raw.loadUnaligned(fromByteOffset: o1, as: UInt64.self)
      let t2 = raw.loadUnaligned(fromByteOffset: o2, as: UInt64.self)
      let t3 = raw.loadUnaligned(fromByteOffset: o3, as: UInt64.self)
      let b0 = raw.loadUnaligned(fromByteOffset: o0 &+ stride, as: UInt64.self)
      let b1 = raw.loadUnaligned(fromByteOffset: o1 &+ stride, as: UInt64.self)
      let b2 = raw.loadUnaligned(fromByteOffset: o2 &+ stride, as: UInt64.self)
      let b3 = raw.loadUnaligned(fromByteOffset: o3 &+ stride, as: UInt64.self)
      let (p00, p10) = texelPairs(t0, t1, t2, t3), (p01, p11) = texelPairs(b0, b1, b2, b3)
      let wxp = pairs(wx), iwxp = 256 &- wxp
      let wyp = pairs(wy), iwyp = 256 &- wyp
      let a = split(p00), b = split(p10), c = split(p01), d = split(p11)
      let topRB = lerp8(a.rb, b.rb, wxp, iwxp), topGA = lerp8(a.ga, b.ga, wxp, iwxp)
      let botRB = lerp8(c.rb, d.rb, wxp, iwxp), botGA = lerp8(c.ga, d.ga, wxp, iwxp)
      var px = lerp((topRB, topGA), (botRB, botGA), wyp, iwyp)
      if tinted { px = over(tintPairs, px) }
      if i &+ 4 <= count {
        out.storeBytes(of: px, toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
      } else {
        tail = px
        for k in 0..<(count &- i) { out.storeBytes(of: tail[k], toByteOffset: (i &+ k) &* 4, as: UInt32.self) }
      }
      i &+= 4
    }
  }

  // MARK: - Reference

  /// The reference: the same arithmetic per pixel and channel, coordinates in Double.
  static func sampleRowReference(
    _ img: UnsafePointer<UInt8>, width w: Int, height h: Int, toImage m: Homography, y: Int, x0: Int,
    count: Int, into dst: UnsafeMutablePointer<UInt8>
  ) {
    let yc = Double(y) + 0.5
    let wm = w - 1, hm = h - 1
    for i in 0..<count {
      let xc = Double(x0 + i) + 0.5
      let X = xc * m.m11 + yc * m.m21 + m.m31
      let Y = xc * m.m12 + yc * m.m22 + m.m32
      let W = xc * m.m13 + yc * m.m23 + m.m33
      let d = dst + i * 4
      guard W > 1e-9 else {
        for k in 0..<4 { d[k] = 0 }
        continue
      }
      let u = min(max(X / W - 0.5, 0), Double(w - 1)), v = min(max(Y / W - 0.5, 0), Double(h - 1))
      let gx = Int((u * 256).rounded(.toNearestOrEven)), gy = Int((v * 256).rounded(.toNearestOrEven))
      let xa = min(gx >> 8, max(w - 2, 0)), ya = min(gy >> 8, max(h - 2, 0))
      let wx = gx - xa * 256, wy = gy - ya * 256
      let xb = min(xa + 1, wm), yb = min(ya + 1, hm)
      for k in 0..<4 {
        let p00 = Int(img[(ya * w + xa) * 4 + k]), p10 = Int(img[(ya * w + xb) * 4 + k])
        let p01 = Int(img[(yb * w + xa) * 4 + k]), p11 = Int(img[(yb * w + xb) * 4 + k])
        let top = (p00 * (256 - wx) + p10 * wx + 128) >> 8
        let bottom = (p01 * (256 - wx) + p11 * wx + 128) >> 8
        d[k] = UInt8((top * (256 - wy) + bottom * wy + 128) >> 8)
      }
    }
  }
}

// MARK: - Columns

// Pages turning about a vertical axis and axis-aligned scaled snapshots have
// maps whose u and W depend on x alone (m21 = m23 = 0): each device column
// reads one image column pair (ix, ix + 1) with one weight wx, and v is
// linear down the column. Walking such a draw row by row reads the image
// diagonally when v also depends on x (the bench's −60° page: 4.5 image
// rows per device pixel at the hinge), so every texel load misses L1;
// walking it eight columns at a time (two `ColumnQuad`s) down the band's
// rows reads neighbouring texels in turn, does the u arithmetic once per
// column, and caches each column's horizontal lerps for the rows that
// share them. Same bilinear arithmetic as `sampleRowSIMD` (coordinates in
// Double per column, Float per pixel), so the reference bound is the same
// ±1. A column walk reads every image row in a different 4 KiB page, a
// pattern the hardware prefetchers do not follow, so the fill prefetches
// its lanes' texels `prefetchRows` rows ahead (a header-only C shim:
// Swift has no spelling for the hint).
//
// Flat UI repeats rows: most image rows of a snapshot equal the row above,
// so most cache rows equal the one before in all eight lanes. `fill` marks
// where each run of equal cache rows starts; a device row whose lanes all
// read rows (j, j + 1) inside one run is that run's first row as it is —
// the vertical lerp of two equal values is the value, exactly — so it is
// stored without the gathers and lerps; and since v is monotone down a
// column, the device rows after it that stay in the run are found by
// doubling steps and stored as they are. Same bytes either way.

extension Sampler {
  /// A full run of one row to sample: `y`, columns [x0, x1).
  typealias Span = SIMD3<Int32>

  /// True when `m` maps device columns to image columns (u and W depend on
  /// x only) and the columns [x0, x1) are all in front of the eye, so
  /// `sampleColumns` applies.
  static func samplesByColumns(_ m: Homography, width w: Int, height h: Int, x0: Int, x1: Int) -> Bool {
    guard m.m21 == 0, m.m23 == 0, w >= 2, h >= 2, w < 1 << 20, h < 1 << 20, x0 < x1 else { return false }
    let wa = (Double(x0) + 0.5) * m.m13 + m.m33, wb = (Double(x1) - 0.5) * m.m13 + m.m33
    return wa > 1e-9 && wb > 1e-9
  }

  /// Rows of horizontal lerps `sampleColumns` caches per group of columns.
  static let columnCacheRows = 128

  /// Bytes of `sampleColumns`' cache: `columnCacheRows` + 1 rows of 32
  /// bytes, then a byte per row, the first row of its run of equal rows.
  static let columnCacheBytes = (columnCacheRows + 1) * 33
  static let runStartOffset = (columnCacheRows + 1) * 32

  /// Four adjacent device columns of a map that keeps columns: each one's
  /// texel pair offset and weight in the image row, and v = a + b·yc.
  struct ColumnQuad {
    var a: SIMD4<Float>, b: SIMD4<Float>
    /// Texel pair byte offsets in a row, and the horizontal weights.
    var c0: Int, c1: Int, c2: Int, c3: Int
    var wxp: SIMD8<UInt16>, iwxp: SIMD8<UInt16>
    /// The first cached image row of each column.
    var lo = SIMD4<Int32>()

    @inline(__always) init(gx: Int, _ m: Homography, width w: Int) {
      let xc = SIMD4<Double>(repeating: Double(gx)) + SIMD4<Double>(0.5, 1.5, 2.5, 3.5)
      let iW = 1 / (xc * m.m13 + SIMD4(repeating: m.m33))
      var u = SIMD4<Float>((xc * m.m11 + SIMD4(repeating: m.m31)) * iW - 0.5)
      a = SIMD4<Float>((xc * m.m12 + SIMD4(repeating: m.m32)) * iW - 0.5)
      b = SIMD4<Float>(m.m22 * iW)
      let zero = SIMD4<Float>(), maxU = SIMD4<Float>(repeating: Float(w - 1))
      u.replace(with: zero, where: .!(u .>= zero))
      u.replace(with: maxU, where: .!(u .<= maxU))
      let (ix, wx) = indexAndWeight(u, Int32(w))
      wxp = pairs(wx)
      iwxp = 256 &- wxp
      let cx = ix &* 4
      c0 = Int(cx[0])
      c1 = Int(cx[1])
      c2 = Int(cx[2])
      c3 = Int(cx[3])
    }

    /// v on device row `y` (unclamped).
    @inline(__always) func v(_ y: Int) -> SIMD4<Float> { a + b * (Float(y) + 0.5) }

    /// Row index and weight of each column on device row `y`, v clamped to
    /// the image unless the caller knows it stays inside.
    @inline(__always) func rowAndWeight(_ y: Int, clamped: Bool, height h: Int) -> (SIMD4<Int32>, SIMD4<Int32>) {
      var v = v(y)
      if clamped {
        let zero = SIMD4<Float>(), maxV = SIMD4<Float>(repeating: Float(h - 1))
        v.replace(with: zero, where: .!(v .>= zero))
        v.replace(with: maxV, where: .!(v .<= maxV))
      }
      return indexAndWeight(v, Int32(h))
    }

    /// The four pixels at cache rows `iy − lo` and the next, lerped by `wy`,
    /// from the cache (`Sampler.fill`'s layout: row j of the quad's lanes every 32 bytes).
    @inline(__always) func sample(
      _ iy: SIMD4<Int32>, _ wy: SIMD4<Int32>, cache: UnsafeRawPointer, pitch: Int
    ) -> SIMD4<UInt32> {
      let j = (iy &- lo) &* Int32(truncatingIfNeeded: pitch) &+ SIMD4<Int32>(0, 4, 8, 12)
      let j0 = Int(j[0]), j1 = Int(j[1]), j2 = Int(j[2]), j3 = Int(j[3])
      let top = SIMD4<UInt32>(
        cache.load(fromByteOffset: j0, as: UInt32.self), cache.load(fromByteOffset: j1, as: UInt32.self),
        cache.load(fromByteOffset: j2, as: UInt32.self), cache.load(fromByteOffset: j3, as: UInt32.self))
      let bottom = SIMD4<UInt32>(
        cache.load(fromByteOffset: j0 &+ pitch, as: UInt32.self), cache.load(fromByteOffset: j1 &+ pitch, as: UInt32.self),
        cache.load(fromByteOffset: j2 &+ pitch, as: UInt32.self), cache.load(fromByteOffset: j3 &+ pitch, as: UInt32.self))
      let wyp = pairs(wy), iwyp = 256 &- wyp
      let t = split(top), bt = split(bottom)
      return lerp(t, bt, wyp, iwyp)
    }
  }

  /// Rows ahead of the one being read that `fill` asks the CPU to prefetch.
  static let prefetchRows = 16

  /// Both quads' horizontal lerps of their image rows into `cache` (32
  /// bytes a row), prefetching the rows `prefetchRows` ahead: a column
  /// walk reads every row in a different 4 KiB page, which the hardware
  /// prefetchers do not follow. Only the first, fifth and last texel pairs
  /// are prefetched: eight adjacent columns read one to three cache lines
  /// of a row unless shrunk more than threefold, and a lane that starts a
  /// row or two lower reads the rows its neighbours prefetched. A row whose
  /// texel pairs are the row before's (on flat UI, most rows of a column)
  /// is its lerps again, not worked out; every row is still read, in turn:
  /// a walk down every row is what the hardware's stride prefetcher
  /// follows, where reading only the rows that differ would leave it behind.
  @inline(__always) static func fill(
    _ q: (ColumnQuad, ColumnQuad), _ raw: UnsafeRawPointer, stride: Int, rows: Int, cache: UnsafeMutableRawPointer
  ) {
    let runStart = (cache + runStartOffset).assumingMemoryBound(to: UInt8.self)
    let a = q.0, b = q.1
    let o0 = Int(a.lo[0]) &* stride &+ a.c0, o1 = Int(a.lo[1]) &* stride &+ a.c1
    let o2 = Int(a.lo[2]) &* stride &+ a.c2, o3 = Int(a.lo[3]) &* stride &+ a.c3
    let o4 = Int(b.lo[0]) &* stride &+ b.c0, o5 = Int(b.lo[1]) &* stride &+ b.c1
    let o6 = Int(b.lo[2]) &* stride &+ b.c2, o7 = Int(b.lo[3]) &* stride &+ b.c3
    let ahead = prefetchRows &* stride
    var row = raw
    var out = cache
    var last = (SIMD4<UInt32>(), SIMD4<UInt32>()), start: UInt8 = 0
    // The texel pairs the last lerps were worked out from.
    var read = (SIMD2<UInt64>(), SIMD2<UInt64>(), SIMD2<UInt64>(), SIMD2<UInt64>())
    for j in 0..<rows {
      let next = row + ahead
      tv_prefetch(next + o0)
      tv_prefetch(next + o4)
      tv_prefetch(next + (o7 &+ 4))
      @inline(__always) func pair(_ o: Int, _ o2: Int) -> SIMD2<UInt64> {
        SIMD2(
          row.loadUnaligned(fromByteOffset: o, as: UInt64.self), row.loadUnaligned(fromByteOffset: o2, as: UInt64.self))
      }
      let p0 = pair(o0, o1), p1 = pair(o2, o3), p2 = pair(o4, o5), p3 = pair(o6, o7)
      row += stride
      if j > 0 && ((p0 ^ read.0) | (p1 ^ read.1) | (p2 ^ read.2) | (p3 ^ read.3)) == SIMD2<UInt64>() {
        out.storeBytes(of: last.0, as: SIMD4<UInt32>.self)
        out.storeBytes(of: last.1, toByteOffset: 16, as: SIMD4<UInt32>.self)
        out += 32
        runStart[j] = start
        continue
      }
      read = (p0, p1, p2, p3)
      let (l0, r0) = texelPairs(p0[0], p0[1], p1[0], p1[1]), (l1, r1) = texelPairs(p2[0], p2[1], p3[0], p3[1])
      let x0 = lerp(split(l0), split(r0), a.wxp, a.iwxp), x1 = lerp(split(l1), split(r1), b.wxp, b.iwxp)
      out.storeBytes(of: x0, as: SIMD4<UInt32>.self)
      out.storeBytes(of: x1, toByteOffset: 16, as: SIMD4<UInt32>.self)
      out += 32
      if j == 0 || ((x0 ^ last.0) | (x1 ^ last.1)) != SIMD4<UInt32>() { start = UInt8(truncatingIfNeeded: j) }
      runStart[j] = start
      last = (x0, x1)
    }
  }

  /// Samples the spans (rows of one band, in increasing `y`, columns within
  /// [x0, x1)) straight into `target`, eight columns at a time down the
  /// rows, with an optional tint (premultiplied, coverage applied) blended
  /// over in registers. Each column's horizontal lerps of the image rows it
  /// needs are computed once into `cache` (`columnCacheBytes`) and shared
  /// by the device rows that read them — every row pair is read once, not
  /// twice (the bottom row of one device row is the top row of the next);
  /// a device row inside a run of equal rows is the run's row as it is
  /// (`reusesRuns: false` lerps every row instead: the same bytes, for
  /// tests). Requires `samplesByColumns(m, …, x0, x1)`.
  static func sampleColumns(
    _ img: UnsafePointer<UInt8>, width w: Int, height h: Int, toImage m: Homography,
    spans: UnsafePointer<Span>, count: Int, x0: Int, x1: Int, cache: UnsafeMutableRawPointer,
    target: Target, tint: Pixel, tinted: Bool, reusesRuns: Bool = true
  ) {
    guard count > 0 else { return }
    let tintPairs = split(SIMD4<UInt32>(repeating: unsafeBitCast(tint, to: UInt32.self)))
    let stride = w * 4
    let raw = UnsafeRawPointer(img)
    let zero = SIMD4<Float>(), maxV = SIMD4<Float>(repeating: Float(h - 1))
    let pitch = 32
    var gx = x0
    while gx < x1 {
      let gEnd = gx + 8
      // The spans that reach this group.
      var first = -1, last = -1
      for k in 0..<count where Int(spans[k].z) > gx && Int(spans[k].y) < gEnd {
        if first < 0 { first = k }
        last = k
      }
      if first < 0 {
        gx = gEnd
        continue
      }
      var quads = (ColumnQuad(gx: gx, m, width: w), ColumnQuad(gx: gx + 4, m, width: w))
      // The image rows each column needs, from the first and last spans (v is linear down a column).
      let yFirst = Int(spans[first].x), yLast = Int(spans[last].x)
      var rows = 0, inside = true
      for half in 0..<2 {
        let quad = half == 0 ? quads.0 : quads.1
        let (r0, _) = quad.rowAndWeight(yFirst, clamped: true, height: h)
        let (r1, _) = quad.rowAndWeight(yLast, clamped: true, height: h)
        let lo = r0.replacing(with: r1, where: r1 .< r0)
        let hi = r0.replacing(with: r1, where: r1 .> r0) &+ 1  // iy + 1 ≤ h − 1
        rows = max(rows, Int((hi &- lo).max()) + 1)
        let vf = quad.v(yFirst), vl = quad.v(yLast)
        inside = inside && all(vf .>= zero) && all(vl .>= zero) && all(vf .<= maxV) && all(vl .<= maxV)
        if half == 0 { quads.0.lo = lo } else { quads.1.lo = lo }
      }
      guard rows <= columnCacheRows else {
        // Shrunk vertically: few rows are shared; fall back to the row sampler.
        for k in first...last {
          let span = spans[k]
          let s = max(Int(span.y), gx), e = min(Int(span.z), gEnd)
          guard s < e else { continue }
          sampleRow(img, width: w, height: h, toImage: m, y: Int(span.x), x0: s, count: e - s,
            into: target.pixel(s, Int(span.x)), .simd, tint: tinted ? (tint, 255) : nil)
        }
        gx = gEnd
        continue
      }
      // The cache: row j holds, in lane l of each quad, its column's
      // horizontal lerp of image row lo[l] + j. A column needing fewer
      // rows starts lower when `rows` would pass the image's last row
      // (hi ≤ h − 1, so it still covers [lo, hi]): every row read is inside.
      let top = Int32(h - rows)
      quads.0.lo.replace(with: top, where: quads.0.lo .> top)
      quads.1.lo.replace(with: top, where: quads.1.lo .> top)
      // A constant from here: the nested functions below capture it by
      // value (a captured `var` is a heap box per group, with an
      // exclusivity check at each access).
      let q = quads
      fill(q, raw, stride: stride, rows: rows, cache: cache)
      let runStart = UnsafePointer((cache + runStartOffset).assumingMemoryBound(to: UInt8.self))
      let clamped = !inside
      /// The cache rows device row `y`'s lanes read, lowest and highest (j and j + 1 for each lane's j).
      @inline(__always) func window(_ iy0: SIMD4<Int32>, _ iy1: SIMD4<Int32>) -> (low: Int, high: Int) {
        let j0 = iy0 &- q.0.lo, j1 = iy1 &- q.1.lo
        let low = j0.replacing(with: j1, where: j1 .< j0), high = j0.replacing(with: j1, where: j1 .> j0)
        return (Int(low.min()), Int(high.max()) &+ 1)
      }
      /// Whether device row `t`'s window and `anchor` lie in one run.
      @inline(__always) func sharesRun(_ t: Int, _ anchor: (low: Int, high: Int)) -> Bool {
        let w = window(
          q.0.rowAndWeight(t, clamped: clamped, height: h).0, q.1.rowAndWeight(t, clamped: clamped, height: h).0)
        return Int(runStart[max(w.high, anchor.high)]) <= min(w.low, anchor.low)
      }
      // Device rows up to `runEnd` read rows in the run of the last row
      // found in one: they are its pixels (`runPixels`, tinted). v is
      // monotone down a column, the same way in every lane (its slope has
      // the sign of m22), so the rows that share a row's run are
      // consecutive: found by doubling steps, then halving.
      var runEnd = Int.min, runPixels = (SIMD4<UInt32>(), SIMD4<UInt32>())
      let yLastSpan = Int(spans[last].x)
      for k in first...last {
        let span = spans[k]
        let s = Int(span.y), e = Int(span.z)
        if e <= gx || s >= gEnd { continue }
        let y = Int(span.x)
        var p0: SIMD4<UInt32>, p1: SIMD4<UInt32>
        if y <= runEnd {
          (p0, p1) = runPixels
        } else {
          let (iy0, wy0) = q.0.rowAndWeight(y, clamped: clamped, height: h)
          let (iy1, wy1) = q.1.rowAndWeight(y, clamped: clamped, height: h)
          let rows = window(iy0, iy1)
          let inRun = reusesRuns && Int(runStart[rows.high]) <= rows.low
          if inRun {
            // Every lane's two rows lie in one run of equal rows: its first row is the result.
            let row = UnsafeRawPointer(cache) + rows.low &* pitch
            p0 = row.load(as: SIMD4<UInt32>.self)
            p1 = row.load(fromByteOffset: 16, as: SIMD4<UInt32>.self)
          } else {
            p0 = q.0.sample(iy0, wy0, cache: cache, pitch: pitch)
            p1 = q.1.sample(iy1, wy1, cache: cache + 16, pitch: pitch)
          }
          if tinted {
            p0 = over(tintPairs, p0)
            p1 = over(tintPairs, p1)
          }
          if inRun {
            runPixels = (p0, p1)
            var good = y, bad = Int.max, step = 1
            while good < yLastSpan {
              let t = min(good &+ step, yLastSpan)
              guard sharesRun(t, rows) else {
                bad = t
                break
              }
              good = t
              step &<<= 1
            }
            if bad != Int.max {
              while bad &- good > 1 {
                let t = (good &+ bad) >> 1
                if sharesRun(t, rows) { good = t } else { bad = t }
              }
            }
            runEnd = good
          }
        }
        let out = UnsafeMutableRawPointer(target.pixel(gx, y))
        if s <= gx && e >= gEnd {
          out.storeBytes(of: p0, as: SIMD4<UInt32>.self)
          out.storeBytes(of: p1, toByteOffset: 16, as: SIMD4<UInt32>.self)
        } else {
          for l in max(s - gx, 0)..<min(e - gx, 8) {
            out.storeBytes(of: l < 4 ? p0[l] : p1[l &- 4], toByteOffset: l &* 4, as: UInt32.self)
          }
        }
      }
      gx = gEnd
    }
  }
}

// MARK: - Scaled rows

// An axis-aligned scale (and translation) — a snapshot flying between two
// frames — maps every device row to one image row pair (iy, iy + 1) with
// one weight wy, and every column to one (ix, wx). The horizontal step of
// the bilinear filter, top = lerp(p00, p10, wx) and bottom = lerp(p01,
// p11, wx), then depends on the image row only: it is computed once per
// image row into a row cache (`ScaledRows`) and shared by every device row
// that reads it (three of them at a 3× enlargement; at scale 1 the bottom
// row of one device row is the top row of the next), and each device row
// is one vertical lerp of two cached rows. The bilinear arithmetic of
// `sampleRowSIMD`, with u worked out per column in Double (where the row
// sampler steps it along the run), so the reference bound is the same ±1.
// Straight full runs (`sampleScaled`) go to the target, tinted in
// registers; the runs of a draw that blends (an image with transparent
// corners, a fading snapshot) are sampled row by row into scratch
// (`sampleScaledRow`).

extension Sampler {
  /// True when `m` is an axis-aligned scale and translation (`ScaledRows` applies).
  static func samplesScaled(_ m: Homography, width w: Int, height h: Int) -> Bool {
    m.m12 == 0 && m.m13 == 0 && m.m21 == 0 && m.m23 == 0 && m.m33 > 1e-9 && w >= 2 && h >= 2
      && w < 1 << 20 && h < 1 << 20
  }

  /// The scaled-row cache over device columns [x0, x1): each column's
  /// texel pair offset and weight, and the horizontal lerps of the last two
  /// image rows read. `rows` holds two rows of `rowCapacity` ≥ x1 − x0 + 4
  /// pixels; `columns`, 16-byte aligned, 8 bytes per pixel of
  /// `rowCapacity`. Requires `samplesScaled(m, …)`.
  ///
  /// Two cases do less, with the same bytes (a lerp with weight 0 or 256
  /// is exactly one of its ends): where every column's weight is 0 or 256
  /// and the texels they take are consecutive (scale 1, a whole-pixel
  /// horizontal move: a sheet sliding up), the image's own rows are read,
  /// nothing filled; and a device row whose vertical weight is 0 or 256
  /// (a whole-pixel vertical move: a screen pushed sideways) is one image
  /// row's lerps, copied.
  struct ScaledRows {
    let raw: UnsafeRawPointer
    let stride: Int
    let height: Int
    let x0: Int, x1: Int
    let columns: UnsafeMutableRawPointer
    /// The map's vertical scale and shift, and 1/W.
    let m22: Double, m32: Double, iW: Double
    /// The byte offset in an image row of column x0's texel when the
    /// columns read whole consecutive texels (nothing is filled then).
    let shift: Int?
    /// Two filled rows and the image rows they hold (−1: none).
    var slotA: UnsafeMutableRawPointer, slotB: UnsafeMutableRawPointer
    var rowA = -1, rowB = -1
    /// The bytes of an image row the columns read (`rowsEqual`).
    let compared: Range<Int>
    /// An image row found unequal to the next (−1: none yet).
    var unequalRow = -1
    /// Per image row, if known: whether it holds the bytes of the row above
    /// (`SolidRuns`); those rows are equal wherever they are read.
    let repeatsAbove: UnsafePointer<Bool>?

    init(
      _ img: UnsafePointer<UInt8>, width w: Int, height h: Int, toImage m: Homography, x0: Int, x1: Int,
      rows: UnsafeMutablePointer<UInt8>, rowCapacity: Int, columns: UnsafeMutableRawPointer,
      repeatsAbove: UnsafePointer<Bool>? = nil
    ) {
      precondition(x1 - x0 + 4 <= rowCapacity, "row cache too small")
      precondition(Int(bitPattern: columns) % 16 == 0, "column table must be 16-byte aligned")
      raw = UnsafeRawPointer(img)
      stride = w * 4
      height = h
      self.repeatsAbove = repeatsAbove
      self.x0 = x0
      self.x1 = x1
      self.columns = columns
      let iW = 1 / m.m33
      self.iW = iW
      m22 = m.m22
      m32 = m.m32
      slotA = UnsafeMutableRawPointer(rows)
      slotB = UnsafeMutableRawPointer(rows + rowCapacity * 4)
      // Each group of four columns: texel byte offsets in the row (SIMD4<Int32>), then weights (SIMD8<UInt16>).
      let zero = SIMD4<Float>(), maxU = SIMD4<Float>(repeating: Float(w - 1))
      let lanes = SIMD4<Double>(0.5, 1.5, 2.5, 3.5)
      var first: Int32 = -1
      var whole = true
      var lowTexel = Int32.max, highTexel = Int32.min
      var x = x0
      while x < x1 {
        let xc = SIMD4<Double>(repeating: Double(x)) + lanes
        var u = SIMD4<Float>((xc * m.m11 + SIMD4(repeating: m.m31)) * iW - 0.5)
        u.replace(with: zero, where: .!(u .>= zero))
        u.replace(with: maxU, where: .!(u .<= maxU))
        let (ix, wx) = indexAndWeight(u, Int32(w))
        let entry = (x &- x0) &* 8
        columns.storeBytes(of: ix &* 4, toByteOffset: entry, as: SIMD4<Int32>.self)
        columns.storeBytes(of: pairs(wx), toByteOffset: entry &+ 16, as: SIMD8<UInt16>.self)
        lowTexel = min(lowTexel, ix.min())
        highTexel = max(highTexel, ix.max())
        if whole {
          // The texel each column takes when its weight is 0 or 256.
          let texel = ix &+ (wx &>> 8)
          if first < 0 { first = texel[0] }
          let expected = SIMD4<Int32>(repeating: first &+ Int32(x &- x0)) &+ SIMD4<Int32>(0, 1, 2, 3)
          let inside = SIMD4<Int32>(0, 1, 2, 3) .< SIMD4<Int32>(repeating: Int32(x1 &- x))
          whole = !any(inside .& ((wx .!= 0 .& wx .!= 256) .| texel .!= expected))
        }
        x &+= 4
      }
      shift = whole ? Int(first) * 4 : nil
      compared = shift.map { $0..<($0 + (x1 - x0) * 4) } ?? (Int(lowTexel) * 4)..<(Int(highTexel) * 4 + 8)
    }

    /// The image row pair and weight device row `y` reads.
    @inline(__always) func rowAndWeight(_ y: Int) -> (iy: Int, wy: Int) {
      var v = SIMD4<Float>(repeating: Float((Double(y) + 0.5) * m22 * iW + m32 * iW - 0.5))
      let zero = SIMD4<Float>(), maxV = SIMD4<Float>(repeating: Float(height - 1))
      v.replace(with: zero, where: .!(v .>= zero))
      v.replace(with: maxV, where: .!(v .<= maxV))
      let (iyv, wyv) = indexAndWeight(v, Int32(height))
      return (Int(iyv[0]), Int(wyv[0]))
    }

    /// The image rows a device row at `rowAndWeight` reads: one where its weight is 0 or 256.
    static func rowsRead(_ iy: Int, _ wy: Int) -> ClosedRange<Int> {
      wy == 0 ? iy...iy : wy == 256 ? (iy + 1)...(iy + 1) : iy...(iy + 1)
    }

    /// Whether image rows `r` and `r + 1` are equal where the columns read them.
    mutating func rowsEqual(_ r: Int) -> Bool {
      if let repeatsAbove, repeatsAbove[r + 1] { return true }
      if r == unequalRow { return false }
      let a = raw + r * stride + compared.lowerBound
      if memcmp(a, a + stride, compared.count) == 0 { return true }
      unequalRow = r
      return false
    }

    /// Extends `run`, image rows equal where the columns read them, up to
    /// row `r`; false (and `run` as far as it got) at a row unequal to the next.
    mutating func extend(_ run: inout ClosedRange<Int>, to r: Int) -> Bool {
      while run.upperBound < r {
        guard rowsEqual(run.upperBound) else { return false }
        run = run.lowerBound...(run.upperBound + 1)
      }
      return true
    }

    /// The horizontal lerps of image row `r` over the columns, into `row`.
    @inline(__always) func fill(_ row: UnsafeMutableRawPointer, imageRow r: Int) {
      let line = raw + r * stride
      var x = 0
      let n = x1 - x0
      while x < n {
        let cx = columns.load(fromByteOffset: x &* 8, as: SIMD4<Int32>.self)
        let wxp = columns.load(fromByteOffset: x &* 8 &+ 16, as: SIMD8<UInt16>.self), iwxp = 256 &- wxp
        let t0 = line.loadUnaligned(fromByteOffset: Int(cx[0]), as: UInt64.self)
        let t1 = line.loadUnaligned(fromByteOffset: Int(cx[1]), as: UInt64.self)
        let t2 = line.loadUnaligned(fromByteOffset: Int(cx[2]), as: UInt64.self)
        let t3 = line.loadUnaligned(fromByteOffset: Int(cx[3]), as: UInt64.self)
        let (left, right) = texelPairs(t0, t1, t2, t3)
        row.storeBytes(of: lerp(split(left), split(right), wxp, iwxp), toByteOffset: x &* 4, as: SIMD4<UInt32>.self)
        x &+= 4
      }
    }

    /// Image row `r`'s lerps at column x0 (the image row itself when the
    /// columns are whole texels), filling the slot that does not hold
    /// image row `keeping` when neither holds `r`.
    @inline(__always) mutating func lerps(_ r: Int, keeping: Int) -> UnsafeRawPointer {
      if let shift { return raw + (r &* stride &+ shift) }
      if rowA == r { return UnsafeRawPointer(slotA) }
      if rowB == r { return UnsafeRawPointer(slotB) }
      if rowA == keeping {
        fill(slotB, imageRow: r)
        rowB = r
        return UnsafeRawPointer(slotB)
      }
      fill(slotA, imageRow: r)
      rowA = r
      return UnsafeRawPointer(slotA)
    }

    /// Columns [s, e) of device row `y` into `out`, tinted when `tinted`.
    mutating func sample(
      _ y: Int, _ s: Int, _ e: Int, into out: UnsafeMutableRawPointer,
      tint: (rb: SIMD8<UInt16>, ga: SIMD8<UInt16>), tinted: Bool
    ) {
      let (iy, wy) = rowAndWeight(y)
      sample(iy, wy, s, e, into: out, tint: tint, tinted: tinted)
    }

    /// Columns [s, e) of the device row at image row `iy` and weight `wy` (`rowAndWeight`).
    mutating func sample(
      _ iy: Int, _ wy: Int, _ s: Int, _ e: Int, into out: UnsafeMutableRawPointer,
      tint: (rb: SIMD8<UInt16>, ga: SIMD8<UInt16>), tinted: Bool
    ) {
      let n = e &- s, offset = (s &- x0) &* 4
      if wy == 0 || wy == 256 {
        // One image row: its lerps as they are.
        let row = wy == 0 ? iy : iy &+ 1
        let t = lerps(row, keeping: -1) + offset
        if !tinted {
          out.copyMemory(from: t, byteCount: n &* 4)
          return
        }
        var x = 0
        while x &+ 4 <= n {
          out.storeBytes(
            of: over(tint, t.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self)), toByteOffset: x &* 4,
            as: SIMD4<UInt32>.self)
          x &+= 4
        }
        while x < n {
          let px = over(tint, SIMD4<UInt32>(repeating: t.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)))
          out.storeBytes(of: px[0], toByteOffset: x &* 4, as: UInt32.self)
          x &+= 1
        }
        return
      }
      let t = lerps(iy, keeping: iy &+ 1) + offset, b = lerps(iy &+ 1, keeping: iy) + offset
      let wyp = pairs(SIMD4<Int32>(repeating: Int32(wy))), iwyp = 256 &- wyp
      @inline(__always) func pixels(_ top: SIMD4<UInt32>, _ bottom: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let px = lerp(split(top), split(bottom), wyp, iwyp)
        return tinted ? over(tint, px) : px
      }
      var x = 0
      while x &+ 4 <= n {
        let px = pixels(
          t.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self),
          b.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self))
        out.storeBytes(of: px, toByteOffset: x &* 4, as: SIMD4<UInt32>.self)
        x &+= 4
      }
      // The last pixels one at a time: the lerps may be the image's own
      // row, which ends there.
      while x < n {
        let px = pixels(
          SIMD4<UInt32>(repeating: t.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)),
          SIMD4<UInt32>(repeating: b.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)))
        out.storeBytes(of: px[0], toByteOffset: x &* 4, as: UInt32.self)
        x &+= 1
      }
    }
  }

  /// Samples the spans (in increasing `y`) straight into `target`, with an
  /// optional tint blended over in registers, through a `ScaledRows` over
  /// the spans' columns (`rows`, `rowCapacity` and `columns` as it takes
  /// them). Requires `samplesScaled(m, …)`.
  ///
  /// Flat UI repeats rows: a device row whose image rows are all equal
  /// (where the columns read them) is that row's lerps — the vertical lerp
  /// of two equal values is the value — so the device rows after it that
  /// read rows of the same run are copies of it, made by copying its
  /// pixels in the target (`reusesRuns: false` samples every row: the same
  /// bytes, for tests).
  static func sampleScaled(
    _ img: UnsafePointer<UInt8>, width w: Int, height h: Int, toImage m: Homography,
    spans: UnsafePointer<Span>, count: Int, rows: UnsafeMutablePointer<UInt8>, rowCapacity: Int,
    columns: UnsafeMutableRawPointer, target: Target, tint: Pixel, tinted: Bool, reusesRuns: Bool = true,
    repeatsAbove: UnsafePointer<Bool>? = nil
  ) {
    guard count > 0 else { return }
    var ux0 = Int(spans[0].y), ux1 = Int(spans[0].z)
    for k in 1..<count {
      ux0 = min(ux0, Int(spans[k].y))
      ux1 = max(ux1, Int(spans[k].z))
    }
    let tintPairs = split(SIMD4<UInt32>(repeating: unsafeBitCast(tint, to: UInt32.self)))
    var cache = ScaledRows(
      img, width: w, height: h, toImage: m, x0: ux0, x1: ux1, rows: rows, rowCapacity: rowCapacity, columns: columns,
      repeatsAbove: repeatsAbove)
    // The device row stored from a run of equal image rows, its columns, and the run.
    var source = (y: -1, s: 0, e: 0), run = 0...0
    for k in 0..<count {
      let span = spans[k]
      let y = Int(span.x), s = Int(span.y), e = Int(span.z)
      guard s < e else { continue }
      let out = UnsafeMutableRawPointer(target.pixel(s, y))
      guard reusesRuns else {
        cache.sample(y, s, e, into: out, tint: tintPairs, tinted: tinted)
        continue
      }
      let (iy, wy) = cache.rowAndWeight(y)
      let read = ScaledRows.rowsRead(iy, wy)
      if source.y >= 0 && s >= source.s && e <= source.e && read.lowerBound >= run.lowerBound
        && cache.extend(&run, to: read.upperBound)
      {
        out.copyMemory(from: UnsafeRawPointer(target.pixel(s, source.y)), byteCount: (e - s) * 4)
        continue
      }
      cache.sample(iy, wy, s, e, into: out, tint: tintPairs, tinted: tinted)
      run = read.lowerBound...read.lowerBound
      source = cache.extend(&run, to: read.upperBound) ? (y, s, e) : (-1, 0, 0)
    }
  }

  /// Columns [x0, x0 + count) of device row `y` into `dst` through `cache`
  /// (rows in increasing `y`, columns inside the cache's): what
  /// `sampleRow` writes there, within ±1.
  static func sampleScaledRow(
    _ cache: inout ScaledRows, y: Int, x0: Int, count: Int, into dst: UnsafeMutablePointer<UInt8>
  ) {
    guard count > 0 else { return }
    cache.sample(y, x0, x0 + count, into: UnsafeMutableRawPointer(dst), tint: split(SIMD4<UInt32>()), tinted: false)
  }
}
