import Raster
import Testing

@testable import Media
import TestSupport

/// The GIF image data coder (`GIFLZWEncoder`), checked through FFmpeg's GIF
/// decoder (an independent one): exact at lossy 0, within its bound above.
@Suite enum GIFLossyTests {
  /// A deterministic pseudo-random sequence (xorshift).
  static func noise(_ count: Int, seed: UInt32, below limit: Int) -> [UInt8] {
    var state = seed | 1
    return (0..<count).map { _ in
      state ^= state << 13
      state ^= state >> 17
      state ^= state << 5
      return UInt8(Int(state >> 8) % limit)
    }
  }

  /// `file` finished, written to `path` and decoded by FFmpeg.
  static func readBack(_ file: GIFFile, at path: String) throws -> GIFReader {
    try file.finish()
    try Platform.writeAtomically(file.bytes, to: path)
    return try GIFReader(path: path)
  }

  /// A table of the 256 greys, and its colours as the coder packs them.
  static let greys = (0..<256).flatMap { [UInt8($0), UInt8($0), UInt8($0)] }
  static let greyColors = (0..<256).map { UInt32($0) * 0x01_0101 }

  /// Grey `indices` (`width` wide) coded as one image by `coder` within
  /// `tolerance`, written to `path` and decoded by FFmpeg: the image data's
  /// bytes, the pixels that decode to other than what `encode` returned,
  /// and the largest difference from a pixel's wanted grey.
  static func codeGreys(
    _ indices: [UInt8], width: Int, coder: inout GIFLZWEncoder, tolerance: GIFLZWEncoder.Tolerance, at path: String
  ) throws -> (bytes: Int, wrong: Int, worst: Int) {
    let height = indices.count / width
    let file = try GIFFile(width: width, height: height, palette: greys, loop: nil, what: "test")
    let image = GIFFile.Image(x: 0, y: 0, width: width, height: height, palette: nil, transparentIndex: nil, delay: 10)
    var coded = indices
    let data = coder.encode(&coded, minimumCodeSize: file.codeSize(of: image), tolerance: tolerance)
    try file.append(image, data: data)
    let gif = try readBack(file, at: path)
    try #require(gif.frames.count == 1)
    var wrong = 0, worst = 0
    for p in indices.indices {
      let shown = gif.frames[0][p % width, p / width]
      if shown != Pixel(r: coded[p], g: coded[p], b: coded[p], a: 255) { wrong += 1 }
      worst = max(worst, abs(Int(shown.r) - Int(indices[p])))
    }
    return (data.count, wrong, worst)
  }

