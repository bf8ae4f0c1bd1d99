import CImageQuant

/// A GIF colour table: up to 255 opaque colours, and one more index,
/// `transparentIndex`, that shows what is already on screen.
struct GIFPalette: Equatable {
  /// Opaque colours, packed B, G, R (the byte order of the BGRA frames).
  var colors: [(b: UInt8, g: UInt8, r: UInt8)]

  static func == (a: GIFPalette, b: GIFPalette) -> Bool {
    a.colors.count == b.colors.count
      && zip(a.colors, b.colors).allSatisfy { $0.b == $1.b && $0.g == $1.g && $0.r == $1.r }
  }

  /// The index after the colours.
  var transparentIndex: Int { colors.count }

  /// The opaque colours as B | G << 8 | R << 16.
  var packed: [UInt32] { colors.map { UInt32($0.b) | UInt32($0.g) << 8 | UInt32($0.r) << 16 } }

  /// `packed` colours (at most 256) followed by zeros to 256 entries: a
  /// table any palette index reads without a check.
  static func table(_ packed: [UInt32]) -> [UInt32] {
    var table = [UInt32](repeating: 0, count: 256)
    table.replaceSubrange(0..<min(256, packed.count), with: packed.prefix(256))
    return table
  }

  /// A table of `packed` colours (B | G << 8 | R << 16, at most 255).
  init(packed: [UInt32]) {
    colors = packed.map {
      (UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0 >> 16))
    }
  }

  init(colors: [(b: UInt8, g: UInt8, r: UInt8)]) {
    self.colors = colors
  }

  /// The colour table as GIF stores it: R, G, B triples, then the
  /// transparent entry (black).
  var rgb: [UInt8] {
    colors.flatMap { [$0.r, $0.g, $0.b] } + [0, 0, 0]
  }

  /// 256 packed BGRA entries for libavfilter's `paletteuse`: the colours,
  /// copies of colour 0 after them and a transparent entry last (alpha 0,
  /// never picked for an opaque pixel).
  var bgra256: [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 256 * 4)
    for i in 0..<256 {
      let c = i < colors.count ? colors[i] : colors[0]
      bytes[4 * i] = c.b
      bytes[4 * i + 1] = c.g
      bytes[4 * i + 2] = c.r
      bytes[4 * i + 3] = i == 255 ? 0 : 255
    }
    return bytes
  }
}

/// libimagequant (the quantizer of pngquant and gifski) choosing a palette
/// from a histogram of the pixels that count: the whole first frame and the
/// pixels that changed after it, so moving content gets the colours rather
/// than a static backdrop. Pixels that do not count go in as fully
/// transparent, which libimagequant merges into the one transparent entry
/// reserved for them.
///
/// Colours that cover large flat areas (at least `flatShare` of the counted
/// pixels: UI backgrounds, black, white) go in as fixed colours, kept exactly:
/// libimagequant's clusters otherwise average them with their neighbours
/// (#010000 for black), an error SSIM punishes hardest in flat areas.
final class PaletteQuantizer {
  /// The share of the counted pixels that makes a colour a fixed one.
  static let flatShare = 0.005
  /// At most this many fixed colours.
  static let maxFlatColors = 32
  /// Every `flatStride`-th counted pixel is tallied for the flat colours.
  static let flatStride = 4
  /// The threads of libimagequant's k-means (`cimagequant_set_openmp_threads`):
  /// two on every machine, whatever its cores and `-j`, so the palette is
  /// the same everywhere. A GIF's palette is chosen between its passes,
  /// when no other work of the job is ready to run.
  static let threads: Int32 = 2
  private let attributes: OpaquePointer
  private let histogram: OpaquePointer
  private let width: Int, height: Int
  private var rgba: [UInt8]
  private(set) var isEmpty = true
  /// Tally of exact colours (0xRRGGBB) of every `flatStride`-th counted pixel.
  private(set) var tally: [UInt32: Int] = [:]
  private(set) var tallied = 0

