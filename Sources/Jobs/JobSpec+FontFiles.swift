// The font files a job names (`font: { file: … }` on views and the stage's
// caption): the runner checks them against its path rule (`PathPolicy`) and
// hashes them into the job's cache key (`OutputCache`); messages name them
// as the job writes them. The families it names (`font: { family: … }`),
// whose files fontconfig finds, are hashed and watched alike.

extension JobSpec {
  /// Each font file with the key that names it and where it is written, in
  /// the file's order (a file named twice is listed twice).
  public var fontFiles: [(path: String, key: String, location: SourceLocation)] {
    var found: [(path: String, key: String, location: SourceLocation)] = []
    for screen in screens {
      for (i, view) in screen.views.enumerated() {
        if let path = view.textStyle.font.flatMap(FontName.path(of:)) {
          found.append((path, "screens.\(screen.name).views[\(i)].font.file", view.fontLocation ?? view.location))
        }
      }
    }
    if let caption = stage?.caption, let path = caption.style.font.flatMap(FontName.path(of:)) {
      found.append((path, "stage.caption.font.file", caption.fontLocation ?? caption.location))
    }
    return found
  }

  /// The font families the job's own text names (`FontName.family`), each
  /// once, sorted.
  public var fontFamilies: [String] {
    var names = screens.flatMap { $0.views.compactMap(\.textStyle.font) }
    if let font = stage?.caption?.style.font { names.append(font) }
    return Set(names.compactMap(FontName.familyName(of:))).sorted()
  }

  /// A path the job writes (a font file, its String Catalog) resolved as the
  /// decoder resolves it: relative to the job's folder (`writtenPath` undoes it).
  public func resolvedPath(of written: String) -> String { JobDecoder.resolve(written, relativeTo: file) }

  /// A font file's resolved path as the job file writes it (relative to the
  /// job's folder, as messages name images).
  public func writtenPath(of resolved: String) -> String {
    guard let slash = file.lastIndex(of: "/") else { return resolved }
    let folder = String(file[...slash])
    return resolved.hasPrefix(folder) ? String(resolved.dropFirst(folder.count)) : resolved
  }
}
