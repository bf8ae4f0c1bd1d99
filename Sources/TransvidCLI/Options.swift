import Foundation
import Jobs

/// The command line, parsed. transvid's grammar is small enough that a
/// hand-written parser states it more plainly than a framework would (and
/// SwiftPM cannot fetch swift-argument-parser here).
struct Options: Sendable {
  enum Command: Sendable, Equatable {
    case render(inputs: [String])
    /// `plan DIR|FILE... [--json]`: the jobs, their cache keys, costs and shards.
    case plan(inputs: [String], json: Bool)
    /// `check DIR|FILE...`: parse every job, render nothing (`CheckCommand`).
    case check(inputs: [String])
    /// `gallery PATH... -o DIR`: merge shards' reports (`GalleryCommand`).
    case gallery(inputs: [String], output: String)
    /// `watch JOB [-o DIR] [--format …] [--draft]`: render on every change (`WatchCommand`).
    case watch(job: String)
    case list
    /// `transvid list devices`: the device presets and their figures.
    case listDevices
    /// `frame JOB --time T -o FILE.png`: one frame as PNG.
    case frame(job: String, time: Double, output: String, paths: PathPolicy)
    /// `curve NAME|SPEC [--samples N] [--duration S]`: a sampled curve as CSV.
    case curve(spec: String, samples: Int, duration: Double?)
    case help
    case version
  }

  /// How progress is shown (`--progress`).
  enum ProgressMode: String, Sendable, CaseIterable {
    /// `tty` when standard error is a terminal that draws (`Console.terminal`), else `plain`.
    case auto
    /// A line per written output and a summary; no live display.
    case plain
    /// One JSON object per line on standard output.
    case ndjson
    /// No progress or summary lines (results and errors only).
    case none
    /// Live bars on standard error (what `auto` picks on a terminal).
    case tty
  }

  var command: Command = .help
  var outputDirectory: String?
  var formats: [OutputFormat]?
  /// `--target`: a destination's settings for every job (`OutputTarget`).
  var target: OutputTarget?
  var force = false
  var quiet = false
  /// `-j N`: jobs rendered at once; nil is the core count.
  var jobs: Int?
  /// `--shard K/N`; nil takes it from the environment (or renders everything).
  var shard: Shard?
  /// `--shard-count N`: N for `JOB_COMPLETION_INDEX` (and for `plan`).
  var shardCount: Int?
  var report: String?
  var junit: String?
  var gallery: String?
  /// `--cache DIR`: the shared store of finished outputs (`SharedCache`).
  var cache: String?
  /// `--cache-max-bytes N`: the shared store's bound (least recently used entries go first).
  var cacheMaxBytes: Int?
  /// `--job-timeout SECONDS`: a job still rendering after this long is stopped and fails.
  var jobTimeout: Double?
  /// `watch --draft`: render at 1× and at most `WatchCommand.draftFPS` frames per second.
  var draft = false
  var progress: ProgressMode = .auto
  /// `--max-side`, `--max-frames`, `--max-pixels`, `--max-layer-pixels`, `--max-draw-pixels`: caps on one job's size.
  var limits = JobLimits()
  /// `--allow-outside DIR`: folders besides its own a job may read and write.
  var paths = PathPolicy()
  /// `--locale ar,ja`: render only these of a job's locales (nil: all).
  var locales: [String]?
  /// `frame --appearance dark`: which of a job's appearances to draw (nil: its first).
  var appearance: String?

