// Text: UILabel-style labels rendered with FreeType, shaped by HarfBuzz.
//
//   font bytes ─FontData─▶ Font (FreeType face + HarfBuzz font) ─▶ FontSet
//     (cascade per weight and language, fonts per script and per language,
//     fallback)
//   Label (text + TextStyle)
//     ─TextLayout: one line (FriBidi levels, HarfBuzz runs, "…")
//     ─TextBlock: `lines` ≠ 1 — ICU's UAX #14 breaks, a TextLayout per line
//   glyphs ─FreeType grayscale rasterizer─▶ coverage ─× colour─▶ Bitmap
//   emoji ─colour strike (CBDT)─▶ scaled by the compositor, over the text
//
// Raster does no I/O: callers read font files and hand over their bytes.
// Each scalar takes a font (its script's, the cascade, its language's CJK
// face among it, the fallback; emoji the colour font first), runs of one level,
// script and font are shaped by HarfBuzz, and runs are ordered by the
// bidirectional algorithm. Line breaking follows ICU's rules, with its
// dictionaries for Thai, Lao, Khmer and Burmese.
//
// Determinism: outlines are loaded unhinted, without embedded bitmaps and
// without the auto-hinter, at fractional positions; FreeType's rasterizer
// computes exact area coverage. The same text, style and scale give the
// same bytes on every run and every machine with the same fonts.

import CFreeType
import CHarfBuzz
import Synchronization

/// Why a font could not be opened.
public struct FontError: Error, Hashable, Sendable, CustomStringConvertible {
  /// FreeType's error code (`FT_Error`).
  public var code: Int32
  /// What was being done.
  public var message: String

  /// The message, with FreeType's code when FreeType raised the error (0
  /// is transvid's own check: FreeType was not asked) and its lack of
  /// memory said in words, as no fault of the font's.
  public var description: String {
    switch code {
    case 0: message
    case FontError.outOfMemory: "\(message): ran out of memory (FreeType error \(code))"
    default: "\(message) (FreeType error \(code))"
    }
  }

  /// FreeType's `FT_Err_Out_Of_Memory`.
  static let outOfMemory: Int32 = 0x40

  /// Whether FreeType could not get the memory it asked for.
  public var isOutOfMemory: Bool { code == FontError.outOfMemory }
}

/// The bytes of a font file, aligned and fixed in memory for the lifetime
/// of every face that reads them.
public final class FontData: Sendable {
  nonisolated(unsafe) let buffer: UnsafeMutableRawBufferPointer
  private let release: @Sendable (UnsafeMutableRawBufferPointer) -> Void

  public init(_ bytes: [UInt8]) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
    bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
    self.buffer = buffer
    release = { $0.deallocate() }
  }

  /// Bytes the caller placed in memory (e.g. a mapped file: only the pages
  /// the faces read are ever loaded), handed to `release` when no face
  /// reads them any more.
  public init(
    taking buffer: UnsafeMutableRawBufferPointer, release: @escaping @Sendable (UnsafeMutableRawBufferPointer) -> Void
  ) {
    self.buffer = buffer
    self.release = release
  }

  deinit { release(buffer) }
}

/// One face of a font file (TrueType, OpenType or a collection), opened from
/// its bytes. Thread-safe: FreeType calls are serialised by a lock.
public final class Font: Sendable {
  /// The family name the face declares (`DejaVu Sans`, `Noto Sans CJK SC`).
  public let familyName: String
  /// The style name (`Book`, `Bold`, `Regular`).
  public let styleName: String
  /// Design units per em.
  let unitsPerEm: Double
  /// Typographic ascender and descender (positive below the baseline), in ems.
  let ascender: Double, descender: Double
  /// The gap the face asks for between one line's descender and the next
  /// line's ascender (FreeType's `height` less both), in ems.
  let lineGap: Double
  let hasKerning: Bool
  /// Whether the face draws colour bitmaps (emoji) instead of outlines.
  let isColor: Bool
  /// A variable face's weight axis (`wght`) range, or nil for a face of
  /// one weight.
  public let weightAxis: ClosedRange<Double>?
  private let state: Mutex<FaceState>
  /// HarfBuzz's font on the same bytes, scaled to design units. Shaping
  /// only reads it (`hb_shape` on a font nobody changes is thread-safe).
  nonisolated(unsafe) private let shaper: OpaquePointer

