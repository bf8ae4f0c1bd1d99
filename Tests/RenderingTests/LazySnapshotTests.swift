import Dispatch
import Foundation
import Jobs
import Raster
import Rendering
import Synchronization
import Testing

/// Screens are snapshotted, and resting composites made, when a frame first
/// needs them (`ScreenSnapshots`, `RestingImages`): in whatever order and on
/// whatever threads frames ask, every frame is the one a renderer prepared
/// all at once draws: example jobs with shared elements, resting
/// composites (sheets), a drawn status bar, and (Arabic) mirrored
/// steps; also while another thread makes them ahead of the frames.
@Suite struct LazySnapshotTests {
  static func spec(_ name: String) throws -> JobSpec {
    let parts = name.split(separator: "@").map(String.init)
    var spec = try JobParser.load(path: ExampleJobsTests.jobsDirectory.appendingPathComponent(parts[0]).path)
    if parts.count > 1 { spec = spec.localized(to: parts[1]) }
    spec.canvas.scale = 1
    spec.canvas.fps = 5
    // The stage around the canvas uses no snapshot (StageTests cover it).
    spec.stage = nil
    return spec
  }

  @Test(arguments: [
    "magic-move.cfg", "elastic-present.cfg", "sheet.cfg", "release-notes.cfg", "page-flip.cfg", "locales.cfg@ar",
  ])
  func framesInAnyOrderMatchPreparedFrames(_ name: String) throws {
    let spec = try Self.spec(name)
    if name.hasSuffix("@ar") {
      let mirrored = spec.timeline.contains { if case .transition(let step) = $0 { step.mirror == true } else { false } }
      #expect(mirrored, "\(name) has a mirrored step")
    }
    let prepared = FrameRenderer(spec: spec)
    prepared.prepare()
    let count = prepared.frameCount
    let w = spec.canvas.pixelWidth, h = spec.canvas.pixelHeight
    let expected = (0..<count).map { prepared.frame($0, width: w, height: h) }
    // Last frame first: the resting composites and screens are made out of order.
    let backwards = FrameRenderer(spec: spec)
    for n in stride(from: count - 1, through: 0, by: -1) {
      let same = backwards.frame(n, width: w, height: h) == expected[n]
      #expect(same, "\(name): frame \(n) drawn last-first")
    }
    // Several threads at once on a fresh renderer, each frame drawn by whichever thread claims it.
    let fresh = FrameRenderer(spec: spec)
    let drawn = Mutex([Bitmap?](repeating: nil, count: count))
    DispatchQueue.concurrentPerform(iterations: count) { n in
      let frame = fresh.frame(n, width: w, height: h)
      drawn.withLock { $0[n] = frame }
    }
    let concurrent = drawn.withLock { $0 }
    for n in 0..<count {
      #expect(concurrent[n] == expected[n], "\(name): frame \(n) drawn concurrently")
    }
    // In order, as the GIF writer draws them, while another thread makes the
    // screens and resting composites ahead (`preparingAhead`).
    let ahead = FrameRenderer(spec: spec)
    let inOrder = ahead.preparingAhead { (0..<count).map { ahead.frame($0, width: w, height: h) } }
    for n in 0..<count {
      #expect(inOrder[n] == expected[n], "\(name): frame \(n) drawn while prepared ahead")
    }
  }

  /// `preparingAhead` returns its body's value, or rethrows its error, once
  /// the thread preparing ahead has stopped (a body that draws nothing).
  @Test func preparingAheadEndsWithItsBody() throws {
    struct Stop: Error {}
    let renderer = FrameRenderer(spec: try Self.spec("release-notes.cfg"))
    #expect(throws: Stop.self) { try renderer.preparingAhead { throw Stop() } }
    #expect(renderer.preparingAhead { 7 } == 7)
    // Drawn afterwards, the renderer's frames are still the prepared ones.
    let prepared = FrameRenderer(spec: try Self.spec("release-notes.cfg"))
    prepared.prepare()
    let (w, h) = (prepared.spec.canvas.pixelWidth, prepared.spec.canvas.pixelHeight)
    for n in stride(from: 0, to: prepared.frameCount, by: 3) {
      #expect(renderer.frame(n, width: w, height: h) == prepared.frame(n, width: w, height: h), "frame \(n)")
    }
  }

  /// A screen's lazily made snapshot is `ScreenBuilder.snapshots()`'s.
  @Test func snapshotsMatchScreenBuilder() throws {
    let spec = try Self.spec("magic-move.cfg")
    let eager = ScreenBuilder(spec: spec).snapshots()
    let renderer = FrameRenderer(spec: spec)
    for screen in spec.screens {
      #expect(renderer.snapshot(of: screen.name) == eager[screen.name]?.image, "\(screen.name)")
    }
  }
}