  /// A usage error: printed with a hint to `--help`, exit status 2.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    var description: String
  }

  /// The options of a render or `plan`, for "did you mean".
  static let renderOptions = [
    "--help", "--version", "--output-dir", "--format", "--force", "--quiet", "--jobs", "--shard", "--shard-count",
    "--report", "--junit", "--gallery", "--progress", "--json", "--allow-outside", "--cache", "--cache-max-bytes",
    "--job-timeout",
    "--locale",
    "--target",
  ] + limitOptions
  /// The options that set `JobLimits` (`JobLimits.set`), for renders, `plan` and `frame`.
  static let limitOptions = ["--max-side", "--max-frames", "--max-pixels", "--max-layer-pixels", "--max-draw-pixels"]
  /// The render options `watch` takes (by their long names). The rest are a
  /// batch's (reports, shards, a `--cache` store, workers and their timeout,
  /// a progress mode: a watch prints plain lines): taken and dropped, they
  /// would seem to work, so a watch refuses them.
  static let watchOptions =
    ["--help", "--version", "--output-dir", "--format", "--target", "--locale", "--force", "--draft", "--allow-outside"]
    + limitOptions + ["--quiet"]

  /// `; did you mean '--format'?` for a near miss among `options`, else
  /// nothing (also for an exact match: `--json` outside `plan`).
  static func hint(for option: String, among options: [String]) -> String {
    guard let match = Suggestion.closest(to: option, in: options), match != option else { return "" }
    return "; did you mean '\(match)'?"
  }

  /// Whether `text`, after an option that takes a value, is that value: not
  /// another option, though it may be `-` or a negative number (`-1/3`,
  /// `-inf`), so that the number's own error names it.
  static func isValue(_ text: String) -> Bool {
    guard text.hasPrefix("-"), text != "-" else { return true }
    if ["inf", "infinity", "nan"].contains(text.dropFirst().lowercased()) { return true }
    return text.dropFirst().first.map { $0.isASCII && ($0.isNumber || $0 == ".") } ?? false
  }

  /// A whole number from 1 to `Int.max` for `option`.
  static func positiveInteger(_ text: String, for option: String) throws -> Int {
    // Also as the help writes large limits: 2e10, 5e8 — read exactly (Decimal), a whole number within Int.
    let scientific = text.wholeMatch(of: /[0-9]+(\.[0-9]+)?[eE][-+]?[0-9]{1,3}/) != nil ? Decimal(string: text) : nil
    let exact = scientific.flatMap { value -> Int? in
      var whole = Decimal(), copy = value
      NSDecimalRound(&whole, &copy, 0, .down)
      guard whole == value, value <= Decimal(Int.max) else { return nil }
      return NSDecimalNumber(decimal: value).intValue
    }
    guard let n = Int(text) ?? exact, n >= 1 else {
      if isBeyondInt(text) { throw UsageError(description: "option \(option) allows at most \(Int.max), got '\(text)'") }
      throw UsageError(description: "option \(option) needs a whole number ≥ 1, got '\(text)'")
    }
    return n
  }

  /// Whether `text` is a whole number written in digits (`2e10` too) larger
  /// than any count the options take: too large, not malformed.
  static func isBeyondInt(_ text: String) -> Bool {
    guard text.wholeMatch(of: /[0-9]+|[0-9]+(\.[0-9]+)?[eE]\+?[0-9]+/) != nil, let value = Double(text) else { return false }
    return Int(text) == nil && value >= Double(Int.max)
  }

  /// A size in bytes from 1 for `option`: a whole number (`2e10` too) or
  /// one as job files write a size, `10GB`, `500MiB` (`ByteSize`).
  static func byteCount(_ text: String, for option: String) throws -> Int {
    if let n = try? positiveInteger(text, for: option) { return n }
    if isBeyondInt(text) { throw UsageError(description: "option \(option) allows at most \(Int.max) bytes, got '\(text)'") }
    guard let n = ByteSize.bytes(text), n >= 1 else {
      throw UsageError(description: "option \(option) needs a size of 1 byte or more (a number, or like 10GB or 10GiB), got '\(text)'")
    }
    return n
  }

  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    var inputs: [String] = []
    var rest = arguments[...]
    var json = false
    var isPlan = false
    var isCheck = false
    var isWatch = false
    if rest.first == "list" {
      rest.removeFirst()
      return try parseList(rest)
    } else if rest.first == "plan" {
      rest.removeFirst()
      isPlan = true
    } else if rest.first == "check" {
      rest.removeFirst()
      isCheck = true
    } else if rest.first == "watch" {
      rest.removeFirst()
      isWatch = true
    } else if rest.first == "gallery" {
      rest.removeFirst()
      return try parseGallery(rest)
    } else if rest.first == "frame" {
      rest.removeFirst()
      return try parseFrame(rest)
    } else if rest.first == "curve" {
      rest.removeFirst()
      return try parseCurve(rest)
    }
    var stream = ArgumentStream(rest, shortValued: ["-o", "-j"], lists: ["--format", "--locale"])
    /// The options given, as named (`-j`, `--report`), in order.
    var named: [String] = []
    while let arg = try stream.next() {
      let raw = stream.raw
      if arg.hasPrefix("-"), arg != "-", arg != "--" { named.append(arg) }
      func value() throws -> String { try stream.value() }
      func positiveInteger() throws -> Int { try Options.positiveInteger(value(), for: arg) }
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "--version": return Options(command: .version)
      case "-o", "--output-dir": options.outputDirectory = try nonEmpty(try value(), arg)
      case "--allow-outside": options.paths.allowed.append(try nonEmpty(try value(), arg))
      case "--format":
        let text = try value()
        let list = Options.items(text)
        guard !list.isEmpty else { throw UsageError(description: "option --format needs a value") }
        try Options.checkNoEmptyItem(in: text, of: arg)
        var formats: [OutputFormat] = []
        for name in list {
          guard let format = OutputFormat(rawValue: name) else {
            throw UsageError(description: "unknown format '\(name)'\(OutputFormat.hint(forUnknown: name))")
          }
          guard !formats.contains(format) else { throw UsageError(description: "format '\(name)' is listed twice") }
          formats.append(format)
        }
        options.formats = formats
      case "--target":
        let name = try value()
        guard let target = OutputTarget(rawValue: name) else {
          throw UsageError(description: "unknown target '\(name)'\(OutputTarget.hint(forUnknown: name))")
        }
        options.target = target
      case "--force":
        try stream.flag()
        options.force = true
      case "--locale": options.locales = try Options.locales(try value())
      case "-q", "--quiet":
        try stream.flag()
        options.quiet = true
      case "-j", "--jobs": options.jobs = try positiveInteger()
      case "--shard":
        let text = try value()
        guard let shard = Shard(parsing: text) else {
          throw UsageError(description: "--shard needs K/N with 1 ≤ K ≤ N (K is 1-based), got '\(text)'")
        }
        options.shard = shard
      case "--shard-count": options.shardCount = try positiveInteger()
      case "--report": options.report = try nonEmpty(try value(), arg)
      case "--junit": options.junit = try nonEmpty(try value(), arg)
      case "--gallery": options.gallery = try nonEmpty(try value(), arg)
      case "--cache": options.cache = try nonEmpty(try value(), arg)
      case "--cache-max-bytes": options.cacheMaxBytes = try Options.byteCount(value(), for: arg)
      case "--job-timeout":
        let text = try value()
        // Decimal only: Double would also read "0x10" and "inf". From a millisecond, what the
        // worker's deadline counts in (WorkerProcess.render): less was waited as 1 ms, and said as 1e-09 s.
        let decimal = !text.isEmpty && text.allSatisfy { "0123456789.eE+-".contains($0) }
        guard decimal, let seconds = Double(text), seconds >= 0.001, seconds <= 1e7 else {
          throw UsageError(
            description: "option --job-timeout needs a number of seconds from 0.001 to 10000000, got '\(text)'")
        }
        options.jobTimeout = seconds
      case "--progress":
        let text = try value()
        let modes = ["auto", "plain", "ndjson", "none"]
        guard let mode = ProgressMode(rawValue: text), mode != .tty else {
          throw UsageError(
            description: "--progress needs auto, plain, ndjson or none, got '\(text)'"
              + Options.hint(for: text, among: modes))
        }
        options.progress = mode
      case _ where limitOptions.contains(arg): try options.limits.set(arg, try value())
      case "--json" where isPlan:
        try stream.flag()
        json = true
      case "--draft" where isWatch:
        try stream.flag()
        options.draft = true
      case "--":
        inputs.append(contentsOf: stream.remaining())
      default:
        if arg.hasPrefix("-") && arg != "-" {
          if let misplaced = Subcommand.misplaced(arg, in: isPlan ? "plan" : isCheck ? "check" : isWatch ? "watch" : nil) {
            throw misplaced
          }
          throw UsageError(description: "unknown option '\(raw)'\(Options.hint(for: arg, among: renderOptions))")
        }
        inputs.append(arg)
      }
    }
    guard !inputs.isEmpty else { throw UsageError(description: "no job files given") }
    if isWatch {
      let long = ["-o": "--output-dir", "-q": "--quiet", "-j": "--jobs"]
      if let option = named.first(where: { !watchOptions.contains(long[$0] ?? $0) }) {
        let short = Dictionary(uniqueKeysWithValues: long.map { ($1, $0) })
        let taken = watchOptions.filter { !["--help", "--version"].contains($0) }.map { short[$0] ?? $0 }
        throw UsageError(
          description: "'watch' takes no \(option): it is for a batch; watch takes "
            + taken.dropLast().joined(separator: ", ") + " and \(taken.last!)")
      }
      guard inputs.count == 1 else { throw UsageError(description: "'watch' takes one job file, got \(inputs.count)") }
      options.command = .watch(job: inputs[0])
      return options
    }
    if isPlan || isCheck {
      // What a render writes: taken and dropped, a CI step would publish nothing and pass.
      let given = [("--report", options.report), ("--junit", options.junit), ("--gallery", options.gallery)]
      if let (name, _) = given.first(where: { $0.1 != nil }) {
        throw UsageError(
          description: "'\(isPlan ? "plan" : "check")' writes no \(name == "--gallery" ? "gallery" : "report"): "
            + "\(name) is for a render (transvid JOB.cfg|DIR \(name) ...)")
      }
      // How a render runs its jobs: nothing of check or plan runs so, and taken and dropped they seemed to work.
      let subcommand = isPlan ? "plan" : "check"
      for option in named {
        if let why = Options.renderOnly(option, in: subcommand) {
          throw UsageError(description: "'\(subcommand)' takes no \(option): \(why)")
        }
      }
    }
    if options.cacheMaxBytes != nil && options.cache == nil {
      throw UsageError(description: "--cache-max-bytes bounds the --cache store: give --cache DIR too")
    }
    options.command = isPlan ? .plan(inputs: inputs, json: json) : isCheck ? .check(inputs: inputs) : .render(inputs: inputs)
    return options
  }

  /// Why `check` or `plan` (`subcommand`) takes no `option`, a render's,
  /// as its usage error ends, else nil: they render nothing, so no jobs run
  /// at once (`-j`), none is stopped (`--job-timeout`), no progress is shown
  /// (`--progress`); neither changes the `--cache` store
  /// (`--cache-max-bytes`), and `check` reads nothing from it (a job in the
  /// store is still written to its folder, which check checks); `plan`'s rows
  /// are what it prints, so `-q` would leave nothing.
  static func renderOnly(_ option: String, in subcommand: String) -> String? {
    let render = "\(option) is for a render (transvid JOB.cfg|DIR \(option)"
    switch option {
    case "-j", "--jobs": return "it renders nothing, so no jobs run at once: \(render) N ...)"
    case "--job-timeout": return "it renders nothing, so no job is stopped: \(render) SECONDS ...)"
    case "--progress": return "it renders nothing, so it shows no progress: \(render) MODE ...)"
    case "--cache-max-bytes": return "it leaves the --cache store as it is: \(render) N --cache DIR ...)"
    case "--cache" where subcommand == "check":
      return "it reads nothing from the store (which jobs the store holds: transvid plan JOB.cfg|DIR --cache DIR)"
    case "-q" where subcommand == "plan", "--quiet" where subcommand == "plan":
      return "the plan is what it prints (for a script: --json)"
    default: return nil
    }
  }

  /// `path`, unless it is empty (`-o ""`): a usage error naming the option.
  private static func nonEmpty(_ path: String, _ option: String) throws -> String {
    guard !path.isEmpty else { throw UsageError(description: "option \(option) needs a path, got an empty one") }
    return path
  }

  /// `list [devices]`: no options but `--help`. A render's were taken and
  /// dropped (`list -o out --report r.json` printed the list), and an option
  /// of another subcommand was said to be a render's (`list --json`: "a
  /// render takes no --json").
  private static func parseList(_ arguments: ArraySlice<String>) throws -> Options {
    var words: [String] = []
    var stream = ArgumentStream(arguments)
    while let arg = try stream.next() {
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "--": words += stream.remaining()
      default:
        if let misplaced = Subcommand.misplaced(arg, in: "list") { throw misplaced }
        guard !arg.hasPrefix("-") || arg == "-" else {
          throw UsageError(description: "'list' takes no options, got '\(stream.raw)' (transvid list [devices])")
        }
        words.append(arg)
      }
    }
    let devices = words.first == "devices"
    if let extra = words.dropFirst(devices ? 1 : 0).first {
      throw UsageError(
        description: "'list' takes no arguments but 'devices' ('transvid list devices'), got '\(extra)'"
          + (devices ? "" : Options.hint(for: extra, among: ["devices"])))
    }
    return Options(command: devices ? .listDevices : .list)
  }

  /// `curve NAME|SPEC [--samples N] [--duration S]`.
  private static func parseCurve(_ arguments: ArraySlice<String>) throws -> Options {
    var spec: String?, samples = 101, duration: Double?
    var stream = ArgumentStream(arguments, shortValued: ["-n"])
    while let arg = try stream.next() {
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "--samples", "-n":
        let problem = "--samples needs a whole number from 2 to 100000"
        guard let n = Int(try stream.value(else: problem)), (2...100_000).contains(n) else {
          throw UsageError(description: problem)
        }
        samples = n
      case "--duration":
        // A millisecond at least: over less, a velocity in 1/s overflows.
        let problem = "--duration needs a number of seconds from 0.001 to 600"
        let text = try stream.value(else: problem)
        // Decimal only, as --time: Swift's Double(_:) also reads hexadecimal (0x1 is 1 s).
        guard text.wholeMatch(of: /[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?/) != nil, let d = Double(text), d.isFinite,
          d >= 0.001, d <= 600
        else {
          throw UsageError(description: problem)
        }
        duration = d
      case "--":
        for text in stream.remaining() {
          guard spec == nil else { throw UsageError(description: "unexpected argument '\(text)' for 'curve'") }
          spec = text
        }
      default:
        if let misplaced = Subcommand.misplaced(arg, in: "curve") { throw misplaced }
        guard spec == nil, !arg.hasPrefix("--") else {
          throw UsageError(description: "unexpected argument '\(stream.raw)' for 'curve'")
        }
        spec = arg
      }
    }
    guard let spec else { throw UsageError(description: "'curve' needs a curve name or spec, e.g. easeInEaseOut") }
    return Options(command: .curve(spec: spec, samples: samples, duration: duration))
  }

  /// `frame JOB.cfg --time T -o FILE.png [-q] [--max-side N] [--max-frames N] [--max-pixels N]`.
  private static func parseFrame(_ arguments: ArraySlice<String>) throws -> Options {
    var options = Options()
    var job: String?, time: Double?, output: String?
    var paths = PathPolicy()
    var stream = ArgumentStream(arguments, shortValued: ["-o", "-t"])
    while let arg = try stream.next() {
      let raw = stream.raw
      func value() throws -> String { try stream.value() }
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "--time", "-t":
        let text = try value()
        // Decimal only: Swift's Double(_:) also reads hexadecimal (0x1 is 1 s).
        guard text.wholeMatch(of: /[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?/) != nil, let t = Double(text), t.isFinite,
          t >= 0
        else {
          throw UsageError(description: "--time needs a number of seconds ≥ 0, got '\(text)'")
        }
        time = t
      case "-o", "--output": output = try nonEmpty(try value(), arg)
      case "--locale":
        // One frame is one picture: of one locale (the stream refuses a second --locale).
        let locales = try Options.locales(try value())
        guard locales.count == 1 else {
          throw UsageError(description: "'frame' draws one locale: give --locale once, with one code (got \(locales.joined(separator: ", ")))")
        }
        options.locales = locales
      case "--appearance":
        let name = try value()
        // Written as a job's `appearances:` writes it, in lower case; `DARK` is a near miss, as there.
        guard ["light", "dark"].contains(name) else {
          throw UsageError(
            description: "--appearance needs light or dark, got '\(name)'"
              + Options.hint(for: name, among: ["light", "dark"]))
        }
        options.appearance = name
      case "--allow-outside": paths.allowed.append(try nonEmpty(try value(), arg))
      case "-q", "--quiet":
        try stream.flag()
        options.quiet = true
      case _ where limitOptions.contains(arg): try options.limits.set(arg, try value())
      case "--":
        // What follows is the job file, whatever it starts with (`-- -demo.cfg`).
        for path in stream.remaining() {
          guard job == nil else { throw UsageError(description: "unexpected argument '\(path)' for 'frame'") }
          job = path
        }
      default:
        if let misplaced = Subcommand.misplaced(arg, in: "frame") { throw misplaced }
        guard !arg.hasPrefix("-"), job == nil else {
          let known = ["--help", "--time", "--output", "--locale", "--appearance", "--allow-outside", "--quiet"] + limitOptions
          let hint = arg.hasPrefix("-") ? Options.hint(for: arg, among: known) : ""
          throw UsageError(description: "unexpected argument '\(raw)' for 'frame'\(hint)")
        }
        job = arg
      }
    }
    guard let job else { throw UsageError(description: "'frame' needs a job file") }
    guard let time else { throw UsageError(description: "'frame' needs --time SECONDS") }
    guard let output else { throw UsageError(description: "'frame' needs -o FILE.png") }
    // The frame is written as PNG whatever the name says.
    guard (output as NSString).pathExtension.lowercased() == "png" else {
      throw UsageError(description: "'frame' writes a PNG: -o needs a file name ending in .png, got '\(output)'")
    }
    options.command = .frame(job: job, time: time, output: output, paths: paths)
    return options
  }
}

