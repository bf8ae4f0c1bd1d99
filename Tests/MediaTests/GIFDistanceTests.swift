import Testing

@testable import Media

/// The lossy coder's colour distance and the screen's lossy bound, on
/// words and vectors, against byte-by-byte references.
@Suite struct GIFDistanceTests {
  static func random(_ state: inout UInt64) -> UInt32 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return UInt32(truncatingIfNeeded: state >> 32)
  }

  /// The largest |difference| of bytes 0, 1 and 2; byte 3 not compared.
  static func scalarDistance(_ a: UInt32, _ b: UInt32) -> Int {
    var largest = 0
    for shift: UInt32 in [0, 8, 16] {
      let x = Int((a >> shift) & 0xFF), y = Int((b >> shift) & 0xFF)
      largest = max(largest, abs(x - y))
    }
    return largest
  }

  @Test static func channelDistanceIsTheLargestChannelDifference() {
    var state: UInt64 = 7
    for _ in 0..<20000 {
      let a = random(&state), b = random(&state)
      #expect(channelDistance(a, b) == scalarDistance(a, b))
      // Near colours, the usual case.
      let c = a ^ (random(&state) & 0x0103_0107)
      #expect(channelDistance(a, c) == scalarDistance(a, c))
    }
    #expect(channelDistance(0x00FF_00FF, 0xFF00_FF00) == 255)
    #expect(channelDistance(0x0100_0000, 0) == 0)
  }

  /// `localBound` by the rule: min(bound, 3×3 range · 4/9, 4 · error),
  /// 0 without a bound or an error, the range clipped at the frame's edges.
  static func scalarBound(_ bgra: [UInt8], width: Int, height: Int, x: Int, y: Int, _ bound: Int, error: Int) -> Int {
    guard bound > 0, error > 0 else { return 0 }
    var range = 0
    for c in 0..<3 {
      var low = 255, high = 0
      for ny in max(0, y - 1)...min(height - 1, y + 1) {
        for nx in max(0, x - 1)...min(width - 1, x + 1) {
          let v = Int(bgra[4 * (ny * width + nx) + c])
          low = min(low, v)
          high = max(high, v)
        }
      }
      range = max(range, high - low)
    }
    return min(bound, range * 4 / 9, 4 * error)
  }

  /// `GIFLocalPalettes.meanSquaredError`: over the changed pixels, the
  /// squared differences of R, G and B from their indices' colours, summed,
  /// then averaged; alpha and the other pixels do not count.
  @Test static func meanSquaredErrorFollowsTheRule() {
    var state: UInt64 = 99
    let count = 23 * 17
    let pixels = (0..<(4 * count)).map { _ in UInt8(truncatingIfNeeded: random(&state) >> 7) }
    let colors = (0..<40).map { _ in UInt32(truncatingIfNeeded: random(&state) >> 9) & 0x00FF_FFFF }
    let indices = (0..<count).map { _ in UInt8(random(&state) % 40) }
    let changed = (0..<count).filter { _ in random(&state) % 3 == 0 }
    var sum = 0
    for p in changed {
      let color = colors[Int(indices[p])]
      for c in 0..<3 {
        let d = Int(pixels[4 * p + c]) - Int((color >> (8 * UInt32(c))) & 0xFF)
        sum += d * d
      }
    }
    let error = GIFLocalPalettes.meanSquaredError(pixels, changed: changed, indices: indices, colors: colors)
    #expect(changed.count > 100 && sum > 0)
    #expect(error == Double(sum) / Double(changed.count))
    #expect(GIFLocalPalettes.meanSquaredError(pixels, changed: [], indices: indices, colors: colors) == 0)
  }

  @Test(arguments: [(1, 1), (1, 7), (9, 1), (13, 11)])
  static func localBoundFollowsTheRule(size: (Int, Int)) {
    let (width, height) = size
    var state = UInt64(width * 31 + height)
    let bgra = (0..<(4 * width * height)).map { _ in UInt8(truncatingIfNeeded: random(&state) >> 5) }
    for p in 0..<(width * height) {
      for (bound, error) in [(0, 5), (40, 0), (40, 3), (255, 200), (6, 90)] {
        #expect(
          GIFImagePlan.localBound(bgra, width: width, height: height, p, bound, error: error)
            == scalarBound(bgra, width: width, height: height, x: p % width, y: p / width, bound, error: error))
      }
    }
  }
}
