import Geometry
import Testing
@testable import Raster

@Suite struct CompositorTests {
  let red = Color(red: 1, green: 0, blue: 0)

  @Test func solidFillIsExact() {
    var bmp = Bitmap(width: 20, height: 10)
    Compositor(scale: 1).render(solidLayer(Rect(x: 2, y: 3, width: 10, height: 4), red), into: &bmp)
    #expect(bmp[2, 3] == Pixel(r: 255, g: 0, b: 0, a: 255))
    #expect(bmp[11, 6] == Pixel(r: 255, g: 0, b: 0, a: 255))
    #expect(bmp[1, 3] == .clear)
    #expect(bmp[12, 3] == .clear)
    #expect(bmp[2, 7] == .clear)
    #expect(bmp[2, 2] == .clear)
  }

  @Test func halfPixelEdgeIsHalfCovered() {
    var bmp = Bitmap(width: 20, height: 4)
    // Right edge at x = 10.5: pixel 10 is half covered.
    Compositor(scale: 1).render(solidLayer(Rect(x: 0, y: 0, width: 10.5, height: 4), .white), into: &bmp)
    #expect(bmp[9, 1] == Pixel(r: 255, g: 255, b: 255, a: 255))
    #expect(bmp[10, 1] == Pixel(r: 128, g: 128, b: 128, a: 128))
    #expect(bmp[11, 1] == .clear)
    // Both a left and a top edge at .25: coverage 0.75 × 0.75.
    var b2 = Bitmap(width: 4, height: 4)
    Compositor(scale: 1).render(solidLayer(Rect(x: 1.25, y: 1.25, width: 2, height: 2), .white), into: &b2)
    #expect(b2[1, 1].a == UInt8((0.5625 * 255).rounded()))
  }

  @Test func scaleMultipliesGeometry() {
    var bmp = Bitmap(width: 30, height: 30)
    Compositor(scale: 3).render(solidLayer(Rect(x: 1, y: 1, width: 2, height: 2), red), into: &bmp)
    #expect(bmp[3, 3].a == 255)
    #expect(bmp[8, 8].a == 255)
    #expect(bmp[9, 9].a == 0)
    #expect(bmp[2, 2].a == 0)
  }

