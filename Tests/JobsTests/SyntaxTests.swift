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
  }

  @Test static func editDistance() {
    func d(_ a: String, _ b: String) -> Int { Suggestion.distance(Array(a.unicodeScalars), Array(b.unicodeScalars)) }
    #expect(d("", "abc") == 3)
    #expect(d("background", "backgroud") == 1)
    #expect(d("transition", "tranistion") == 1)  // a swap is one edit
    #expect(d("kitten", "sitting") == 3)
    #expect(d("same", "same") == 0)
  }

  @Test static func suggestions() {
    #expect(Suggestion.closest(to: "backgroud", in: ["background", "views"]) == "background")
    #expect(Suggestion.closest(to: "EASEINEASEOUT", in: ["easeIn", "easeInEaseOut"]) == "easeInEaseOut")
    #expect(Suggestion.closest(to: "iphone15", in: DevicePreset.all.map(\.name)) == "iphone-15")
    #expect(Suggestion.closest(to: "to", in: ["id"]) == nil)
    #expect(Suggestion.closest(to: "colour", in: ["name", "canvas"]) == nil)
    #expect(Suggestion.hint(for: "x", in: ["a", "bb"]) == "; expected one of: a, bb")
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
