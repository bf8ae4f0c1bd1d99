/// A colour in sRGB with straight (unpremultiplied) alpha, components 0…1.
///
/// Colours are blended as Core Animation does by default: premultiplied 8-bit
/// values in sRGB (gamma) space, with no linearisation.
@frozen public struct Color: Hashable, Sendable {
  public var red: Double
  public var green: Double
  public var blue: Double
  public var alpha: Double

  @inlinable public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// `#RRGGBB` or `#RRGGBBAA` as 8-bit components.
  @inlinable public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha8: UInt8 = 255) {
    self.init(
      red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255,
      alpha: Double(alpha8) / 255)
  }

  public static let black = Color(red: 0, green: 0, blue: 0)
  public static let white = Color(red: 1, green: 1, blue: 1)
  public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

  /// The colour as a premultiplied RGBA8 pixel (rounded to nearest).
  @inlinable public var premultipliedPixel: Pixel {
    let a = Swift.min(Swift.max(alpha, 0), 1)
    @inline(__always) func q(_ c: Double) -> UInt8 {
      UInt8((Swift.min(Swift.max(c, 0), 1) * a * 255).rounded())
    }
    return Pixel(r: q(red), g: q(green), b: q(blue), a: UInt8((a * 255).rounded()))
  }
}

/// One premultiplied RGBA8 pixel, stored in memory as R, G, B, A.
@frozen public struct Pixel: Hashable, Sendable {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  public var a: UInt8

  @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// Fully transparent black.
  public static let clear = Pixel(r: 0, g: 0, b: 0, a: 0)
}
