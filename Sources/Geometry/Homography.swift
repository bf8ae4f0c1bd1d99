/// A 3×3 projective transform of the plane (a homography), with
/// `Transform3D`'s row-vector convention: `[x y 1] · H = [X Y W]` and the
/// image point is `(X / W, Y / W)`.
///
/// A planar layer under any `Transform3D` (perspective included) maps its
/// z = 0 plane to the screen by exactly one homography: rows and columns
/// 1, 2 and 4 of the 4×4 (`init(flattening:)`). The compositor composes these
/// per layer, inverts the result once, and divides per pixel.
@frozen public struct Homography: Hashable, Sendable {
  public var m11, m12, m13: Double
  public var m21, m22, m23: Double
  public var m31, m32, m33: Double

  @inlinable public init(
    m11: Double, m12: Double, m13: Double,
    m21: Double, m22: Double, m23: Double,
    m31: Double, m32: Double, m33: Double
  ) {
    (self.m11, self.m12, self.m13) = (m11, m12, m13)
    (self.m21, self.m22, self.m23) = (m21, m22, m23)
    (self.m31, self.m32, self.m33) = (m31, m32, m33)
  }

  /// The identity.
  public static let identity = Homography(
    m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)

  /// The plane z = 0 of `t` seen on the screen plane (z dropped): rows and
  /// columns 1, 2, 4 of the 4×4.
  @inlinable public init(flattening t: Transform3D) {
    self.init(
      m11: t.m11, m12: t.m12, m13: t.m14,
      m21: t.m21, m22: t.m22, m23: t.m24,
      m31: t.m41, m32: t.m42, m33: t.m44)
  }

  /// A translation by (x, y).
  @inlinable public static func translation(x: Double, y: Double) -> Homography {
    Homography(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: x, m32: y, m33: 1)
  }

  /// A scale about the origin.
  @inlinable public static func scale(x: Double, y: Double) -> Homography {
    Homography(m11: x, m12: 0, m13: 0, m21: 0, m22: y, m23: 0, m31: 0, m32: 0, m33: 1)
  }

  /// First `self`, then `b` (the matrix product `self · b`).
  @inlinable public func concatenating(_ b: Homography) -> Homography {
    let a = self
    return Homography(
      m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31,
      m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32,
      m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33,
      m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31,
      m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32,
      m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33,
      m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31,
      m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32,
      m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33)
  }

  /// The determinant.
  @inlinable public var determinant: Double {
    m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31)
      + m13 * (m21 * m32 - m22 * m31)
  }

  /// The inverse; `nil` when the matrix is singular (a layer seen edge-on).
  @inlinable public func inverted() -> Homography? {
    let d = determinant
    guard d.isFinite, abs(d) > 1e-300 else { return nil }
    let r = 1 / d
    return Homography(
      m11: (m22 * m33 - m23 * m32) * r, m12: (m13 * m32 - m12 * m33) * r,
      m13: (m12 * m23 - m13 * m22) * r,
      m21: (m23 * m31 - m21 * m33) * r, m22: (m11 * m33 - m13 * m31) * r,
      m23: (m13 * m21 - m11 * m23) * r,
      m31: (m21 * m32 - m22 * m31) * r, m32: (m12 * m31 - m11 * m32) * r,
      m33: (m11 * m22 - m12 * m21) * r)
  }

  /// The homogeneous image `(X, Y, W)` of `p`.
  @inlinable public func homogeneous(_ p: Point) -> (x: Double, y: Double, w: Double) {
    (p.x * m11 + p.y * m21 + m31, p.x * m12 + p.y * m22 + m32, p.x * m13 + p.y * m23 + m33)
  }

  /// The image of `p` (divided by W; meaningless when W ≤ 0, behind the eye).
  @inlinable public func apply(_ p: Point) -> Point {
    let h = homogeneous(p)
    return Point(x: h.x / h.w, y: h.y / h.w)
  }

  /// True when there is no perspective term (W ≡ 1 up to scale).
  @inlinable public var isAffine: Bool { m13 == 0 && m23 == 0 && m33 != 0 }

  /// True when the map is affine and keeps axes axis-aligned (scale and
  /// translation only, no rotation or skew).
  @inlinable public var isAxisAligned: Bool { isAffine && m12 == 0 && m21 == 0 }

  /// The affine map normalised so that m33 = 1 (only meaningful when `isAffine`).
  @inlinable public var normalized: Homography {
    guard m33 != 1, m33 != 0 else { return self }
    let r = 1 / m33
    return Homography(
      m11: m11 * r, m12: m12 * r, m13: m13 * r, m21: m21 * r, m22: m22 * r, m23: m23 * r,
      m31: m31 * r, m32: m32 * r, m33: 1)
  }
}

extension Transform3D {
  /// The 4×4 that maps a layer's own (bounds) coordinates into its
  /// superlayer's coordinates, as Core Animation composes them: relative to
  /// the anchor point, then `transform`, then moved to `position`, then the
  /// superlayer's `sublayerTransform` about the superlayer's anchor point.
  ///
  /// - Parameters:
  ///   - bounds, anchorPoint, position, transform: the layer's.
  ///   - sublayerTransform: the superlayer's (`nil` or identity for none).
  ///   - superAnchor: the superlayer's anchor point in its own bounds
  ///     coordinates (`bounds.origin + anchorPoint · bounds.size`).
  public static func layerToSuperlayer(
    bounds: Rect, anchorPoint: Point, position: Point, transform: Transform3D,
    sublayerTransform: Transform3D = .identity, superAnchor: Point = .zero
  ) -> Transform3D {
    let ax = bounds.minX + anchorPoint.x * bounds.width
    let ay = bounds.minY + anchorPoint.y * bounds.height
    var m = Transform3D.translation(x: -ax, y: -ay)
    if !transform.isIdentity { m = m.concatenating(transform) }
    m = m.concatenating(.translation(x: position.x, y: position.y))
    if !sublayerTransform.isIdentity {
      m = m.concatenating(.translation(x: -superAnchor.x, y: -superAnchor.y))
        .concatenating(sublayerTransform)
        .concatenating(.translation(x: superAnchor.x, y: superAnchor.y))
    }
    return m
  }
}
