// Straight ↔ premultiplied alpha for 8-bit RGBA, rounding to nearest.
//
// premultiply:   c' = round(c · a / 255)
// unpremultiply: c  = min(255, round(c' · 255 / a)), and (0, 0, 0, 0) for a = 0
//
// Round trip: for a valid premultiplied pixel (c' ≤ a), unpremultiplying and
// premultiplying again gives c' back exactly: the rounding of c moves c·a/255
// by at most a/510 < ½.

enum Alpha {
  /// `round(x / 255)` for `x` in 0…65025, without a division.
  @inline(__always)
  static func divideBy255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
  }

  /// Premultiplies straight RGBA8 in place.
  static func premultiply(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBufferPointer { p in
      var i = 0
      while i + 3 < p.count {
        let a = UInt32(p[i + 3])
        if a != 255 {
          p[i] = UInt8(truncatingIfNeeded: divideBy255(UInt32(p[i]) * a))
          p[i + 1] = UInt8(truncatingIfNeeded: divideBy255(UInt32(p[i + 1]) * a))
          p[i + 2] = UInt8(truncatingIfNeeded: divideBy255(UInt32(p[i + 2]) * a))
        }
        i += 4
      }
    }
  }

  /// Writes `pixels` premultiplied RGBA8 pixels from `source` to `destination`
  /// as straight RGBA8.
  static func unpremultiply(
    _ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>, pixels: Int
  ) {
    for i in stride(from: 0, to: pixels * 4, by: 4) {
      let a = UInt32(source[i + 3])
      destination[i + 3] = UInt8(truncatingIfNeeded: a)
      switch a {
      case 255:
        destination[i] = source[i]
        destination[i + 1] = source[i + 1]
        destination[i + 2] = source[i + 2]
      case 0:
        destination[i] = 0
        destination[i + 1] = 0
        destination[i + 2] = 0
      default:
        let half = a / 2
        for k in 0..<3 {
          let c = (UInt32(source[i + k]) * 255 + half) / a
          destination[i + k] = UInt8(truncatingIfNeeded: Swift.min(c, 255))
        }
      }
    }
  }
}
