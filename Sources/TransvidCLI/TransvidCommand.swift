// TransvidCLI: the command line and the batch runner. The executable target
// `transvid` is one line that calls `TransvidCommand.main`. A batch of
// several jobs renders each in a worker process of the same executable
// (`transvid __worker`: `WorkerProcess`, `JobWorker`), so that a job which
// crashes, runs out of memory or overruns `--job-timeout` fails alone; what
// the batch decides and commits (plan, cache, renames, reports) stays here.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs
import Media
import Motion
import Transitions

/// transvid's entry point.
public enum TransvidCommand {
  public static let version = "0.1.0"

  static let usage = """
    USAGE: transvid [options] JOB.cfg|DIR ...
           transvid plan [options] JOB.cfg|DIR ... [--json]
           transvid check [options] JOB.cfg|DIR ...
           transvid gallery REPORT.json|DIR ... -o DIR
           transvid watch JOB.cfg [-o DIR] [--format LIST] [--draft]
           transvid list [devices]
           transvid frame JOB.cfg --time T -o FRAME.png [--locale L] [--appearance light|dark]
                          [--allow-outside DIR] [--max-side N ...] [-q]
           transvid curve NAME|SPEC [--samples N] [--duration S]

    Renders job files (YAML) into demo videos of iOS screen transitions.
    A directory stands for every *.cfg, *.yaml and *.yml file below it. Jobs whose
    outputs are up to date (same job, assets, formats and transvid version) are
    skipped. 'check' parses every job and renders nothing (exit 1 if one is broken).
    'plan' and 'check' take a render's options but -j, --job-timeout, --progress,
    --cache-max-bytes, --report, --junit, --gallery (and check --cache, plan -q).
    'gallery' merges the reports of shards (files, or folders holding them) into
    DIR/index.html and DIR/report.json. 'watch' renders again whenever the job or
    an image it uses changes (--draft: 1x, 15 fps), with a preview page that
    reloads itself, until Ctrl-C; it also takes --target, --locale, --force,
    --allow-outside, the --max-* limits and -q, not a batch's other options.

    OPTIONS:
      -o, --output-dir DIR   where outputs go (default: the job's output.dir, else ./out)
      --format LIST          override the job's formats: \(OutputFormat.names.joined(separator: ","))
      --target NAME          settings for a destination (github, web, editor) where jobs do not write them
      -j, --jobs N           jobs rendered at once (default: the number of cores)
      --force                render even when outputs are up to date
      --locale LIST          render only these of the jobs' locales (e.g. ar,ja)
      --shard K/N            render only part K of N (K from 1); default from
                             JOB_COMPLETION_INDEX (0-based) with --shard-count N or
                             TRANSVID_SHARD_COUNT, or SLURM_ARRAY_TASK_ID/_COUNT
      --shard-count N        N for JOB_COMPLETION_INDEX
      --report FILE.json     per job: status, outputs, bytes, frames, time, errors
      --junit FILE.xml       one JUnit test case per job, for CI
      --gallery DIR          write DIR/index.html showing every demo
      --cache DIR            a store of finished outputs shared by shards and runs:
                             a job found there is copied, not rendered
      --cache-max-bytes N    keep the --cache store under N bytes, or a size: 10GB, 10GiB (oldest use goes first)
      --job-timeout S        stop a job still rendering after S seconds (0.001 to 10000000); it fails, the others run
      --allow-outside DIR    let jobs read images, fonts and catalogs and write output.dir in DIR too
                             (by default only inside the job file's own folder;
                             repeatable, as no other option is; --allow-outside / allows any path)
      --progress MODE        auto (bars on a terminal, else plain), plain, ndjson, none
      --max-side N           refuse canvases over N pixels wide or high (default 8192)
      --max-frames N         refuse jobs over N frames (default 20000)
      --max-pixels N         refuse jobs over N pixels in all frames (default 20000000000)
      --max-layer-pixels N   refuse jobs whose screens and text views hold over N pixels
                             (a canvas per screen, each text frame and flown view; default 500000000)
      --max-draw-pixels N    refuse jobs whose screens' snapshots draw over N pixels (each canvas
                             and every view's frame within it, each time drawn; default 5000000000)
      -q, --quiet            print errors only
      --version              print the version
      -h, --help             show this help

    A SUBCOMMAND'S OWN OPTIONS:
      --json                 plan: the plan as JSON (jobs, shards, cache keys, costs)
      --draft                watch: render at 1x and 15 fps
      -t, --time T           frame: the frame a player shows at T seconds (frame ⌊T·fps⌋)
      --appearance MODE      frame: light or dark (default: the job's first)
      -n, --samples N        curve: rows of the CSV, 2 to 100000 (default 101)
      --duration S           curve: the seconds the rows span (a UIKit spring without
                             its own duration takes it)

    EXAMPLE:
      transvid jobs/circle-spread.cfg        writes out/circle-spread.mp4
      transvid jobs -j 4 --report out/report.json --gallery out

    EXIT STATUS: 0 all jobs fine, 1 a job failed (the others still ran) or none was
    found, 2 usage error (a job file or folder named that does not exist is one:
    nothing renders), 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM (nothing
    partial is left).
    """

