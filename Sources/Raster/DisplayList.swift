import Geometry

// The display list: what the scene builder makes of a layer tree, in device
// pixels, and what the executor runs band by band.
//
// A `DrawOp` is one paint (solid colour, image, gradient) times the product
// of the coverages of its shapes (the layer's own outline, then any clips
// from masks or `masksToBounds` that could be folded into it) times an
// opacity. A `GroupOp` is an offscreen group (group opacity, a mask layer, a
// clip over several draws): its children render into a transparent band
// buffer, which is then composited through its shapes, its mask's alpha and
// its opacity.
//
// Device space: pixel (i, j) covers [i, i+1) × [j, j+1); its centre is at
// (i + 0.5, j + 0.5). All shapes are in this space.

/// An integer pixel rectangle [x0, x1) × [y0, y1).
struct PixelBox: Sendable, Equatable {
  var x0: Int, y0: Int, x1: Int, y1: Int

  static let empty = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)

  var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
  var width: Int { x1 - x0 }
  var height: Int { y1 - y0 }

  func intersection(_ o: PixelBox) -> PixelBox {
    let r = PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    return r.isEmpty ? .empty : r
  }

  func union(_ o: PixelBox) -> PixelBox {
    if isEmpty { return o }
    if o.isEmpty { return self }
    return PixelBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
  }

  /// The pixels touched by a real rectangle (clamped to a sane range).
  init(covering x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
    let lim = 1.0e7
    func lo(_ v: Double) -> Int { Int(Swift.max(-lim, Swift.min(lim, v.rounded(.down)))) }
    func hi(_ v: Double) -> Int { Int(Swift.max(-lim, Swift.min(lim, v.rounded(.up)))) }
    guard x0.isFinite || x1.isFinite, !(x0.isNaN || x1.isNaN || y0.isNaN || y1.isNaN) else {
      self = .empty
      return
    }
    self.init(x0: lo(x0), y0: lo(y0), x1: hi(x1), y1: hi(y1))
  }

  init(x0: Int, y0: Int, x1: Int, y1: Int) {
    self.x0 = x0
    self.y0 = y0
    self.x1 = x1
    self.y1 = y1
  }
}

/// A signed distance to a line in device pixels: `a·x + b·y + c`, positive
/// inside, with (a, b) a unit vector.
struct EdgeLine: Sendable, Equatable {
  var a: Double, b: Double, c: Double
}

/// An 8-bit coverage mask in device pixels (path fills, blurred shadows).
struct CoverageMask: Sendable {
  /// Where the mask's pixel (0, 0) sits in device pixels.
  var x0: Int, y0: Int
  var width: Int, height: Int
  /// `width × height` coverage bytes, rows top to bottom.
  var alpha: [UInt8]

  var box: PixelBox { PixelBox(x0: x0, y0: y0, x1: x0 + width, y1: y0 + height) }
}

/// Coverage `xs[x − x0] · ys[y − y0] − Σ patches` (clamped at 0): a box
/// blurred by a Gaussian is exactly the product of two erf profiles; a
/// rounded box is that box minus its four corner spandrels, each blurred
/// on its own (the blur is linear), stored as small patches.
struct SeparableMask: Sendable {
  var x0: Int, y0: Int
  var xs: [Float], ys: [Float]
  /// Device columns [fullX0, fullX1) where xs is exactly 1 (empty if none).
  var fullX0: Int, fullX1: Int
  /// Blurred corner spandrels, subtracted.
  var patches: [FloatPatch]

  var box: PixelBox { PixelBox(x0: x0, y0: y0, x1: x0 + xs.count, y1: y0 + ys.count) }
}

/// Float values over a device pixel rectangle.
struct FloatPatch: Sendable {
  var x0: Int, y0: Int
  var width: Int, height: Int
  var values: [Float]
}