  @Test func roundedCorners() {
    var l = solidLayer(Rect(x: 0, y: 0, width: 40, height: 40), .white)
    l.cornerRadius = 10
    var bmp = Bitmap(width: 40, height: 40)
    Compositor(scale: 1).render(l, into: &bmp)
    #expect(bmp[0, 0].a == 0)
    #expect(bmp[20, 0].a == 255)
    #expect(bmp[0, 20].a == 255)
    #expect(bmp[39, 39].a == 0)
    // Pixel (2, 2): centre (2.5, 2.5), distance to the corner centre (10, 10)
    // is 7.5·√2 = 10.607, so coverage = 0.5 − 0.607 → 0.
    #expect(bmp[2, 2].a == 0)
    // Pixel (3, 3): distance 6.5·√2 = 9.192 → coverage 0.5 + 0.808 → 1.
    #expect(bmp[3, 3].a == 255)
    // Pixel (1, 6): centre (1.5, 6.5): distance √(8.5² + 3.5²) = 9.192 → 1; (0, 6): √(9.5²+3.5²) = 10.124 → 0.376.
    let d06: Double = (9.5 * 9.5 + 3.5 * 3.5).squareRoot()
    let c06: Double = (0.5 - d06 + 10) * 255
    #expect(bmp[0, 6].a == UInt8(c06.rounded()))
    // Symmetry.
    for y in 0..<40 {
      for x in 0..<40 { #expect(bmp[x, y] == bmp[39 - x, y] && bmp[x, y] == bmp[y, x]) }
    }
  }

  @Test func circleMaskCoverage() {
    var top = solidLayer(Rect(x: 0, y: 0, width: 40, height: 40), .white)
    var mask = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
    mask.path = Path(circleCenter: Point(x: 20, y: 20), radius: 10)
    mask.fillColor = .black
    top.mask = mask
    var bmp = Bitmap(width: 40, height: 40)
    Compositor(scale: 1).render(top, into: &bmp)
    // coverage = r + 0.5 − d at the pixel centre.
    for (x, y) in [(20, 20), (29, 19), (30, 19), (27, 27), (15, 28), (0, 0)] {
      let dx = Double(x) + 0.5 - 20, dy = Double(y) + 0.5 - 20
      let c = min(max(10.5 - (dx * dx + dy * dy).squareRoot(), 0), 1)
      #expect(Int(bmp[x, y].a) == Int((c * 255).rounded()), "pixel \(x),\(y)")
    }
  }

  @Test func circleShapeLayerFill() {
    var s = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 20))
    s.path = Path(ovalIn: Rect(x: 5, y: 5, width: 10, height: 10))
    s.fillColor = red
    var bmp = Bitmap(width: 20, height: 20)
    Compositor(scale: 1).render(s, into: &bmp)
    #expect(bmp[10, 10] == Pixel(r: 255, g: 0, b: 0, a: 255))
    #expect(bmp[1, 1] == .clear)
    #expect(bmp[14, 10].a > 100 && bmp[14, 10].a <= 255)
  }

  @Test func groupOpacity() {
    // Two overlapping opaque sublayers at opacity 0.5: as a group, the overlap is not darker.
    var parent = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    parent.sublayers = [
      solidLayer(Rect(x: 0, y: 0, width: 6, height: 10), red),
      solidLayer(Rect(x: 4, y: 0, width: 6, height: 10), red),
    ]
    parent.opacity = 0.5
    var bmp = Bitmap(width: 10, height: 10, fill: Pixel(r: 0, g: 0, b: 255, a: 255))
    Compositor(scale: 1).render(parent, into: &bmp)
    #expect(bmp[1, 1] == bmp[5, 1])
    #expect(bmp[1, 1] == Pixel(r: 128, g: 0, b: 127, a: 255))
    // Single layer at opacity 0.25 over white.
    var w = Bitmap(width: 4, height: 4, fill: Pixel(r: 255, g: 255, b: 255, a: 255))
    var l = solidLayer(Rect(x: 0, y: 0, width: 4, height: 4), .black)
    l.opacity = 0.25
    Compositor(scale: 1).render(l, into: &w)
    #expect(w[0, 0] == Pixel(r: 191, g: 191, b: 191, a: 255))
  }

  @Test func contentsExactCopyAndScaling() {
    let img = noiseBitmap(width: 30, height: 24, seed: 7)
    var l = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 8))
    l.contents = img
    l.contentsScale = 3
    var bmp = Bitmap(width: 30, height: 24)
    Compositor(scale: 3).render(l, into: &bmp)
    #expect(bmp == img)
    // Offset by whole pixels.
    l.position = Point(x: 5 + 1, y: 4 + 2)
    var b2 = Bitmap(width: 40, height: 40)
    Compositor(scale: 1).render(l, into: &b2)
    // At scale 1 a 30×24 image in 10×8 pt: downscaled 3×; pixel (1..10, 2..9).
    #expect(b2[0, 0] == .clear)
    #expect(b2[1, 2].a == 255)
    #expect(b2[11, 2] == .clear)
    // Upscaling a 2×1 image to 4×1 with bilinear filtering.
    var two = Bitmap(width: 2, height: 1)
    two[0, 0] = Pixel(r: 0, g: 0, b: 0, a: 255)
    two[1, 0] = Pixel(r: 255, g: 255, b: 255, a: 255)
    var up = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 1))
    up.contents = two
    var b3 = Bitmap(width: 4, height: 1)
    Compositor(scale: 1).render(up, into: &b3)
    // Device centres 0.5,1.5,2.5,3.5 → image u = 0.25,0.75,1.25,1.75 → u−0.5 = −0.25 (clamped 0), .25, .75, 1.25 (clamped 1).
    #expect(b3[0, 0].r == 0)
    #expect(b3[1, 0].r == 64)
    #expect(b3[2, 0].r == 191)
    #expect(b3[3, 0].r == 255)
  }

  @Test func circleSpreadFrame() {
    let w = 39, h = 84
    let a = noiseBitmap(width: w * 3, height: h * 3, seed: 1)
    let b = noiseBitmap(width: w * 3, height: h * 3, seed: 2)
    for (cx, cy, r) in [(0.0, 0.0, 0.0), (-50.0, -50.0, 30.0), (20.0, 40.0, 15.3), (20.0, 40.0, 1e5)] {
      var root = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
      var from = Layer(frame: root.bounds)
      from.contents = a
      from.contentsScale = 3
      var to = from
      to.contents = b
      var mask = Layer(frame: root.bounds)
      mask.path = Path(ovalIn: Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r))
      mask.fillColor = .white
      to.mask = mask
      root.sublayers = [from, to]
      var out = Bitmap(width: w * 3, height: h * 3)
      Compositor(scale: 3).render(root, into: &out)
      var ref = Bitmap(width: w * 3, height: h * 3)
      Compositor(scale: 3, threadCount: 1, kernels: .reference).render(root, into: &ref)
      #expect(out == ref)
      let r3 = r * 3, cx3 = cx * 3, cy3 = cy * 3
      for y in Swift.stride(from: 0, to: h * 3, by: 7) {
        for x in Swift.stride(from: 0, to: w * 3, by: 5) {
          let dx = Double(x) + 0.5 - cx3, dy = Double(y) + 0.5 - cy3
          let d = (dx * dx + dy * dy).squareRoot()
          if d < r3 - 0.5 { #expect(out[x, y] == b[x, y]) }
          if d > r3 + 0.5 { #expect(out[x, y] == a[x, y]) }
        }
      }
    }
  }
}

