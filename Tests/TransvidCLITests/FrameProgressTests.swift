import Foundation
import Testing
import TransvidCLI

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
}