  /// FreeType's objects. The bytes they read from stay put in `data`.
  struct FaceState {
    var library: FT_Library
    var face: FT_Face
    /// The size last set on the face, in pixels per em.
    var pixelSize: Double = 0
  }
  /// The font file's bytes, shared by every face opened from them.
  private let data: FontData

  /// Opens face `faceIndex` (0 for a single font; 2 is Simplified Chinese in
  /// Noto Sans CJK's collections) from the bytes of a font file.
  public convenience init(data: [UInt8], faceIndex: Int = 0, weight: Double? = nil) throws(FontError) {
    guard !data.isEmpty else { throw FontError(code: 0, message: "empty font data") }
    try self.init(data: FontData(data), faceIndex: faceIndex, weight: weight)
  }

  /// Opens face `faceIndex` of bytes other faces may share: a collection's
  /// faces (Noto Sans CJK's JP, KR, SC, TC) cost one copy of the file.
  /// `weight` (100 thin, 400 regular, 700 bold, 900 black: CSS's and
  /// OpenType's scale) sets a variable face's weight axis, for outlines and
  /// shaping alike; a face of one weight ignores it, and without it a
  /// variable face keeps its default instance.
  public init(data: FontData, faceIndex: Int = 0, weight: Double? = nil) throws(FontError) {
    guard data.buffer.count > 0 else { throw FontError(code: 0, message: "empty font data") }
    var library: FT_Library?
    var error = FT_Init_FreeType(&library)
    guard error == 0, let library else { throw FontError(code: error, message: "cannot start FreeType") }
    let buffer = data.buffer
    var face: FT_Face?
    error = FT_New_Memory_Face(
      library, buffer.baseAddress!.assumingMemoryBound(to: FT_Byte.self), FT_Long(buffer.count), FT_Long(faceIndex),
      &face)
    guard error == 0, let face else {
      FT_Done_FreeType(library)
      throw FontError(code: error, message: "cannot open face \(faceIndex) of the font data")
    }
    let rec = face.pointee
    // A colour bitmap face (emoji) is not scalable to FreeType, which then
    // leaves its metrics at zero: HarfBuzz reads them from the font's tables.
    let blob = hb_blob_create(
      buffer.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(buffer.count), HB_MEMORY_MODE_READONLY, nil, nil)
    let hbFace = hb_face_create(blob, UInt32(faceIndex))
    let color = cft_is_color_bitmap_face(face) != 0
    let upem = rec.units_per_EM > 0 ? Int32(rec.units_per_EM) : color ? Int32(hb_face_get_upem(hbFace)) : 0
    guard upem > 0 else {
      hb_face_destroy(hbFace)
      hb_blob_destroy(blob)
      FT_Done_Face(face)
      FT_Done_FreeType(library)
      throw FontError(code: 0, message: "face \(faceIndex) is not a scalable font")
    }
    shaper = hb_font_create(hbFace)
    hb_face_destroy(hbFace)
    hb_blob_destroy(blob)
    hb_font_set_scale(shaper, upem, upem)
    var range = [0.0, 0.0]
    if !color, cft_weight_axis(library, face, weight == nil ? 0 : 1, weight ?? 0, &range) != 0 {
      weightAxis = range[0]...range[1]
      if let weight {
        var variation = hb_variation_t(tag: 0x7767_6874, value: Float(Swift.min(Swift.max(weight, range[0]), range[1])))  // 'wght'
        hb_font_set_variations(shaper, &variation, 1)
      }
    } else {
      weightAxis = nil
    }
    self.data = data
    familyName = rec.family_name.map { String(cString: $0) } ?? ""
    styleName = rec.style_name.map { String(cString: $0) } ?? ""
    unitsPerEm = Double(upem)
    if rec.units_per_EM > 0 {
      ascender = Double(rec.ascender) / unitsPerEm
      descender = -Double(rec.descender) / unitsPerEm
      lineGap = Swift.max(0, Double(rec.height) / unitsPerEm - ascender - descender)
    } else {
      var extents = hb_font_extents_t()
      hb_font_get_h_extents(shaper, &extents)
      ascender = Double(extents.ascender) / unitsPerEm
      descender = -Double(extents.descender) / unitsPerEm
      lineGap = Swift.max(0, Double(extents.line_gap) / unitsPerEm)
    }
    hasKerning = cft_has_kerning(face) != 0
    isColor = color
    state = Mutex(FaceState(library: library, face: face))
  }

  deinit {
    hb_font_destroy(shaper)
    state.withLock { s in
      FT_Done_Face(s.face)
      FT_Done_FreeType(s.library)
    }
  }

