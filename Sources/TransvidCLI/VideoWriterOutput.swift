import Media
import Raster
import Rendering

extension VideoWriter {
  /// Renders every frame of `renderer` at the writer's size (`FrameFitter`:
  /// the canvas, padded to even sides or scaled) and appends it; a
  /// frame that repeats the previous one is appended again without
  /// rendering. The writer converts each bitmap itself (swscale for YUV,
  /// a straight-alpha copy for RGBA). Cancels the writer on error.
  func encodeFrames(of renderer: FrameRenderer, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    do {
      var bitmap = Bitmap(width: width, height: height)
      let fitter = try FrameFitter(renderer, width: width, height: height)
      for n in 0..<renderer.frameCount {
        if n == 0 || !renderer.repeatsPreviousFrame(n) { try fitter.render(n, into: &bitmap) }
        try append(bitmap)
        try onFrame(n)
      }
      let s = try finish()
      return OutputSummary(path: path, frames: s.frames, duration: s.duration, bytes: s.bytes)
    } catch {
      cancel()
      throw error
    }
  }
}