extension Options {
  /// `--locale ar,ja`: a comma-separated list of locale codes, each once
  /// (codes compare as `LocaleSelection.tag`: `en,EN` is `en`), as written
  /// the first time, so no message names a code twice.
  static func locales(_ text: String) throws -> [String] {
    var seen = Set<String>()
    let list = items(text).filter { seen.insert(LocaleSelection.tag($0)).inserted }
    guard !list.isEmpty else { throw UsageError(description: "option --locale needs a value, e.g. --locale ar,ja") }
    try checkNoEmptyItem(in: text, of: "--locale")
    return list
  }

  /// Throws for a list with an empty item (`png,,gif`, `png,`, `,png`): a
  /// name left out of a script's `"$A,$B"`, or a typo, is said rather than
  /// skipped.
  static func checkNoEmptyItem(in text: String, of option: String) throws {
    let written = text.split(separator: ",", omittingEmptySubsequences: false)
    guard let empty = written.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) else { return }
    throw UsageError(
      description: "option \(option) has an empty item (item \(empty + 1) of '\(text)'); "
        + "write the list without it: \(items(text).joined(separator: ","))")
  }
}

extension Options {
  /// A list option's items: split at commas, each without the spaces
  /// around it (`--format "mp4, gif"`, as a shell user quotes a list).
  static func items(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }
}

