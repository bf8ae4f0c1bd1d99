/// How a job names a font of its own in `TextStyle.font`: `file:` and the
/// resolved path of `font: { file: … }`, or `family:` and the name of
/// `font: { family: … }`, which fontconfig finds. The renderer loads each
/// name once into `FontSet.named`.
public enum FontName {
  public static func file(_ resolvedPath: String) -> String { "file:" + resolvedPath }
  public static func family(_ name: String) -> String { "family:" + name }

  /// The font file's path, or nil for a family.
  public static func path(of name: String) -> String? {
    name.hasPrefix("file:") ? String(name.dropFirst(5)) : nil
  }

  /// The family name, or nil for a file.
  public static func familyName(of name: String) -> String? {
    name.hasPrefix("family:") ? String(name.dropFirst(7)) : nil
  }
}
