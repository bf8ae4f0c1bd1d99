import Glibc
import Raster

/// libimagequant's importance map of an RGBA image — the weight (80…255,
/// low where the image is noisy) its histogram gives each pixel — computed
/// here and handed to it (`liq_image_set_importance_map`).
///
/// Hand-written because of what libimagequant 2.17 (Debian 12's) does for
/// every image added to a histogram: its `contrast_maps` computes this map
/// in scalar float code and, beside it, an edge map that only its own
/// remapping reads (transvid maps with `paletteuse`). For the GIF writer's
/// images that was a sixth of a flat clip's CPU time. These are the same
/// bytes: the same float operations in the same order (a 3×3 cross of
/// second differences on gamma-corrected, premultiplied pixels), then the
/// same byte filters — two 3×3 cross maxima, a box blur of six taps each
/// way (libimagequant's radius 3, divided by 6, its window one pixel to the
/// right and below), a maximum and three minima — with its edge clamping.
/// `reference` is a line-for-line port of libimagequant's C; `compute`
/// does it with SIMD rows. Tests hold the two equal, and libimagequant's
/// palettes and quantisation errors equal with and without the map.
enum ImportanceMap {
  /// Whether libimagequant draws a map for an image of this size: at least
  /// 4×4, and at most a third of `LIQ_HIGH_MEMORY_LIMIT` (1 << 26) pixels.
  static func applies(width: Int, height: Int) -> Bool {
    width >= 4 && height >= 4 && 3 * width * height <= 1 << 26
  }

  /// libimagequant's gamma table for its default gamma (0.45455): channel
  /// value → linear-ish light (`to_f_set_gamma`, `internal_gamma` 0.5499).
  static let gammaTable: [Float] = (0..<256).map {
    Float(pow(Double($0) / 255.0, Double(Float(0.5499)) / 0.45455))
  }

  /// The bytes of scratch memory `compute` needs.
  static func scratchCount(width: Int, height: Int) -> Int {
    width * height + MemoryLayout<Float>.alignment + 12 * paddedWidth(width) * MemoryLayout<Float>.stride
  }

  /// A row of floats: one clamped copy each side, and room for a vector
  /// read past the end.
  private static func paddedWidth(_ width: Int) -> Int { (width + 7) / 8 * 8 + 10 }

  /// The map of `rgba` (`width × height` packed RGBA pixels) into `map`
  /// (`width × height` bytes); `scratch` holds `scratchCount` bytes. Only
  /// for sizes the map `applies` to.
  static func compute(
    _ rgba: UnsafePointer<UInt8>, width: Int, height: Int, into map: UnsafeMutablePointer<UInt8>,
    scratch: UnsafeMutableRawPointer
  ) {
    precondition(applies(width: width, height: height))
    let tmp = scratch.assumingMemoryBound(to: UInt8.self)
    let planes = (scratch + width * height).alignedUp(for: Float.self).assumingMemoryBound(to: Float.self)
    noise(rgba, width: width, height: height, into: map, planes: planes)
    cross(map, into: tmp, width: width, height: height, maximum: true)
    cross(tmp, into: map, width: width, height: height, maximum: true)
    blur(map, scratch: tmp, width: width, height: height)
    cross(map, into: tmp, width: width, height: height, maximum: true)
    cross(tmp, into: map, width: width, height: height, maximum: false)
    cross(map, into: tmp, width: width, height: height, maximum: false)
    cross(tmp, into: map, width: width, height: height, maximum: false)
  }

  private typealias Lanes = SIMD8<Float>

