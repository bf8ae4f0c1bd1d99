// TransvidCLI: the command line and the batch runner. The executable target
// `transvid` is one line that calls `TransvidCommand.main`.

#if canImport(Glibc)
import Glibc
#endif
import Transitions

/// transvid's entry point.
public enum TransvidCommand {
  public static let version = "0.1.0"

  static let usage = """
    USAGE: transvid [options] JOB.cfg|DIR ...
           transvid list
           transvid frame JOB.cfg --time T -o FRAME.png

    Renders job files (YAML) into demo videos of iOS screen transitions.
    A directory stands for every *.cfg file below it.

    OPTIONS:
      -o, --output-dir DIR   where outputs go (default: the job's output.dir, else ./out)
      --format LIST          override the job's formats: mp4,gif,png,sheet
      --force                render even when outputs are up to date
      -q, --quiet            print errors only
      --version              print the version
      -h, --help             show this help

    EXAMPLE:
      transvid jobs/circle-spread.cfg        writes out/circle-spread.mp4

    EXIT STATUS: 0 all jobs fine, 1 a job failed (the others still ran), 2 usage error.
    """

  /// Runs the command line `arguments` (without the program name) and
  /// returns the exit status.
  public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
    let options: Options
    do {
      options = try Options.parse(arguments)
    } catch {
      console.error("transvid: \(error)\nRun 'transvid --help' for usage.")
      return 2
    }
    switch options.command {
    case .help:
      console.print(usage)
      return 0
    case .version:
      console.print("transvid \(version)")
      return 0
    case .list:
      console.print(ListCommand.text())
      return 0
    case .frame(let job, let time, let output):
      return FrameCommand.run(job: job, time: time, output: output, console: console)
    case .render(let inputs):
      return BatchRunner(options: options, console: console).run(inputs: inputs)
    }
  }

  /// The executable's `main`.
  public static func main() -> Never {
    exit(run(Array(CommandLine.arguments.dropFirst())))
  }
}