@Suite struct OverlayFoldingTests {
  /// A page turned about its left edge by θ (or rotated in plane), over a
  /// green root; `overlay` (black at 0.45) on it as its sublayer, or as its
  /// sibling when `sibling` (the page then takes `opacity` alone).
  static func scene(
    theta: Double, opacity: Double, rotateZ: Bool, contents: Bitmap, contentsScale: Double, overlay: Double = 0.45,
    sibling: Bool = false, background: Bool = true
  ) -> Layer {
    var root = solidLayer(Rect(x: 0, y: 0, width: 90, height: 70), Color(red: 0.3, green: 0.6, blue: 0.2))
    if !background { root.backgroundColor = nil }
    var t = Transform3D.identity
    t.m34 = -0.004
    root.sublayerTransform = t
    var page = Layer(frame: Rect(x: 5, y: 4, width: 80, height: 60))
    page.contents = contents
    page.contentsScale = contentsScale
    page.anchorPoint = Point(x: 0, y: 0.5)
    page.position = Point(x: 5, y: 34)
    page.transform = rotateZ ? .rotation(z: 0.3) : .rotation(y: theta * .pi / 180)
    page.opacity = opacity
    guard overlay > 0 else {
      root.sublayers = [page]
      return root
    }
    if sibling {
      var dim = page
      dim.contents = nil
      dim.backgroundColor = .black
      dim.opacity = overlay
      root.sublayers = [page, dim]
    } else {
      var dim = solidLayer(page.bounds, .black)
      dim.opacity = overlay
      page.sublayers = [dim]
      root.sublayers = [page]
    }
    return root
  }