  /// libimagequant's `MAX`/`MIN` macros: `a > b ? a : b`, `a < b ? a : b`.
  @inline(__always) private static func larger(_ a: Lanes, _ b: Lanes) -> Lanes { b.replacing(with: a, where: a .> b) }
  @inline(__always) private static func smaller(_ a: Lanes, _ b: Lanes) -> Lanes { b.replacing(with: a, where: a .< b) }
  @inline(__always) private static func magnitude(_ a: Lanes) -> Lanes {
    unsafeBitCast(unsafeBitCast(a, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: Lanes.self)
  }

  /// Row `y` as four planes (A, R, G, B) of `stride` floats at `row`, each
  /// `[p0, p0, p1, …, pw−1, pw−1, 0…]`: `rgba_to_f`.
  private static func convert(
    _ rgba: UnsafePointer<UInt8>, y: Int, width: Int, into row: UnsafeMutablePointer<Float>, stride: Int,
    table: UnsafePointer<Float>
  ) {
    let source = rgba + 4 * y * width
    for x in 0..<width {
      let p = source + 4 * x
      let a = Float(p[3]) / 255
      row[x + 1] = a
      row[stride + x + 1] = table[Int(p[0])] * a
      row[2 * stride + x + 1] = table[Int(p[1])] * a
      row[3 * stride + x + 1] = table[Int(p[2])] * a
    }
    for c in 0..<4 {
      let plane = row + c * stride
      plane[0] = plane[1]
      plane[width + 1] = plane[width]
    }
  }

  /// The first map: per pixel, from the largest second difference across
  /// the channels horizontally and vertically (`contrast_maps`' loop). A
  /// row whose three rows (above, itself, below) are those of the row
  /// before again — flat UI, mostly — is that row's result again, and a
  /// row equal to the one before is not converted again.
  private static func noise(
    _ rgba: UnsafePointer<UInt8>, width: Int, height: Int, into map: UnsafeMutablePointer<UInt8>,
    planes: UnsafeMutablePointer<Float>
  ) {
    let stride = paddedWidth(width), rowSize = 4 * stride
    planes.initialize(repeating: 0, count: 3 * rowSize)
    gammaTable.withUnsafeBufferPointer { table in
      // Row r in slot r % 3: rows y − 1, y and y + 1 (clamped) are at hand.
      convert(rgba, y: 0, width: width, into: planes, stride: stride, table: table.baseAddress!)
      // Whether rows y − 1, y and y + 1 (clamped) equal the row before each.
      func repeats(_ r: Int) -> Bool {
        r <= 0 || r >= height || memcmp(rgba + 4 * r * width, rgba + 4 * (r - 1) * width, 4 * width) == 0
      }
      var (above, here, below) = (true, true, height > 1 ? repeats(1) : true)
      for y in 0..<height {
        if y > 0 { (above, here, below) = (here, below, repeats(y + 1)) }
        if y + 1 < height {
          let next = planes + (y + 1) % 3 * rowSize
          if below {
            next.update(from: planes + y % 3 * rowSize, count: rowSize)
          } else {
            convert(rgba, y: y + 1, width: width, into: next, stride: stride, table: table.baseAddress!)
          }
        }
        let out = map + y * width
        if y > 0 && above && here && below {
          out.update(from: out - width, count: width)
          continue
        }
        let u = planes + max(0, y - 1) % 3 * rowSize, h = planes + y % 3 * rowSize
        let d = planes + min(height - 1, y + 1) % 3 * rowSize
        var x = 0
        while x < width {
          @inline(__always) func differences(_ c: Int) -> (Lanes, Lanes) {
            let o = c * stride + x
            let left = UnsafeRawPointer(h + o).loadUnaligned(as: Lanes.self)
            let centre = UnsafeRawPointer(h + o + 1).loadUnaligned(as: Lanes.self)
            let right = UnsafeRawPointer(h + o + 2).loadUnaligned(as: Lanes.self)
            let above = UnsafeRawPointer(u + o + 1).loadUnaligned(as: Lanes.self)
            let below = UnsafeRawPointer(d + o + 1).loadUnaligned(as: Lanes.self)
            let twice = centre * 2
            return (magnitude(left + right - twice), magnitude(above + below - twice))
          }
          let (ha, va) = differences(0), (hr, vr) = differences(1)
          let (hg, vg) = differences(2), (hb, vb) = differences(3)
          let horizontal = larger(larger(ha, hr), larger(hg, hb))
          let vertical = larger(larger(va, vr), larger(vg, vb))
          let edge = larger(horizontal, vertical)
          var z = edge - magnitude(horizontal - vertical) * 0.5
          z = 1 - larger(z, smaller(horizontal, vertical))
          z *= z
          z *= z
          // 80 + (unsigned int)(z * 176), at most 256; MIN(…, 255).
          let level = Raster.truncated(z * 176) &+ 80
          let bytes = SIMD8<UInt8>(truncatingIfNeeded: level &- (level &>> 8))
          if x + 8 <= width {
            UnsafeMutableRawPointer(out + x).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
          } else {
            for i in 0..<(width - x) { out[x + i] = bytes[i] }
          }
          x += 8
        }
      }
    }
  }

  /// libimagequant's `liq_max3` (`maximum`) or `liq_min3`: each pixel the
  /// largest or smallest of itself and its four neighbours, edges clamped.
  private static func cross(
    _ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
    maximum: Bool
  ) {
    typealias Bytes = SIMD16<UInt8>
    // (The standard library's pointwiseMax/Min loop over the lanes and were
    // left as calls here; a compare and a select are one vector step each.)
    @inline(__always) func pick(_ a: Bytes, _ b: Bytes) -> Bytes {
      maximum ? a.replacing(with: b, where: b .> a) : a.replacing(with: b, where: b .< a)
    }
    @inline(__always) func pick(_ a: UInt8, _ b: UInt8) -> UInt8 { maximum ? max(a, b) : min(a, b) }
    for y in 0..<height {
      let row = source + y * width, up = source + max(0, y - 1) * width
      let down = source + min(height - 1, y + 1) * width
      let out = target + y * width
      @inline(__always) func scalar(_ x: Int) {
        let v = pick(pick(row[max(0, x - 1)], row[min(width - 1, x + 1)]), pick(up[x], down[x]))
        out[x] = pick(row[x], v)
      }
      scalar(0)
      var x = 1
      while x + 17 <= width {
        let left = UnsafeRawPointer(row + x - 1).loadUnaligned(as: Bytes.self)
        let centre = UnsafeRawPointer(row + x).loadUnaligned(as: Bytes.self)
        let right = UnsafeRawPointer(row + x + 1).loadUnaligned(as: Bytes.self)
        let above = UnsafeRawPointer(up + x).loadUnaligned(as: Bytes.self)
        let below = UnsafeRawPointer(down + x).loadUnaligned(as: Bytes.self)
        UnsafeMutableRawPointer(out + x).storeBytes(
          of: pick(centre, pick(pick(left, right), pick(above, below))), as: Bytes.self)
        x += 16
      }
      while x < width {
        scalar(x)
        x += 1
      }
    }
  }

  /// libimagequant's `liq_blur` of radius 3: each way, the sum of six
  /// pixels (two before, the pixel, three after; edges clamped) divided by
  /// 6, across then down. Images under 7 pixels either way are left as they are.
  private static func blur(_ map: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>, width: Int, height: Int) {
    guard width >= 7, height >= 7 else { return }
    typealias Wide = SIMD16<UInt16>
    @inline(__always) func load(_ p: UnsafePointer<UInt8>) -> Wide {
      Wide(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self))
    }
    // Across: map → scratch.
    for y in 0..<height {
      let row = UnsafePointer(map + y * width), out = scratch + y * width
      @inline(__always) func scalar(_ x: Int) {
        var sum = 0
        for k in -2...3 { sum += Int(row[min(width - 1, max(0, x + k))]) }
        out[x] = UInt8(truncatingIfNeeded: sum / 6)
      }
      scalar(0)
      scalar(1)
      var x = 2
      while x + 19 <= width {
        var sum = load(row + x - 2)
        for k in -1...3 { sum &+= load(row + x + k) }
        UnsafeMutableRawPointer(out + x).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: sum / 6), as: SIMD16<UInt8>.self)
        x += 16
      }
      while x < width {
        scalar(x)
        x += 1
      }
    }
    // Down: scratch → map.
    for y in 0..<height {
      @inline(__always) func row(_ k: Int) -> UnsafePointer<UInt8> {
        UnsafePointer(scratch + min(height - 1, max(0, y + k)) * width)
      }
      let (r0, r1, r2, r3, r4, r5) = (row(-2), row(-1), row(0), row(1), row(2), row(3))
      let out = map + y * width
      var x = 0
      while x + 16 <= width {
        let sum = load(r0 + x) &+ load(r1 + x) &+ load(r2 + x) &+ load(r3 + x) &+ load(r4 + x) &+ load(r5 + x)
        UnsafeMutableRawPointer(out + x).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: sum / 6), as: SIMD16<UInt8>.self)
        x += 16
      }
      while x < width {
        let sum = Int(r0[x]) + Int(r1[x]) + Int(r2[x]) + Int(r3[x]) + Int(r4[x]) + Int(r5[x])
        out[x] = UInt8(truncatingIfNeeded: sum / 6)
        x += 1
      }
    }
  }
}

