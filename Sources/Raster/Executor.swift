import Geometry

// Executor: runs a display list over a band of rows of a target.
//
// Each row of each draw is: shape runs (Coverage.swift) → source row (a
// solid colour, a pointer straight into a 1:1 image, or a sampled row) →
// one kernel call per run (copy / blend / blend with one coverage / blend
// with a coverage byte per pixel). Every result depends only on the row, so
// the band split and the thread count never change the output.

/// Pixels a command draws into: device box `box`, row `y` at `base + (y − box.y0)·stride`.
struct Target {
  let base: UnsafeMutablePointer<UInt8>
  /// Bytes per row.
  let stride: Int
  let box: PixelBox

  @inline(__always) func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
    let row: Int = (y &- box.y0) &* stride
    let column: Int = (x &- box.x0) &* 4
    return base + (row &+ column)
  }
}

/// Per-thread scratch rows, `width` pixels wide.
struct Scratch {
  let width: Int
  let cov: UnsafeMutablePointer<Float>
  let mask8: UnsafeMutablePointer<UInt8>
  let src: UnsafeMutablePointer<UInt8>
  /// Full runs of a band waiting to be sampled by columns (`Sampler.sampleColumns`).
  let spans: UnsafeMutablePointer<Sampler.Span>
  static let spanCapacity = 512
  /// Two image rows after the horizontal filter step, and a table of
  /// 8 bytes per column (`Sampler.sampleScaled`).
  let rows: UnsafeMutablePointer<UInt8>
  let columns: UnsafeMutableRawPointer
  /// Cached horizontal lerps of one group of eight columns (`Sampler.sampleColumns`).
  let columnCache: UnsafeMutableRawPointer
  init(width: Int) {
    self.width = width + 8
    cov = .allocate(capacity: self.width * RowCoverage.levels)
    mask8 = .allocate(capacity: self.width)
    src = .allocate(capacity: self.width * 4)
    spans = .allocate(capacity: Scratch.spanCapacity)
    rows = .allocate(capacity: self.width * 8)
    columns = .allocate(byteCount: self.width * 8, alignment: 16)
    columnCache = .allocate(byteCount: Sampler.columnCacheBytes, alignment: 16)
  }

  func deallocate() {
    cov.deallocate()
    mask8.deallocate()
    src.deallocate()
    spans.deallocate()
    rows.deallocate()
    columns.deallocate()
    columnCache.deallocate()
  }
}

struct Executor {
  let kernels: KernelSet
  /// Whether to skip the columns later opaque draws cover (same pixels either way).
  var occludes = true

