import Geometry

/// An axial gradient, as `CAGradientLayer` (type `.axial`) draws it over a
/// layer's bounds.
///
/// Colours interpolate in straight (unpremultiplied) sRGB between stops, then
/// premultiply, as Core Graphics does: a fade from white to `.clear` passes
/// through translucent grey, as on iOS. Before the first stop and after the
/// last, the end colours extend.
public struct Gradient: Hashable, Sendable {
  /// The colours, at least one.
  public var colors: [Color]
  /// Stop positions 0…1, ascending, one per colour; `nil` spaces them evenly.
  public var locations: [Double]?
  /// Start of the axis in the unit coordinate space of the bounds (default top centre).
  public var startPoint: Point
  /// End of the axis in the unit coordinate space of the bounds (default bottom centre).
  public var endPoint: Point

  public init(
    colors: [Color], locations: [Double]? = nil, startPoint: Point = Point(x: 0.5, y: 0),
    endPoint: Point = Point(x: 0.5, y: 1)
  ) {
    self.colors = colors
    self.locations = locations
    self.startPoint = startPoint
    self.endPoint = endPoint
  }

  /// The gradient's colour at `t` (straight alpha).
  public func color(at t: Double) -> Color {
    guard let first = colors.first else { return .clear }
    if colors.count == 1 { return first }
    return color(at: t, stops: stops)
  }

  /// Each colour's position: `locations`, or evenly spaced.
  var stops: [Double] {
    let n = colors.count
    return (locations?.count == n) ? locations! : (0..<n).map { Double($0) / Double(Swift.max(n - 1, 1)) }
  }

  /// The colour at `t` for `stops` (`self.stops`, at least two).
  private func color(at t: Double, stops: [Double]) -> Color {
    let n = colors.count, first = colors[0]
    if t <= stops[0] { return first }
    for i in 1..<n where t <= stops[i] {
      let a = stops[i - 1], b = stops[i]
      let f = b > a ? (t - a) / (b - a) : 1
      let c0 = colors[i - 1], c1 = colors[i]
      return Color(
        red: c0.red + (c1.red - c0.red) * f, green: c0.green + (c1.green - c0.green) * f,
        blue: c0.blue + (c1.blue - c0.blue) * f, alpha: c0.alpha + (c1.alpha - c0.alpha) * f)
    }
    return colors[n - 1]
  }

  /// The premultiplied colour at t = i / (count − 1) for each of `count`
  /// entries (`tableSize`).
  func lookupTable() -> [Pixel] {
    guard colors.count > 1 else { return [(colors.first ?? .clear).premultipliedPixel] }
    let stops = self.stops, count = tableSize(stops)
    let last = Double(count - 1)
    return (0..<count).map { color(at: Double($0) / last, stops: stops).premultipliedPixel }
  }

  /// Most entries a table has: stops 1/64 of the axis apart still get 256.
  static let maximumTableSize = 16385

  /// How many entries `lookupTable` has: 256 over a single stop interval
  /// spanning the whole axis, and more when one is shorter, so every
  /// interval between two stops gets at least 256 and a colour never
  /// changes by more than a level from one entry to the next: a ramp from
  /// black to white over the first 5 % of the axis is 256 steps, as Core
  /// Animation draws it, not 13 of 20 levels each. Up to
  /// `maximumTableSize`; an interval of no length (a hard stop) takes none.
  var tableSize: Int { colors.count > 1 ? tableSize(stops) : 1 }

  private func tableSize(_ stops: [Double]) -> Int {
    let n = stops.count
    var shortest = 1.0
    for i in 1..<n where stops[i] > stops[i - 1] { shortest = Swift.min(shortest, stops[i] - stops[i - 1]) }
    // (Less a rounding error: sixteen even stops are 3825 intervals, not 3826.)
    let intervals = (255 / shortest - 1e-9).rounded(.up)
    return Int(Swift.min(intervals, Double(Gradient.maximumTableSize - 1))) + 1
  }
}

enum Gradients {
  /// Shades `count` pixels of row `y` from column `x0` into `dst`: with
  /// `.simd` kernels and an affine map, eight at a time (`shadeRowSIMD`),
  /// else one at a time (`shadeRow`, the reference). The same bytes.
  @inline(__always)
  static func shade(
    _ g: GradientPaint, lut: UnsafePointer<Pixel>, y: Int, x0: Int, count: Int,
    into dst: UnsafeMutablePointer<UInt8>, _ kernels: KernelSet
  ) {
    let m = g.toLocal
    if kernels == .simd && m.m13 == 0 && m.m23 == 0 && m.m33 == 1 {
      shadeRowSIMD(g, lut: lut, y: y, x0: x0, count: count, into: dst)
    } else {
      shadeRow(g, lut: lut, y: y, x0: x0, count: count, into: dst)
    }
  }

  /// `shadeRow` for an affine map (W = 1), eight pixels at a time: the same
  /// Double operations in the same order, lane by lane, so the same t and
  /// the same table entry; the table is read per lane.
  static func shadeRowSIMD(
    _ g: GradientPaint, lut: UnsafePointer<Pixel>, y: Int, x0: Int, count: Int,
    into dst: UnsafeMutablePointer<UInt8>
  ) {
    let m = g.toLocal
    let yc = Double(y) + 0.5
    let yx = yc * m.m21, yy = yc * m.m22
    let out = UnsafeMutableRawPointer(dst)
    let lanes = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
    let last = g.last
    var i = 0
    while i + 8 <= count {
      let xc = (SIMD8<Double>(repeating: Double(x0 + i)) + lanes) + 0.5
      let X = xc * m.m11 + yx + m.m31
      let Y = xc * m.m12 + yy + m.m32
      let t = (X - g.start.x) * g.axis.x + (Y - g.start.y) * g.axis.y
      var v = t * last + 0.5
      // clampedInt(v, 0, last): not above 0 (NaN too) → 0, at least last → last.
      v.replace(with: 0, where: .!(v .> 0))
      v.replace(with: last, where: v .>= last)
      // Int(v) lane by lane: SIMD's own conversion to integers is generic code.
      for l in 0..<8 {
        out.storeBytes(of: lut[Int(v[l])], toByteOffset: 4 &* (i &+ l), as: Pixel.self)
      }
      i += 8
    }
    if i < count {
      shadeRow(g, lut: lut, y: y, x0: x0 + i, count: count - i, into: dst + 4 * i)
    }
  }

  /// Shades `count` pixels of row `y` from column `x0` into `dst`, one at a
  /// time: the reference.
  static func shadeRow(
    _ g: GradientPaint, lut: UnsafePointer<Pixel>, y: Int, x0: Int, count: Int,
    into dst: UnsafeMutablePointer<UInt8>
  ) {
    let m = g.toLocal
    let yc = Double(y) + 0.5
    let out = UnsafeMutableRawPointer(dst).bindMemory(to: Pixel.self, capacity: count)
    let last = g.last, lastIndex = g.lastIndex
    for i in 0..<count {
      let xc = Double(x0 + i) + 0.5
      var X = xc * m.m11 + yc * m.m21 + m.m31
      var Y = xc * m.m12 + yc * m.m22 + m.m32
      let W = xc * m.m13 + yc * m.m23 + m.m33
      if W != 1 {
        guard W > 1e-12 else {
          out[i] = .clear
          continue
        }
        X /= W
        Y /= W
      }
      let t = (X - g.start.x) * g.axis.x + (Y - g.start.y) * g.axis.y
      out[i] = lut[clampedInt(t * last + 0.5, 0, lastIndex)]
    }
  }
}
