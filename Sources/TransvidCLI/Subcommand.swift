#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs

/// The words `transvid` reads as a subcommand when they come first, and the
/// options only one subcommand takes, for the hints of a command line that
/// mixes them up: `transvid chekc jobs` names no file and is one swap from
/// `check`; `transvid check jobs --json` gives `check` an option of `plan`'s.
///
/// A first argument that names a file or folder is a job, whatever it is
/// called (a folder named `chekc` renders), so the hint is only for one that
/// names nothing.
enum Subcommand {
  /// The subcommands, as `--help` lists them.
  static let names = ["plan", "check", "gallery", "watch", "list", "frame", "curve"]

  /// Each option that one subcommand alone takes, with that subcommand and
  /// how its command line is written.
  static let ownOptions: [String: (subcommand: String, usage: String)] = [
    "--json": ("plan", "transvid plan JOB.cfg|DIR ... --json"),
    "--draft": ("watch", "transvid watch JOB.cfg --draft"),
    "--time": ("frame", "transvid frame JOB.cfg --time T -o F.png"),
    "-t": ("frame", "transvid frame JOB.cfg -t T -o F.png"),
    "--appearance": ("frame", "transvid frame JOB.cfg --time T -o F.png --appearance light|dark"),
    "--samples": ("curve", "transvid curve NAME|SPEC --samples N"),
    "-n": ("curve", "transvid curve NAME|SPEC -n N"),
    "--duration": ("curve", "transvid curve NAME|SPEC --duration S"),
  ]

  /// `; did you mean 'check'?` when `word`, a render's first argument,
  /// names no file or folder and is a near miss of a subcommand (`chekc`,
  /// `Check`), or is `help` or `version` (the options `--help`,
  /// `--version`) or `render` (a render is written without one), else nil.
  static func hint(forMissingFirst word: String) -> String? {
    var info = stat()
    guard stat(word, &info) != 0, errno == ENOENT else { return nil }
    if word == "render" { return "; a render takes no subcommand: transvid [options] JOB.cfg|DIR ..." }
    let options = ["help": "--help", "version": "--version"]
    guard let match = Suggestion.closest(to: word, in: names + options.keys.sorted()) else { return nil }
    return "; did you mean '\(options[match] ?? match)'?"
  }

  /// The usage error for `option` given to `current` (nil: a render) when
  /// another subcommand alone takes it, else nil:
  /// `'check' takes no --json: it is plan's option (transvid plan JOB.cfg|DIR ... --json)`.
  static func misplaced(_ option: String, in current: String?) -> Options.UsageError? {
    guard let owner = ownOptions[option], owner.subcommand != current else { return nil }
    let taker = current.map { "'\($0)'" } ?? "a render"
    return Options.UsageError(description: "\(taker) takes no \(option): it is \(owner.subcommand)'s option (\(owner.usage))")
  }
}