  func run(_ commands: [Command], target: Target, rows: Range<Int>, scratch: Scratch) {
    // Occlusion: walking back from the top, the columns that later draws
    // cover opaquely on every row of the band need not be drawn beneath
    // (the result is identical: an opaque copy replaces what was there).
    // (On the stack: this runs once per band.)
    withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: commands.count) { hidden in
      hidden.initialize(repeating: (0, 0))
      run(commands, target: target, rows: rows, scratch: scratch, hidden: hidden)
    }
  }

  func run(
    _ commands: [Command], target: Target, rows: Range<Int>, scratch: Scratch,
    hidden: UnsafeMutableBufferPointer<(Int, Int)>
  ) {
    if commands.count > 1 && occludes {
      var cover = (0, 0)
      for i in commands.indices.reversed() {
        hidden[i] = cover
        // (The first command hides nothing: nothing is drawn beneath it.)
        if i > 0, case .draw(let d) = commands[i], let c = opaqueColumns(d, target: target, rows: rows, scratch: scratch) {
          if cover.0 >= cover.1 {
            cover = c
          } else if c.0 <= cover.1 && c.1 >= cover.0 {
            cover = (min(c.0, cover.0), max(c.1, cover.1))
          } else if c.1 - c.0 > cover.1 - cover.0 {
            cover = c
          }
        }
      }
    }
    var i = 0
    while i < commands.count {
      if i + 1 < commands.count, hidden[i] == hidden[i + 1],
        crossfade(commands[i], commands[i + 1], target: target, rows: rows, hidden: hidden[i])
      {
        i += 2
        continue
      }
      switch commands[i] {
      case .draw(let d): draw(d, target: target, rows: rows, scratch: scratch, hidden: hidden[i])
      case .group(let g): group(g, target: target, rows: rows, scratch: scratch, hidden: hidden[i])
      }
      i += 1
    }
  }

  /// A cross-fade in one pass: an opaque image copied 1:1 over a whole-pixel
  /// box, then another 1:1 image over the same box at some opacity — two
  /// full-screen snapshots fading — becomes one kernel reading both images
  /// and writing the target once (the memory floor's pass) instead of a
  /// copy and a read-modify-write blend: the same arithmetic and pixels, or,
  /// when the top image is opaque too, the lerp rounded once (`Kernels.lerp`).
  /// Returns false (nothing drawn) when the pair is not of that shape.
  func crossfade(_ first: Command, _ second: Command, target: Target, rows: Range<Int>, hidden: (Int, Int)) -> Bool {
    guard case .draw(let a) = first, case .draw(let b) = second, a.tint == nil, b.tint == nil,
      case .image(let under, let ma) = a.paint, case .image(let over, let mb) = b.paint, under.isKnownOpaque,
      a.opacity >= 1, a.shapes.count == 1, b.shapes.count == 1,
      case .box(let x0, let y0, let x1, let y1) = a.shapes[0],
      case .box(let bx0, let by0, let bx1, let by1) = b.shapes[0],
      x0 == bx0, y0 == by0, x1 == bx1, y1 == by1,
      x0 == x0.rounded(), y0 == y0.rounded(), x1 == x1.rounded(), y1 == y1.rounded(), a.bounds == b.bounds,
      let (dxa, dya) = Executor.directOffset(ma), let (dxb, dyb) = Executor.directOffset(mb)
    else { return false }
    let region = clip(a.bounds, target, rows)
    if region.isEmpty { return true }
    let wa = under.width, wb = over.width
    guard region.x0 + dxa >= 0, region.x1 + dxa <= wa, region.y0 + dya >= 0, region.y1 + dya <= under.height,
      region.x0 + dxb >= 0, region.x1 + dxb <= wb, region.y0 + dyb >= 0, region.y1 + dyb <= over.height
    else { return false }
    let opacity8 = UInt8(Float(clamp01(b.opacity)) * 255 + 0.5)
    // Two opaque snapshots: one rounding, weights in 256ths (`Kernels.lerp`).
    let weight = over.isKnownOpaque ? UInt16((clamp01(b.opacity) * 256).rounded()) : nil
    let segments = Executor.visible(region, hidden: hidden)
    // Flat stretches of both snapshots are filled with the lerp of their
    // colours, nothing read (`SolidRuns`).
    let runs = weight == nil || kernels != .simd ? nil : under.solidRuns.flatMap { a in over.solidRuns.map { (a, $0) } }
    under.bytes.withUnsafeBufferPointer { pa in
      over.bytes.withUnsafeBufferPointer { pb in
        @inline(__always) func mix(_ y: Int, _ s: Int, _ e: Int) {
          let d = target.pixel(s, y), u = pa.baseAddress! + ((y + dya) * wa + s + dxa) * 4
          let o = pb.baseAddress! + ((y + dyb) * wb + s + dxb) * 4
          if let weight {
            Kernels.lerp(d, under: u, o, e - s, weight: weight, kernels)
          } else {
            Kernels.blend(d, under: u, o, e - s, coverage: opacity8, kernels)
          }
        }
        guard let (ra, rb) = runs, let weight else {
          for y in region.y0..<region.y1 {
            if segments.0.0 < segments.0.1 { mix(y, segments.0.0, segments.0.1) }
            if segments.1.0 < segments.1.1 { mix(y, segments.1.0, segments.1.1) }
          }
          return
        }
        let va = ra.view, vb = rb.view
        withExtendedLifetime((ra, rb)) {
          @inline(__always) func fade(_ y: Int, _ s: Int, _ e: Int) {
            guard s < e else { return }
            va.pieces(
              row: y + dya, shift: dxa, vb, row: y + dyb, shift: dxb, from: s, to: e,
              solid: { x0, x1, pu, po in
                Kernels.fill(target.pixel(x0, y), Kernels.lerp(under: pu, po, weight: weight), x1 - x0)
              },
              mixed: { x0, x1 in
                // What is read here is scattered: ask for the next row's now.
                if y + 1 < region.y1 {
                  let n = min(x1 - x0, 256) * 4
                  Kernels.prefetch(pa.baseAddress! + ((y + 1 + dya) * wa + x0 + dxa) * 4, bytes: n)
                  Kernels.prefetch(pb.baseAddress! + ((y + 1 + dyb) * wb + x0 + dxb) * 4, bytes: n)
                }
                mix(y, x0, x1)
              })
          }
          for y in region.y0..<region.y1 {
            fade(y, segments.0.0, segments.0.1)
            fade(y, segments.1.0, segments.1.1)
          }
        }
      }
    }
    return true
  }

  /// The columns [x0, x1) that `op` covers opaquely with coverage 1 on every
  /// row of the band (inside the target), or nil.
  func opaqueColumns(_ op: DrawOp, target: Target, rows: Range<Int>, scratch: Scratch) -> (Int, Int)? {
    let region = clip(op.bounds, target, rows)
    guard !region.isEmpty, region.y0 == max(rows.lowerBound, target.box.y0),
      region.y1 == min(rows.upperBound, target.box.y1), op.opacity >= 1
    else { return nil }
    let rc = RowCoverage(lo: region.x0, hi: region.x1, stack: scratch.cov, stride: scratch.width)
    var x0 = region.x0, x1 = region.x1
    if let (a, b) = rc.fullColumns(op.shapes, rows: region.y0..<region.y1) {
      x0 = max(x0, a)
      x1 = min(x1, b)
      if x1 - x0 < 64 { return nil }
    } else {
      for y in region.y0..<region.y1 {
        guard let r = rc.evaluate(op.shapes, y: y).longestFull else { return nil }
        x0 = max(x0, r.start)
        x1 = min(x1, r.end)
        if x1 - x0 < 64 { return nil }
      }
    }
    switch op.paint {
    case .solid(let p):
      return p.a == 255 ? (x0, x1) : nil
    case .image(let bitmap, let m):
      // Sampled pixels of an opaque image are opaque (bilinear weights sum
      // to 1, edges clamp into the image, and full runs are in front of the eye).
      if bitmap.isKnownOpaque { return (x0, x1) }
      guard let (dx, dy) = Executor.directOffset(m) else { return nil }
      let w = bitmap.width
      guard x0 + dx >= 0, x1 + dx <= w, region.y0 + dy >= 0, region.y1 + dy <= bitmap.height else {
        return nil
      }
      let opaque = bitmap.bytes.withUnsafeBufferPointer { buf in
        for y in region.y0..<region.y1 {
          if !Kernels.isOpaque(buf.baseAddress! + ((y + dy) * w + x0 + dx) * 4, x1 - x0, kernels) {
            return false
          }
        }
        return true
      }
      return opaque ? (x0, x1) : nil
    case .gradient:
      return nil
    }
  }

  /// (dx, dy) when `m` is a translation by whole pixels at scale 1: the image
  /// is read in place.
  static func directOffset(_ m: Homography) -> (Int, Int)? {
    guard m.m11 == 1 && m.m22 == 1 && m.m12 == 0 && m.m21 == 0 && m.m13 == 0 && m.m23 == 0
      && m.m33 == 1 && m.m31 == m.m31.rounded() && m.m32 == m.m32.rounded()
      && abs(m.m31) < 1e9 && abs(m.m32) < 1e9
    else { return nil }
    return (Int(m.m31), Int(m.m32))
  }

  /// The columns of `region` that later opaque draws do not hide: up to two
  /// segments [x0, x1), left and right of `hidden` (empty ones have x0 ≥ x1).
  @inline(__always) static func visible(_ region: PixelBox, hidden: (Int, Int)) -> ((Int, Int), (Int, Int)) {
    guard hidden.0 < hidden.1 && hidden.0 < region.x1 && hidden.1 > region.x0 else {
      return ((region.x0, region.x1), (0, 0))
    }
    return ((region.x0, max(region.x0, hidden.0)), (min(hidden.1, region.x1), region.x1))
  }

  /// The part of `box` inside the target and the band.
  @inline(__always) func clip(_ box: PixelBox, _ target: Target, _ rows: Range<Int>) -> PixelBox {
    var r = box.intersection(target.box)
    r.y0 = max(r.y0, rows.lowerBound)
    r.y1 = min(r.y1, rows.upperBound)
    return r.isEmpty ? .empty : r
  }

  /// Coverage values × opacity → bytes, for a partial run: ⌊clamp01(c)·k + ½⌋
  /// with k = 255·opacity, four at a time: y + 1.5·2²³ rounds y to the
  /// nearest integer t in the low mantissa bits (baseline x86-64 has no
  /// roundps, and Swift's generic SIMD float→int conversion runs lane by
  /// lane, 2× slower than the scalar loop); t − 1 where t > y makes it the
  /// floor. NaN coverage counts as 0, in the scalar tail too.
  @inline(__always) func quantize(
    _ cov: UnsafeMutablePointer<Float>, _ count: Int, _ opacity: Float, into m: UnsafeMutablePointer<UInt8>
  ) {
    let k = opacity * 255
    var i = 0
    if kernels == .simd {
      let raw = UnsafeRawPointer(cov), out = UnsafeMutableRawPointer(m)
      while i &+ 4 <= count {
        let q = Executor.quantized(raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self), k)
        let b = UInt32(truncatingIfNeeded: q[0]) | UInt32(truncatingIfNeeded: q[1]) &<< 8
          | UInt32(truncatingIfNeeded: q[2]) &<< 16 | UInt32(truncatingIfNeeded: q[3]) &<< 24
        out.storeBytes(of: b, toByteOffset: i, as: UInt32.self)
        i &+= 4
      }
    }
    while i < count {
      m[i] = Executor.quantized(cov[i], k)
      i += 1
    }
  }

  /// ⌊clamp01(c)·k + ½⌋ for four coverage values (see `quantize`).
  @inline(__always) static func quantized(_ cov: SIMD4<Float>, _ k: Float) -> SIMD4<Int32> {
    var c = cov
    c.replace(with: SIMD4<Float>(), where: .!(c .>= SIMD4<Float>()))
    c.replace(with: SIMD4<Float>(repeating: 1), where: c .> SIMD4<Float>(repeating: 1))
    let y = c * k + 0.5
    let r = y + 12_582_912
    var q = unsafeBitCast(r, to: SIMD4<Int32>.self) &- 0x4B40_0000
    q.replace(with: q &- 1, where: r - 12_582_912 .> y)
    return q
  }

  /// ⌊clamp01(c)·k + ½⌋ for one coverage value, NaN as 0.
  @inline(__always) static func quantized(_ c: Float, _ k: Float) -> UInt8 {
    UInt8((c >= 0 ? min(c, 1) : 0) * k + 0.5)
  }

  /// A solid colour through a partial run's coverage values × opacity: what
  /// `quantize` then `Kernels.blend(_:solid:_:mask:_:)` do, in one pass (the
  /// coverage bytes go straight from the quantizer's lanes into the blend's
  /// 16-bit pairs, never through memory) — for shadows' and anti-aliased
  /// edges' soft pixels.
  @inline(__always) func blend(
    _ dst: UnsafeMutablePointer<UInt8>, solid p: Pixel, _ count: Int, coverage cov: UnsafeMutablePointer<Float>,
    opacity: Float, scratch: Scratch
  ) {
    guard kernels == .simd else {
      quantize(cov, count, opacity, into: scratch.mask8)
      return Kernels.blend(dst, solid: p, count, mask: scratch.mask8, kernels)
    }
    let k = opacity * 255
    let pv = split(SIMD4<UInt32>(repeating: unsafeBitCast(p, to: UInt32.self)))
    let raw = UnsafeRawPointer(cov)
    var i = 0
    while i &+ 4 <= count {
      let q = Executor.quantized(raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self), k)
      if q != .zero {
        let u = unsafeBitCast(q, to: SIMD4<UInt32>.self)
        store4(over(scaled(pv, u16(u | (u &<< 16))), load4(dst + i &* 4)), dst + i &* 4)
      }
      i &+= 4
    }
    if i < count {
      quantize(cov + i, count - i, opacity, into: scratch.mask8)
      Kernels.blend(dst + i &* 4, solid: p, count - i, mask: scratch.mask8, kernels)
    }
  }

  /// Blends a source row (`src` addresses pixel `x0`) through `runs`.
  /// A full run of an opaque source at full opacity is a copy; with
  /// `solid` (the source's flat-stretch index, its image row and the
  /// device-to-image column shift), its flat stretches are fills.
  @inline(__always) func blendRuns(
    _ runs: Runs, cov: UnsafeMutablePointer<Float>, lo: Int, src: UnsafePointer<UInt8>, x0: Int,
    y: Int, opacity: Float, opacity8: UInt8, target: Target, scratch: Scratch, sourceOpaque: Bool?,
    solid: (view: SolidRunsView, row: Int, shift: Int)? = nil
  ) {
    for k in 0..<runs.count {
      let run = runs.items[k]
      let n = run.end - run.start
      let d = target.pixel(run.start, y)
      let s = src + (run.start - x0) * 4
      if run.full {
        if opacity8 == 255 {
          if let solid, sourceOpaque == true {
            solid.view.pieces(
              row: solid.row, shift: solid.shift, solid.view, row: solid.row, shift: solid.shift,
              from: run.start, to: run.end,
              solid: { a, b, p, _ in Kernels.fill(target.pixel(a, y), p, b - a) },
              mixed: { a, b in Kernels.copy(target.pixel(a, y), src + (a - x0) * 4, b - a) })
          } else if sourceOpaque ?? Kernels.isOpaque(s, n, kernels) {
            Kernels.copy(d, s, n)
          } else {
            Kernels.blend(d, s, n, kernels)
          }
        } else {
          Kernels.blend(d, s, n, coverage: opacity8, kernels)
        }
      } else {
        quantize(cov + (run.start - lo), n, opacity, into: scratch.mask8)
        Kernels.blend(d, s, n, mask: scratch.mask8, kernels)
      }
    }
  }

  /// One draw over the band: its shape's runs row by row, through the paint's
  /// own path (`Executor+Draw.swift`).
  func draw(_ op: DrawOp, target: Target, rows: Range<Int>, scratch: Scratch, hidden: (Int, Int)) {
    let region = clip(op.bounds, target, rows)
    guard !region.isEmpty else { return }
    let opacity = Float(clamp01(op.opacity))
    let opacity8 = UInt8(opacity * 255 + 0.5)
    guard opacity8 > 0 else { return }
    let band = DrawBand(region: region, opacity: opacity, opacity8: opacity8, target: target, scratch: scratch, hidden: hidden)
    switch op.paint {
    case .solid(let p): drawSolid(op, p, band)
    case .image(let bitmap, let m): drawImage(op, bitmap, m, band)
    case .gradient(let g): drawGradient(op, g, band)
    }
  }

  /// The folded overlay's draw over full `runs` (what the solid draw would have done there).
  func applyTint(_ tint: Tint, _ runs: Runs, cov: UnsafeMutablePointer<Float>, lo: Int, y: Int, target: Target, scratch: Scratch) {
    let opacity = Float(clamp01(tint.opacity))
    let opacity8 = UInt8(opacity * 255 + 0.5)
    guard opacity8 > 0, tint.color.a > 0 else { return }
    for k in 0..<runs.count {
      let run = runs.items[k]
      let n = run.end - run.start
      let d = target.pixel(run.start, y)
      if run.full {
        if opacity8 == 255 && tint.color.a == 255 {
          Kernels.fill(d, tint.color, n)
        } else {
          Kernels.blend(d, solid: tint.color, n, coverage: opacity8, kernels)
        }
      } else {
        blend(d, solid: tint.color, n, coverage: cov + (run.start - lo), opacity: opacity, scratch: scratch)
      }
    }
  }

  /// A tinted image draw (`DrawOp.tint`) through `runs`: the image and its
  /// overlay are one flattened layer, as Core Animation renders a layer with
  /// its sublayers before its transform places it, so a pixel takes the
  /// tinted image once. Full runs: the image, then the overlay over it.
  /// Partial runs: the tinted image X = tint + o·src·(1 − tint.a) (the pixel
  /// the full runs show beside them; o the draw's opacity) blended once
  /// through the coverage c: X·c + dst·(1 − X.a·c). Blending the image and
  /// the overlay each through c would darken what lies behind only c of the
  /// way: a rim brighter than both the dimmed card and its backdrop, which a
  /// device never shows (Core Animation draws no partial coverage at a
  /// layer's edge unless `allowsEdgeAntialiasing`; an edge pixel is the
  /// card's or the backdrop's, and X·c + dst·(1 − X.a·c) is their mix by the
  /// share covered). `src` addresses pixel `x0`; partial runs stage X in
  /// `scratch.src` at the same offset (in place when `src` is `scratch.src`).
  @inline(__always) func blendTintedRuns(
    _ tint: Tint, tintPixel: Pixel, _ runs: Runs, cov: UnsafeMutablePointer<Float>, lo: Int,
    src: UnsafePointer<UInt8>, x0: Int, y: Int, opacity: Float, opacity8: UInt8, target: Target, scratch: Scratch,
    sourceOpaque: Bool?, solid: (view: SolidRunsView, row: Int, shift: Int)? = nil
  ) {
    var full = Runs()
    for k in 0..<runs.count where runs.items[k].full {
      full.items[full.count] = runs.items[k]
      full.count += 1
    }
    if !full.isEmpty {
      blendRuns(
        full, cov: cov, lo: lo, src: src, x0: x0, y: y, opacity: opacity, opacity8: opacity8, target: target,
        scratch: scratch, sourceOpaque: sourceOpaque, solid: solid)
      applyTint(tint, full, cov: cov, lo: lo, y: y, target: target, scratch: scratch)
    }
    if full.count == runs.count { return }
    let staged = scratch.src
    for k in 0..<runs.count where !runs.items[k].full {
      let run = runs.items[k]
      let n = run.end - run.start
      let s = src + (run.start - x0) * 4, x = staged + (run.start - x0) * 4
      if opacity8 < 255 {
        Kernels.scale(x, s, n, coverage: opacity8, kernels)
        Kernels.copy(x, x, n, tint: tintPixel, kernels)
      } else {
        Kernels.copy(x, s, n, tint: tintPixel, kernels)
      }
      quantize(cov + (run.start - lo), n, 1, into: scratch.mask8)
      Kernels.blend(target.pixel(run.start, y), x, n, mask: scratch.mask8, kernels)
    }
  }

  func group(_ g: GroupOp, target: Target, rows: Range<Int>, scratch: Scratch, hidden: (Int, Int)) {
    let region = clip(g.bounds, target, rows)
    guard !region.isEmpty else { return }
    let opacity = Float(clamp01(g.opacity))
    let opacity8 = UInt8(opacity * 255 + 0.5)
    guard opacity8 > 0 else { return }
    let w = region.width, h = region.height
    let layer = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * 4)
    layer.initialize(repeating: 0, count: w * h * 4)
    defer { layer.deallocate() }
    let sub = Target(base: layer, stride: w * 4, box: region)
    let bandRows = region.y0..<region.y1
    run(g.children, target: sub, rows: bandRows, scratch: scratch)
    var maskLayer: UnsafeMutablePointer<UInt8>? = nil
    if let mask = g.mask {
      let m = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * 4)
      m.initialize(repeating: 0, count: w * h * 4)
      run(mask, target: Target(base: m, stride: w * 4, box: region), rows: bandRows, scratch: scratch)
      maskLayer = m
    }
    defer { maskLayer?.deallocate() }
    let rc = RowCoverage(lo: region.x0, hi: region.x1, stack: scratch.cov, stride: scratch.width)
    for y in bandRows {
      var runs = Runs()
      if g.shapes.isEmpty {
        runs.append(region.x0, region.x1, full: true, cov: scratch.cov, lo: rc.lo)
      } else {
        runs = rc.evaluate(g.shapes, y: y)
      }
      runs = runs.subtracting(hidden.0, hidden.1)
      if let m = maskLayer, !runs.isEmpty {
        var mr = Runs()
        rc.alphaRuns(m + (y - region.y0) * w * 4 + 3, step: 4, x0: region.x0, y: y, level: 1, into: &mr)
        runs = rc.intersect(runs, level: 0, mr, level: 1)
      }
      if runs.isEmpty { continue }
      blendRuns(
        runs, cov: scratch.cov, lo: rc.lo, src: sub.pixel(region.x0, y), x0: region.x0, y: y,
        opacity: opacity, opacity8: opacity8, target: target, scratch: scratch, sourceOpaque: nil)
    }
  }
}