extension JobLimits {
  /// Sets the cap an option names (`--max-side`, `--max-frames`,
  /// `--max-pixels`, `--max-layer-pixels`, `--max-draw-pixels`) from its text: a whole number ≥ 1, the side at most
  /// `largestSide`.
  mutating func set(_ option: String, _ text: String) throws {
    let n = try Options.positiveInteger(text, for: option)
    switch option {
    case "--max-side":
      guard n <= JobLimits.largestSide else {
        throw Options.UsageError(
          description: "option --max-side allows at most \(JobLimits.largestSide) pixels, got '\(n)'")
      }
      maxSide = n
    case "--max-frames": maxFrames = n
    case "--max-layer-pixels": maxLayerPixels = n
    case "--max-draw-pixels": maxDrawPixels = n
    default: maxPixels = n
    }
  }
}

/// Command-line arguments one at a time: `--name=value` is read as `--name`
/// with its value attached, and a short option that takes a value
/// (`shortValued`) written with it as POSIX's getopt reads it, `-oout` as
/// `-o out` and `-j4` as `-j 4`; `value()` takes the attached value or the
/// next argument. An option takes one value:
/// a second one, in any of its spellings, is a usage error rather than
/// replacing the first, except for the `repeatable` options; so is a flag
/// given twice (`flag()`), which says nothing the first did not.
struct ArgumentStream {
  /// Options each of whose values adds to a list (`--allow-outside DIR`).
  static let repeatable: Set<String> = ["--allow-outside"]
  /// The spellings of one option; the first names it.
  static let spellings = [
    ["-o", "--output-dir", "--output"], ["-j", "--jobs"], ["-t", "--time"], ["-n", "--samples"], ["-q", "--quiet"],
  ]

