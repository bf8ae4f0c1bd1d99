import Media
import Raster
import Rendering

extension FrameSink {
  /// Renders every frame of `renderer` at the writer's size (`FrameFitter`:
  /// the canvas, padded to even sides or scaled) and appends it; a
  /// frame that repeats the previous one is appended again without
  /// rendering, or held (`hold()`) where the writer merges holds
  /// (`mergesHolds`, or `mergingHolds`): a frame the renderer knows repeats
  /// (a hold) is not drawn, and one drawn with the last picture's pixels (a
  /// transition's delay, a spring settled before its end) is held too. The
  /// writer converts each bitmap itself (swscale for YUV, a straight-alpha
  /// copy for RGBA and WebP). Cancels the writer on error.
  ///
  /// At least one frame is written: at a rate below the canvas's (APNG and
  /// WebP above 60 fps, `AnimationRate`) a timeline of one canvas frame may
  /// round to none (0.008 s: 0.96 frames at 120 fps, 0.48 at 60); its first
  /// frame is still shown, as the GIF's is.
  func encodeFrames(
    of renderer: FrameRenderer, mergingHolds: Bool? = nil, onFrame: (Int) throws -> Void
  ) throws -> OutputSummary {
    let merging = mergingHolds ?? mergesHolds
    do {
      var bitmap = Bitmap(width: width, height: height)
      // Where holds merge, the last picture appended: it and `bitmap` trade
      // places after each picture (the fitter overwrites every pixel), so
      // neither is copied.
      var shown = merging ? Bitmap(width: width, height: height) : nil
      let fitter = try FrameFitter(renderer, width: width, height: height)
      let count = max(renderer.frameCount, 1)
      let last = count - 1
      var pictures = 0
      for n in 0..<count {
        var repeats = n > 0 && renderer.repeatsPreviousFrame(n)
        if !repeats { try fitter.render(n, into: &bitmap) }
        if !repeats, n > 0, let shown { repeats = bitmap == shown }
        // A hold is a longer delay where pictures carry delays; the last
        // frame is a picture unless the writer's last delay runs to the end
        // (and the clip has two pictures: an APNG of one is a still PNG,
        // without the animation's length).
        if repeats, merging, n < last || (endsOnHold && pictures > 1) {
          try hold()
        } else if repeats, let shown {
          try append(shown)
          pictures += 1
        } else {
          try append(bitmap)
          pictures += 1
          if merging { swap(&bitmap, &shown!) }
        }
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

extension VideoWriter {
  /// Appends frame `n` of `renderer`, converted ahead (`yuv`), or, with
  /// `mergingHolds` (`frameRate: variable`), keeps the picture on display
  /// when the frame repeats the one before (`repeats`, as `FramePipeline`
  /// hands it over: run `comparing` so that a frame drawn with the same
  /// pixels counts). The last frame is always a picture, so the video
  /// lasts its whole length.
  func append(_ yuv: YUVFrame, frame n: Int, of renderer: FrameRenderer, repeats: Bool, mergingHolds: Bool) throws {
    if mergingHolds, repeats, n > 0, n < renderer.frameCount - 1 {
      try hold()
    } else {
      try append(yuv)
    }
  }
}
