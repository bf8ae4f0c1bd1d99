import Geometry

/// A single line of text in a frame, as a `UILabel` with
/// `numberOfLines = 1` and tail truncation draws it.
///
/// The line box (the first font's ascender and descender) is centred
/// vertically in the frame, its baseline on a whole pixel; the line is
/// placed left, centred or right by `style.alignment`, starting on a whole
/// pixel; a line wider than the frame is cut and ends in "…".
public struct Label: Hashable, Sendable {
  public var text: String
  public var style: TextStyle

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
    let line = TextLayout(
      text, fonts: fonts, weight: style.weight, language: style.language, pixelSize: pixelSize, maxWidth: Double(width))
    guard !line.glyphs.isEmpty else { return bitmap }
    let ascent = primary.ascender * pixelSize, descent = primary.descender * pixelSize
    let baseline = ((Double(height) - ascent - descent) / 2 + ascent).rounded()
    let start: Double
    switch style.alignment {
    case .left: start = 0
    case .center: start = ((Double(width) - line.width) / 2).rounded()
    case .right: start = (Double(width) - line.width).rounded()
    case .natural: start = line.isRightToLeft ? (Double(width) - line.width).rounded() : 0
    }

    var coverage = [UInt8](repeating: 0, count: width * height)
    for g in line.glyphs where !g.isWhitespace {
      line.faces[g.font].draw(
        g.glyph, pixelSize: pixelSize, x: start + g.x, y: baseline + g.y, into: &coverage, width: width, height: height)
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
    return bitmap
  }

  /// The width of the text on one line, untruncated, in points.
  public func width(scale: Double, fonts: FontSet) -> Double {
    let fonts = fonts.using(style.font)
    guard !fonts.cascade(for: style.weight).isEmpty, scale > 0 else { return 0 }
    let line = TextLayout(
      text, fonts: fonts, weight: style.weight, language: style.language, pixelSize: style.size * scale,
      maxWidth: .infinity)
    return line.width / scale
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
