import CFriBidi
import CHarfBuzz

/// A line of text shaped for drawing: the bidirectional algorithm (FriBidi)
/// gives embedding levels (the line's own, or its paragraph's for a line
/// of wrapped text); HarfBuzz gives each scalar its script; each scalar
/// gets a font (its script's fonts, the cascade, the fallback); maximal
/// runs of one level, script and font are shaped by HarfBuzz and laid out
/// in visual order (FriBidi's line reordering, rules L1–L2).
struct ShapedLine {
  /// The fonts `Glyph.font` indexes.
  var faces: [Font]
  /// Glyphs left to right, with pen positions from x = 0, in pixels.
  var glyphs: [TextLayout.Glyph]
  var width: Double
  /// The paragraph's base direction (its first strong character).
  var isRightToLeft: Bool

  /// Shapes `text` (already cleaned of control characters). A run always
  /// ends before `breakBefore`, so the ellipsis a truncated line ends in is
  /// shaped alone, as UILabel draws it. `levels`: the scalars' embedding
  /// levels as their paragraph resolves them (`paragraphLevels`), for a
  /// line of wrapped text, with the paragraph's direction `direction`
  /// (nil: left to right); nil resolves them on `text` alone. A tab
  /// (U+0009) is shaped as a space and, with `tabInterval` (pixels),
  /// widened to the next tab stop, every `tabInterval` from the line's
  /// leading end (the right end of a right-to-left paragraph), as
  /// NSParagraphStyle's default tab stops (every 28 pt) place text after
  /// a tab in a UILabel.
  init(
    _ text: [UInt32], fonts: FontSet, weight: FontWeight, language: String?, pixelSize: Double,
    breakBefore: Int? = nil, rightToLeft direction: Bool? = nil, levels paragraph: [Int8]? = nil,
    tabInterval: Double? = nil
  ) {
    let language = language.map { CantoneseScript.tag($0.replacingUnderscores) }
    let choice = FontChoice(fonts, weight: weight, language: language)
    faces = choice.faces
    glyphs = []
    width = 0
    isRightToLeft = false
    guard !text.isEmpty, !faces.isEmpty else { return }

    let (levels, visualOrder, rightToLeft) = ShapedLine.bidi(text, rightToLeft: direction, levels: paragraph)
    isRightToLeft = rightToLeft
    let tabs = text.indices.filter { text[$0] == 0x09 }
    let text = tabs.isEmpty ? text : text.map { $0 == 0x09 ? 0x20 : $0 }
    let scripts = ShapedLine.scripts(text)
    let fontIndices = choice.fonts(for: text, scripts: scripts)

    // Logical runs of one level, script and font.
    var runs: [Range<Int>] = []
    var start = 0
    for i in 1...text.count {
      if i == text.count || levels[i] != levels[start] || scripts[i].resolved != scripts[start].resolved
        || fontIndices[i] != fontIndices[start] || i == breakBefore
      {
        runs.append(start..<i)
        start = i
      }
    }
    // Visual order of runs: by where their first scalar lands on the line.
    var visualPosition = [Int](repeating: 0, count: text.count)
    for (v, logical) in visualOrder.enumerated() { visualPosition[logical] = v }
    let ordered = runs.sorted { visualPosition[$0.lowerBound] < visualPosition[$1.lowerBound] }

    var pen = 0.0
    for run in ordered {
      let font = fontIndices[run.lowerBound]
      let shaped = faces[font].shape(
        text, range: run, rightToLeft: levels[run.lowerBound] & 1 == 1, script: scripts[run.lowerBound].resolved,
        language: language, pixelSize: pixelSize)
      for g in shaped {
        // Only a space's own glyph is blank: a mark HarfBuzz clusters with
        // it (" \u{301}", as Unicode shows an accent alone) is drawn.
        let scalar = Unicode.Scalar(text[g.cluster]) ?? "\u{0}"
        let isWhitespace = scalar.properties.isWhitespace && faces[font].glyph(for: scalar) == g.glyph
        glyphs.append(
          TextLayout.Glyph(
            font: font, glyph: g.glyph, x: pen + g.offsetX, y: -g.offsetY, advance: g.advance, cluster: g.cluster,
            isWhitespace: isWhitespace))
        pen += g.advance
      }
    }
    width = pen
    if let tabInterval, tabInterval > 0, !tabs.isEmpty { widenTabs(Set(tabs), every: tabInterval) }
  }

  /// Each glyph of a tab in `tabs` (scalar indices) as wide as it takes to
  /// reach the next multiple of `interval` from the leading end, the glyphs
  /// after it moved on.
  private mutating func widenTabs(_ tabs: Set<Int>, every interval: Double) {
    // Each glyph's offset from its pen position, kept as the pens move.
    var pens: [Double] = []
    var pen = 0.0
    for g in glyphs {
      pens.append(pen)
      pen += g.advance
    }
    var fromLeading = 0.0
    for i in isRightToLeft ? Array(glyphs.indices.reversed()) : Array(glyphs.indices) {
      if tabs.contains(glyphs[i].cluster) {
        glyphs[i].advance = ((fromLeading / interval + 1e-9).rounded(.down) + 1) * interval - fromLeading
      }
      fromLeading += glyphs[i].advance
    }
    pen = 0
    for i in glyphs.indices {
      glyphs[i].x += pen - pens[i]
      pen += glyphs[i].advance
    }
    width = pen
  }

