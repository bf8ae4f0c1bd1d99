import Geometry
import Testing
@testable import Raster

@Suite struct SolidRunsTests {
  /// A screen-like opaque bitmap: flat bands of a few colours with noisy
  /// patches (thumbnails, text) at seeded places, so rows have flat runs of
  /// many lengths, some shorter than `SolidRuns.minimumLength`.
  static func screen(width: Int, height: Int, seed: UInt64) -> Bitmap {
    let noise = noiseBitmap(width: width, height: height, seed: seed &+ 1)
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    let colours: [Pixel] = [
      Pixel(r: 240, g: 240, b: 245, a: 255), Pixel(r: 30, g: 120, b: 200, a: 255), Pixel(r: 90, g: 90, b: 90, a: 255),
    ]
    for y in 0..<height {
      let band = colours[(y / 7) % colours.count]
      // Two noisy patches per row, placed per band of rows.
      var r = SplitMix(seed: seed &* 31 &+ UInt64(y / 5))
      let p0 = Int(r.next() % UInt64(width)), p1 = Int(r.next() % UInt64(width))
      let l0 = Int(r.next() % 40), l1 = Int(r.next() % 90)
      for x in 0..<width {
        let i = (y * width + x) * 4
        let noisy = (x >= p0 && x < p0 + l0) || (x >= p1 && x < p1 + l1)
        let p = noisy ? Pixel(r: noise.bytes[i], g: noise.bytes[i + 1], b: noise.bytes[i + 2], a: 255) : band
        bytes[i] = p.r
        bytes[i + 1] = p.g
        bytes[i + 2] = p.b
        bytes[i + 3] = p.a
      }
    }
    var b = Bitmap(width: width, height: height, bytes: bytes)!
    #expect(b.isKnownOpaque && b.solidRuns == nil)
    b.updateOpacityHint()
    return b
  }

  /// Bytes that differ between two bitmaps of one size.
  func differing(_ a: Bitmap, _ b: Bitmap) -> Int {
    zip(a.bytes, b.bytes).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
  }

