// The fonts labels draw with: the faces scripts/bootstrap installs, and the
// error naming the package when one is missing.

import Raster
import Testing

@testable import Rendering

@Suite enum FontLibraryTests {
  @Test static func fontLibraryLoadsTheBootstrapFonts() throws {
    let fonts = try FontLibrary.system.get()
    #expect(fonts.regular.map(\.familyName) == ["DejaVu Sans", "Noto Sans CJK SC"])
    #expect(fonts.bold.map(\.styleName) == ["Bold", "Bold"])
    let missing = FontLibrary.FontFile(path: "/no/such/font.ttf", faceIndex: 0, package: "fonts-none")
    #expect(throws: FontLibrary.LoadError(file: missing, reason: "No such file or directory")) {
      try FontLibrary.font(missing)
    }
    #expect(
      FontLibrary.LoadError(file: missing, reason: "No such file or directory").description
        == "cannot load font '/no/such/font.ttf': No such file or directory (install fonts-none: scripts/bootstrap)")
  }
}
