import Foundation
import Jobs
import Media
import Raster

/// What one written output was: the path, frames, duration and size — the
/// line the runner prints and the report records.
struct OutputSummary: Sendable {
  var path: String
  var frames: Int
  var duration: Double
  var bytes: Int

  var line: String { "\(path)  \(frames) frames  \(String(format: "%.2f", duration)) s  \(bytes) bytes" }
}

/// Writes one output format of a job. Every writer writes to a temporary file
/// and renames it into place, so a failure leaves nothing at `path`.
enum OutputWriter {
  static func write(format: String, renderer: FrameRenderer, to path: String) throws -> OutputSummary {
    switch format {
    case "mp4":
      let s = try writeMP4(renderer, to: path)
      return OutputSummary(path: path, frames: s.frames, duration: s.duration, bytes: s.bytes)
    default:
      throw JobError(job: renderer.spec.file, message: "output format '\(format)' is not supported yet")
    }
  }

  /// x264's thread count changes its decisions (and so the bytes), so it is
  /// fixed rather than taken from the machine: the same job gives the same
  /// file on a laptop and on a 64-core runner.
  static let encoderThreads = 4

  /// Renders every frame and encodes it. H.264 4:2:0 needs even sizes, so an
  /// odd canvas (393 pt @3x = 1179 px) loses its last pixel column or row.
  static func writeMP4(_ renderer: FrameRenderer, to path: String) throws -> MP4Summary {
    let spec = renderer.spec
    let width = spec.canvas.pixelWidth & ~1, height = spec.canvas.pixelHeight & ~1
    let writer = try MP4Writer(
      path: path, width: width, height: height, fps: spec.canvas.fps,
      crf: spec.output.mp4.crf, preset: spec.output.mp4.preset, threads: encoderThreads)
    var frame = Bitmap(width: width, height: height)
    for n in 0..<renderer.frameCount {
      renderer.render(n, into: &frame)
      try writer.append(frame)
    }
    return try writer.finish()
  }
}
