import Foundation
import Geometry
import Jobs
import Media
import Raster
import Rendering
import Testing

@testable import TransvidCLI
import TestSupport

/// A GIF is rendered at the smallest whole canvas scale at least as wide as
/// it (`JobSpec.gifRenderScale`), not at the canvas scale and resized: its
/// frames are the job drawn at that scale, with the GIF's size, delays and
/// loop; a stage is drawn around it as at the canvas scale.
@Suite struct GIFScaleTests {
  /// `smallJob` (120×200 pt) at scale 3 with `output`.
  static func job(_ output: String, extra: String = "") -> String {
    smallJob(output: output).replacingOccurrences(of: "scale: 2", with: "scale: 3") + extra
  }

  @Test func theScaleIsTheSmallestWholeOneAtLeastTheGIFWidth() throws {
    let spec = try JobParser.parse(Self.job("{ formats: [gif] }"), file: "s.cfg")
    #expect(spec.canvas.scale == 3)
    let scales = [16, 120, 121, 240, 241, 360, 361, 2000].map { spec.gifRenderScale(width: $0) }
    #expect(scales == [1, 1, 2, 2, 3, 3, 3, 3])
    // 100.5 pt is not whole at 1x: the first scale at which both sides are.
    var fractional = spec
    fractional.canvas.size = Size(width: 100.5, height: 200)
    fractional.canvas.scale = 4
    #expect(fractional.gifRenderScale(width: 50) == 2)
    fractional.canvas.scale = 1
    #expect(fractional.gifRenderScale(width: 50) == 1)
    // A centred image is its pixels ÷ the scale in points: the scale stays.
    let centred = try JobParser.parse(
      Self.job("{ formats: [gif] }").replacingOccurrences(
        of: "color: \"#E5E5EA\" }", with: "image: p.png, contentMode: center }"), file: "s.cfg")
    #expect(centred.gifRenderScale(width: 120) == 3)
    // Only a GIF-only job is loaded at the GIF's scale.
    #expect(GIFOutput.loaded(spec, formats: [.gif]).canvas.scale == 1)
    #expect(GIFOutput.loaded(spec, formats: [.gif, .png]).canvas.scale == 3)
  }

  /// The GIF image shown at `cs` centiseconds: the frame `n` of a 30 fps clip.
  static func frameIndex(atCentiseconds cs: Int) -> Int { Int((Double(cs) * 30 / 100).rounded()) }

  /// The PSNR of each image of the GIF at `path` against the frame of
  /// `renderer` it shows, and against that frame of `full` (the canvas
  /// scale) resized to the GIF (0 without `full`).
  static func compare(gif path: String, renderer: FrameRenderer, full: FrameRenderer?) throws -> [(Double, Double)] {
    let gif = try GIFReader(path: path)
    let (w, h) = (renderer.spec.framePixelWidth, renderer.spec.framePixelHeight)
    let (fw, fh) = (full?.spec.framePixelWidth ?? w, full?.spec.framePixelHeight ?? h)
    let resampler = try Resampler(resizing: fw, fh, to: w, h)
    var start = 0
    var result: [(Double, Double)] = []
    for (image, delay) in zip(gif.frames, gif.delays) {
      let n = frameIndex(atCentiseconds: start)
      start += delay
      let own = renderer.frame(n, width: w, height: h)
      guard let full else {
        result.append((psnr(image, own), 0))
        continue
      }
      var resized = Bitmap(width: w, height: h)
      var bytes = resized.bytes
      try bytes.withUnsafeMutableBufferPointer { p in
        try resampler.resize(full.frame(n, width: fw, height: fh), into: p.baseAddress!, stride: 4 * w)
      }
      resized.bytes = bytes
      result.append((psnr(image, own), psnr(image, resized)))
    }
    return result
  }

