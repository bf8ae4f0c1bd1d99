import Geometry
import Jobs
import Raster

/// How small an image may be decoded: no smaller than the largest size the
/// screens draw it at. Screens are snapshotted once and every frame,
/// zoom and shared-element flight reuses those snapshots, so the size
/// `ImageDownsampling.fitted` reduces an image to for its view (or for the
/// canvas, for a screenshot) is the most of it any frame shows.
extension ScreenBuilder {
  /// How many times smaller along both sides than its stored `width ×
  /// height` the image at `path` (an `AssetReference.resolvedPath`) may be
  /// decoded for `spec`: the smallest `ImageDownsampling.reduction` over the
  /// screens and views that show it, at least 1.
  ///
  /// The stored size may be the upright one turned a quarter (EXIF
  /// orientations 5…8 are applied after decoding), so each use counts the
  /// smaller ratio of both ways round. An image the job also uses somewhere
  /// else (the stage's background) is decoded whole: 1.
  public static func decodeReduction(ofImage path: String, width: Int, height: Int, in spec: JobSpec) -> Double {
    let scale = Double(spec.canvas.scale)
    var reduction = Double.infinity
    var uses = 0
    func use(_ image: ImageSpec?, in size: Size) {
      guard let image, image.asset.resolvedPath == path else { return }
      uses += 1
      let gravity = image.contentMode.gravity
      reduction = min(
        reduction,
        ImageDownsampling.reduction(width: width, height: height, gravity: gravity, in: size, scale: scale),
        ImageDownsampling.reduction(width: height, height: width, gravity: gravity, in: size, scale: scale))
    }
    for screen in spec.screens {
      use(screen.image, in: screen.screenshotArea(on: spec.canvas.size))
      for view in screen.views { use(view.image, in: view.frame.size) }
    }
    let named = spec.assets.count { $0.resolvedPath == path }
    guard uses > 0, uses == named else { return 1 }
    return max(1, reduction)
  }
}
