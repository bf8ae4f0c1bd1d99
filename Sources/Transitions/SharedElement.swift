import Geometry
import Raster

/// The shared element of `magic-move` and `zoom-expand`: a view on the
/// screen the push starts from (`element.from`) and one on the screen it
/// shows (`element.to`).
///
/// A pop reuses its push's parameters, so `element.from` names a view on the
/// pop's *to*-screen. Lookups accept either reading: an id is looked for on
/// the screen the push would have it on first, then on the other one.
struct SharedElement {
  /// The element's id and frame on the push's first screen (the list).
  var listID: String
  var listFrame: Rect
  /// The element's id and frame on the push's second screen (the detail).
  var detailID: String
  var detailFrame: Rect

  init?(_ element: (from: String, to: String)?, in context: TransitionContext) {
    guard let element else { return nil }
    let reverse = context.operation.isReverse
    let list = reverse ? context.toScreen : context.fromScreen
    let detail = reverse ? context.fromScreen : context.toScreen
    if let a = list.viewFrames[element.from], let b = detail.viewFrames[element.to] {
      (listID, listFrame, detailID, detailFrame) = (element.from, a, element.to, b)
    } else if let a = list.viewFrames[element.to], let b = detail.viewFrames[element.from] {
      // Written in the pop's own direction.
      (listID, listFrame, detailID, detailFrame) = (element.to, a, element.from, b)
    } else {
      return nil
    }
  }

  /// (start frame, end frame) of the flight for the context's direction.
  func flight(reverse: Bool) -> (start: Rect, end: Rect) {
    reverse ? (detailFrame, listFrame) : (listFrame, detailFrame)
  }

  /// The id on the from-screen and on the to-screen.
  func ids(reverse: Bool) -> (from: String, to: String) {
    reverse ? (detailID, listID) : (listID, detailID)
  }
}

extension ScreenSnapshot {
  /// The view `id`'s own image as a layer for the view flown to `frame`,
  /// nil without one. What the view draws beyond its bounds
  /// (`viewImageExtents`) goes with it, stretched as the frame stretches
  /// the view, and the layer's anchor is the frame's centre, so a
  /// transform scales the view about its middle.
  func viewLayer(_ id: String, at frame: Rect, scale: Double) -> Layer? {
    guard let image = viewImages[id] else { return nil }
    guard let extent = viewImageExtents[id], let size = viewFrames[id]?.size, size.width > 0, size.height > 0 else {
      return .image(image, frame: frame, scale: scale)
    }
    let sx = frame.width / size.width, sy = frame.height / size.height
    let drawn = Rect(
      x: frame.minX + extent.minX * sx, y: frame.minY + extent.minY * sy,
      width: extent.width * sx, height: extent.height * sy)
    var layer = Layer.image(image, frame: drawn, scale: scale)
    guard drawn.width > 0, drawn.height > 0 else { return layer }
    layer.anchorPoint = Point(x: (frame.midX - drawn.minX) / drawn.width, y: (frame.midY - drawn.minY) / drawn.height)
    layer.position = frame.center
    return layer
  }
}
