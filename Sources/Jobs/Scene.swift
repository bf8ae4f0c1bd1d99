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

  /// The (screen, view id) pairs some step's `element` parameter names: the
  /// views a shared-element transition flies, which it hides on the screens.
  public var sharedElements: Set<String> {
    var result: Set<String> = []
    for case .transition(let step) in spec.timeline {
      for case .element(let from, let to) in step.parameters.values.values {
        result.insert("\(step.from)/\(from)")
        result.insert("\(step.to)/\(to)")
        // A pop may name the ends either way round.
        result.insert("\(step.from)/\(to)")
        result.insert("\(step.to)/\(from)")
      }
    }
    return result
  }

  /// Every screen rendered once at the canvas scale, by name.
  public func snapshots() -> [String: ScreenSnapshot] {
    let compositor = Compositor(scale: Double(spec.canvas.scale))
    var result: [String: ScreenSnapshot] = [:]
    let shared = sharedElements
    for screen in spec.screens {
      var frames: [String: Rect] = [:]
      var images: [String: Bitmap] = [:]
      for view in screen.views {
        guard let id = view.id else { continue }
        frames[id] = view.frame
        images[id] = compositor.snapshot(layer(for: view))
      }
      // The screen over the canvas background, so snapshots are opaque.
      func render(_ layer: Layer) -> Bitmap {
        var image = Bitmap(
          width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight,
          fill: spec.canvas.background.premultipliedPixel)
        compositor.render(layer, into: &image)
        return image
      }
      let root = layer(for: screen)
      var hidden: [String: Bitmap] = [:]
      for (i, view) in screen.views.enumerated() {
        guard let id = view.id, shared.contains("\(screen.name)/\(id)") else { continue }
        var without = root
        without.sublayers[i].isHidden = true
        hidden[id] = render(without)
      }
      result[screen.name] = ScreenSnapshot(
        name: screen.name, image: render(root), viewFrames: frames, viewImages: images, imagesWithViewHidden: hidden)
    }
    return result
  }
}
