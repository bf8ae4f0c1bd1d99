import Geometry

enum PathRasterizer {
  /// The coverage of `path` in device pixels (not yet implemented).
  static func coverage(_ path: Path, rule: FillRule, map: Homography, clip: PixelBox) -> CoverageMask? { nil }
}
