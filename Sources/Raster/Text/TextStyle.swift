/// A font weight, as `UIFont.Weight` names them. Regular and medium draw
/// with the regular face, semibold and bold with the bold face.
public enum FontWeight: String, Hashable, Sendable, CaseIterable {
  case regular, medium, semibold, bold

  /// The weight on CSS's and OpenType's scale (`UIFont.Weight`'s medium is
  /// 500, semibold 600): a variable face's `wght` axis.
  public var value: Double {
    switch self {
    case .regular: 400
    case .medium: 500
    case .semibold: 600
    case .bold: 700
    }
  }
}

/// Where a line sits across its frame (`NSTextAlignment`). `natural` is
/// "the default alignment associated with the current localization of the
/// app" (Apple's documentation): the right edge in a right-to-left
/// interface (`TextStyle.rightToLeftLayout`: Arabic iOS right-aligns
/// "Wi-Fi" in Settings); otherwise the leading edge of the paragraph's
/// writing direction, left for English, right for Arabic or Hebrew (the
/// first strong character decides, rules P2–P3 of the bidirectional
/// algorithm, as `NSWritingDirection.natural`).
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
  case left, center, right, natural
}

/// How a label draws its text: size in points, weight, colour, alignment.
public struct TextStyle: Hashable, Sendable {
  /// The font size in points (the em size; pixels = points × scale).
  public var size: Double
  public var weight: FontWeight
  public var color: Color
  public var alignment: TextAlignment
  /// A font of the job's own, by its name in `FontSet.named`; nil draws
  /// with the system fonts alone.
  public var font: String?
  /// The BCP 47 language of the text (`ja`, `ar`), for shaping and the
  /// language's own glyph forms; nil lets the script decide.
  public var language: String?
  /// How many lines the text may wrap into (`numberOfLines`): 1, UIKit's
  /// default, draws one line ending in "…"; 0 as many as the frame holds.
  public var lines: Int
  /// Whether the interface the text is in is laid out right to left (its
  /// locale's direction, `UIApplication.userInterfaceLayoutDirection`),
  /// which puts `natural` alignment at the right edge.
  public var rightToLeftLayout = false


  /// UIKit's body text by default: 17 pt regular black, natural alignment (as `UILabel`).
  public init(
    size: Double = 17, weight: FontWeight = .regular, color: Color = .black, alignment: TextAlignment = .natural,
    font: String? = nil, language: String? = nil, lines: Int = 1
  ) {
    self.lines = lines
    self.font = font
    self.size = size
    self.weight = weight
    self.color = color
    self.alignment = alignment
    self.language = language
  }
}

/// The fonts labels draw with: a cascade per face weight (per language
/// too), fonts per script and a last fallback. A character takes, in
/// order, the first font that has a glyph for it among its script's fonts
/// (`scripts["Arab"]`: Noto Sans Arabic rather than DejaVu's simpler
/// Arabic), the cascade, then `fallback` (symbols, emoji).
public struct FontSet: Sendable {
  /// Regular faces, first choice first (e.g. DejaVu Sans, then Noto Sans CJK SC).
  public var regular: [Font]
  /// Bold faces, first choice first; empty draws bold text with `regular`.
  public var bold: [Font]
  /// Medium and semibold faces where a font has them (a variable font's
  /// instances, a family's own faces); empty draws medium with `regular`
  /// and semibold with `bold`, the nearest weights, as CSS's font matching
  /// picks them.
  public var medium: [Font] = []
  public var semibold: [Font] = []
  /// Fonts preferred for one script, by ISO 15924 code (`Arab`, `Hebr`,
  /// `Deva`, `Thai`).
  public var scripts: [String: FontSet]
  /// Fonts for what nothing above draws, any weight.
  public var fallback: [Font]
  /// Fonts per language, for some scripts, before `scripts`' own: Urdu's
  /// Arabic letters take Nastaliq, as iOS draws Urdu. Other text is
  /// unaffected.
  public var languages: [String: [String: FontSet]] = [:]
  /// The cascade per language, where the language orders it: in Chinese,
  /// Japanese and Korean the language's face of Noto Sans CJK comes before
  /// the cascade's own CJK face (`ja`: DejaVu Sans, Noto Sans CJK JP, then
  /// SC), as iOS's cascade list puts the language's CJK font first
  /// (`CTFontCopyDefaultCascadeListForLanguages`). A cascade serves only
  /// what the fonts before it lack: kanji, kana, Hangul, 、。「」 and
  /// fullwidth forms take the language's face, and the digits, spaces,
  /// Latin punctuation and "…" among them stay the system font's, as the
  /// system font draws every character it has.
  public var cascades: [String: FontSet] = [:]
  /// Fonts a job brings (`font: { file: … }`, a family name), by the name
  /// `TextStyle.font` gives them.
  public var named: [String: FontSet] = [:]

  public init(regular: [Font], bold: [Font] = [], scripts: [String: FontSet] = [:], fallback: [Font] = []) {
    self.regular = regular
    self.bold = bold
    self.scripts = scripts
    self.fallback = fallback
  }

  /// No fonts: labels draw nothing.
  public static let empty = FontSet(regular: [])

  /// These fonts with the named set first, before the script fonts and
  /// the languages' fonts and cascades too: the app's own font draws every
  /// character it has, a Japanese app's kanji in a `ja` demo as well.
  public func using(_ name: String?) -> FontSet {
    guard let name, let own = named[name] else { return self }
    var result = own.before(self)
    result.scripts = scripts.mapValues { own.before($0) }
    result.fallback = fallback
    result.languages = languages.mapValues { $0.mapValues { own.before($0) } }
    result.cascades = cascades.mapValues { own.before($0) }
    return result
  }

  /// Each weight's cascade: this set's faces, then `other`'s.
  func before(_ other: FontSet) -> FontSet {
    var result = FontSet(
      regular: cascade(for: .regular) + other.cascade(for: .regular),
      bold: cascade(for: .bold) + other.cascade(for: .bold))
    result.medium = cascade(for: .medium) + other.cascade(for: .medium)
    result.semibold = cascade(for: .semibold) + other.cascade(for: .semibold)
    return result
  }

  /// The cascade that draws `weight`.
  public func cascade(for weight: FontWeight) -> [Font] {
    switch weight {
    case .regular: regular
    case .medium: medium.isEmpty ? regular : medium
    case .semibold: semibold.isEmpty ? cascade(for: .bold) : semibold
    case .bold: bold.isEmpty ? regular : bold
    }
  }
}