  /// Indices coded at lossy 0 in a file written by `GIFFile` decode to
  /// exactly those indices' colours: tables of 4, 16 and 256 entries (code
  /// sizes 2, 4, 8), noise that fills the dictionary many times over (clear
  /// codes, every code width), long runs, and a local table.
  @Test(arguments: [4, 16, 256])
  static func codesExactlyAtLossyZero(_ entries: Int) throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let width = 211, height = 157
    var table: [UInt8] = []
    for i in 0..<entries {
      table += [UInt8((i * 37) & 0xFF), UInt8(255 - i), UInt8((i * 11) & 0xFF)]
    }
    // First image: noise with runs; second (local table, reversed): pure noise.
    var runs = noise(width * height, seed: 7, below: entries)
    for i in stride(from: 0, to: runs.count - 300, by: 997) {
      for j in 0..<300 { runs[i + j] = runs[i] }
    }
    let images = [(runs, nil as [UInt8]?), (noise(width * height, seed: 99, below: entries), Array(table.reversed()))]
    let file = try GIFFile(width: width, height: height, palette: table, loop: 0, what: "test")
    var coder = GIFLZWEncoder()
    for (indices, palette) in images {
      let image = GIFFile.Image(
        x: 0, y: 0, width: width, height: height, palette: palette, transparentIndex: nil,
        delay: 10)
      var coded = indices
      let data = coder.encode(&coded, minimumCodeSize: file.codeSize(of: image), tolerance: nil)
      #expect(coded == indices)
      try file.append(image, data: data)
    }
    let gif = try readBack(file, at: dir.path("exact.gif"))
    #expect(gif.frames.count == 2)
    #expect(gif.delays == [10, 10])
    for (k, (indices, palette)) in images.enumerated() {
      let rgb = palette ?? table
      var wrong = 0
      for y in 0..<height {
        for x in 0..<width {
          let i = 3 * Int(indices[y * width + x])
          if gif.frames[k][x, y] != Pixel(r: rgb[i], g: rgb[i + 1], b: rgb[i + 2], a: 255) { wrong += 1 }
        }
      }
      #expect(wrong == 0, "image \(k): \(wrong) pixels differ")
    }
  }

  /// A photo-like clip: a smooth gradient with fine grain that drifts
  /// sideways one pixel a frame, under a still grey bar.
  static let width = 120, height = 90
  static func clip(_ i: Int) -> Bitmap {
    var b = Bitmap(width: width, height: height, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
    let grain = noise((width + 16) * height, seed: 3, below: 24)
    for y in 0..<height {
      for x in 0..<width {
        if (40..<50).contains(y) {
          b[x, y] = Pixel(r: 128, g: 128, b: 128, a: 255)
          continue
        }
        let g: Int = Int(grain[y * (width + 16) + (x + i) % (width + 16)])
        let red: Int = min(255, 40 + x + g), green: Int = min(255, 30 + y * 2 + g)
        let blue: Int = min(255, 160 - x / 2 + g)
        b[x, y] = Pixel(r: UInt8(red), g: UInt8(green), b: UInt8(blue), a: 255)
      }
    }
    return b
  }

  /// Lossy output stays within its bound of the lossless GIF in every
  /// decoded frame, pixel and channel, and differs somewhere (the bound is
  /// used, not ignored either way); the still bar never changes after the
  /// first image.
  @Test(arguments: [8, 24])
  static func lossyStaysWithinItsBound(_ bound: Int) throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let exact = try GIFWriter.write(
      to: dir.path("exact.gif"), frameCount: 12, fps: 20, options: GIFOptions(lossy: 0), frame: clip)
    let lossy = try GIFWriter.write(
      to: dir.path("lossy.gif"), frameCount: 12, fps: 20, options: GIFOptions(lossy: bound), frame: clip)
    #expect(lossy.frames == exact.frames)
    let a = try GIFReader(path: dir.path("exact.gif")), b = try GIFReader(path: dir.path("lossy.gif"))
    #expect(a.frames.count == 12 && b.frames.count == 12)
    #expect(a.delays == b.delays)
    var worst = 0, differing = 0
    for (fa, fb) in zip(a.frames, b.frames) {
      for y in 0..<height {
        for x in 0..<width {
          let d = maxChannelDifference(fa[x, y], fb[x, y])
          worst = max(worst, d)
          if d > 0 { differing += 1 }
        }
      }
    }
    #expect(worst <= bound, "a pixel differs by \(worst) > \(bound)")
    #expect(differing > 0)
    for k in 1..<b.frames.count {
      #expect(psnr(b.frames[k], b.frames[0], including: { _, y in (40..<50).contains(y) }) == .infinity, "image \(k)")
    }
  }

  /// An image's bound is `lossy` divided by the frames it stays on screen:
  /// the clip drifts for six frames, then rests six. The pixels the resting
  /// image draws are within 24 / 6 = 4 of the lossless GIF's; images shown
  /// one frame use more of their bound.
  @Test static func aRestingImageIsCodedWithinItsShareOfTheBound() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    func frame(_ i: Int) -> Bitmap { clip(min(i, 6)) }
    try GIFWriter.write(to: dir.path("exact.gif"), frameCount: 12, fps: 20, options: GIFOptions(lossy: 0), frame: frame)
    let lossy = try GIFWriter.write(
      to: dir.path("lossy.gif"), frameCount: 12, fps: 20, options: GIFOptions(lossy: 24), frame: frame)
    #expect(lossy.frames == 7)
    #expect(GIFOptions(lossy: 24).lossyBound(frames: 6) == 4)
    let a = try GIFReader(path: dir.path("exact.gif")), b = try GIFReader(path: dir.path("lossy.gif"))
    try #require(a.frames.count == 7 && b.frames.count == 7)
    #expect(b.delays.last == 30)
    let moved = clip(5), rest = clip(6)
    var worstMoving = 0, worstResting = 0, drawn = 0
    for y in 0..<height {
      for x in 0..<width {
        for k in 0...5 {
          worstMoving = max(worstMoving, maxChannelDifference(a.frames[k][x, y], b.frames[k][x, y]))
        }
        guard moved[x, y] != rest[x, y] else { continue }
        drawn += 1
        worstResting = max(worstResting, maxChannelDifference(a.frames[6][x, y], b.frames[6][x, y]))
      }
    }
    #expect(drawn > width * height / 2)
    #expect(worstResting <= 4, "a resting pixel differs by \(worstResting)")
    #expect(worstMoving > 4, "moving images differ by at most \(worstMoving)")
  }

  /// A pixel's bound is `lossy` divided by the frames it keeps its colour,
  /// not only by those of the image that draws it: in a 12-frame clip the
  /// top rows drift every frame while the bottom rows drift once, at frame
  /// 1, and then keep their colours. Image 1 is shown one frame, but its
  /// bottom pixels stay eleven, so they are within 24 / 11 = 2 of the
  /// lossless GIF's in every frame they show; the drifting rows use more.
  /// Without lifetimes (none kept: past their capacity) every pixel is
  /// within its image's bound, 24, and the settled ones use more than 2.
  @Test static func aSettledPixelIsCodedWithinItsShareOfTheBound() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let settled = 50..<height
    func frame(_ i: Int) -> Bitmap {
      var b = clip(i)
      let rest = clip(min(i, 1))
      for y in settled { for x in 0..<width { b[x, y] = rest[x, y] } }
      return b
    }
    try GIFWriter.write(to: dir.path("exact.gif"), frameCount: 12, fps: 20, options: GIFOptions(lossy: 0), frame: frame)
    try GIFWriter.write(to: dir.path("lossy.gif"), frameCount: 12, fps: 20, options: GIFOptions(lossy: 24), frame: frame)
    // No lifetimes kept (a clip past their capacity): each image's own frames.
    var unrecorded = GIFOptions(lossy: 24)
    unrecorded.lifetimeCapacity = 0
    try GIFWriter.write(to: dir.path("unrecorded.gif"), frameCount: 12, fps: 20, options: unrecorded, frame: frame)
    #expect(GIFOptions(lossy: 24).lossyBound(frames: 11) == 2)
    let a = try GIFReader(path: dir.path("exact.gif")), b = try GIFReader(path: dir.path("lossy.gif"))
    let c = try GIFReader(path: dir.path("unrecorded.gif"))
    try #require(a.frames.count == 12 && b.frames.count == 12 && c.frames.count == 12)
    let (before, after) = (clip(0), clip(1))
    var worstSettled = 0, worstMoving = 0, drawn = 0, worstUnrecorded = 0, worstSettledUnrecorded = 0
    for k in 0..<12 {
      for y in 0..<height {
        for x in 0..<width {
          let d = maxChannelDifference(a.frames[k][x, y], c.frames[k][x, y])
          worstUnrecorded = max(worstUnrecorded, d)
          if k >= 1 && settled.contains(y) && before[x, y] != after[x, y] { worstSettledUnrecorded = max(worstSettledUnrecorded, d) }
        }
      }
    }
    #expect(worstUnrecorded <= 24 && worstSettledUnrecorded > 2, "unrecorded: \(worstUnrecorded), settled \(worstSettledUnrecorded)")
    for k in 1..<12 {
      for y in 0..<height {
        for x in 0..<width {
          let d = maxChannelDifference(a.frames[k][x, y], b.frames[k][x, y])
          if y < 40 { worstMoving = max(worstMoving, d) }
          guard settled.contains(y), before[x, y] != after[x, y] else { continue }
          if k == 1 { drawn += 1 }
          worstSettled = max(worstSettled, d)
        }
      }
    }
    #expect(drawn > width * settled.count / 2)
    #expect(worstSettled <= 2, "a settled pixel differs by \(worstSettled)")
    #expect(worstMoving > 2, "drifting rows differ by at most \(worstMoving)")
  }

  /// The longest-match search (`searchBudget` > 0) against the greedy coder
  /// (budget 0) on one photo-like image of a 256-grey table, every pixel
  /// within 6 levels: both decode, through FFmpeg, to what `encode` says
  /// (`coded`) and within every pixel's bound of the wanted grey, and the
  /// search's longer strings take fewer bytes.
  @Test static func longestMatchIsWithinBoundAndSmallerThanGreedy() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let width = 160, height = 120, bound = 6
    let grain = noise(width * height, seed: 5, below: 9)
    let indices = (0..<(width * height)).map { p in UInt8(min(255, 60 + p % width + p / width / 2 + Int(grain[p]))) }
    let tolerance = GIFLZWEncoder.Tolerance(
      colors: greyColors, transparentIndex: nil, shown: [UInt32](repeating: 0, count: indices.count),
      wanted: indices.map { greyColors[Int($0)] }, bounds: [UInt8](repeating: UInt8(bound), count: indices.count))
    var sizes: [Int] = []
    for budget in [0, GIFLZWEncoder.defaultSearchBudget] {
      var coder = GIFLZWEncoder(searchBudget: budget)
      let (bytes, wrong, worst) = try codeGreys(
        indices, width: width, coder: &coder, tolerance: tolerance, at: dir.path("budget-\(budget).gif"))
      sizes.append(bytes)
      #expect(wrong == 0, "budget \(budget): \(wrong) pixels are not what encode returned")
      #expect(worst <= bound, "budget \(budget): a pixel is \(worst) from its wanted grey")
    }
    #expect(sizes[1] < sizes[0], "search \(sizes[1]) B, greedy \(sizes[0]) B")
  }

  /// Given the image's width, a string may start with the index of a pixel
  /// above its first one: rows that repeat the row above within the bound
  /// (grain of up to 3 levels, bound 4) continue the strings learnt there.
  /// Decoded by FFmpeg, every pixel is what `encode` says and within its
  /// bound; the rows cost less than 0.6 of the bytes coded without the width.
  @Test static func aStringMayStartWithTheIndexAbove() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let width = 150, height = 100, bound = 4
    let row = noise(width, seed: 11, below: 200)
    let grain = noise(width * height, seed: 13, below: 7)
    let indices = (0..<(width * height)).map { p in UInt8(Int(row[p % width]) + 20 + Int(grain[p]) - 3) }
    var sizes: [Int] = []
    for rows in [0, width] {
      let tolerance = GIFLZWEncoder.Tolerance(
        colors: greyColors, transparentIndex: nil, shown: [UInt32](repeating: 0, count: indices.count),
        wanted: indices.map { greyColors[Int($0)] }, bounds: [UInt8](repeating: UInt8(bound), count: indices.count),
        width: rows)
      var coder = GIFLZWEncoder()
      let (bytes, wrong, worst) = try codeGreys(
        indices, width: width, coder: &coder, tolerance: tolerance, at: dir.path("rows-\(rows).gif"))
      sizes.append(bytes)
      #expect(wrong == 0, "width \(rows): \(wrong) pixels are not what encode returned")
      #expect(worst <= bound, "width \(rows): a pixel is \(worst) from its wanted grey")
    }
    #expect(sizes[1] * 5 < sizes[0] * 3, "strings from above \(sizes[1]) B, without \(sizes[0]) B")
  }

  /// An image of whole rows of a frame reads the frame's arrays from its
  /// first pixel (`offset`): the same codes and indices as the image's own
  /// arrays, whatever the rows above and below hold.
  @Test static func anOffsetReadsTheImageFromTheFramesArrays() {
    let width = 96, height = 40, above = 7 * width, below = 5 * width
    let grain = noise(width * height, seed: 17, below: 9)
    let indices = (0..<(width * height)).map { p in UInt8(80 + p % width / 2 + Int(grain[p])) }
    let wanted = indices.map { greyColors[Int($0)] }
    let shown = noise(width * height, seed: 19, below: 250).map { greyColors[Int($0)] }
    let bounds = noise(width * height, seed: 23, below: 7)
    let own = GIFLZWEncoder.Tolerance(
      colors: greyColors, transparentIndex: 255, shown: shown, wanted: wanted, bounds: bounds, width: width)
    // Other rows around the image: other colours, wider bounds.
    let frame = GIFLZWEncoder.Tolerance(
      colors: greyColors, transparentIndex: 255,
      shown: [UInt32](repeating: 0x101010, count: above) + shown + [UInt32](repeating: 0x202020, count: below),
      wanted: [UInt32](repeating: 0xFFFFFF, count: above) + wanted + [UInt32](repeating: 0, count: below),
      bounds: [UInt8](repeating: 99, count: above) + bounds + [UInt8](repeating: 99, count: below), width: width,
      offset: above)
    var a = indices, b = indices
    var coderA = GIFLZWEncoder(), coderB = GIFLZWEncoder()
    let codesA = coderA.encode(&a, minimumCodeSize: 8, tolerance: own)
    let codesB = coderB.encode(&b, minimumCodeSize: 8, tolerance: frame)
    let sameCodes = codesA == codesB, sameIndices = a == b, changed = a != indices
    #expect(sameCodes, "\(codesA.count) and \(codesB.count) bytes")
    #expect(sameIndices)
    #expect(changed, "the lossy coder changed no index: the test shows nothing")
  }

  /// A pixel that keeps what is on screen may take the transparent index or
  /// an opaque index of exactly that colour, whichever makes the longer
  /// string: a second image repeats a ramp whose middle band the first image
  /// already shows. Through FFmpeg the band shows the same colours as
  /// before, the rest the new ramp; some band pixels are coded opaque, so
  /// the rows are one ramp and cost fewer bytes than with a transparent band.
  @Test static func unchangedPixelsMayRepeatTheColourOnScreen() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let width = 160, height = 60, transparent: UInt8 = 255
    let band = 40..<80
    let (table, colors) = (greys, greyColors)
    let ramp = (0..<(width * height)).map { p in UInt8((p % width + p / width) % 16) }
    let before = ramp.indices.map { band.contains($0 % width) ? ramp[$0] : 200 }
    let inBand = ramp.indices.map { band.contains($0 % width) }
    let tolerance = GIFLZWEncoder.Tolerance(
      colors: colors, transparentIndex: Int(transparent), shown: before.map { colors[Int($0)] },
      wanted: ramp.indices.map { inBand[$0] ? GIFLZWEncoder.Tolerance.unchanged : colors[Int(ramp[$0])] },
      bounds: [UInt8](repeating: 0, count: ramp.count))
    let second = ramp.indices.map { inBand[$0] ? transparent : ramp[$0] }
    var sizes: [Int] = []
    var coded = second
    for lossy in [false, true] {
      let file = try GIFFile(width: width, height: height, palette: table, loop: nil, what: "test")
      var coder = GIFLZWEncoder()
      let full = GIFFile.Image(x: 0, y: 0, width: width, height: height, palette: nil, transparentIndex: nil, delay: 10)
      var first = before
      try file.append(full, data: coder.encode(&first, minimumCodeSize: 8, tolerance: nil))
      let image = GIFFile.Image(
        x: 0, y: 0, width: width, height: height, palette: nil, transparentIndex: Int(transparent), delay: 10)
      coded = second
      let data = coder.encode(&coded, minimumCodeSize: 8, tolerance: lossy ? tolerance : nil)
      sizes.append(data.count)
      try file.append(image, data: data)
      let gif = try readBack(file, at: dir.path("band-\(lossy).gif"))
      try #require(gif.frames.count == 2)
      var wrong = 0
      for p in ramp.indices where gif.frames[1][p % width, p / width] != Pixel(r: ramp[p], g: ramp[p], b: ramp[p], a: 255) {
        wrong += 1
      }
      #expect(wrong == 0, "lossy \(lossy): \(wrong) pixels differ from the ramp")
    }
    let opaque = ramp.indices.filter { inBand[$0] && coded[$0] != transparent }
    #expect(opaque.allSatisfy { coded[$0] == ramp[$0] })
    #expect(!opaque.isEmpty, "no band pixel coded opaque")
    #expect(sizes[1] < sizes[0], "repeating the screen \(sizes[1]) B, transparent band \(sizes[0]) B")
  }

  @Test static func rejectsALossyBoundOutOfRange() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    #expect(throws: MediaError("write GIF '\(dir.path("x.gif"))'", "lossy 256 is not in 0…255")) {
      try GIFWriter.write(to: dir.path("x.gif"), frameCount: 2, fps: 10, options: GIFOptions(lossy: 256), frame: clip)
    }
  }
}
