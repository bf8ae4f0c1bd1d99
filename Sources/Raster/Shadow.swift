#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Geometry
import Synchronization

// Shadows (UIKIT.md §3): the layer's composited alpha — or its `shadowPath`
// filled — blurred by a Gaussian of σ = shadowRadius · scale device pixels
// (truncated at ±3σ, normalised), moved by `shadowOffset` (a local vector
// mapped through the layer's transform), tinted with shadowColor ×
// shadowOpacity, and drawn beneath the layer — as part of the layer: its
// masksToBounds clips the shadow and its mask masks it, as on iOS.
//
// Two ways, chosen per layer in the scene builder:
// - Analytic, when the alpha is one axis-aligned box or rounded box (an
//   opaque snapshot, a background colour, a rect or rounded-rect
//   `shadowPath`): a blurred box is exactly xs(x)·ys(y), each factor a
//   difference of two truncated erf profiles, ½(F(x1 − x) − F(x0 − x)) with
//   F(d) = erf(d/σ√2)/erf(3/√2) clamped to ±1 (so exactly 0 and 1 beyond
//   3σ, like the truncated kernel); a rounded box is that minus its four
//   corner spandrels (box − rounded box inside each r×r corner), each
//   blurred on its own with the discrete kernel (linearity). Cost O(w + h +
//   corners), offsets exact to the sub-pixel; the executor evaluates it per
//   row like any shape (`SeparableMask`), interior runs full.
// - General: the content's alpha rendered offscreen, blurred by separable
//   passes whose kernels also move it by the offset's fraction of a pixel
//   (exact), moved by whole device pixels, drawn as a coverage mask.

extension DisplayListBuilder {
  /// The shadow draw of `layer`, whose content (without opacity) is `cmds`.
  func shadow(_ layer: Layer, map: Homography, content cmds: [Command]) -> Command? {
    let opacity = min(max(layer.shadowOpacity, 0), 1)
    var color = layer.shadowColor
    color.alpha *= opacity
    guard color.alpha > 0 else { return nil }
    let sigma = max(layer.shadowRadius, 0) * scale
    let reach = sigma > 0.05 ? Int((3 * sigma).rounded(.up)) : 0

    let b = layer.bounds
    let c = Point(x: b.midX, y: b.midY)
    let p0 = map.apply(c)
    let p1 = map.apply(Point(x: c.x + layer.shadowOffset.width, y: c.y + layer.shadowOffset.height))
    guard p0.x.isFinite, p1.x.isFinite, p0.y.isFinite, p1.y.isFinite else { return nil }
    // The offset in device pixels: whole pixels move the mask, the fraction
    // goes into the blur's kernels (without a blur, it rounds).
    let ox = max(-1e6, min(1e6, p1.x - p0.x)), oy = max(-1e6, min(1e6, p1.y - p0.y))
    let dx = Int(reach > 0 ? ox.rounded(.down) : ox.rounded())
    let dy = Int(reach > 0 ? oy.rounded(.down) : oy.rounded())

    if reach > 0, let (x0, y0, x1, y1, radius) = analyticShadowSource(layer, map: map, content: cmds) {
      let ox = p1.x - p0.x, oy = p1.y - p0.y
      guard abs(ox) < 1e6, abs(oy) < 1e6,
        let mask = Shadows.blurredBox(
          x0: x0 + ox, y0: y0 + oy, x1: x1 + ox, y1: y1 + oy, radius: radius, sigma: sigma, reach: reach,
          clip: canvas)
      else { return nil }
      return .draw(
        DrawOp(shapes: [.separable(mask)], paint: .solid(color.premultipliedPixel), opacity: 1, bounds: mask.box))
    }

    var source = cmds
    if let path = layer.shadowPath {
      let shapes = pathShapes(path, rule: .nonZero, map)
      source = []
      append(&source, shapes, .solid(Pixel(r: 255, g: 255, b: 255, a: 255)))
    }
    let sourceBox = bounds(of: source)
    guard !sourceBox.isEmpty else { return nil }
    // Only what can reach the canvas: the canvas moved back by the offset,
    // grown by the blur's reach and the pixel its sub-pixel shift may add.
    let margin = reach > 0 ? reach + 1 : 0
    let limit = PixelBox(
      x0: canvas.x0 - dx - margin, y0: canvas.y0 - dy - margin, x1: canvas.x1 - dx + margin,
      y1: canvas.y1 - dy + margin)
    let region = PixelBox(
      x0: sourceBox.x0 - margin, y0: sourceBox.y0 - margin, x1: sourceBox.x1 + margin, y1: sourceBox.y1 + margin
    ).intersection(limit)
    guard !region.isEmpty else { return nil }

    let alpha = Shadows.alpha(of: source, region: region, kernels: kernels)
    // Without a blur, the coverage is the alpha (`coverage(level(a))` is a).
    let bytes =
      reach > 0
      ? Shadows.blur(
        alpha, width: region.width, height: region.height, sigma: sigma, reach: reach,
        shift: (ox - Double(dx), oy - Double(dy)))
      : alpha
    let mask = CoverageMask(
      x0: region.x0 + dx, y0: region.y0 + dy, width: region.width, height: region.height, alpha: bytes)
    let box = mask.box.intersection(canvas)
    guard !box.isEmpty else { return nil }
    return .draw(DrawOp(shapes: [.mask(mask)], paint: .solid(color.premultipliedPixel), opacity: 1, bounds: box))
  }
}

