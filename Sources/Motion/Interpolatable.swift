import Geometry

/// A value that can be blended between two states, as animated properties
/// are (`CALayer`'s animatable properties interpolate component-wise).
///
/// `interpolated(to:fraction:)` is `self + (other − self)·fraction`; the
/// fraction may leave 0…1 (a spring overshoots) and the result extrapolates.
public protocol Interpolatable {
  /// The value `fraction` of the way from `self` to `other`.
  func interpolated(to other: Self, fraction: Double) -> Self
}

extension Double: Interpolatable {
  @inlinable public func interpolated(to other: Double, fraction: Double) -> Double {
    self + (other - self) * fraction
  }
}

extension Point: Interpolatable {
  @inlinable public func interpolated(to other: Point, fraction: Double) -> Point {
    Point(x: x.interpolated(to: other.x, fraction: fraction), y: y.interpolated(to: other.y, fraction: fraction))
  }
}

extension Size: Interpolatable {
  @inlinable public func interpolated(to other: Size, fraction: Double) -> Size {
    Size(
      width: width.interpolated(to: other.width, fraction: fraction),
      height: height.interpolated(to: other.height, fraction: fraction))
  }
}

extension Rect: Interpolatable {
  /// Origin and size interpolate separately, as a view's `frame` does.
  @inlinable public func interpolated(to other: Rect, fraction: Double) -> Rect {
    Rect(
      origin: origin.interpolated(to: other.origin, fraction: fraction),
      size: size.interpolated(to: other.size, fraction: fraction))
  }
}
