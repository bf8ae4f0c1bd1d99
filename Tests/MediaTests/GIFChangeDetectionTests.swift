import Testing

@testable import Media

/// The word-wide change detection (`colorDiffers`, `GIFImagePlan.changedPixels`)
/// against a byte-by-byte reference: B, G and R compared, alpha not.
@Suite struct GIFChangeDetectionTests {
  /// A deterministic BGRA frame: pseudo-random colours and alphas.
  static func frame(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<(4 * count)).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
  }

  static func scalarDiffers(_ a: [UInt8], _ b: [UInt8], _ p: Int) -> Bool {
    a[4 * p] != b[4 * p] || a[4 * p + 1] != b[4 * p + 1] || a[4 * p + 2] != b[4 * p + 2]
  }

  @Test static func wordCompareMatchesTheBytes() {
    let count = 997
    let a = frame(count, seed: 1)
    var b = a
    // Alpha alone, each colour channel alone, and all at once.
    for p in stride(from: 0, to: count, by: 5) { b[4 * p + 3] &+= 1 }
    for p in stride(from: 1, to: count, by: 7) { b[4 * p] &+= 1 }
    for p in stride(from: 2, to: count, by: 11) { b[4 * p + 1] &+= 3 }
    for p in stride(from: 3, to: count, by: 13) { b[4 * p + 2] &-= 1 }
    for p in stride(from: 4, to: count, by: 17) { b[4 * p + 3] = ~b[4 * p + 3] }
    let expected = (0..<count).filter { scalarDiffers(a, b, $0) }
    #expect(expected.count > count / 5)
    let words = a.withUnsafeBytes { x in b.withUnsafeBytes { y in (0..<count).filter { colorDiffers(x, y, $0) } } }
    #expect(words == expected)

    #expect(GIFImagePlan.changedPixels(a, from: nil, count: count) == Array(0..<count))
    #expect(GIFImagePlan.changedPixels(b, from: a, count: count) == expected)
  }

  /// `forEachColorChange` skips eight unchanged pixels at a time: sparse
  /// changes at the edges of those blocks and in a shorter tail, beside
  /// blocks whose only change is alpha, are the pixels the bytes say.
  @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1001])
  static func sparseChangesAreFoundBlockByBlock(count: Int) {
    let a = frame(count, seed: UInt64(count) + 3)
    var b = a
    for p in [0, 7, 8, 15, 24, count / 2, count - 2, count - 1] where p >= 0 && p < count { b[4 * p + p % 3] &+= 1 }
    for p in stride(from: 40, to: count, by: 8) { b[4 * p + 3] &+= 9 }
    let expected = (0..<count).filter { scalarDiffers(a, b, $0) }
    var found: [Int] = []
    a.withUnsafeBytes { x in b.withUnsafeBytes { y in forEachColorChange(x, y, count: count) { found.append($0) } } }
    #expect(found == expected)
    #expect(GIFImagePlan.changedPixels(b, from: a, count: count) == expected)
  }

  /// `GIFScreen.drawnLanes` (eight pixels at once, integer arithmetic) gives
  /// `isDrawn`, pixel by pixel, for unchanged pixels, channel distances on
  /// both sides of each limit (0 and 255 included), and the first image.
  @Test(arguments: [false, true]) static func drawnLanesMatchIsDrawn(first: Bool) {
    let count = 8 * 500
    let bytes = frame(3 * count, seed: 9)
    func word(_ k: Int) -> UInt32 {
      UInt32(bytes[4 * k]) | UInt32(bytes[4 * k + 1]) << 8 | UInt32(bytes[4 * k + 2]) << 16
    }
    var shown = (0..<count).map(word)
    var wanted = (0..<count).map { word(count + $0) }
    var limits = (0..<count).map { UInt8(truncatingIfNeeded: word(2 * count + $0)) }
    for p in stride(from: 0, to: count, by: 3) {
      // Near the limit: one channel off by the limit, the limit ± 1.
      let limit = limits[p], channel = UInt32(8 * (p % 3))
      let base = shown[p] & ~(0xFF << channel)
      let low = (shown[p] >> channel) & 0xFF
      let delta = UInt32(limit) &+ UInt32(p % 5 == 0 ? 1 : 0) &- UInt32(p % 7 == 0 ? 1 : 0)
      wanted[p] = base | (low + delta > 255 ? low &- min(low, delta) : low + delta) << channel
    }
    for p in stride(from: 1, to: count, by: 4) { wanted[p] = GIFLZWEncoder.Tolerance.unchanged }
    for p in stride(from: 2, to: count, by: 9) { (shown[p], wanted[p], limits[p]) = (0, 0xFF_FFFF, 254) }
    for p in stride(from: 5, to: count, by: 11) { (shown[p], wanted[p], limits[p]) = (0xFF_FFFF, 0, 255) }
    var mismatches = 0, drawn = 0
    shown.withUnsafeBufferPointer { shown in
      wanted.withUnsafeBufferPointer { wanted in
        limits.withUnsafeBufferPointer { limits in
          for x in stride(from: 0, to: count, by: 8) {
            let bits = GIFScreen.laneBits(
              GIFScreen.drawnLanes(shown.baseAddress! + x, wanted.baseAddress! + x, limits.baseAddress! + x, first: first))
            for k in 0..<8 {
              let expected = GIFScreen.isDrawn(shown[x + k], wanted[x + k], limits[x + k], first: first)
              if expected != (bits & (1 << k) != 0) { mismatches += 1 }
              if expected { drawn += 1 }
            }
          }
        }
      }
    }
    #expect(mismatches == 0)
    // Both outcomes occur.
    #expect(drawn > count / 4 && drawn < count)
  }

  /// `GIFScreen.show` (eight pixels at once) leaves the screen as the
  /// per-pixel rule does — each pixel takes its index's colour, the
  /// transparent index keeps the screen — and says whether the image used
  /// the transparent index: images 1–29 wide at offsets on a wider screen,
  /// lanes all, some and none transparent, tables shorter than 256 entries.
  @Test static func showMatchesEachPixel() {
    let screenWidth = 41, screenHeight = 9
    let noise = frame(4096, seed: 31)
    var n = 0
    func next() -> UInt8 {
      n += 1
      return noise[n % noise.count]
    }
    var checked = 0, kept = 0
    for w in [1, 7, 8, 9, 16, 23, 29] {
      for (colorCount, share) in [(256, 0), (5, 1), (200, 2), (17, 4), (64, 8)] {
        let h = 1 + w % 5, origin = (x: w % 11, y: colorCount % 3)
        let transparent = UInt8(colorCount == 256 ? 255 : colorCount)  // past the table, or in it
        let colors = (0..<colorCount).map { UInt32($0) &* 2_654_435_761 & 0xFF_FFFF }
        // Runs of transparent indices (share / 8 of them), eight-aligned or not.
        var out = (0..<(w * h)).map { _ in next() % UInt8(colorCount - 1) }
        for p in out.indices where Int(next() % 8) < share { out[p] = transparent }
        if share == 8 { for p in out.indices where p / 8 % 2 == 0 { out[p] = transparent } }
        var shown = (0..<(screenWidth * screenHeight)).map { _ in UInt32(next()) << 8 | UInt32(next()) }
        var expected = shown
        var expectedKeeps = false
        for y in 0..<h {
          for x in 0..<w {
            let index = out[y * w + x]
            if index == transparent {
              expectedKeeps = true
            } else {
              expected[(origin.y + y) * screenWidth + origin.x + x] = colors[Int(index)]
            }
          }
        }
        let keeps = GIFScreen.show(
          out, width: w, height: h, at: origin, colors: colors, transparent: transparent, on: &shown,
          screenWidth: screenWidth)
        #expect(shown == expected, "\(w)×\(h), \(colorCount) colours")
        #expect(keeps == expectedKeeps, "\(w)×\(h), \(colorCount) colours")
        checked += 1
        if keeps { kept += 1 }
      }
    }
    // Images with and without the transparent index both occur.
    #expect(checked == 35 && kept > 0 && kept < checked)
  }
}
