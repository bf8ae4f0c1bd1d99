import Testing
@testable import Raster

@Suite struct KernelTests {
  /// A new bitmap of one colour and a filled rectangle hold that colour's
  /// four bytes at exactly the pixels they cover (widths across the
  /// eight-pixel stores and their tails).
  @Test func fillsSetExactlyTheirPixels() {
    let p = Pixel(r: 1, g: 2, b: 3, a: 4)
    for width in [1, 7, 8, 9, 17] {
      let whole = Bitmap(width: width, height: 3, fill: p)
      #expect(whole.bytes == Array([[UInt8]](repeating: [1, 2, 3, 4], count: width * 3).joined()))
      var part = Bitmap(width: width + 3, height: 4, fill: Pixel(r: 9, g: 9, b: 9, a: 255))
      part.fill(p, x: 2, y: 1, width: width, height: 2)
      for y in 0..<4 {
        for x in 0..<(width + 3) {
          let inside = (2..<(width + 2)).contains(x) && (1..<3).contains(y)
          #expect(part[x, y] == (inside ? p : Pixel(r: 9, g: 9, b: 9, a: 255)), "width \(width) at \(x), \(y)")
        }
      }
    }
  }

  @Test func div255MatchesReferenceRounding() {
    for v in 0...(255 * 255) {
      let s = div255(SIMD8<UInt16>(repeating: UInt16(v)))[0]
      #expect(UInt32(s) == (UInt32(v) + 127) / 255)
      if UInt32(s) != (UInt32(v) + 127) / 255 { break }
    }
  }

