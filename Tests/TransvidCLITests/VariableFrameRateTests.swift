// `frameRate: variable` for mp4 and webm: a hold is one picture shown until
// the next, checked by ffprobe and the ffmpeg CLI (not by transvid): which
// pictures the file has and when each is due, the file's length, and every
// frame of the canvas rate, decoded on that grid, against the renderer's.
import Foundation
import Jobs
import Raster
import Rendering
import Testing

import TestSupport

@Suite(.enabled(if: transvidBinary() != nil, "build the executable first (swift build --build-tests)"))
struct VariableFrameRateTests {
  let web = WebFormatOutputTests()

  /// The file's duration in seconds (ffprobe's `format=duration`).
  func duration(_ path: String) throws -> Double {
    let text = try web.output(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
    return try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)))
  }

  /// Every decoded picture's presentation time in seconds, in order (an
  /// H.264 key frame's row ends in a comma: ffprobe's side data column).
  func pictureTimes(_ path: String) throws -> [Double] {
    try web.output(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path])
      .split(separator: "\n").compactMap { line in line.split(separator: ",").first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
  }

  /// Every frame of the canvas rate (30 fps), decoded on that grid by the
  /// ffmpeg CLI's `fps` filter, as RGBA.
  func framesOnTheGrid(_ path: String, count: Int) throws -> [Bitmap] {
    let (_, data) = try PlanFramesTests.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["ffmpeg", "-v", "error", "-i", path, "-vf", "fps=30", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
    let size = 240 * 400 * 4
    #expect(data.count == size * count, "\(data.count / size) frames on the 30 fps grid, expected \(count)")
    return try (0..<min(count, data.count / size)).map { k in
      try #require(Bitmap(width: 240, height: 400, bytes: Array(data[(k * size)..<((k + 1) * size)])))
    }
  }

  /// mp4 and webm, and the github target's mp4 (a two-pass encode to its
  /// size budget).
  @Test(arguments: [
    ("mp4", "{ formats: [mp4], mp4: { frameRate: variable } }"),
    ("webm", "{ formats: [webm], webm: { frameRate: variable } }"),
    ("mp4", "{ target: github, formats: [mp4] }"),
  ])
  func holdsAreOnePictureAndTheVideoKeepsItsLength(_ format: String, _ output: String) throws {
    let r = try web.render(format, output: output)
    defer { try? FileManager.default.removeItem(atPath: r.dir) }
    let frames = r.plannedFrames
    #expect(frames == 57)
    // A picture for every frame that differs from the one before, and for
    // the last: circle-spread's frames whose circle is still too small to
    // show or already covers the screen are held too, as holds are.
    let drawn = (0..<frames).map { r.renderer.frame($0, width: 240, height: 400) }
    let pictures = (0..<frames).filter { n in n == 0 || n == frames - 1 || drawn[n] != drawn[n - 1] }
    #expect(pictures.count < frames - 10, "\(pictures.count) pictures: the job's holds should be merged")
    let times = try pictureTimes(r.path)
    #expect(times.count == pictures.count, "\(times.count) pictures in the file, expected \(pictures.count)")
    for (t, n) in zip(times, pictures) { #expect(abs(t - Double(n) / 30) < 0.002, "picture of frame \(n) at \(t) s") }
    #expect(abs(try duration(r.path) - Double(frames) / 30) < 0.002)
    // On the canvas's grid every frame shows its own picture: the one due at
    // or before it. Bound as the constant-rate tests' (lossy 4:2:0).
    let decoded = try framesOnTheGrid(r.path, count: frames)
    for (n, frame) in decoded.enumerated() {
      let db = psnr(frame, r.renderer.frame(n, width: 240, height: 400))
      #expect(db >= 40, "frame \(n): \(db) dB")
    }
  }

  /// A push of 1.2 s on the system spring, which has settled well before
  /// the step ends: its last frames are drawn with the same pixels, though
  /// the renderer does not know they repeat (they are a transition's).
  func settledJob(output: String) -> String {
    """
    name: settled
    canvas: { size: 120x200, scale: 2, fps: 30, background: "#000000" }
    output: \(output)
    screens:
      a:
        background: "#F2F2F7"
        views:
          - { frame: [10, 30, 100, 30], color: "#FFFFFF", corner: 8 }
      b:
        background: "#FFFFFF"
        views:
          - { frame: [0, 0, 120, 80], color: "#E5E5EA" }
          - { frame: [80, 150, 30, 30], color: systemBlue, corner: 15 }
    timeline:
      - hold: 0.2
      - push: { to: b, transition: push, duration: 1.2 }
      - hold: 0.5
    """
  }

  /// Pictures in the file as a decoder counts them (`ffprobe -count_frames`).
  func countedFrames(_ path: String) throws -> Int {
    let text = try web.output([
      "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
      "-of", "csv=p=0", path,
    ])
    return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
  }

  /// A frame drawn with the pixels of the frame before is held as a hold
  /// is: the file has a picture only where the frame changes (here 15 fewer
  /// than the frames the renderer knows change: the spring's rest), each
  /// due at its frame, and the report's `frames` is what ffprobe counts.
  @Test(arguments: [
    ("mp4", "{ formats: [mp4], mp4: { frameRate: variable, crf: 18, preset: veryfast } }"),
    ("webm", "{ formats: [webm], webm: { frameRate: variable } }"),
    ("mp4", "{ formats: [mp4], mp4: { frameRate: variable, maxBytes: 60kB } }"),
  ])
  func framesThatDoNotChangeAreHeld(_ format: String, _ output: String) throws {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(settledJob(output: output), to: "settled.cfg", in: dir)
    let (status, _) = try PlanFramesTests.run(binary, [job, "-o", "\(dir)/out", "-q", "--report", "\(dir)/report.json"])
    #expect(status == 0)
    let path = "\(dir)/out/settled.\(format)"
    let renderer = FrameRenderer(spec: try JobParser.load(path: job))
    let frames = renderer.frameCount
    #expect(frames == 57)
    let drawn = (0..<frames).map { renderer.frame($0, width: 240, height: 400) }
    let pictures = (0..<frames).filter { n in n == 0 || n == frames - 1 || drawn[n] != drawn[n - 1] }
    let known = (0..<frames).filter { n in n == 0 || n == frames - 1 || !renderer.repeatsPreviousFrame(n) }
    #expect(known.count - pictures.count >= 10, "\(known.count) frames not known to repeat, \(pictures.count) that change")
    let times = try pictureTimes(path)
    #expect(times.count == pictures.count, "\(times.count) pictures in the file, expected \(pictures.count)")
    for (t, n) in zip(times, pictures) { #expect(abs(t - Double(n) / 30) < 0.002, "picture of frame \(n) at \(t) s") }
    #expect(try countedFrames(path) == pictures.count)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(dir)/report.json"))) as? [String: Any])
    let outputs = try #require((report["jobs"] as? [[String: Any]])?.first?["outputs"] as? [[String: Any]])
    #expect(outputs.first?["frames"] as? Int == pictures.count)
    #expect(abs(try duration(path) - Double(frames) / 30) < 0.002)
    let decoded = try framesOnTheGrid(path, count: frames)
    for (n, frame) in decoded.enumerated() {
      let db = psnr(frame, drawn[n])
      #expect(db >= 40, "frame \(n): \(db) dB")
    }
  }

  @Test func constantIsTheDefault() throws {
    let r = try web.render("mp4", output: "{ formats: [mp4] }")
    defer { try? FileManager.default.removeItem(atPath: r.dir) }
    #expect(try pictureTimes(r.path).count == r.plannedFrames)
  }
}
