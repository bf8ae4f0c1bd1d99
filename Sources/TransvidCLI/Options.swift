import Jobs

/// The command line, parsed. transvid's grammar is small enough that a
/// hand-written parser states it more plainly than a framework would (and
/// SwiftPM cannot fetch swift-argument-parser here).
struct Options: Sendable {
  enum Command: Sendable, Equatable {
    case render(inputs: [String])
    /// `plan DIR|FILE... [--json]`: the jobs, their cache keys, costs and shards.
    case plan(inputs: [String], json: Bool)
    case list
    /// `frame JOB --time T -o FILE.png`: one frame as PNG.
    case frame(job: String, time: Double, output: String, paths: PathPolicy)
    /// `curve NAME|SPEC [--samples N] [--duration S]`: a sampled curve as CSV.
    case curve(spec: String, samples: Int, duration: Double?)
    case help
    case version
  }

  /// How progress is shown (`--progress`).
  enum ProgressMode: String, Sendable, CaseIterable {
    /// `tty` when standard error is a terminal, else `plain`.
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
  var progress: ProgressMode = .auto
  /// `--max-side`, `--max-frames`, `--max-pixels`: caps on one job's size.
  var limits = JobLimits()
  /// `--allow-outside DIR`: folders besides its own a job may read and write.
  var paths = PathPolicy()

