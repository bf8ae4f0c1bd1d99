import Jobs
import Raster

extension FrameRenderer {
  /// The renderer for formats without alpha (mp4, gif): every frame drawn
  /// as the alpha formats draw it, then composited over `output.matte`, so
  /// what shows through a transparent canvas, screen or stage there is the
  /// matte, as a player shows an alpha video over it. The same snapshots;
  /// an opaque job's renderer is returned as it is.
  public func overMatte() -> FrameRenderer {
    guard !spec.isOpaque else { return self }
    var matted = self
    matted.matte = spec.output.matte.premultipliedPixel
    return matted
  }
}
