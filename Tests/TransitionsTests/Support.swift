import Geometry
import Motion
import Raster
import Testing
import Transitions

/// Test screens: solid colours at 1 px per 10 pt (the layer trees are
/// checked, not rendered), with one identified view on each.
enum Fixture {
  static let size = Size(width: 393, height: 852)
  static let red = Pixel(r: 255, g: 0, b: 0, a: 255)
  static let blue = Pixel(r: 0, g: 0, b: 255, a: 255)
  static let green = Pixel(r: 0, g: 255, b: 0, a: 255)
  static let yellow = Pixel(r: 255, g: 255, b: 0, a: 255)
  /// The list cell (on screen "a") and the hero (on screen "b").
  static let cell = Rect(x: 16, y: 120, width: 170, height: 170)
  static let hero = Rect(x: 0, y: 100, width: 393, height: 393)

  static func screen(_ name: String, _ pixel: Pixel, view id: String, frame: Rect, viewPixel: Pixel) -> ScreenSnapshot {
    ScreenSnapshot(
      name: name, image: Bitmap(width: 39, height: 85, fill: pixel), viewFrames: [id: frame],
      viewImages: [id: Bitmap(width: 17, height: 17, fill: viewPixel)])
  }

  static let a = screen("a", red, view: "cell", frame: cell, viewPixel: green)
  static let b = screen("b", blue, view: "hero", frame: hero, viewPixel: yellow)

  /// Forward contexts go a → b; reverse ones b → a (the screen below is "a").
  static func context(_ operation: TransitionOperation, size: Size = size) -> TransitionContext {
    let forward = !operation.isReverse
    return TransitionContext(
      containerSize: size, scale: 0.1, operation: operation,
      fromScreen: forward ? a : b, toScreen: forward ? b : a)
  }

  static let element = TransitionParameters(["element": .element(from: "cell", to: "hero")])
}

/// True when `layer` is the container showing exactly `screen` at rest.
func showsExactly(_ layer: Layer, _ screen: ScreenSnapshot, size: Size = Fixture.size) -> Bool {
  guard layer.sublayers.count == 1, let only = layer.sublayers.first else { return false }
  return only.contents == screen.image && only.transform.isIdentity && only.opacity == 1
    && only.mask == nil && only.sublayers.isEmpty && only.frame == Rect(origin: .zero, size: size)
    && layer.transform.isIdentity && layer.opacity == 1 && layer.mask == nil
}

/// |a − b| ≤ tolerance.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
  close(a.minX, b.minX, tolerance) && close(a.minY, b.minY, tolerance)
    && close(a.width, b.width, tolerance) && close(a.height, b.height, tolerance)
}

/// The first layer in depth-first order whose contents are `image`.
func layer(showing image: Bitmap, in root: Layer) -> Layer? {
  if root.contents == image { return root }
  for sub in root.sublayers {
    if let found = layer(showing: image, in: sub) { return found }
  }
  return nil
}
