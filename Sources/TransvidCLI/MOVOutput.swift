import Jobs
import Media
import Rendering

/// `mov`: ProRes 422 HQ by `MOVWriter` — ProRes 4444 with alpha when the
/// canvas or the stage around it is transparent (`JobSpec.isOpaque`) — at
/// `JobSpec.videoSize` (as the MP4); a frame padded to even sides names
/// the canvas's own size as its clean aperture.
struct MOVOutput: FormatWriter {
  var fileType: OutputFileType { MOVWriter.fileType }
  var cacheKey: String { "prores_ks hq threads=\(Self.encoderThreads) bleed-vertical clap grey-alpha" }

  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    let spec = renderer.spec
    let (width, height) = spec.videoSize(spec.output.mov.size)
    let padded = spec.output.mov.size == VideoSize()
    let writer = try MOVWriter(
      path: path, width: width, height: height, fps: spec.canvas.fps,
      threads: Self.encoderThreads, alpha: !spec.isOpaque, fractional: spec.canvas.isFractional,
      shown: padded ? (spec.framePixelWidth, spec.framePixelHeight) : nil)
    return try writer.encodeFrames(of: renderer, onFrame: onFrame)
  }
}
