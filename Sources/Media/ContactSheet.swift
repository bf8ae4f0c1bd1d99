import Raster

/// A contact sheet: frames of a clip in a grid, each with its time underneath,
/// for release notes and code review.
///
/// Layout, in pixels: the sheet is `width` wide; `columns` thumbnails of equal
/// width sit between gaps of `gap` pixels (also around the edges); each
/// thumbnail keeps the frames' aspect ratio and has a label strip below it
/// with its label centred, drawn by the compositor's own text (`Label`,
/// FreeType, anti-aliased) in the font the caller passes, at a size that
/// grows with the thumbnail (a twelfth of its width, 10…40 px) and is never
/// cut (`labelFit`). Rows fill
/// left to right, top to bottom; the last row may be short. Thumbnails are
/// resized with Lanczos (`Resampler`) from premultiplied pixels and drawn
/// over the background.
public struct ContactSheet: Sendable {
  /// A sheet is a PNG beside the poster (`<job>.sheet.png`) that a page links to.
  public static let fileType = OutputFileType(
    fileExtension: "sheet.png", mimeType: "image/png", presentation: .attachment)

  /// Width of the whole sheet in pixels.
  public var width: Int
  public var columns: Int
  /// Space between and around thumbnails, in pixels.
  public var gap: Int
  /// Sheet background: opaque, or transparent for frames with alpha, which
  /// then keep it on the sheet.
  public var background: Pixel
  /// Under each label (opaque): the label reads on any page a transparent
  /// sheet is laid on.
  public var labelBackground: Pixel
  /// Label colour (opaque).
  public var labelColor: Pixel

  public init(
    width: Int, columns: Int, gap: Int = 8,
    background: Pixel = ContactSheet.page,
    labelColor: Pixel = Pixel(r: 60, g: 60, b: 67, a: 255), labelBackground: Pixel = ContactSheet.page
  ) {
    self.width = width
    self.columns = columns
    self.gap = gap
    self.background = background
    self.labelColor = labelColor
    self.labelBackground = labelBackground
  }

  /// The page's grey (iOS's systemGroupedBackground).
  public static let page = Pixel(r: 242, g: 242, b: 247, a: 255)

  /// Where things go for `count` frames of `frameWidth × frameHeight`.
  public struct Layout: Hashable, Sendable {
    public var thumbnailWidth: Int, thumbnailHeight: Int
    /// The label's font size (em) in pixels, and the strip's height.
    public var labelSize: Double, labelHeight: Int
    public var rows: Int
    public var sheetWidth: Int, sheetHeight: Int
    public var gap: Int, columns: Int

    /// Top-left corner of thumbnail `index`.
    public func origin(of index: Int) -> (x: Int, y: Int) {
      let column = index % columns, row = index / columns
      return (gap + column * (thumbnailWidth + gap), gap + row * (thumbnailHeight + labelHeight + gap))
    }
  }

  /// The layout for `count` frames of the given size; throws when the sheet
  /// is too narrow for its columns.
  public func layout(count: Int, frameWidth: Int, frameHeight: Int) throws -> Layout {
    let thumbnailWidth = (width - gap * (columns + 1)) / max(columns, 1)
    guard count > 0, columns > 0, thumbnailWidth >= 8, frameWidth > 0, frameHeight > 0 else {
      throw MediaError(
        "lay out contact sheet",
        "\(columns) columns of \(count) frames do not fit in \(width) px (each needs 8 px, with \(gap) px between "
          + "them and at both edges: \(max(columns, 1) * 8 + (max(columns, 1) + 1) * gap) px in all)")
    }
    let thumbnailHeight = max(1, Int((Double(thumbnailWidth) * Double(frameHeight) / Double(frameWidth)).rounded()))
    let labelSize = Double(min(max(thumbnailWidth / 12, 10), 40))
    // A line of text needs about 1.2 em (DejaVu Sans: ascender 0.93 +
    // descender 0.24); the strip adds a margin above and below.
    let labelHeight = Int((labelSize * 1.25).rounded(.up)) + 2 * max(3, Int(labelSize / 5))
    let rows = (count + columns - 1) / columns
    return Layout(
      thumbnailWidth: thumbnailWidth, thumbnailHeight: thumbnailHeight, labelSize: labelSize,
      labelHeight: labelHeight, rows: rows, sheetWidth: width,
      sheetHeight: gap + rows * (thumbnailHeight + labelHeight + gap), gap: gap, columns: columns)
  }

  /// How a sheet's time labels are set: one size for all of them, and the
  /// box each is centred in under its thumbnail, whose label is never cut
  /// to "…" (a time read in part is a wrong time).
  public struct LabelFit: Hashable, Sendable {
    /// The font size (em) in pixels.
    public var size: Double
    /// The box's width, and how far left of its thumbnail it starts.
    public var width: Int, inset: Int
  }

