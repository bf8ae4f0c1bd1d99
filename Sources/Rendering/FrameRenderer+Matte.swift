import Jobs

extension FrameRenderer {
  /// The renderer for formats without alpha (mp4, gif): the job over its
  /// `output.matte` (`JobSpec.overMatte`), from the same assets and fonts.
  /// An opaque job's renderer is returned as it is.
  public func overMatte() -> FrameRenderer {
    guard !spec.canvas.isOpaque else { return self }
    return FrameRenderer(spec: spec.overMatte, assets: assets, fonts: fonts)
  }
}
