import Foundation
import Raster
import Testing

@testable import Media
import TestSupport

/// The NETSCAPE2.0 application extension's loop count, read from the bytes:
/// `21 FF 0B "NETSCAPE2.0" 03 01 <count LE16> 00`; nil when absent.
func netscapeLoopCount(_ bytes: [UInt8]) -> Int? {
  let marker = Array("NETSCAPE2.0".utf8)
  guard bytes.count > marker.count + 8 else { return nil }
  for i in 3..<(bytes.count - marker.count - 5)
  where bytes[i - 3] == 0x21 && bytes[i - 2] == 0xFF && bytes[i - 1] == 0x0B
    && Array(bytes[i..<(i + marker.count)]) == marker
  {
    let j = i + marker.count
    #expect(bytes[j] == 3 && bytes[j + 1] == 1 && bytes[j + 4] == 0)
    return Int(bytes[j + 2]) | Int(bytes[j + 3]) << 8
  }
  return nil
}

/// Where every graphic control extension (21 F9 04 flags delay delay index 00)
/// starts in the bytes.
func graphicControlOffsets(_ bytes: [UInt8]) -> [Int] {
  var offsets: [Int] = []
  var i = 0
  while i + 7 < bytes.count {
    if bytes[i] == 0x21, bytes[i + 1] == 0xF9, bytes[i + 2] == 4, bytes[i + 7] == 0 {
      offsets.append(i)
      i += 8
    } else {
      i += 1
    }
  }
  return offsets
}

/// The delays (cs) of every graphic control extension, read from the bytes.
func graphicControlDelays(_ bytes: [UInt8]) -> [Int] {
  graphicControlOffsets(bytes).map { Int(bytes[$0 + 4]) | Int(bytes[$0 + 5]) << 8 }
}

@Suite enum GIFWriterTests {
  static let width = 96, height = 64

  /// A clip: 5 still frames, 10 moving, 6 still, at `fps`.
  static func clip(_ i: Int) -> Bitmap {
    syntheticFrame(min(max(i - 4, 0), 10), width: width, height: height, edge: 1.5)
  }

  @Test static func timingCarriesRounding() {
    for fps in [1, 7, 24, 25, 29, 30, 33, 45, 50] {
      var total = 0
      for i in 0..<97 {
        let d = GIFTiming.delay(of: i..<(i + 1), fps: fps)
        #expect(d >= 2, "fps \(fps) frame \(i): \(d) cs")
        total += d
      }
      #expect(abs(Double(total) - 9700 / Double(fps)) <= 0.5, "fps \(fps): \(total) cs")
    }
  }

  @Test static func delaysAddUpAndIdenticalFramesMerge() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("clip.gif")
    let fps = 30, count = 21
    let summary = try GIFWriter.write(to: path, frameCount: count, fps: fps, frame: clip)
    // Frames 0…4 are identical, 5…13 each differ, 14…20 are identical.
    var expected = 1
    for i in 1..<count where clip(i) != clip(i - 1) { expected += 1 }
    #expect(expected == 11)
    #expect(summary.frames == expected)
    #expect(summary.sourceFrames == count)

