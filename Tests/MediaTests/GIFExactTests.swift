import Raster
import Testing

@testable import Media
import TestSupport

/// Without lossy coding (`lossy: 0`) a GIF is as exact as its tables allow:
/// an image whose changed pixels have at most `maxColors − 1` colours takes
/// a table of exactly those (`palette: .auto`), a screen at rest is refined
/// to its source colours from its second frame on where one or two more
/// tables of as many hold what it lacks, and a pixel that keeps what is on
/// screen may take the transparent index or one of exactly its colour. No
/// table holds more than `maxColors` entries. Every frame is read back by
/// FFmpeg's GIF decoder.
@Suite enum GIFExactTests {
  static let width = 256, height = 192

  /// Six flat colours in bands, which the palette keeps exactly.
  static let flat = [
    Pixel(r: 255, g: 255, b: 255, a: 255), Pixel(r: 0, g: 0, b: 0, a: 255), Pixel(r: 0, g: 122, b: 255, a: 255),
    Pixel(r: 52, g: 199, b: 89, a: 255), Pixel(r: 255, g: 59, b: 48, a: 255), Pixel(r: 242, g: 242, b: 247, a: 255),
  ]

  /// A flat screen (`flat` in six bands, turned by `turn`) whose first
  /// `edge` pixels from row 100 on take `colors` distinct colours in turn
  /// (at most 768; `seed` gives other ones): an antialiased edge.
  static func screen(edge: Int, colors: Int, seed: Int = 0, turn: Int = 0) -> Bitmap {
    var b = Bitmap(width: width, height: height, fill: flat[0])
    for y in 0..<height {
      for x in 0..<width { b[x, y] = flat[(x * 6 / width + turn) % 6] }
    }
    for i in 0..<edge {
      let k = i % colors
      b[i % width, 100 + i / width] = Pixel(
        r: UInt8(truncatingIfNeeded: 17 * k + seed), g: UInt8(truncatingIfNeeded: k / 3 + 40 + seed),
        b: UInt8(truncatingIfNeeded: 255 - k), a: 255)
    }
    return b
  }

  /// Pixels of `a` that differ from `b`.
  static func differing(_ a: Bitmap, _ b: Bitmap) -> Int {
    var n = 0
    for y in 0..<a.height {
      for x in 0..<a.width where a[x, y] != b[x, y] { n += 1 }
    }
    return n
  }

  /// Whether a clip that never changes was written as one image, unrefined:
  /// two copies of it (`GIFWriter`: a still clip keeps its length).
  static func isOneImage(_ gif: GIFReader) -> Bool {
    gif.frames.count == 2 && gif.frames[0] == gif.frames[1]
  }

  /// Writes `frames` (each shown for the frames it is repeated) at 30 fps
  /// with 16 colours (15 and the transparent entry in every table) and
  /// reads the GIF back.
  static func written(
    _ frames: [Bitmap], palette: GIFOptions.Palette = .auto, lossy: Int = 0, maxColors: Int = 16,
    in dir: TempDirectory
  ) throws -> (gif: GIFReader, summary: GIFSummary) {
    let path = dir.path("clip.gif")
    let summary = try GIFWriter.write(
      to: path, frameCount: frames.count, fps: 30,
      options: GIFOptions(maxColors: maxColors, palette: palette, lossy: lossy)
    ) { frames[$0] }
    return (try GIFReader(path: path), summary)
  }

  /// Refinements start one a frame after a run's first, while every image
  /// keeps 2 cs: at 50 fps each frame is 2 cs, at 30 fps 3 or 4 cs.
  @Test static func refinementsStartOneAFrameWhileEveryImageKeepsTwoCentiseconds() {
    #expect(GIFTiming.laterStarts(in: 0..<10, fps: 30, atMost: 2) == [1, 2])
    #expect(GIFTiming.laterStarts(in: 5..<7, fps: 30, atMost: 2) == [6])
    #expect(GIFTiming.laterStarts(in: 5..<6, fps: 30, atMost: 2) == [])
    #expect(GIFTiming.laterStarts(in: 0..<3, fps: 50, atMost: 5) == [1, 2])
    #expect(GIFTiming.laterStarts(in: 0..<10, fps: 30, atMost: 0) == [])
  }

