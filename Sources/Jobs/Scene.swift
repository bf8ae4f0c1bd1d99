import Geometry
import Raster
import Transitions

/// Builds screens as layer trees and snapshots them once: a screen is static
/// while it is shown, so every frame reuses the same bitmaps.
public struct SceneBuilder: Sendable {
  public let spec: JobSpec

  public init(spec: JobSpec) {
    self.spec = spec
  }

  /// The layer tree of a screen: its background filling the canvas and its
  /// views on top, in points.
  public func layer(for screen: ScreenSpec) -> Layer {
    var root = Layer(frame: Rect(origin: .zero, size: spec.canvas.size))
    root.backgroundColor = screen.background ?? spec.canvas.background
    root.sublayers = screen.views.map(layer(for:))
    return root
  }

  /// One view's layer.
  public func layer(for view: ViewSpec) -> Layer {
    var layer = Layer(frame: view.frame)
    layer.backgroundColor = view.color
    layer.cornerRadius = view.cornerRadius
    return layer
  }

  /// Every screen rendered once at the canvas scale, by name.
  public func snapshots() -> [String: ScreenSnapshot] {
    let compositor = Compositor(scale: Double(spec.canvas.scale))
    var result: [String: ScreenSnapshot] = [:]
    for screen in spec.screens {
      var frames: [String: Rect] = [:]
      var images: [String: Bitmap] = [:]
      for view in screen.views {
        guard let id = view.id else { continue }
        frames[id] = view.frame
        images[id] = compositor.snapshot(layer(for: view))
      }
      // The screen over the canvas background, so snapshots are opaque.
      var image = Bitmap(
        width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight,
        fill: spec.canvas.background.premultipliedPixel)
      compositor.render(layer(for: screen), into: &image)
      result[screen.name] = ScreenSnapshot(name: screen.name, image: image, viewFrames: frames, viewImages: images)
    }
    return result
  }
}
