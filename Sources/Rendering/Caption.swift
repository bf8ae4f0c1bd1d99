import Geometry
import Jobs
import Raster

/// A stage's caption: text wrapped to the caption area's width, each line
/// centred and drawn with the screens' FreeType text (`Label`), the lines
/// centred in the area as a block.
///
/// Lines break at spaces, and between any two CJK characters (which have
/// none); a word wider than the whole line is cut by the label with "…".
struct Caption {
  var style: TextStyle
  /// The caption area, in stage points.
  var frame: Rect
  var scale: Double
  var fonts: FontSet

  /// The lines `text` wraps to.
  func lines(_ text: String) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in Self.words(text) {
      let candidate = current.isEmpty ? word.trimmingLeadingSpaces : current + word
      if current.isEmpty || width(of: candidate) <= frame.width {
        current = candidate
      } else {
        lines.append(current)
        current = word.trimmingLeadingSpaces
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  func width(of text: String) -> Double {
    Label(text, style: style).width(scale: scale, fonts: fonts)
  }

  /// Pieces that may end a line: each keeps the spaces before it; each CJK character is one piece.
  static func words(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    for character in text {
      if character.isWhitespace {
        if !current.isEmpty, !(current.last?.isWhitespace ?? false) {
          words.append(current)
          current = ""
        }
        current.append(" ")
      } else if character.unicodeScalars.contains(where: isCJK) {
        if !current.trimmingLeadingSpaces.isEmpty { words.append(current); current = "" }
        current.append(character)
        words.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.trimmingLeadingSpaces.isEmpty { words.append(current) }
    return words
  }

  /// Han, kana, Hangul and CJK punctuation: lines may break between any two.
  static func isCJK(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF: return true
    default: return false
    }
  }

  /// A layer drawing `text` in the caption area at `opacity`.
  func layer(_ text: String, opacity: Double = 1) -> Layer {
    var root = Layer(frame: frame)
    root.opacity = opacity
    let lines = lines(text)
    let lineHeight = (style.size * 1.25).rounded(.up)
    let top = ((frame.height - lineHeight * Double(lines.count)) / 2 * scale).rounded() / scale
    for (i, line) in lines.enumerated() {
      let rect = Rect(x: 0, y: top + Double(i) * lineHeight, width: frame.width, height: lineHeight)
      root.sublayers.append(Label(line, style: style).layer(frame: rect, scale: scale, fonts: fonts))
    }
    return root
  }
}

extension String {
  fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
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
    let texts = [(style.text, "stage.caption", style.location)]
      + stage.captionChanges.map { ($0.text, "timeline[\($0.step)].caption", $0.location) }
    for (text, key, location) in texts {
      let lines = caption.lines(text)
      if lines.count > style.lines || lines.contains(where: { caption.width(of: $0) > layout.caption.width + 1e-6 }) {
        let widest = lines.contains { caption.width(of: $0) > layout.caption.width + 1e-6 }
        let need = widest ? "has a word wider than" : "needs \(lines.count) lines in"
        throw Diagnostic(
          location,
          "\(key): \("'\(text)'") \(need) the \(format(layout.caption.width))-point-wide caption "
            + "at \(format(style.style.size)) pt; it holds \(style.lines) "
            + "line\(style.lines == 1 ? "" : "s") (raise stage.caption.lines, shorten the text or use a smaller font)")
      }
    }
  }
}