  /// Each pixel's coverage by the page as a byte: the alpha of an opaque
  /// white page drawn alone on a transparent canvas.
  static func coverage(theta: Double, rotateZ: Bool, scale: Double) -> Bitmap {
    let white = Bitmap(width: 8, height: 6, fill: Pixel(r: 255, g: 255, b: 255, a: 255))
    let root = scene(
      theta: theta, opacity: 1, rotateZ: rotateZ, contents: white, contentsScale: 0.1, overlay: 0, background: false)
    return Compositor(scale: scale, threadCount: 1, kernels: .reference).snapshot(root)
  }

  /// A snapshot with a black overlay sublayer (page flip, navigation
  /// dimming): folding the overlay into the image draw changes no pixel the
  /// page covers whole, nor any it misses. (At its anti-aliased edge the
  /// folded draw is the one flattened layer, `flattenedEdgeTakesTheTintOnce`,
  /// where the separate draws each blend through the edge's coverage.)
  @Test(arguments: [0.0, -30.0, -60.0, -85.0])
  func foldedOverlayEqualsSeparateDraws(theta: Double) {
    for (opacity, scale, rotateZ, direct) in [
      (1.0, 2.0, false, false), (0.7, 1.0, false, false), (1.0, 1.0, true, false), (1.0, 2.0, false, true),
      (1.0, 1.0, false, true),
    ] {
      // `direct`: the image at the layer's pixel size (read in place when θ = 0).
      let root = OverlayFoldingTests.scene(
        theta: theta, opacity: opacity, rotateZ: rotateZ,
        contents: direct
          ? noiseBitmap(width: Int(80 * scale), height: Int(60 * scale), seed: 5) : noiseBitmap(width: 40, height: 30, seed: 5),
        contentsScale: direct ? scale : 1)
      let cover = OverlayFoldingTests.coverage(theta: theta, rotateZ: rotateZ, scale: scale)
      for set in [KernelSet.simd, .reference] {
        var folded = Compositor(scale: scale, threadCount: 1, kernels: set)
        var separate = folded
        separate.foldsOverlays = false
        folded.foldsOverlays = true
        let a = folded.snapshot(root), b = separate.snapshot(root)
        var worst = 0, edge = 0
        for i in 0..<(a.width * a.height) {
          let c = cover.bytes[i * 4 + 3]
          if c != 0 && c != 255 {
            edge += 1
            continue
          }
          for k in 0..<4 { worst = max(worst, abs(Int(a.bytes[i * 4 + k]) - Int(b.bytes[i * 4 + k]))) }
        }
        let whole = worst == 0 && edge < a.width * a.height / 4
        #expect(whole, "θ \(theta) opacity \(opacity) scale \(scale) rotZ \(rotateZ) direct \(direct) \(set): max diff \(worst) off the edge's \(edge) pixels")
      }
    }
  }