  /// A palette of at most `maxColors` entries, the transparent one included;
  /// with a `targetQuality` (libimagequant's 0…100 scale, as pngquant's
  /// `--quality`), of the fewest colours that reach it.
  init(maxColors: Int, width: Int, height: Int, targetQuality: Int? = nil) throws(MediaError) {
    guard let attributes = liq_attr_create() else {
      throw MediaError("choose a GIF palette", "libimagequant: no memory")
    }
    self.attributes = attributes
    liq_set_max_colors(attributes, Int32(maxColors))
    if let targetQuality { liq_set_quality(attributes, 0, Int32(targetQuality)) }
    guard let histogram = liq_histogram_create(attributes) else {
      liq_attr_destroy(attributes)
      throw MediaError("choose a GIF palette", "libimagequant: no memory")
    }
    self.histogram = histogram
    liq_histogram_add_fixed_color(histogram, liq_color(r: 0, g: 0, b: 0, a: 0), 0)
    self.width = width
    self.height = height
    rgba = [UInt8](repeating: 0, count: width * height * 4)
  }

  deinit {
    liq_histogram_destroy(histogram)
    liq_attr_destroy(attributes)
  }

  /// Adds the pixels of `bgra` (packed, opaque) for which `counts` is true.
  func add(_ bgra: [UInt8], counts: (Int) -> Bool) throws(MediaError) {
    try addImage(bgra) { convert(bgra, tallying: true, counts: counts) }
  }

  /// Adds the pixels of `bgra` whose colour differs from `previous`
  /// (`colorDiffers`): `add(_:counts:)` with that test, eight pixels at a
  /// time where all or none of them changed.
  func add(_ bgra: [UInt8], changedFrom previous: [UInt8]) throws(MediaError) {
    try addImage(bgra) { convert(bgra, changedFrom: previous) }
  }

  /// Whether images are cropped to the rows that count (see `addImage`);
  /// off only to test that cropping changes nothing.
  var cropsRows = true
  /// Whether each image's importance map is drawn here (`ImportanceMap`)
  /// rather than by libimagequant; off only to test that it changes nothing.
  var drawsImportanceMaps = true
  /// The importance map of the image being added, and `ImportanceMap`'s
  /// scratch memory (made with the first map).
  private var map: [UInt8] = []
  private var scratch: [UInt8] = []
  /// libimagequant's quantisation error (mean squared, its own scale) of
  /// the last palette: a function of every weight in the histogram.
  private(set) var quantizationError: Double?
  /// Whether the histogram holds the transparent colour: an image added
  /// had a pixel that does not count.
  private var hasTransparent = false
  /// Rows of the images added that were left out by cropping.
  private(set) var rowsLeftOut = 0
  /// Rows of transparent pixels kept above and below the rows that count:
  /// more than libimagequant's contrast maps reach (a 3×3 contrast, two
  /// 3×3 maxima, a blur of radius 3, a maximum and three minima: 10 rows).
  static let cropMargin = 16
  /// libimagequant draws no contrast maps for an image of more than a
  /// third of this many pixels (`LIQ_HIGH_MEMORY_LIMIT`).
  static let contrastMapLimit = 1 << 26

  /// Adds the image `converting` writes into `rgba` (the pixels that
  /// count opaque, the others transparent; it returns how many counted and
  /// their first and last rows).
  ///
  /// The image goes to libimagequant cropped to the rows from `cropMargin`
  /// above its first counted pixel to as far below its last, with the same
  /// histogram as the whole image: libimagequant weighs a pixel by contrast
  /// maps that reach 10 pixels (libimagequant 2.17, Debian 12's; a test
  /// holds the palettes equal), and the rows left out are transparent, so
  /// the counted pixels' weights are the whole image's; the left-out
  /// pixels' weight on the transparent colour and their rows (which set
  /// the cap on any colour's weight) are added as colours
  /// (`liq_histogram_add_colors`). This is done once the histogram holds
  /// the transparent colour (its place among the colours depends on when it
  /// first came) and while it takes colours (not posterized). On a clip
  /// whose changes cover few rows, most of libimagequant's work is skipped.
  private func addImage(
    _ bgra: [UInt8], converting: () -> (counted: Int, firstRow: Int, lastRow: Int)
  ) throws(MediaError) {
    let count = width * height
    precondition(bgra.count >= 4 * count)
    let (n, firstRow, lastRow) = converting()
    guard lastRow >= 0 else { return }
    isEmpty = false
    var rows = 0..<height
    if cropsRows && hasTransparent && !isPosterized && 3 * count <= Self.contrastMapLimit {
      let cropped = max(0, firstRow - Self.cropMargin)..<min(height, lastRow + 1 + Self.cropMargin)
      if cropped.count < height, try addLeftOut(rows: height - cropped.count) {
        rows = cropped
        rowsLeftOut += height - cropped.count
      }
    }
    if n < count { hasTransparent = true }
    // libimagequant draws the map at speeds up to 7 (the default is 4).
    let drawsMap =
      drawsImportanceMaps && liq_get_speed(attributes) <= 7 && ImportanceMap.applies(width: width, height: rows.count)
    if drawsMap && scratch.isEmpty {
      map = [UInt8](repeating: 0, count: width * height)
      scratch = [UInt8](repeating: 0, count: ImportanceMap.scratchCount(width: width, height: height))
    }
    let result = rgba.withUnsafeBytes { bytes -> liq_error in
      let pixels = bytes.baseAddress! + 4 * width * rows.lowerBound
      guard let image = liq_image_create_rgba(attributes, pixels, Int32(width), Int32(rows.count), 0)
      else { return LIQ_OUT_OF_MEMORY }
      defer { liq_image_destroy(image) }
      if drawsMap {
        let set = map.withUnsafeMutableBufferPointer { map in
          scratch.withUnsafeMutableBytes { scratch in
            ImportanceMap.compute(
              pixels.assumingMemoryBound(to: UInt8.self), width: width, height: rows.count, into: map.baseAddress!,
              scratch: scratch.baseAddress!)
            return liq_image_set_importance_map(image, map.baseAddress!, width * rows.count, LIQ_COPY_PIXELS)
          }
        }
        guard set == LIQ_OK else { return set }
      }
      return liq_histogram_add_image(histogram, attributes, image)
    }
    guard result == LIQ_OK else { throw MediaError("choose a GIF palette", "libimagequant error \(result.rawValue)") }
  }

