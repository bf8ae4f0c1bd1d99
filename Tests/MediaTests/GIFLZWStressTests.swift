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
  @Test(arguments: 0..<24)
  static func randomImagesDecodeToWhatWasCoded(_ seed: Int) throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    var state = UInt32(seed * 7919 + 17)
    func random(_ limit: Int) -> Int {
      state ^= state << 13
      state ^= state >> 17
      state ^= state << 5
      return Int(state >> 4) % limit
    }
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
}