  private var rest: ArraySlice<String>
  /// The short options that take a value (`-o`, `-j`), which may be written with it (`-oout`).
  private let shortValued: Set<String>
  /// Options whose value is a comma-separated list, for the hint on a repeat.
  private let lists: Set<String>
  /// The option and value read so far for each option, by its first spelling.
  private var given: [String: (spelling: String, value: String)] = [:]
  private var attached: String?
  /// The last argument as written.
  private(set) var raw = ""
  /// The last argument's option name (`--shard` for `--shard=1/2`).
  private(set) var name = ""

  init(_ arguments: ArraySlice<String>, shortValued: Set<String> = [], lists: Set<String> = []) {
    rest = arguments
    self.shortValued = shortValued
    self.lists = lists
  }

  /// The next argument's name, or nil at the end. A `--flag=value` whose
  /// value the option did not take (a flag takes none: `--json=false`
  /// would otherwise be `--json`) is a usage error.
  mutating func next() throws -> String? {
    if let attached {
      throw Options.UsageError(description: "option \(name) takes no value, got '\(name)=\(attached)'")
    }
    guard let raw = rest.popFirst() else { return nil }
    self.raw = raw
    name = raw
    attached = nil
    if raw.hasPrefix("--"), let eq = raw.firstIndex(of: "=") {
      name = String(raw[..<eq])
      attached = String(raw[raw.index(after: eq)...])
    } else if !raw.hasPrefix("--"), raw.utf8.count > 2, shortValued.contains(String(raw.prefix(2))) {
      name = String(raw.prefix(2))
      attached = String(raw.dropFirst(2))
      // getopt would read `-o=out` as the folder `=out`: that is seldom what was meant.
      if attached?.first == "=" {
        throw Options.UsageError(
          description: "option \(name) takes its value as '\(name) VALUE' or '\(name)VALUE', not '\(raw)'")
      }
    }
    return name
  }

