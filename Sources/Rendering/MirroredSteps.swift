// Mirrored steps: a right-to-left locale draws UIKit's navigation push and
// pop (and any step with `mirror: true`) as their left-to-right selves,
// flipped. The screens (already laid out right to left) are flipped into a
// left-to-right world, the transition runs there unchanged (new screen from
// the right, parallax to the left, shadow on the left edge, back-swipe from
// the left edge) and the whole frame is flipped back — so text reads the
// right way and the motion is the device's: push from the left, back-swipe
// from the right edge, parallax and shadow the other way.

import Geometry
import Jobs
import Raster
import Transitions

extension FrameRenderer {
  /// What `step`'s transition sees: its screens, flipped for a mirrored
  /// step, or in their place the composites `from` and `to` (already in
  /// the step's space) it starts or ends on (`RestingImages`).
  static func context(
    for step: TransitionStep, screens: ScreenSnapshots, spec: JobSpec, from: ScreenSnapshot? = nil,
    to: ScreenSnapshot? = nil
  ) -> TransitionContext? {
    let mirror = step.mirror == true
    guard let from = from ?? screens.transitioning(step.from, mirrored: mirror),
      let to = to ?? screens.transitioning(step.to, mirrored: mirror)
    else { return nil }
    var context = TransitionContext(
      containerSize: spec.canvas.size, scale: Double(spec.canvas.scale), operation: step.operation,
      fromScreen: from, toScreen: to)
    // The snapshots hold the canvas's whole pixels: on a size of fractional points, a few more points' worth.
    let scale = Double(spec.canvas.scale)
    let pixels = Size(width: Double(spec.canvas.pixelWidth) / scale, height: Double(spec.canvas.pixelHeight) / scale)
    if pixels != spec.canvas.size { context.screenSize = pixels }
    return context
  }

  /// `layers` as the frame shows them: flipped back for a mirrored step.
  static func presented(_ layers: Layer, for step: TransitionStep, size: Size) -> Layer {
    step.mirror == true ? flipped(layers, size: size) : layers
  }

  /// `layers` as the frame shows them, inside the card of the sheet `host`
  /// when the step runs there (`RestingImages.host(segment:)`). A step in
  /// the card has the card for its space: drawn mirrored, it flips about
  /// the card, and put in a sheet drawn mirrored (in the sheet's flipped
  /// space) it is flipped about the card first, so that the sheet's flip
  /// back shows it as the step draws it.
  static func shown(_ layers: Layer, for step: TransitionStep, inside host: RestingImages.Host?, size: Size) -> Layer {
    guard let host else { return presented(layers, for: step, size: size) }
    let card = host.transition.hostedContainerSize(in: host.context)
    let flat = presented(layers, for: step, size: card)
    guard let hosted = host.transition.hosting(host.mirrored ? flipped(flat, size: card) : flat, in: host.context) else {
      return flat
    }
    return host.mirrored ? flipped(hosted, size: size) : hosted
  }

  /// `layers` flipped left to right in a `size` container.
  static func flipped(_ layers: Layer, size: Size) -> Layer {
    var flip = Layer(frame: Rect(origin: .zero, size: size))
    flip.transform = .scale(x: -1, y: 1)
    flip.sublayers = [layers]
    return flip
  }
}

extension ScreenSnapshot {
  /// The screen mirrored left to right in a `width`-point container: its
  /// images' first `columns` pixel columns flipped (all of them by default:
  /// the container is the screen), each view's own image flipped (and what
  /// it draws beyond the view, `viewImageExtents`, to the other side), view
  /// frames at W − x − width. A screen laid out in a card narrower than
  /// the screen (`ScreenSpec.cardWidth`) mirrors in the card, its left part.
  func mirrored(width: Double, columns: Int? = nil) -> ScreenSnapshot {
    var mirrored = self
    let columns = columns ?? image.width
    mirrored.image = image.mirroredHorizontally(columns: columns)
    mirrored.viewFrames = viewFrames.mapValues { Rect(x: width - $0.maxX, y: $0.minY, width: $0.width, height: $0.height) }
    mirrored.viewImages = viewImages.mapValues { $0.mirroredHorizontally() }
    for (id, extent) in viewImageExtents {
      let w = viewFrames[id]?.width ?? extent.width
      mirrored.viewImageExtents[id] = Rect(x: w - extent.maxX, y: extent.minY, width: extent.width, height: extent.height)
    }
    mirrored.imagesWithViewHidden = imagesWithViewHidden.mapValues { $0.mirroredHorizontally(columns: columns) }
    return mirrored
  }
}
