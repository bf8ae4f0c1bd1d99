// A job's own fonts: `font: { file: path.ttf }` opens that file (face 0;
// a variable font's weight axis set to 400, 500, 600 and 700 for regular,
// medium, semibold and bold, as a browser sets it for font-weight; a font
// of one weight draws every weight), `font: { family: "Noto Sans Arabic" }`
// asks fontconfig for the family's file at each weight (its nearest face:
// medium is the regular face and semibold the bold one in a family of
// two). Fontconfig always answers with its closest match, so a family it
// does not have is an error naming what it offered, not a silent
// substitute.

import CFontconfig
import Jobs
import Raster
import Synchronization

extension FontLibrary {
  /// The fonts `name` (a `FontName`) stands for, at each weight it has.
  public static func named(_ name: String) throws(LoadError) -> FontSet {
    var files: [String: FontData] = [:]
    if let path = FontName.path(of: name) {
      let file = FontFile(path: path, package: FontFile.jobsOwn)
      let regular = try font(file, weight: FontWeight.regular.value, files: &files)
      guard regular.weightAxis != nil else { return FontSet(regular: [regular]) }
      return try instances(of: file, regular: regular, files: &files)
    }
    let family = FontName.familyName(of: name) ?? name
    let regularFile = try match(family: family, weight: .regular)
    let regular = try font(regularFile, files: &files)
    if regular.weightAxis != nil {
      // A variable family: its weights are instances of the one face.
      let instance = try font(regularFile, weight: FontWeight.regular.value, files: &files)
      return try instances(of: regularFile, regular: instance, files: &files)
    }
    let boldFile = try match(family: family, weight: .bold)
    var set = FontSet(regular: [regular], bold: [try font(boldFile, files: &files)])
    // A family's own medium and semibold faces; fontconfig's nearest is
    // the regular or bold face when it has none.
    let medium = try match(family: family, weight: .medium), semibold = try match(family: family, weight: .semibold)
    if medium != regularFile { set.medium = [try font(medium, files: &files)] }
    if semibold != boldFile { set.semibold = [try font(semibold, files: &files)] }
    return set
  }

  /// A variable face at each weight: its weight axis set as CSS's
  /// font-weight sets it (400, 500, 600, 700).
  static func instances(of file: FontFile, regular: Font, files: inout [String: FontData]) throws(LoadError) -> FontSet {
    var set = FontSet(regular: [regular], bold: [try font(file, weight: FontWeight.bold.value, files: &files)])
    set.medium = [try font(file, weight: FontWeight.medium.value, files: &files)]
    set.semibold = [try font(file, weight: FontWeight.semibold.value, files: &files)]
    return set
  }

  /// Fontconfig's file for `family` at regular or bold weight.
  static func match(family: String, weight: FontWeight) throws(LoadError) -> FontFile {
    let asked = FontFile(path: family, package: "\(FontFile.familyPackage) '\(family)'")
    guard let found = withConfiguration({ config in best(family: family, weight: weight, in: config) }) else { throw LoadError(file: asked, reason: "fontconfig has no fonts") }
    guard found.isNamed(family) else {
      throw LoadError(file: asked, reason: "fontconfig has no family '\(family)' (its closest is '\(found.families[0])')")
    }
    return FontFile(path: found.file, faceIndex: found.index, package: asked.package)
  }

  /// The faces `named` may open for each of `families` (fontconfig's match at
  /// regular, medium, semibold and bold weight, in that order, each face
  /// once): what text in the family draws with, so the output cache keys a
  /// job by these files' bytes and `watch` watches them. A family fontconfig
  /// does not have has none (`named` throws for it). Fontconfig's
  /// configuration is read once for all of them, and again at each call, as
  /// `named` reads it: a face installed or a file replaced since is seen.
  public static func faces(ofFamilies families: [String]) -> [String: [FontFile]] {
    guard !families.isEmpty else { return [:] }
    let found = withConfiguration { config in
      families.map { family in
        FontWeight.allCases.compactMap { weight in
          best(family: family, weight: weight, in: config).flatMap { $0.isNamed(family) ? $0 : nil }
        }
      }
    }
    var faces: [String: [FontFile]] = [:]
    for (family, matches) in zip(families, found ?? families.map { _ in [] }) {
      var files: [FontFile] = []
      for match in matches {
        let file = FontFile(path: match.file, faceIndex: match.index, package: "\(FontFile.familyPackage) '\(family)'")
        if !files.contains(file) { files.append(file) }
      }
      faces[family] = files
    }
    return faces
  }

  /// `body` with fontconfig's configuration as it is on disk now, or nil
  /// when it cannot be loaded.
  private static func withConfiguration<T>(_ body: (OpaquePointer) -> T?) -> T? {
    fontconfig.withLock { _ in
      guard let config = FcInitLoadConfigAndFonts() else { return nil }
      defer { FcConfigDestroy(config) }
      return body(config)
    }
  }

  /// A face fontconfig matched: its file, its index there, and every
  /// family name it has, first the one fc-list shows first. A face may
  /// have several (a typographic family and the legacy one its weight or
  /// width is named in: "DejaVu Sans" and "DejaVu Sans Condensed"), and
  /// fontconfig matches a family by any of them, as Chromium accepts it.
  struct Match {
    var file: String
    var index: Int
    var families: [String]

    /// Whether `family` is one of its names (in any case, as fontconfig and Chromium compare them).
    func isNamed(_ family: String) -> Bool { families.contains { $0.lowercased() == family.lowercased() } }
  }

  /// Fontconfig's closest font to `family` at `weight` (another family's
  /// when it has none of this one), or nil.
  private static func best(family: String, weight: FontWeight, in config: OpaquePointer) -> Match? {
    guard let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    FcPatternAddString(pattern, cfc_family(), family)
    FcPatternAddInteger(pattern, cfc_weight(), cfc_weight_of(Int32(weight.value)))
    FcConfigSubstitute(config, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let match = FcFontMatch(config, pattern, &result) else { return nil }
    defer { FcPatternDestroy(match) }
    var file: UnsafeMutablePointer<FcChar8>?, name: UnsafeMutablePointer<FcChar8>?
    var index: Int32 = 0
    guard FcPatternGetString(match, cfc_file(), 0, &file) == FcResultMatch, let file else { return nil }
    var families: [String] = []
    while FcPatternGetString(match, cfc_family(), Int32(families.count), &name) == FcResultMatch, let name {
      families.append(String(cString: name))
    }
    guard !families.isEmpty else { return nil }
    _ = FcPatternGetInteger(match, cfc_index(), 0, &index)
    return Match(file: String(cString: file), index: Int(index), families: families)
  }

  /// Fontconfig's configuration calls are not documented thread-safe.
  private static let fontconfig = Mutex(())
}