  /// At the page's anti-aliased edge the dimmed page is drawn once, as the
  /// one layer the page and its overlay flatten into (and as a device shows
  /// it: each edge pixel the dimmed page's or the backdrop's, mixed by the
  /// share covered): with X the dimmed page's pixel, every edge pixel is
  /// X·c + backdrop·(1 − X.a·c) for its coverage c — never brighter than
  /// both the page's inside and the backdrop (blending the page and then the overlay each through c left a
  /// light rim: over black, a page dimmed to 3 had edge pixels of 50–61).
  /// A sibling overlay over a page at an opacity alike, X then being the
  /// overlay over the faded page. SIMD and reference kernels, every path
  /// (read in place, sampled, turned, rotated in plane).
  @Test(arguments: [0.0, -30.0, -60.0, -85.0])
  func flattenedEdgeTakesTheTintOnce(theta: Double) {
    let backdrop = Color(red: 0.3, green: 0.6, blue: 0.2).premultipliedPixel
    let white = Pixel(r: 255, g: 255, b: 255, a: 255)
    for (overlay, opacity, sibling, scale, rotateZ, direct) in [
      (0.45, 1.0, false, 2.0, false, false), (0.99, 1.0, false, 1.0, false, true), (1.0, 1.0, false, 1.0, true, false),
      (0.3, 1.0, false, 2.0, false, true), (0.45, 0.6, true, 1.0, false, false), (0.8, 1.0, true, 2.0, true, true),
    ] {
      let contents =
        direct
        ? Bitmap(width: Int(80 * scale), height: Int(60 * scale), fill: white) : Bitmap(width: 40, height: 30, fill: white)
      let root = OverlayFoldingTests.scene(
        theta: theta, opacity: opacity, rotateZ: rotateZ, contents: contents, contentsScale: direct ? scale : 1,
        overlay: overlay, sibling: sibling)
      let cover = OverlayFoldingTests.coverage(theta: theta, rotateZ: rotateZ, scale: scale)
      // The dimmed page: the overlay's black (its opacity as a byte) over the page at its opacity.
      let o = UInt32(UInt8(Float(opacity) * 255 + 0.5)), t = UInt32(UInt8(Float(overlay) * 255 + 0.5))
      let page = mul255(255, o), x = (c: mul255(page, 255 - t), a: t + mul255(page, 255 - t))
      for set in [KernelSet.simd, .reference] {
        let out = Compositor(scale: scale, threadCount: 1, kernels: set).snapshot(root)
        var worst = 0, edge = 0, rim = 0
        for i in 0..<(out.width * out.height) {
          let c = UInt32(cover.bytes[i * 4 + 3])
          guard c != 0 && c != 255 else { continue }
          edge += 1
          let under = [backdrop.r, backdrop.g, backdrop.b, backdrop.a].map { UInt32($0) }
          for k in 0..<4 {
            let e = mul255(k == 3 ? x.a : x.c, c) + mul255(under[k], 255 - mul255(x.a, c))
            let got = Int(out.bytes[i * 4 + k])
            worst = max(worst, abs(got - Int(e)))
            // What the page shows where it covers the pixel whole: X over the backdrop.
            let inside = (k == 3 ? x.a : x.c) + mul255(under[k], 255 - x.a)
            if got > max(Int(inside), Int(under[k])) + 1 { rim += 1 }
          }
        }
        // Upright and unturned, the page's edges lie on whole pixels: no edge.
        let once = worst == 0 && rim == 0 && (edge > 0 || (theta == 0 && !rotateZ))
        #expect(once, "θ \(theta) overlay \(overlay) opacity \(opacity) sibling \(sibling) scale \(scale) rotZ \(rotateZ) direct \(direct) \(set): \(edge) edge pixels, max diff \(worst), \(rim) brighter than both")
      }
    }
  }
}

@Suite struct CrossfadeTests {
  /// Two full-screen snapshots fading (drawn by the one-pass cross-fade):
  /// every pixel is the copy-then-blend result (the rounded lerp when both
  /// are opaque), on any thread count.
  @Test(arguments: [false, true]) func crossfadeOfSnapshots(opaqueTop: Bool) {
    var from = noiseBitmap(width: 60, height: 45, seed: 1)
    var to = noiseBitmap(width: 60, height: 45, seed: 2, opaque: opaqueTop)
    // Known opaque: the one-pass cross-fade applies (an opaque top takes `Kernels.lerp`).
    from.updateOpacityHint()
    to.updateOpacityHint()
    #expect(from.isKnownOpaque && to.isKnownOpaque == opaqueTop)
    var root = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 15))
    var b = snapshotLayer(to, root.bounds)
    b.opacity = 0.37
    root.sublayers = [snapshotLayer(from, root.bounds), b]
    let c = UInt32(UInt8(Float(0.37) * 255 + 0.5)), w = UInt32((0.37 * 256).rounded())
    for (threads, set) in [(1, KernelSet.simd), (3, .simd), (1, .reference)] {
      let out = Compositor(scale: 3, threadCount: threads, kernels: set).snapshot(root)
      var worst = 0
      for i in 0..<(60 * 45) {
        let sa = mul255(UInt32(to.bytes[i * 4 + 3]), c)
        for k in 0..<4 {
          let s = UInt32(to.bytes[i * 4 + k]), u = UInt32(from.bytes[i * 4 + k])
          // Copy then coverage blend; two opaque images: the lerp rounded once.
          let e = opaqueTop ? (s * w + u * (256 - w) + 128) >> 8 : mul255(s, c) + mul255(u, 255 - sa)
          worst = max(worst, abs(Int(e) - Int(out.bytes[i * 4 + k])))
        }
      }
      #expect(worst == 0, "threads \(threads) \(set): \(worst)")
    }
  }
}

