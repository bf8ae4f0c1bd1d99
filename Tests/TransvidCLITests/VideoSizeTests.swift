// The mp4's pixel size, through the executable and ffmpeg: an odd canvas
// gains a copy of its last column and row (and a note says so), a width
// scales the whole frame with the aspect ratio kept.
import Foundation
import Jobs
import Raster
import Rendering
import Testing

@testable import TransvidCLI
import TestSupport

@Suite(.enabled(if: transvidBinary() != nil, "build the executable first (swift build --build-tests)"))
struct VideoSizeTests {
  /// Renders `job` to mp4 in `dir`; frame `n` decoded by the ffmpeg CLI, and the run's stderr.
  func render(_ job: String, frame n: Int, width: Int, height: Int, in dir: String) throws -> (Bitmap, String) {
    _ = try write(job, to: "small.cfg", in: dir)
    let run = try runBinary(["small.cfg", "-o", "out", "--progress", "none"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let (_, data) = try PlanFramesTests.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["ffmpeg", "-v", "error", "-i", "\(dir)/out/small.mp4", "-vf", "select=eq(n\\,\(n))", "-frames:v", "1",
       "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
    return (try #require(Bitmap(width: width, height: height, bytes: Array(data))), run.stderr)
  }

  @Test func anOddCanvasRepeatsItsLastColumnAndRowWithANote() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = smallJob().replacingOccurrences(of: "size: 120x200, scale: 2", with: "size: 121x201, scale: 1")
    let (frame, stderr) = try render(job, frame: 28, width: 122, height: 202, in: dir)
    #expect(
      stderr.contains(
        "small.cfg:2:17: note: canvas.size: the canvas is 121x201 pixels; the mp4 is 122x202, its last column and row "
          + "repeated (4:2:0 video has even sides); give a width or height to scale instead"), "\(stderr)")
    // Every pixel of the canvas is there; the extra column and row repeat
    // the last (within the codec's error).
    let reference = FrameRenderer(spec: try JobParser.load(path: "\(dir)/small.cfg")).frame(28, width: 121, height: 201)
    var padded = Bitmap(width: 122, height: 202)
    FrameFitter.pad(reference, into: &padded)
    #expect(psnr(frame, padded) > 40, "\(psnr(frame, padded)) dB")
    #expect(padded[121, 50] == reference[120, 50] && padded[121, 201] == reference[120, 200])
  }

  @Test func aWidthScalesTheFrame() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = smallJob(output: "{ formats: [mp4], mp4: { width: 120 } }")
    let (frame, stderr) = try render(job, frame: 28, width: 120, height: 200, in: dir)
    #expect(!stderr.contains("note:"))
    // The 240×400 frame halved: compared with the renderer's frame halved by
    // averaging 2×2 blocks (a different filter, so a modest bound).
    let full = FrameRenderer(spec: try JobParser.load(path: "\(dir)/small.cfg")).frame(28, width: 240, height: 400)
    var half = [UInt8](repeating: 255, count: 120 * 200 * 4)
    for y in 0..<200 {
      for x in 0..<120 {
        for c in 0..<3 {
          let sum = [(0, 0), (1, 0), (0, 1), (1, 1)].reduce(0) { $0 + Int(full.bytes[((2 * y + $1.1) * 240 + 2 * x + $1.0) * 4 + c]) }
          half[(y * 120 + x) * 4 + c] = UInt8(sum / 4)
        }
      }
    }
    let db = psnr(frame, Bitmap(width: 120, height: 200, bytes: half)!)
    #expect(db > 30, "\(db) dB")
  }

  /// A `width:` past the canvas's 8192 px reaches the file: a strip's GIF,
  /// sheet and MP4 wider than 8192 px (their areas well within 8192²),
  /// as ffprobe reads them.
  @Test func widthsPast8192ReachTheFiles() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try write(
      """
      name: strip
      canvas: { size: 1000x16, scale: 1, fps: 10 }
      output: { formats: [gif, sheet, mp4], gif: { width: 10000 }, sheet: { width: 9000, frames: 2 }, mp4: { width: 12000 } }
      screens: { a: { background: "#FF0000" }, b: { background: "#00FF00" } }
      timeline: [{ hold: 0.2 }, { push: { to: b, transition: cross-dissolve, duration: 0.2 } }]

      """, to: "strip.cfg", in: dir)
    let run = try runBinary(["strip.cfg", "-o", "out", "--progress", "none"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    for (file, size) in [("strip.gif", "10000x160"), ("strip.sheet.png", "9000x154"), ("strip.mp4", "12000x192")] {
      let (_, data) = try PlanFramesTests.run(
        URL(fileURLWithPath: "/usr/bin/env"),
        ["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0:s=x", "\(dir)/out/\(file)"])
      #expect(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == size, "\(file)")
    }
  }
}
