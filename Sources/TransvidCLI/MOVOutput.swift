import Jobs
import Media
import Rendering

/// `mov`: ProRes 422 HQ by `MOVWriter` — ProRes 4444 with alpha when the
/// canvas or the stage around it is transparent (`JobSpec.isOpaque`) — at
/// `JobSpec.videoSize` (as the MP4).
struct MOVOutput: FormatWriter {
  var fileType: OutputFileType { MOVWriter.fileType }
  var cacheKey: String { "prores_ks hq threads=\(Self.encoderThreads) bleed-vertical" }

  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    let spec = renderer.spec
    let (width, height) = spec.videoSize(spec.output.mov.size)
    let writer = try MOVWriter(
      path: path, width: width, height: height, fps: spec.canvas.fps,
      threads: Self.encoderThreads, alpha: !spec.isOpaque, fractional: spec.canvas.isFractional)
    return try writer.encodeFrames(of: renderer, onFrame: onFrame)
  }
}
