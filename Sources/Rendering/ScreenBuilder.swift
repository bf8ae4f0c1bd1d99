import Dispatch
import Geometry
import Jobs
import Raster
import Transitions

/// Builds screens as layer trees and snapshots them once: a screen is static
/// while it is shown, so every frame reuses the same bitmaps.
///
/// Images come decoded (`assets`, keyed by `AssetReference.resolvedPath`);
/// an image that is not there draws as a grey placeholder. An image much
/// larger than its on-screen size is area-averaged down to it first
/// (`ImageDownsampling`), so big photos do not alias. Labels are
/// rendered with `fonts` at the canvas scale and become their layer's
/// `contents`, so the compositor draws them like any bitmap.
public struct ScreenBuilder: Sendable {
  public let spec: JobSpec
  public let assets: [String: Bitmap]
  public let fonts: FontSet

  public init(spec: JobSpec, assets: [String: Bitmap] = [:], fonts: FontSet = .empty) {
    self.spec = spec
    self.assets = assets
    self.fonts = fonts
  }

  var scale: Double { Double(spec.canvas.scale) }

  /// What a missing image shows (systemGray4).
  static let placeholder = Color(red8: 209, green8: 209, blue8: 214)

  /// The layer tree of a screen: its background filling the canvas, the
  /// screenshot over it (over the card's part of the screen, for a screen
  /// shown in a card: `ScreenSpec.screenshotArea`), and its views on top,
  /// in points.
  public func layer(for screen: ScreenSpec) -> Layer {
    var root = Layer(frame: Rect(origin: .zero, size: spec.canvas.size))
    root.backgroundColor = screen.background ?? spec.canvas.background
    root.sublayers = screen.views.map(layer(for:))
    guard let image = screen.image else { return root }
    guard let bitmap = assets[image.asset.resolvedPath] else {
      root.backgroundColor = ScreenBuilder.placeholder
      return root
    }
    // Drawn into a bitmap of its area, so a filling screenshot is cropped there.
    let area = screen.screenshotArea(on: spec.canvas.size)
    var shot = area == spec.canvas.size ? root : Layer(frame: Rect(origin: .zero, size: area))
    shot.contents = ImageDownsampling.fitted(bitmap, gravity: image.contentMode.gravity, in: area, scale: scale)
    shot.contentsGravity = image.contentMode.gravity
    shot.contentsScale = scale
    guard area != spec.canvas.size else { return shot }
    root.sublayers.insert(shot, at: 0)
    return root
  }

  /// One view's layer: colour, gradient, image, then the navigation bar's
  /// hairline and the label; clipped to the rounded frame where the view
  /// `clipsToBounds`, else an image larger than the frame draws beyond it,
  /// as UIImageView's does.
  public func layer(for view: ViewSpec) -> Layer {
    var layer = Layer(frame: view.frame)
    layer.backgroundColor = view.color
    layer.cornerRadius = view.cornerRadius
    layer.gradient = view.gradient
    if let image = view.image {
      if let bitmap = assets[image.asset.resolvedPath] {
        layer.contents = ImageDownsampling.fitted(
          bitmap, gravity: image.contentMode.gravity, in: view.frame.size, scale: scale)
        layer.contentsGravity = image.contentMode.gravity
        layer.contentsScale = scale
      } else if view.color == nil {
        layer.backgroundColor = ScreenBuilder.placeholder
      }
    }
    layer.masksToBounds = view.clipsToBounds
    if view.kind == .navbar {
      // The bar's shadow image: one device pixel of separator colour below it.
      let hairline = 1 / scale
      var line = Layer(frame: Rect(x: 0, y: view.frame.height - hairline, width: view.frame.width, height: hairline))
      line.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.3)
      layer.sublayers.append(line)
    }
    if let text = view.text, !text.isEmpty {
      let frame = view.textFrame
      if frame.width > 0, frame.height > 0 {
        layer.sublayers.append(Label(text, style: view.textStyle).layer(frame: frame, scale: scale, fonts: fonts))
      }
    }
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
  ///
  /// The screens are built side by side (each is a pure function of the
  /// spec, so the result does not depend on the order): a job's set-up is
  /// time its encoder waits, and downsampling a photo is one thread's work.
  public func snapshots() -> [String: ScreenSnapshot] {
    let screens = spec.screens
    let built = UnsafeMutableBufferPointer<ScreenSnapshot?>.allocate(capacity: screens.count)
    built.initialize(repeating: nil)
    defer { built.deallocate() }
    let slots = SnapshotSlots(base: built.baseAddress!)
    let shared = sharedElements
    DispatchQueue.concurrentPerform(iterations: screens.count) { i in
      slots.base[i] = snapshot(of: screens[i], shared: shared)
    }
    var result: [String: ScreenSnapshot] = [:]
    for (screen, snapshot) in zip(screens, built) { result[screen.name] = snapshot }
    return result
  }