  /// A flat screen with an edge of 25 colours resting ten frames: its
  /// first frame shows the 16-colour table's, the second the 15 colours
  /// of the most pixels refined, the third every pixel in its own colour;
  /// the delays still add up to the rest (33 cs), each at least 2 cs.
  @Test static func aRestIsRefinedToItsSourceColours() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let rest = screen(edge: 400, colors: 25)
    let (gif, summary) = try written(Array(repeating: rest, count: 10), in: dir)
    #expect(gif.frames.count == 3 && summary.frames == 3)
    #expect(gif.delays == [3, 4, 26] && summary.delays == gif.delays)
    try #require(gif.frames.count == 3)
    let wrong = gif.frames.map { differing($0, rest) }
    #expect(wrong[0] > wrong[1] && wrong[1] > 0 && wrong[2] == 0, "\(wrong)")
  }

  /// A rest of two frames has room for one more image: an edge of 12
  /// colours (18 with the bands, too many for a table of exactly them)
  /// is refined in it, one of 25 is not (it needs two tables); nor are
  /// 700 colours resting ten frames, an edge of 25 colours over more than
  /// 1/64 of the pixels (2 000), or any rest with lossy coding.
  @Test static func aRestIsRefinedOnlyWhereItCanBeMadeExactCheaply() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let few = screen(edge: 252, colors: 12), more = screen(edge: 400, colors: 25)
    let two = try written([few, few], in: dir).gif
    #expect(two.frames.count == 2 && two.delays == [3, 4])
    #expect(two.frames.count == 2 && differing(two.frames[1], few) == 0)
    #expect(isOneImage(try written([more, more], in: dir).gif))
    let many = try written(Array(repeating: screen(edge: 700, colors: 700), count: 10), in: dir).gif
    #expect(isOneImage(many) && many.delays == [16, 17])
    #expect(isOneImage(try written(Array(repeating: screen(edge: 2000, colors: 25), count: 10), in: dir).gif))
    #expect(isOneImage(try written(Array(repeating: more, count: 10), lossy: 48, in: dir).gif))
  }

  /// `palette: .global` is one table only: a rest that two more images
  /// would make exact (`aRestIsRefinedToItsSourceColours`) is one image of
  /// the global table's colours, with no table of its own, for the whole
  /// rest.
  @Test static func theGlobalPaletteIsTheOnlyTableAtLossyZero() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let rest = screen(edge: 400, colors: 25)
    let (gif, summary) = try written(Array(repeating: rest, count: 10), palette: .global, in: dir)
    #expect(isOneImage(gif) && summary.frames == 2 && gif.delays == [16, 17])
    let headers = gifImageHeaders(try Platform.readFile(dir.path("clip.gif")))
    #expect(headers.count == 2 && headers.allSatisfy { !$0.hasLocalTable })
    #expect(gif.frames.count == 2 && differing(gif.frames[0], rest) > 0)
  }

  /// Screens whose bands turn and whose edges take 9 other colours each
  /// frame (15 with the bands), each shown once (no rest to refine), come
  /// out exactly, the first too, each in a table of exactly its changed
  /// pixels' colours; with the global table alone they do not, and neither
  /// do they where the edge covers more than 1/16 of the pixels.
  @Test static func anImageOfFewColoursTakesATableOfExactlyThem() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let screens = [0, 99, 37, 180].enumerated().map { screen(edge: 200, colors: 9, seed: $1, turn: $0) }
    let auto = try written(screens, in: dir).gif
    try #require(auto.frames.count == 4)
    #expect((0..<4).map { differing(auto.frames[$0], screens[$0]) } == [0, 0, 0, 0])
    let global = try written(screens, palette: .global, in: dir).gif
    try #require(global.frames.count == 4)
    #expect((1..<4).allSatisfy { differing(global.frames[$0], screens[$0]) > 0 })
    let wide = [0, 99, 37, 180].enumerated().map { screen(edge: 6000, colors: 9, seed: $1, turn: $0) }
    let wideAuto = try written(wide, in: dir).gif
    try #require(wideAuto.frames.count == 4)
    #expect((1..<4).allSatisfy { differing(wideAuto.frames[$0], wide[$0]) > 0 })
  }

  /// `maxColors` caps every table at lossy 0 too, the transparent entry
  /// included: the global one, an image's table of exactly its colours
  /// (screens of 206 colours each, which a table of 255 would hold) and a
  /// rest's refinements (an edge of 10 colours the global table lacks,
  /// made exact in two more images of 7), with `palette: .auto` and
  /// `.perFrame`; so every image draws at most `maxColors − 1` colours.
  @Test static func noTableHoldsMoreThanMaxColors() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let screens = [0, 99, 37, 180].enumerated().map { screen(edge: 200, colors: 200, seed: $1, turn: $0) }
    let rest = screen(edge: 400, colors: 10, seed: 50)
    let frames = screens + Array(repeating: rest, count: 10)
    for palette in [GIFOptions.Palette.auto, .perFrame] {
      let (gif, _) = try written(frames, palette: palette, maxColors: 8, in: dir)
      let bytes = try Platform.readFile(dir.path("clip.gif"))
      let globalEntries = 2 << Int(bytes[10] & 7)
      let headers = gifImageHeaders(bytes)
      let tables = headers.map { $0.localTableEntries ?? globalEntries }
      #expect(globalEntries <= 8 && tables.allSatisfy { $0 <= 8 }, "\(palette): tables of \(tables) entries")
      #expect(headers.allSatisfy { ($0.transparentIndex ?? 0) < 8 }, "\(palette)")
      // The colours each image draws: those of the pixels it changes.
      var drawn: [Int] = []
      for (k, frame) in gif.frames.enumerated() {
        var colors = Set<UInt32>()
        for y in 0..<frame.height {
          for x in 0..<frame.width where k == 0 || frame[x, y] != gif.frames[k - 1][x, y] {
            let p = frame[x, y]
            colors.insert(UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b))
          }
        }
        drawn.append(colors.count)
      }
      #expect(drawn.allSatisfy { $0 <= 7 }, "\(palette): colours drawn \(drawn)")
      let last = gif.frames.last.map { differing($0, rest) }
      #expect(palette != .auto || last == 0, "the rest ends \(last ?? -1) pixels off")
    }
  }

  /// Where every colour is in the table, each frame of a clip whose pixels
  /// change in part decodes to its source exactly: the coder's freedom at
  /// a limit of 0 (a kept pixel drawn again in its own colour) shows
  /// nothing new.
  @Test static func keptPixelsDrawnAgainShowTheSameColours() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let colors = [
      Pixel(r: 255, g: 255, b: 255, a: 255), Pixel(r: 0, g: 0, b: 0, a: 255), Pixel(r: 200, g: 30, b: 30, a: 255),
    ]
    // A bar that grows over a backdrop of stripes in the same colours.
    let frames = (0..<8).map { i -> Bitmap in
      var b = Bitmap(width: 64, height: 48, fill: colors[0])
      for y in 0..<48 {
        for x in 0..<64 {
          b[x, y] = x < 6 * i + 8 && y >= 10 && y < 30 ? colors[2] : colors[(x / 5 + y / 7) % 2]
        }
      }
      return b
    }
    let (gif, _) = try written(frames, palette: .global, in: dir)
    try #require(gif.frames.count == frames.count)
    #expect(zip(gif.frames, frames).map { differing($0, $1) } == Array(repeating: 0, count: frames.count))
  }
}
