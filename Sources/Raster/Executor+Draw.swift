import Geometry

// A draw's paths, one per paint. Every path walks the band's rows, takes
// the shape's runs on that row (full: coverage 1; partial: a coverage value
// per pixel) minus the columns later opaque draws hide, and hands each run
// to one kernel call. The image path has three ways to get a source row —
// read in place (an integer translation at scale 1), sampled straight into
// the target (full runs of an opaque image at full opacity), or sampled
// into scratch and blended — and batches the straight full runs of a map
// that keeps columns for `Sampler.sampleColumns`/`sampleScaled`.

/// What every draw path of one draw needs over one band.
struct DrawBand {
  /// The draw's bounds clipped to the target and the band.
  let region: PixelBox
  let opacity: Float
  /// `opacity` as a coverage byte (never 0 here).
  let opacity8: UInt8
  let target: Target
  let scratch: Scratch
  /// The columns later opaque draws hide on every row of the band.
  let hidden: (Int, Int)

  var coverage: RowCoverage {
    RowCoverage(lo: region.x0, hi: region.x1, stack: scratch.cov, stride: scratch.width)
  }
}

/// What an image draw decides once per band, before its rows.
struct ImageDrawPlan {
  let width: Int
  let height: Int
  let map: Homography
  /// (dx, dy) when the map is a translation by whole pixels at scale 1.
  let direct: (Int, Int)?
  /// Full runs of an opaque image at full opacity are sampled straight into
  /// the target.
  let straight: Bool
  /// The folded overlay's colour and coverage byte.
  let tint8: (color: Pixel, coverage: UInt8)?
  /// The tint premultiplied by its coverage, as
  /// `Kernels.blend(_:solid:_:coverage:_:)` makes it.
  let tintPixel: Pixel?
  /// Straight full runs of a map that keeps columns (a page turning about a
  /// vertical axis, a scaled snapshot) are collected for the band and
  /// sampled eight columns at a time down the rows.
  let byColumns: Bool
  /// …and of those, axis-aligned scales (`Sampler.sampleScaled`).
  let scaled: Bool
  /// A draw that blends (not `straight`) through an axis-aligned scale:
  /// its runs are sampled through a `Sampler.ScaledRows` over the band.
  let scaledRows: Bool
  /// The image's rows that repeat the row above, when it is indexed
  /// (`SolidRuns`; valid while `drawImage` holds the index).
  var repeatsAbove: UnsafePointer<Bool>?

  init(_ op: DrawOp, _ bitmap: Bitmap, _ m: Homography, _ band: DrawBand, kernels: KernelSet) {
    width = bitmap.width
    height = bitmap.height
    map = m
    direct = Executor.directOffset(m)
    straight = band.opacity8 == 255 && bitmap.isKnownOpaque
    let tint8 = op.tint.map { (color: $0.color, coverage: UInt8(Float(clamp01($0.opacity)) * 255 + 0.5)) }
    self.tint8 = tint8
    tintPixel = tint8.map { t -> Pixel in
      let c = UInt32(t.coverage), p = t.color
      return Pixel(
        r: UInt8(mul255(UInt32(p.r), c)), g: UInt8(mul255(UInt32(p.g), c)), b: UInt8(mul255(UInt32(p.b), c)),
        a: UInt8(mul255(UInt32(p.a), c)))
    }
    byColumns = straight && kernels == .simd && direct == nil
      && Sampler.samplesByColumns(m, width: width, height: height, x0: band.region.x0, x1: band.region.x1)
    scaled = byColumns && Sampler.samplesScaled(m, width: width, height: height)
    scaledRows = !straight && kernels == .simd && direct == nil && Sampler.samplesScaled(m, width: width, height: height)
  }
}

extension Executor {
  // MARK: - Solid colour

  func drawSolid(_ op: DrawOp, _ p: Pixel, _ band: DrawBand) {
    guard p.a > 0 else { return }
    let region = band.region, target = band.target, scratch = band.scratch
    // The coverage is evaluated only on the columns that show, left and
    // right of what later opaque draws hide: a shadow's soft edge under
    // its opaque layer is not computed to be thrown away.
    let (left, right) = Executor.visible(region, hidden: band.hidden)
    for side in 0..<2 {
      let (x0, x1) = side == 0 ? left : right
      guard x0 < x1 else { continue }
      let rc = RowCoverage(lo: x0, hi: x1, stack: scratch.cov, stride: scratch.width)
      for y in region.y0..<region.y1 {
        let runs = rc.evaluate(op.shapes, y: y)
        for k in 0..<runs.count {
          let run = runs.items[k]
          let n = run.end - run.start
          let d = target.pixel(run.start, y)
          if run.full {
            if band.opacity8 == 255 && p.a == 255 {
              Kernels.fill(d, p, n)
            } else {
              Kernels.blend(d, solid: p, n, coverage: band.opacity8, kernels)
            }
          } else {
            blend(d, solid: p, n, coverage: scratch.cov + (run.start - rc.lo), opacity: band.opacity, scratch: scratch)
          }
        }
      }
    }
  }