  /// A usage error: printed with a hint to `--help`, exit status 2.
  struct UsageError: Error, CustomStringConvertible {
    var description: String
  }

  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    var inputs: [String] = []
    var rest = arguments[...]
    var json = false
    var isPlan = false
    if rest.first == "list" {
      rest.removeFirst()
      options.command = .list
    } else if rest.first == "plan" {
      rest.removeFirst()
      isPlan = true
    } else if rest.first == "frame" {
      rest.removeFirst()
      return try parseFrame(rest)
    } else if rest.first == "curve" {
      rest.removeFirst()
      return try parseCurve(rest)
    }
    while let raw = rest.popFirst() {
      // `--name=value` is `--name value`.
      var arg = raw
      var attached: String?
      if raw.hasPrefix("--"), let eq = raw.firstIndex(of: "=") {
        arg = String(raw[..<eq])
        attached = String(raw[raw.index(after: eq)...])
      } else if raw.hasPrefix("-j"), raw.count > 2, !raw.hasPrefix("--") {
        arg = "-j"
        attached = String(raw.dropFirst(2))
      }
      func value() throws -> String {
        if let attached { return attached }
        guard let v = rest.popFirst(), !v.hasPrefix("-") || v == "-" else {
          throw UsageError(description: "option \(arg) needs a value")
        }
        return v
      }
      func positiveInteger() throws -> Int {
        let text = try value()
        guard let n = Int(text), n >= 1 else {
          throw UsageError(description: "option \(arg) needs a whole number ≥ 1, got '\(text)'")
        }
        return n
      }
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "--version": return Options(command: .version)
      case "-o", "--output-dir": options.outputDirectory = try nonEmpty(try value(), arg)
      case "--allow-outside": options.paths.allowed.append(try nonEmpty(try value(), arg))
      case "--format":
        let list = try value().split(separator: ",").map(String.init)
        guard !list.isEmpty else { throw UsageError(description: "option --format needs a value") }
        var formats: [OutputFormat] = []
        for name in list {
          guard let format = OutputFormat(rawValue: name) else {
            throw UsageError(description: "unknown format '\(name)'\(OutputFormat.hint(forUnknown: name))")
          }
          guard !formats.contains(format) else { throw UsageError(description: "format '\(name)' is listed twice") }
          formats.append(format)
        }
        options.formats = formats
      case "--force": options.force = true
      case "-q", "--quiet": options.quiet = true
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
      case "--progress":
        let text = try value()
        guard let mode = ProgressMode(rawValue: text), mode != .tty else {
          throw UsageError(description: "--progress needs auto, plain, ndjson or none, got '\(text)'")
        }
        options.progress = mode
      case "--max-side":
        let n = try positiveInteger()
        guard n <= JobLimits.largestSide else {
          throw UsageError(description: "option --max-side allows at most \(JobLimits.largestSide) pixels, got '\(n)'")
        }
        options.limits.maxSide = n
      case "--max-frames": options.limits.maxFrames = try positiveInteger()
      case "--max-pixels": options.limits.maxPixels = try positiveInteger()
      case "--json" where isPlan: json = true
      case "--":
        inputs.append(contentsOf: rest)
        rest = []
      default:
        if arg.hasPrefix("-") && arg != "-" {
          throw UsageError(description: "unknown option '\(raw)'")
        }
        inputs.append(arg)
      }
    }
    if options.command == .list {
      guard inputs.isEmpty else { throw UsageError(description: "'list' takes no arguments") }
      return options
    }
    guard !inputs.isEmpty else { throw UsageError(description: "no job files given") }
    options.command = isPlan ? .plan(inputs: inputs, json: json) : .render(inputs: inputs)
    return options
  }

  /// `path`, unless it is empty (`-o ""`): a usage error naming the option.
  private static func nonEmpty(_ path: String, _ option: String) throws -> String {
    guard !path.isEmpty else { throw UsageError(description: "option \(option) needs a path, got an empty one") }
    return path
  }

  /// `curve NAME|SPEC [--samples N] [--duration S]`.
  private static func parseCurve(_ arguments: ArraySlice<String>) throws -> Options {
    var rest = arguments
    var spec: String?, samples = 101, duration: Double?
    while let arg = rest.popFirst() {
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "--samples", "-n":
        guard let v = rest.popFirst(), let n = Int(v), (2...100_000).contains(n) else {
          throw UsageError(description: "--samples needs a whole number from 2 to 100000")
        }
        samples = n
      case "--duration":
        guard let v = rest.popFirst(), let d = Double(v), d.isFinite, d > 0, d <= 600 else {
          throw UsageError(description: "--duration needs a number of seconds from 0 to 600")
        }
        duration = d
      default:
        guard spec == nil, !arg.hasPrefix("--") else { throw UsageError(description: "unexpected argument '\(arg)' for 'curve'") }
        spec = arg
      }
    }
    guard let spec else { throw UsageError(description: "'curve' needs a curve name or spec, e.g. easeInEaseOut") }
    return Options(command: .curve(spec: spec, samples: samples, duration: duration))
  }

  /// `frame JOB.cfg --time T -o FILE.png`.
  private static func parseFrame(_ arguments: ArraySlice<String>) throws -> Options {
    var rest = arguments
    var job: String?, time: Double?, output: String?
    var paths = PathPolicy()
    while let arg = rest.popFirst() {
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "--time", "-t":
        guard let v = rest.popFirst(), let t = Double(v), t.isFinite, t >= 0 else {
          throw UsageError(description: "--time needs a number of seconds ≥ 0")
        }
        time = t
      case "-o", "--output":
        guard let v = rest.popFirst() else { throw UsageError(description: "option \(arg) needs a value") }
        output = try nonEmpty(v, arg)
      case "--allow-outside":
        guard let v = rest.popFirst() else { throw UsageError(description: "option \(arg) needs a value") }
        paths.allowed.append(try nonEmpty(v, arg))
      default:
        guard !arg.hasPrefix("-"), job == nil else { throw UsageError(description: "unexpected argument '\(arg)' for 'frame'") }
        job = arg
      }
    }
    guard let job else { throw UsageError(description: "'frame' needs a job file") }
    guard let time else { throw UsageError(description: "'frame' needs --time SECONDS") }
    guard let output else { throw UsageError(description: "'frame' needs -o FILE.png") }
    return Options(command: .frame(job: job, time: time, output: output, paths: paths))
  }
}
