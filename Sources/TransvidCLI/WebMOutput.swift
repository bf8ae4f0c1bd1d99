import Jobs
import Media
import Rendering

/// `webm`: VP9 by `WebMWriter`, its frames rendered and converted ahead of
/// the encoder by a `FramePipeline` (yuv420p, as the MP4's); a transparent
/// canvas gives VP9 with alpha, each frame converted by the writer.
struct WebMOutput: FormatWriter {
  var fileType: OutputFileType { WebMWriter.fileType }
  var cacheKey: String { "libvpx-vp9 threads=\(Self.encoderThreads)" }

  /// libvpx's thread count is fixed like x264's (`MP4Output.encoderThreads`),
  /// so the same job gives the same file on every machine.
  static let encoderThreads = 4

  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    let spec = renderer.spec
    let width = spec.canvas.pixelWidth & ~1, height = spec.canvas.pixelHeight & ~1
    let writer = try WebMWriter(
      path: path, width: width, height: height, fps: spec.canvas.fps, crf: spec.output.webm.crf,
      speed: spec.output.webm.speed, threads: Self.encoderThreads, alpha: !spec.canvas.isOpaque)
    if !spec.canvas.isOpaque { return try writer.encodeFrames(of: renderer, onFrame: onFrame) }
    try FramePipeline.standard().run(renderer, width: width, height: height) { n, yuv in
      try writer.append(yuv)
      try onFrame(n)
    }
    let s = try writer.finish()
    return OutputSummary(path: path, frames: s.frames, duration: s.duration, bytes: s.bytes)
  }
}