  @Test func theDefaultGIFIsTheJobAt1x() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let spec = try JobParser.parse(Self.job("{ formats: [gif], gif: { loop: 3 } }"), file: "\(dir)/small.cfg")
    let path = (dir as NSString).appendingPathComponent("small.gif")
    let summary = try OutputWriter.write(format: .gif, renderer: FrameRenderer(spec: spec), to: path)
    let gif = try GIFReader(path: path)
    // 120×200 pt: 120×200 px, 1.9 s at 30 fps, holds merged.
    #expect(gif.frames.allSatisfy { $0.width == 120 && $0.height == 200 })
    #expect(gif.delays.reduce(0, +) == 190 && gif.delays.allSatisfy { $0 >= 2 })
    #expect(gif.frames.count == summary.frames && summary.frames < 50)
    let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    let netscape = Array("NETSCAPE2.0".utf8)
    let at = try #require((0..<(bytes.count - 16)).first { Array(bytes[$0..<($0 + 11)]) == netscape })
    #expect(bytes[at + 13] == 3 && bytes[at + 14] == 0)
    // Every image is the job drawn at 1x, up to the palette; the 3x frame
    // resized is further from it (other edges).
    let at1x = FrameRenderer(spec: spec.rescaled(1))
    for (i, (own, resized)) in try Self.compare(gif: path, renderer: at1x, full: FrameRenderer(spec: spec)).enumerated() {
      #expect(own >= 75, "image \(i): \(own) dB from the 1x frame")
      #expect(resized >= 45 && resized < own, "image \(i): \(resized) dB from the 3x frame resized, \(own) from 1x")
    }
  }

  @Test func aWiderGIFIsDrawnAt2xAndResized() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let spec = try JobParser.parse(Self.job("{ formats: [gif], gif: { width: 180 } }"), file: "\(dir)/small.cfg")
    #expect(spec.gifRenderScale(width: 180) == 2)
    let path = (dir as NSString).appendingPathComponent("small.gif")
    try OutputWriter.write(format: .gif, renderer: FrameRenderer(spec: spec), to: path)
    let gif = try GIFReader(path: path)
    #expect(gif.frames.allSatisfy { $0.width == 180 && $0.height == 300 })
    #expect(gif.delays.reduce(0, +) == 190)
    // Every image is the 2x frame resized to 180 px, up to the palette.
    let at2x = FrameRenderer(spec: spec.rescaled(2))
    let gifWidth = 180, gifHeight = 300
    let resampler = try Resampler(resizing: 240, 400, to: gifWidth, gifHeight)
    var start = 0
    for (i, (image, delay)) in zip(gif.frames, gif.delays).enumerated() {
      let n = Self.frameIndex(atCentiseconds: start)
      start += delay
      var expected = Bitmap(width: gifWidth, height: gifHeight)
      var bytes = expected.bytes
      try bytes.withUnsafeMutableBufferPointer { p in
        try resampler.resize(at2x.frame(n, width: 240, height: 400), into: p.baseAddress!, stride: 4 * gifWidth)
      }
      expected.bytes = bytes
      #expect(psnr(image, expected) >= 40, "image \(i)")
    }
  }

  @Test func aStagedGIFHasItsDeviceAtTheLowerScale() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = """
      name: staged
      canvas: { device: iphone-15-pro, scale: 2, fps: 30 }
      output: { formats: [gif] }
      stage: { device: iphone-15-pro, color: black, background: "#00A050", padding: 10 }
      screens:
        a: { background: "#FFFFFF", views: [{ frame: [20, 100, 200, 200], color: "#FF0000" }] }
        b: { background: "#000000", views: [{ frame: [40, 300, 100, 100], color: "#0000FF" }] }
      timeline:
        - hold: 0.1
        - push: { to: b, transition: push, duration: 0.3 }
        - hold: 0.1
      """
    let spec = try JobParser.parse(text, file: "\(dir)/staged.cfg")
    let stage = try #require(spec.stage)
    #expect(spec.canvas.scale == 2 && spec.gifRenderScale(width: spec.gifSize.width) == 1)
    let path = (dir as NSString).appendingPathComponent("staged.gif")
    try OutputWriter.write(format: .gif, renderer: FrameRenderer(spec: spec), to: path)
    let gif = try GIFReader(path: path)
    // The stage's size in points, one pixel each.
    let (w, h) = (Int(stage.size.width), Int(stage.size.height))
    #expect(gif.frames.allSatisfy { $0.width == w && $0.height == h })
    #expect(gif.delays.reduce(0, +) == 50)
    let layout = StageLayout(stage: stage, canvas: spec.canvas)
    let first = try #require(gif.frames.first)
    func pixel(_ x: Double, _ y: Double) -> [UInt8] {
      let i = 4 * (Int(y) * w + Int(x))
      return Array(first.bytes[i..<(i + 3)])
    }
    func near(_ a: [UInt8], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs(Int($0) - $1) <= 10 } }
    // Background in a corner, the black finish's band left of the screen
    // (shaded a little lighter than the finish), the screen's white inside it.
    #expect(near(pixel(2, 2), [0, 0xA0, 0x50]))
    #expect(near(pixel(layout.body.minX + 2, layout.body.midY), [46, 46, 48]), "\(pixel(layout.body.minX + 2, layout.body.midY))")
    #expect(near(pixel(layout.screen.midX, layout.screen.maxY - 60), [255, 255, 255]))
    let at1x = FrameRenderer(spec: spec.rescaled(1))
    for (i, (own, _)) in try Self.compare(gif: path, renderer: at1x, full: nil).enumerated() {
      #expect(own >= 50, "image \(i): \(own) dB from the 1x frame")
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
