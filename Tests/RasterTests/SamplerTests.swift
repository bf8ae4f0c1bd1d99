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

  /// Maps that keep device columns (pages turning about a vertical axis,
  /// scales), as `Sampler.samplesByColumns` takes them: device → image.
  static func columnMaps(_ rng: inout SplitMix) -> [Homography] {
    var out: [Homography] = [.scale(x: 0.31, y: 0.29), .translation(x: -3.75, y: 2.5).concatenating(.scale(x: 3.2, y: 3.1))]
    for _ in 0..<12 {
      // A flat layer has z = 0: perspective (m34) applies after the rotation.
      var perspective = Transform3D.identity
      perspective.m34 = -0.004 * rng.unit()
      let t = Transform3D.rotation(y: (rng.unit() - 0.5) * 2.6).concatenating(perspective)
      let page = Homography(flattening: t).concatenating(.translation(x: rng.unit() * 20, y: rng.unit() * 20 - 10))
      out.append(page.inverted()!)
    }
    // Shrunk 17× vertically: more rows per column than `sampleColumns` caches (its fallback).
    out.append(out[3].concatenating(.scale(x: 1, y: 17)))
    // Scale 1 moved by whole pixels across (the scaled rows read the
    // image's own rows), by whole pixels down (one image row per device
    // row), and past the image's last row (clamped: weight 256).
    out += [.translation(x: 3, y: 0.4), .translation(x: 0.3, y: -2), .translation(x: 0.25, y: 40)]
    return out
  }

  /// `spans` of `img` seen through `m` into a `tw × th` target of 7s, by
  /// the scaled-row cache where `m` is a scale, else by the column walk.
  static func sampleSpans(
    _ img: Bitmap, _ m: Homography, _ spans: [Sampler.Span], width tw: Int, height th: Int, tint: Pixel?,
    reusesRuns: Bool = true
  ) -> [UInt8] {
    let (iw, ih) = (img.width, img.height)
    var out = [UInt8](repeating: 7, count: tw * th * 4)
    let scratch = Scratch(width: tw)
    defer { scratch.deallocate() }
    img.bytes.withUnsafeBufferPointer { buf in
      out.withUnsafeMutableBufferPointer { o in
        let target = Target(base: o.baseAddress!, stride: tw * 4, box: PixelBox(x0: 0, y0: 0, x1: tw, y1: th))
        spans.withUnsafeBufferPointer { sp in
          if Sampler.samplesScaled(m, width: iw, height: ih) {
            Sampler.sampleScaled(
              buf.baseAddress!, width: iw, height: ih, toImage: m, spans: sp.baseAddress!, count: sp.count,
              rows: scratch.rows, rowCapacity: scratch.width, columns: scratch.columns, target: target,
              tint: tint ?? .clear, tinted: tint != nil, reusesRuns: reusesRuns)
          } else {
            Sampler.sampleColumns(
              buf.baseAddress!, width: iw, height: ih, toImage: m, spans: sp.baseAddress!, count: sp.count,
              x0: 0, x1: tw, cache: scratch.columnCache, target: target, tint: tint ?? .clear,
              tinted: tint != nil, reusesRuns: reusesRuns)
          }
        }
      }
    }
    return out
  }

  /// The column walk and the scaled-row cache write exactly the pixels of
  /// their spans, each within ±1 of the reference (tint included).
  @Test func columnsAndScaledRowsMatchReference() {
    var rng = SplitMix(seed: 11)
    let (tw, th) = (53, 21)
    for (iw, ih) in [(37, 29), (2, 2), (64, 3), (20, 300), (56, 9)] {
      let img = noiseBitmap(width: iw, height: ih, seed: rng.next(), opaque: true)
      for m in SamplerTests.columnMaps(&rng) {
        // Spans: a run per row with ragged ends, some rows skipped, one row with two runs.
        var spans: [Sampler.Span] = []
        for y in 2..<19 where y % 5 != 3 {
          let s = 1 + (y * 7) % 9, e = tw - 1 - (y * 5) % 11
          if y == 8 {
            spans.append(Sampler.Span(Int32(y), Int32(s), Int32(20)))
            spans.append(Sampler.Span(Int32(y), Int32(23), Int32(e)))
          } else {
            spans.append(Sampler.Span(Int32(y), Int32(s), Int32(e)))
          }
        }
        guard Sampler.samplesByColumns(m, width: iw, height: ih, x0: 0, x1: tw) else { continue }
        for tint in [nil, Pixel(r: 20, g: 0, b: 40, a: 90)] {
          let scaled = Sampler.samplesScaled(m, width: iw, height: ih)
          let out = SamplerTests.sampleSpans(img, m, spans, width: tw, height: th, tint: tint)
          let (worst, untouched) = SamplerTests.compare(out, img, m, spans, width: tw, height: th, tint: tint)
          #expect(worst <= 1, "\(scaled ? "scaled" : "columns") vs reference: \(worst) (image \(iw)×\(ih), map \(m))")
          #expect(untouched, "wrote outside its spans (map \(m))")
        }
      }
    }
  }

  /// The largest channel difference of `out` (`sampleSpans`' result) from
  /// the row sampler's reference inside `spans`, and whether every byte
  /// outside them is still 7.
  static func compare(
    _ out: [UInt8], _ img: Bitmap, _ m: Homography, _ spans: [Sampler.Span], width tw: Int, height th: Int,
    tint: Pixel?
  ) -> (worst: Int, untouched: Bool) {
    var worst = 0, untouched = true
    for y in 0..<th {
      var row = [UInt8](repeating: 0, count: tw * 4)
      img.bytes.withUnsafeBufferPointer { buf in
        row.withUnsafeMutableBufferPointer {
          Sampler.sampleRowReference(
            buf.baseAddress!, width: img.width, height: img.height, toImage: m, y: y, x0: 0, count: tw,
            into: $0.baseAddress!)
          if let tint { Kernels.blend($0.baseAddress!, solid: tint, tw, coverage: 255, .reference) }
        }
      }
      for x in 0..<tw {
        let inSpan = spans.contains { Int($0.x) == y && Int($0.y) <= x && x < Int($0.z) }
        for k in 0..<4 {
          let got = Int(out[(y * tw + x) * 4 + k])
          if inSpan {
            worst = max(worst, abs(got - Int(row[x * 4 + k])))
          } else if got != 7 {
            untouched = false
          }
        }
      }
    }
    return (worst, untouched)
  }

  /// Rows that repeat the row above (flat UI) are stored from their run
  /// without lerping — by the column walk, which finds the device rows
  /// that share a run by doubling steps, and by the scaled rows, which copy
  /// the run's first device row: the bytes are those of lerping every row,
  /// on images of runs 1–12 rows tall, some rows differing from the one
  /// above in a single pixel, under every column map (upside down too) and
  /// scale, with rows skipped and a row of two spans, tinted and not. Both
  /// ways reuse the lerps of image rows whose texels repeat the row above
  /// (`Sampler.fill`), so the untinted draws are also held within ±1 of
  /// the reference.
  @Test func runsOfEqualRowsMatchLerpedRows() {
    var rng = SplitMix(seed: 29)
    let (tw, th) = (61, 90)
    var tested = 0, testedScaled = 0
    for (iw, ih) in [(40, 70), (64, 200), (23, 31)] {
      var img = noiseBitmap(width: iw, height: ih, seed: rng.next(), opaque: true)
      var y = 1
      while y < ih {
        let run = 1 + Int(rng.next() % 12)
        for r in y..<min(y + run, ih) {
          for i in 0..<(iw * 4) { img.bytes[r * iw * 4 + i] = img.bytes[(r - 1) * iw * 4 + i] }
          if rng.next() % 4 == 0 { img.bytes[r * iw * 4 + Int(rng.next() % UInt64(iw)) * 4] ^= 0x55 }
        }
        y += run + 1
      }
      // Spans: ragged ends, rows 10–15 and every seventh row skipped, two runs on row 40.
      var spans: [Sampler.Span] = []
      for y in 0..<th where !(10..<16).contains(y) && y % 7 != 3 {
        if y == 40 {
          spans.append(Sampler.Span(Int32(y), 0, 17))
          spans.append(Sampler.Span(Int32(y), 21, Int32(tw)))
        } else {
          spans.append(Sampler.Span(Int32(y), Int32(y % 3), Int32(tw - y % 5)))
        }
      }
      var maps = SamplerTests.columnMaps(&rng)
      maps += maps.map { $0.concatenating(.scale(x: 1, y: 0.4)) } + maps.map { $0.concatenating(.scale(x: 1, y: 2.5)) }
      // Upside down (m22 < 0: v falls down a column).
      maps += maps.prefix(14).map { $0.concatenating(.scale(x: 1, y: -1)).concatenating(.translation(x: 0, y: Double(ih))) }
      // Scaled: enlarged 3×, shrunk, moved by fractions and whole pixels at scale 1.
      maps += [
        .scale(x: 1 / 3, y: 1 / 3), .translation(x: 0.5, y: 0.25).concatenating(.scale(x: 1.1, y: 0.9)),
        .translation(x: 2, y: -3.5), .translation(x: 0.3, y: 4), .translation(x: -1, y: 6).concatenating(.scale(x: 0.5, y: 0.6)),
      ]
      for m in maps where Sampler.samplesByColumns(m, width: iw, height: ih, x0: 0, x1: tw) {
        let scaled = Sampler.samplesScaled(m, width: iw, height: ih)
        for tint in [nil, Pixel(r: 20, g: 0, b: 40, a: 90)] {
          let outputs = [true, false].map {
            SamplerTests.sampleSpans(img, m, spans, width: tw, height: th, tint: tint, reusesRuns: $0)
          }
          let differing = zip(outputs[0], outputs[1]).filter { $0 != $1 }.count
          #expect(differing == 0, "\(differing) bytes differ from lerping every row (image \(iw)×\(ih), map \(m))")
          if tint == nil {
            let (worst, untouched) = SamplerTests.compare(outputs[1], img, m, spans, width: tw, height: th, tint: nil)
            #expect(worst <= 1 && untouched, "vs reference: \(worst) (image \(iw)×\(ih), map \(m))")
          }
          tested += 1
          if scaled { testedScaled += 1 }
        }
      }
    }
    #expect(tested >= 60 && testedScaled >= 30, "only \(tested) draws compared, \(testedScaled) of them scaled")
  }

  /// The scaled-row cache sampled row by row into scratch (a draw that
  /// blends): ragged runs, skipped rows, two runs on a row, enlarged,
  /// shrunk and moved by a fraction of a pixel at scale 1; each pixel within
  /// ±1 of the row sampler's reference, nothing written outside the runs.
  @Test func scaledRowsIntoScratchMatchReference() {
    var rng = SplitMix(seed: 29)
    let (tw, th) = (61, 27)
    let maps: [Homography] = [
      .scale(x: 0.31, y: 0.29), .translation(x: -3.75, y: 2.5).concatenating(.scale(x: 3.2, y: 3.1)),
      .translation(x: 0.37, y: -0.61), .scale(x: 2.7, y: 0.4).concatenating(.translation(x: 5.5, y: -1.25)),
      .translation(x: 1, y: 0.4), .translation(x: 0.3, y: -2), .translation(x: 0.25, y: 40),
    ]
    for (iw, ih) in [(37, 29), (2, 2), (64, 3), (20, 300), (60, 9)] {
      let img = noiseBitmap(width: iw, height: ih, seed: rng.next(), opaque: false)
      for m in maps {
        #expect(Sampler.samplesScaled(m, width: iw, height: ih))
        let (x0, x1) = (3, tw - 2)
        var runs: [(y: Int, s: Int, e: Int)] = []
        for y in 1..<(th - 1) where y % 7 != 4 {
          let s = x0 + (y * 7) % 9, e = x1 - (y * 5) % 11
          if y == 9 {
            runs += [(y, s, 22), (y, 25, e)]
          } else {
            runs.append((y, s, e))
          }
        }
        let scratch = Scratch(width: tw)
        defer { scratch.deallocate() }
        var worst = 0, untouched = true
        img.bytes.withUnsafeBufferPointer { buf in
          var cache = Sampler.ScaledRows(
            buf.baseAddress!, width: iw, height: ih, toImage: m, x0: x0, x1: x1, rows: scratch.rows,
            rowCapacity: scratch.width, columns: scratch.columns)
          for run in runs {
            var got = [UInt8](repeating: 7, count: (tw + 4) * 4)
            var want = [UInt8](repeating: 0, count: tw * 4)
            got.withUnsafeMutableBufferPointer {
              Sampler.sampleScaledRow(&cache, y: run.y, x0: run.s, count: run.e - run.s, into: $0.baseAddress! + run.s * 4)
            }
            want.withUnsafeMutableBufferPointer {
              Sampler.sampleRowReference(buf.baseAddress!, width: iw, height: ih, toImage: m, y: run.y, x0: 0, count: tw, into: $0.baseAddress!)
            }
            for x in 0..<(tw + 4) {
              for k in 0..<4 {
                if x >= run.s && x < run.e {
                  worst = max(worst, abs(Int(got[x * 4 + k]) - Int(want[x * 4 + k])))
                } else if got[x * 4 + k] != 7 {
                  untouched = false
                }
              }
            }
          }
        }
        #expect(worst <= 1, "scaled rows vs reference: \(worst) (image \(iw)×\(ih), map \(m))")
        #expect(untouched, "wrote outside its run (map \(m))")
      }
    }
  }
}
