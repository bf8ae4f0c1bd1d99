// `frameRate: variable` for mp4 and webm: a hold is one picture shown until
// the next, checked by ffprobe and the ffmpeg CLI (not by transvid): which
// pictures the file has and when each is due, the file's length, and every
// frame of the canvas rate, decoded on that grid, against the renderer's.
import Foundation
import Raster
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
    // A picture for every frame that differs from the one before, and for the last.
    let pictures = (0..<frames).filter { n in n == 0 || n == frames - 1 || !r.renderer.repeatsPreviousFrame(n) }
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

  @Test func constantIsTheDefault() throws {
    let r = try web.render("mp4", output: "{ formats: [mp4] }")
    defer { try? FileManager.default.removeItem(atPath: r.dir) }
    #expect(try pictureTimes(r.path).count == r.plannedFrames)
  }
}
