import CPrefetch
// Kernels: the per-span pixel loops of the compositor, in two versions.
//
// `KernelSet.simd` processes four pixels at a time as one `SIMD4<UInt32>`
// (128 bits, one pixel per lane). Channels are split into two 16-bit pairs
// per pixel, (R, B) = p & 0x00FF00FF and (G, A) = (p >> 8) & 0x00FF00FF, and
// multiplied as `SIMD8<UInt16>` — every product of two bytes (≤ 65025) fits
// in 16 bits, and SSE2's `pmullw` does eight at once. `KernelSet.reference`
// is the same arithmetic written one channel at a time with `UInt32`; tests
// hold the two equal. Both work on raw pointers hoisted out of the loops by
// the caller: no classes, closures, existentials or allocation inside.
//
// Arithmetic (premultiplied RGBA8 in sRGB space, no linearisation):
//   mul(x, a)  = ⌊(x·a + 127) / 255⌋  — x·a/255 rounded to nearest. x·a/255
//                is never exactly k + ½ (255 is odd), so there are no ties;
//                the SIMD form (v + 128 + ((v + 128) >> 8)) >> 8 gives the
//                same value for every v in 0…65025 (tested exhaustively).
//   coverage   c = round(coverage · opacity · 255) ∈ 0…255 per pixel;
//   source     s′ = mul(s, c) per channel, alpha included;
//   source-over d′ = s′ + mul(d, 255 − s′.a).
// Inputs must be valid premultiplied pixels (each colour ≤ alpha); then no
// result exceeds 255 and the SIMD and reference paths agree exactly.

/// Which implementation of the span kernels to run.
public enum KernelSet: Sendable, Hashable {
  /// Four pixels per step in SIMD lanes (the default).
  case simd
  /// Scalar code, one channel at a time: the reference the SIMD path is tested against.
  case reference
}

/// `x·a/255` rounded to nearest, as the reference kernels compute it.
@inline(__always) func mul255(_ x: UInt32, _ a: UInt32) -> UInt32 { (x * a + 127) / 255 }

/// The SIMD form of `mul255` on products `v = x·a` in 16-bit lanes.
@inline(__always) func div255(_ v: SIMD8<UInt16>) -> SIMD8<UInt16> {
  let t = v &+ 128
  return (t &+ (t &>> 8)) &>> 8
}

// The helpers below keep every multiply in `SIMD8<UInt16>` and use 32-bit
// lanes only for and/or/shift: written this way LLVM emits straight SSE2
// (pand/pmullw/paddw/psrlw, ~50 instructions per four pixels of
// source-over); 32-bit subtractions or `truncatingIfNeeded` conversions
// made it scalarise lanes or call out of line (checked with -emit-assembly).
// These helpers are `@inline(__always)`: left to the inliner, `over` and
// `div255` stayed calls and the coverage blend ran 4× slower (measured).

/// `Int32(x)` (toward zero) of eight floats in 0…2²²: the nearest integer
/// (adding 2²³ rounds away the fraction, exactly), less one where that is
/// above x, read from the float's bits. Swift's own vector conversion from
/// floats goes lane by lane, and `UInt8(x)` per float checks its range, so
/// neither loop vectorises.
@inlinable @inline(__always) public func truncated(_ x: SIMD8<Float>) -> SIMD8<Int32> {
  let magic = SIMD8<Float>(repeating: 8_388_608)
  var nearest = (x + magic) - magic
  nearest = nearest.replacing(with: nearest - 1, where: nearest .> x)
  return unsafeBitCast(nearest + magic, to: SIMD8<Int32>.self) &- 0x4B00_0000
}

@inline(__always) func u16(_ v: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(v, to: SIMD8<UInt16>.self) }
@inline(__always) func u32(_ v: SIMD8<UInt16>) -> SIMD4<UInt32> { unsafeBitCast(v, to: SIMD4<UInt32>.self) }