  @Test func scanFindsEveryLongRunAndNothingElse() {
    let b = Self.screen(width: 300, height: 40, seed: 7)
    let view = b.solidRuns!.view
    for y in 0..<b.height {
      // The reference: runs of one repeated pixel, at least the minimum long.
      var expected: [(Int, Int, Pixel)] = []
      var x = 0
      while x < b.width {
        var e = x + 1
        while e < b.width && b[e, y] == b[x, y] { e += 1 }
        if e - x >= SolidRuns.minimumLength { expected.append((x, e, b[x, y])) }
        x = e
      }
      let got = view.row(y).map { (Int(view.runs[$0].x0), Int(view.runs[$0].x1), view.runs[$0].pixel) }
      #expect(got.count == expected.count, "row \(y)")
      for (g, e) in zip(got, expected) { #expect(g == e, "row \(y)") }
    }
    // Translucent bitmaps are not indexed; writing the bytes drops the index.
    #expect(noiseBitmap(width: 50, height: 2, seed: 3, opaque: false).solidRuns == nil)
    var c = b
    c[0, 0] = Pixel(r: 1, g: 2, b: 3, a: 255)
    #expect(c.solidRuns == nil && b.solidRuns != nil)
  }

  @Test func piecesTileTheSpanAndAreSolidInBoth() {
    let a = Self.screen(width: 260, height: 30, seed: 11), b = Self.screen(width: 280, height: 30, seed: 12)
    let va = a.solidRuns!.view, vb = b.solidRuns!.view
    var rng = SplitMix(seed: 5)
    for _ in 0..<300 {
      let ya = Int(rng.next() % 30), yb = Int(rng.next() % 30)
      let shiftA = Int(rng.next() % 20), shiftB = Int(rng.next() % 40)
      let s = Int(rng.next() % 100), e = s + Int(rng.next() % 140)
      var x = s
      va.pieces(
        row: ya, shift: shiftA, vb, row: yb, shift: shiftB, from: s, to: e,
        solid: { x0, x1, pa, pb in
          #expect(x0 >= x && x1 > x0 && x1 - x0 >= SolidRuns.minimumLength)
          for d in x0..<x1 {
            #expect(a[d + shiftA, ya] == pa && b[d + shiftB, yb] == pb)
          }
          x = x1
        },
        mixed: { x0, x1 in
          #expect(x0 == x && x1 > x0)
          x = x1
        })
      #expect(x == max(s, e), "[\(s), \(e))")
    }
  }

  /// The indexed cross-fade, tinted copy and copy write exactly what the
  /// plain kernels write.
  @Test func indexedPathsWriteWhatThePlainKernelsWrite() {
    let from = Self.screen(width: 240, height: 150, seed: 1), to = Self.screen(width: 240, height: 150, seed: 2)
    #expect(from.solidRuns != nil && to.solidRuns != nil)
    let bounds = Rect(x: 0, y: 0, width: 80, height: 50)
    func crossfade(_ from: Bitmap, _ to: Bitmap) -> Layer {
      var root = Layer(frame: bounds)
      var b = snapshotLayer(to, bounds)
      b.opacity = 0.37
      // A snapshot flying over them, so rows have hidden columns too.
      var c = Layer(frame: Rect(x: 10, y: 12, width: 30, height: 20))
      c.contents = from
      root.sublayers = [snapshotLayer(from, bounds), b, c]
      return root
    }
    func dimmed(_ under: Bitmap) -> Layer {
      var root = Layer(frame: bounds)
      var a = snapshotLayer(under, bounds)
      // PageFlip's under-screen: a black overlay through the same shape (folded into a tint).
      a.sublayers = [solidLayer(bounds, Color(red: 0, green: 0, blue: 0, alpha: 0.4))]
      root.sublayers = [a]
      return root
    }
    func circle(_ from: Bitmap, _ to: Bitmap) -> Layer {
      // CircleSpread's frame: the old screen copied, the new one through a circle.
      var root = Layer(frame: bounds)
      var b = snapshotLayer(to, bounds)
      var mask = Layer(frame: bounds)
      mask.path = Path(ovalIn: Rect(x: 20, y: 5, width: 40, height: 40))
      mask.fillColor = .black
      b.mask = mask
      root.sublayers = [snapshotLayer(from, bounds), b]
      return root
    }
    for threads in [1, 3] {
      let compositor = Compositor(scale: 3, threadCount: threads)
      let copies = compositor.snapshot(circle(from, to))
      let copiesPlain = compositor.snapshot(circle(from.withoutSolidRuns(), to.withoutSolidRuns()))
      #expect(differing(copies, copiesPlain) == 0, "copies, \(threads) threads")
      let indexed = compositor.snapshot(crossfade(from, to))
      let plain = compositor.snapshot(crossfade(from.withoutSolidRuns(), to.withoutSolidRuns()))
      #expect(differing(indexed, plain) == 0, "cross-fade, \(threads) threads")
      let dimIndexed = compositor.snapshot(dimmed(to))
      let dimPlain = compositor.snapshot(dimmed(to.withoutSolidRuns()))
      #expect(differing(dimIndexed, dimPlain) == 0, "tinted copy, \(threads) threads")
    }
  }

  /// A screen of repeated rows: bands of rows equal to the row above,
  /// cut by rows that differ from it in one byte (the first, the last or
  /// one in the middle) and rows of noise.
  static func bandedScreen(width: Int, height: Int, seed: UInt64) -> Bitmap {
    let noise = noiseBitmap(width: width, height: height, seed: seed)
    var bytes = noise.bytes
    let rowBytes = width * 4
    for y in 1..<height where y % 13 != 0 {
      bytes.replaceSubrange(y * rowBytes..<((y + 1) * rowBytes), with: bytes[((y - 1) * rowBytes)..<(y * rowBytes)])
      switch y % 9 {
      case 2: bytes[y * rowBytes] ^= 1
      case 5: bytes[(y + 1) * rowBytes - 2] ^= 4
      case 7: bytes[y * rowBytes + width / 2 * 4 + 1] ^= 16
      default: break
      }
    }
    var b = Bitmap(width: width, height: height, bytes: bytes)!
    b.updateOpacityHint()
    return b
  }

  /// The scan marks a row as repeating the row above exactly when its
  /// bytes are that row's, and never row 0.
  @Test func repeatedRowsAreTheRowsEqualToTheOneAbove() {
    let b = Self.bandedScreen(width: 77, height: 60, seed: 5)
    let view = b.solidRuns!.view
    let rowBytes = b.width * 4
    var repeats = 0
    for y in 0..<b.height {
      let expected = y > 0 && b.bytes[(y - 1) * rowBytes..<(y * rowBytes)] == b.bytes[y * rowBytes..<((y + 1) * rowBytes)]
      #expect(view.repeatsAbove[y] == expected, "row \(y)")
      if expected { repeats += 1 }
    }
    // Both kinds occur.
    #expect(repeats > 20 && repeats < b.height - 10)
  }

  /// A snapshot of repeated rows drawn scaled — straight into the target
  /// (`Sampler.sampleScaled`) and blended (`Sampler.ScaledRows` row by
  /// row), shrunk and enlarged — is the same, byte for byte, with its
  /// repeated rows known and without its index.
  @Test func scaledDrawsMatchWithoutTheIndex() {
    let image = Self.bandedScreen(width: 240, height: 180, seed: 9)
    let bounds = Rect(x: 0, y: 0, width: 80, height: 60)
    func scaled(_ image: Bitmap, _ frame: Rect, opacity: Double) -> Layer {
      var root = Layer(frame: bounds)
      var l = Layer(frame: frame)
      l.contents = image
      l.opacity = opacity
      root.sublayers = [solidLayer(bounds, Color(red: 1, green: 1, blue: 1, alpha: 1)), l]
      return root
    }
    let frames = [
      Rect(x: 4, y: 3, width: 72, height: 54), Rect(x: -10, y: -7.5, width: 100, height: 75),
      Rect(x: 8.3, y: 6.1, width: 61.7, height: 47.2),
    ]
    let compositor = Compositor(scale: 3, threadCount: 2)
    var compared = 0
    for frame in frames {
      for opacity in [1.0, 0.6] {
        let indexed = compositor.snapshot(scaled(image, frame, opacity: opacity))
        let plain = compositor.snapshot(scaled(image.withoutSolidRuns(), frame, opacity: opacity))
        #expect(differing(indexed, plain) == 0, "frame \(frame), opacity \(opacity)")
        compared += 1
      }
    }
    #expect(compared == 6)
  }
}
