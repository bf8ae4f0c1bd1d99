// `appearances: [light, dark]`: a second axis beside locales. The job is
// decoded once per appearance, system colours (`systemBackground`, `label`,
// `systemGroupedBackground`, …) and the kinds' defaults (navigation bar,
// cell, label text) taking that appearance's values; `{appearance}` in
// image paths picks per-appearance screenshots. Each (locale, appearance)
// is its own job, `<name>[.<locale>].<appearance>`.

extension JobDecoder {
  static let appearanceNames = ["light", "dark"]

  /// Reads `appearances:` and decodes the job again for each but light.
  func appearances(_ node: YAMLNode?, root: YAMLNode, into spec: inout JobSpec) throws(Diagnostic) {
    guard let node, appearance == nil else { return }
    let path = KeyPath.root.appending("appearances")
    guard let items = node.items, !items.isEmpty else { throw mismatch(node, path, expected: "a list: [light, dark]") }
    var names: [String] = []
    for (i, item) in items.enumerated() {
      let name = try choice(item, path.appending(index: i), among: JobDecoder.appearanceNames, what: "appearance", expected: "light or dark")
      if names.contains(name) { throw Diagnostic(item.location, "\(path.appending(index: i)): '\(name)' is listed twice") }
      names.append(name)
    }
    spec.appearances = names
    for name in names where name != "light" {
      var decoder = self
      decoder.appearance = name
      spec.appearanceVariants[name] = try decoder.job(root)
    }
  }
}

extension JobSpec {
  /// This job in `appearance`: its variant, renamed, `{appearance}` paths replaced.
  func inAppearance(_ appearance: String) -> JobSpec {
    var spec = appearance == "light" ? self : appearanceVariants[appearance] ?? self
    spec.appearanceVariants = [:]
    spec.appearances = []
    spec.appearance = appearance
    spec.name = "\(name).\(appearance)"
    for s in spec.screens.indices {
      if let image = spec.screens[s].image { spec.screens[s].image = image.replacing("{appearance}", with: appearance) }
      for v in spec.screens[s].views.indices {
        if let image = spec.screens[s].views[v].image {
          spec.screens[s].views[v].image = image.replacing("{appearance}", with: appearance)
        }
      }
    }
    spec.stage = spec.stage?.replacing("{appearance}", with: appearance)
    spec.assets = JobSpec.assets(of: spec.screens, stage: spec.stage)
    return spec
  }
}
