/// Which pixels each image of a GIF carries, and what a decoder shows after
/// it.
///
/// An image is planned (`GIFImagePlan`) from its frame alone: the pixels
/// whose colour differs from the frame before, their palette indices and
/// their lossy bounds. Only the drawing (`GIFScreen.draw`) depends on what
/// earlier images left on screen, so the plans of later frames are worked
/// out while the screen draws and codes this one.

/// Whether pixel `p` of two packed BGRA frames (each at least `4 · (p + 1)`
/// bytes) differs in colour: B, G and R of the little-endian words, alpha
/// not compared.
@inline(__always)
func colorDiffers(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ p: Int) -> Bool {
  (a.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self)
    ^ b.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self)) & 0x00FF_FFFF != 0
}

/// Calls `body` with each pixel below `count` whose colour differs between
/// two packed BGRA frames (`colorDiffers`), in order. Eight pixels are
/// compared at once, as four 64-bit words, and skipped together where none
/// differs: most of a frame, where a transition changes part of the screen.
@inline(__always)
func forEachColorChange(
  _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, count: Int, _ body: (Int) -> Void
) {
  precondition(a.count >= 4 * count && b.count >= 4 * count)
  let color: UInt64 = 0x00FF_FFFF_00FF_FFFF
  var p = 0
  while p + 8 <= count {
    var x: UInt64 = 0
    for k in 0..<4 {
      let offset = 4 * p + 8 * k
      x |= a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    if x & color != 0 {
      for q in p..<(p + 8) where colorDiffers(a, b, q) { body(q) }
    }
    p += 8
  }
  for q in p..<count where colorDiffers(a, b, q) { body(q) }
}

/// The largest difference of the R, G and B channels of two packed colours.
@inline(__always)
func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
  // The bytes as lanes (little-endian: B, G, R, then the byte above, left out).
  let x = unsafeBitCast(a & 0x00FF_FFFF, to: SIMD4<UInt8>.self)
  let y = unsafeBitCast(b & 0x00FF_FFFF, to: SIMD4<UInt8>.self)
  return Int((pointwiseMax(x, y) &- pointwiseMin(x, y)).max())
}

/// The row and column of pixel numbers visited in increasing order, found
/// by counting rows rather than dividing: the loops over an image's changed
/// pixels visit every one of them.
struct RowCursor {
  let width: Int
  /// The row of the last pixel visited, and its first pixel number.
  private(set) var y: Int, rowStart: Int

  init(width: Int, row: Int = 0) {
    self.width = width
    y = row
    rowStart = row * width
  }

  /// Moves to pixel `p` (not before the current row) and returns its column.
  @inline(__always) mutating func column(of p: Int) -> Int {
    precondition(p >= rowStart, "pixels out of order")
    while p >= rowStart + width {
      y += 1
      rowStart += width
    }
    return p - rowStart
  }
}

/// What one image of the GIF draws that does not depend on the screen: the
/// pixels whose source colour changed since the image before, every
/// pixel's palette index, and the lossy bound of each changed pixel.
struct GIFImagePlan {
  /// Pixels whose colour differs from the previous image's frame (all of
  /// them in the first image), in order.
  var changed: [Int]
  /// The palette index of every pixel of the frame, row by row.
  var indices: [UInt8]
  /// Per pixel of the frame: the packed colour of a changed pixel's index,
  /// or `GIFLZWEncoder.Tolerance.unchanged` (empty without changed pixels).
  var wanted: [UInt32]
  /// Per pixel of the frame: a changed pixel's lossy bound (`localBound`),
  /// 0 elsewhere (empty without changed pixels).
  var limits: [UInt8]
  /// The rows that hold changed pixels.
  var rows: Range<Int>

  /// Pixels of `pixels` whose colour differs from `previous` (packed BGRA,
  /// `count` pixels each); all of them without a previous frame.
  static func changedPixels(_ pixels: [UInt8], from previous: [UInt8]?, count: Int) -> [Int] {
    guard let previous else { return Array(0..<count) }
    precondition(pixels.count >= 4 * count && previous.count >= 4 * count)
    var changed: [Int] = []
    changed.reserveCapacity(count)
    pixels.withUnsafeBytes { a in
      previous.withUnsafeBytes { b in
        forEachColorChange(a, b, count: count) { changed.append($0) }
      }
    }
    return changed
  }

