import Foundation
import Testing

@testable import TransvidCLI

/// Writers report every frame: ndjson gets a `frame` event every 30 frames.
@Suite struct FrameProgressTests {
  @Test func ndjsonReportsFramesWithinAnOutput() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(smallJob(), to: "small.cfg", in: dir)
    let capture = Capture()
    #expect(TransvidCommand.run([job, "-o", dir, "--progress", "ndjson"], console: capture.console) == 0)
    let frames = capture.out.compactMap { line -> Int? in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["event"] as? String == "frame"
      else { return nil }
      return object["frame"] as? Int
    }
    // 57 frames: one event at frame 30.
    #expect(frames == [30])
  }

  /// The jobs of one file (its locales) running side by side (`-j 2`) each
  /// count their own frames: every locale's `progress` reaches its total,
  /// whichever finishes first.
  @Test func localesOfOneFileRunningAtOnceCountTheirOwnFrames() throws {
    let capture = Capture()
    let jobs = ["locales.en", "locales.ar"].enumerated().map { unit, name in
      var job = PlannedJob(file: "jobs/locales.cfg", name: name, unit: unit)
      job.formats = [.mp4]
      job.outputs = ["out/\(name).mp4"]
      job.frames = 27
      return job
    }
    let reporter = ProgressReporter(mode: .ndjson, console: capture.console, jobs: jobs)
    func written(_ job: PlannedJob) {
      reporter.outputWritten(job, OutputSummary(path: job.outputs[0], frames: 27, duration: 2.7, bytes: 100))
    }
    // Both outputs written while both run, then one finishing before the other writes.
    reporter.jobStarted(jobs[0])
    reporter.jobStarted(jobs[1])
    written(jobs[0])
    written(jobs[1])
    reporter.jobFinished(jobs[0], seconds: 1, bytes: 100)
    reporter.jobFinished(jobs[1], seconds: 1, bytes: 100)
    reporter.jobStarted(jobs[0])
    reporter.jobStarted(jobs[1])
    written(jobs[0])
    reporter.jobFinished(jobs[0], seconds: 1, bytes: 100)
    written(jobs[1])
    reporter.jobFinished(jobs[1], seconds: 1, bytes: 100)
    let progress = capture.out.filter { $0.contains("\"event\":\"progress\"") }
    #expect(
      progress == [
        "{\"event\":\"progress\",\"job\":\"locales.en\",\"frames\":27,\"total\":27,\"output\":\"out/locales.en.mp4\",\"bytes\":100}",
        "{\"event\":\"progress\",\"job\":\"locales.ar\",\"frames\":27,\"total\":27,\"output\":\"out/locales.ar.mp4\",\"bytes\":100}",
        "{\"event\":\"progress\",\"job\":\"locales.en\",\"frames\":27,\"total\":27,\"output\":\"out/locales.en.mp4\",\"bytes\":100}",
        "{\"event\":\"progress\",\"job\":\"locales.ar\",\"frames\":27,\"total\":27,\"output\":\"out/locales.ar.mp4\",\"bytes\":100}",
      ])
  }
}
