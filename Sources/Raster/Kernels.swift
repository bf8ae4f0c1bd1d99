// Kernels: the per-span pixel loops of the compositor, in two versions.
//
// `Kernels.simd` processes four pixels at a time as `SIMD16<UInt16>` (one
// lane per byte; every product of two bytes, 255 · 255 = 65025, fits in 16
// bits, and SSE2's `pmullw` multiplies eight lanes at once). `Kernels.reference`
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
// With valid premultiplied input (each colour ≤ alpha) no result exceeds 255.

/// Which implementation of the span kernels to run.
public enum KernelSet: Sendable, Hashable {
  /// Four pixels per step in `SIMD16<UInt16>` lanes (the default).
  case simd
  /// Scalar code, one channel at a time: the reference the SIMD path is tested against.
  case reference
}

/// `x·a/255` rounded to nearest, as the reference kernels compute it.
@inlinable func mul255(_ x: UInt32, _ a: UInt32) -> UInt32 { (x * a + 127) / 255 }

/// The SIMD form of `mul255` on a product `v = x·a`.
@inlinable func div255(_ v: SIMD16<UInt16>) -> SIMD16<UInt16> {
  let t = v &+ 128
  return (t &+ (t &>> 8)) &>> 8
}

@inlinable func load16(_ p: UnsafePointer<UInt8>) -> SIMD16<UInt16> {
  SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self))
}

@inlinable func store16(_ v: SIMD16<UInt16>, _ p: UnsafeMutablePointer<UInt8>) {
  UnsafeMutableRawPointer(p).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: v), as: SIMD16<UInt8>.self)
}

/// Lanes 3, 7, 11, 15 (the four alphas) each repeated over their pixel.
@inlinable func broadcastAlpha(_ s: SIMD16<UInt16>) -> SIMD16<UInt16> {
  SIMD16(s[3], s[3], s[3], s[3], s[7], s[7], s[7], s[7],
         s[11], s[11], s[11], s[11], s[15], s[15], s[15], s[15])
}

/// Four coverage bytes, each repeated over its pixel's four lanes.
@inlinable func broadcastMask(_ m: UnsafePointer<UInt8>) -> SIMD16<UInt16> {
  let a = UInt16(m[0]), b = UInt16(m[1]), c = UInt16(m[2]), d = UInt16(m[3])
  return SIMD16(a, a, a, a, b, b, b, b, c, c, c, c, d, d, d, d)
}

/// The span kernels. Pointers address RGBA8 pixels; `count` is in pixels.
@usableFromInline enum Kernels {
  // MARK: - Copy and fill (shared: no arithmetic)

  /// `dst[i] = src[i]`.
  @inlinable static func copy(_ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int) {
    dst.update(from: src, count: count * 4)
  }

  /// `dst[i] = pixel`.
  @inlinable static func fill(_ dst: UnsafeMutablePointer<UInt8>, _ pixel: Pixel, _ count: Int) {
    UnsafeMutableRawPointer(dst).bindMemory(to: Pixel.self, capacity: count)
      .update(repeating: pixel, count: count)
  }

  /// True when every alpha in the span is 255.
  @inlinable static func isOpaque(_ src: UnsafePointer<UInt8>, _ count: Int, _ set: KernelSet) -> Bool {
    var i = 0
    if set == .simd {
      let full = SIMD16<UInt8>(repeating: 255)
      let alphaLanes = SIMD16<UInt8>(0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255)
      var acc = SIMD16<UInt8>(repeating: 255)
      while i + 4 <= count {
        let v = UnsafeRawPointer(src + i * 4).loadUnaligned(as: SIMD16<UInt8>.self)
        acc &= v | ~alphaLanes
        i += 4
      }
      if acc != full { return false }
    }
    while i < count {
      if src[i * 4 + 3] != 255 { return false }
      i += 1
    }
    return true
  }

  // MARK: - Source-over

  /// `dst = src + dst·(1 − src.a)`.
  @inlinable static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int, _ set: KernelSet
  ) {
    var i = 0
    if set == .simd {
      while i + 4 <= count {
        let s = load16(src + i * 4)
        let sa = broadcastAlpha(s)
        if sa == SIMD16(repeating: 255) {
          store16(s, dst + i * 4)
        } else if sa != SIMD16(repeating: 0) {
          let d = load16(dst + i * 4)
          store16(s &+ div255(d &* (255 &- sa)), dst + i * 4)
        }
        i += 4
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
  @inlinable static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int, coverage c: UInt8,
    _ set: KernelSet
  ) {
    if c == 255 { return blend(dst, src, count, set) }
    if c == 0 { return }
    var i = 0
    if set == .simd {
      let cv = SIMD16<UInt16>(repeating: UInt16(c))
      while i + 4 <= count {
        let s = div255(load16(src + i * 4) &* cv)
        let d = load16(dst + i * 4)
        store16(s &+ div255(d &* (255 &- broadcastAlpha(s))), dst + i * 4)
        i += 4
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

  /// `dst = src·m[i] + dst·(1 − src.a·m[i])` with a coverage byte per pixel.
  @inlinable static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, _ count: Int,
    mask m: UnsafePointer<UInt8>, _ set: KernelSet
  ) {
    var i = 0
    if set == .simd {
      while i + 4 <= count {
        let mv = broadcastMask(m + i)
        if mv != SIMD16(repeating: 0) {
          let s = div255(load16(src + i * 4) &* mv)
          let d = load16(dst + i * 4)
          store16(s &+ div255(d &* (255 &- broadcastAlpha(s))), dst + i * 4)
        }
        i += 4
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
  @inlinable static func blend(
    _ dst: UnsafeMutablePointer<UInt8>, solid p: Pixel, _ count: Int, mask m: UnsafePointer<UInt8>,
    _ set: KernelSet
  ) {
    var i = 0
    if set == .simd {
      let pv = SIMD16<UInt16>(
        UInt16(p.r), UInt16(p.g), UInt16(p.b), UInt16(p.a), UInt16(p.r), UInt16(p.g), UInt16(p.b),
        UInt16(p.a), UInt16(p.r), UInt16(p.g), UInt16(p.b), UInt16(p.a), UInt16(p.r), UInt16(p.g),
        UInt16(p.b), UInt16(p.a))
      while i + 4 <= count {
        let mv = broadcastMask(m + i)
        if mv != SIMD16(repeating: 0) {
          let s = div255(pv &* mv)
          let d = load16(dst + i * 4)
          store16(s &+ div255(d &* (255 &- broadcastAlpha(s))), dst + i * 4)
        }
        i += 4
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
  @inlinable static func blend(
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
      let sv = SIMD16<UInt16>(
        UInt16(s.r), UInt16(s.g), UInt16(s.b), UInt16(s.a), UInt16(s.r), UInt16(s.g), UInt16(s.b),
        UInt16(s.a), UInt16(s.r), UInt16(s.g), UInt16(s.b), UInt16(s.a), UInt16(s.r), UInt16(s.g),
        UInt16(s.b), UInt16(s.a))
      let ia = SIMD16<UInt16>(repeating: 255 - UInt16(s.a))
      while i + 4 <= count {
        let d = load16(dst + i * 4)
        store16(sv &+ div255(d &* ia), dst + i * 4)
        i += 4
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