extension ImportanceMap {
  /// The map as libimagequant 2.17's C computes it, line for line
  /// (`contrast_maps`' noise map, `liq_max3`, `liq_min3`, `liq_blur`): the
  /// scalar reference `compute` is tested against.
  static func reference(_ rgba: [UInt8], width cols: Int, height rows: Int) -> [UInt8] {
    struct FPixel { var a, r, g, b: Float }
    let table = gammaTable
    func row(_ j: Int) -> [FPixel] {
      (0..<cols).map { i in
        let p = 4 * (j * cols + i)
        let a = Float(rgba[p + 3]) / 255
        return FPixel(a: a, r: table[Int(rgba[p])] * a, g: table[Int(rgba[p + 1])] * a, b: table[Int(rgba[p + 2])] * a)
      }
    }
    func MAX<T: Comparable>(_ a: T, _ b: T) -> T { a > b ? a : b }
    func MIN<T: Comparable>(_ a: T, _ b: T) -> T { a < b ? a : b }
    var noise = [UInt8](repeating: 0, count: cols * rows)
    var currRow = row(0), prevRow = currRow, nextRow = currRow
    for j in 0..<rows {
      prevRow = currRow
      currRow = nextRow
      nextRow = row(MIN(rows - 1, j + 1))
      var prev: FPixel, curr = currRow[0], next = curr
      for i in 0..<cols {
        prev = curr
        curr = next
        next = currRow[MIN(cols - 1, i + 1)]
        let a = abs(prev.a + next.a - curr.a * 2), r = abs(prev.r + next.r - curr.r * 2)
        let g = abs(prev.g + next.g - curr.g * 2), b = abs(prev.b + next.b - curr.b * 2)
        let prevl = prevRow[i], nextl = nextRow[i]
        let a1 = abs(prevl.a + nextl.a - curr.a * 2), r1 = abs(prevl.r + nextl.r - curr.r * 2)
        let g1 = abs(prevl.g + nextl.g - curr.g * 2), b1 = abs(prevl.b + nextl.b - curr.b * 2)
        let horiz = MAX(MAX(a, r), MAX(g, b)), vert = MAX(MAX(a1, r1), MAX(g1, b1))
        let edge = MAX(horiz, vert)
        var z = edge - abs(horiz - vert) * 0.5
        z = 1 - MAX(z, MIN(horiz, vert))
        z *= z
        z *= z
        let zInt = 80 + UInt32(z * 176)
        noise[j * cols + i] = UInt8(MIN(zInt, 255))
      }
    }
    func max3min3(_ src: [UInt8], _ isMax: Bool) -> [UInt8] {
      var dst = [UInt8](repeating: 0, count: cols * rows)
      let pick: (UInt8, UInt8) -> UInt8 = isMax ? { MAX($0, $1) } : { MIN($0, $1) }
      var o = 0
      for j in 0..<rows {
        let row = j * cols, prevrow = (j > 1 ? j - 1 : 0) * cols, nextrow = MIN(rows - 1, j + 1) * cols
        var prev: UInt8, curr = src[row], next = src[row]
        for i in 0..<(cols - 1) {
          prev = curr
          curr = next
          next = src[row + i + 1]
          let t1 = pick(prev, next), t2 = pick(src[nextrow + i], src[prevrow + i])
          dst[o] = pick(curr, pick(t1, t2))
          o += 1
        }
        let t1 = pick(curr, next), t2 = pick(src[nextrow + cols - 1], src[prevrow + cols - 1])
        dst[o] = pick(t1, t2)
        o += 1
      }
      return dst
    }
    func transposingBlur(_ src: [UInt8], _ width: Int, _ height: Int, _ size: Int) -> [UInt8] {
      var dst = [UInt8](repeating: 0, count: width * height)
      for j in 0..<height {
        let row = j * width
        var sum = Int(src[row]) * size
        for i in 0..<size { sum += Int(src[row + i]) }
        for i in 0..<size {
          sum -= Int(src[row])
          sum += Int(src[row + i + size])
          dst[i * height + j] = UInt8(truncatingIfNeeded: sum / (size * 2))
        }
        for i in size..<(width - size) {
          sum -= Int(src[row + i - size])
          sum += Int(src[row + i + size])
          dst[i * height + j] = UInt8(truncatingIfNeeded: sum / (size * 2))
        }
        for i in (width - size)..<width {
          sum -= Int(src[row + i - size])
          sum += Int(src[row + width - 1])
          dst[i * height + j] = UInt8(truncatingIfNeeded: sum / (size * 2))
        }
      }
      return dst
    }
    noise = max3min3(noise, true)
    noise = max3min3(noise, true)
    if cols >= 7 && rows >= 7 {
      noise = transposingBlur(transposingBlur(noise, cols, rows, 3), rows, cols, 3)
    }
    noise = max3min3(noise, true)
    noise = max3min3(noise, false)
    noise = max3min3(noise, false)
    noise = max3min3(noise, false)
    return noise
  }
}
