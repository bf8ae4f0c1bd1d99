import Jobs

/// Which of a job's locales a command renders: `--locale ar,ja` picks some,
/// `transvid frame` renders one (the first by default). Codes match as
/// BCP 47 and Apple's tags do: in any case, `-` or `_` between parts
/// (`--locale PT_br` picks the job's `pt-BR`).
///
/// In a batch, a job that lists none of the codes (or no locales at all)
/// renders nothing; a code that no job of the run lists is a usage error
/// (a typo in `ar,fr` is caught, not ignored); and when the run lists none
/// of them, each job fails at its `locales:` list, saying what it has.
enum LocaleSelection {
  /// The form codes are compared in.
  static func tag(_ code: String) -> String { code.lowercased().replacingOccurrences(of: "_", with: "-") }

  /// `code` as a job's `locales:` list takes it, BCP 47's own spelling
  /// (`--locale zh_hant` is `zh-Hant`): what a message tells the author to add.
  static func listed(_ code: String) -> String { Localization.canonical(tag(code)) }

  /// The jobs to render for `spec`: one per wanted locale (and appearance),
  /// or the job itself; nil when `wanted` names none of its locales (it has
  /// none, or others).
  static func all(of spec: JobSpec, locales wanted: [String]?) -> [JobSpec]? {
    guard let wanted else { return spec.localizedJobs() }
    guard let localization = spec.localization, !localization.locales.isEmpty else { return nil }
    let chosen = wanted.compactMap { code in localization.locales.first { tag($0) == tag(code) } }
    return chosen.isEmpty ? nil : spec.localizedJobs(only: chosen)
  }

  /// Why `spec` (of `file`), which lists none of `wanted`, cannot render
  /// when no job of the run lists them.
  static func failure(of spec: JobSpec, file: String, wanted: [String]) -> JobFailure {
    guard let localization = spec.localization, !localization.locales.isEmpty else {
      let quoted = wanted.map { "'\($0)'" }.joined(separator: ", ")
      return JobFailure(
        file: file,
        message: "the job has no locale \(quoted) (it lists none: add locales: [\(wanted.map(listed).joined(separator: ", "))] "
          + "and its strings)")
    }
    return JobFailure(missing(wanted, in: localization))
  }

  /// `locales: the job has no locale 'fr' (it has en, ar)`, at the job's list.
  static func missing(_ wanted: [String], in localization: Localization) -> Diagnostic {
    Diagnostic(
      localization.localeLocations[0],
      "locales: the job has no locale \(wanted.map { "'\($0)'" }.joined(separator: ", ")) "
        + "(it has \(localization.locales.joined(separator: ", ")))")
  }
}