@inline(__always) func load4(_ p: UnsafePointer<UInt8>) -> SIMD4<UInt32> {
  UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self)
}

@inline(__always) func store4(_ v: SIMD4<UInt32>, _ p: UnsafeMutablePointer<UInt8>) {
  UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<UInt32>.self)
}

/// (a·(256 − w) + b·w + 128) >> 8 on every byte of four pixels (`w` and
/// `iw` = 256 − w in every lane): bytes widened to 16-bit lanes by
/// unpacking two pixels at a time, narrowed back by one saturating pack
/// (the lanes are ≤ 255 after the shift).
@inline(__always) func lerpBytes(
  _ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>, _ w: SIMD8<UInt16>, _ iw: SIMD8<UInt16>
) -> SIMD16<UInt8> {
  let lo = (SIMD8<UInt16>(truncatingIfNeeded: a.lowHalf) &* iw &+ SIMD8<UInt16>(truncatingIfNeeded: b.lowHalf) &* w &+ 128) &>> 8
  let hi = (SIMD8<UInt16>(truncatingIfNeeded: a.highHalf) &* iw &+ SIMD8<UInt16>(truncatingIfNeeded: b.highHalf) &* w &+ 128) &>> 8
  return SIMD16<UInt8>(truncatingIfNeeded: SIMD16<UInt16>(lowHalf: lo, highHalf: hi))
}

/// Four pixels split into (R, B) and (G, A) pairs of 16-bit lanes.
@inline(__always) func split(_ p: SIMD4<UInt32>) -> (rb: SIMD8<UInt16>, ga: SIMD8<UInt16>) {
  (u16(p & 0x00FF_00FF), u16((p &>> 8) & 0x00FF_00FF))
}

/// The inverse of `split`.
@inline(__always) func join(_ rb: SIMD8<UInt16>, _ ga: SIMD8<UInt16>) -> SIMD4<UInt32> {
  u32(rb) | (u32(ga) &<< 8)
}

/// Each pixel's alpha in both of its 16-bit lanes, from the (G, A) pairs.
@inline(__always) func alphaPairs(_ ga: SIMD8<UInt16>) -> SIMD8<UInt16> {
  let x = u32(ga)
  return u16((x & 0xFFFF_0000) | (x &>> 16))
}

/// Four coverage bytes, each in both 16-bit lanes of its pixel.
@inline(__always) func maskPairs(_ m: UnsafePointer<UInt8>) -> SIMD8<UInt16> {
  let w = UnsafeRawPointer(m).loadUnaligned(as: UInt32.self)
  let v = SIMD4<UInt32>(w & 0xFF, (w >> 8) & 0xFF, (w >> 16) & 0xFF, w >> 24)
  return u16(v | (v &<< 16))
}

/// A pixel's channels scaled by pairs of coverage lanes.
@inline(__always) func scaled(
  _ s: (rb: SIMD8<UInt16>, ga: SIMD8<UInt16>), _ m: SIMD8<UInt16>
) -> (rb: SIMD8<UInt16>, ga: SIMD8<UInt16>) {
  (div255(s.rb &* m), div255(s.ga &* m))
}

/// Source-over of split source pixels onto four destination pixels.
@inline(__always) func over(_ s: (rb: SIMD8<UInt16>, ga: SIMD8<UInt16>), _ d: SIMD4<UInt32>) -> SIMD4<UInt32> {
  let ia = 255 &- alphaPairs(s.ga)
  let dd = split(d)
  return join(s.rb &+ div255(dd.rb &* ia), s.ga &+ div255(dd.ga &* ia))
}

/// The span kernels. Pointers address RGBA8 pixels; `count` is in pixels.
enum Kernels {
  // MARK: - Copy and fill (shared: no arithmetic)

  /// `dst[i] = src[i]`.
  @inline(__always) static func copy(_ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int) {
    dst.update(from: src, count: count * 4)
  }