extension DisplayListBuilder {
  /// The device box (and corner radius) whose coverage is exactly the
  /// shadow's source alpha, when it is one: a rect or rounded-rect
  /// `shadowPath`, or content whose draws all fill the same box or rounded
  /// box, at least one of them opaque at full opacity.
  func analyticShadowSource(_ layer: Layer, map: Homography, content cmds: [Command])
    -> (Double, Double, Double, Double, Double)?
  {
    func geometry(_ s: Shape) -> (Double, Double, Double, Double, Double)? {
      switch s {
      case .box(let x0, let y0, let x1, let y1): return (x0, y0, x1, y1, 0)
      case .roundedBox(let x0, let y0, let x1, let y1, let r): return (x0, y0, x1, y1, r)
      default: return nil
      }
    }
    if let path = layer.shadowPath {
      let shapes = pathShapes(path, rule: .nonZero, map)
      guard shapes.count == 1 else { return nil }
      return geometry(shapes[0])
    }
    var found: (Double, Double, Double, Double, Double)? = nil
    var opaque = false
    for c in cmds {
      guard case .draw(let d) = c, d.shapes.count == 1, let g = geometry(d.shapes[0]) else { return nil }
      if let f = found, f != g { return nil }
      found = g
      guard d.opacity >= 1 else { continue }
      switch d.paint {
      case .solid(let p): opaque = opaque || p.a == 255
      case .image(let b, _): opaque = opaque || b.isKnownOpaque
      case .gradient: break
      }
    }
    return opaque ? found : nil
  }
}

/// What `Shadows.blurredBox` computes from, compared bit for bit.
struct BoxShadowKey: Equatable {
  var x0, y0, x1, y1, radius, sigma: Double
  var reach: Int
  var clip: PixelBox
}

enum Shadows {
  /// ½(F(b − x) − F(a − x)) at the pixel centres x = start + i + 0.5, with
  /// F(d) = erf(d / σ√2) / erf(3/√2) clamped to ±1.
  static func profile(_ a: Double, _ b: Double, sigma: Double, start: Int, count: Int) -> [Float] {
    let k = 1 / (sigma * 2.0.squareRoot())
    let norm = 1 / erf(3 / 2.0.squareRoot())
    let limit = 3 * sigma
    func F(_ d: Double) -> Double { d >= limit ? 1 : (d <= -limit ? -1 : erf(d * k) * norm) }
    var out = [Float](repeating: 0, count: count)
    for i in 0..<count {
      let x = Double(start + i) + 0.5
      out[i] = Float(min(max(0.5 * (F(b - x) - F(a - x)), 0), 1))
    }
    return out
  }