  /// The value of the option just read (`Options.isValue`); without one,
  /// the usage error `problem` (else `option NAME needs a value`).
  mutating func value(else problem: String? = nil) throws -> String {
    let value: String
    if let attached {
      value = attached
      self.attached = nil
    } else {
      guard let next = rest.first, Options.isValue(next) else {
        throw Options.UsageError(description: problem ?? "option \(name) needs a value")
      }
      value = rest.removeFirst()
    }
    let option = Self.spellings.first { $0.contains(name) }?.first ?? name
    guard !Self.repeatable.contains(option) else { return value }
    if let first = given[option] {
      // The list both name, each item once (`--format gif --format gif` is `--format gif`).
      var seen = Set<String>()
      let merged = Options.items(first.value + "," + value).filter { seen.insert($0).inserted }
      let list =
        lists.contains(option) && merged.count > Options.items(first.value).count
        ? ", with a list: \(name) \(merged.joined(separator: ","))" : ""
      throw Options.UsageError(
        description: "option \(name) is given twice ('\(first.spelling) \(first.value)' and '\(name) \(value)'); give it once\(list)")
    }
    given[option] = (name, value)
    return value
  }

  /// Records the flag just read (an option that takes no value): a second
  /// one, in any of its spellings, is a usage error, as a second value is.
  mutating func flag() throws {
    let option = Self.spellings.first { $0.contains(name) }?.first ?? name
    if let first = given[option] {
      throw Options.UsageError(description: "option \(name) is given twice ('\(first.spelling)' and '\(name)'); give it once")
    }
    given[option] = (name, "")
  }

  /// Every argument not read yet (after `--`).
  mutating func remaining() -> [String] {
    defer { rest = [] }
    return Array(rest)
  }
}