    let gif = try GIFReader(path: path)
    #expect(gif.frames.count == expected)
    #expect(gif.delays == summary.delays)
    #expect(try graphicControlDelays(Platform.readFile(path)) == summary.delays)
    #expect(gif.delays.allSatisfy { $0 >= 2 })
    let length = 100.0 * Double(count) / Double(fps)
    #expect(abs(Double(gif.delays.reduce(0, +)) - length) <= 1)
    // The first run is 5 frames of 1/30 s: 16.67 cs → 17.
    #expect(gif.delays[0] == 17)
    #expect(netscapeLoopCount(try Platform.readFile(path)) == 0)
  }

  @Test static func framesKnownToRepeatAreNotDrawn() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let count = 21
    let compared = try GIFWriter.write(to: dir.path("compared.gif"), frameCount: count, fps: 30, frame: clip)
    // The same clip, its repeats said rather than drawn.
    var drawn: [Int] = []
    let said = try GIFWriter.write(to: dir.path("said.gif"), frameCount: count, fps: 30) { i -> Bitmap? in
      if i > 0 && clip(i) == clip(i - 1) { return nil }
      drawn.append(i)
      return clip(i)
    }
    #expect(said == compared)
    #expect(try Platform.readFile(dir.path("said.gif")) == Platform.readFile(dir.path("compared.gif")))
    // Each image's first frame, once: pass 2 takes them from the cache.
    #expect(drawn == [0] + Array(5...14))
    // A first frame that repeats nothing is an error, and writes nothing.
    #expect(throws: MediaError.self) {
      try GIFWriter.write(to: dir.path("none.gif"), frameCount: 3, fps: 30) { _ in nil }
    }
    #expect(!FileManager.default.fileExists(atPath: dir.path("none.gif")))
  }

  @Test static func measureTimesEveryPhaseAndChangesNothing() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    var options = GIFOptions()
    (options.width, options.height) = (48, 32)
    let plain = try GIFWriter.write(to: dir.path("plain.gif"), frameCount: 21, fps: 30, options: options, frame: clip)
    var phases: [GIFWriter.Phase: Int] = [:]
    let measured = try GIFWriter.write(
      to: dir.path("measured.gif"), frameCount: 21, fps: 30, options: options,
      measure: { phase, body throws(MediaError) in
        phases[phase, default: 0] += 1
        try body()
      }, frame: clip)
    #expect(measured == plain)
    #expect(try Platform.readFile(dir.path("measured.gif")) == Platform.readFile(dir.path("plain.gif")))
    // Every frame drawn is resized once (pass 2 takes them from the cache),
    // the palette is chosen once, and each image is coded once.
    #expect(phases == [.resize: 21, .palette: 1, .code: plain.frames])
  }

  @Test static func decodedFramesLookLikeTheSource() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("clip.gif")
    try GIFWriter.write(to: path, frameCount: 21, fps: 30, frame: clip)
    let gif = try GIFReader(path: path)
    var runStart = 0
    for (k, frame) in gif.frames.enumerated() {
      if k > 0 { runStart += 1; while clip(runStart) == clip(runStart - 1) { runStart += 1 } }
      let quality = psnr(frame, clip(runStart))
      // A full-gamut gradient in ≤ 255 colours: dithering costs a few dB.
      #expect(quality > 24, "image \(k): \(quality) dB")
    }
  }

  @Test(arguments: [
    (GIFOptions.Loop.forever, 0 as Int?), (.repeat(3), 3), (.repeat(0), nil),
  ])
  static func loopFlag(_ loop: GIFOptions.Loop, _ expected: Int?) throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("loop.gif")
    try GIFWriter.write(to: path, frameCount: 3, fps: 10, options: GIFOptions(loop: loop), frame: clip)
    #expect(netscapeLoopCount(try Platform.readFile(path)) == expected)
  }

  @Test static func perFramePalettes() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let global = dir.path("global.gif"), local = dir.path("local.gif")
    try GIFWriter.write(to: global, frameCount: 21, fps: 30, frame: clip)
    let summary = try GIFWriter.write(
      to: local, frameCount: 21, fps: 30, options: GIFOptions(dither: .sierra2_4a, palette: .perFrame),
      frame: clip)
    let bytes = try Platform.readFile(local)
    // Every image after the first carries a local colour table.
    #expect(gifImageHeaders(bytes).filter(\.hasLocalTable).count >= summary.frames - 1)
    let decoded = try GIFReader(path: local)
    #expect(decoded.frames.count == summary.frames)
    #expect(psnr(decoded.frames[5], clip(5 + 4)) > 30)
    #expect(try Platform.readFile(global).count < bytes.count)
  }

  /// Per-frame palettes with a `targetQuality`: a frame of a smooth
  /// 192-colour ramp gets the fewest colours that reach the target, more for
  /// a higher one, and all of them without a target.
  @Test static func perFramePalettesHaveTheColoursTheirTargetNeeds() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    func ramp(_ i: Int) -> Bitmap {
      var b = Bitmap(width: 64, height: 48, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
      guard i == 1 else { return b }
      for y in 0..<48 {
        for x in 0..<64 {
          let k = (y / 16) * 64 + x  // 192 distinct colours
          b[x, y] = Pixel(r: UInt8(k), g: UInt8(255 - k), b: UInt8(64 + k / 3), a: 255)
        }
      }
      return b
    }
    /// The second image's distinct colours as decoded (it has a local table),
    /// and its PSNR against the ramp.
    func secondImage(_ target: Int?) throws -> (colors: Int, psnr: Double) {
      let path = dir.path("ramp-\(target ?? 0).gif")
      var options = GIFOptions(maxColors: 256, palette: .perFrame, lossy: 0)
      options.targetQuality = target
      try GIFWriter.write(to: path, frameCount: 2, fps: 10, options: options, frame: ramp)
      let bytes = try Platform.readFile(path)
      let second = try #require(graphicControlOffsets(bytes).filter { bytes[$0 + 8] == 0x2C }.dropFirst().first)
      let flags = bytes[second + 17]
      #expect(flags & 0x80 != 0, "a local table")
      let frame = try #require(try GIFReader(path: path).frames.last)
      var colors = Set<UInt32>()
      for y in 0..<48 {
        for x in 0..<64 {
          let p = frame[x, y]
          colors.insert(UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b))
        }
      }
      return (colors.count, psnr(frame, ramp(1)))
    }
    let low = try secondImage(50), high = try secondImage(95), all = try secondImage(nil)
    #expect(low.colors < high.colors && high.colors < all.colors && all.colors > 150, "\(low) \(high) \(all)")
    #expect(low.psnr < high.psnr && high.psnr <= all.psnr + 0.01)
  }

  /// A screen at rest weighs in the palette by how long it rests: the same
  /// clip ending on a screen held for 30 frames rather than shown once shows
  /// that screen closer to its colours (with 16 colours for three ramps, one
  /// global table; its first frame, before the rest is refined).
  @Test static func aScreenAtRestWeighsByItsRest() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    /// 192 colours along one hue: channel `c` rising with a tint `shift`.
    func ramp(_ channel: Int, _ shift: Int) -> Bitmap {
      var b = Bitmap(width: 64, height: 48, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
      for y in 0..<48 {
        for x in 0..<64 {
          let k = (y / 16) * 64 + x
          let v = UInt8(32 + k), t = UInt8((shift + k / 4) % 256)
          b[x, y] = channel == 0 ? Pixel(r: v, g: t, b: 40, a: 255)
            : channel == 1 ? Pixel(r: t, g: v, b: 40, a: 255) : Pixel(r: 40, g: t, b: v, a: 255)
        }
      }
      return b
    }
    /// The resting screen's first frame's PSNR against it.
    func lastFrame(rest: Int) throws -> Double {
      let path = dir.path("rest-\(rest).gif")
      // Screen A, ten frames of a transition in other colours, then screen B.
      func frame(_ i: Int) -> Bitmap { i == 0 ? ramp(0, 0) : i <= 10 ? ramp(1, 7 * i) : ramp(2, 0) }
      try GIFWriter.write(
        to: path, frameCount: 11 + rest, fps: 30, options: GIFOptions(maxColors: 16, palette: .global, lossy: 0),
        frame: frame)
      let frames = try GIFReader(path: path).frames
      try #require(frames.count >= 12)
      return psnr(frames[11], ramp(2, 0))
    }
    let once = try lastFrame(rest: 1), held = try lastFrame(rest: 30)
    #expect(held > once + 1, "held \(held) dB, shown once \(once) dB")
  }

  /// With `palette: .auto` the first image too takes a table of its own
  /// where the global one fails it for long enough (the fleet sweep): an
  /// orange square rests seven frames, then twenty frames of flat grey
  /// shades (a cross-dissolve's) fill the 16 colours' global table, and the
  /// square, kept in the global table, showed grey (189, 189, 190).
  @Test static func theFirstImageTakesItsOwnTableWhereTheGlobalOneFailsIt() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    var first = Bitmap(width: 60, height: 80, fill: Pixel(r: 242, g: 242, b: 247, a: 255))
    for y in 10..<22 {
      for x in 4..<16 { first[x, y] = Pixel(r: 255, g: 159, b: 10, a: 255) }
    }
    func frame(_ i: Int) -> Bitmap {
      guard i >= 7 else { return first }
      let shade = UInt8(190 + 3 * (i - 7))
      return Bitmap(width: 60, height: 80, fill: Pixel(r: shade, g: shade, b: shade, a: 255))
    }
    let path = dir.path("first.gif")
    try GIFWriter.write(to: path, frameCount: 27, fps: 30, options: GIFOptions(maxColors: 16), frame: frame)
    let frames = try GIFReader(path: path).frames
    try #require(frames.count == 21)
    #expect(frames[0][8, 15] == Pixel(r: 255, g: 159, b: 10, a: 255))
    #expect(psnr(frames[0], first) > 50, "\(psnr(frames[0], first)) dB")
  }

  /// A clip that never changes is two copies of its image, each half its
  /// length, as an APNG's and a WebP's are (a GIF of one image is a still
  /// to browsers, its delay and loop count unused); one frame stays one image.
  @Test static func aStillClipIsTwoImagesOfItsLength() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("still.gif")
    let red = Bitmap(width: 40, height: 30, fill: Pixel(r: 255, g: 0, b: 0, a: 255))
    let summary = try GIFWriter.write(to: path, frameCount: 45, fps: 30) { _ in red }
    #expect(summary.frames == 2 && summary.delays == [75, 75])
    let gif = try GIFReader(path: path)
    #expect(gif.frames.count == 2 && gif.delays == [75, 75])
    #expect(gif.frames.allSatisfy { psnr($0, red) == .infinity })
    #expect(netscapeLoopCount(try Platform.readFile(path)) == 0)
    let odd = try GIFWriter.write(to: path, frameCount: 10, fps: 30) { _ in red }
    #expect(odd.delays == [16, 17])
    let one = try GIFWriter.write(to: path, frameCount: 1, fps: 30) { _ in red }
    #expect(one.frames == 1 && one.delays == [3])
  }

  /// Rests long enough that a flat frame's weight passes 32 bits (6 000
  /// frames of 3 072 pixels at 255 each, twice for black) still make a GIF
  /// of exact colours.
  @Test static func longRestsOfFlatFrames() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("long.gif")
    let black = Bitmap(width: 64, height: 48, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
    let white = Bitmap(width: 64, height: 48, fill: Pixel(r: 255, g: 255, b: 255, a: 255))
    let summary = try GIFWriter.write(to: path, frameCount: 18_000, fps: 30) { i in i / 6000 == 1 ? white : black }
    #expect(summary.frames == 3 && summary.delays == [20_000, 20_000, 20_000])
    let frames = try GIFReader(path: path).frames
    #expect(frames.count == 3)
    #expect(frames.last.map { psnr($0, black) } == .infinity && psnr(frames[1], white) == .infinity)
  }

  /// Frames of more colours in all than libimagequant's histogram keeps
  /// exactly (four of 1024 × 1024, every colour new: 4.2 million) make it
  /// posterize; a rest after that still counts (added as the frame again, as
  /// libimagequant then refuses exact colours) and the GIF is written.
  @Test static func aRestAfterFramesOfTooManyColours() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    func frame(_ i: Int) -> Bitmap {
      var b = Bitmap(width: 1024, height: 1024, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
      let base = 16 * (i / 2)
      for y in 0..<1024 {
        for x in 0..<1024 {
          b[x, y] = Pixel(r: UInt8(x & 0xFF), g: UInt8(y & 0xFF), b: UInt8(base + (x >> 8) * 4 + (y >> 8)), a: 255)
        }
      }
      return b
    }
    let path = dir.path("many.gif")
    let summary = try GIFWriter.write(to: path, frameCount: 8, fps: 10, frame: frame)
    #expect(summary.frames == 4 && summary.delays == [20, 20, 20, 20])
    let frames = try GIFReader(path: path).frames
    #expect(frames.count == 4)
    #expect(frames.last.map { psnr($0, frame(7)) } ?? 0 > 25)
  }

  @Test static func scalesKeepingTheRequestedSize() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("small.gif")
    let summary = try GIFWriter.write(
      to: path, frameCount: 4, fps: 20, options: GIFOptions(width: 48, height: 33), frame: clip)
    let gif = try GIFReader(path: path)
    #expect(summary.width == 48 && summary.height == 33)
    #expect(gif.frames.allSatisfy { $0.width == 48 && $0.height == 33 })
  }

  @Test static func fewerColoursMakeSmallerFiles() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let full = try GIFWriter.write(to: dir.path("a.gif"), frameCount: 21, fps: 30, frame: clip)
    let few = try GIFWriter.write(
      to: dir.path("b.gif"), frameCount: 21, fps: 30, options: GIFOptions(maxColors: 16), frame: clip)
    #expect(few.bytes < full.bytes)
  }

  @Test static func rejectsBadSettingsWithoutWriting() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    #expect(throws: MediaError.self) {
      try GIFWriter.write(to: dir.path("x.gif"), frameCount: 3, fps: 60, frame: clip)
    }
    #expect(throws: MediaError.self) {
      try GIFWriter.write(
        to: dir.path("x.gif"), frameCount: 3, fps: 30, options: GIFOptions(maxColors: 2), frame: clip)
    }
    #expect(try dir.entries().isEmpty)
  }

  /// Pass 1 resizes each frame on its own queue while the next is drawn: a
  /// frame it cannot take (another size) fails the write with its error,
  /// writes nothing, and the frames after the next are not drawn.
  @Test static func aFrameThatCannotBeResizedStopsTheWrite() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    var options = GIFOptions()
    (options.width, options.height) = (48, 32)
    var drawn: [Int] = []
    #expect(throws: MediaError("resize frame", "frame is 65×48, expected 96×64")) {
      try GIFWriter.write(to: dir.path("x.gif"), frameCount: 40, fps: 30, options: options) { i in
        drawn.append(i)
        return i == 5 ? Bitmap(width: 65, height: 48, fill: Pixel(r: 1, g: 2, b: 3, a: 255)) : clip(i)
      }
    }
    #expect(drawn.count <= 8, "frames drawn after the failing one: \(drawn)")
    #expect(try dir.entries().isEmpty)
  }

  /// An error from drawing a frame ends the write with that error (after
  /// pass 1's queues have finished what they were given), writing nothing.
  @Test static func anErrorDrawingAFrameStopsTheWrite() throws {
    struct Broken: Error, Equatable {}
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    #expect(throws: Broken()) {
      try GIFWriter.write(to: dir.path("x.gif"), frameCount: 21, fps: 30) { i in
        if i == 9 { throw Broken() }
        return clip(i)
      }
    }
    #expect(try dir.entries().isEmpty)
  }

  @Test static func sameFramesSameBytes() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try GIFWriter.write(to: dir.path("a.gif"), frameCount: 12, fps: 25, frame: clip)
    try GIFWriter.write(to: dir.path("b.gif"), frameCount: 12, fps: 25, frame: clip)
    #expect(try Platform.readFile(dir.path("a.gif")) == Platform.readFile(dir.path("b.gif")))
  }
}