@Suite struct OcclusionTests {
  /// Renders `root` with and without skipping what opaque draws hide: the
  /// pixels must be identical (an opaque draw's band columns must never
  /// include a pixel it does not cover fully on every row).
  static func expectSame(_ root: Layer, scale: Double, _ what: String) {
    for threads in [1, 3] {
      var on = Compositor(scale: scale, threadCount: threads)
      var off = on
      on.occludes = true
      off.occludes = false
      let a = on.snapshot(root), b = off.snapshot(root)
      let same = a == b
      #expect(same, "\(what) threads \(threads): max diff \(maxDifference(a, b))")
    }
  }

  /// Opaque boxes, rounded boxes, rotated and perspective quads and circle
  /// masks at fractional positions over an image and beneath one another.
  @Test func opaqueShapesHideExactly() {
    let noise = noiseBitmap(width: 60, height: 80, seed: 9)
    for (k, (dx, dy)) in [(0.0, 0.0), (0.37, 0.61), (0.5, 0.5), (0.83, 0.12)].enumerated() {
      var root = Layer(frame: Rect(x: 0, y: 0, width: 60, height: 80))
      var under = Layer(frame: root.bounds)
      under.contents = noise
      root.sublayers.append(under)
      let box = solidLayer(Rect(x: 3 + dx, y: 5 + dy, width: 41.3, height: 30.7), Color(red: 0.9, green: 0.2, blue: 0.1))
      root.sublayers.append(box)
      var rounded = solidLayer(Rect(x: 10 + dx, y: 20 + dy, width: 38.6, height: 44.2), Color(red: 0.1, green: 0.4, blue: 0.8))
      rounded.cornerRadius = 6 + Double(k) * 3.7
      root.sublayers.append(rounded)
      var turned = solidLayer(Rect(x: 8 + dx, y: 40 + dy, width: 40, height: 30), Color(red: 0.2, green: 0.7, blue: 0.3))
      turned.transform = .rotation(z: 0.05 + Double(k) * 0.2)
      root.sublayers.append(turned)
      var page = solidLayer(Rect(x: 5 + dx, y: 2 + dy, width: 50, height: 36), Color(red: 0.5, green: 0.5, blue: 0.1))
      var t = Transform3D.rotation(y: 0.3 + Double(k) * 0.2)
      t.m34 = -0.004
      page.transform = t
      root.sublayers.append(page)
      root.sublayers.append(solidLayer(Rect(x: 20 + dx, y: 52 + dy, width: 39, height: 27.5), .white))
      var top = Layer(frame: root.bounds)
      top.contents = noiseBitmap(width: 60, height: 80, seed: 10 + UInt64(k))
      var mask = Layer(frame: root.bounds)
      let r = 18 + Double(k) * 9.3, cx = 20 + dx * 7, cy = 33 + dy * 11
      mask.path = Path(ovalIn: Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r))
      mask.fillColor = .white
      top.mask = mask
      root.sublayers.append(top)
      for scale in [1.0, 2.0, 3.0] { OcclusionTests.expectSame(root, scale: scale, "case \(k) scale \(scale)") }
    }
  }

  @Test(arguments: Array(UInt64(1)...UInt64(8)))
  func randomScenes(seed: UInt64) {
    OcclusionTests.expectSame(RandomSceneTests.scene(seed: seed), scale: 3, "seed \(seed)")
  }
}