/// A shape in device pixels whose coverage multiplies a draw.
///
/// Only the large or recursive cases are `indirect`: a box, rounded box,
/// circle or polygon sits inline (at most five doubles), so the per-row
/// `switch` in `RowCoverage` reads it without retaining a heap box (an
/// `indirect enum` boxed every case: ~10% of the circle frame was
/// swift_retain/release).
enum Shape: Sendable {
  /// An axis-aligned rectangle; coverage is the exact area of each pixel inside it.
  case box(x0: Double, y0: Double, x1: Double, y1: Double)
  /// An axis-aligned rectangle with circular corners of `radius` > 0;
  /// coverage is 0.5 − signed distance at the pixel centre, clamped to 0…1.
  case roundedBox(x0: Double, y0: Double, x1: Double, y1: Double, radius: Double)
  /// A disc; coverage is `radius + 0.5 − distance` at the pixel centre, clamped to 0…1.
  case circle(cx: Double, cy: Double, radius: Double)
  /// A convex polygon given by its edges (a projected rectangle, a convex
  /// path such as a page cut along a fold); coverage is the product over
  /// edges of `0.5 + distance`, each clamped to 0…1.
  case polygon([EdgeLine])
  /// A shape defined in a layer's own coordinates seen through a general
  /// (rotating, skewing or projective) map: see `LocalShape`.
  indirect case local(LocalShape)
  /// Coverage read from a mask.
  indirect case mask(CoverageMask)
  /// A product of a column profile and a row profile, minus corner patches
  /// (an analytically blurred box or rounded box: a shadow).
  indirect case separable(SeparableMask)
  /// One minus the coverage of the shape (inside the draw's bounds).
  indirect case inverted(Shape)
}

/// A rounded rectangle or ellipse in a layer's local coordinates, drawn
/// through the homography `toLocal` (device → local). Coverage is
/// 0.5 − (local signed distance ÷ local size of a pixel), the pixel size
/// being the square root of the local area one device pixel covers.
struct LocalShape: Sendable {
  var rect: Rect
  /// Corner radius; `nil` for the ellipse inscribed in `rect`.
  var radius: Double?
  var toLocal: Homography
  /// The device polygon of `rect` (grown by a pixel): where to look.
  var outline: [EdgeLine]
}

/// Where the colour of a draw comes from.
enum Paint: Sendable {
  /// One premultiplied colour.
  case solid(Pixel)
  /// A bitmap sampled through `toImage` (device pixel coordinates → image
  /// pixel coordinates, pixel centres at +0.5), bilinear, edges clamped.
  case image(Bitmap, toImage: Homography)
  /// An axial gradient.
  case gradient(GradientPaint)
}

/// An axial gradient in device space.
struct GradientPaint: Sendable {
  /// Premultiplied colours, the gradient at t = i / (count − 1)
  /// (`Gradient.lookupTable`).
  var lut: [Pixel]
  /// Device → local map, and t = dot(local − start, axis).
  var toLocal: Homography
  var start: Point
  /// (end − start) / |end − start|².
  var axis: Point

  /// The table's last index.
  var lastIndex: Int { lut.count - 1 }
  /// The table's last index, as t is scaled to it.
  var last: Double { Double(lut.count - 1) }
}

/// One paint through shapes at an opacity.
struct DrawOp: Sendable {
  var shapes: [Shape]
  var paint: Paint
  var opacity: Double
  /// Device pixels the draw may touch (already clipped to the canvas).
  var bounds: PixelBox
  /// A solid colour drawn right after, through the same shapes (a dimming
  /// overlay on a snapshot, folded in by the scene builder): where the
  /// shapes cover a pixel whole the result is that of the two draws in
  /// turn; at their anti-aliased edge the image and its overlay are one
  /// flattened layer, the tinted image blended once through the coverage
  /// (`Executor.blendTintedRuns`). Full runs of an opaque image apply it in
  /// the sampler's registers instead of in a second pass.
  var tint: Tint? = nil
}

/// A solid overlay folded into the image draw beneath it.
struct Tint: Sendable {
  var color: Pixel
  var opacity: Double
}

/// An offscreen group.
struct GroupOp: Sendable {
  var children: [Command]
  /// Commands whose alpha masks the group, in the same device space.
  var mask: [Command]?
  /// Shapes whose coverage multiplies the group (clips).
  var shapes: [Shape]
  var opacity: Double
  var bounds: PixelBox
}

/// A display-list entry.
enum Command: Sendable {
  case draw(DrawOp)
  case group(GroupOp)

  var bounds: PixelBox {
    switch self {
    case .draw(let d): d.bounds
    case .group(let g): g.bounds
    }
  }
}
