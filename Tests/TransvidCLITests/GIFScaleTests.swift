import Foundation
import Geometry
import Jobs
import Media
import Raster
import Rendering
import Testing

@testable import TransvidCLI
import TestSupport

/// A GIF is rendered at the smallest whole canvas scale at least three times
/// as wide as it (`JobSpec.gifRenderScale`), not at the canvas scale: its
/// frames are the job drawn at that scale, with the GIF's size, delays and
/// loop; a stage is drawn around it as at the canvas scale.
@Suite struct GIFScaleTests {
  /// `smallJob` (120×200 pt) at scale 3 with `output`.
  static func job(_ output: String, extra: String = "") -> String {
    smallJob(output: output).replacingOccurrences(of: "scale: 2", with: "scale: 3") + extra
  }

  @Test func theScaleIsTheSmallestWholeOneAtLeastThreeTimesTheGIFWidth() throws {
    let spec = try JobParser.parse(Self.job("{ formats: [gif] }"), file: "s.cfg")
    #expect(spec.canvas.scale == 3)
    let scales = [16, 40, 41, 80, 81, 120, 121, 2000].map { spec.gifRenderScale(width: $0) }
    #expect(scales == [1, 1, 2, 2, 3, 3, 3, 3])
    // 100.5 pt is not whole at 1x: the first scale at which both sides are.
    var fractional = spec
    fractional.canvas.size = Size(width: 100.5, height: 200)
    fractional.canvas.scale = 4
    #expect(fractional.gifRenderScale(width: 25) == 2)
    fractional.canvas.scale = 1
    #expect(fractional.gifRenderScale(width: 25) == 1)
    // A centred image is its pixels ÷ the scale in points: the scale stays.
    let centred = try JobParser.parse(
      Self.job("{ formats: [gif] }").replacingOccurrences(
        of: "color: \"#E5E5EA\" }", with: "image: p.png, contentMode: center }"), file: "s.cfg")
    #expect(centred.gifRenderScale(width: 60) == 3)
    // Only a GIF-only job is loaded at the GIF's scale; a GIF of one pixel
    // per point (the default) keeps the canvas scale.
    let preview = try JobParser.parse(Self.job("{ formats: [gif], gif: { width: 60 } }"), file: "s.cfg")
    #expect(GIFOutput.loaded(preview, formats: [.gif]).canvas.scale == 2)
    #expect(GIFOutput.loaded(preview, formats: [.gif, .png]).canvas.scale == 3)
    #expect(GIFOutput.loaded(spec, formats: [.gif]).canvas.scale == 3)
  }

