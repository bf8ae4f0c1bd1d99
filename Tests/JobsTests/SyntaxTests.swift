// The small value grammars: colours, curves, suggestions, device presets, names.

import Motion
import Raster
import Testing

@testable import Jobs

@Suite enum SyntaxTests {
  @Test static func hexColours() {
    #expect(ColorSyntax.color("#FF8000") == Color(red8: 255, green8: 128, blue8: 0))
    #expect(ColorSyntax.color("#ff800080") == Color(red8: 255, green8: 128, blue8: 0, alpha8: 128))
    #expect(ColorSyntax.color("#F80") == Color(red8: 255, green8: 136, blue8: 0))
    for bad in ["#", "#12345", "#1234567", "#GGHHII", "FF8000", "#+12345"] {
      #expect(ColorSyntax.color(bad) == nil, "\(bad)")
    }
  }

  @Test static func namedColours() {
    #expect(ColorSyntax.color("systemBlue") == Color(red8: 0, green8: 122, blue8: 255))
    #expect(ColorSyntax.color("systemGroupedBackground") == Color(red8: 242, green8: 242, blue8: 247))
    #expect(ColorSyntax.color("systemBackground") == .white)
    #expect(ColorSyntax.color("label") == .black)
    #expect(ColorSyntax.color("clear") == .clear)
    #expect(ColorSyntax.color("systemGray6") == Color(red8: 242, green8: 242, blue8: 247))
    #expect(ColorSyntax.color("secondaryLabel")?.alpha == 0.6)
    #expect(ColorSyntax.color("SystemBlue") == nil)
    // UIColor's fixed colours beside the system ones (its documented components).
    #expect(ColorSyntax.color("yellow") == Color(red8: 255, green8: 255, blue8: 0))
    #expect(ColorSyntax.color("cyan") == Color(red8: 0, green8: 255, blue8: 255))
    #expect(ColorSyntax.color("magenta") == Color(red8: 255, green8: 0, blue8: 255))
    #expect(ColorSyntax.color("orange") == Color(red: 1, green: 0.5, blue: 0))
    #expect(ColorSyntax.color("purple") == Color(red: 0.5, green: 0, blue: 0.5))
    #expect(ColorSyntax.color("brown") == Color(red: 0.6, green: 0.4, blue: 0.2))
    #expect(ColorSyntax.color("darkText") == .black)
    #expect(ColorSyntax.color("lightText") == Color(red: 1, green: 1, blue: 1, alpha: 0.6))
  }

  @Test static func editDistance() {
    func d(_ a: String, _ b: String) -> Int { Suggestion.distance(Array(a.unicodeScalars), Array(b.unicodeScalars)) }
    #expect(d("", "abc") == 3)
    #expect(d("background", "backgroud") == 1)
    #expect(d("transition", "tranistion") == 1)  // a swap is one edit
    #expect(d("kitten", "sitting") == 3)
    #expect(d("same", "same") == 0)
  }

  /// Optimal string alignment by the whole table, as the definition reads.
  static func fullDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    var t = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { t[i][0] = i }
    for j in 0...b.count { t[0][j] = j }
    for i in stride(from: 1, through: a.count, by: 1) {
      for j in stride(from: 1, through: b.count, by: 1) {
        t[i][j] = min(t[i - 1][j] + 1, t[i][j - 1] + 1, t[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { t[i][j] = min(t[i][j], t[i - 2][j - 2] + 1) }
      }
    }
    return t[a.count][b.count]
  }

  /// The table filled within `limit` of its diagonal gives the distance, or
  /// `limit + 1` past it: every pair of words of up to 5 letters from "abc".
  @Test static func aBoundedDistanceIsTheDistanceUpToItsLimit() {
    var words: [[Unicode.Scalar]] = [[]]
    for length in 1...5 {
      words += words.filter { $0.count == length - 1 }.flatMap { word in "abc".unicodeScalars.map { word + [$0] } }
    }
    for a in words {
      for b in words {
        let full = fullDistance(a, b)
        for limit in [0, 1, 2, 3, .max] {
          let expected = limit == .max ? full : min(full, limit + 1)
          if Suggestion.distance(a, b, atMost: limit) != expected {
            Issue.record("'\(String(String.UnicodeScalarView(a)))' to '\(String(String.UnicodeScalarView(b)))' at most \(limit)")
          }
        }
      }
    }
  }

  @Test static func suggestions() {
    #expect(Suggestion.closest(to: "backgroud", in: ["background", "views"]) == "background")
    #expect(Suggestion.closest(to: "EASEINEASEOUT", in: ["easeIn", "easeInEaseOut"]) == "easeInEaseOut")
    #expect(Suggestion.closest(to: "iphone15", in: DevicePreset.all.map(\.name)) == "iphone-15")
    #expect(Suggestion.closest(to: "to", in: ["id"]) == nil)
    #expect(Suggestion.closest(to: "colour", in: ["name", "canvas"]) == nil)
    #expect(Suggestion.hint(for: "x", in: ["a", "bb"]) == "; expected one of: a, bb")
  }

  /// The job's own names may be long and many: a hint echoes each cut to 40
  /// characters and lists 20 of them, and comparing a long word with long
  /// names reads only what could be within two edits.
  @Test static func suggestionsAmongLongAndManyNames() {
    let ids = (10000..<10200).map { "\($0)" + String(repeating: "v", count: 995) }
    let shown = ids.prefix(20).map { $0.prefix(40) + "…" }.joined(separator: ", ")
    #expect(Suggestion.hint(for: String(repeating: "x", count: 250_000), in: ids) == "; expected one of: \(shown) and 180 more")
    #expect(Suggestion.hint(for: "10007" + String(repeating: "v", count: 994), in: ids) == "; did you mean '\(ids[7].prefix(40))…'?")
    #expect(Suggestion.closest(to: "v" + String(repeating: "v", count: 999), in: ids) == nil)
    #expect(Suggestion.hint(for: "x", in: ["a\"b"]) == "; expected one of: a\\\"b")
  }

  @Test static func devicePresets() throws {
    let expected: [(String, Double, Double, Int)] = [
      ("iphone-se", 375, 667, 2), ("iphone-15", 393, 852, 3), ("iphone-15-pro", 393, 852, 3),
      ("iphone-15-pro-max", 430, 932, 3), ("ipad-11", 834, 1194, 2),
    ]
    for (name, width, height, scale) in expected {
      let preset = try #require(DevicePreset.named(name))
      #expect(preset.size.width == width && preset.size.height == height && preset.scale == scale, "\(name)")
    }
  }

  @Test static func safeNames() {
    for good in ["demo", "magic-move_2.v1", "A"] { #expect(JobDecoder.isSafeName(good), "\(good)") }
    for bad in ["", ".hidden", "a/b", "a b", "café", "..", String(repeating: "a", count: 256)] {
      #expect(!JobDecoder.isSafeName(bad), "\(bad)")
    }
    #expect(JobDecoder.defaultName(file: "jobs/magic-move.cfg") == "magic-move")
    #expect(JobDecoder.defaultName(file: "a.b/c") == "c")
    #expect(JobDecoder.defaultName(file: "x.tar.cfg") == "x.tar")
    #expect(JobDecoder.defaultName(file: ".cfg") == ".cfg")
  }
}