@Suite enum ContactSheetTests {
  /// The labels' font, as the command line passes it (scripts/bootstrap installs it).
  static let font = try! Font(data: Platform.readFile("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))

  @Test static func gridDimensions() throws {
    let sheet = ContactSheet(width: 4 * 100 + 5 * 8, columns: 4)
    let layout = try sheet.layout(count: 10, frameWidth: 200, frameHeight: 300)
    #expect(layout.thumbnailWidth == 100 && layout.thumbnailHeight == 150)
    #expect(layout.rows == 3)
    #expect(layout.sheetHeight == 8 + 3 * (150 + layout.labelHeight + 8))
    let image = try sheet.render(
      count: 10, frameWidth: 200, frameHeight: 300, font: font,
      frame: { Bitmap(width: 200, height: 300, fill: Pixel(r: UInt8($0 * 20), g: 0, b: 0, a: 255)) },
      label: { ContactSheet.label(seconds: Double($0) / 4) })
    #expect(image.width == 440 && image.height == layout.sheetHeight)
    // Each thumbnail's centre shows its own frame's colour.
    for i in 0..<10 {
      let (x, y) = layout.origin(of: i)
      #expect(image[x + 50, y + 75] == Pixel(r: UInt8(i * 20), g: 0, b: 0, a: 255))
    }
    // Each label is drawn in the strip under its thumbnail, centred, as wide
    // as the text set in the font, inked dark (10 px glyph stems are about
    // one pixel wide, so few pixels reach the full label colour).
    for i in [0, 9] {
      let (x, y) = layout.origin(of: i)
      var columns: [Int] = [], darkest = 255
      for py in (y + 150)..<(y + 150 + layout.labelHeight) {
        for px in x..<(x + 100) where image[px, py] != sheet.background {
          columns.append(px - x)
          darkest = min(darkest, Int(image[px, py].r))
        }
      }
      let text = Label(ContactSheet.label(seconds: Double(i) / 4), style: TextStyle(size: layout.labelSize))
      let width = text.width(scale: 1, fonts: FontSet(regular: [font]))
      let (left, right) = (columns.min() ?? 0, columns.max() ?? 0)
      #expect(abs(Double(right - left + 1) - width) <= 2, "label \(i): ink \(left)…\(right), text \(width) px")
      #expect(abs((left + right + 1) - 100) <= 2, "label \(i) is not centred: ink \(left)…\(right)")
      #expect(darkest < 120, "label \(i): darkest ink \(darkest)")
    }
  }

  @Test static func labels() {
    #expect(ContactSheet.label(seconds: 0) == "0.00s")
    #expect(ContactSheet.label(seconds: 1.2) == "1.20s")
    #expect(ContactSheet.label(seconds: 2.055) == "2.06s" || ContactSheet.label(seconds: 2.055) == "2.05s")
  }

  /// A time label is never cut to "…": "10.90s" under 30 px thumbnails
  /// (a 60 pt canvas's default sheet) keeps its 10 px and takes the gap
  /// beside its thumbnail too, and under 16 px ones (a 1 pt canvas's) it
  /// is set smaller, to fit the thumbnail and the gap; each is drawn whole
  /// (as wide as the text), centred under its thumbnail, on its grey strip
  /// on a transparent sheet. Labels that fit their thumbnails are set as
  /// they were.
  @Test static func aTimeLabelIsNeverCut() throws {
    let labels = ["0.00s", "9.95s", "10.90s"]
    for (thumbnail, smaller) in [(30, false), (16, true)] {
      var sheet = ContactSheet(width: 3 * thumbnail + 4 * 8, columns: 3)
      sheet.background = Pixel(r: 0, g: 0, b: 0, a: 0)
      let layout = try sheet.layout(count: 3, frameWidth: 60, frameHeight: 120)
      try #require(layout.thumbnailWidth == thumbnail)
      let fit = sheet.labelFit(labels, layout: layout, fonts: FontSet(regular: [font]))
      let shrunk = fit.size < 10
      #expect(shrunk == smaller && fit.size >= 6 && fit.width == thumbnail + 8, "\(fit)")
      let image = try sheet.render(
        count: 3, frameWidth: 60, frameHeight: 120, font: font,
        frame: { _ in Bitmap(width: 60, height: 120, fill: Pixel(r: 0, g: 0, b: 255, a: 255)) },
        label: { labels[$0] })
      for i in 0..<3 {
        let (x, y) = layout.origin(of: i)
        var columns: [Int] = []
        for py in (y + layout.thumbnailHeight)..<(y + layout.thumbnailHeight + layout.labelHeight) {
          for px in (x - 4)..<(x + thumbnail + 4) where image[px, py].r < 200 { columns.append(px - x) }
        }
        let text = Label(labels[i], style: TextStyle(size: fit.size)).width(scale: 1, fonts: FontSet(regular: [font]))
        let (left, right) = (columns.min() ?? 0, columns.max() ?? 0)
        #expect(abs(Double(right - left + 1) - text) <= 2, "\(labels[i]): ink \(left)…\(right), text \(text) px")
        #expect(abs((left + right + 1) - thumbnail) <= 2, "\(labels[i]) is not centred: ink \(left)…\(right)")
        #expect(image[x - 4, y + layout.thumbnailHeight] == ContactSheet.page, "\(labels[i]): no strip under it")
      }
    }
    let wide = try ContactSheet(width: 3 * 100 + 4 * 8, columns: 3).layout(count: 3, frameWidth: 60, frameHeight: 120)
    let fit = ContactSheet(width: 3 * 100 + 4 * 8, columns: 3).labelFit(labels, layout: wide, fonts: FontSet(regular: [font]))
    #expect(fit == ContactSheet.LabelFit(size: 10, width: 100, inset: 0))
  }

  /// Labels set smaller to fit a thumbnail and its gap stay apart: on a
  /// 64 px sheet of three 10 px thumbnails, "0.00s", "0.10s" and "0.20s"
  /// have columns of the page between them (they were set as wide as
  /// thumbnail and gap, and read "0.00s0.10s0.20s" with no column between).
  @Test static func labelsSetInTheGapStayApart() throws {
    let labels = ["0.00s", "0.10s", "0.20s"]
    let sheet = ContactSheet(width: 64, columns: 3)
    let layout = try sheet.layout(count: 3, frameWidth: 100, frameHeight: 200)
    try #require(layout.thumbnailWidth == 10)
    let image = try sheet.render(
      count: 3, frameWidth: 100, frameHeight: 200, font: font,
      frame: { _ in Bitmap(width: 100, height: 200, fill: Pixel(r: 0, g: 0, b: 255, a: 255)) },
      label: { labels[$0] })
    // The columns each label inks in the strip, in its box (the thumbnail and half a gap either side).
    let top = layout.origin(of: 0).y + layout.thumbnailHeight
    func inked(_ i: Int) -> [Int] {
      let x = layout.origin(of: i).x
      return ((x - 4)..<(x + 14)).filter { px in
        (top..<(top + layout.labelHeight)).contains { image[px, $0] != ContactSheet.page }
      }
    }
    for i in 0..<2 {
      let (left, right) = (inked(i), inked(i + 1))
      let clear = (right.min() ?? 0) - (left.max() ?? 0) - 1
      #expect(!left.isEmpty && !right.isEmpty && clear >= 1, "\(labels[i]) \(left) and \(labels[i + 1]) \(right)")
    }
  }

  /// Labels grow with the thumbnails: a twelfth of the width, 10…40 px.
  @Test static func labelSizeFollowsTheThumbnail() throws {
    func layout(_ thumbnail: Int) throws -> ContactSheet.Layout {
      try ContactSheet(width: thumbnail + 16, columns: 1).layout(count: 1, frameWidth: 100, frameHeight: 100)
    }
    #expect(try layout(60).labelSize == 10)
    #expect(try layout(240).labelSize == 20)
    #expect(try layout(1000).labelSize == 40)
    #expect(try layout(240).labelHeight == 25 + 2 * 4)
  }
}