  @Test func simdKernelsEqualReference() {
    var rng = SplitMix(seed: 42)
    for n in [0, 1, 3, 4, 5, 17, 64, 101] {
      let src = noiseBitmap(width: max(n, 1), height: 1, seed: rng.next(), opaque: false).bytes
      var mask = (0..<max(n, 1)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      if n > 8 { for i in 0..<4 { mask[i] = 0; mask[i + 4] = 255 } }
      let dst0 = noiseBitmap(width: max(n, 1), height: 1, seed: rng.next(), opaque: false).bytes
      let p = Pixel(r: 40, g: 80, b: 120, a: 200)
      for op in 0..<5 {
        var outs: [[UInt8]] = []
        for set in [KernelSet.simd, .reference] {
          var d = dst0
          d.withUnsafeMutableBufferPointer { dp in
            src.withUnsafeBufferPointer { sp in
              mask.withUnsafeBufferPointer { mp in
                let dd = dp.baseAddress!, ss = sp.baseAddress!, mm = mp.baseAddress!
                switch op {
                case 0: Kernels.blend(dd, ss, n, set)
                case 1: Kernels.blend(dd, ss, n, coverage: 77, set)
                case 2: Kernels.blend(dd, ss, n, mask: mm, set)
                case 3: Kernels.blend(dd, solid: p, n, mask: mm, set)
                default: Kernels.blend(dd, solid: p, n, coverage: 200, set)
                }
              }
            }
          }
          outs.append(d)
        }
        #expect(outs[0] == outs[1], "op \(op) n \(n)")
      }
    }
  }

  /// The cross-fade kernel equals a copy followed by the coverage blend, SIMD and reference.
  @Test func crossfadeKernelEqualsCopyThenBlend() {
    var rng = SplitMix(seed: 9)
    for n in [1, 4, 7, 64, 101] {
      let under = noiseBitmap(width: n, height: 1, seed: rng.next()).bytes
      let src = noiseBitmap(width: n, height: 1, seed: rng.next(), opaque: n % 2 == 0).bytes
      for c: UInt8 in [0, 1, 77, 128, 254, 255] {
        for set in [KernelSet.simd, .reference] {
          var one = [UInt8](repeating: 9, count: n * 4), two = under
          one.withUnsafeMutableBufferPointer { d in
            under.withUnsafeBufferPointer { u in
              src.withUnsafeBufferPointer { s in
                Kernels.blend(d.baseAddress!, under: u.baseAddress!, s.baseAddress!, n, coverage: c, set)
              }
            }
          }
          two.withUnsafeMutableBufferPointer { d in
            src.withUnsafeBufferPointer { s in Kernels.blend(d.baseAddress!, s.baseAddress!, n, coverage: c, .reference) }
          }
          #expect(one == two, "n \(n) c \(c) \(set)")
        }
      }
    }
  }

  /// The opaque cross-fade: SIMD equals the reference, both within 0.86 of
  /// the exact lerp and 0…256 weights reproduce either image at the ends.
  @Test func lerpKernelIsTheRoundedLerp() {
    var rng = SplitMix(seed: 21)
    for n in [1, 5, 64, 103] {
      let under = noiseBitmap(width: n, height: 1, seed: rng.next()).bytes
      let src = noiseBitmap(width: n, height: 1, seed: rng.next()).bytes
      for w: UInt16 in [0, 1, 95, 128, 200, 255, 256] {
        var outs: [[UInt8]] = []
        for set in [KernelSet.simd, .reference] {
          var d = [UInt8](repeating: 9, count: n * 4)
          d.withUnsafeMutableBufferPointer { d in
            under.withUnsafeBufferPointer { u in
              src.withUnsafeBufferPointer { s in
                Kernels.lerp(d.baseAddress!, under: u.baseAddress!, s.baseAddress!, n, weight: w, set)
              }
            }
          }
          outs.append(d)
        }
        #expect(outs[0] == outs[1], "n \(n) w \(w)")
        var worst = 0.0
        for i in 0..<(n * 4) {
          let exact = (Double(src[i]) * Double(w) + Double(under[i]) * Double(256 - w)) / 256
          worst = max(worst, abs(Double(outs[0][i]) - exact))
        }
        #expect(worst <= 0.5, "n \(n) w \(w): \(worst) from the exact lerp")
        if w == 0 { #expect(outs[0] == under) }
        if w == 256 { #expect(outs[0] == src) }
      }
    }
  }

  /// The scaled copy is every byte times the coverage, rounded (`mul255`),
  /// SIMD and reference, every tail length, into another row and in place.
  @Test func scaleMultipliesEveryChannel() {
    var rng = SplitMix(seed: 47)
    for n in [1, 3, 4, 7, 8, 13, 64] {
      let src = noiseBitmap(width: n, height: 1, seed: rng.next(), opaque: n % 2 == 1).bytes
      for c in [UInt8(0), 1, 128, 153, 254, 255] {
        let expected = src.map { UInt8(mul255(UInt32($0), UInt32(c))) }
        for set in [KernelSet.simd, .reference] {
          var out = [UInt8](repeating: 7, count: n * 4)
          out.withUnsafeMutableBufferPointer { d in
            src.withUnsafeBufferPointer { Kernels.scale(d.baseAddress!, $0.baseAddress!, n, coverage: c, set) }
          }
          var inPlace = src
          inPlace.withUnsafeMutableBufferPointer { Kernels.scale($0.baseAddress!, $0.baseAddress!, n, coverage: c, set) }
          #expect(out == expected && inPlace == expected, "n \(n) c \(c) \(set)")
        }
      }
    }
  }

  /// The tinted copy equals a copy then the tint's blend, SIMD and reference, every tail length.
  @Test func tintedCopyEqualsCopyThenBlend() {
    var rng = SplitMix(seed: 31)
    for n in [1, 5, 8, 13, 64, 101] {
      let src = noiseBitmap(width: n, height: 1, seed: rng.next(), opaque: n % 2 == 1).bytes
      for t in [Pixel(r: 0, g: 0, b: 0, a: 85), Pixel(r: 30, g: 60, b: 90, a: 200), Pixel.clear] {
        var expected = src
        expected.withUnsafeMutableBufferPointer { Kernels.blend($0.baseAddress!, solid: t, n, coverage: 255, .reference) }
        for set in [KernelSet.simd, .reference] {
          var out = [UInt8](repeating: 3, count: n * 4)
          out.withUnsafeMutableBufferPointer { d in
            src.withUnsafeBufferPointer { Kernels.copy(d.baseAddress!, $0.baseAddress!, n, tint: t, set) }
          }
          #expect(out == expected, "n \(n) tint \(t) \(set)")
        }
      }
    }
  }

  @Test func opaqueScan() {
    var b = noiseBitmap(width: 37, height: 1, seed: 3).bytes
    b.withUnsafeBufferPointer { #expect(Kernels.isOpaque($0.baseAddress!, 37, .simd)) }
    b[36 * 4 + 3] = 254
    b.withUnsafeBufferPointer { #expect(!Kernels.isOpaque($0.baseAddress!, 37, .simd)) }
    b.withUnsafeBufferPointer { #expect(!Kernels.isOpaque($0.baseAddress!, 37, .reference)) }
    b[36 * 4 + 3] = 255
    b[5 * 4 + 3] = 0
    b.withUnsafeBufferPointer { #expect(!Kernels.isOpaque($0.baseAddress!, 37, .simd)) }
  }
}

/// Coverage → bytes: the SIMD quantizer equals the scalar one, ties and
/// out-of-range values included.
@Suite struct QuantizeTests {
  @Test func simdEqualsScalar() {
    var rng = SplitMix(seed: 5)
    var cov: [Float] = [0, 1, -0.25, 1.5, .nan, .infinity, -.infinity, 0.5 / 255, 1.5 / 255, 254.5 / 255, 0.999, 1e-9]
    for k in 0...255 { cov.append(Float(k) / 255) }
    for _ in 0..<997 { cov.append(Float(rng.unit())) }
    for opacity: Float in [1, 0.5, 0.37, 1 / 255] {
      var outs: [[UInt8]] = []
      for set in [KernelSet.simd, .reference] {
        var m = [UInt8](repeating: 7, count: cov.count)
        cov.withUnsafeMutableBufferPointer { c in
          m.withUnsafeMutableBufferPointer { Executor(kernels: set).quantize(c.baseAddress!, c.count, opacity, into: $0.baseAddress!) }
        }
        outs.append(m)
      }
      #expect(outs[0] == outs[1], "opacity \(opacity)")
      #expect(outs[1][0] == 0 && outs[1][4] == 0 && outs[1][6] == 0 && outs[1][5] == UInt8(255 * opacity + 0.5))
    }
  }

  /// The fused coverage blend equals quantize + the mask blend (the reference), zero runs and tails included.
  @Test func fusedCoverageBlendEqualsQuantizeThenMaskBlend() {
    var rng = SplitMix(seed: 8)
    let scratch = Scratch(width: 128)
    defer { scratch.deallocate() }
    for n in [1, 3, 4, 9, 64, 101] {
      var cov = (0..<n).map { _ in Float(rng.unit() * 1.4 - 0.2) }
      for i in stride(from: 0, to: n, by: 7) { cov[i] = 0 }
      if n >= 8 { for i in 4..<8 { cov[i] = 0 } }  // a whole zero quad is skipped
      let dst = noiseBitmap(width: n, height: 1, seed: rng.next(), opaque: false).bytes
      for p in [Pixel(r: 0, g: 0, b: 0, a: 102), Pixel(r: 200, g: 40, b: 90, a: 255)] {
        for opacity: Float in [1, 0.4] {
          var outs: [[UInt8]] = []
          for set in [KernelSet.simd, .reference] {
            var d = dst
            cov.withUnsafeMutableBufferPointer { c in
              d.withUnsafeMutableBufferPointer {
                Executor(kernels: set).blend($0.baseAddress!, solid: p, n, coverage: c.baseAddress!, opacity: opacity, scratch: scratch)
              }
            }
            outs.append(d)
          }
          #expect(outs[0] == outs[1], "n \(n) \(p) opacity \(opacity)")
        }
      }
    }
  }
}