  /// The shadow of a device box (rounded by `radius`) blurred by σ, over
  /// the pixels it reaches inside `clip`. The last few are kept
  /// (`recentBoxes`): a drawn device's shadow, the same in every frame,
  /// has corners that cost milliseconds to blur at a large σ.
  static func blurredBox(
    x0: Double, y0: Double, x1: Double, y1: Double, radius: Double, sigma: Double, reach: Int, clip: PixelBox
  ) -> SeparableMask? {
    let key = BoxShadowKey(
      x0: x0, y0: y0, x1: x1, y1: y1, radius: radius, sigma: sigma, reach: reach,
      clip: clip)
    if let kept = recentBoxes.withLock({ kept in kept.first { $0.key == key } }) { return kept.mask }
    let mask = makeBlurredBox(x0: x0, y0: y0, x1: x1, y1: y1, radius: radius, sigma: sigma, reach: reach, clip: clip)
    recentBoxes.withLock { kept in
      kept.insert((key, mask), at: 0)
      if kept.count > keptBoxes { kept.removeLast() }
    }
    return mask
  }

  /// Box shadows kept, most recent first.
  static let keptBoxes = 4
  private static let recentBoxes = Mutex<[(key: BoxShadowKey, mask: SeparableMask?)]>([])

  private static func makeBlurredBox(
    x0: Double, y0: Double, x1: Double, y1: Double, radius: Double, sigma: Double, reach: Int, clip: PixelBox
  ) -> SeparableMask? {
    guard x1 > x0, y1 > y0 else { return nil }
    let full = PixelBox(covering: x0 - Double(reach), y0 - Double(reach), x1 + Double(reach), y1 + Double(reach))
    let box = full.intersection(clip)
    guard !box.isEmpty else { return nil }
    let xs = profile(x0, x1, sigma: sigma, start: box.x0, count: box.width)
    let ys = profile(y0, y1, sigma: sigma, start: box.y0, count: box.height)
    var fullX0 = box.x1, fullX1 = box.x1
    if let f = xs.firstIndex(of: 1), let l = xs.lastIndex(of: 1) {
      fullX0 = box.x0 + f
      fullX1 = box.x0 + l + 1
    }
    var patches: [FloatPatch] = []
    let r = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    if r > 0 {
      let kernel = kernel(sigma: sigma, reach: reach)
      for (cx, cy) in [(x0, y0), (x1 - r, y0), (x0, y1 - r), (x1 - r, y1 - r)] {
        if let p = spandrel(
          corner: (cx, cy), r: r, box: (x0, y0, x1, y1), kernel: kernel, reach: reach, clip: box)
        {
          patches.append(p)
        }
      }
    }
    return SeparableMask(
      x0: box.x0, y0: box.y0, xs: xs, ys: ys, fullX0: fullX0, fullX1: fullX1, patches: patches)
  }

