// Geometry: points, sizes and rectangles in points (as on iOS), with Core
// Graphics' names and conventions: the origin is the top-left corner, y grows
// downwards, a rect is an origin plus a size. Pure value types, no I/O.
//
// Transforms (`Transform3D`, CATransform3D semantics) and paths live beside
// these in their own files.

/// A location in a two-dimensional coordinate system, in points.
@frozen public struct Point: Hashable, Sendable {
  public var x: Double
  public var y: Double

  @inlinable public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The point (0, 0).
  public static let zero = Point(x: 0, y: 0)
}

/// A width and a height, in points.
@frozen public struct Size: Hashable, Sendable {
  public var width: Double
  public var height: Double

  @inlinable public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The size 0 × 0.
  public static let zero = Size(width: 0, height: 0)
}

/// A rectangle: an origin (its top-left corner) and a size, in points.
@frozen public struct Rect: Hashable, Sendable {
  public var origin: Point
  public var size: Size

  @inlinable public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The rectangle at (0, 0) with zero size (`CGRect.zero`).
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  @inlinable public var minX: Double { origin.x }
  @inlinable public var minY: Double { origin.y }
  @inlinable public var maxX: Double { origin.x + size.width }
  @inlinable public var maxY: Double { origin.y + size.height }
  @inlinable public var midX: Double { origin.x + size.width / 2 }
  @inlinable public var midY: Double { origin.y + size.height / 2 }
  @inlinable public var width: Double { size.width }
  @inlinable public var height: Double { size.height }
  /// The centre point.
  @inlinable public var center: Point { Point(x: midX, y: midY) }

  /// The rectangle shrunk by `dx` on the left and right and `dy` on the top
  /// and bottom (negative values grow it), as `CGRect.insetBy(dx:dy:)`.
  @inlinable public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }

  /// The intersection of two rectangles; `nil` when they do not overlap.
  @inlinable public func intersection(_ other: Rect) -> Rect? {
    let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
    let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
    guard x1 > x0, y1 > y0 else { return nil }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The smallest rectangle containing both.
  @inlinable public func union(_ other: Rect) -> Rect {
    let x0 = Swift.min(minX, other.minX), y0 = Swift.min(minY, other.minY)
    let x1 = Swift.max(maxX, other.maxX), y1 = Swift.max(maxY, other.maxY)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Each coordinate multiplied by `factor` (points → pixels).
  @inlinable public func scaled(by factor: Double) -> Rect {
    Rect(x: minX * factor, y: minY * factor, width: width * factor, height: height * factor)
  }
}
