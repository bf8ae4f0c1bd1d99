// Straight ↔ premultiplied alpha for 8-bit RGBA, rounding to nearest.
//
// premultiply:   c' = round(c · a / 255)
// unpremultiply: c  = min(255, round(c' · 255 / a)), and (0, 0, 0, 0) for a = 0
//
// Round trip: for a valid premultiplied pixel (c' ≤ a), unpremultiplying and
// premultiplying again gives c' back exactly: the rounding of c moves c·a/255
// by at most a/510 < ½.

import Raster

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

extension Alpha {
  /// Writes premultiplied `bitmap` as straight RGBA8 at `destination`, rows
  /// `stride` bytes apart (a frame's or a packed buffer's).
  static func unpremultiply(_ bitmap: Bitmap, into destination: UnsafeMutablePointer<UInt8>, stride: Int) {
    bitmap.bytes.withUnsafeBufferPointer { source in
      for y in 0..<bitmap.height {
        unpremultiply(source.baseAddress! + y * bitmap.stride, into: destination + y * stride, pixels: bitmap.width)
      }
    }
  }

  /// `bitmap` as packed straight RGBA8 at `destination` with its edges'
  /// colours spread into its fully transparent pixels (`bleed`): what a
  /// lossy encoder with alpha is given (VP9, ProRes 4444, WebP).
  static func straightBled(_ bitmap: Bitmap, into destination: UnsafeMutablePointer<UInt8>) {
    unpremultiply(bitmap, into: destination, stride: bitmap.width * 4)
    bleed(destination, width: bitmap.width, height: bitmap.height, stride: bitmap.width * 4)
  }

  /// Gives every fully transparent pixel of straight RGBA8 (`width × height`,
  /// rows `stride` bytes apart) the colour of the nearest pixel in its row
  /// that is not fully transparent — or, in a row without one, the colours
  /// of the nearest row that has one — unless a pixel that is not is nearer
  /// above or below it, up to `verticalReach` rows away: then that one's.
  /// Alpha is left as it is.
  ///
  /// Why: a lossy YUV encoder with alpha (VP9's 4:2:0, ProRes's DCT) mixes
  /// neighbouring pixels' colours; fully transparent pixels are stored as
  /// black, so an anti-aliased edge would be mixed with black and show a dark
  /// fringe once composited. With the edge colour spread into the invisible
  /// pixels, what is mixed in is the edge's own colour. Under a shape's
  /// bottom edge (and over its top one) the nearest in the row may be
  /// another shape's, which 4:2:0 would mix into the edge; the rows within
  /// reach of swscale's bicubic chroma filter take the edge's colour. Further
  /// away each row keeps its own, flat along the row, which an intra-coded
  /// frame (ProRes) stores in fewer bits than a fill nearest in every
  /// direction, whose borders between colours run across the invisible area.
  static func bleed(_ p: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
    var distance = [Int](repeating: 0, count: width)
    var rowIsVisible = [Bool](repeating: false, count: height)
    @inline(__always) func copyColor(_ row: UnsafeMutablePointer<UInt8>, from: Int, to: Int) {
      row[to * 4] = row[from * 4]
      row[to * 4 + 1] = row[from * 4 + 1]
      row[to * 4 + 2] = row[from * 4 + 2]
    }
    for y in 0..<height {
      let row = p + y * stride
      var last = -1
      for x in 0..<width {
        if row[x * 4 + 3] != 0 {
          last = x
          distance[x] = 0
        } else if last >= 0 {
          copyColor(row, from: last, to: x)
          distance[x] = x - last
        } else {
          distance[x] = Int.max
        }
      }
      guard last >= 0 else { continue }
      rowIsVisible[y] = true
      last = -1
      for x in (0..<width).reversed() {
        if row[x * 4 + 3] != 0 {
          last = x
        } else if last >= 0, last - x < distance[x] {
          copyColor(row, from: last, to: x)
        }
      }
    }
    // Rows with nothing visible take the nearest visible row's colours.
    guard rowIsVisible.contains(true) else { return }
    var nearest = [Int](repeating: -1, count: height)
    var above = -1
    for y in 0..<height {
      if rowIsVisible[y] { above = y }
      nearest[y] = above
    }
    var below = -1
    for y in (0..<height).reversed() {
      if rowIsVisible[y] {
        below = y
      } else if below >= 0, nearest[y] < 0 || below - y < y - nearest[y] {
        nearest[y] = below
      }
    }
    for y in 0..<height where !rowIsVisible[y] {
      let row = p + y * stride, source = p + nearest[y] * stride
      for x in 0..<width {
        row[x * 4] = source[x * 4]
        row[x * 4 + 1] = source[x * 4 + 1]
        row[x * 4 + 2] = source[x * 4 + 2]
      }
    }
    // Pixels a visible one is nearer to above or below than in their row.
    for y in 0..<height {
      let row = p + y * stride
      for x in 0..<width where row[x * 4 + 3] == 0 {
        for dy in 1...verticalReach {
          let above = y >= dy && p[(y - dy) * stride + x * 4 + 3] != 0
          guard above || (y + dy < height && p[(y + dy) * stride + x * 4 + 3] != 0) else { continue }
          var rowIsNearer = false
          for dx in 1...dy where (x >= dx && row[(x - dx) * 4 + 3] != 0) || (x + dx < width && row[(x + dx) * 4 + 3] != 0) {
            rowIsNearer = true
            break
          }
          if !rowIsNearer {
            let source = p + (above ? y - dy : y + dy) * stride + x * 4
            row[x * 4] = source[0]
            row[x * 4 + 1] = source[1]
            row[x * 4 + 2] = source[2]
          }
          break
        }
      }
    }
  }

  /// How many rows above and below a transparent pixel `bleed` looks for a
  /// nearer edge: the reach of swscale's bicubic filter when it halves the
  /// chroma rows (two chroma rows each way).
  static let verticalReach = 4
}