  /// The plan of `pixels` (packed BGRA, `width × height`): its `changed`
  /// pixels, mapped to `indices` of the palette's packed `colors`, each with
  /// the `localBound` of its mapped colour's error under its own bound
  /// (`bounds`, per changed pixel; nil: `bound` for every one, an image
  /// past the lifetimes kept).
  init(
    _ pixels: [UInt8], changed: [Int], indices: [UInt8], colors: [UInt32], bounds: [UInt8]?, bound: Int, width: Int,
    height: Int
  ) {
    let count = width * height
    precondition(pixels.count >= 4 * count && (changed.isEmpty || indices.count >= count))
    precondition(bounds == nil || bounds!.count == changed.count, "a bound per changed pixel")
    self.changed = changed
    self.indices = indices
    rows = changed.isEmpty ? 0..<0 : (changed.first! / width)..<(changed.last! / width + 1)
    guard !changed.isEmpty else {
      (wanted, limits) = ([], [])
      return
    }
    var wanted = [UInt32](repeating: GIFLZWEncoder.Tolerance.unchanged, count: count)
    var limits = [UInt8](repeating: 0, count: count)
    wanted.withUnsafeMutableBufferPointer { wanted in
      limits.withUnsafeMutableBufferPointer { limits in
        pixels.withUnsafeBytes { pixels in
          indices.withUnsafeBufferPointer { indices in
            colors.withUnsafeBufferPointer { colors in
              let base = pixels.baseAddress!
              var rows = RowCursor(width: width)
              for (i, p) in changed.enumerated() {
                precondition(p < count)
                let x = rows.column(of: p), y = rows.y
                let pixel = base.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self) & 0x00FF_FFFF
                let color = colors[Int(indices[p])]
                wanted[p] = color
                limits[p] = UInt8(
                  Self.localBound(
                    base, width: width, height: height, x: x, y: y, bounds.map { Int($0[i]) } ?? bound,
                    error: channelDistance(color, pixel)))
              }
            }
          }
        }
      }
    }
    self.wanted = wanted
    self.limits = limits
  }

  /// A pixel's lossy bound is at most its 3×3 neighbourhood's largest
  /// channel range times `maskingNumerator / maskingDenominator` (4/9)…
  static let maskingNumerator = 4, maskingDenominator = 9
  /// …and at most this many times its own quantisation error (the distance
  /// of its mapped colour from its source colour): a colour the palette
  /// holds exactly stays exact, one it approximates may drift a little
  /// further, where it pays most (a cross-dissolve, whose every pixel changes
  /// in every frame, keeps more of what is on screen).
  static let errorFactor = 4

  /// The lossy bound at pixel `p` of `pixels` (packed BGRA, `width ×
  /// height`), whose mapped colour is `error` from its source colour:
  /// `bound` where the source is textured and the palette already
  /// approximates it, less where it is smooth or exact — an error in a
  /// gradient or a flat colour shows as noise the eye and SSIM see first, in
  /// texture it is masked; flat UI colours, exact in the palette, stay exact.
  static func localBound(_ pixels: [UInt8], width: Int, height: Int, _ p: Int, _ bound: Int, error: Int) -> Int {
    precondition(pixels.count >= 4 * width * height)
    return pixels.withUnsafeBytes { bytes in
      localBound(bytes.baseAddress!, width: width, height: height, x: p % width, y: p / width, bound, error: error)
    }
  }

  /// `localBound` at pixel (`x`, `y`) of the packed BGRA frame at `bgra`
  /// (`width × height`).
  @inline(__always)
  static func localBound(
    _ bgra: UnsafeRawPointer, width: Int, height: Int, x: Int, y: Int, _ bound: Int, error: Int
  ) -> Int {
    guard bound > 0, error > 0 else { return 0 }
    @inline(__always) func color(_ offset: Int) -> SIMD4<UInt8> {
      unsafeBitCast(bgra.loadUnaligned(fromByteOffset: offset, as: UInt32.self) & 0x00FF_FFFF, to: SIMD4<UInt8>.self)
    }
    var low = SIMD4<UInt8>(repeating: 255), high = SIMD4<UInt8>(repeating: 0)
    let x0 = max(0, x - 1), x1 = min(width - 1, x + 1)
    for ny in max(0, y - 1)...min(height - 1, y + 1) {
      let row = 4 * (ny * width)
      for nx in x0...x1 {
        let c = color(row + 4 * nx)
        low = pointwiseMin(low, c)
        high = pointwiseMax(high, c)
      }
    }
    let range = Int((high &- low).max())
    return min(bound, range * maskingNumerator / maskingDenominator, errorFactor * error)
  }
}

