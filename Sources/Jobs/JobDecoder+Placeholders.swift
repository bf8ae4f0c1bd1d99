// `{locale}` and `{appearance}` in an image path stand for each locale and
// each appearance the job lists (`JobSpec.localized(to:)`, `inAppearance`):
// `shots/{locale}/home.png`, `bg-{appearance}.png`. A job with strings and
// no locales is its source language's (`resolveKeys` replaced `{locale}`
// with it); one that lists neither, or no appearances, has no value to put
// there, so such a path is an error at its `image` key that says what to
// add, not a file that cannot be read under a name with the braces still
// in it.

extension JobDecoder {
  /// A path placeholder, the list that gives its values, and what to add.
  struct Placeholder {
    var text: String
    var list: String
    var example: String
  }

  static let placeholders = [
    Placeholder(text: "{locale}", list: "locales", example: "locales: [en, ar] and their strings"),
    Placeholder(text: "{appearance}", list: "appearances", example: "appearances: [light, dark]"),
  ]

  /// Throws at the first image path (in the file's order) holding a
  /// placeholder whose list the job does not have; `listed` names the lists
  /// it has (`locales` with a locale in it, `appearances`).
  func checkPlaceholders(in assets: [AssetReference], listed: Set<String>) throws(Diagnostic) {
    let unfilled = assets.compactMap { asset in
      JobDecoder.placeholders.first { asset.path.contains($0.text) && !listed.contains($0.list) }.map { (asset, $0) }
    }
    let first = unfilled.min {
      ($0.0.location.line, $0.0.location.column) < ($1.0.location.line, $1.0.location.column)
    }
    guard let (asset, placeholder) = first else { return }
    throw Diagnostic(
      asset.location,
      "\(asset.key): \(placeholder.text) in \(Diagnostic.echoed(asset.path)) stands for each of the job's "
        + "\(placeholder.list), and it lists none: add \(placeholder.example), or write the file's own name")
  }
}