  // MARK: - Gradient

  func drawGradient(_ op: DrawOp, _ g: GradientPaint, _ band: DrawBand) {
    let region = band.region, scratch = band.scratch, rc = band.coverage
    g.lut.withUnsafeBufferPointer { lut in
      for y in region.y0..<region.y1 {
        let runs = rc.evaluate(op.shapes, y: y).subtracting(band.hidden.0, band.hidden.1)
        if runs.isEmpty { continue }
        let s0 = runs.start, s1 = runs.end
        Gradients.shade(g, lut: lut.baseAddress!, y: y, x0: s0, count: s1 - s0, into: scratch.src, kernels)
        blendRuns(
          runs, cov: scratch.cov, lo: rc.lo, src: scratch.src, x0: s0, y: y, opacity: band.opacity,
          opacity8: band.opacity8, target: band.target, scratch: scratch, sourceOpaque: nil)
      }
    }
  }

  // MARK: - Image

  func drawImage(_ op: DrawOp, _ bitmap: Bitmap, _ m: Homography, _ band: DrawBand) {
    var plan = ImageDrawPlan(op, bitmap, m, band, kernels: kernels)
    let region = band.region, rc = band.coverage
    // A snapshot's flat stretches, for the copies, and its repeated rows,
    // for the scaled rows (`SolidRuns`).
    let solid = kernels == .simd ? bitmap.solidRuns : nil
    let solidView = solid?.view
    plan.repeatsAbove = solidView?.repeatsAbove
    defer { withExtendedLifetime(solid) {} }
    bitmap.bytes.withUnsafeBufferPointer { buf in
      let img = buf.baseAddress!
      var pending = 0
      defer { if pending > 0 { sampleColumnSpans(img, plan, band, pending: &pending) } }
      var rows =
        plan.scaledRows
        ? Sampler.ScaledRows(
          img, width: plan.width, height: plan.height, toImage: m, x0: region.x0, x1: region.x1,
          rows: band.scratch.rows, rowCapacity: band.scratch.width, columns: band.scratch.columns,
          repeatsAbove: plan.repeatsAbove) : nil
      for y in region.y0..<region.y1 {
        let runs = rc.evaluate(op.shapes, y: y).subtracting(band.hidden.0, band.hidden.1)
        if runs.isEmpty { continue }
        if let (dx, dy) = plan.direct, y + dy >= 0, y + dy < plan.height, runs.start + dx >= 0,
          runs.end + dx <= plan.width
        {
          let row = img + ((y + dy) * plan.width + runs.start + dx) * 4
          drawImageRowInPlace(
            op, runs, row: row, y: y, plan, band, opaque: bitmap.isKnownOpaque,
            solid: solidView.map { ($0, y + dy, dx) })
        } else {
          drawImageRowSampled(op, runs, img, y: y, plan, band, pending: &pending, rows: &rows)
        }
      }
    }
  }

  /// One row of an image read in place: `row` addresses the image pixel
  /// under device column `runs.start`; `solid` is the image's flat-stretch
  /// index with that row and the device-to-image column shift.
  @inline(__always) func drawImageRowInPlace(
    _ op: DrawOp, _ runs: Runs, row: UnsafePointer<UInt8>, y: Int, _ plan: ImageDrawPlan, _ band: DrawBand,
    opaque: Bool, solid: (view: SolidRunsView, row: Int, shift: Int)?
  ) {
    let target = band.target, scratch = band.scratch, lo = band.region.x0, s0 = runs.start
    guard let tint = op.tint, let tintPixel = plan.tintPixel, plan.straight else {
      if let tint = op.tint, let tintPixel = plan.tintPixel {
        blendTintedRuns(
          tint, tintPixel: tintPixel, runs, cov: scratch.cov, lo: lo, src: row, x0: s0, y: y, opacity: band.opacity,
          opacity8: band.opacity8, target: target, scratch: scratch, sourceOpaque: opaque ? true : nil, solid: solid)
        return
      }
      blendRuns(
        runs, cov: scratch.cov, lo: lo, src: row, x0: s0, y: y, opacity: band.opacity, opacity8: band.opacity8,
        target: target, scratch: scratch, sourceOpaque: opaque ? true : nil, solid: solid)
      return
    }
    // Full runs: the copy and the tint in one pass; flat stretches are the
    // tinted colour, filled, nothing read.
    var rest = Runs()
    for k in 0..<runs.count {
      let r = runs.items[k]
      guard r.full else {
        rest.items[rest.count] = r
        rest.count += 1
        continue
      }
      @inline(__always) func copy(_ x0: Int, _ x1: Int) {
        if y + 1 < band.region.y1 { Kernels.prefetch(row + (x0 - s0 + plan.width) * 4) }
        Kernels.copy(target.pixel(x0, y), row + (x0 - s0) * 4, x1 - x0, tint: tintPixel, kernels)
      }
      guard let solid else {
        copy(r.start, r.end)
        continue
      }
      solid.view.pieces(
        row: solid.row, shift: solid.shift, solid.view, row: solid.row, shift: solid.shift, from: r.start, to: r.end,
        solid: { x0, x1, p, _ in Kernels.fill(target.pixel(x0, y), Kernels.tinted(p, tintPixel), x1 - x0) },
        mixed: copy)
    }
    if rest.isEmpty { return }
    blendTintedRuns(
      tint, tintPixel: tintPixel, rest, cov: scratch.cov, lo: lo, src: row, x0: s0, y: y, opacity: band.opacity,
      opacity8: band.opacity8, target: target, scratch: scratch, sourceOpaque: true)
  }

