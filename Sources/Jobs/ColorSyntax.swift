// ColorSyntax: colours as job files write them.
//
//   #RGB, #RRGGBB, #RRGGBBAA   hex sRGB, straight alpha (case-insensitive)
//   systemBlue, label, …        UIKit's named colours, light-mode sRGB values
//                               (iOS 15+ palette: systemTeal is #30B0C7), or
//                               their dark-mode values in a dark appearance
//                               (on a sheet, the elevated level's backgrounds)
//
// A hex colour must be quoted in YAML ("#FF0000"): unquoted, `#` starts a
// comment and the value is empty; the decoder says so.

import Raster

enum ColorSyntax {
  /// The colour `text` names, or nil; `elevated`: on a sheet (its dark
  /// backgrounds lighter, `elevatedDarkNamed`).
  static func color(_ text: String, dark: Bool = false, elevated: Bool = false) -> Color? {
    if text.hasPrefix("#") { return hex(text.dropFirst()) }
    return (dark && elevated ? elevatedDarkNamed[text] : nil) ?? (dark ? darkNamed[text] : nil) ?? named[text]
  }

  /// The backgrounds' dark values at UIKit's elevated level
  /// (`UIUserInterfaceLevel.elevated`: what a sheet, a form sheet or a
  /// popover shows, so it stands out from the dark screen behind it); the
  /// other colours are the base level's. Light mode has no elevated values.
  static let elevatedDarkNamed: [String: Color] = [
    "systemBackground": rgb(28, 28, 30),
    "secondarySystemBackground": rgb(44, 44, 46),
    "tertiarySystemBackground": rgb(58, 58, 60),
    "systemGroupedBackground": rgb(28, 28, 30),
    "secondarySystemGroupedBackground": rgb(44, 44, 46),
    "tertiarySystemGroupedBackground": rgb(58, 58, 60),
  ]

  /// `#FF8000` for hex digits written without their `#` (`FF8000`, or
  /// `0xFF8000` as code writes them) that are a colour with it; else nil.
  /// A number of three decimal digits (`255`, a grey level or a channel)
  /// is no hex colour missing its `#`.
  static func hexWithoutHash(_ text: String) -> String? {
    let prefixed = text.hasPrefix("0x") || text.hasPrefix("0X")
    let digits = prefixed ? String(text.dropFirst(2)) : text
    guard !digits.hasPrefix("#"), color("#" + digits) != nil else { return nil }
    if !prefixed, digits.count == 3, digits.allSatisfy(\.isNumber) { return nil }
    return "#" + digits
  }

  /// What a colour value may be, for messages.
  static let expected = "a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue"

  private static func hex(_ digits: Substring) -> Color? {
    var values: [UInt8] = []
    for c in digits.unicodeScalars {
      guard let v = hexDigit(c) else { return nil }
      values.append(v)
    }
    switch values.count {
    case 3:
      return Color(red8: values[0] * 17, green8: values[1] * 17, blue8: values[2] * 17)
    case 6, 8:
      let bytes = stride(from: 0, to: values.count, by: 2).map { values[$0] * 16 + values[$0 + 1] }
      return Color(red8: bytes[0], green8: bytes[1], blue8: bytes[2], alpha8: bytes.count == 4 ? bytes[3] : 255)
    default:
      return nil
    }
  }

  private static func hexDigit(_ c: Unicode.Scalar) -> UInt8? {
    switch c {
    case "0"..."9": return UInt8(c.value - 0x30)
    case "a"..."f": return UInt8(c.value - 0x61 + 10)
    case "A"..."F": return UInt8(c.value - 0x41 + 10)
    default: return nil
    }
  }