/// What a GIF decoder shows after each image: the state that decides which
/// pixels the next image carries.
///
/// Invariant: every pixel on screen is within the `bound` of the image that
/// last drew or kept it, per channel, of the colour the lossless GIF (bound
/// 0) shows there: its source colour's mapped colour; or, after a
/// refinement (`refinements`), its source colour itself.
struct GIFScreen {
  let width: Int, height: Int
  /// The colour on screen per pixel, B | G << 8 | R << 16.
  private var shown: [UInt32]
  /// Whether an image has been drawn.
  private var isBlank = true
  /// Buffers `draw` fills for every image, kept from one image to the next:
  /// the lossy coder's view of the image's rectangle (at least as long as
  /// the largest rectangle so far).
  private var shownHere: [UInt32] = [], wantedHere: [UInt32] = [], bounds: [UInt8] = []
  /// Per pixel of the rows an image changes: 0xFF where it is drawn, 0
  /// elsewhere (`drawnLanes`, worked out once per image for its bounding
  /// box and read again to write its indices).
  private var drawn: [UInt8]

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    shown = [UInt32](repeating: 0, count: width * height)
    drawn = [UInt8](repeating: 0, count: width * height)
  }

  /// Whether a pixel is drawn: it changed (`wanted` is its mapped colour)
  /// and that colour is beyond its `limit` from the one `shown` (any change,
  /// in the first image).
  @inline(__always)
  static func isDrawn(_ shown: UInt32, _ wanted: UInt32, _ limit: UInt8, first: Bool) -> Bool {
    wanted != GIFLZWEncoder.Tolerance.unchanged && (first || channelDistance(shown, wanted) > Int(limit))
  }

  /// `isDrawn` for the eight pixels from each pointer, as lanes of 1
  /// (drawn) or 0. Integer arithmetic only (wrapping subtractions and
  /// shifts of the sign bit instead of compares and selects, whose masks
  /// Swift builds lane by lane), so it stays in vector registers.
  @inline(__always)
  static func drawnLanes(
    _ shown: UnsafePointer<UInt32>, _ wanted: UnsafePointer<UInt32>, _ limits: UnsafePointer<UInt8>, first: Bool
  ) -> SIMD8<UInt32> {
    let w = UnsafeRawPointer(wanted).loadUnaligned(as: SIMD8<UInt32>.self)
    // `unchanged` is the only value with a bit above the colour's 24.
    let changed = (w &>> 24) ^ SIMD8(repeating: 1)
    if first { return changed }
    let s = UnsafeRawPointer(shown).loadUnaligned(as: SIMD8<UInt32>.self)
    let byte = SIMD8<UInt32>(repeating: 0xFF), zero = SIMD8<UInt32>(repeating: 0)
    @inline(__always) func absolute(_ shift: UInt32) -> SIMD8<UInt32> {
      let d = ((w &>> shift) & byte) &- ((s &>> shift) & byte)
      let negative = zero &- (d &>> 31)
      return (d ^ negative) &- negative
    }
    @inline(__always) func maximum(_ x: SIMD8<UInt32>, _ y: SIMD8<UInt32>) -> SIMD8<UInt32> {
      let d = x &- y
      return x &- (d & (zero &- (d &>> 31)))
    }
    let distance = maximum(absolute(0), maximum(absolute(8), absolute(16)))
    let limit = SIMD8<UInt32>(truncatingIfNeeded: UnsafeRawPointer(limits).loadUnaligned(as: SIMD8<UInt8>.self))
    return changed & ((limit &- distance) &>> 31)
  }

  /// Lane k of `lanes` (each 1 or 0) as bit k.
  @inline(__always)
  static func laneBits(_ lanes: SIMD8<UInt32>) -> UInt {
    UInt((lanes &<< SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7)).wrappedSum())
  }

  /// The next image: the plan's `changed` pixels take their mapped colours
  /// (`indices`, full frame, into `palette`); those whose mapped colour is
  /// more than their limit from the one on screen are drawn (all of them in
  /// the first image), inside the bounding box of those, every other pixel
  /// transparent. `coder` codes the indices — lossy within each pixel's
  /// limit, so a pixel may show any colour within it of its mapped one, the
  /// transparent index included — and the screen takes what it decodes to;
  /// `data` is the image's coded indices. At a limit of 0 the coder still
  /// chooses where the choice costs nothing: a pixel that keeps what is on
  /// screen takes the transparent index or one of exactly that colour,
  /// whichever makes its string longer (flat UI without lossy coding: 2.4 %
  /// fewer bytes, the same pixels).
  ///
  /// This is pass 2's serial path (each image needs the screen the one
  /// before left), so the plan brings every per-pixel array the image
  /// needs at full frame, and the drawn pixels are found and written eight
  /// at a time along the rows (`drawnLanes`).
  mutating func draw(
    _ plan: GIFImagePlan, palette: GIFPalette, coder: inout GIFLZWEncoder, codeSize: Int
  ) -> (image: GIFFile.Image, data: [UInt8]) {
    let first = isBlank
    isBlank = false
    let colors = palette.packed
    let (indices, wanted, limits) = (plan.indices, plan.wanted, plan.limits)
    let width = width
    let count = width * height
    precondition(plan.changed.isEmpty || (indices.count >= count && wanted.count >= count && limits.count >= count))
    var minX = width, minY = height, maxX = -1, maxY = -1
    shown.withUnsafeBufferPointer { shown in
      wanted.withUnsafeBufferPointer { wanted in
        limits.withUnsafeBufferPointer { limits in
          drawn.withUnsafeMutableBufferPointer { drawn in
            let (shown, wanted, limits, drawn) = (
              shown.baseAddress!, wanted.baseAddress!, limits.baseAddress!, drawn.baseAddress!
            )
            for y in plan.rows {
              let row = y * width
              // The first and last drawn columns of the row.
              var low = -1, high = -1
              var x = 0
              while x + 8 <= width {
                let lanes = Self.drawnLanes(shown + row + x, wanted + row + x, limits + row + x, first: first)
                UnsafeMutableRawPointer(drawn + row + x).storeBytes(
                  of: SIMD8<UInt8>(truncatingIfNeeded: SIMD8<UInt32>(repeating: 0) &- lanes), as: SIMD8<UInt8>.self)
                let bits = Self.laneBits(lanes)
                if bits != 0 {
                  if low < 0 { low = x + bits.trailingZeroBitCount }
                  high = x + 7 - (bits.leadingZeroBitCount - (UInt.bitWidth - 8))
                }
                x += 8
              }
              while x < width {
                let isDrawn = Self.isDrawn(shown[row + x], wanted[row + x], limits[row + x], first: first)
                drawn[row + x] = isDrawn ? 0xFF : 0
                if isDrawn {
                  if low < 0 { low = x }
                  high = x
                }
                x += 1
              }
              guard low >= 0 else { continue }
              minX = min(minX, low)
              maxX = max(maxX, high)
              if minY > y { minY = y }
              maxY = y
            }
          }
        }
      }
    }
    let drawsNothing = maxY < 0
    if drawsNothing { (minX, minY, maxX, maxY) = (0, 0, 0, 0) }
    let w = maxX - minX + 1, h = maxY - minY + 1
    let transparent = UInt8(palette.transparentIndex)
    var out = [UInt8](unsafeUninitializedCapacity: w * h) { out, n in
      n = w * h
      guard !drawsNothing else {
        out.initialize(repeating: transparent)
        return
      }
      // The bounding box's rows are among the plan's, whose drawn pixels
      // are marked.
      drawn.withUnsafeBufferPointer { drawn in
        indices.withUnsafeBufferPointer { indices in
          let (drawn, indices) = (drawn.baseAddress!, indices.baseAddress!)
          let target = out.baseAddress!
          for y in 0..<h {
            let row = (minY + y) * width + minX, o = target + y * w
            var x = 0
            while x + 8 <= w {
              let lanes = UnsafeRawPointer(drawn + row + x).loadUnaligned(as: SIMD8<UInt8>.self)
              let chosen = UnsafeRawPointer(indices + row + x).loadUnaligned(as: SIMD8<UInt8>.self)
              let pixels = (chosen & lanes) | (SIMD8(repeating: transparent) & ~lanes)
              UnsafeMutableRawPointer(o + x).storeBytes(of: pixels, as: SIMD8<UInt8>.self)
              x += 8
            }
            while x < w {
              let p = row + x
              o[x] = drawn[p] != 0 ? indices[p] : transparent
              x += 1
            }
          }
        }
      }
    }
    // Pixels whose source did not change keep what is on screen (their
    // `wanted` says so). An image of whole rows (a transition that moves
    // across the frame) reads the frame's arrays where they are; a
    // narrower one, copies of its rectangle.
    let transparentIndex = first ? nil : palette.transparentIndex
    let data: [UInt8]
    if minX == 0 && w == width {
      let tolerance = GIFLZWEncoder.Tolerance(
        colors: colors, transparentIndex: transparentIndex, shown: shown, wanted: wanted, bounds: limits, width: w,
        offset: minY * width)
      data = coder.encode(&out, minimumCodeSize: codeSize, tolerance: tolerance)
    } else {
      let n = w * h
      if shownHere.count < n {
        shownHere = [UInt32](repeating: 0, count: n)
        wantedHere = [UInt32](repeating: 0, count: n)
        bounds = [UInt8](repeating: 0, count: n)
      }
      shown.withUnsafeBufferPointer { shown in
        wanted.withUnsafeBufferPointer { wanted in
          limits.withUnsafeBufferPointer { limits in
            shownHere.withUnsafeMutableBufferPointer { shownHere in
              wantedHere.withUnsafeMutableBufferPointer { wantedHere in
                bounds.withUnsafeMutableBufferPointer { bounds in
                  for y in 0..<h {
                    let from = (minY + y) * width + minX, to = y * w
                    (shownHere.baseAddress! + to).update(from: shown.baseAddress! + from, count: w)
                    (wantedHere.baseAddress! + to).update(from: wanted.baseAddress! + from, count: w)
                    (bounds.baseAddress! + to).update(from: limits.baseAddress! + from, count: w)
                  }
                }
              }
            }
          }
        }
      }
      let tolerance = GIFLZWEncoder.Tolerance(
        colors: colors, transparentIndex: transparentIndex, shown: shownHere, wanted: wantedHere, bounds: bounds,
        width: w)
      // The tolerance holds the buffers now; they come back after coding.
      (shownHere, wantedHere, bounds) = ([], [], [])
      data = coder.encode(&out, minimumCodeSize: codeSize, tolerance: tolerance)
      (shownHere, wantedHere, bounds) = (tolerance.shown, tolerance.wanted, tolerance.bounds)
    }
    let needsTransparency = Self.show(
      out, width: w, height: h, at: (minX, minY), colors: colors, transparent: transparent, on: &shown,
      screenWidth: width)
    let image = GIFFile.Image(
      x: minX, y: minY, width: w, height: h, palette: nil,
      transparentIndex: needsTransparency ? palette.transparentIndex : nil, delay: 0)
    return (image, data)
  }

  /// The coded image `out` (`width` × `height` indices, at `origin`) on
  /// the screen `shown` (`screenWidth` wide): each pixel takes its index's
  /// colour in `colors`, but `transparent`, which keeps what is there.
  /// Returns whether any pixel is `transparent`. Eight pixels at a time
  /// (the colours looked up one by one from a table of all 256 indices),
  /// the rest one by one.
  static func show(
    _ out: [UInt8], width w: Int, height h: Int, at origin: (x: Int, y: Int), colors: [UInt32], transparent: UInt8,
    on shown: inout [UInt32], screenWidth: Int
  ) -> Bool {
    let table = GIFPalette.table(colors)
    var keeps = false
    let clear = SIMD8<UInt32>(repeating: UInt32(transparent))
    shown.withUnsafeMutableBufferPointer { shown in
      out.withUnsafeBufferPointer { out in
        table.withUnsafeBufferPointer { table in
          let (shown, out, table) = (shown.baseAddress!, out.baseAddress!, table.baseAddress!)
          for y in 0..<h {
            let screen = shown + (origin.y + y) * screenWidth + origin.x, row = out + y * w
            var x = 0
            while x + 8 <= w {
              let i = SIMD8<UInt32>(truncatingIfNeeded: UnsafeRawPointer(row + x).loadUnaligned(as: SIMD8<UInt8>.self))
              let kept = i .== clear
              if any(kept) {
                keeps = true
                if all(kept) {
                  x += 8
                  continue
                }
              }
              var colors = SIMD8<UInt32>(
                table[Int(i[0])], table[Int(i[1])], table[Int(i[2])], table[Int(i[3])],
                table[Int(i[4])], table[Int(i[5])], table[Int(i[6])], table[Int(i[7])])
              colors.replace(with: UnsafeRawPointer(screen + x).loadUnaligned(as: SIMD8<UInt32>.self), where: kept)
              UnsafeMutableRawPointer(screen + x).storeBytes(of: colors, as: SIMD8<UInt32>.self)
              x += 8
            }
            while x < w {
              let index = row[x]
              if index == transparent {
                keeps = true
              } else {
                screen[x] = table[Int(index)]
              }
              x += 1
            }
          }
        }
      }
    }
    return keeps
  }

  /// At most 1 / `refinedShare` of the frame's pixels may be refined: a
  /// flat screen lacks its colour in 0.1–0.5 % of them, a grey photo at
  /// rest (256 shades: few enough colours) in half, where the images would
  /// cost more bytes than the SSIM they gain (`GIFLocalPalettes.exactShare`).
  static let refinedShare = 64

  /// The images that make the screen show `pixels` (packed BGRA, the frame
  /// the screen stands for) exactly, at most `limit` of them, each in a
  /// table of at most `colors` colours (1…255: `maxColors` less the
  /// transparent entry, as every table of the file): none where it does
  /// already, or where the colours it lacks need more.
  ///
  /// A frame that rests on screen can be drawn in more than one image: the
  /// one the palette allows, for its first frame, then, one a frame, the
  /// pixels it left off their source colour in tables of exactly their
  /// colours (`colors` each and the transparent index; every other pixel
  /// transparent; the colours of the most pixels first). A flat screen has
  /// a few hundred colours, its antialiased edges' blends past the
  /// palette's 256: one or two more images make it exact for the rest of
  /// its rest. A photo lacks thousands, and gets none; nor does a screen
  /// that lacks its colours in more than 1 / `refinedShare` of its pixels.
  mutating func refinements(toward pixels: [UInt8], limit: Int, colors: Int, coder: inout GIFLZWEncoder) -> [(
    image: GIFFile.Image, data: [UInt8]
  )] {
    precondition((1...255).contains(colors))
    guard !isBlank, limit > 0 else { return [] }
    let width = width, count = width * height
    precondition(pixels.count >= 4 * count)
    // The missing colours and how many pixels lack each.
    var missing: [UInt32: Int] = [:]
    let fits = shown.withUnsafeBufferPointer { shown in
      pixels.withUnsafeBytes { bytes in
        for p in 0..<count {
          let color = bytes.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self) & 0xFF_FFFF
          guard color != shown[p] else { continue }
          if missing[color] == nil && missing.count == colors * limit { return false }
          missing[color, default: 0] += 1
        }
        return true
      }
    }
    guard fits, !missing.isEmpty, missing.values.reduce(0, +) * Self.refinedShare <= count else { return [] }
    let order = missing.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
    return stride(from: 0, to: order.count, by: colors).map { start in
      refinement(toward: pixels, colors: Array(order[start..<min(order.count, start + colors)]), coder: &coder)
    }
  }

  /// The image that draws the pixels of `pixels` whose source colour is one
  /// of `colors` (at most 255) and not on screen, in a table of `colors`.
  private mutating func refinement(toward pixels: [UInt8], colors: [UInt32], coder: inout GIFLZWEncoder) -> (
    image: GIFFile.Image, data: [UInt8]
  ) {
    let width = width
    var table: [UInt32: UInt8] = [:]
    for (i, color) in colors.enumerated() { table[color] = UInt8(i) }
    var minX = width, minY = height, maxX = -1, maxY = -1
    shown.withUnsafeBufferPointer { shown in
      pixels.withUnsafeBytes { bytes in
        for y in 0..<height {
          let row = y * width
          for x in 0..<width {
            let color = bytes.loadUnaligned(fromByteOffset: 4 * (row + x), as: UInt32.self) & 0xFF_FFFF
            guard color != shown[row + x], table[color] != nil else { continue }
            minX = min(minX, x)
            maxX = max(maxX, x)
            if minY > y { minY = y }
            maxY = y
          }
        }
      }
    }
    let w = maxX - minX + 1, h = maxY - minY + 1
    let transparent = UInt8(colors.count)
    var indices = [UInt8](repeating: transparent, count: w * h)
    shown.withUnsafeMutableBufferPointer { shown in
      pixels.withUnsafeBytes { bytes in
        for y in 0..<h {
          let row = (minY + y) * width + minX
          for x in 0..<w {
            let color = bytes.loadUnaligned(fromByteOffset: 4 * (row + x), as: UInt32.self) & 0xFF_FFFF
            guard color != shown[row + x], let index = table[color] else { continue }
            indices[y * w + x] = index
            shown[row + x] = color
          }
        }
      }
    }
    let data = coder.encode(
      &indices, minimumCodeSize: GIFLZWEncoder.minimumCodeSize(entries: colors.count + 1), tolerance: nil)
    let image = GIFFile.Image(
      x: minX, y: minY, width: w, height: h, palette: GIFPalette(packed: colors).rgb,
      transparentIndex: Int(transparent), delay: 0)
    return (image, data)
  }
}