  /// Embedding levels after rule L1, the logical index at each visual
  /// position, and the paragraph direction: `rightToLeft`'s, or (nil) the
  /// first strong character's. With `levels` (the paragraph's, in the
  /// paragraph's direction `rightToLeft`), the line is only reordered.
  static func bidi(
    _ text: [UInt32], rightToLeft: Bool? = nil, levels given: [Int8]? = nil
  ) -> (levels: [Int8], visualOrder: [Int], rightToLeft: Bool) {
    let (paragraph, isRightToLeft) =
      given.flatMap { $0.count == text.count ? ($0, rightToLeft ?? false) : nil }
      ?? paragraphLevels(text, rightToLeft: rightToLeft)
    let n = Int32(text.count)
    var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: text.count)
    var levels = paragraph.map { FriBidiLevel($0) }
    var map = (0..<Int32(text.count)).map { $0 }
    fribidi_get_bidi_types(text, n, &types)
    guard
      fribidi_reorder_line(
        cfb_reorder_flags(), types, n, 0, isRightToLeft ? cfb_par_rtl() : cfb_par_ltr(), &levels, nil, &map) > 0
    else { return ([Int8](repeating: 0, count: text.count), Array(0..<text.count), false) }
    return (levels.map { Int8($0) }, map.map { Int($0) }, isRightToLeft)
  }

  /// A paragraph's embedding levels (rules P2–I2 of UAX #9, and L1 at its
  /// end) and its direction: `rightToLeft`'s, or (nil) the first strong
  /// character's. The lines it wraps into are reordered by these, each on
  /// its own (rules L1–L2): a date between Arabic words keeps its Arabic
  /// order ("12-05-2024") when a line breaks inside it.
  static func paragraphLevels(_ text: [UInt32], rightToLeft: Bool? = nil) -> (levels: [Int8], rightToLeft: Bool) {
    let n = Int32(text.count)
    var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: text.count)
    var brackets = [FriBidiBracketType](repeating: 0, count: text.count)
    var levels = [FriBidiLevel](repeating: 0, count: text.count)
    var base = rightToLeft.map { $0 ? cfb_par_rtl() : cfb_par_ltr() } ?? cfb_par_auto()
    fribidi_get_bidi_types(text, n, &types)
    fribidi_get_bracket_types(text, n, types, &brackets)
    guard !text.isEmpty, fribidi_get_par_embedding_levels_ex(types, brackets, n, &base, &levels) > 0 else {
      return ([Int8](repeating: rightToLeft == true ? 1 : 0, count: text.count), rightToLeft ?? false)
    }
    return (levels.map { Int8($0) }, cfb_par_is_rtl(base) != 0)
  }

  /// Each scalar's own script and the script it is shaped with: common and
  /// inherited characters (spaces, digits, marks) join their neighbours'.
  static func scripts(_ text: [UInt32]) -> [(own: hb_script_t, resolved: hb_script_t)] {
    let funcs = hb_unicode_funcs_get_default()
    let own = text.map { hb_unicode_script(funcs, $0) }
    func isNeutral(_ s: hb_script_t) -> Bool {
      s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
    }
    var current = own.first(where: { !isNeutral($0) }) ?? HB_SCRIPT_COMMON
    return own.map { s in
      if !isNeutral(s) { current = s }
      return (s, current)
    }
  }
}

/// Which font draws each scalar.
struct FontChoice {
  /// Every font that may draw: the cascade, the fallback, then the script fonts.
  var faces: [Font] = []
  /// Indices into `faces`: the cascade (the language's, where it has one)
  /// and fallback, in order.
  var general: [Int] = []
  /// Indices into `faces` per script code, first choice first.
  var byScript: [String: [Int]] = [:]
  /// Indices into `faces` of the colour fallback fonts, first for emoji.
  var emoji: [Int] = []

  init(_ fonts: FontSet, weight: FontWeight, language: String? = nil) {
    var indices: [ObjectIdentifier: Int] = [:]
    func index(_ font: Font) -> Int {
      if let i = indices[ObjectIdentifier(font)] { return i }
      faces.append(font)
      indices[ObjectIdentifier(font)] = faces.count - 1
      return faces.count - 1
    }
    let cascade = FontChoice.languageFonts(fonts.cascades, for: language) ?? fonts
    general = (cascade.cascade(for: weight) + fonts.fallback).map(index)
    emoji = fonts.fallback.filter(\.isColor).map(index)
    for (code, set) in fonts.scripts { byScript[code] = set.cascade(for: weight).map(index) }
    for (code, set) in FontChoice.languageFonts(fonts.languages, for: language) ?? [:] {
      byScript[code] = set.cascade(for: weight).map(index) + (byScript[code] ?? [])
    }
  }

