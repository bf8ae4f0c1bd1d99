// A job's own fonts: `font: { file: path.ttf }` opens that file (face 0;
// a variable font's weight axis set to 400, and to 700 for its bold, as a
// browser sets it for font-weight; a font of one weight is its own bold),
// `font: { family: "Noto Sans Arabic" }` asks
// fontconfig for the family's regular and bold files. Fontconfig always
// answers with its closest match, so a family it does not have is an
// error naming what it offered, not a silent substitute.

import CFontconfig
import Jobs
import Raster
import Synchronization

extension FontLibrary {
  /// The fonts `name` (a `FontName`) stands for, regular and bold.
  public static func named(_ name: String) throws(LoadError) -> FontSet {
    if let path = FontName.path(of: name) {
      let file = FontFile(path: path, package: FontFile.jobsOwn)
      var files: [String: FontData] = [:]
      let regular = try font(file, weight: 400, files: &files)
      guard regular.weightAxis != nil else { return FontSet(regular: [regular]) }
      return FontSet(regular: [regular], bold: [try font(file, weight: 700, files: &files)])
    }
    let family = FontName.familyName(of: name) ?? name
    let regular = try font(try match(family: family, bold: false))
    let bold = try font(try match(family: family, bold: true))
    return FontSet(regular: [regular], bold: [bold])
  }

  /// Fontconfig's file for `family` at regular or bold weight.
  static func match(family: String, bold: Bool) throws(LoadError) -> FontFile {
    let asked = FontFile(path: family, package: "\(FontFile.familyPackage) '\(family)'")
    let found: (file: String, index: Int, family: String)? = fontconfig.withLock { _ in
      guard let config = FcInitLoadConfigAndFonts() else { return nil }
      defer { FcConfigDestroy(config) }
      guard let pattern = FcPatternCreate() else { return nil }
      defer { FcPatternDestroy(pattern) }
      FcPatternAddString(pattern, cfc_family(), family)
      FcPatternAddInteger(pattern, cfc_weight(), bold ? cfc_weight_bold() : cfc_weight_regular())
      FcConfigSubstitute(config, pattern, FcMatchPattern)
      FcDefaultSubstitute(pattern)
      var result = FcResultNoMatch
      guard let match = FcFontMatch(config, pattern, &result) else { return nil }
      defer { FcPatternDestroy(match) }
      var file: UnsafeMutablePointer<FcChar8>?, name: UnsafeMutablePointer<FcChar8>?
      var index: Int32 = 0
      guard FcPatternGetString(match, cfc_file(), 0, &file) == FcResultMatch, let file,
        FcPatternGetString(match, cfc_family(), 0, &name) == FcResultMatch, let name
      else { return nil }
      _ = FcPatternGetInteger(match, cfc_index(), 0, &index)
      return (String(cString: file), Int(index), String(cString: name))
    }
    guard let found else { throw LoadError(file: asked, reason: "fontconfig has no fonts") }
    guard found.family.lowercased() == family.lowercased() else {
      throw LoadError(file: asked, reason: "fontconfig has no family '\(family)' (its closest is '\(found.family)')")
    }
    return FontFile(path: found.file, faceIndex: found.index, package: asked.package)
  }

  /// Fontconfig's configuration calls are not documented thread-safe.
  private static let fontconfig = Mutex(())
}
