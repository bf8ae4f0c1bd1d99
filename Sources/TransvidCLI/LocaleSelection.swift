import Jobs

/// Which of a job's locales a command renders: `--locale ar,ja` picks some
/// (a locale the job does not have is an error at its `locales:` list),
/// `transvid frame` renders one (the first by default). Codes match as
/// BCP 47 and Apple's tags do: in any case, `-` or `_` between parts
/// (`--locale PT_br` picks the job's `pt-BR`).
enum LocaleSelection {
  /// The jobs to render for `spec`: one per wanted locale (and appearance), or the job itself.
  static func all(of spec: JobSpec, locales wanted: [String]?) throws(Diagnostic) -> [JobSpec] {
    guard let localization = spec.localization, !localization.locales.isEmpty else { return spec.localizedJobs() }
    if let wanted {
      func tag(_ code: String) -> String { code.lowercased().replacingOccurrences(of: "_", with: "-") }
      let chosen = wanted.compactMap { code in localization.locales.first { tag($0) == tag(code) } }
      if chosen.isEmpty {
        throw Diagnostic(
          localization.localeLocations[0],
          "locales: the job has no locale \(wanted.map { "'\($0)'" }.joined(separator: ", ")) "
            + "(it has \(localization.locales.joined(separator: ", ")))")
      }
      return spec.localizedJobs(only: chosen)
    }
    return spec.localizedJobs()
  }
}