  /// Runs the command line `arguments` (without the program name) and
  /// returns the exit status.
  ///
  /// With `isolatesJobs` (`main`'s), a batch of several jobs renders them in
  /// worker processes, each this executable (`WorkerProcess`); without, in
  /// this process (a test runner is no `transvid` to start).
  public static func run(
    _ arguments: [String], console: Console = .standard,
    environment: [String: String] = ProcessInfo.processInfo.environment, isolatesJobs: Bool = false
  ) -> Int32 {
    // FFmpeg's own log lines ("[png @ 0x…] inflate returned error -3") would
    // only repeat, without the job's name, what the job's error already says:
    // `MediaError` keeps FFmpeg's last error either way.
    MediaLog.setLevel(.quiet)
    let options: Options
    do {
      options = try Options.parse(arguments)
    } catch {
      console.error("transvid: \(error)\nRun 'transvid --help' for usage.")
      return 2
    }
    // Outputs go into a folder, reports into files: the wrong kind there
    // would fail every job alike, or the run after every job rendered.
    var isFolder: ObjCBool = false
    if let folder = options.outputDirectory {
      if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
        console.error("transvid: -o '\(folder)' is a file; outputs go into a folder\nRun 'transvid --help' for usage.")
        return 2
      }
      // A name or path longer than the system takes would fail every job alike too.
      let longestName = folder.split(separator: "/").map(\.utf8.count).max() ?? 0
      let tooLong =
        longestName > PathLimits.longestName
        ? "a folder name in it is \(longestName) bytes long" + PathLimits.nameClause : PathLimits.pathProblem(folder)
      if let why = tooLong {
        console.error("transvid: -o '\(folder)': \(why)\nRun 'transvid --help' for usage.")
        return 2
      }
      // A file where one of its folders should be is as wrong (every job would fail alike), as for `gallery -o`.
      do throws(MediaError) {
        try Platform.checkDirectories(folder)
      } catch {
        console.error("transvid: -o '\(folder)': \(error.message)\nRun 'transvid --help' for usage.")
        return 2
      }
    }
    for (option, file) in [("--report", options.report), ("--junit", options.junit)] {
      guard let file, FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue else { continue }
      console.error("transvid: \(option) '\(file)' is a folder; give a file\nRun 'transvid --help' for usage.")
      return 2
    }
    // A report that cannot be written (a device such as /dev/null, a FIFO,
    // a file where its folder should be) is refused now, not after the run.
    let pages = [
      ("--report", options.report), ("--junit", options.junit), ("--gallery", options.gallery.map(BatchRunner.galleryPage)),
    ]
    for case (let option, let file?) in pages {
      // What is in the way is named: the gallery's folder, or its page (a folder named index.html).
      var named = file
      do throws(MediaError) {
        if option == "--gallery", let folder = options.gallery {
          named = folder
          try Platform.checkDirectories(folder)
          named = file
        }
        try AtomicFile.check(replacing: file)
      } catch {
        console.error("transvid: \(option) '\(named)': \(error.message)\nRun 'transvid --help' for usage.")
        return 2
      }
    }
    // The frame's PNG is refused as a report is, before anything is drawn.
    if case .frame(_, _, let output, _) = options.command {
      do throws(MediaError) {
        if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue {
          console.error("transvid: -o '\(output)' is a folder; give a file\nRun 'transvid --help' for usage.")
          return 2
        }
        try AtomicFile.check(replacing: output)
      } catch {
        console.error("transvid: -o '\(output)': \(error.message)\nRun 'transvid --help' for usage.")
        return 2
      }
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
    case .listDevices:
      console.print(ListCommand.devices())
      return 0
    case .curve(let spec, let samples, let duration):
      do {
        // UIKit's spring form without its own duration takes --duration's, as it takes a step's.
        let curve = try AnimationCurve(parsing: spec, duration: duration)
        guard (duration ?? curve.naturalDuration).isFinite else {
          console.error(
            "transvid: '\(spec)' never comes to rest (it has no damping); give --duration SECONDS\n"
              + "Run 'transvid --help' for usage.")
          return 2
        }
        let csv = CurveSample.csv(for: curve.samples(count: samples, duration: duration))
        console.print(String(csv.dropLast()))  // print adds the last newline
        return 0
      } catch {
        var message = error.message
        // UIKit's form missing its duration: --duration gives it one here, as a step's duration does in a job.
        if duration == nil, error.reason == .incompleteOrMixedForm, message.hasPrefix("spring: give 'duration'") {
          message += "; or give --duration SECONDS, which UIKit's form without a duration of its own takes"
        }
        console.error("transvid: \(message)\nRun 'transvid --help' for usage.")
        return 2
      }
    case .frame(let job, let time, let output, let paths):
      return FrameCommand.run(
        job: job, time: time, output: output, paths: paths, limits: options.limits, locale: options.locales?.first,
        appearance: options.appearance, quiet: options.quiet, console: console)
    case .render(let inputs):
      // A mistyped subcommand (`transvid chekc jobs`) names no file: say which it may be.
      if let first = arguments.first, first == inputs.first, let hint = Subcommand.hint(forMissingFirst: first) {
        console.error("transvid: no such file or directory: \(first)\(hint)\nRun 'transvid --help' for usage.")
        return 2
      }
      var runner = BatchRunner(options: options, console: console, environment: environment)
      if isolatesJobs { runner.workerLaunch = WorkerLaunch(arguments: arguments) }
      return runner.run(inputs: inputs)
    case .plan(let inputs, let json):
      return PlanCommand.run(inputs: inputs, json: json, options: options, environment: environment, console: console)
    case .check(let inputs):
      return CheckCommand.run(inputs: inputs, options: options, console: console)
    case .gallery(let inputs, let output):
      return GalleryCommand.run(inputs: inputs, output: output, console: console)
    case .watch(let job):
      return WatchCommand.run(job: job, options: options, console: console)
    }
  }

  /// The executable's `main`.
  public static func main() -> Never {
    HeapReuse.setUp()
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == JobWorker.command {
      MediaLog.setLevel(.quiet)
      exit(JobWorker.run(Array(arguments.dropFirst()), console: .standard))
    }
    Cancellation.installSignalHandlers(console: .standard)
    exit(run(arguments, isolatesJobs: true))
  }
}