  /// Box coverage minus rounded-box coverage inside the r×r corner square
  /// at (cx, cy), blurred by the discrete kernel, clipped to `clip`.
  static func spandrel(
    corner c: (Double, Double), r: Double, box b: (Double, Double, Double, Double), kernel: [Float],
    reach: Int, clip: PixelBox
  ) -> FloatPatch? {
    let support = PixelBox(covering: c.0, c.1, c.0 + r, c.1 + r)
    let sw = support.width, sh = support.height
    let hw = (b.2 - b.0) / 2, hh = (b.3 - b.1) / 2
    let mx = (b.0 + b.2) / 2, my = (b.1 + b.3) / 2
    // Unblurred spandrel over the support.
    var src = [Float](repeating: 0, count: sw * sh)
    var any = false
    for j in 0..<sh {
      let py = Double(support.y0 + j)
      let cy = clamp01(min(py + 1, b.3) - max(py, b.1))
      for i in 0..<sw {
        let px = Double(support.x0 + i)
        let boxCov = clamp01(min(px + 1, b.2) - max(px, b.0)) * cy
        let d = RowCoverage.roundedBoxDistance(px + 0.5 - mx, py + 0.5 - my, hw, hh, r)
        let v = Float(max(boxCov - clamp01(0.5 - d), 0))
        src[j * sw + i] = v
        any = any || v > 0
      }
    }
    guard any else { return nil }
    let box = PixelBox(
      x0: support.x0 - reach, y0: support.y0 - reach, x1: support.x1 + reach, y1: support.y1 + reach)
    let pw = box.width, ph = box.height
    // Horizontal pass into a (sh × pw) buffer, then vertical into (ph × pw),
    // each sum in the same order of terms (the inner loops are contiguous
    // and, through buffer pointers, vectorised).
    let taps = kernel.count
    var horizontal = [Float](repeating: 0, count: sh * pw)
    var out = [Float](repeating: 0, count: ph * pw)
    src.withUnsafeBufferPointer { src in
      kernel.withUnsafeBufferPointer { kernel in
        horizontal.withUnsafeMutableBufferPointer { horizontal in
          for j in 0..<sh {
            for i in 0..<sw {
              let v = src[j * sw + i]
              if v == 0 { continue }
              let row = horizontal.baseAddress! + (j * pw + i)
              for t in 0..<taps { row[t] += v * kernel[t] }
            }
          }
          out.withUnsafeMutableBufferPointer { out in
            for j in 0..<sh {
              let h = horizontal.baseAddress! + j * pw
              for t in 0..<taps {
                let k = kernel[t]
                let o = out.baseAddress! + (j + t) * pw
                for i in 0..<pw { o[i] += h[i] * k }
              }
            }
          }
        }
      }
    }
    // Clip to `clip`.
    let kept = box.intersection(clip)
    guard !kept.isEmpty else { return nil }
    var values = [Float](repeating: 0, count: kept.width * kept.height)
    for j in 0..<kept.height {
      for i in 0..<kept.width {
        values[j * kept.width + i] = out[(j + kept.y0 - box.y0) * pw + (i + kept.x0 - box.x0)]
      }
    }
    return FloatPatch(x0: kept.x0, y0: kept.y0, width: kept.width, height: kept.height, values: values)
  }