  /// The glyph for `scalar`, or nil when the face has none.
  func glyph(for scalar: Unicode.Scalar) -> UInt32? {
    state.withLock { s in
      let index = FT_Get_Char_Index(s.face, FT_ULong(scalar.value))
      return index == 0 ? nil : UInt32(index)
    }
  }

  /// One glyph HarfBuzz chose: which, for which scalar (`cluster`, an index
  /// into the text), and how far it moves the pen, in pixels.
  struct ShapedGlyph {
    var glyph: UInt32
    var cluster: Int
    var advance: Double
    var offsetX: Double, offsetY: Double
  }

  /// Shapes `range` of `text` (Unicode scalar values) with this face: one
  /// script, one direction. The rest of `text` is context (Arabic joining
  /// across a font change). Glyphs come in visual order, left to right.
  ///
  /// Advances are FreeType's unhinted ones and HarfBuzz's adjustments to
  /// them (GPOS kerning) are scaled as FreeType scales kerning (26.6), so a
  /// Latin line lands on the same subpixel positions as FreeType alone with
  /// the face's `kern` pairs, whose values DejaVu's GPOS repeats.
  ///
  /// A run at the start of `text` is shaped as the beginning of the text
  /// (and one at its end as its end), so a combining mark with no base
  /// before it, "\u{301}" alone, is drawn on a dotted circle (U+25CC), as
  /// CoreText draws it; after other text the mark is that text's.
  func shape(
    _ text: [UInt32], range: Range<Int>, rightToLeft: Bool, script: hb_script_t, language: String?, pixelSize: Double
  ) -> [ShapedGlyph] {
    let buffer = hb_buffer_create()
    defer { hb_buffer_destroy(buffer) }
    hb_buffer_add_utf32(buffer, text, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
    var flags = HB_BUFFER_FLAG_DEFAULT.rawValue
    if range.lowerBound == 0 { flags |= HB_BUFFER_FLAG_BOT.rawValue }
    if range.upperBound == text.count { flags |= HB_BUFFER_FLAG_EOT.rawValue }
    hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: flags))
    hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
    hb_buffer_set_script(buffer, script)
    if let language { hb_buffer_set_language(buffer, hb_language_from_string(language, -1)) }
    hb_shape(shaper, buffer, nil, 0)
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, nil)
    else { return [] }
    let scale = pixelSize / unitsPerEm
    return state.withLock { s in
      Font.setSize(&s, pixelSize)
      let face = s.face, xScale = face.pointee.size.pointee.metrics.x_scale
      var result: [ShapedGlyph] = []
      result.reserveCapacity(Int(count))
      for i in 0..<Int(count) {
        let glyph = infos[i].codepoint, position = positions[i]
        var advance = 0.0
        if isColor {
          // A bitmap face has no outlines to scale: HarfBuzz's design-unit advance.
          advance = Double(position.x_advance) * scale
        } else if position.x_advance != 0 {
          var value: FT_Fixed = 0
          if FT_Get_Advance(face, FT_UInt(glyph), cft_load_flags(), &value) == 0 { advance = Double(value) / 65536 }
          let adjustment = FT_Long(position.x_advance - hb_font_get_glyph_h_advance(shaper, glyph))
          if adjustment != 0 { advance += Double(FT_MulFix(adjustment, xScale)) / 64 }
        }
        result.append(
          ShapedGlyph(
            glyph: glyph, cluster: Int(infos[i].cluster), advance: advance,
            offsetX: Double(position.x_offset) * scale, offsetY: Double(position.y_offset) * scale))
      }
      return result
    }
  }

  /// The advance of `glyph` at `pixelSize` pixels per em, unhinted, in pixels.
  func advance(of glyph: UInt32, pixelSize: Double) -> Double {
    state.withLock { s in
      Font.setSize(&s, pixelSize)
      var value: FT_Fixed = 0
      guard FT_Get_Advance(s.face, FT_UInt(glyph), cft_load_flags(), &value) == 0 else { return 0 }
      return Double(value) / 65536
    }
  }

  /// The kerning between two glyphs of this face, in pixels (0 without a `kern` table).
  func kerning(_ left: UInt32, _ right: UInt32, pixelSize: Double) -> Double {
    guard hasKerning else { return 0 }
    return state.withLock { s in
      Font.setSize(&s, pixelSize)
      var v = FT_Vector()
      guard FT_Get_Kerning(s.face, FT_UInt(left), FT_UInt(right), FT_UInt(FT_KERNING_UNFITTED.rawValue), &v) == 0
      else { return 0 }
      return Double(v.x) / 64
    }
  }

  /// Rasterizes `glyph` with its origin at (`x`, `y`) pixels (y down) and adds
  /// its coverage, saturating, into `mask` (`width × height`, one byte per pixel).
  func draw(
    _ glyph: UInt32, pixelSize: Double, x: Double, y: Double, into mask: inout [UInt8], width: Int, height: Int
  ) {
    state.withLock { s in
      Font.setSize(&s, pixelSize)
      guard FT_Load_Glyph(s.face, FT_UInt(glyph), cft_load_flags()) == 0 else { return }
      let slot = s.face.pointee.glyph!
      guard cft_is_outline(slot) != 0 else { return }
      // The fractional part of the origin moves the outline (1/64 px steps);
      // the whole part places the bitmap. FreeType's y axis points up.
      let ix = x.rounded(.down), iy = y.rounded(.down)
      let dx = FT_Pos(((x - ix) * 64).rounded()), dy = FT_Pos(((y - iy) * 64).rounded())
      FT_Outline_Translate(&slot.pointee.outline, dx, -dy)
      guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return }
      let bitmap = slot.pointee.bitmap
      guard let buffer = bitmap.buffer, bitmap.rows > 0, bitmap.width > 0 else { return }
      let left = Int(ix) + Int(slot.pointee.bitmap_left)
      let top = Int(iy) - Int(slot.pointee.bitmap_top)
      let pitch = Int(bitmap.pitch)
      mask.withUnsafeMutableBufferPointer { out in
        for row in 0..<Int(bitmap.rows) {
          let my = top + row
          guard my >= 0, my < height else { continue }
          let source = pitch >= 0 ? buffer + row * pitch : buffer + (Int(bitmap.rows) - 1 - row) * -pitch
          for column in 0..<Int(bitmap.width) {
            let mx = left + column
            guard mx >= 0, mx < width else { continue }
            let c = Int(source[column])
            if c == 0 { continue }
            let i = my * width + mx
            out[i] = UInt8(Swift.min(255, Int(out[i]) + c))
          }
        }
      }
    }
  }

  /// A colour glyph as the face stores it, from its largest strike: the
  /// bitmap (premultiplied RGBA), the strike's pixels per em, and the
  /// bitmap's top-left corner from the pen (right, up), in strike pixels.
  func colorBitmap(_ glyph: UInt32) -> (bitmap: Bitmap, pixelsPerEm: Double, left: Double, top: Double)? {
    state.withLock { s in
      let face = s.face
      let count = Int(face.pointee.num_fixed_sizes)
      guard isColor, count > 0, let sizes = face.pointee.available_sizes else { return nil }
      let strike = (0..<count).max { sizes[$0].y_ppem < sizes[$1].y_ppem }!
      s.pixelSize = 0
      guard FT_Select_Size(face, FT_Int(strike)) == 0,
        FT_Load_Glyph(face, FT_UInt(glyph), cft_color_load_flags()) == 0
      else { return nil }
      let slot = face.pointee.glyph!
      var bitmap = slot.pointee.bitmap
      guard cft_is_bgra(&bitmap) != 0, let buffer = bitmap.buffer, bitmap.rows > 0, bitmap.width > 0 else { return nil }
      let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
      var bytes = [UInt8](repeating: 0, count: width * height * 4)
      for row in 0..<height {
        let source = buffer + row * pitch
        for x in 0..<width {
          let i = (row * width + x) * 4
          bytes[i] = source[x * 4 + 2]
          bytes[i + 1] = source[x * 4 + 1]
          bytes[i + 2] = source[x * 4]
          bytes[i + 3] = source[x * 4 + 3]
        }
      }
      guard let image = Bitmap(width: width, height: height, bytes: bytes) else { return nil }
      return (
        image, Double(sizes[strike].y_ppem) / 64, Double(slot.pointee.bitmap_left), Double(slot.pointee.bitmap_top)
      )
    }
  }

  private static func setSize(_ s: inout FaceState, _ pixelSize: Double) {
    guard s.pixelSize != pixelSize else { return }
    // 26.6 pixels per em at 72 dpi: one point is one pixel.
    let size = FT_F26Dot6(Swift.max(1, (pixelSize * 64).rounded()))
    if FT_Set_Char_Size(s.face, 0, size, 72, 72) == 0 { s.pixelSize = pixelSize }
  }
}