  private static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8, alpha: Double = 1) -> Color {
    Color(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: alpha)
  }

  /// UIKit's named colours (UIColor class properties), light appearance.
  static let named: [String: Color] = [
    "systemRed": rgb(255, 59, 48),
    "systemOrange": rgb(255, 149, 0),
    "systemYellow": rgb(255, 204, 0),
    "systemGreen": rgb(52, 199, 89),
    "systemMint": rgb(0, 199, 190),
    "systemTeal": rgb(48, 176, 199),
    "systemCyan": rgb(50, 173, 230),
    "systemBlue": rgb(0, 122, 255),
    "systemIndigo": rgb(88, 86, 214),
    "systemPurple": rgb(175, 82, 222),
    "systemPink": rgb(255, 45, 85),
    "systemBrown": rgb(162, 132, 94),
    "systemGray": rgb(142, 142, 147),
    "systemGray2": rgb(174, 174, 178),
    "systemGray3": rgb(199, 199, 204),
    "systemGray4": rgb(209, 209, 214),
    "systemGray5": rgb(229, 229, 234),
    "systemGray6": rgb(242, 242, 247),
    "systemBackground": rgb(255, 255, 255),
    "secondarySystemBackground": rgb(242, 242, 247),
    "tertiarySystemBackground": rgb(255, 255, 255),
    "systemGroupedBackground": rgb(242, 242, 247),
    "secondarySystemGroupedBackground": rgb(255, 255, 255),
    "tertiarySystemGroupedBackground": rgb(242, 242, 247),
    "systemFill": rgb(120, 120, 128, alpha: 0.2),
    "secondarySystemFill": rgb(120, 120, 128, alpha: 0.16),
    "tertiarySystemFill": rgb(118, 118, 128, alpha: 0.12),
    "quaternarySystemFill": rgb(116, 116, 128, alpha: 0.08),
    "label": rgb(0, 0, 0),
    "secondaryLabel": rgb(60, 60, 67, alpha: 0.6),
    "tertiaryLabel": rgb(60, 60, 67, alpha: 0.3),
    "quaternaryLabel": rgb(60, 60, 67, alpha: 0.18),
    "placeholderText": rgb(60, 60, 67, alpha: 0.3),
    "separator": rgb(60, 60, 67, alpha: 0.29),
    "opaqueSeparator": rgb(198, 198, 200),
    "link": rgb(0, 122, 255),
    "black": .black,
    "white": .white,
    "clear": .clear,
    "transparent": .clear,
    "darkGray": Color(red: 1.0 / 3, green: 1.0 / 3, blue: 1.0 / 3),
    "lightGray": Color(red: 2.0 / 3, green: 2.0 / 3, blue: 2.0 / 3),
    "gray": Color(red: 0.5, green: 0.5, blue: 0.5),
    "red": rgb(255, 0, 0),
    "green": rgb(0, 255, 0),
    "blue": rgb(0, 0, 255),
    "cyan": rgb(0, 255, 255),
    "yellow": rgb(255, 255, 0),
    "magenta": rgb(255, 0, 255),
    // UIColor's documented components: orange 1, 0.5, 0; purple 0.5, 0, 0.5; brown 0.6, 0.4, 0.2.
    "orange": Color(red: 1, green: 0.5, blue: 0),
    "purple": Color(red: 0.5, green: 0, blue: 0.5),
    "brown": Color(red: 0.6, green: 0.4, blue: 0.2),
    "darkText": .black,
    "lightText": Color(red: 1, green: 1, blue: 1, alpha: 0.6),
  ]

  /// The dynamic colours' dark-appearance values (UIColor in
  /// `UITraitCollection(userInterfaceStyle: .dark)`, base level; the rest
  /// are the same in both appearances).
  static let darkNamed: [String: Color] = [
    "systemRed": rgb(255, 69, 58),
    "systemOrange": rgb(255, 159, 10),
    "systemYellow": rgb(255, 214, 10),
    "systemGreen": rgb(48, 209, 88),
    "systemMint": rgb(99, 230, 226),
    "systemTeal": rgb(64, 200, 224),
    "systemCyan": rgb(100, 210, 255),
    "systemBlue": rgb(10, 132, 255),
    "systemIndigo": rgb(94, 92, 230),
    "systemPurple": rgb(191, 90, 242),
    "systemPink": rgb(255, 55, 95),
    "systemBrown": rgb(172, 142, 104),
    "systemGray2": rgb(99, 99, 102),
    "systemGray3": rgb(72, 72, 74),
    "systemGray4": rgb(58, 58, 60),
    "systemGray5": rgb(44, 44, 46),
    "systemGray6": rgb(28, 28, 30),
    "systemBackground": rgb(0, 0, 0),
    "secondarySystemBackground": rgb(28, 28, 30),
    "tertiarySystemBackground": rgb(44, 44, 46),
    "systemGroupedBackground": rgb(0, 0, 0),
    "secondarySystemGroupedBackground": rgb(28, 28, 30),
    "tertiarySystemGroupedBackground": rgb(44, 44, 46),
    "systemFill": rgb(120, 120, 128, alpha: 0.36),
    "secondarySystemFill": rgb(120, 120, 128, alpha: 0.32),
    "tertiarySystemFill": rgb(118, 118, 128, alpha: 0.24),
    "quaternarySystemFill": rgb(118, 118, 128, alpha: 0.18),
    "label": rgb(255, 255, 255),
    "secondaryLabel": rgb(235, 235, 245, alpha: 0.6),
    "tertiaryLabel": rgb(235, 235, 245, alpha: 0.3),
    "quaternaryLabel": rgb(235, 235, 245, alpha: 0.16),
    "placeholderText": rgb(235, 235, 245, alpha: 0.3),
    "separator": rgb(84, 84, 88, alpha: 0.6),
    "opaqueSeparator": rgb(56, 56, 58),
    "link": rgb(9, 132, 255),
  ]

  /// The names, sorted, for suggestions.
  static let names: [String] = named.keys.sorted()
}