  /// `dst = t + src·(1 − t.a)`: a copy with a solid tint `t` (premultiplied,
  /// coverage already applied) blended over it — a copy followed by
  /// `blend(_:solid:_:coverage:_:)`, in one pass; `dst` may be `src` (each
  /// step stores the pixels it has just read). Out of line, eight pixels
  /// per step (a dimmed snapshot under a turning page: 1% of the page-flip
  /// frame's instructions).
  @inline(never) static func copy(
    _ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int, tint t: Pixel, _ set: KernelSet
  ) {
    if t.a == 0 && t.r == 0 && t.g == 0 && t.b == 0 { return copy(dst, src, count) }
    var i = 0
    if set == .simd {
      let tv = split(SIMD4<UInt32>(repeating: unsafeBitCast(t, to: UInt32.self)))
      while i &+ 8 <= count {
        tv_prefetch(src + (i &* 4 &+ prefetchBytes))
        store4(over(tv, load4(src + i &* 4)), dst + i &* 4)
        store4(over(tv, load4(src + (i &* 4 &+ 16))), dst + (i &* 4 &+ 16))
        i &+= 8
      }
      while i &+ 4 <= count {
        store4(over(tv, load4(src + i &* 4)), dst + i &* 4)
        i &+= 4
      }
    }
    let ia = 255 - UInt32(t.a)
    let tc = (UInt32(t.r), UInt32(t.g), UInt32(t.b), UInt32(t.a))
    while i < count {
      let sp = src + i * 4, d = dst + i * 4
      d[0] = UInt8(tc.0 + mul255(UInt32(sp[0]), ia))
      d[1] = UInt8(tc.1 + mul255(UInt32(sp[1]), ia))
      d[2] = UInt8(tc.2 + mul255(UInt32(sp[2]), ia))
      d[3] = UInt8(tc.3 + mul255(UInt32(sp[3]), ia))
      i += 1
    }
  }

  /// `dst = src·c`, every channel (alpha included): a source at an opacity,
  /// to be blended later through another coverage. `dst` may be `src`.
  @inline(__always) static func scale(
    _ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int, coverage c: UInt8, _ set: KernelSet
  ) {
    var i = 0
    if set == .simd {
      let cv = SIMD8<UInt16>(repeating: UInt16(c))
      while i &+ 4 <= count {
        let s = scaled(split(load4(src + i &* 4)), cv)
        store4(join(s.rb, s.ga), dst + i &* 4)
        i &+= 4
      }
    }
    let cc = UInt32(c)
    while i < count {
      let sp = src + i * 4, d = dst + i * 4
      for k in 0..<4 { d[k] = UInt8(mul255(UInt32(sp[k]), cc)) }
      i += 1
    }
  }

  /// What `copy(_:_:_:tint:_:)` writes for the pixel `p`.
  @inline(__always) static func tinted(_ p: Pixel, _ t: Pixel) -> Pixel {
    let ia = 255 - UInt32(t.a)
    return Pixel(
      r: UInt8(UInt32(t.r) + mul255(UInt32(p.r), ia)), g: UInt8(UInt32(t.g) + mul255(UInt32(p.g), ia)),
      b: UInt8(UInt32(t.b) + mul255(UInt32(p.b), ia)), a: UInt8(UInt32(t.a) + mul255(UInt32(p.a), ia)))
  }

