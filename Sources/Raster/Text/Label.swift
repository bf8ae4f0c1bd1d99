import Geometry

/// Text in a frame, as a `UILabel` with tail truncation draws it.
///
/// With `numberOfLines = 1` (`style.lines`), the line box (the largest
/// ascender and descender of the first font and every font the line draws
/// with, as UILabel's line grows to its tallest run: an emoji or a Thai word
/// among Latin text lowers the baseline) is centred vertically in the frame, its baseline
/// on a whole pixel; a line wider than the frame is cut and ends in "…".
/// Trailing white space hangs past the line's end, as TextKit hangs it: it
/// neither moves right-aligned or centred text nor makes a line too long.
/// Otherwise the text wraps (`TextBlock`) and its lines together are
/// centred. Each line is placed left, centred or right by
/// `style.alignment`, starting on a whole pixel; a line wider than the
/// frame (drawn whole: `truncates` off, or a wrapped line) starts at its
/// leading edge, and its end is clipped. Emoji from a colour font
/// keep their own colours; all other glyphs are coverage × `style.color`.
public struct Label: Hashable, Sendable {
  public var text: String
  public var style: TextStyle
  /// The paragraph direction of a one-line label: right to left (true),
  /// left to right (false), or its first strong character's (nil, rules
  /// P2–P3). A line of a wrapped paragraph takes the paragraph's
  /// (`wrapped(width:scale:fonts:)`), which its own first strong character
  /// need not be.
  public var rightToLeft: Bool? = nil
  /// The embedding levels of the text's scalars (as `TextLayout.clean`
  /// leaves them) as their whole paragraph resolves them, for a line of a
  /// wrapped paragraph (`wrapped(width:scale:fonts:)`): UAX #9 resolves
  /// levels per paragraph and reorders each line by them, so a date cut
  /// between lines of Arabic keeps its Arabic order. nil: the text's own.
  public var paragraphLevels: [Int8]? = nil
  /// Whether a one-line label too wide for its frame is cut and ends in
  /// "…" (UILabel's `byTruncatingTail`), or drawn whole and clipped
  /// (`byClipping`): a line of wrapped text (`wrapped(width:scale:fonts:)`),
  /// which its breaker chose to fit.
  public var truncates = true

  /// NSParagraphStyle's default tab stops: every 28 points.
  public static let tabInterval = 28.0

  public init(_ text: String, style: TextStyle = TextStyle()) {
    self.text = text
    self.style = style
  }

  /// The label drawn into a transparent bitmap of `size` points × `scale`
  /// (rounded, at least 1×1) — premultiplied colour × glyph coverage.
  public func render(size: Size, scale: Double, fonts: FontSet) -> Bitmap {
    let fonts = fonts.using(style.font)
    let width = Swift.max(1, Int((size.width * scale).rounded()))
    let height = Swift.max(1, Int((size.height * scale).rounded()))
    var bitmap = Bitmap(width: width, height: height)
    let cascade = fonts.cascade(for: style.weight)
    guard let primary = cascade.first, style.size > 0, style.color.alpha > 0, !text.isEmpty else { return bitmap }

    let pixelSize = style.size * scale
    // What fits is measured against the frame, as UILabel measures it in
    // points: a 43.1-pt frame at 3x holds 129.3 pixels of text, though its
    // bitmap has 129 columns (the compositor stretches the bitmap to the frame).
    let fitWidth = size.width * scale, fitHeight = size.height * scale
    var placed: [(line: TextLayout, baseline: Double)] = []
    if style.lines == 1 {
      // A label of its own widens its tabs to UILabel's tab stops, every
      // 28 pt; a line of wrapped text was broken with them as spaces.
      let tabs = paragraphLevels == nil
      // Trailing white space hangs (a line of wrapped text comes without it).
      let scalars = TextLayout.clean(text, keepingTabs: tabs)
      let line = TextLayout(
        tabs ? TextBlock.trimmed(scalars[...]) : scalars, fonts: fonts, weight: style.weight, language: style.language,
        pixelSize: pixelSize, maxWidth: truncates ? fitWidth : .infinity, rightToLeft: rightToLeft,
        levels: paragraphLevels, tabInterval: tabs ? Label.tabInterval * scale : nil)
      guard !line.glyphs.isEmpty else { return bitmap }
      // The line box centred, its gap split above and below (so it moves nothing).
      let box = TextBlock.lineBox(line, primary: primary, pixelSize: pixelSize)
      placed = [(line, ((Double(height) - box.ascent - box.descent) / 2 + box.ascent).rounded())]
    } else {
      let block = TextBlock(
        text, fonts: fonts, weight: style.weight, language: style.language, pixelSize: pixelSize,
        maxWidth: fitWidth, maxLines: style.lines, maxHeight: fitHeight)
      // The lines together centred in the frame, as UILabel centres its text rect.
      var top = (Double(height) - block.height) / 2
      for line in block.lines {
        placed.append((line.layout, (top + line.gap / 2 + line.ascent).rounded()))
        top += line.height
      }
    }

    var coverage = [UInt8](repeating: 0, count: width * height)
    var colorGlyphs: [(font: Font, glyph: UInt32, x: Double, y: Double)] = []
    for (line, baseline) in placed {
      var start: Double
      switch style.alignment {
      case .left: start = 0
      case .center: start = ((Double(width) - line.width) / 2).rounded()
      case .right: start = (Double(width) - line.width).rounded()
      case .natural: start = line.isRightToLeft || style.rightToLeftLayout ? (Double(width) - line.width).rounded() : 0
      }
      if line.width > fitWidth { start = line.isRightToLeft ? (Double(width) - line.width).rounded() : 0 }
      for g in line.glyphs where !g.isWhitespace {
        let face = line.faces[g.font]
        if face.isColor {
          colorGlyphs.append((face, g.glyph, start + g.x, baseline + g.y))
        } else {
          face.draw(g.glyph, pixelSize: pixelSize, x: start + g.x, y: baseline + g.y, into: &coverage, width: width, height: height)
        }
      }
    }
    let ink = style.color.premultipliedPixel
    bitmap.bytes.withUnsafeMutableBufferPointer { out in
      for i in 0..<coverage.count {
        let c = UInt32(coverage[i])
        if c == 0 { continue }
        @inline(__always) func scaled(_ v: UInt8) -> UInt8 { UInt8((UInt32(v) * c + 127) / 255) }
        out[i * 4] = scaled(ink.r)
        out[i * 4 + 1] = scaled(ink.g)
        out[i * 4 + 2] = scaled(ink.b)
        out[i * 4 + 3] = scaled(ink.a)
      }
    }
    if !colorGlyphs.isEmpty { Label.drawColorGlyphs(colorGlyphs, pixelSize: pixelSize, into: &bitmap) }
    return bitmap
  }

