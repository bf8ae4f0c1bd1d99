import Geometry
import Jobs
import Raster

/// A stage's caption: text wrapped to the caption area's width, each line
/// centred and drawn with the screens' FreeType text (`Label`) in its
/// paragraph's direction, the lines centred in the area as a block.
///
/// Lines break where the screens' wrapped labels break them (`Label.wrapped`:
/// UAX #14 through ICU — spaces, between ideographs with kinsoku, Thai by
/// dictionary); a word wider than the whole line is cut between clusters
/// (and `CaptionFit` reports it).
struct Caption {
  var style: TextStyle
  /// The caption area, in stage points.
  var frame: Rect
  var scale: Double
  var fonts: FontSet

  /// The lines `text` wraps to, each a one-line label in its paragraph's direction.
  func lines(_ text: String) -> [Label] { wrapped(text).lines }

  func wrapped(_ text: String) -> (lines: [Label], cutsWord: Bool) {
    Label(text, style: style).wrapped(width: frame.width, scale: scale, fonts: fonts)
  }

  /// A layer drawing `text` in the caption area at `opacity`; its ink may
  /// pass the area by `reach` points above and below (the strip drawn).
  func layer(_ text: String, opacity: Double = 1, reach: Double = 0) -> Layer {
    var root = Layer(frame: frame)
    root.opacity = opacity
    let lines = lines(text)
    let lineHeight = (style.size * 1.25).rounded(.up)
    let top = ((frame.height - lineHeight * Double(lines.count)) / 2 * scale).rounded() / scale
    // Each line's label reaches past its line box to the ends of the strip
    // (half a line at least): Arabic's and Thai's marks and tails go
    // further from the baseline than the Latin font's box, Nastaliq's words
    // climb higher than its ascender, and a label draws only inside its
    // frame. Whole pixels, and the same on both sides, so the baseline
    // stays where the line box centres it.
    let half = (lineHeight / 2 * scale).rounded() / scale
    for (i, line) in lines.enumerated() {
      let lineTop = top + Double(i) * lineHeight
      let beyond = Swift.max(half, lineTop + reach, frame.height + reach - lineTop - lineHeight)
      let more = (beyond * scale).rounded(.up) / scale
      let rect = Rect(x: 0, y: lineTop - more, width: frame.width, height: lineHeight + 2 * more)
      root.sublayers.append(line.layer(frame: rect, scale: scale, fonts: fonts))
    }
    return root
  }
}

/// Checks that a job's captions fit: each wraps to at most the caption's `lines`.
public enum CaptionFit {
  /// Throws `FILE:LINE:COL: error: KEY: … needs N lines …` at the first caption
  /// (the stage's, then each step's) that wraps to more lines than the area holds.
  public static func check(_ spec: JobSpec, fonts: FontSet) throws(Diagnostic) {
    func format(_ v: Double) -> String { v.rounded() == v ? String(Int(v)) : String(v) }
    guard let stage = spec.stage, let style = stage.caption, !fonts.regular.isEmpty else { return }
    let layout = StageLayout(stage: stage, canvas: spec.canvas)
    let caption = Caption(style: style.style, frame: layout.caption, scale: Double(spec.canvas.scale), fonts: fonts)
    // A locale's job names its locale, as an image path's `{locale}` does:
    // its strings, fonts and line breaks are what may not fit.
    let locale = spec.locale.map { " (locale '\($0)')" } ?? ""
    let texts = [(style.text, "stage.caption\(locale)", style.location)]
      + stage.captionChanges.map { ($0.text, "timeline[\($0.step)].caption\(locale)", $0.location) }
    // A stage `size` narrower than the padding asks for leaves the device
    // as it is and narrows the caption: then the padding is what to change.
    let padded = stage.padding > 0 && layout.caption.width < StageLayout.deviceExtent(stage, canvas: spec.canvas).width
    let width =
      "\(format(layout.caption.width))-point-wide caption"
      + (padded ? " (the \(format(stage.size.width))-point-wide stage less stage.padding \(format(stage.padding)) on each side)" : "")
    for (text, key, location) in texts {
      let (lines, cutsWord) = caption.wrapped(text)
      if cutsWord {
        // More lines cannot help a word that does not fit one.
        throw Diagnostic(
          location,
          "\(key): \(Diagnostic.echoed(text)) has a word wider than the \(width) at \(format(style.style.size)) pt "
            + (padded
              ? "(use less stage.padding, a smaller font or a shorter word)"
              : "(shorten the word, use a smaller font or a wider stage)"))
      }
      if lines.count > style.lines {
        // Raising `lines` helps only up to its maximum.
        let raise = lines.count <= CaptionSpec.maximumLines ? "raise stage.caption.lines, " : ""
        throw Diagnostic(
          location,
          "\(key): \(Diagnostic.echoed(text)) needs \(lines.count) lines in the \(width) at \(format(style.style.size)) pt; "
            + "it holds \(style.lines) line\(style.lines == 1 ? "" : "s") "
            + (padded
              ? "(\(raise)use less stage.padding, shorten the text or use a smaller font)"
              : "(\(raise)shorten the text or use a smaller font)"))
      }
    }
  }
}
