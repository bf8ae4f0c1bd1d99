/// The command line, parsed. transvid's grammar is small enough that a
/// hand-written parser states it more plainly than a framework would (and
/// SwiftPM cannot fetch swift-argument-parser here).
struct Options: Sendable {
  enum Command: Sendable, Equatable {
    case render(inputs: [String])
    case list
    /// `frame JOB --time T -o FILE.png`: one frame as PNG.
    case frame(job: String, time: Double, output: String)
    case help
    case version
  }

  var command: Command = .help
  var outputDirectory: String?
  var formats: [String]?
  var force = false
  var quiet = false

  /// A usage error: printed with a hint to `--help`, exit status 2.
  struct UsageError: Error, CustomStringConvertible {
    var description: String
  }

  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    var inputs: [String] = []
    var rest = arguments[...]
    if rest.first == "list" {
      rest.removeFirst()
      options.command = .list
    }
    if rest.first == "frame" {
      rest.removeFirst()
      return try parseFrame(rest)
    }
    func value(for flag: String) throws -> String {
      guard let v = rest.popFirst(), !v.hasPrefix("-") || v == "-" else {
        throw UsageError(description: "option \(flag) needs a value")
      }
      return v
    }
    while let arg = rest.popFirst() {
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "--version": return Options(command: .version)
      case "-o", "--output-dir": options.outputDirectory = try value(for: arg)
      case "--format":
        let list = try value(for: arg).split(separator: ",").map(String.init)
        for f in list where !["mp4", "gif", "png", "sheet"].contains(f) {
          throw UsageError(description: "unknown format '\(f)' (expected mp4, gif, png or sheet)")
        }
        options.formats = list
      case "--force": options.force = true
      case "-q", "--quiet": options.quiet = true
      case "--":
        inputs.append(contentsOf: rest)
        rest = []
      default:
        if arg.hasPrefix("--output-dir=") {
          options.outputDirectory = String(arg.dropFirst("--output-dir=".count))
        } else if arg.hasPrefix("-") && arg != "-" {
          throw UsageError(description: "unknown option '\(arg)'")
        } else {
          inputs.append(arg)
        }
      }
    }
    if options.command == .list {
      guard inputs.isEmpty else { throw UsageError(description: "'list' takes no arguments") }
      return options
    }
    guard !inputs.isEmpty else { throw UsageError(description: "no job files given") }
    options.command = .render(inputs: inputs)
    return options
  }

  /// `frame JOB.cfg --time T -o FILE.png`.
  private static func parseFrame(_ arguments: ArraySlice<String>) throws -> Options {
    var rest = arguments
    var job: String?, time: Double?, output: String?
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
        output = v
      default:
        guard !arg.hasPrefix("-"), job == nil else { throw UsageError(description: "unexpected argument '\(arg)' for 'frame'") }
        job = arg
      }
    }
    guard let job else { throw UsageError(description: "'frame' needs a job file") }
    guard let time else { throw UsageError(description: "'frame' needs --time SECONDS") }
    guard let output else { throw UsageError(description: "'frame' needs -o FILE.png") }
    return Options(command: .frame(job: job, time: time, output: output))
  }
}
