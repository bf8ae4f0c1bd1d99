#if canImport(Glibc)
import Glibc
#endif

/// A 4×4 homogeneous transform with CATransform3D's conventions: points are
/// row vectors, p′ = p · M, so `m41, m42, m43` hold the translation and `m34`
/// the perspective term (−1/d for an eye at distance d on +z).
@frozen public struct Transform3D: Hashable, Sendable {
  public var m11, m12, m13, m14: Double
  public var m21, m22, m23, m24: Double
  public var m31, m32, m33, m34: Double
  public var m41, m42, m43, m44: Double

  @inlinable public init(
    m11: Double, m12: Double, m13: Double, m14: Double,
    m21: Double, m22: Double, m23: Double, m24: Double,
    m31: Double, m32: Double, m33: Double, m34: Double,
    m41: Double, m42: Double, m43: Double, m44: Double
  ) {
    (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
    (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
    (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
    (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
  }

  /// `CATransform3DIdentity`.
  public static let identity = Transform3D(
    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

  /// `CATransform3DMakeTranslation`.
  public static func translation(x: Double, y: Double, z: Double = 0) -> Transform3D {
    var t = identity
    t.m41 = x
    t.m42 = y
    t.m43 = z
    return t
  }

  /// `CATransform3DMakeScale`.
  public static func scale(x: Double, y: Double, z: Double = 1) -> Transform3D {
    var t = identity
    t.m11 = x
    t.m22 = y
    t.m33 = z
    return t
  }

  /// `CATransform3DMakeRotation(angle, 0, 1, 0)`: rotation about the y axis.
  public static func rotation(y angle: Double) -> Transform3D {
    let c = cos(angle), s = sin(angle)
    var t = identity
    t.m11 = c
    t.m13 = -s
    t.m31 = s
    t.m33 = c
    return t
  }

  /// `CATransform3DMakeRotation(angle, 1, 0, 0)`: rotation about the x axis.
  public static func rotation(x angle: Double) -> Transform3D {
    let c = cos(angle), s = sin(angle)
    var t = identity
    t.m22 = c
    t.m23 = s
    t.m32 = -s
    t.m33 = c
    return t
  }

  /// `CATransform3DMakeRotation(angle, 0, 0, 1)`: rotation in the screen plane
  /// (positive angles turn clockwise on screen, y being down).
  public static func rotation(z angle: Double) -> Transform3D {
    let c = cos(angle), s = sin(angle)
    var t = identity
    t.m11 = c
    t.m12 = s
    t.m21 = -s
    t.m22 = c
    return t
  }

  /// `CATransform3DConcat(self, other)`: first `self`, then `other`.
  @inlinable public func concatenating(_ b: Transform3D) -> Transform3D {
    let a = self
    return Transform3D(
      m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
      m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
      m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
      m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
      m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
      m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
      m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
      m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
      m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
      m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
      m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
      m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
      m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
      m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
      m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
      m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
  }

  /// True when this is the identity.
  @inlinable public var isIdentity: Bool { self == .identity }
}
