import Jobs
import Media
import Rendering

/// `apng`: an animated PNG by `APNGWriter`, every frame at the canvas's
/// full pixel size and rate, at most 60 fps (`AnimationRate`).
struct APNGOutput: FormatWriter {
  var fileType: OutputFileType { APNGWriter.fileType }
  var cacheKey: String { "apng-60fps final-hold srgb-tagged" }

  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    let (renderer, note) = AnimationRate.renderer(renderer, format: "apng")
    let spec = renderer.spec
    let writer = try APNGWriter(
      path: path, width: spec.framePixelWidth, height: spec.framePixelHeight, fps: spec.canvas.fps,
      plays: (spec.output.apng.loop ?? .forever).plays, fractional: spec.canvas.isFractional)
    var summary = try writer.encodeFrames(of: renderer, onFrame: onFrame)
    if let note { summary.notes.append(note) }
    return summary
  }
}