  /// `dst[i] = pixel`.
  /// Sixteen bytes per store (`update(repeating:)` on `Pixel`s stores a
  /// byte at a time).
  @inline(__always) static func fill(_ dst: UnsafeMutablePointer<UInt8>, _ pixel: Pixel, _ count: Int) {
    let word = unsafeBitCast(pixel, to: UInt32.self)
    let four = SIMD4<UInt32>(repeating: word)
    let out = UnsafeMutableRawPointer(dst)
    var i = 0
    while i &+ 8 <= count {
      out.storeBytes(of: four, toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
      out.storeBytes(of: four, toByteOffset: i &* 4 &+ 16, as: SIMD4<UInt32>.self)
      i &+= 8
    }
    while i < count {
      out.storeBytes(of: word, toByteOffset: i &* 4, as: UInt32.self)
      i &+= 1
    }
  }

  /// True when every alpha in the span is 255.
  @inline(__always) static func isOpaque(_ src: UnsafePointer<UInt8>, _ count: Int, _ set: KernelSet) -> Bool {
    var i = 0
    if set == .simd {
      // Eight pixels per step as four UInt64 words ANDed together.
      let raw = UnsafeRawPointer(src)
      var acc0: UInt64 = ~0, acc1: UInt64 = ~0
      while i + 8 <= count {
        let p = raw + i * 4
        acc0 &= p.loadUnaligned(as: UInt64.self) & p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        acc1 &= p.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
          & p.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        i += 8
      }
      let alphas: UInt64 = 0xFF00_0000_FF00_0000
      if (acc0 & acc1 & alphas) != alphas { return false }
    }
    while i < count {
      if src[i * 4 + 3] != 255 { return false }
      i += 1
    }
    return true
  }

  // MARK: - Source-over

  /// `dst = src + dst·(1 − src.a)`.
  @inline(__always) static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int, _ set: KernelSet
  ) {
    var i = 0
    if set == .simd {
      let opaque = SIMD4<UInt32>(repeating: 0xFF00_0000)
      while i &+ 4 <= count {
        let s = load4(src + i &* 4)
        let sa = s & opaque
        if sa == opaque {
          store4(s, dst + i &* 4)
        } else if sa != .zero {
          store4(over(split(s), load4(dst + i &* 4)), dst + i &* 4)
        }
        i &+= 4
      }
    }
    while i < count {
      let s = src + i * 4, d = dst + i * 4
      let ia = 255 - UInt32(s[3])
      for k in 0..<4 { d[k] = UInt8(UInt32(s[k]) + mul255(UInt32(d[k]), ia)) }
      i += 1
    }
  }