  /// Colour glyphs (emoji) in their own colours over the text: each
  /// strike bitmap scaled to the text size (area-averaged down to about its
  /// size, then the compositor's bilinear filter at its fractional place).
  static func drawColorGlyphs(
    _ glyphs: [(font: Font, glyph: UInt32, x: Double, y: Double)], pixelSize: Double, into bitmap: inout Bitmap
  ) {
    var root = Layer(frame: Rect(x: 0, y: 0, width: Double(bitmap.width), height: Double(bitmap.height)))
    for g in glyphs {
      guard let color = g.font.colorBitmap(g.glyph) else { continue }
      let s = pixelSize / color.pixelsPerEm
      let frame = Rect(
        x: g.x + color.left * s, y: g.y - color.top * s, width: Double(color.bitmap.width) * s,
        height: Double(color.bitmap.height) * s)
      var layer = Layer(frame: frame)
      layer.contents = ImageDownsampling.fitted(color.bitmap, gravity: .resize, in: frame.size, scale: 1)
      layer.contentsGravity = .resize
      root.sublayers.append(layer)
    }
    Compositor(scale: 1, threadCount: 1).render(root, into: &bitmap)
  }

  /// The width of the text on one line, untruncated, in points.
  public func width(scale: Double, fonts: FontSet) -> Double {
    let fonts = fonts.using(style.font)
    guard !fonts.cascade(for: style.weight).isEmpty, scale > 0 else { return 0 }
    let line = TextLayout(
      TextLayout.clean(text, keepingTabs: true), fonts: fonts, weight: style.weight, language: style.language,
      pixelSize: style.size * scale, maxWidth: .infinity, tabInterval: Label.tabInterval * scale)
    return line.width / scale
  }

  /// The lines the text wraps into at `width` points, as `TextBlock` breaks
  /// them (UAX #14 opportunities, greedy but for a last word pushed out not
  /// to stand alone, no limit on their number), each a
  /// one-line label of this style: its text in logical order without its
  /// trailing spaces, in its paragraph's direction and with its levels (as
  /// `TextBlock` orders its lines: an English caption's second line
  /// "العربية and English" stays left to right), drawn whole (`truncates`
  /// off); and whether a word wider than `width` had to be cut between
  /// clusters.
  public func wrapped(width: Double, scale: Double, fonts: FontSet) -> (lines: [Label], cutsWord: Bool) {
    var one = self
    one.style.lines = 1
    let fonts = fonts.using(style.font)
    guard !fonts.cascade(for: style.weight).isEmpty, scale > 0 else { return ([one], false) }
    let paragraphs = TextBlock.paragraphs(text)
    let wrapped = TextBlock.wrapped(
      paragraphs, fonts: fonts, weight: style.weight, language: style.language, pixelSize: style.size * scale,
      maxWidth: width * scale)
    let lines = wrapped.map { w in
      let shown = TextBlock.shown(paragraphs[w.paragraph], w.range, hyphen: w.hyphen)
      var text = String.UnicodeScalarView()
      text.append(contentsOf: shown.compactMap(Unicode.Scalar.init))
      var line = one
      line.text = String(text)
      line.rightToLeft = w.rightToLeft
      line.paragraphLevels = Array(w.levels[w.range.lowerBound..<w.range.lowerBound + shown.count])
      line.truncates = false
      return line
    }
    let cutsWord = wrapped.contains { !$0.endsAtBreak }
    return (lines, cutsWord)
  }

  /// A layer showing the label in `frame`: its `contents` is the label
  /// rendered at `scale`, so the compositor draws it like any image.
  public func layer(frame: Rect, scale: Double, fonts: FontSet) -> Layer {
    var layer = Layer(frame: frame)
    layer.contents = render(size: frame.size, scale: scale, fonts: fonts)
    layer.contentsScale = scale
    layer.contentsGravity = .resize
    return layer
  }
}