  /// The default GIF is one pixel per point however narrow the canvas: a
  /// 10×40 pt canvas gives a 10×40 GIF at scale 1 (its frames as drawn) and
  /// at scale 3 (drawn at 3x and resized), with no note. It was raised to
  /// 16×64 without a word, a minimum kept from the first GIF writer.
  @Test(arguments: [1, 3])
  func aNarrowCanvasGivesAGIFOfOnePixelPerPoint(scale: Int) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = """
      name: narrow
      canvas: { size: 10x40, scale: \(scale), fps: 30, background: "#000000" }
      output: { formats: [gif], gif: { lossy: 0 } }
      screens:
        a:
          background: "#FF0000"
          views:
            - { frame: [2, 20, 6, 12], color: "#0000FF", corner: 3 }
      timeline:
        - hold: 0.2
      """
    let spec = try JobParser.parse(text, file: "\(dir)/narrow.cfg")
    #expect(spec.gifSize.width == 10 && spec.gifSize.height == 40)
    let path = "\(dir)/narrow.gif"
    let summary = try OutputWriter.write(format: .gif, renderer: FrameRenderer(spec: spec), to: path)
    #expect(summary.notes.isEmpty, "\(summary.notes)")
    let (gif, psnrs) = try Self.compare(gif: path, with: [FrameRenderer(spec: spec)])
    // A still clip is two images of its length, as an APNG's and a WebP's.
    #expect(gif.frames.map { "\($0.width)x\($0.height)" } == ["10x40", "10x40"])
    let db = try #require(psnrs.first?.first)
    #expect(scale == 1 ? db == .infinity : db >= 40, "\(db) dB")
  }

  /// A budget a GIF narrower than 16 px cannot meet names the width it was
  /// tried at, its own (the search narrows a GIF only down to 16 px, the
  /// narrowest `width:`; the message named the floor whatever the width).
  @Test func anUnmetBudgetNamesANarrowGIFsOwnWidth() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = """
      name: narrow
      canvas: { size: 12x600, scale: 1, fps: 30, background: "#000000" }
      output: { formats: [gif], gif: { maxBytes: 1024 } }
      screens:
        a:
          views:
            - { frame: [0, 0, 12, 600], gradient: { colors: ["#FF5F6D", "#2C5364", "#00FF00"] } }
        b:
          views:
            - { frame: [0, 0, 12, 600], gradient: { colors: ["#1D2B64", "#F8CDDA", "#FF00FF"] } }
      timeline:
        - hold: 0.1
        - present: { to: b, transition: cross-dissolve, duration: 1.0 }
        - hold: 0.1
      """
    let spec = try JobParser.parse(text, file: "\(dir)/narrow.cfg")
    #expect(spec.gifSize.width == 12)
    do {
      _ = try OutputWriter.write(format: .gif, renderer: FrameRenderer(spec: spec), to: "\(dir)/narrow.gif")
      Issue.record("a 1024-byte budget was met")
    } catch let failure as JobFailure {
      #expect(
        failure.description.wholeMatch(
          of: /.*narrow\.cfg:3:44: error: output\.gif\.maxBytes: even at 12 px, 20 fps and 64 colours the GIF is \d+ bytes, over 1024/)
          != nil, "\(failure.description)")
    }
  }

  /// The GIF image shown at `cs` centiseconds: the frame `n` of a 30 fps clip.
  static func frameIndex(atCentiseconds cs: Int) -> Int { Int((Double(cs) * 30 / 100).rounded()) }

  /// The GIF at `path` (holds merged), and per image the PSNR against the
  /// frame it shows as each of `renderers` draws it, resized to the GIF's
  /// size (Lanczos, `Resampler`) where it is another.
  static func compare(gif path: String, with renderers: [FrameRenderer]) throws -> (GIFReader, [[Double]]) {
    let gif = try GIFReader(path: path)
    let first = try #require(gif.frames.first)
    let (w, h) = (first.width, first.height)
    var start = 0
    var result: [[Double]] = []
    for (image, delay) in zip(gif.frames, gif.delays) {
      let n = frameIndex(atCentiseconds: start)
      start += delay
      result.append(
        try renderers.map { renderer in
          let (fw, fh) = (renderer.spec.framePixelWidth, renderer.spec.framePixelHeight)
          let frame = renderer.frame(n, width: fw, height: fh)
          guard (fw, fh) != (w, h) else { return psnr(image, frame) }
          var bytes = [UInt8](repeating: 0, count: 4 * w * h)
          try bytes.withUnsafeMutableBufferPointer { p in
            try Resampler(resizing: fw, fh, to: w, h).resize(frame, into: p.baseAddress!, stride: 4 * w)
          }
          var resized = Bitmap(width: w, height: h)
          resized.bytes = bytes
          return psnr(image, resized)
        })
    }
    return (gif, result)
  }

  @Test func theDefaultGIFIsTheCanvasResized() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let spec = try JobParser.parse(Self.job("{ formats: [gif], gif: { loop: 3 } }"), file: "\(dir)/small.cfg")
    let path = (dir as NSString).appendingPathComponent("small.gif")
    let summary = try OutputWriter.write(format: .gif, renderer: FrameRenderer(spec: spec), to: path)
    let (gif, psnrs) = try Self.compare(
      gif: path, with: [FrameRenderer(spec: spec), FrameRenderer(spec: spec.rescaled(2))])
    // 120×200 pt: 120×200 px, 1.9 s at 30 fps, holds merged.
    #expect(gif.frames.allSatisfy { $0.width == 120 && $0.height == 200 })
    #expect(gif.delays.reduce(0, +) == 190 && gif.delays.allSatisfy { $0 >= 2 })
    #expect(gif.frames.count == summary.frames && summary.frames < 50)
    let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    let netscape = Array("NETSCAPE2.0".utf8)
    let at = try #require((0..<(bytes.count - 16)).first { Array(bytes[$0..<($0 + 11)]) == netscape })
    #expect(bytes[at + 13] == 3 && bytes[at + 14] == 0)
    // Every image is the job drawn at 3x (the canvas) and resized, up to
    // the palette; the 2x frame resized is close but further (other edges).
    for (i, values) in psnrs.enumerated() {
      #expect(values[0] >= 55, "image \(i): \(values[0]) dB from the 3x frame resized")
      #expect(values[1] >= 40 && values[1] < values[0], "image \(i): \(values[1]) dB from 2x, \(values[0]) from 3x")
    }
  }

  /// A 30 px GIF is drawn at 1x and resized, a 60 px one at 2x; a 360 px
  /// one is the 3x canvas as it is, not resized.
  @Test(arguments: [(30, 1, 45.0), (60, 2, 45.0), (360, 3, 55.0)])
  func aGIFIsTheJobAtItsScaleResized(width: Int, scale: Int, decibels: Double) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let spec = try JobParser.parse(
      Self.job("{ formats: [gif], gif: { width: \(width) } }"), file: "\(dir)/small.cfg")
    #expect(spec.gifRenderScale(width: width) == scale)
    let path = (dir as NSString).appendingPathComponent("small.gif")
    try OutputWriter.write(format: .gif, renderer: FrameRenderer(spec: spec), to: path)
    let (gif, psnrs) = try Self.compare(gif: path, with: [FrameRenderer(spec: spec.rescaled(scale))])
    #expect(gif.frames.allSatisfy { $0.width == width && $0.height == width * 5 / 3 })
    #expect(gif.delays.reduce(0, +) == 190)
    for (i, values) in psnrs.enumerated() {
      #expect(values[0] >= decibels, "image \(i): \(values[0]) dB from the \(scale)x frame")
    }
  }

  @Test func aStagedGIFHasItsDeviceAtTheLowerScale() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = """
      name: staged
      canvas: { device: iphone-15-pro, scale: 2, fps: 30, statusBar: { time: "9:41" } }
      output: { formats: [gif] }
      stage:
        device: iphone-15-pro
        color: black
        background: "#00A050"
        padding: 10
        caption: { text: "Tap to open", position: bottom, font: 24, lines: 1 }
      screens:
        list: { background: "#FFFFFF", views: [{ frame: [24, 120, 150, 150], color: "#FF3B30", corner: 12 }] }
        detail: { background: "#1C1C1E", views: [{ frame: [60, 320, 90, 90], color: "#0A84FF" }] }
      timeline:
        - hold: 0.1
        - push: { to: detail, transition: push, duration: 0.3 }
          caption: "Swipe back"
        - hold: 0.1
      """
    var spec = try JobParser.parse(text, file: "\(dir)/staged.cfg")
    let stage = try #require(spec.stage)
    // A third of the stage's width in points: drawn at 1x, resized. Without
    // lossy coding, so the pixels sampled below are the drawing's.
    spec.output.gif.width = Int(stage.size.width) / 3
    spec.output.gif.lossy = 0
    #expect(spec.canvas.scale == 2 && spec.gifRenderScale(width: spec.gifSize.width) == 1)
    let path = (dir as NSString).appendingPathComponent("staged.gif")
    try OutputWriter.write(format: .gif, renderer: FrameRenderer(spec: spec), to: path)
    let (gif, psnrs) = try Self.compare(gif: path, with: [FrameRenderer(spec: spec.rescaled(1))])
    // A third of a pixel per point of the stage.
    let (w, h) = spec.gifSize
    #expect(w == Int(stage.size.width) / 3 && abs(h - Int(stage.size.height) / 3) <= 1)
    #expect(gif.frames.allSatisfy { $0.width == w && $0.height == h })
    #expect(gif.delays.reduce(0, +) == 50)
    let layout = StageLayout(stage: stage, canvas: spec.canvas)
    let first = try #require(gif.frames.first)
    func pixel(_ x: Double, _ y: Double) -> [Int] {
      let i = 4 * (Int(y / 3) * w + Int(x / 3))
      return first.bytes[i..<(i + 3)].map { Int($0) }
    }
    func near(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 10 } }
    // In points: the background in a corner, the black finish's band left
    // of the screen (shaded a little lighter), the list's white inside it;
    // the status bar, the caption and the screens are in the frames compared
    // below.
    let band = pixel(layout.body.minX + 3, layout.body.midY)
    #expect(near(pixel(4, 4), [0, 0xA0, 0x50]))
    #expect(near(band, [46, 46, 48]), "\(band)")
    #expect(near(pixel(layout.screen.midX, layout.screen.maxY - 60), [255, 255, 255]))
    for (i, values) in psnrs.enumerated() {
      #expect(values[0] >= 38, "image \(i): \(values[0]) dB from the 1x frame resized")
    }
  }

  @Test func aGIFOnlyJobLoadedAtTheGIFScaleWritesTheSameGIF() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(Self.job("{ formats: [gif] }"), to: "small.cfg", in: dir)
    let capture = Capture()
    #expect(TransvidCommand.run([job, "-o", dir, "-q"], console: capture.console) == 0, "\(capture.err)")
    let viaCommand = try Data(contentsOf: URL(fileURLWithPath: (dir as NSString).appendingPathComponent("small.gif")))
    let path = (dir as NSString).appendingPathComponent("direct.gif")
    try OutputWriter.write(format: .gif, renderer: FrameRenderer(spec: try JobParser.load(path: job)), to: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == viaCommand)
  }
}