  /// The fonts for `language`: the whole tag's, else the tag's without its
  /// last subtag, and so on (`zh-Hant-TW`, `zh-Hant`, `zh`).
  static func languageFonts<Fonts>(_ table: [String: Fonts], for language: String?) -> Fonts? {
    guard var tag = language?.replacingUnderscores else { return nil }
    while true {
      if let set = table[tag] { return set }
      guard let dash = tag.lastIndex(of: "-") else { return nil }
      tag = String(tag[..<dash])
    }
  }

  /// A font per scalar. Emoji take a colour font first. Marks and joiners
  /// stay with their base's font; spaces and punctuation stay with a script
  /// font they follow (so an Arabic phrase is one run), unless they are
  /// emoji; the rest takes the first font with a glyph. A mark that starts
  /// the text, with no base, takes the first font that has it and the
  /// dotted circle (U+25CC) HarfBuzz sets it on (`Font.shape`), as CoreText
  /// takes the circle from a fallback font where an app's font has none.
  func fonts(for text: [UInt32], scripts: [(own: hb_script_t, resolved: hb_script_t)]) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(text.count)
    let scriptFonts = Set(byScript.values.joined())
    let emojiFonts = Set(emoji)
    for (i, value) in text.enumerated() {
      let scalar = Unicode.Scalar(value) ?? " "
      // An emoji (shown as emoji by default, asked for, or part of an emoji
      // sequence) takes the colour font before any text font that has a
      // plain glyph for it, as iOS draws them with Apple Color Emoji; so
      // does an emoji joined by U+200D to one the colour font draws.
      let isEmoji = FontChoice.presentsAsEmoji(text, at: i)
        || (i >= 2 && text[i - 1] == FontChoice.zeroWidthJoiner && scalar.properties.isEmoji
          && emojiFonts.contains(result[i - 1]))
      if let previous = result.last {
        let attached = scripts[i].own == HB_SCRIPT_INHERITED || scalar.properties.isDefaultIgnorableCodePoint
          || [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)
        let follows = scripts[i].own == HB_SCRIPT_COMMON && scriptFonts.contains(previous) && !isEmoji
        if attached || follows, attached && scalar.properties.isDefaultIgnorableCodePoint
          || faces[previous].glyph(for: scalar) != nil
        {
          result.append(previous)
          continue
        }
      }
      let code = ShapedLine.code(of: scripts[i].resolved)
      let candidates = (isEmoji ? emoji : []) + (byScript[code] ?? []) + general
      if i == 0, FontChoice.isMark(scalar),
        let both = candidates.first(where: {
          faces[$0].glyph(for: scalar) != nil && faces[$0].glyph(for: FontChoice.dottedCircle) != nil
        })
      {
        result.append(both)
        continue
      }
      result.append(candidates.first { faces[$0].glyph(for: scalar) != nil } ?? general.first ?? 0)
    }
    return result
  }
}

extension FontChoice {
  static let zeroWidthJoiner: UInt32 = 0x200D
  /// U+25CC, what a mark with no base is drawn on.
  static let dottedCircle: Unicode.Scalar = "\u{25CC}"

  /// Whether `scalar` is a combining mark (nonspacing, spacing or enclosing).
  static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)
  }

  /// Whether the scalar at `i` starts an emoji presentation, as UTS #51
  /// reads an emoji sequence: it is shown as emoji by default
  /// (Emoji_Presentation); or it is an emoji followed by U+FE0F, by a skin
  /// tone (an emoji modifier, U+1F3FB–U+1F3FF, after a modifier base: ✌🏽),
  /// or by U+200D and another emoji (❤‍🔥); or it is the base of a keycap
  /// (0–9, # or * before U+20E3, with U+FE0F or without). Text-style
  /// emoji in these sequences are what the colour font draws as one glyph.
  static func presentsAsEmoji(_ text: [UInt32], at i: Int) -> Bool {
    guard let scalar = Unicode.Scalar(text[i]) else { return false }
    let properties = scalar.properties
    if properties.isEmojiPresentation { return true }
    guard properties.isEmoji, i + 1 < text.count else { return false }
    let next = text[i + 1]
    if next == 0xFE0F { return true }
    if (0x30...0x39).contains(text[i]) || text[i] == 0x23 || text[i] == 0x2A { return next == 0x20E3 }
    if properties.isEmojiModifierBase, (0x1F3FB...0x1F3FF).contains(next) { return true }
    return next == zeroWidthJoiner && i + 2 < text.count && Unicode.Scalar(text[i + 2])?.properties.isEmoji == true
  }
}

extension ShapedLine {
  /// The ISO 15924 code of a HarfBuzz script (`Arab`).
  static func code(of script: hb_script_t) -> String {
    let tag = hb_script_to_iso15924_tag(script)
    let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension String {
  /// `zh_TW` as BCP 47 writes it, `zh-TW`.
  fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
