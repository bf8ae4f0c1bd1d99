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
