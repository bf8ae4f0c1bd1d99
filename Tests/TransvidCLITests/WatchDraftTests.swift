import Foundation
import Jobs
import Testing

@testable import TransvidCLI

/// `watch --draft` plans the job at 1× and at most 15 fps; `--draft` belongs to `watch` only.
@Suite struct WatchDraftTests {
  @Test func draftRendersAtOneXAndFifteenFPS() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 120×200 pt at 2×, 30 fps, 1.9 s: 57 frames of 240×400 px.
    let file = try write(smallJob(), to: "small.cfg", in: dir)
    let options = try Options.parse(["watch", file, "--draft", "-o", path(dir, "out")])
    #expect(options.command == .watch(job: file) && options.draft)
    let draft = BatchPlan(files: [file], options: options, shardCount: 1).jobs[0]
    #expect(draft.pixelWidth == 120 && draft.pixelHeight == 200)
    #expect(draft.spec?.canvas.fps == 15 && draft.frames == 29)
    var full = options
    full.draft = false
    let plain = BatchPlan(files: [file], options: full, shardCount: 1).jobs[0]
    #expect(plain.pixelWidth == 240 && plain.frames == 57)
    #expect(OutputCache().key(for: draft) != OutputCache().key(for: plain))
    #expect(throws: Options.UsageError.self) { try Options.parse([file, "--draft"]) }
    #expect(throws: Options.UsageError.self) { try Options.parse(["watch", file, file]) }
  }

  /// An NTSC job's draft is 15 frames a second too, not 15 × 1000/1001: the
  /// rate is capped as a whole, so 29.97 and 23.976 draft at 15.
  @Test func anNTSCJobDraftsAtFifteenFPS() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for rate in ["29.97", "23.976"] {
      let file = try write(
        smallJob().replacingOccurrences(of: "fps: 30", with: "fps: \(rate)"), to: "ntsc.cfg", in: dir)
      let options = try Options.parse(["watch", file, "--draft", "-o", path(dir, "out")])
      let draft = try #require(BatchPlan(files: [file], options: options, shardCount: 1).jobs[0].spec)
      let rateIsFifteen = draft.canvas.frameRate == FrameRate(frames: 15)
      #expect(rateIsFifteen, "\(rate): \(draft.canvas.frameRate)")
    }
  }
}