  /// One screen rendered at the canvas scale, with its views' frames and,
  /// for the views in `shared` (`sharedElements`, the only ones a
  /// transition flies), their own images and the screen without them: a
  /// view's image is a bitmap of its whole frame, held for the whole run.
  func snapshot(of screen: ScreenSpec, shared: Set<String>) -> ScreenSnapshot {
    let compositor = Compositor(scale: Double(spec.canvas.scale))
    let root = layer(for: screen)
    var frames: [String: Rect] = [:]
    var images: [String: Bitmap] = [:]
    var extents: [String: Rect] = [:]
    for (i, view) in screen.views.enumerated() {
      guard let id = view.id else { continue }
      frames[id] = view.frame
      guard shared.contains("\(screen.name)/\(id)") else { continue }
      // `root.sublayers[i]` is `layer(for: view)`: its image is downsampled once.
      let layer = root.sublayers[i]
      guard let extent = overflow(of: layer) else {
        images[id] = compositor.snapshot(layer)
        continue
      }
      // An unclipped view's image holds what it draws beyond its frame too.
      var holder = Layer(frame: Rect(origin: .zero, size: extent.size))
      var moved = layer
      moved.position = Point(
        x: moved.anchorPoint.x * moved.bounds.width - extent.minX, y: moved.anchorPoint.y * moved.bounds.height - extent.minY)
      holder.sublayers = [moved]
      images[id] = compositor.snapshot(holder)
      extents[id] = extent
    }
    // The screen over an opaque canvas background, so snapshots are opaque;
    // over nothing on a see-through one, whose background each frame puts
    // under everything once (`FrameRenderer.underlay`).
    func render(_ layer: Layer) -> Bitmap {
      var image = Bitmap(
        width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight, fill: spec.canvas.snapshotFill)
      compositor.render(layer, into: &image)
      // Rendering clears the opacity hint; without it the compositor would
      // rescan this full-screen snapshot for alpha in every band of every
      // frame (about a fifth of a circle-spread frame). One scan here.
      image.updateOpacityHint()
      return image
    }
    var hidden: [String: Bitmap] = [:]
    for (i, view) in screen.views.enumerated() {
      guard let id = view.id, shared.contains("\(screen.name)/\(id)") else { continue }
      var without = root
      without.sublayers[i].isHidden = true
      hidden[id] = render(without)
    }
    var snapshot = ScreenSnapshot(
      name: screen.name, image: render(root), viewFrames: frames, viewImages: images, imagesWithViewHidden: hidden,
      viewsTop: screen.views.map(\.frame.minY).min())
    snapshot.viewImageExtents = extents
    return snapshot
  }

  /// What a view's layer draws in its own coordinates, out to whole
  /// pixels, where it reaches beyond its bounds (an unclipped image
  /// larger than its frame): its bounds and, of the rest, what the screen
  /// shows, the canvas's part (an image filling a frame of another shape
  /// may reach thousands of points past the screen, a bitmap that size
  /// for nothing). Nil where it draws within its bounds.
  func overflow(of layer: Layer) -> Rect? {
    let b = layer.bounds, frame = layer.frame
    let screen = Rect(x: b.minX - frame.minX, y: b.minY - frame.minY, width: spec.canvas.size.width, height: spec.canvas.size.height)
    guard let shown = layer.drawnBounds.intersection(screen) else { return nil }
    let drawn = shown.union(b)
    let tolerance = 1e-9
    guard drawn.minX < b.minX - tolerance || drawn.minY < b.minY - tolerance || drawn.maxX > b.maxX + tolerance
      || drawn.maxY > b.maxY + tolerance
    else { return nil }
    let x0 = (drawn.minX * scale + 1e-9).rounded(.down) / scale, y0 = (drawn.minY * scale + 1e-9).rounded(.down) / scale
    let x1 = (drawn.maxX * scale - 1e-9).rounded(.up) / scale, y1 = (drawn.maxY * scale - 1e-9).rounded(.up) / scale
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}

/// Carries the result slots into `concurrentPerform`: each iteration writes only its own.
private struct SnapshotSlots: @unchecked Sendable {
  let base: UnsafeMutablePointer<ScreenSnapshot?>
}