  /// The flat-colour tally of counted pixels, a run of one colour at a
  /// time: on flat UI the sampled pixels repeat one colour for long
  /// stretches, and each Dictionary update hashes its key.
  private struct TallyRun {
    var color: UInt32 = 0, length = 0
  }

  /// Counted pixel number `n` (BGRA word `bgra`) into the tally when it is
  /// a sampled one (every `flatStride`-th).
  @inline(__always) private func tally(_ bgra: UInt32, number n: Int, _ run: inout TallyRun) {
    guard n % Self.flatStride == 0 else { return }
    let b = bgra & 0xFF, g = (bgra >> 8) & 0xFF, r = (bgra >> 16) & 0xFF
    let c = r << 16 | g << 8 | b
    if c != run.color && run.length > 0 {
      tally[run.color, default: 0] += run.length
      run.length = 0
    }
    run.color = c
    run.length += 1
    tallied += 1
  }

  /// `bgra` into `rgba`: the pixels for which `counts` is true opaque in
  /// RGBA order (and tallied when `tallying`), the others' alpha 0 (their
  /// colour bytes are left as they were). The pixels counted, and the
  /// first and last rows holding one (−1: none).
  private func convert(_ bgra: [UInt8], tallying: Bool, counts: (Int) -> Bool) -> (Int, Int, Int) {
    var n = 0
    var firstRow = height, lastRow = -1
    var run = TallyRun()
    bgra.withUnsafeBytes { source in
      rgba.withUnsafeMutableBytes { target in
        for y in 0..<height {
          var counted = false
          for p in (y * width)..<((y + 1) * width) {
            let word = source.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self)
            if put(word, at: p, counts: counts(p), into: target, tallying: tallying, number: &n, &run) { counted = true }
          }
          if counted {
            if firstRow == height { firstRow = y }
            lastRow = y
          }
        }
      }
    }
    if run.length > 0 { tally[run.color, default: 0] += run.length }
    return (n, firstRow, lastRow)
  }

  /// Pixel `p` (BGRA word `word`) into `target` (`rgba`'s bytes): opaque
  /// in RGBA order, and counted pixel `n` of the tally when `tallying`, if
  /// it `counts`; else its alpha 0. Whether it counted.
  @inline(__always) private func put(
    _ word: UInt32, at p: Int, counts: Bool, into target: UnsafeMutableRawBufferPointer, tallying: Bool = true,
    number n: inout Int, _ run: inout TallyRun
  ) -> Bool {
    guard counts else {
      target[4 * p + 3] = 0
      return false
    }
    if tallying { tally(word, number: n, &run) }
    n += 1
    target.storeBytes(of: Self.opaqueRGBA(word), toByteOffset: 4 * p, as: UInt32.self)
    return true
  }

  /// A BGRA word (little-endian) as an opaque RGBA word.
  @inline(__always) static func opaqueRGBA(_ bgra: UInt32) -> UInt32 {
    (bgra & 0x0000_FF00) | (bgra & 0xFF) << 16 | (bgra >> 16) & 0xFF | 0xFF00_0000
  }

  /// `convert(_:tallying: true, counts:)` with `colorDiffers(bgra, previous, p)`:
  /// eight pixels compared at once, and written at once where all or none
  /// of them changed (the same bytes and tally).
  private func convert(_ bgra: [UInt8], changedFrom previous: [UInt8]) -> (Int, Int, Int) {
    precondition(previous.count >= 4 * width * height)
    var n = 0
    var firstRow = height, lastRow = -1
    var run = TallyRun()
    let colour = SIMD8<UInt32>(repeating: 0x00FF_FFFF), zero = SIMD8<UInt32>()
    bgra.withUnsafeBytes { source in
      previous.withUnsafeBytes { before in
        rgba.withUnsafeMutableBytes { target in
          for y in 0..<height {
            var counted = false
            var p = y * width
            let end = p + width
            while p + 8 <= end {
              let now = source.loadUnaligned(fromByteOffset: 4 * p, as: SIMD8<UInt32>.self)
              let was = before.loadUnaligned(fromByteOffset: 4 * p, as: SIMD8<UInt32>.self)
              let changed = ((now ^ was) & colour) .!= zero
              if !any(changed) {
                let old = target.loadUnaligned(fromByteOffset: 4 * p, as: SIMD8<UInt32>.self)
                target.storeBytes(of: old & colour, toByteOffset: 4 * p, as: SIMD8<UInt32>.self)
              } else if all(changed) {
                for k in 0..<8 { tally(now[k], number: n &+ k, &run) }
                n &+= 8
                let rgba =
                  (now & 0x0000_FF00) | (now & 0xFF) &<< 16 | (now &>> 16) & 0xFF | SIMD8(repeating: 0xFF00_0000)
                target.storeBytes(of: rgba, toByteOffset: 4 * p, as: SIMD8<UInt32>.self)
                counted = true
              } else {
                for k in 0..<8 where put(now[k], at: p + k, counts: changed[k], into: target, number: &n, &run) {
                  counted = true
                }
              }
              p += 8
            }
            while p < end {
              let word = source.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self)
              if put(word, at: p, counts: colorDiffers(source, before, p), into: target, number: &n, &run) {
                counted = true
              }
              p += 1
            }
            if counted {
              if firstRow == height { firstRow = y }
              lastRow = y
            }
          }
        }
      }
    }
    if run.length > 0 { tally[run.color, default: 0] += run.length }
    return (n, firstRow, lastRow)
  }

  /// What `rows` left-out rows of transparent pixels add to the histogram:
  /// the transparent colour's weight (2000 a pixel in libimagequant) and
  /// the rows, one entry of no weight each. False if the histogram takes no
  /// colours (it is posterized): the image then goes in whole.
  private func addLeftOut(rows: Int) throws(MediaError) -> Bool {
    let clear = liq_color(r: 0, g: 0, b: 0, a: 0)
    var entries = [liq_histogram_entry](repeating: liq_histogram_entry(color: clear, count: 0), count: rows)
    entries[0].count = UInt32(truncatingIfNeeded: 2000 &* rows &* width)
    let result = liq_histogram_add_colors(histogram, attributes, entries, Int32(rows), 0)
    if result == LIQ_UNSUPPORTED {
      isPosterized = true
      return false
    }
    guard result == LIQ_OK else { throw MediaError("choose a GIF palette", "libimagequant error \(result.rawValue)") }
    return true
  }

  /// The most weight `add(_:times:)` gives one colour over all its calls:
  /// libimagequant sums a colour's weights in 32 unsigned bits, and this
  /// leaves the other half to `add(_:counts:)` (a colour over 330 000
  /// pixels reaches it in 13 frames of rest).
  static let restWeightLimit = 1 << 30
  /// The weight `add(_:times:)` has given each colour (0xRRGGBB).
  private var restWeight: [UInt32: Int] = [:]
  /// Whether libimagequant posterized the histogram: the images added had
  /// more colours in all than it keeps exactly (about 1.7 million), so it
  /// started again, from the image that overflowed, with colours of fewer
  /// bits, and from then on takes no exact colours
  /// (`liq_histogram_add_colors` fails with LIQ_UNSUPPORTED).
  private var isPosterized = false
  /// A posterized histogram takes a rest as the whole frame added this many
  /// times at most (each add costs as much as a frame's).
  static let posterizedRestLimit = 16

  /// Adds every pixel of `bgra` (packed, opaque) `times` more times: a
  /// frame that stays on screen for `times` frames after it first showed.
  /// The exact colours go in with their counts (`liq_histogram_add_colors`),
  /// so the cost does not grow with `times`; each pixel weighs what
  /// `add` gives a pixel of full importance (255), up to `restWeightLimit`
  /// per colour. Once the histogram is posterized, the frame is added as an
  /// image `min(times, posterizedRestLimit)` times.
  func add(_ bgra: [UInt8], times: Int) throws(MediaError) {
    let count = width * height
    precondition(bgra.count >= 4 * count)
    guard times > 0, count > 0 else { return }
    var packed = [UInt32](unsafeUninitializedCapacity: count) { out, n in
      bgra.withUnsafeBytes { bytes in
        for p in 0..<count { out[p] = bytes.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self) & 0x00FF_FFFF }
      }
      n = count
    }
    packed.sort()
    var entries: [liq_histogram_entry] = []
    var start = 0
    while start < count {
      let c = packed[start]
      var end = start + 1
      while end < count && packed[end] == c { end += 1 }
      let n = end - start
      start = end
      // The flat-colour tally samples every `flatStride`-th pixel.
      let sampled = n * times / Self.flatStride
      if sampled > 0 {
        tally[c, default: 0] += sampled
        tallied += sampled
      }
      if isPosterized { continue }
      let weight = min(n * 255 * times, Self.restWeightLimit - restWeight[c, default: 0])
      guard weight > 0 else { continue }
      restWeight[c, default: 0] += weight
      entries.append(
        liq_histogram_entry(
          color: liq_color(r: UInt8(c >> 16), g: UInt8((c >> 8) & 0xFF), b: UInt8(c & 0xFF), a: 255),
          count: UInt32(weight)))
    }
    if isPosterized { return try addPosterized(bgra, times: times) }
    // Every colour at its limit: nothing to add (libimagequant refuses none).
    guard !entries.isEmpty else { return }
    isEmpty = false
    let result = liq_histogram_add_colors(histogram, attributes, entries, Int32(entries.count), 0)
    if result == LIQ_UNSUPPORTED {
      isPosterized = true
      return try addPosterized(bgra, times: times)
    }
    guard result == LIQ_OK else { throw MediaError("choose a GIF palette", "libimagequant error \(result.rawValue)") }
  }

  /// A rest added to a posterized histogram: the whole frame as an image,
  /// `min(times, posterizedRestLimit)` times (the flat-colour tally has it).
  private func addPosterized(_ bgra: [UInt8], times: Int) throws(MediaError) {
    for _ in 0..<min(times, Self.posterizedRestLimit) {
      try addImage(bgra) { convert(bgra, tallying: false) { _ in true } }
    }
  }

  /// The palette of everything added (the transparent entry left out).
  func palette() throws(MediaError) -> GIFPalette {
    let flat = tally.filter { Double($0.value) >= Self.flatShare * Double(tallied) }
      .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Self.maxFlatColors)
    for (c, _) in flat {
      liq_histogram_add_fixed_color(
        histogram, liq_color(r: UInt8(c >> 16), g: UInt8((c >> 8) & 0xFF), b: UInt8(c & 0xFF), a: 255), 0)
    }
    var result: OpaquePointer?
    let threads = cimagequant_set_openmp_threads(Self.threads)
    defer { if threads > 0 { _ = cimagequant_set_openmp_threads(threads) } }
    let error = liq_histogram_quantize(histogram, attributes, &result)
    guard error == LIQ_OK, let result else {
      throw MediaError("choose a GIF palette", "libimagequant error \(error.rawValue)")
    }
    defer { liq_result_destroy(result) }
    quantizationError = liq_get_quantization_error(result)
    guard let palette = liq_get_palette(result) else {
      throw MediaError("choose a GIF palette", "libimagequant returned no palette")
    }
    var colors: [(b: UInt8, g: UInt8, r: UInt8)] = []
    withUnsafeBytes(of: palette.pointee.entries) { raw in
      let entries = raw.bindMemory(to: liq_color.self)
      for i in 0..<Int(palette.pointee.count) where entries[i].a >= 128 {
        colors.append((b: entries[i].b, g: entries[i].g, r: entries[i].r))
      }
    }
    if colors.isEmpty { colors = [(b: 0, g: 0, r: 0)] }
    if colors.count > 255 { colors.removeLast(colors.count - 255) }
    return GIFPalette(colors: colors)
  }
}
