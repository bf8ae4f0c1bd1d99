// `--target` on the command line: the destination's formats for a job that
// writes none, the job's own where it does; an unknown name is a usage error.
import Foundation
import Testing

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

  @Test func anUnknownTargetIsAUsageError() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try write(smallJob(), to: "small.cfg", in: dir)
    let run = try runBinary(["small.cfg", "--target", "webb"], in: dir)
    #expect(run.status == 2)
    #expect(run.stderr.contains("unknown target 'webb'; did you mean 'web'?"), "\(run.stderr)")
  }
}
