import Jobs
import Media
import Rendering

/// `webp`: an animated WebP by `WebPWriter`, at the canvas's full pixel
/// size and rate, at most 60 fps (`AnimationRate`).
struct WebPOutput: FormatWriter {
  var fileType: OutputFileType { WebPWriter.fileType }
  /// `frames-counted`: the same bytes, but a cache record keeps the
  /// output's frames, which counted pictures, not the file's frames (a
  /// clip that never changes is two), so records are made again.
  /// `rests-refined`: a lossy WebP's pixels at rest that a picture left
  /// off are encoded again (`WebPDisplay`).
  /// `last-frame-refined`: and so are the last frame's, which no hold
  /// follows to take them.
  /// `srgb-profile`: the file embeds the sRGB profile.
  var cacheKey: String { "libwebp-mux frames-counted bleed-vertical rests-refined last-frame-refined srgb-profile" }

  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    let (renderer, note) = AnimationRate.renderer(renderer, format: "webp")
    let spec = renderer.spec
    let settings = spec.output.webp
    let writer = try WebPWriter(
      path: path, width: spec.framePixelWidth, height: spec.framePixelHeight, fps: spec.canvas.fps,
      quality: settings.quality, lossless: settings.lossless, loop: (settings.loop ?? .forever).plays,
      fractional: spec.canvas.isFractional)
    var summary = try writer.encodeFrames(of: renderer, onFrame: onFrame)
    if let note { summary.notes.append(note) }
    return summary
  }
}
