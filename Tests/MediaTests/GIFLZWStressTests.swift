import Raster
import Testing

@testable import Media
import TestSupport

/// The lossy coder on many random images (fixed seeds), checked through
/// FFmpeg's GIF decoder: what `encode` says it coded is what decodes, and
/// every pixel is within its bound — across code sizes 2, 4 and 8, images
/// that fill the dictionary many times (clear codes), rows that repeat the
/// row above, and images one pixel wide or high.
@Suite enum GIFLZWStressTests {
  /// A 32-bit xorshift: the tests' images, the same on every run.
  struct XorShift {
    var state: UInt32
    init(_ seed: Int) { state = UInt32(seed) }

    /// The next number in 0..<limit.
    mutating func next(_ limit: Int) -> Int {
      state ^= state << 13
      state ^= state >> 17
      state ^= state << 5
      return Int(state >> 4) % limit
    }
  }

  @Test(arguments: 0..<24)
  static func randomImagesDecodeToWhatWasCoded(_ seed: Int) throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    var rng = XorShift(seed * 7919 + 17)
    func random(_ limit: Int) -> Int { rng.next(limit) }
    let entries = [4, 16, 256][seed % 3]
    let sizes = [(1, 300), (300, 1), (211, 157), (64, 64), (97, 301), (5, 5)]
    let (width, height) = sizes[(seed / 3) % sizes.count]
    var table: [UInt8] = []
    for _ in 0..<entries { table += [UInt8(random(256)), UInt8(random(256)), UInt8(random(256))] }
    let colors = (0..<entries).map { (i: Int) -> UInt32 in
      let r = UInt32(table[3 * i]), g = UInt32(table[3 * i + 1]), b = UInt32(table[3 * i + 2])
      return b | g << 8 | r << 16
    }
    // Runs, noise, and rows that repeat the row above with changes.
    var indices = [UInt8](repeating: 0, count: width * height)
    for p in indices.indices {
      switch random(4) {
      case 0: indices[p] = p > 0 ? indices[p - 1] : 0
      case 1: indices[p] = p >= width ? indices[p - width] : UInt8(random(entries))
      default: indices[p] = UInt8(random(entries))
      }
    }
    let bounds = indices.map { _ in UInt8([0, 2, 8, 24, 64][random(5)]) }
    let tolerance = GIFLZWEncoder.Tolerance(
      colors: colors, transparentIndex: nil, shown: [UInt32](repeating: 0, count: indices.count),
      wanted: indices.map { colors[Int($0)] }, bounds: bounds, width: width)
    let file = try GIFFile(width: width, height: height, palette: table, loop: nil, what: "test")
    let image = GIFFile.Image(x: 0, y: 0, width: width, height: height, palette: nil, transparentIndex: nil, delay: 10)
    var coder = GIFLZWEncoder()
    var coded = indices
    let data = coder.encode(&coded, minimumCodeSize: file.codeSize(of: image), tolerance: tolerance)
    // The search that walks every level codes the same.
    var walking = GIFLZWEncoder(skipsShortLevels: false), walked = indices
    #expect(walking.encode(&walked, minimumCodeSize: file.codeSize(of: image), tolerance: tolerance) == data)
    #expect(walked == coded)
    try file.append(image, data: data)
    try file.finish()
    try Platform.writeAtomically(file.bytes, to: dir.path("random.gif"))
    let gif = try GIFReader(path: dir.path("random.gif"))
    try #require(gif.frames.count == 1)
    var wrong = 0, beyond = 0
    for p in indices.indices {
      let i = 3 * Int(coded[p])
      let shown = gif.frames[0][p % width, p / width]
      if shown != Pixel(r: table[i], g: table[i + 1], b: table[i + 2], a: 255) { wrong += 1 }
      let j = 3 * Int(indices[p])
      var d = 0
      for c in 0..<3 { d = max(d, abs(Int(table[i + c]) - Int(table[j + c]))) }
      if d > Int(bounds[p]) { beyond += 1 }
    }
    #expect(wrong == 0, "\(entries) entries, \(width)×\(height): \(wrong) pixels decode to other than coded")
    #expect(beyond == 0, "\(entries) entries, \(width)×\(height): \(beyond) pixels beyond their bound")
  }

  /// The search that passes over levels whose other children fall short
  /// (`skipsShortLevels`) codes what the search that walks every level
  /// codes, on UI-like images — long runs, rows that repeat the row above
  /// with a few changes, pixels that keep the screen (the transparent
  /// index), some noise — coded one after another by one encoder (its
  /// dictionary cleared in between and when it fills), with budgets 0, 16
  /// and 200.
  @Test(arguments: 0..<8)
  static func skippingShortLevelsKeepsTheCodes(_ seed: Int) {
    var rng = XorShift(seed * 104_729 + 7)
    func random(_ limit: Int) -> Int { rng.next(limit) }
    let entries = [16, 256][seed % 2]
    let colors = (0..<entries).map { UInt32($0) &* 0x9E37_79B9 & 0xFF_FFFF }
    let transparent = entries - 1
    var walking = GIFLZWEncoder(searchBudget: [0, 16, 200][seed % 3], skipsShortLevels: false)
    var skipping = GIFLZWEncoder(searchBudget: walking.searchBudget)
    var codes = 0
    for (width, height) in [(240, 160), (97, 301), (393, 120), (31, 7)] {
      // Bands of runs; most rows repeat the row above, some with changes.
      var indices = [UInt8](repeating: 0, count: width * height)
      for y in 0..<height {
        for x in 0..<width {
          let p = y * width + x
          if y > 0 && random(10) < 8 {
            indices[p] = indices[p - width]
            if random(50) == 0 { indices[p] = UInt8(random(entries)) }
          } else if x > 0 && random(12) > 0 {
            indices[p] = indices[p - 1]
          } else {
            indices[p] = UInt8(random(entries))
          }
        }
      }
      let shown = indices.map { _ in colors[random(entries)] }
      var wanted = indices.map { colors[Int($0)] }
      // Stretches that keep the screen.
      for p in wanted.indices where (p / 37) % 5 == 0 { wanted[p] = GIFLZWEncoder.Tolerance.unchanged }
      let bounds = indices.map { _ in UInt8([0, 3, 12, 40][random(4)]) }
      let tolerance = GIFLZWEncoder.Tolerance(
        colors: colors, transparentIndex: transparent, shown: shown, wanted: wanted, bounds: bounds, width: width)
      var walked = indices, skipped = indices
      let walkedData = walking.encode(&walked, minimumCodeSize: entries == 16 ? 4 : 8, tolerance: tolerance)
      let skippedData = skipping.encode(&skipped, minimumCodeSize: entries == 16 ? 4 : 8, tolerance: tolerance)
      #expect(skippedData == walkedData, "\(width)×\(height), seed \(seed)")
      #expect(skipped == walked, "\(width)×\(height), seed \(seed)")
      codes += walkedData.count
    }
    #expect(codes > 1000)
  }
}