  /// Neighbouring labels set in the gap between their thumbnails keep at
  /// least this many pixels between them (a quarter of the gap, at least
  /// 2): labels that meet read as one number ("0.00s0.10s").
  public var labelSpacing: Int { max(2, gap / 4) }

  /// The fit of `labels` in `layout`: at `layout.labelSize` in the
  /// thumbnail's width where the widest fits there; else in the width of
  /// the thumbnail and a gap (half a gap either side, the other halves
  /// being its neighbours'), the widest keeping `labelSpacing` from its
  /// neighbours; else, there, at the largest size in quarter pixels at
  /// which the widest does.
  public func labelFit(_ labels: [String], layout: Layout, fonts: FontSet) -> LabelFit {
    func widest(_ size: Double) -> Double {
      labels.map { Label($0, style: TextStyle(size: size)).width(scale: 1, fonts: fonts) }.max() ?? 0
    }
    let natural = widest(layout.labelSize)
    guard natural > Double(layout.thumbnailWidth) else {
      return LabelFit(size: layout.labelSize, width: layout.thumbnailWidth, inset: 0)
    }
    let inset = gap / 2, width = layout.thumbnailWidth + 2 * inset
    let room = Double(width - labelSpacing)
    var size = layout.labelSize
    if natural > room {
      size = (layout.labelSize * room / natural * 4).rounded(.down) / 4
      while size > 0.25, widest(size) > room { size -= 0.25 }
    }
    return LabelFit(size: size, width: width, inset: inset)
  }

  /// Draws the sheet. `frames` must all be the same size; `frame(i)` is asked
  /// once for each of the `count` frames, with `label(i)` drawn below it in
  /// `font` (`labelFit`).
  public func render(
    count: Int, frameWidth: Int, frameHeight: Int, font: Font, frame: (Int) throws -> Bitmap,
    label: (Int) -> String
  ) throws -> Bitmap {
    let layout = try layout(count: count, frameWidth: frameWidth, frameHeight: frameHeight)
    var sheet = Bitmap(width: layout.sheetWidth, height: layout.sheetHeight, fill: background)
    let resampler = try Resampler(
      from: frameWidth, frameHeight, to: layout.thumbnailWidth, layout.thumbnailHeight)
    let fonts = FontSet(regular: [font])
    let labels = (0..<count).map(label)
    let fit = labelFit(labels, layout: layout, fonts: fonts)
    let style = TextStyle(
      size: fit.size,
      color: Color(red8: labelColor.r, green8: labelColor.g, blue8: labelColor.b, alpha8: labelColor.a),
      alignment: .center)
    for i in 0..<count {
      let thumbnail = try resampler.resized(try frame(i))
      let (x, y) = layout.origin(of: i)
      draw(thumbnail, at: x, y, into: &sheet)
      let strip = Label(labels[i], style: style).render(
        size: .init(width: Double(fit.width), height: Double(layout.labelHeight)), scale: 1, fonts: fonts)
      if labelBackground != background {
        let under = Bitmap(width: fit.width, height: layout.labelHeight, fill: labelBackground)
        draw(under, at: x - fit.inset, y + layout.thumbnailHeight, into: &sheet)
      }
      draw(strip, at: x - fit.inset, y + layout.thumbnailHeight, into: &sheet)
    }
    return sheet
  }

  /// Source-over of premultiplied `image` onto `sheet` at (`x`, `y`).
  private func draw(_ image: Bitmap, at x: Int, _ y: Int, into sheet: inout Bitmap) {
    let sheetWidth = sheet.width
    image.bytes.withUnsafeBufferPointer { src in
      sheet.bytes.withUnsafeMutableBufferPointer { dst in
        for row in 0..<image.height {
          for column in 0..<image.width {
            let s = (row * image.width + column) * 4
            let d = ((y + row) * sheetWidth + x + column) * 4
            let inverse = 255 - UInt32(src[s + 3])
            for k in 0..<4 {
              dst[d + k] = UInt8(
                truncatingIfNeeded: UInt32(src[s + k]) + Alpha.divideBy255(UInt32(dst[d + k]) * inverse))
            }
          }
        }
      }
    }
  }
}

extension ContactSheet {
  /// The label for a time in seconds: two decimals and an `s` ("1.25s").
  public static func label(seconds: Double) -> String {
    let centiseconds = Int((seconds * 100).rounded())
    let fraction = centiseconds % 100
    return "\(centiseconds / 100).\(fraction < 10 ? "0" : "")\(fraction)s"
  }
}