  /// The alpha that `cmds` composite to over `region`, row by row.
  static func alpha(of cmds: [Command], region: PixelBox, kernels: KernelSet) -> [UInt8] {
    let w = region.width, h = region.height
    let rgba = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * 4)
    rgba.initialize(repeating: 0, count: w * h * 4)
    defer { rgba.deallocate() }
    let scratch = Scratch(width: w)
    defer { scratch.deallocate() }
    Executor(kernels: kernels).run(
      cmds, target: Target(base: rgba, stride: w * 4, box: region), rows: region.y0..<region.y1,
      scratch: scratch)
    return [UInt8](unsafeUninitializedCapacity: w * h) { out, n in
      for i in 0..<(w * h) { out[i] = rgba[i * 4 + 3] }
      n = w * h
    }
  }

  /// Normalised Gaussian weights for offsets −reach…reach.
  static func kernel(sigma: Double, reach: Int) -> [Float] {
    var k = (-reach...reach).map { i -> Double in exp(-Double(i * i) / (2 * sigma * sigma)) }
    let sum = k.reduce(0, +)
    k = k.map { $0 / sum }
    return k.map(Float.init)
  }

  /// The kernel that also moves its input by `shift` ∈ [0, 1) pixels:
  /// 2·reach + 2 taps, tap t reading the input at offset t − reach − 1 with
  /// weight G(t − reach − 1 + shift), taps beyond ±reach dropped, normalised.
  /// At shift 0 it is `kernel` with a zero tap in front.
  static func kernel(sigma: Double, reach: Int, shift f: Double) -> [Float] {
    var k = (0...(2 * reach + 1)).map { t -> Double in
      let d = Double(t - reach - 1) + f
      return abs(d) <= Double(reach) ? exp(-d * d / (2 * sigma * sigma)) : 0
    }
    let sum = k.reduce(0, +)
    k = k.map { $0 / sum }
    return k.map(Float.init)
  }

  /// Separable Gaussian blur (zero outside), horizontal then vertical, of
  /// alpha levels (`level`) to coverage bytes (`coverage`): the bytes of
  /// `blurReference`'s values, with the work of identical rows shared. A
  /// row equal to the one above (the inside of a box or rounded box, the
  /// empty margin) has the same horizontal pass, so only the first of each
  /// run is blurred; an output row whose vertical window lies inside one
  /// run reads the same row at every tap, so it equals every other such row
  /// of that run and is copied. Each kept row is computed exactly as the
  /// reference computes it, so the result is the same to the bit; what a
  /// snapshot's shadow costs then grows with its edges, not its area. The
  /// vertical pass likewise filters only the first of each run of equal
  /// columns and copies it along, and skips taps that read a zero row; the
  /// horizontal pass copies a column whose window and its left
  /// neighbour's lie in one run of equal samples, and leaves zero rows.
  /// Bytes in and out: what passes over the whole area (finding the runs,
  /// copying rows) moves a quarter of what floats would, and no row is
  /// cleared that is not computed.
  ///
  /// The inner loops run over contiguous x for each tap, which LLVM
  /// vectorises; the rows computed are spread over the cores in both passes.
  ///
  /// `shift` moves the result right and down by fractions of a pixel (each
  /// in [0, 1)): the shadow's offset below a whole pixel, exact, folded
  /// into the kernels. The result is as large as the input; what moves past
  /// its edge is lost, so callers leave a pixel of margin.
  static func blur(
    _ input: [UInt8], width w: Int, height h: Int, sigma: Double, reach: Int, shift: (x: Double, y: Double) = (0, 0)
  ) -> [UInt8] {
    let (kx, ky, r) = passKernels(sigma: sigma, reach: reach, shift: shift)
    let taps = kx.count
    guard w > 0, h > 0 else { return [] }
    precondition(input.count >= w * h)
    // runStart[y]: the first row of the run of rows equal to row y.
    var runStart = [Int](repeating: 0, count: h)
    input.withUnsafeBufferPointer { src in
      for y in 1..<max(h, 1) {
        let same = memcmp(src.baseAddress! + y * w, src.baseAddress! + (y - 1) * w, w) == 0
        runStart[y] = same ? runStart[y - 1] : y
      }
    }
    let blurredRows = (0..<h).filter { runStart[$0] == $0 }
    // copyOf[y]: an earlier output row equal to row y (-1: computed).
    var copyOf = [Int](repeating: -1, count: h)
    var firstInRun = [Int](repeating: -1, count: h)
    for y in 0..<h {
      let top = y - r, bottom = y - r + taps - 1
      guard top >= 0, bottom < h, runStart[top] == runStart[bottom] else { continue }
      if firstInRun[runStart[top]] < 0 { firstInRun[runStart[top]] = y } else { copyOf[y] = firstInRun[runStart[top]] }
    }
    let computedRows = (0..<h).filter { copyOf[$0] < 0 }
    // zeroRow[y]: row y (a run's first) is all zero; its passes add +0.
    let zeroRow = input.withUnsafeBufferPointer { src in
      (0..<h).map { y in runStart[y] == y && !(0..<w).contains { src[y * w + $0] != 0 } }
    }
    // The horizontal pass: only the rows of `blurredRows` that are not zero
    // are written, and only they are read.
    let mid = UnsafeMutablePointer<Float>.allocate(capacity: w * h)
    defer { mid.deallocate() }
    return [UInt8](unsafeUninitializedCapacity: w * h) { out, n in
      let dst = out.baseAddress!
      input.withUnsafeBufferPointer { src in
        kx.withUnsafeBufferPointer { kxw in ky.withUnsafeBufferPointer { kyw in
          runStart.withUnsafeBufferPointer { runStart in
            let job = UncheckedSendable(
              value: (src.baseAddress!, mid, dst, kxw.baseAddress!, kyw.baseAddress!, runStart.baseAddress!))
            let threadsX = max(1, min(Compositor.processorCount, blurredRows.count / 32))
            DispatchQueue.concurrentPerform(iterations: threadsX) { t in
              let (src, mid, _, kw, _, _) = job.value
              let padded = UnsafeMutablePointer<Float>.allocate(capacity: w + 2 * r)
              defer { padded.deallocate() }
              // Per padded sample, the first of its run of equal samples;
              // and the output columns filtered, as (start, end) pairs.
              let runFirst = UnsafeMutablePointer<Int>.allocate(capacity: w + 2 * r)
              defer { runFirst.deallocate() }
              let spans = UnsafeMutablePointer<Int>.allocate(capacity: 2 * w)
              defer { spans.deallocate() }
              for k in stride(from: t, to: blurredRows.count, by: threadsX) {
                let y = blurredRows[k]
                if zeroRow[y] { continue }
                padded.initialize(repeating: 0, count: w + 2 * r)
                for x in 0..<w { padded[r + x] = level(src[y * w + x]) }
                // Column x reads samples x…x + taps − 1: when they and
                // column x − 1's lie in one run of equal samples, it sums
                // the same products in the same order, so it is column
                // x − 1's value again and is copied, not filtered.
                let length = w + 2 * r
                runFirst[0] = 0
                for i in 1..<length {
                  runFirst[i] = padded[i].bitPattern == padded[i - 1].bitPattern ? runFirst[i - 1] : i
                }
                @inline(__always) func repeats(_ x: Int) -> Bool {
                  x > 0 && x + taps - 1 < length && runFirst[x + taps - 1] <= x - 1
                }
                let spanCount = columnSpans(w, into: spans, repeats: repeats)
                let o = mid + y * w
                o.initialize(repeating: 0, count: w)
                for tap in 0..<taps {
                  accumulate(into: o, kw[tap], times: padded + tap, over: spans, spanCount)
                }
                copyAlong(o, w, over: spans, spanCount)
              }
            }
            // An output column depends on its column of the horizontal
            // pass alone: a column equal to the one on its left (inside a
            // box, the empty margin) gives that column's result again, so
            // only the runs' first columns are filtered (`spans`), the
            // others copied. A zero row adds +0 at every tap (the sums
            // start at +0 and grow), so its taps are skipped.
            var repeatsLeft = [Bool](repeating: true, count: w)
            repeatsLeft[0] = false
            for y in blurredRows where !zeroRow[y] {
              let row = UnsafeRawPointer(mid + y * w).assumingMemoryBound(to: UInt32.self)
              for x in 1..<max(w, 1) where repeatsLeft[x] && row[x] != row[x - 1] { repeatsLeft[x] = false }
            }
            let spans = UnsafeMutablePointer<Int>.allocate(capacity: 2 * w)
            defer { spans.deallocate() }
            let spanCount = columnSpans(w, into: spans, repeats: { repeatsLeft[$0] })
            let threadsY = max(1, min(Compositor.processorCount, computedRows.count / 32))
            zeroRow.withUnsafeBufferPointer { zero in
              let columns = UncheckedSendable(value: (spans, spanCount, zero.baseAddress!))
              DispatchQueue.concurrentPerform(iterations: threadsY) { t in
                let (_, mid, dst, _, kw, runStart) = job.value
                let (spans, spanCount, zero) = columns.value
                let o = UnsafeMutablePointer<Float>.allocate(capacity: w)
                defer { o.deallocate() }
                for k in stride(from: t, to: computedRows.count, by: threadsY) {
                  let y = computedRows[k]
                  o.initialize(repeating: 0, count: w)
                  for tap in 0..<taps {
                    let sy = y + tap - r
                    if sy < 0 || sy >= h || zero[runStart[sy]] { continue }
                    accumulate(into: o, kw[tap], times: mid + runStart[sy] * w, over: spans, spanCount)
                  }
                  copyAlong(o, w, over: spans, spanCount)
                  coverage(o, into: dst + y * w, count: w)
                }
              }
            }
          }
        } }
      }
      for y in 0..<h where copyOf[y] >= 0 {
        (dst + y * w).initialize(from: dst + copyOf[y] * w, count: w)
      }
      n = w * h
    }
  }

  /// An alpha byte as the blur's input: its level, 0…1.
  @inline(__always)
  static func level(_ alpha: UInt8) -> Float { Float(alpha) * (1 / 255) }

  /// Blurred values as coverage bytes: each clamped to 0…1 and rounded to
  /// the nearest of 255 levels, eight at a time.
  static func coverage(_ values: UnsafePointer<Float>, into bytes: UnsafeMutablePointer<UInt8>, count: Int) {
    let raw = UnsafeRawPointer(values), out = UnsafeMutableRawPointer(bytes)
    var i = 0
    while i + 8 <= count {
      var v = raw.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self)
      v.replace(with: 0, where: v .< 0)
      v.replace(with: 1, where: v .> 1)
      let level = truncated(v * 255 + 0.5)
      out.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: level), toByteOffset: i, as: SIMD8<UInt8>.self)
      i += 8
    }
    for j in i..<count { bytes[j] = UInt8(clamp01(values[j]) * 255 + 0.5) }
  }

  /// One tap of a pass: `output[x] += weight · source[x]` for the columns
  /// of `spans` (`columnSpans`' pairs), the others left to be copied.
  @inline(__always)
  static func accumulate(
    into output: UnsafeMutablePointer<Float>, _ weight: Float, times source: UnsafePointer<Float>,
    over spans: UnsafePointer<Int>, _ spanCount: Int
  ) {
    var i = 0
    while i < spanCount {
      for x in spans[i]..<spans[i + 1] { output[x] += weight * source[x] }
      i += 2
    }
  }

  /// Columns 0..<count outside `spans` (`columnSpans`' pairs: column 0 is
  /// in the first) take the value on their left: each gap is filled with
  /// the value before it, whole runs at a time.
  @inline(__always)
  static func copyAlong(_ output: UnsafeMutablePointer<Float>, _ count: Int, over spans: UnsafePointer<Int>, _ spanCount: Int) {
    var i = 0
    while i < spanCount {
      let start = spans[i + 1], end = i + 2 < spanCount ? spans[i + 2] : count
      if start < end { (output + start).update(repeating: output[start - 1], count: end - start) }
      i += 2
    }
  }

  /// The columns 0..<count that `repeats` does not copy from their left
  /// neighbour, as runs written to `spans` (start, end, start, end, …; room
  /// for 2·count); returns how many values it wrote.
  @inline(__always)
  static func columnSpans(_ count: Int, into spans: UnsafeMutablePointer<Int>, repeats: (Int) -> Bool) -> Int {
    var n = 0
    for x in 0..<count where !repeats(x) {
      if n > 0 && spans[n - 1] == x {
        spans[n - 1] = x + 1
      } else {
        (spans[n], spans[n + 1]) = (x, x + 1)
        n += 2
      }
    }
    return n
  }

  /// The horizontal and vertical kernels of a blur moving its input by
  /// `shift`, and `r`: tap t reads offset t − r (the taps run from
  /// −reach − 1).
  static func passKernels(sigma: Double, reach: Int, shift: (x: Double, y: Double)) -> (x: [Float], y: [Float], r: Int) {
    (kernel(sigma: sigma, reach: reach, shift: shift.x), kernel(sigma: sigma, reach: reach, shift: shift.y), reach + 1)
  }

  /// The blur as defined, of levels to values: every row of both passes
  /// computed on its own. `blur` gives the coverage bytes of its values.
  static func blurReference(
    _ input: [Float], width w: Int, height h: Int, sigma: Double, reach: Int, shift: (x: Double, y: Double) = (0, 0)
  ) -> [Float] {
    let (kx, ky, r) = passKernels(sigma: sigma, reach: reach, shift: shift)
    let taps = kx.count
    var horizontal = [Float](repeating: 0, count: w * h)
    var out = [Float](repeating: 0, count: w * h)
    for y in 0..<h {
      for tap in 0..<taps {
        for x in 0..<w {
          let sx = x + tap - r
          horizontal[y * w + x] += kx[tap] * (sx >= 0 && sx < w ? input[y * w + sx] : 0)
        }
      }
    }
    for y in 0..<h {
      for tap in 0..<taps {
        let sy = y + tap - r
        if sy < 0 || sy >= h { continue }
        for x in 0..<w { out[y * w + x] += ky[tap] * horizontal[sy * w + x] }
      }
    }
    return out
  }
}
