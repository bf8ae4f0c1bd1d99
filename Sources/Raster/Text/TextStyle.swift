/// A font weight, as `UIFont.Weight` names them. Regular and medium draw
/// with the regular face, semibold and bold with the bold face.
public enum FontWeight: String, Hashable, Sendable, CaseIterable {
  case regular, medium, semibold, bold

  /// Whether the bold face draws this weight.
  public var usesBoldFace: Bool { self == .semibold || self == .bold }
}

/// Where a line sits across its frame (`NSTextAlignment`).
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
  case left, center, right
}

/// How a label draws its text: size in points, weight, colour, alignment.
public struct TextStyle: Hashable, Sendable {
  /// The font size in points (the em size; pixels = points × scale).
  public var size: Double
  public var weight: FontWeight
  public var color: Color
  public var alignment: TextAlignment

  /// UIKit's body text by default: 17 pt regular black, left-aligned.
  public init(size: Double = 17, weight: FontWeight = .regular, color: Color = .black, alignment: TextAlignment = .left) {
    self.size = size
    self.weight = weight
    self.color = color
    self.alignment = alignment
  }
}

/// The fonts labels draw with: a cascade per face weight. Each character
/// takes the first font of the cascade that has a glyph for it.
public struct FontSet: Sendable {
  /// Regular faces, first choice first (e.g. DejaVu Sans, then Noto Sans CJK SC).
  public var regular: [Font]
  /// Bold faces, first choice first; empty draws bold text with `regular`.
  public var bold: [Font]

  public init(regular: [Font], bold: [Font] = []) {
    self.regular = regular
    self.bold = bold
  }

  /// No fonts: labels draw nothing.
  public static let empty = FontSet(regular: [])

  /// The cascade that draws `weight`.
  public func cascade(for weight: FontWeight) -> [Font] {
    weight.usesBoldFace && !bold.isEmpty ? bold : regular
  }
}