  /// `dst = src·c + dst·(1 − src.a·c)` with one coverage `c` for the span.
  @inline(__always) static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int, coverage c: UInt8,
    _ set: KernelSet
  ) {
    if c == 255 { return blend(dst, src, count, set) }
    if c == 0 { return }
    var i = 0
    if set == .simd {
      let cv = SIMD8<UInt16>(repeating: UInt16(c))
      while i &+ 4 <= count {
        let s = scaled(split(load4(src + i &* 4)), cv)
        store4(over(s, load4(dst + i &* 4)), dst + i &* 4)
        i &+= 4
      }
    }
    let cc = UInt32(c)
    while i < count {
      let sp = src + i * 4, d = dst + i * 4
      let sa = mul255(UInt32(sp[3]), cc)
      for k in 0..<4 {
        d[k] = UInt8(mul255(UInt32(sp[k]), cc) + mul255(UInt32(d[k]), 255 - sa))
      }
      i += 1
    }
  }

  /// `dst = src·c + under·(1 − src.a·c)`: `under` copied to `dst`, then
  /// `src` blended at coverage `c` — in one pass (a cross-fade).
  @inline(__always) static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, under: UnsafePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int,
    coverage c: UInt8, _ set: KernelSet
  ) {
    if c == 0 || c == 255 {
      copy(dst, under, count)
      if c == 255 { blend(dst, src, count, set) }
      return
    }
    var i = 0
    if set == .simd {
      let cv = SIMD8<UInt16>(repeating: UInt16(c))
      while i &+ 4 <= count {
        let s = scaled(split(load4(src + i &* 4)), cv)
        store4(over(s, load4(under + i &* 4)), dst + i &* 4)
        i &+= 4
      }
    }
    let cc = UInt32(c)
    while i < count {
      let sp = src + i * 4, u = under + i * 4, d = dst + i * 4
      let sa = mul255(UInt32(sp[3]), cc)
      for k in 0..<4 {
        d[k] = UInt8(mul255(UInt32(sp[k]), cc) + mul255(UInt32(u[k]), 255 - sa))
      }
      i += 1
    }
  }

  /// `dst = (src·w + under·(256 − w) + 128) >> 8` per channel, `w` in
  /// 0…256: the cross-fade of two opaque images, rounded once. (Copy then
  /// coverage blend rounds twice and weighs by c/255: within 1.3 of the
  /// exact lerp; this is within 0.86 — measured over every byte pair at
  /// nine opacities — and a third fewer instructions, which is what a
  /// full-screen cross-fade on two threads of one core is bound by.)
  @inline(never) static func lerp(
    _ dst: UnsafeMutablePointer<UInt8>, under: UnsafePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int,
    weight w: UInt16, _ set: KernelSet
  ) {
    // Out of line (a call per row): inlined into the cross-fade's loop nest
    // it kept its constants in stack slots.
    var i = 0
    if set == .simd {
      let wv = SIMD8<UInt16>(repeating: w), iv = SIMD8<UInt16>(repeating: 256 - w)
      // Sixteen pixels (a cache line of each source) per step (`lerpBytes`).
      @inline(__always) func four(_ o: Int) -> SIMD16<UInt8> {
        lerpBytes(
          UnsafeRawPointer(under).loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self),
          UnsafeRawPointer(src).loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self), wv, iv)
      }
      let out = UnsafeMutableRawPointer(dst)
      while i &+ 16 <= count {
        let o = i &* 4
        tv_prefetch(src + (o &+ prefetchBytes))
        tv_prefetch(under + (o &+ prefetchBytes))
        out.storeBytes(of: four(o), toByteOffset: o, as: SIMD16<UInt8>.self)
        out.storeBytes(of: four(o &+ 16), toByteOffset: o &+ 16, as: SIMD16<UInt8>.self)
        out.storeBytes(of: four(o &+ 32), toByteOffset: o &+ 32, as: SIMD16<UInt8>.self)
        out.storeBytes(of: four(o &+ 48), toByteOffset: o &+ 48, as: SIMD16<UInt8>.self)
        i &+= 16
      }
      while i &+ 4 <= count {
        out.storeBytes(of: four(i &* 4), toByteOffset: i &* 4, as: SIMD16<UInt8>.self)
        i &+= 4
      }
    }
    let ws = UInt32(w), wu = 256 - UInt32(w)
    while i < count {
      let sp = src + i * 4, u = under + i * 4, d = dst + i * 4
      for k in 0..<4 { d[k] = UInt8((UInt32(sp[k]) * ws + UInt32(u[k]) * wu + 128) >> 8) }
      i += 1
    }
  }

  /// `lerp` of one pixel pair: what it writes over a run of each.
  @inline(__always) static func lerp(under u: Pixel, _ s: Pixel, weight w: UInt16) -> Pixel {
    let ws = UInt32(w), wu = 256 - UInt32(w)
    @inline(__always) func c(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((UInt32(a) * ws + UInt32(b) * wu + 128) >> 8) }
    return Pixel(r: c(s.r, u.r), g: c(s.g, u.g), b: c(s.b, u.b), a: c(s.a, u.a))
  }

  // MARK: - Prefetch

  /// How far ahead (bytes) the streaming kernels (`lerp`, tinted `copy`)
  /// prefetch their sources.
  static let prefetchBytes = 1024

  /// Asks for the first `bytes` of a span the next call will read (the
  /// next row's source): the hardware's stream detection restarts at every
  /// row, and a row of half a screen is over before it ramps up (tinted
  /// half-row copies, measured in isolation: 10–20% faster).
  @inline(__always) static func prefetch(_ p: UnsafeRawPointer, bytes: Int = 512) {
    var o = 0
    while o < bytes {
      tv_prefetch(p + o)
      o &+= 64
    }
  }

  /// `dst = src·m[i] + dst·(1 − src.a·m[i])` with a coverage byte per pixel.
  @inline(__always) static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int,
    mask m: UnsafePointer<UInt8>, _ set: KernelSet
  ) {
    var i = 0
    if set == .simd {
      while i &+ 4 <= count {
        if UnsafeRawPointer(m + i).loadUnaligned(as: UInt32.self) != 0 {
          let s = scaled(split(load4(src + i &* 4)), maskPairs(m + i))
          store4(over(s, load4(dst + i &* 4)), dst + i &* 4)
        }
        i &+= 4
      }
    }
    while i < count {
      let sp = src + i * 4, d = dst + i * 4
      let cc = UInt32(m[i])
      let sa = mul255(UInt32(sp[3]), cc)
      for k in 0..<4 {
        d[k] = UInt8(mul255(UInt32(sp[k]), cc) + mul255(UInt32(d[k]), 255 - sa))
      }
      i += 1
    }
  }

  /// `dst = p·m[i] + dst·(1 − p.a·m[i])` for one colour `p` and a coverage byte per pixel.
  @inline(__always) static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, solid p: Pixel, _ count: Int, mask m: UnsafePointer<UInt8>,
    _ set: KernelSet
  ) {
    var i = 0
    if set == .simd {
      let pv = split(SIMD4<UInt32>(repeating: unsafeBitCast(p, to: UInt32.self)))
      while i &+ 4 <= count {
        if UnsafeRawPointer(m + i).loadUnaligned(as: UInt32.self) != 0 {
          store4(over(scaled(pv, maskPairs(m + i)), load4(dst + i &* 4)), dst + i &* 4)
        }
        i &+= 4
      }
    }
    let pc = (UInt32(p.r), UInt32(p.g), UInt32(p.b), UInt32(p.a))
    while i < count {
      let d = dst + i * 4
      let cc = UInt32(m[i])
      let sa = mul255(pc.3, cc), ia = 255 - sa
      d[0] = UInt8(mul255(pc.0, cc) + mul255(UInt32(d[0]), ia))
      d[1] = UInt8(mul255(pc.1, cc) + mul255(UInt32(d[1]), ia))
      d[2] = UInt8(mul255(pc.2, cc) + mul255(UInt32(d[2]), ia))
      d[3] = UInt8(sa + mul255(UInt32(d[3]), ia))
      i += 1
    }
  }

  /// `dst = p·c + dst·(1 − p.a·c)` for one colour and one coverage.
  @inline(__always) static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, solid p: Pixel, _ count: Int, coverage c: UInt8, _ set: KernelSet
  ) {
    if c == 0 { return }
    let cc = UInt32(c)
    let s = Pixel(
      r: UInt8(mul255(UInt32(p.r), cc)), g: UInt8(mul255(UInt32(p.g), cc)),
      b: UInt8(mul255(UInt32(p.b), cc)), a: UInt8(mul255(UInt32(p.a), cc)))
    if s.a == 255 { return fill(dst, s, count) }
    var i = 0
    if set == .simd {
      let sv = split(SIMD4<UInt32>(repeating: unsafeBitCast(s, to: UInt32.self)))
      while i &+ 4 <= count {
        store4(over(sv, load4(dst + i &* 4)), dst + i &* 4)
        i &+= 4
      }
    }
    let ia = 255 - UInt32(s.a)
    while i < count {
      let d = dst + i * 4
      d[0] = UInt8(UInt32(s.r) + mul255(UInt32(d[0]), ia))
      d[1] = UInt8(UInt32(s.g) + mul255(UInt32(d[1]), ia))
      d[2] = UInt8(UInt32(s.b) + mul255(UInt32(d[2]), ia))
      d[3] = UInt8(UInt32(s.a) + mul255(UInt32(d[3]), ia))
      i += 1
    }
  }
}
