import Foundation
import Testing

@testable import TransvidCLI

/// A job whose file parses keeps its name when it fails later (an image not
/// there, a locale's screenshot missing): its report row, JUnit test case,
/// ndjson events and gallery entry are the ones it has when it renders, and
/// each locale's is its own.
@Suite struct FailedJobNameTests {
  @Test func aFailingJobIsKnownByItsName() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let missing = tinyJob(name: "fancy").replacingOccurrences(of: "corner: 4 }", with: "corner: 4, image: gone.png }")
    let file = try write(missing, to: "a.cfg", in: dir)
    let job = try #require(BatchPlan(files: [file], options: try Options.parse([file]), shardCount: 1).jobs.first)
    let failed = job.failure?.description.contains("cannot read 'gone.png'") == true
    #expect(failed && job.name == "fancy")
  }

  @Test func eachFailingLocaleIsKnownByItsOwnName() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = tinyJob(name: "shots")
      .replacingOccurrences(of: "corner: 4 }", with: "corner: 4, image: \"{locale}.png\" }")
      .replacingOccurrences(of: "screens:", with: "locales: [en, fr]\nscreens:")
    let file = try write(text, to: "a.cfg", in: dir)
    let jobs = BatchPlan(files: [file], options: try Options.parse([file]), shardCount: 1).jobs
    let allFailed = jobs.count == 2 && jobs.allSatisfy { $0.failure != nil }
    #expect(allFailed)
    #expect(jobs.map(\.name) == ["shots.en", "shots.fr"])
    // The report and JUnit name them so, one test case each.
    let results = jobs.map { JobResult(job: $0, status: .failed, failure: $0.failure) }
    let junit = BatchReport.junit(results)
    #expect(junit.contains("name=\"shots.en\"") && junit.contains("name=\"shots.fr\""))
  }
}