@Suite struct RunsTests {
  /// `Runs.subtract` (in place) against a pixel-by-pixel reference.
  @Test func subtractMatchesPixelwise() {
    var rng = SplitMix(seed: 42)
    let cov = UnsafeMutablePointer<Float>.allocate(capacity: 256)
    defer { cov.deallocate() }
    for _ in 0..<2000 {
      var runs = Runs()
      var x = Int(rng.next() % 8)
      let n = Int(rng.next() % 17)
      for _ in 0..<n {
        let s = x + Int(rng.next() % 4), e = s + 1 + Int(rng.next() % 10)
        runs.append(s, e, full: rng.next() % 2 == 0, cov: cov, lo: 0)
        x = e
      }
      let x0 = Int(rng.next() % 140) - 5, x1 = x0 + Int(rng.next() % 60) - 10
      var expected = [Int8](repeating: -1, count: 200)  // -1: none, 0: partial, 1: full
      for k in 0..<runs.count {
        let r = runs.items[k]
        for p in r.start..<r.end { expected[p] = r.full ? 1 : 0 }
      }
      if x0 < x1 && runs.count > 0 && runs.count < Runs.capacity {
        for p in max(x0, 0)..<max(min(x1, 200), 0) { expected[p] = -1 }
      }
      let out = runs.subtracting(x0, x1)
      var got = [Int8](repeating: -1, count: 200)
      var last = Int.min
      for k in 0..<out.count {
        let r = out.items[k]
        #expect(r.start < r.end && r.start >= last, "runs sorted and non-empty")
        last = r.end
        for p in r.start..<r.end { got[p] = r.full ? 1 : 0 }
      }
      #expect(got == expected, "subtract \(x0)..<\(x1)")
    }
  }
}

/// Where a clip and what it clips meet on the same edge, the edge is
/// covered once (ShapeIntersection.swift): a row 0.611 inside a card's top
/// edge is 0.611 of the card's colour, not 0.611² (a sheet's top edge drew
/// blue 95 where 156 is right), in the SIMD and the reference kernels alike.
@Suite struct SharedEdgeTests {
  static let blue = Color(red: 0, green: 0, blue: 1)

  /// A 40 × 20 pt card at (2, 5.389) — its first row 0.611 covered — that
  /// masks to its bounds (rounded by `radius`) a screen at its origin,
  /// drawn as `content`.
  static func card(radius: Double, content: [Layer]) -> Layer {
    var root = Layer(frame: Rect(x: 0, y: 0, width: 44, height: 30))
    var card = Layer(frame: Rect(x: 2, y: 5.389, width: 40, height: 20))
    card.cornerRadius = radius
    card.masksToBounds = true
    card.sublayers = content
    root.sublayers = [card]
    return root
  }

  static let contents: [(String, [Layer])] = [
    // A snapshot larger than the card (a sheet's screen, an iPad's form-sheet card).
    ("snapshot", [{
      var l = Layer(frame: Rect(x: 0, y: 0, width: 44, height: 30))
      var image = Bitmap(width: 44, height: 30)
      image.fill(Pixel(r: 0, g: 0, b: 255, a: 255))
      l.contents = image
      return l
    }()]),
    // A solid view shorter than the card, sharing its top edge.
    ("solid", [solidLayer(Rect(x: 0, y: 0, width: 40, height: 12), blue)]),
    // Two views: an offscreen group whose children share the clip's top edge.
    ("group", [solidLayer(Rect(x: 0, y: 0, width: 20, height: 30), blue), solidLayer(Rect(x: 20, y: 0, width: 30, height: 30), blue)]),
  ]

