import Jobs

extension FrameRenderer {
  /// The renderer a GIF draws with: the job over its `output.matte`
  /// (`overMatte`), at canvas scale `scale` (`JobSpec.gifRenderScale`) and
  /// the whole rate `fps`, built once from the same assets and fonts (this
  /// renderer when it already is that).
  ///
  /// The assets were decoded for this renderer's scale, so a lower one
  /// reduces them further when the screens are snapshotted
  /// (`ImageDownsampling.fitted`), as it does at the canvas scale.
  public func opaque(scale: Int, fps: Int) -> FrameRenderer {
    let canvas = spec.canvas
    if canvas.scale == scale && canvas.fps == fps && !canvas.isFractional { return overMatte() }
    var job = spec.rescaled(scale)
    job.canvas.fps = fps
    job.canvas.isFractional = false
    return FrameRenderer(spec: job, assets: assets, fonts: fonts).overMatte()
  }

  /// This job at `fps` frames a second (fractional, ×1000/1001, as the
  /// canvas is), built once from the same assets and fonts; this renderer
  /// itself when it already is that rate.
  public func retimed(fps: Int) -> FrameRenderer {
    guard spec.canvas.fps != fps else { return self }
    var job = spec
    job.canvas.fps = fps
    return FrameRenderer(spec: job, assets: assets, fonts: fonts)
  }
}
