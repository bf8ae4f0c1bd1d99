import Foundation
import Jobs
import Raster
import Rendering
import Testing

/// `FrameRenderer.render` draws the background as a layer under the tree (so
/// the compositor skips it under opaque layers) and `repeatsPreviousFrame`
/// lets the MP4 path skip holds. Neither may change a pixel: compare with the
/// plain way (fill the background, composite the tree) on every example job.
@Suite struct FrameRendererShortcutTests {
  static let jobsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("jobs").path

  static var exampleJobs: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: jobsFolder)) ?? [])
      .filter { $0.hasSuffix(".cfg") }.sorted()
  }

  /// The example job at scale 1 (a ninth of the pixels: the debug build is slow).
  func renderer(_ name: String, background: Color? = nil) throws -> FrameRenderer {
    var spec = try JobParser.load(path: "\(Self.jobsFolder)/\(name)")
    spec.canvas.scale = 1
    // The canvas's own frames: the stage and status bar drawn around them have their own tests (StageTests).
    spec.stage = nil
    spec.canvas.statusBar = nil
    if let background { spec.canvas.background = background }
    return FrameRenderer(spec: spec)
  }

  /// Frame `n` drawn the plain way.
  func plainFrame(_ renderer: FrameRenderer, _ n: Int, width: Int, height: Int) -> Bitmap {
    let spec = renderer.spec
    var bitmap = Bitmap(width: width, height: height, fill: spec.canvas.background.premultipliedPixel)
    if let layer = renderer.layers(ofFrame: n) {
      Compositor(scale: Double(spec.canvas.scale)).render(layer, into: &bitmap)
    } else {
      return renderer.frame(n, width: width, height: height)
    }
    return bitmap
  }

  /// A few frames of every transition segment: its first, middle and last.
  func transitionFrames(_ renderer: FrameRenderer) -> [Int] {
    var byKind: [Int: [Int]] = [:]
    for n in 0..<renderer.frameCount where renderer.layers(ofFrame: n) != nil {
      byKind[renderer.timeline.segmentIndex(ofFrame: n), default: []].append(n)
    }
    return byKind.values.flatMap { frames in
      Set([0, 1, 2].map { frames[($0 * (frames.count - 1)) / 2] })
    }.sorted()
  }

  @Test func thereAreExampleJobs() {
    #expect(Self.exampleJobs.count >= 10)
  }

  @Test(arguments: exampleJobs)
  func backgroundAsALayerGivesThePlainPixels(job: String) throws {
    let renderer = try renderer(job)
    let (width, height) = (renderer.spec.canvas.pixelWidth & ~1, renderer.spec.canvas.pixelHeight & ~1)
    let frames = transitionFrames(renderer)
    #expect(!frames.isEmpty)
    // Reused bitmaps, as the pipeline reuses them: stale pixels must not show.
    var reused = Bitmap(width: width, height: height, fill: Pixel(r: 255, g: 0, b: 255, a: 255))
    for n in frames {
      renderer.render(n, into: &reused)
      #expect(reused == plainFrame(renderer, n, width: width, height: height), "\(job) frame \(n)")
    }
  }

  /// A translucent background keeps the fill (the layer would blend, not replace).
  @Test func translucentBackgroundStillFills() throws {
    let renderer = try renderer("sheet.cfg", background: Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5))
    let (width, height) = (renderer.spec.canvas.pixelWidth, renderer.spec.canvas.pixelHeight)
    var reused = Bitmap(width: width, height: height, fill: Pixel(r: 255, g: 0, b: 255, a: 255))
    for n in transitionFrames(renderer) {
      renderer.render(n, into: &reused)
      #expect(reused == plainFrame(renderer, n, width: width, height: height), "frame \(n)")
    }
  }

  /// Frames said to repeat the previous one do (holds, and the jobs with gestures).
  @Test(arguments: ["circle-spread.cfg", "magic-move.cfg", "elastic-present.cfg", "page-flip.cfg"])
  func repeatedFramesAreIdentical(job: String) throws {
    let renderer = try renderer(job)
    let (width, height) = (renderer.spec.canvas.pixelWidth, renderer.spec.canvas.pixelHeight)
    var repeats = 0, checked = 0
    for n in 1..<renderer.frameCount where renderer.repeatsPreviousFrame(n) {
      repeats += 1
      // Spot-check the first repeat of the first few runs (the debug build is slow).
      guard !renderer.repeatsPreviousFrame(n - 1), checked < 4 else { continue }
      checked += 1
      #expect(renderer.frame(n, width: width, height: height) == renderer.frame(n - 1, width: width, height: height), "\(job) frame \(n)")
    }
    #expect(!renderer.repeatsPreviousFrame(0))
    #expect(repeats > 0, "\(job) has holds")
  }
}
