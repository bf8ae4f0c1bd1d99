import Foundation
import Jobs
import Raster
import Rendering
import Testing
import Transitions

/// Every example under `jobs/` parses and renders (at 1× and 10 fps, to stay
/// fast): the first frame is the first screen, the last frame the screen the
/// timeline ends on, and mid-transition frames are neither screen.
@Suite struct ExampleJobsTests {
  static let jobsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("jobs")

  static let examples: [String] = (
    (try? FileManager.default.contentsOfDirectory(atPath: jobsDirectory.path)) ?? []
  ).filter { $0.hasSuffix(".cfg") }.sorted()

  @Test func everyTransitionHasAnExample() throws {
    var used: Set<String> = []
    for name in Self.examples {
      let spec = try JobParser.load(path: Self.jobsDirectory.appendingPathComponent(name).path)
      for case .transition(let step) in spec.timeline { used.insert(step.transition) }
    }
    let missing = Set(Transitions.Catalog.all.map(\.name)).subtracting(used).subtracting(["pop"])
    #expect(missing.isEmpty, "no example job uses \(missing.sorted())")
  }

  @Test(arguments: examples)
  func exampleRendersFromFirstToLastScreen(_ name: String) throws {
    var spec = try JobParser.load(path: Self.jobsDirectory.appendingPathComponent(name).path)
    spec.canvas.scale = 1
    spec.canvas.fps = 10
    // The screens alone: the stage and the status bar around and over them have their own tests (StageTests).
    spec.stage = nil
    spec.canvas.statusBar = nil
    let renderer = FrameRenderer(spec: spec)
    let w = spec.canvas.pixelWidth, h = spec.canvas.pixelHeight
    let first = renderer.frame(0, width: w, height: h)
    let firstIsStart = first == renderer.snapshot(of: spec.initialScreen)
    #expect(firstIsStart, "\(name): frame 0")
    let last = renderer.frame(renderer.frameCount - 1, width: w, height: h)
    if let final = renderer.timeline.finalScreen {
      let lastIsFinal = last == renderer.snapshot(of: final)
      #expect(lastIsFinal, "\(name): last frame")
    }
    // The middle of every transition shows something between the screens.
    for segment in renderer.timeline.segments {
      guard case .transition(_, let step) = segment.content else { continue }
      let n = Int(((segment.start + segment.duration / 2) * 10).rounded(.down))
      let mid = renderer.frame(n, width: w, height: h)
      let isBetween = mid != renderer.snapshot(of: step.from) && mid != renderer.snapshot(of: step.to)
      #expect(isBetween, "\(name): frame \(n)")
    }
  }
}
