import Raster

/// A tiny built-in 5×7 bitmap font for time labels: `0`–`9`, `.`, `s`, `:`
/// and space — all a contact sheet's labels ("1.25s") need.
///
/// transvid has no text shaping yet (FreeType is not wired in); this draws
/// crisp, honest pixel glyphs scaled by whole pixels rather than pretending to
/// be typography. Other characters are skipped (drawn as a space).
enum DigitFont {
  /// Glyph cell size in font pixels, without spacing.
  static let glyphWidth = 5, glyphHeight = 7

  /// Rows top to bottom; bit 4 is the leftmost pixel.
  private static let glyphs: [Character: [UInt8]] = [
    "0": [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],
    "1": [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
    "2": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],
    "3": [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110],
    "4": [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],
    "5": [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],
    "6": [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],
    "7": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],
    "8": [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],
    "9": [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],
    ".": [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100],
    ":": [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000],
    "s": [0b00000, 0b00000, 0b01110, 0b10000, 0b01110, 0b00001, 0b11110],
    " ": [0, 0, 0, 0, 0, 0, 0],
  ]

  /// Width in pixels of `text` at `scale` (one font pixel of space between glyphs).
  static func width(of text: String, scale: Int) -> Int {
    let n = text.count
    return n == 0 ? 0 : (n * (glyphWidth + 1) - 1) * scale
  }

  /// Height in pixels at `scale`.
  static func height(scale: Int) -> Int { glyphHeight * scale }

  /// Draws `text` with its top-left corner at (`x`, `y`), each font pixel a
  /// `scale × scale` square of `color`; clipped to the bitmap.
  static func draw(_ text: String, at x: Int, _ y: Int, scale: Int, color: Pixel, into bitmap: inout Bitmap) {
    var left = x
    for character in text {
      let rows = glyphs[character] ?? glyphs[" "]!
      for (row, bits) in rows.enumerated() {
        for column in 0..<glyphWidth where bits & (0b10000 >> UInt8(column)) != 0 {
          fill(
            x: left + column * scale, y: y + row * scale, size: scale, color: color, into: &bitmap)
        }
      }
      left += (glyphWidth + 1) * scale
    }
  }

  private static func fill(x: Int, y: Int, size: Int, color: Pixel, into bitmap: inout Bitmap) {
    for py in max(y, 0)..<min(y + size, bitmap.height) {
      for px in max(x, 0)..<min(x + size, bitmap.width) { bitmap[px, py] = color }
    }
  }
}
