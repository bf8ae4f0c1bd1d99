import Testing

@testable import Media

/// Without dithering, `PaletteTree` gives every pixel the palette index
/// libavfilter's `paletteuse` gives it — the oracle is the same mapper
/// through a filter graph — also where colours of the palette are equally
/// near: palettes on a coarse lattice and grey ramps put many pixels
/// exactly between two or more entries, and which one wins is the tree's.
@Suite struct PaletteTreeTests {
  enum Kind: CaseIterable { case random, lattice, repeated, greys }

  /// `count` packed colours (B | G << 8 | R << 16) of `kind`.
  static func colors(_ kind: Kind, count: Int, _ g: inout SplitMix64) -> [UInt32] {
    func pack(_ r: Int, _ gr: Int, _ b: Int) -> UInt32 { UInt32(b) | UInt32(gr) << 8 | UInt32(r) << 16 }
    let steps = [0, 64, 128, 192, 255]
    return (0..<count).map { i in
      switch kind {
      case .random: return UInt32.random(in: 0...0xFF_FFFF, using: &g)
      case .lattice: return pack(steps.randomElement(using: &g)!, steps.randomElement(using: &g)!, steps.randomElement(using: &g)!)
      case .repeated: return i % 3 == 2 ? pack(10, 200, 30) : UInt32.random(in: 0...0xFF_FFFF, using: &g)
      case .greys:
        let v = min(255, 16 * (i % 17))
        return pack(v, v, v)
      }
    }
  }

  /// `count` packed opaque BGRA pixels: random, and for the lattice and
  /// greys kinds, halfway points between their colours.
  static func pixels(_ kind: Kind, count: Int, _ g: inout SplitMix64) -> [UInt8] {
    var bytes: [UInt8] = []
    for i in 0..<count {
      var (r, gr, b) = (UInt8.random(in: 0...255, using: &g), UInt8.random(in: 0...255, using: &g), UInt8.random(in: 0...255, using: &g))
      if kind == .lattice && i % 2 == 0 {
        let halves: [UInt8] = [0, 32, 64, 96, 128, 160, 192, 224, 255]
        (r, gr, b) = (halves.randomElement(using: &g)!, halves.randomElement(using: &g)!, halves.randomElement(using: &g)!)
      } else if kind == .greys && i % 2 == 0 {
        let v = UInt8(8 * Int.random(in: 0...31, using: &g))
        (r, gr, b) = (v, v, v)
      }
      bytes += [b, gr, r, 255]
    }
    return bytes
  }

  /// The squared RGB distance from packed BGRA pixel `p` to each colour.
  static func distances(_ pixels: [UInt8], _ p: Int, _ colors: [UInt32]) -> [Int] {
    colors.map { c in
      let dr = Int(pixels[4 * p + 2]) - Int(c >> 16 & 0xFF)
      let dg = Int(pixels[4 * p + 1]) - Int(c >> 8 & 0xFF)
      let db = Int(pixels[4 * p]) - Int(c & 0xFF)
      return dr * dr + dg * dg + db * db
    }
  }

  @Test(arguments: Kind.allCases, [1, 2, 7, 64, 200, 255])
  func mapsAsPaletteuse(kind: Kind, count: Int) throws {
    var g = SplitMix64(seed: UInt64(count) << 8 | UInt64(Kind.allCases.firstIndex(of: kind)!))
    let (width, height) = (64, 48)
    let frames = try GIFFrames(sourceWidth: width, sourceHeight: height, width: width, height: height)
    var ties = 0
    for round in 0..<3 {
      let colors = Self.colors(kind, count: count, &g)
      let palette = GIFPalette(packed: colors)
      let pixels = Self.pixels(kind, count: width * height, &g)
      let graph = try PaletteMapper.graph(frames.input, options: GIFOptions(dither: .none))
      let expected = try PaletteMapper(palette: palette, frames: frames, graph: graph).map(pixels, pts: 0)
      let mapped = try PaletteMapper(palette: palette, frames: frames).map(pixels, pts: 0)
      let differing = (0..<expected.count).filter { mapped[$0] != expected[$0] }
      #expect(differing.count == 0, "\(kind), \(count) colours, round \(round): \(differing.count) pixels differ, first \(differing.first ?? -1)")
      for p in 0..<width * height {
        let d = Self.distances(pixels, p, colors)
        let least = d.min()!
        #expect(d[Int(mapped[p])] == least, "pixel \(p) not mapped to a nearest colour")
        if Set(colors.indices.filter { d[$0] == least }.map { colors[$0] }).count > 1 { ties += 1 }
      }
    }
    // The lattice and the greys put pixels between colours: the test sees
    // ties, where only the tree's order decides.
    if (kind == .lattice || kind == .greys) && count >= 7 {
      #expect(ties > 100, "\(kind), \(count) colours: only \(ties) pixels between colours")
    }
  }

  /// The ported quicksort sorts (its order among equal keys is checked by
  /// `mapsAsPaletteuse`, through the trees it shapes).
  @Test func quicksortSorts() {
    var g = SplitMix64(seed: 99)
    for n in [0, 1, 2, 3, 4, 5, 17, 64, 255] {
      var a = (0..<n).map { _ in Int.random(in: 0...9, using: &g) }
      let expected = a.sorted()
      PaletteTree.quicksort(&a) { $0 - $1 }
      #expect(a == expected)
    }
  }
}