  @Test(arguments: [0.0, 4.0])
  func aCardsTopEdgeIsCoveredOnce(radius: Double) {
    let expected = UInt8((0.611 * 255).rounded())  // 156
    for (name, content) in Self.contents {
      for (threads, set) in [(1, KernelSet.simd), (3, .simd), (1, .reference)] {
        let out = Compositor(scale: 1, threadCount: threads, kernels: set).snapshot(Self.card(radius: radius, content: content))
        // Row 5 away from the corners: the card's top edge; row 6 inside.
        for x in [10, 22, 35] {
          #expect(out[x, 5] == Pixel(r: 0, g: 0, b: expected, a: expected), "\(name) r \(radius) \(set) ×\(threads): \(out[x, 5])")
          #expect(out[x, 6] == Pixel(r: 0, g: 0, b: 255, a: 255), "\(name) \(set): \(out[x, 6])")
        }
      }
    }
  }

  /// Content that fills the card exactly is drawn as the card's own
  /// background would be: every pixel, at a fractional place, scaled,
  /// turned or in perspective, in either kernel set.
  @Test(arguments: [0.0, 4.0])
  func clippingContentToItsOwnBoundsChangesNothing(radius: Double) {
    var perspective = Transform3D.rotation(y: 0.5)
    perspective.m34 = -0.01
    let transforms: [Transform3D] = [
      .identity, .scale(x: 1.37, y: 1.37), .rotation(z: 0.4), perspective,
    ]
    for (k, transform) in transforms.enumerated() {
      var clipped = Self.card(radius: radius, content: [solidLayer(Rect(x: 0, y: 0, width: 40, height: 20), Self.blue)])
      clipped.sublayers[0].transform = transform
      var plain = clipped
      plain.sublayers[0].sublayers = []
      plain.sublayers[0].masksToBounds = false
      plain.sublayers[0].backgroundColor = Self.blue
      for set in [KernelSet.simd, .reference] {
        let compositor = Compositor(scale: 1, threadCount: 1, kernels: set)
        let a = compositor.snapshot(clipped), b = compositor.snapshot(plain)
        #expect(maxDifference(a, b) == 0, "transform \(k) r \(radius) \(set): max diff \(maxDifference(a, b))")
      }
    }
  }

  /// The shapes of one draw: two boxes are their intersection; a shape
  /// holding another goes; boxes that do not meet cover nothing.
  @Test func shapesIntersect() {
    let canvas = PixelBox(x0: 0, y0: 0, x1: 60, y1: 40)
    let a = Shape.box(x0: 0, y0: 5.389, x1: 40, y1: 20), b = Shape.box(x0: 2, y0: 5.389, x1: 50, y1: 30)
    guard let ab = Shape.intersection([a, b], canvas: canvas), ab.count == 1, case .box(2, 5.389, 40, 20) = ab[0] else {
      Issue.record("\(String(describing: Shape.intersection([a, b], canvas: canvas)))")
      return
    }
    let card = Shape.roundedBox(x0: 2, y0: 5.389, x1: 42, y1: 25.389, radius: 4)
    guard let held = Shape.intersection([b, card], canvas: canvas), held.count == 1, case .roundedBox = held[0] else {
      Issue.record("\(String(describing: Shape.intersection([b, card], canvas: canvas)))")
      return
    }
    // A view shorter than the card keeps only its bottom side: the card draws the top edge.
    guard let shorter = Shape.intersection([card, .box(x0: 2, y0: 5.389, x1: 42, y1: 12)], canvas: canvas), shorter.count == 2,
      case .box(-1, -1, 61, 12) = shorter[0]
    else {
      Issue.record("\(String(describing: Shape.intersection([card, .box(x0: 2, y0: 5.389, x1: 42, y1: 12)], canvas: canvas)))")
      return
    }
    #expect(Shape.intersection([a, .box(x0: 41, y0: 0, x1: 50, y1: 10)], canvas: canvas) == nil)
    // A circle crossing a box's edge stays beside it.
    #expect(Shape.intersection([a, .circle(cx: 20, cy: 5, radius: 3)], canvas: canvas)?.count == 2)
  }
}