  /// One row of an image sampled through its map: straight full runs are
  /// queued for the column walk or sampled into the target; the rest is
  /// sampled into scratch (through `rows` when the plan has them) and blended.
  @inline(__always) func drawImageRowSampled(
    _ op: DrawOp, _ runs: Runs, _ img: UnsafePointer<UInt8>, y: Int, _ plan: ImageDrawPlan, _ band: DrawBand,
    pending: inout Int, rows: inout Sampler.ScaledRows?
  ) {
    let target = band.target, scratch = band.scratch, s0 = runs.start
    var rest = Runs()
    for k in 0..<runs.count {
      let r = runs.items[k]
      if r.full && plan.byColumns {
        if pending == Scratch.spanCapacity { sampleColumnSpans(img, plan, band, pending: &pending) }
        scratch.spans[pending] = Sampler.Span(Int32(y), Int32(r.start), Int32(r.end))
        pending += 1
      } else if r.full && plan.straight {
        Sampler.sampleRow(
          img, width: plan.width, height: plan.height, toImage: plan.map, y: y, x0: r.start, count: r.end - r.start,
          into: target.pixel(r.start, y), kernels, tint: plan.tint8)
      } else {
        if rows != nil {
          Sampler.sampleScaledRow(&rows!, y: y, x0: r.start, count: r.end - r.start, into: scratch.src + (r.start - s0) * 4)
        } else {
          Sampler.sampleRow(
            img, width: plan.width, height: plan.height, toImage: plan.map, y: y, x0: r.start, count: r.end - r.start,
            into: scratch.src + (r.start - s0) * 4, kernels)
        }
        rest.items[rest.count] = r
        rest.count += 1
      }
    }
    if rest.isEmpty { return }
    let lo = band.region.x0
    if let tint = op.tint, let tintPixel = plan.tintPixel {
      blendTintedRuns(
        tint, tintPixel: tintPixel, rest, cov: scratch.cov, lo: lo, src: scratch.src, x0: s0, y: y,
        opacity: band.opacity, opacity8: band.opacity8, target: target, scratch: scratch, sourceOpaque: nil)
      return
    }
    blendRuns(
      rest, cov: scratch.cov, lo: lo, src: scratch.src, x0: s0, y: y, opacity: band.opacity,
      opacity8: band.opacity8, target: target, scratch: scratch, sourceOpaque: nil)
  }

  /// Samples the queued full runs eight columns at a time down the band.
  func sampleColumnSpans(_ img: UnsafePointer<UInt8>, _ plan: ImageDrawPlan, _ band: DrawBand, pending: inout Int) {
    let scratch = band.scratch, tint = plan.tintPixel ?? .clear, tinted = plan.tintPixel != nil
    if plan.scaled {
      Sampler.sampleScaled(
        img, width: plan.width, height: plan.height, toImage: plan.map, spans: scratch.spans, count: pending,
        rows: scratch.rows, rowCapacity: scratch.width, columns: scratch.columns, target: band.target, tint: tint,
        tinted: tinted, repeatsAbove: plan.repeatsAbove)
    } else {
      Sampler.sampleColumns(
        img, width: plan.width, height: plan.height, toImage: plan.map, spans: scratch.spans, count: pending,
        x0: band.region.x0, x1: band.region.x1, cache: scratch.columnCache, target: band.target, tint: tint,
        tinted: tinted)
    }
    pending = 0
  }
}
