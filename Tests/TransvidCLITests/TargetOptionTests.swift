// `--target` on the command line: the destination's formats for a job that
// writes none, the job's own where it does; an unknown name is a usage error.
import Foundation
import Testing
import TestSupport

@Suite(.enabled(if: transvidBinary() != nil, "build the executable first (swift build --build-tests)"))
struct TargetOptionTests {
  func plannedOutputs(_ output: String, _ arguments: [String]) throws -> (Int32, [String]) {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(smallJob(output: output), to: "small.cfg", in: dir)
    let (status, data) = try PlanFramesTests.run(binary, ["plan", "--json", job, "-o", "out"] + arguments)
    let plan = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let outputs = ((plan?["jobs"] as? [[String: Any]])?.first?["outputs"] as? [String]) ?? []
    return (status, outputs.map { ($0 as NSString).lastPathComponent })
  }

  @Test func webFillsInTheFormats() throws {
    let (status, outputs) = try plannedOutputs("{ dir: out }", ["--target", "web"])
    #expect(status == 0 && outputs == ["small.webm", "small.mp4", "small.png"])
    let (_, own) = try plannedOutputs("{ formats: [gif] }", ["--target", "web"])
    #expect(own == ["small.gif"])
  }

  /// `--target github` keeps the MP4 within 1280 px of the output frame,
  /// a stage's here (1260 px of canvas in 40 px of padding: a 1340 px
  /// frame); the plan gives the frame it renders, 1340x140.
  @Test func githubScalesAStageWiderThan1280() throws {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      """
      name: strip
      canvas: { size: 1260x60, scale: 1, fps: 10 }
      stage: { device: none, padding: 40 }
      screens: { a: { background: "#FF0000" } }
      timeline: [{ hold: 0.2 }]

      """, to: "strip.cfg", in: dir)
    let (planStatus, data) = try PlanFramesTests.run(binary, ["plan", "--json", job, "--target", "github"])
    let plan = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let entry = try #require((plan?["jobs"] as? [[String: Any]])?.first)
    #expect(planStatus == 0 && entry["width"] as? Int == 1340 && entry["height"] as? Int == 140)
    let run = try runBinary([job, "--target", "github", "--format", "mp4", "-o", dir, "-q"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let video = try VideoReader(path: path(dir, "strip.mp4"))
    #expect(video.width == 1280 && video.height == 134, "\(video.width)x\(video.height)")
  }

  @Test func anUnknownTargetIsAUsageError() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try write(smallJob(), to: "small.cfg", in: dir)
    let run = try runBinary(["small.cfg", "--target", "webb"], in: dir)
    #expect(run.status == 2)
    #expect(run.stderr.contains("unknown target 'webb'; did you mean 'web'?"), "\(run.stderr)")
  }
}
