import Foundation
import Jobs
import Media
import Rendering
import Testing
import TestSupport

@testable import TransvidCLI

@Suite struct ShardTests {
  @Test func parsing() {
    #expect(Shard(parsing: "2/3") == Shard(index: 2, count: 3))
    for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", ""] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
  }

  @Test func environment() throws {
    #expect(try Shard.fromEnvironment([:], count: nil) == nil)
    #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "0"], count: 4) == Shard(index: 1, count: 4))
    #expect(
      try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3", "TRANSVID_SHARD_COUNT": "4"], count: nil)
        == Shard(index: 4, count: 4))
    #expect(throws: Options.UsageError.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "0"], count: nil) }
    #expect(throws: Options.UsageError.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "4"], count: 4) }
    // Slurm: --array=1-4 gives ids 1…4 and MIN 1; --array=0-3 gives 0…3.
    #expect(
      try Shard.fromEnvironment(
        ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"], count: nil)
        == Shard(index: 1, count: 4))
    #expect(
      try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"], count: nil)
        == Shard(index: 4, count: 4))
    #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3"], count: 4) == Shard(index: 4, count: 4))
    // A task id without a count would have every task render the whole batch.
    #expect(throws: Options.UsageError(
      description: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: pass --shard-count N")) {
      try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "1"], count: nil)
    }
    // --shard-count agrees with the array's own count (the README's sbatch passes both), or shards go unrendered.
    let slurm = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "2", "SLURM_ARRAY_TASK_COUNT": "3"]
    #expect(try Shard.fromEnvironment(slurm, count: 3) == Shard(index: 3, count: 3))
    #expect(throws: Options.UsageError(
      description: "--shard-count 4 and SLURM_ARRAY_TASK_COUNT=3 disagree: the array must have one task per shard")) {
      try Shard.fromEnvironment(slurm, count: 4)
    }
    // A count of no shards is named as such (it was "shard index 0 (0-based), not in 0..<-3").
    for (environment, message) in [
      (["JOB_COMPLETION_INDEX": "0", "TRANSVID_SHARD_COUNT": "0"], "TRANSVID_SHARD_COUNT='0' is not a shard count: it needs a whole number ≥ 1"),
      (["JOB_COMPLETION_INDEX": "0", "TRANSVID_SHARD_COUNT": "-1"], "TRANSVID_SHARD_COUNT='-1' is not a shard count: it needs a whole number ≥ 1"),
      (["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "-3"], "SLURM_ARRAY_TASK_COUNT='-3' is not a shard count: it needs a whole number ≥ 1"),
    ] {
      #expect(throws: Options.UsageError(description: message)) { try Shard.fromEnvironment(environment, count: nil) }
    }
    // --shard-count takes the place of TRANSVID_SHARD_COUNT, which is then not read.
    #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "0", "TRANSVID_SHARD_COUNT": "0"], count: 2) == Shard(index: 1, count: 2))
    // --array=0-6:2 (tasks 0, 2, 4, 6) would leave shards 2 and 4 to no task.
    #expect(throws: Options.UsageError(
      description: "the Slurm array is not contiguous (SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_MAX=6, "
        + "SLURM_ARRAY_TASK_COUNT=4): give it as --array=0-3")) {
      try Shard.fromEnvironment(
        ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_COUNT": "4"],
        count: nil)
    }
  }

  /// A batch's shard: `--shard`, else the environment, else the whole batch;
  /// a count with nothing to say which shard, or one that disagrees with
  /// `--shard`, is a usage error.
  /// `list` takes `devices` and nothing else, and says so.
  @Test func listSaysWhatItTakes() throws {
    #expect(throws: Options.UsageError(
      description: "'list' takes no arguments but 'devices' ('transvid list devices'), got 'nope'")) {
      try Options.parse(["list", "nope"])
    }
    // No options but --help: a render's were taken and dropped, and another subcommand's said to be a render's.
    for (args, message) in [
      (["list", "-j", "2"], "'list' takes no options, got '-j' (transvid list [devices])"),
      (["list", "--report", "r.json"], "'list' takes no options, got '--report' (transvid list [devices])"),
      (["list", "devices", "-o", "out"], "'list' takes no options, got '-o' (transvid list [devices])"),
      (["list", "--force=yes"], "'list' takes no options, got '--force=yes' (transvid list [devices])"),
      (["list", "--json"], "'list' takes no --json: it is plan's option (transvid plan JOB.cfg|DIR ... --json)"),
      (["list", "-q", "devices"], "'list' takes no options, got '-q' (transvid list [devices])"),
      (["list", "devices", "all"], "'list' takes no arguments but 'devices' ('transvid list devices'), got 'all'"),
    ] {
      #expect(throws: Options.UsageError(description: message), "\(args)") { try Options.parse(args) }
    }
    #expect(try Options.parse(["list"]).command == .list)
    #expect(try Options.parse(["list", "devices"]).command == .listDevices)
    #expect(try Options.parse(["list", "--", "devices"]).command == .listDevices)
    #expect(try Options.parse(["list", "--help"]).command == .help)
  }

  @Test func batchShard() throws {
    let three = Shard(index: 1, count: 3)
    #expect(try Shard.forBatch(nil, count: nil, environment: [:]) == .all)
    #expect(try Shard.forBatch(three, count: nil, environment: ["JOB_COMPLETION_INDEX": "2"]) == three)
    #expect(try Shard.forBatch(three, count: 3, environment: [:]) == three)
    #expect(try Shard.forBatch(nil, count: 3, environment: ["JOB_COMPLETION_INDEX": "2"]) == Shard(index: 3, count: 3))
    #expect(throws: Options.UsageError(description: "--shard 1/3 and --shard-count 4 disagree")) {
      try Shard.forBatch(three, count: 4, environment: [:])
    }
    #expect(throws: Options.UsageError(
      description: "--shard-count 3 needs the shard's index: JOB_COMPLETION_INDEX (0-based) or "
        + "SLURM_ARRAY_TASK_ID in the environment, or --shard K/3")) {
      try Shard.forBatch(nil, count: 3, environment: [:])
    }
    // TRANSVID_SHARD_COUNT alone (a machine-wide setting) is no shard.
    #expect(try Shard.forBatch(nil, count: nil, environment: ["TRANSVID_SHARD_COUNT": "3"]) == .all)
    // `plan` refuses the disagreement the batch refuses.
    let capture = Capture()
    #expect(transvid(["plan", "--shard", "1/2", "--shard-count", "3", "nowhere.cfg"], capture) == 2)
    #expect(capture.err.first?.hasPrefix("transvid: --shard 1/2 and --shard-count 3 disagree\n") == true, "\(capture.err)")
  }

  /// Longest-processing-time: balanced, and independent of the input order.
  @Test func assignmentIsBalancedAndStable() {
    let costs = [8, 7, 7, 6, 6, 5, 5, 1]
    let keys = costs.indices.map { "job-\($0).cfg" }
    let shards = Shard.assign(costs: costs, keys: keys, count: 3)
    var load = [0, 0, 0]
    for (cost, shard) in zip(costs, shards) { load[shard - 1] += cost }
    // LPT's bound: the busiest shard gets at most 4/3 of a perfect split (here 18 of 15).
    #expect(load == [18, 14, 13])
    let reversed = Shard.assign(costs: costs.reversed(), keys: keys.reversed(), count: 3)
    #expect(Array(reversed.reversed()) == shards)
    #expect(Shard.assign(costs: [3, 3], keys: ["b", "a"], count: 2) == [2, 1])
  }
}

/// With several workers the costliest jobs are taken first; ties keep the plan's order.
@Suite struct ClaimOrderTests {
  @Test func costliestFirstTiesInPlanOrder() {
    let jobs = [5, 90, 5, 0, 90, 40].enumerated().map { i, cost in
      var job = PlannedJob(file: "\(i).cfg", name: "\(i)")
      job.cost = cost
      return job
    }
    #expect(BatchRunner.claimOrder(jobs) == [1, 4, 5, 0, 2, 3])
  }
}

@Suite struct OptionsTests {
  @Test func batchOptions() throws {
    let o = try Options.parse([
      "jobs", "-j", "3", "--shard=2/5", "--report", "r.json", "--junit=j.xml", "--gallery", "g", "--progress", "ndjson",
      "--force", "--format", "mp4,gif",
    ])
    #expect(o.command == .render(inputs: ["jobs"]))
    #expect(o.jobs == 3 && o.shard == Shard(index: 2, count: 5) && o.report == "r.json" && o.junit == "j.xml")
    #expect(o.gallery == "g" && o.progress == .ndjson && o.force && o.formats == [.mp4, .gif])
    #expect(try Options.parse(["-j4", "x.cfg"]).jobs == 4)
    // A quoted list with spaces after its commas, as shell users write one.
    #expect(try Options.parse(["--format", "mp4, gif", "x.cfg"]).formats == [.mp4, .gif])
    #expect(try Options.parse(["--locale", " ar , ja", "x.cfg"]).locales == ["ar", "ja"])
    // Large limits as the help writes them.
    #expect(try Options.parse(["--max-pixels", "2e10", "x.cfg"]).limits.maxPixels == 20_000_000_000)
    #expect(try Options.parse(["--max-layer-pixels", "5E8", "x.cfg"]).limits.maxLayerPixels == 500_000_000)
    #expect(try Options.parse(["--max-draw-pixels", "5e9", "x.cfg"]).limits.maxDrawPixels == 5_000_000_000)
    #expect(try Options.parse(["--max-pixels", "92233720368547758e2", "x.cfg"]).limits.maxPixels == 9_223_372_036_854_775_800)
    #expect(try Options.parse(["--max-side", "1e-0", "x.cfg"]).limits.maxSide == 1)
    #expect(throws: Options.UsageError(description: "option --max-pixels needs a whole number ≥ 1, got '2.5e0'")) {
      try Options.parse(["--max-pixels", "2.5e0", "x.cfg"])
    }
    // A whole number too large for any count is said to be too large, not malformed.
    for text in ["9223372036854775808", "99999999999999999999", "1e400", "9.3e18"] {
      #expect(throws: Options.UsageError(description: "option --max-pixels allows at most 9223372036854775807, got '\(text)'")) {
        try Options.parse(["--max-pixels", text, "x.cfg"])
      }
    }
    #expect(try Options.parse(["plan", "jobs", "--json"]).command == .plan(inputs: ["jobs"], json: true))
  }

  /// `--cache-max-bytes` takes a size as job files write one (the README
  /// sweep): `10GB` was refused ("needs a whole number ≥ 1") where
  /// `maxBytes: 10MB` is the README's own spelling of a size.
  @Test func theStoresBoundIsASize() throws {
    for (text, bytes) in [("10GB", 10_000_000_000), ("500MiB", 524_288_000), ("1.5 GB", 1_500_000_000), ("2e10", 20_000_000_000), ("9", 9)] {
      #expect(try Options.parse(["--cache", "c", "--cache-max-bytes", text, "x.cfg"]).cacheMaxBytes == bytes, "\(text)")
    }
    #expect(throws: Options.UsageError(
      description: "option --cache-max-bytes allows at most 9223372036854775807 bytes, got '99999999999999999999'")) {
      try Options.parse(["--cache", "c", "--cache-max-bytes", "99999999999999999999", "x.cfg"])
    }
    for text in ["0", "0MB", "10 gb", "-1", "many"] {
      #expect(throws: Options.UsageError(
        description: "option --cache-max-bytes needs a size of 1 byte or more (a number, or like 10GB or 10GiB), got '\(text)'")) {
        try Options.parse(["--cache", "c", "--cache-max-bytes", text, "x.cfg"])
      }
    }
  }

  @Test func batchUsageErrors() {
    for (args, message) in [
      (["-j", "0", "x.cfg"], "transvid: option -j needs a whole number ≥ 1, got '0'"),
      (["--shard", "4/3", "x.cfg"], "transvid: --shard needs K/N with 1 ≤ K ≤ N (K is 1-based), got '4/3'"),
      (["--progress", "loud", "x.cfg"], "transvid: --progress needs auto, plain, ndjson or none, got 'loud'"),
      // Names are written as listed, on the command line as in a job file (`appearances: [DARK]`): a wrong case is a near miss.
      (["--progress", "PLAIN", "x.cfg"], "transvid: --progress needs auto, plain, ndjson or none, got 'PLAIN'; did you mean 'plain'?"),
      (["frame", "x.cfg", "-t", "0", "-o", "f.png", "--appearance", "DARK"],
       "transvid: --appearance needs light or dark, got 'DARK'; did you mean 'dark'?"),
      (["x.cfg", "--json"], "transvid: a render takes no --json: it is plan's option (transvid plan JOB.cfg|DIR ... --json)"),
      // A flag takes no value: --json=false was --json, --force=no forced.
      (["plan", "x.cfg", "--json=false"], "transvid: option --json takes no value, got '--json=false'"),
      (["x.cfg", "--force=no"], "transvid: option --force takes no value, got '--force=no'"),
      // An empty item in a list is said, not skipped (`--format "$A,$B"` with no $B).
      (["--format", "png,,gif", "x.cfg"], "transvid: option --format has an empty item (item 2 of 'png,,gif'); write the list without it: png,gif"),
      (["check", "--format", "gif, ", "x.cfg"], "transvid: option --format has an empty item (item 2 of 'gif, '); write the list without it: gif"),
      (["--locale", ",ar", "x.cfg"], "transvid: option --locale has an empty item (item 1 of ',ar'); write the list without it: ar"),
    ] {
      let capture = Capture()
      #expect(TransvidCommand.run(args, console: capture.console, environment: [:]) == 2)
      #expect(capture.err == [message + "\nRun 'transvid --help' for usage."])
    }
    let capture = Capture()
    #expect(TransvidCommand.run(["x.cfg"], console: capture.console, environment: ["JOB_COMPLETION_INDEX": "1"]) == 2)
  }
}

/// A short option that takes a value takes it attached too, as POSIX's
/// getopt reads `-oout` (it was an unknown option; only `-j4` was read so).
@Suite struct AttachedShortOptionTests {
  @Test func aShortOptionTakesItsValueAttached() throws {
    let render = try Options.parse(["-oout", "-j2", "x.cfg"])
    #expect(render.outputDirectory == "out" && render.jobs == 2 && render.command == .render(inputs: ["x.cfg"]))
    #expect(try Options.parse(["watch", "x.cfg", "-o../demo"]).outputDirectory == "../demo")
    let frame = try Options.parse(["frame", "x.cfg", "-t0.5", "-of.png"]).command
    #expect(frame == .frame(job: "x.cfg", time: 0.5, output: "f.png", paths: PathPolicy()))
    #expect(try Options.parse(["curve", "easeIn", "-n3"]).command == .curve(spec: "easeIn", samples: 3, duration: nil))
    #expect(try Options.parse(["gallery", "r.json", "-om"]).command == .gallery(inputs: ["r.json"], output: "m"))
    for (args, message) in [
      (["-o=out", "x.cfg"], "option -o takes its value as '-o VALUE' or '-oVALUE', not '-o=out'"),
      (["frame", "x.cfg", "-t=1", "-o", "f.png"], "option -t takes its value as '-t VALUE' or '-tVALUE', not '-t=1'"),
      (["x.cfg", "-oa", "-ob"], "option -o is given twice ('-o a' and '-o b'); give it once"),
      (["x.cfg", "-qj2"], "unknown option '-qj2'"),
    ] {
      let capture = Capture()
      #expect(TransvidCommand.run(args, console: capture.console, environment: [:]) == 2, "\(args)")
      #expect(capture.err == ["transvid: \(message)\nRun 'transvid --help' for usage."])
    }
  }
}

/// `check` and `plan` write no report, JUnit file or gallery: given one,
/// they took it and wrote nothing, so a CI step publishing it passed empty.
@Suite struct CheckWritesNoReportTests {
  @Test func aReportOptionIsAUsageErrorOutsideARender() throws {
    for (args, message) in [
      (["check", "x.cfg", "--junit", "j.xml"], "'check' writes no report: --junit is for a render (transvid JOB.cfg|DIR --junit ...)"),
      (["plan", "x.cfg", "--report", "r.json"], "'plan' writes no report: --report is for a render (transvid JOB.cfg|DIR --report ...)"),
      (["check", "x.cfg", "--gallery", "g"], "'check' writes no gallery: --gallery is for a render (transvid JOB.cfg|DIR --gallery ...)"),
    ] {
      let capture = Capture()
      #expect(TransvidCommand.run(args, console: capture.console, environment: [:]) == 2, "\(args)")
      #expect(capture.err == ["transvid: \(message)\nRun 'transvid --help' for usage."])
    }
  }

  /// Nor do they run, time, show or store renders: `-j`, `--job-timeout`,
  /// `--progress`, `--cache-max-bytes` (and check's `--cache`, plan's `-q`)
  /// were taken and dropped, `check jobs --job-timeout 1` passing whatever
  /// a job's render would take.
  @Test func aRenderingOptionIsAUsageErrorOutsideARender() throws {
    for (args, message) in [
      (["check", "x.cfg", "-j", "2"],
       "'check' takes no -j: it renders nothing, so no jobs run at once: -j is for a render (transvid JOB.cfg|DIR -j N ...)"),
      (["plan", "x.cfg", "--jobs=2"],
       "'plan' takes no --jobs: it renders nothing, so no jobs run at once: --jobs is for a render (transvid JOB.cfg|DIR --jobs N ...)"),
      (["check", "-j2", "x.cfg"],
       "'check' takes no -j: it renders nothing, so no jobs run at once: -j is for a render (transvid JOB.cfg|DIR -j N ...)"),
      (["plan", "x.cfg", "--job-timeout", "1"],
       "'plan' takes no --job-timeout: it renders nothing, so no job is stopped: --job-timeout is for a render (transvid JOB.cfg|DIR --job-timeout SECONDS ...)"),
      (["check", "x.cfg", "--progress", "ndjson"],
       "'check' takes no --progress: it renders nothing, so it shows no progress: --progress is for a render (transvid JOB.cfg|DIR --progress MODE ...)"),
      // Said before --cache-max-bytes's own want of --cache, which would lead to another usage error.
      (["check", "x.cfg", "--cache-max-bytes", "1GB"],
       "'check' takes no --cache-max-bytes: it leaves the --cache store as it is: --cache-max-bytes is for a render (transvid JOB.cfg|DIR --cache-max-bytes N --cache DIR ...)"),
      (["plan", "x.cfg", "--cache", "c", "--cache-max-bytes", "1GB"],
       "'plan' takes no --cache-max-bytes: it leaves the --cache store as it is: --cache-max-bytes is for a render (transvid JOB.cfg|DIR --cache-max-bytes N --cache DIR ...)"),
      (["check", "x.cfg", "--cache", "c"],
       "'check' takes no --cache: it reads nothing from the store (which jobs the store holds: transvid plan JOB.cfg|DIR --cache DIR)"),
      (["plan", "x.cfg", "-q"], "'plan' takes no -q: the plan is what it prints (for a script: --json)"),
      (["plan", "x.cfg", "--json", "--quiet"], "'plan' takes no --quiet: the plan is what it prints (for a script: --json)"),
    ] {
      let capture = Capture()
      #expect(TransvidCommand.run(args, console: capture.console, environment: [:]) == 2, "\(args)")
      #expect(capture.err == ["transvid: \(message)\nRun 'transvid --help' for usage."])
    }
    // What they do use: plan's --cache (which jobs the store holds), check's -q (errors only).
    #expect(try Options.parse(["plan", "x.cfg", "--cache", "c"]).cache == "c")
    #expect(try Options.parse(["check", "x.cfg", "-q"]).quiet)
  }
}

/// An option takes one value: a second, in any spelling, is a usage error
/// naming it (before, the last one won: `--locale ar --locale en` rendered
/// only en); so is a flag given twice, as `--help` and README say (it was
/// taken: `--force --force`, `-q --quiet`); `--allow-outside` adds a folder each time.
@Suite struct RepeatedOptionTests {
  @Test func aSecondValueIsAUsageError() throws {
    for (args, message) in [
      (["x.cfg", "--locale", "ar", "--locale", "en"],
       "option --locale is given twice ('--locale ar' and '--locale en'); give it once, with a list: --locale ar,en"),
      (["x.cfg", "--format", "mp4", "--format=gif"],
       "option --format is given twice ('--format mp4' and '--format gif'); give it once, with a list: --format mp4,gif"),
      (["x.cfg", "--shard", "1/2", "--shard", "2/2"], "option --shard is given twice ('--shard 1/2' and '--shard 2/2'); give it once"),
      (["x.cfg", "--output-dir", "a", "-o", "b"], "option -o is given twice ('--output-dir a' and '-o b'); give it once"),
      (["check", "x.cfg", "-j2", "--jobs", "3"], "option --jobs is given twice ('-j 2' and '--jobs 3'); give it once"),
      (["plan", "x.cfg", "--max-side", "100", "--max-side", "100"],
       "option --max-side is given twice ('--max-side 100' and '--max-side 100'); give it once"),
      // The list names each item once: `--format gif,gif` is itself a usage error.
      (["watch", "x.cfg", "--format", "gif", "--format", "gif"],
       "option --format is given twice ('--format gif' and '--format gif'); give it once"),
      (["x.cfg", "--format", "mp4,gif", "--format", "gif, webm"],
       "option --format is given twice ('--format mp4,gif' and '--format gif, webm'); give it once, with a list: --format mp4,gif,webm"),
      (["frame", "x.cfg", "-t", "0", "--time", "1", "-o", "f.png"], "option --time is given twice ('-t 0' and '--time 1'); give it once"),
      (["frame", "x.cfg", "--time", "0", "-o", "f.png", "--output", "g.png"],
       "option --output is given twice ('-o f.png' and '--output g.png'); give it once"),
      (["frame", "x.cfg", "--time", "0", "-o", "f.png", "--appearance", "dark", "--appearance", "light"],
       "option --appearance is given twice ('--appearance dark' and '--appearance light'); give it once"),
      (["gallery", "r.json", "-o", "a", "-o", "b"], "option -o is given twice ('-o a' and '-o b'); give it once"),
      (["curve", "easeIn", "-n", "3", "--samples", "5"], "option --samples is given twice ('-n 3' and '--samples 5'); give it once"),
      (["curve", "easeIn", "--duration", "1", "--duration", "2"],
       "option --duration is given twice ('--duration 1' and '--duration 2'); give it once"),
      (["x.cfg", "--force", "--force"], "option --force is given twice ('--force' and '--force'); give it once"),
      (["x.cfg", "-q", "--quiet"], "option --quiet is given twice ('-q' and '--quiet'); give it once"),
      (["check", "x.cfg", "-q", "-q"], "option -q is given twice ('-q' and '-q'); give it once"),
      (["plan", "x.cfg", "--json", "--json"], "option --json is given twice ('--json' and '--json'); give it once"),
      (["watch", "x.cfg", "--draft", "--draft"], "option --draft is given twice ('--draft' and '--draft'); give it once"),
    ] {
      let capture = Capture()
      #expect(TransvidCommand.run(args, console: capture.console, environment: [:]) == 2, "\(args)")
      #expect(capture.err == ["transvid: \(message)\nRun 'transvid --help' for usage."])
    }
    let o = try Options.parse(["x.cfg", "--allow-outside", "a", "--allow-outside=b", "--force", "-q"])
    #expect(o.paths.allowed == ["a", "b"] && o.force && o.quiet)
    #expect(try Options.parse(["curve", "easeIn", "--samples=3"]).command == .curve(spec: "easeIn", samples: 3, duration: nil))
  }
}

/// `frame` writes a PNG: to a name of another kind it would be a PNG misnamed.
@Suite struct FrameOptionTests {
  @Test func theFrameGoesToAPNGName() throws {
    for name in ["f.jpg", "frame", "f.png.webp", "dir/.png"] {
      let capture = Capture()
      #expect(TransvidCommand.run(["frame", "x.cfg", "--time", "0", "-o", name], console: capture.console, environment: [:]) == 2)
      #expect(
        capture.err == [
          "transvid: 'frame' writes a PNG: -o needs a file name ending in .png, got '\(name)'\nRun 'transvid --help' for usage."
        ])
    }
    for name in ["f.png", "out/F.PNG"] {
      #expect(try Options.parse(["frame", "x.cfg", "--time", "0", "-o", name]).command == .frame(job: "x.cfg", time: 0, output: name, paths: PathPolicy()))
    }
  }

  /// `--` ends the options, as for a render and `gallery`: what follows is
  /// the job file (or curve), though it starts with '-' (it was "unexpected
  /// argument '--' for 'frame'").
  @Test func twoDashesEndTheOptions() throws {
    let frame = try Options.parse(["frame", "-t", "0.5", "-o", "f.png", "--", "-demo.cfg"]).command
    #expect(frame == .frame(job: "-demo.cfg", time: 0.5, output: "f.png", paths: PathPolicy()))
    #expect(try Options.parse(["curve", "-n", "3", "--", "easeIn"]).command == .curve(spec: "easeIn", samples: 3, duration: nil))
    #expect(throws: Options.UsageError(description: "unexpected argument '-b.cfg' for 'frame'")) {
      try Options.parse(["frame", "a.cfg", "-t", "0", "-o", "f.png", "--", "-b.cfg"])
    }
    #expect(throws: Options.UsageError(description: "unexpected argument '-n' for 'curve'")) {
      try Options.parse(["curve", "--", "easeIn", "-n"])
    }
  }

  /// `curve --duration` reads decimal seconds only, as `frame --time` does:
  /// `0x1` was one second (Swift's Double(_:) reads hexadecimal).
  @Test func curveDurationIsDecimal() throws {
    #expect(try Options.parse(["curve", "easeIn", "--duration", "1.5e0"]).command == .curve(spec: "easeIn", samples: 101, duration: 1.5))
    for text in ["0x1", "0x1p0", "inf"] {
      #expect(throws: Options.UsageError(description: "--duration needs a number of seconds from 0.001 to 600")) {
        try Options.parse(["curve", "easeIn", "--duration", text])
      }
    }
  }
}

@Suite struct CacheKeyTests {
  func spec(_ text: String, file: String = "/jobs/a.cfg") throws -> JobSpec {
    try JobParser.parse(text, file: file)
  }

  /// Layout, comments and the file's place do not change the key; values do.
  @Test func canonicalTextIgnoresLayoutButNotValues() throws {
    let base = try spec(tinyJob(name: "x"))
    let moved = try spec("# comment\n\n" + tinyJob(name: "x"), file: "/elsewhere/b.cfg")
    #expect(CanonicalText.of(base) == CanonicalText.of(moved))
    #expect(!CanonicalText.of(base).contains("column:"))
    let changed = try spec(tinyJob(name: "x", hold: 0.3))
    #expect(CanonicalText.of(base) != CanonicalText.of(changed))
    let recoloured = try spec(tinyJob(name: "x", color: "#000001"))
    #expect(CanonicalText.of(base) != CanonicalText.of(recoloured))
  }

  /// Dictionaries (transition parameters) render in a fixed order.
  @Test func dictionariesAreSorted() {
    let a = CanonicalText.render(["b": 1, "a": 2, "c": 3])
    #expect(a == "{(key: \"a\", value: 2), (key: \"b\", value: 1), (key: \"c\", value: 3)}")
  }

  /// Locations (plain or optional) and an image's resolved path are left
  /// out; every other field prints, numbers as Swift prints them.
  @Test func locationsAndResolvedPathsAreLeftOut() {
    let here = Jobs.SourceLocation(file: "/jobs/a.cfg", line: 3, column: 5)
    let asset = AssetReference(path: "cat.jpg", resolvedPath: "/jobs/cat.jpg", key: "screens.a.image", location: here)
    #expect(CanonicalText.render(asset) == #"Jobs.AssetReference(path: "cat.jpg", key: "screens.a.image")"#)
    let tuple: (Double, Jobs.SourceLocation?, Jobs.SourceLocation?, Bool, [Int], String?) = (0.1, here, nil, true, [2, -3], nil)
    #expect(CanonicalText.render(tuple) == #"(.0: 0.1, .2: nil, .3: true, .4: [2, -3], .5: nil)"#)
    #expect(CanonicalText.render(ContentMode.fit) == "Jobs.ContentMode.fit")
  }

  @Test func keyCoversFormatsAndAssets() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let file = try write(tinyJob(name: "x"), to: "x.cfg", in: dir)
    let options = try Options.parse([file])
    var job = BatchPlan(files: [file], options: options, shardCount: 1).jobs[0]
    let cache = OutputCache()
    let key = cache.key(for: job)
    #expect(key.count == 64 && key == OutputCache().key(for: job))
    job.formats = [.mp4, .gif]
    #expect(cache.key(for: job) != key)
    // Assets: the digest of each file a job names; a changed file changes it.
    let asset = try write("one", to: "cat.png", in: dir)
    let digest = cache.assetDigest(asset)
    #expect(digest == SHA256.hex(Array("one".utf8)))
    try write("two!", to: "cat.png", in: dir)
    #expect(cache.assetDigest(asset) != digest)
    #expect(cache.assetDigest(path(dir, "missing.png")) == "missing")
  }

  /// The key is the job as parsed and the formats the run writes, not how
  /// the file spells them: a size written as "60 x 100" or [60, 100], the
  /// default formats written out, or the file's `formats: [mp4, gif]` and
  /// `--format mp4,gif` (which had two keys, so each rendered the other's
  /// outputs again).
  @Test func keyIsTheParsedJobNotItsSpelling() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = tinyJob(name: "x")
    func key(_ text: String, _ arguments: [String] = []) throws -> String {
      let folder = path(dir, "\(UUID())")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let file = try write(text, to: "x.cfg", in: folder)
      let planned = BatchPlan(files: [file], options: try Options.parse(arguments + [file]), shardCount: 1).jobs[0]
      #expect(planned.failure == nil, "\(text)")
      return OutputCache().key(for: planned)
    }
    let plain = try key(job)
    #expect(try key(job.replacingOccurrences(of: "size: 60x100", with: "size: \"60 x 100\"")) == plain)
    #expect(try key(job.replacingOccurrences(of: "size: 60x100", with: "size: [60, 100]")) == plain)
    #expect(try key(job.replacingOccurrences(of: "formats: [mp4], ", with: "")) == plain)
    // A canvas default written out is the default (README); a transition's
    // parameter written out counts even at its default.
    #expect(try key(job.replacingOccurrences(of: ", background: \"#000000\"", with: "")) == plain)
    #expect(try key(job.replacingOccurrences(of: "duration: 0.3 }", with: "duration: 0.3, delay: 0 }")) != plain)
    let both = try key(job, ["--format", "mp4,gif"])
    #expect(both != plain)
    #expect(try key(job.replacingOccurrences(of: "formats: [mp4]", with: "formats: [gif, mp4]")) == both)
    #expect(try key(job.replacingOccurrences(of: "formats: [mp4], ", with: ""), ["--format", "gif,mp4"]) == both)
  }

  /// A job with text is keyed by every system font its text may take,
  /// the script fonts and the colour emoji included, not only the cascade.
  @Test func textJobsAreKeyedByEveryFontTheirTextMayTake() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = tinyJob(name: "t").replacingOccurrences(
      of: "corner: 4 }", with: "corner: 4 }\n      - { frame: [5, 40, 50, 20], text: \"سلام 😀\" }")
    let file = try write(text, to: "t.cfg", in: dir)
    let job = BatchPlan(files: [file], options: try Options.parse([file]), shardCount: 1).jobs[0]
    let spec = try #require(job.spec)
    let paths = OutputCache.assetPaths(of: spec)
    for font in [FontLibrary.latinRegular, FontLibrary.cjkBold, FontLibrary.colorEmoji, FontLibrary.symbols]
      + FontLibrary.scriptFonts.flatMap({ [$0.regular, $0.bold] }) {
      #expect(paths.contains(font.path), "\(font.path)")
    }
    let fontLines = OutputCache().assetLines(of: spec).filter { $0.hasPrefix("font ") }
    #expect(fontLines.count == FontLibrary.files.count && Set(FontLibrary.files).count == FontLibrary.files.count)
  }
}

@Suite struct RunNoteTests {
  /// The odd-canvas note names the videos the run writes (`--format`
  /// replaces the job's list), and only when the frame is odd.
  @Test func oddCanvasNoteFollowsTheRun() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let file = try write(
      smallJob().replacingOccurrences(of: "size: 120x200, scale: 2", with: "size: 121x200, scale: 1"), to: "odd.cfg",
      in: dir)
    func notes(_ arguments: [String]) throws -> [String] {
      let options = try Options.parse(arguments + [file])
      return try #require(BatchPlan.place(file: file, options: options).first?.spec).notes.map(\.message)
    }
    let padded = { (videos: String, its: String, why: String) in
      "canvas.size: the canvas is 121x200 pixels; the \(videos) 122x200, \(its) last column repeated "
        + "(\(why)); give a width or height to scale instead"
    }
    #expect(try notes([]) == [padded("mp4 is", "its", "4:2:0 video has even sides")])
    #expect(try notes(["--format", "gif,png"]) == [])
    #expect(try notes(["--format", "gif,webm,mov"]) == [padded("webm, mov are", "their", "4:2:0 video has even sides; the MOV keeps them too")])
    let even = try write(
      try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "scale: 1", with: "scale: 2"),
      to: "even.cfg", in: dir)
    let options = try Options.parse(["--format", "mp4", even])
    #expect(try #require(BatchPlan.place(file: even, options: options).first?.spec).notes.isEmpty)
    // A frame is a PNG: no note on the videos.
    let capture = Capture()
    #expect(transvid(["frame", file, "--time", "0", "-o", path(dir, "f.png")], capture) == 0)
    #expect(capture.err == [], "\(capture.err)")
  }
}

@Suite struct OutputNamingTests {
  /// A writer's error names the output, not the staged file or the writer's
  /// temp file beside it (a full disk named '.demo.mp4.tmp-…' in the staging folder).
  @Test func writerErrorsNameTheOutput() {
    let staged = "out/.transvid-partial-host-12/demo.mp4"
    #expect(
      BatchRunner.naming(
        "write packet to 'out/.transvid-partial-host-12/.demo.mp4.tmp-12-1'", output: "out/demo.mp4", staged: staged)
        == "write packet to 'out/demo.mp4'")
    #expect(
      BatchRunner.naming("open 'out/.transvid-partial-host-12/demo.mp4' or 'x'", output: "out/demo.mp4", staged: staged)
        == "open 'out/demo.mp4' or 'x'")
    #expect(BatchRunner.naming("write apng trailer", output: "out/demo.mp4", staged: staged) == "write apng trailer")
  }
}

/// `SizeBudget`'s search against encoders whose size is not monotone in
/// the rate (x264's at low rates): it never fails a budget one of the rates
/// it may try meets, keeps the largest file that fits, and names only
/// rates it tried.
@Suite struct SizeBudgetSearchTests {
  let spec = try! JobParser.parse(smallJob(output: "{ formats: [mp4], mp4: { maxBytes: 60kB } }"), file: "small.cfg")

  /// The search over `bytes(rate)` for a 60 000-byte budget over 10 s: the
  /// result, or the error; the rates tried; and the rate whose file is left
  /// at the output path (each encode writes its rate there), if any.
  func search(_ bytes: @escaping (Int) -> Int, maxBytes: Int = 60_000) throws -> (
    result: Result<(VideoSummary, String), Error>, rates: [Int], file: Int?
  ) {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("small.mp4")
    var rates: [Int] = []
    let budget = SizeBudget(maxBytes: maxBytes, key: "output.mp4.maxBytes", spec: spec)
    let result = Result {
      try budget.fit(path: path, duration: 10, what: "mp4") { rate in
        rates.append(rate)
        try Data("\(rate)".utf8).write(to: URL(fileURLWithPath: path))
        return VideoSummary(frames: 600, duration: 10, bytes: bytes(rate))
      }
    }
    let file = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0) }
    // Nothing is left beside the output.
    #expect(try dir.entries() == (file == nil ? [] : ["small.mp4"]))
    return (result, rates, file)
  }

  @Test func aBudgetMetOnlyFarBelowTheFirstRatesIsMet() throws {
    // 1.7 % over at every rate down to 30 kb/s, then 36 000 bytes: met at
    // 27.2 kb/s, and the rates up to the lowest over tried in the encodes
    // left (none makes more), which the note says ran out.
    let (result, rates, file) = try search { $0 >= 30_000 ? 61_000 : 36_000 }
    let (summary, note) = try result.get()
    #expect(rates.count == SizeBudget.attempts && summary.bytes == 36_000 && file == 27_207, "\(rates) \(String(describing: file))")
    #expect(
      note.hasPrefix(
        "mp4: maxBytes 60000: two-pass at 27.2 kb/s, 60 % of the budget (the search stops after 8 encodes) "
          + "(tried 46.1 kb/s → 61000 bytes, "), "\(note)")
    #expect(
      zip(rates, rates.dropFirst()).allSatisfy { $0 < 30_000 || $1 <= $0 * 9 / 10 },
      "each over-budget rate is followed by a lower one")
  }

  /// A crf encode far under its budget says its share is under 1 %, not
  /// 0 % (the outputs sweep): a 52 000-byte file under `maxBytes: 10MB`
  /// read "mp4: crf 18, 0 % of maxBytes 10000000".
  @Test func aFileUnderOnePerCentOfItsBudgetIsNotZeroPerCent() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    func note(_ bytes: Int) throws -> String {
      let budget = SizeBudget(maxBytes: 10_000_000, key: "output.mp4.maxBytes", spec: spec)
      return try budget.capping(
        true, crf: 18, path: dir.path("small.mp4"), duration: 10, what: "mp4",
        encodeAtCRF: { VideoSummary(frames: 600, duration: 10, bytes: bytes) },
        encode: { _ in Issue.record("no two-pass encode"); return VideoSummary(frames: 600, duration: 10, bytes: 0) }
      ).1
    }
    #expect(try note(52_000) == "mp4: crf 18, <1 % of maxBytes 10000000")
    #expect(try note(99_999) == "mp4: crf 18, <1 % of maxBytes 10000000")
    #expect(try note(100_000) == "mp4: crf 18, 1 % of maxBytes 10000000")
    #expect(try note(9_999_999) == "mp4: crf 18, 99 % of maxBytes 10000000")
    #expect(SizeBudget.shareText(0, of: 10_000_000) == "0 %")
  }

  @Test func theLargestFileThatFitsIsKept() throws {
    // Fits at 46 kb/s with room (70 %), over above it: the search raises,
    // finds every higher rate over, and keeps the 46 kb/s file it set aside.
    let (result, rates, file) = try search { $0 <= 46_080 ? 42_000 : 61_000 }
    let (summary, note) = try result.get()
    #expect(summary.bytes == 42_000 && rates.first == 46_080 && file == 46_080, "\(rates)")
    #expect(rates.dropFirst().allSatisfy { $0 > 46_080 }, "encoded once: \(rates)")
    #expect(note.hasPrefix("mp4: maxBytes 60000: two-pass at 46.1 kb/s, 70 % of the budget (tried "))
    #expect(!note.contains("46.1 kb/s → 42000"), "\(note)")
  }

  /// A short demo far under a generous budget: a higher rate made the file
  /// hardly larger (under 10 %), and so did four times the first, which
  /// bought nothing, so the file at the lower rate is kept, though a little
  /// smaller, and the note gives the rate the file averages, not the rate
  /// allowed.
  @Test func aHigherRateThatBuysNothingKeepsTheLowerRatesFile() throws {
    let (result, rates, file) = try search({ $0 <= 7_680_000 ? 5_000_000 : 5_200_000 }, maxBytes: 10_000_000)
    let (summary, note) = try result.get()
    #expect(rates.count == 3 && rates[1] > rates[0] && rates[2] == rates[0] * 4, "\(rates)")
    #expect(file == rates[0] && summary.bytes == 5_000_000, "\(rates)")
    #expect(note.hasPrefix("mp4: maxBytes 10000000: two-pass at 7680 kb/s, 50 % of the budget (it needs no more bits: it averages 4000 kb/s) (tried "), "\(note)")
  }

  /// Rates raised a little under half again each, the file 1 % larger
  /// each time: the third is over half again the first and bought under a
  /// tenth, so the fourth is four times the first, which bought under a
  /// tenth too: the search stops there and keeps the second's file (only
  /// the rate before was compared, and four encodes ended the search at
  /// 68 % with the fourth's file, saying nothing).
  @Test func aRateHalfAgainAsHighAsAnyTriedThatBuysNothingStops() throws {
    let (result, rates, file) = try search { 40_000 + ($0 - 46_080) / 100 }
    let (summary, note) = try result.get()
    #expect(rates.count == 4 && rates[1] < rates[0] * 3 / 2 && rates[2] >= rates[0] * 3 / 2, "\(rates)")
    #expect(rates[3] == rates[0] * 4, "\(rates)")
    #expect(file == rates[1] && summary.bytes == 40_000 + (rates[1] - 46_080) / 100, "\(rates)")
    #expect(
      note.hasPrefix("mp4: maxBytes 60000: two-pass at 65.7 kb/s, 66 % of the budget (it needs no more bits: it averages "),
      "\(note)")
  }

  /// libvpx's size grows slowly at low rates and then faster again (the
  /// outputs sweep's 0.8 s push under a 4000-byte WebM budget: 38.4 kb/s →
  /// 2365 bytes, 61.7 → 2511, 192 → 4379): half again the first rate
  /// bought 5 %, and the search stopped at 60 % saying the file needed no
  /// more bits, while a 3500-byte budget made a larger file. Four times
  /// the first rate is tried first, and its file, 97 % of the budget, kept.
  @Test func aRateThatBuysLittleAtFirstIsCheckedAtFourTimes() throws {
    let (result, rates, file) = try search { $0 <= 46_080 ? 36_000 : $0 < 100_000 ? 37_800 : 58_000 }
    let (summary, note) = try result.get()
    #expect(rates.count == 3 && rates[1] < 100_000 && rates[2] == 184_320, "\(rates)")
    #expect(file == 184_320 && summary.bytes == 58_000, "\(rates)")
    #expect(note.hasPrefix("mp4: maxBytes 60000: two-pass at 184 kb/s, 96 % of the budget (tried "), "\(note)")
    #expect(!note.contains("needs no more bits"), "\(note)")
  }

  @Test func anUnmetBudgetNamesTheLowestRateTried() throws {
    let (result, rates, file) = try search { _ in 61_000 }
    #expect(rates.last == SizeBudget.lowestBitRate && file == nil)
    guard case .failure(let error as JobFailure) = result else {
      Issue.record("met: \(result)")
      return
    }
    #expect(error.description.contains("error: output.mp4.maxBytes: even at 20 kb/s the mp4 is 61000 bytes, over 60000 (tried 46.1 kb/s → 61000 bytes, "), "\(error.description)")
  }

  /// A budget just above the lowest rate: the lowest rate is tried after
  /// it (a VP9 file 0.2 % over at 20.7 kb/s fits at 20), and an error names
  /// the two rates as they were (20.9 and 20 kb/s, not 20 twice).
  @Test func aBudgetNearTheLowestRateTriesTheLowestToo() throws {
    let (met, tried, file) = try search({ $0 > 20_000 ? 27_300 : 26_900 }, maxBytes: 27_200)
    #expect(tried == [20_889, 20_000] && file == 20_000 && (try? met.get().0.bytes) == 26_900, "\(tried)")
    let (result, rates, _) = try search({ _ in 30_000 }, maxBytes: 27_200)
    #expect(rates == [20_889, 20_000], "\(rates)")
    guard case .failure(let error as JobFailure) = result else {
      Issue.record("met: \(result)")
      return
    }
    #expect(error.description.hasSuffix("error: output.mp4.maxBytes: even at 20 kb/s the mp4 is 30000 bytes, over 27200 (tried 20.9 kb/s → 30000 bytes, 20 kb/s → 30000 bytes)"), "\(error.description)")
    // A first rate within 1 % of the lowest is the lowest: encoded once.
    let (_, once, _) = try search({ _ in 30_000 }, maxBytes: 26_050)
    #expect(once == [20_006], "\(once)")
  }

  /// Every attempt over the budget down to 22 kb/s, the last of the
  /// eight: the lowest rate is still tried, and meets it.
  @Test func attemptsRunningOutStillTryTheLowestRate() throws {
    let (met, tried, file) = try search({ $0 > 20_000 ? 61_000 : 59_000 }, maxBytes: 60_000)
    #expect(tried.count == 9 && tried[7] == 22_037 && tried.last == 20_000 && file == 20_000, "\(tried) \(String(describing: file))")
    #expect((try? met.get().0.bytes) == 59_000)
  }
}

/// `frame --time` takes a decimal number of seconds ≥ 0: `0x1` was read
/// as hexadecimal (1 s), and `-inf` taken for an option ("needs a value").
@Suite struct FrameTimeOptionTests {
  @Test func theTimeIsADecimalNumber() throws {
    for text in ["0x1", "0X1p0", "-inf", "-Infinity", "inf", "nan", "-1", "1e400", "1_0", " 1", ""] {
      #expect(throws: Options.UsageError(description: "--time needs a number of seconds ≥ 0, got '\(text)'"), "\(text)") {
        try Options.parse(["frame", "x.cfg", "--time", text, "-o", "f.png"])
      }
    }
    for (text, seconds) in [("0", 0.0), ("1.5", 1.5), (".5", 0.5), ("2.", 2), ("1e-1", 0.1), ("+3", 3), ("-0", 0)] {
      #expect(try Options.parse(["frame", "x.cfg", "--time", text, "-o", "f.png"]).command
        == .frame(job: "x.cfg", time: seconds, output: "f.png", paths: PathPolicy()), "\(text)")
    }
  }
}

/// `watch` renders one job, again on every save: a batch's options (its
/// reports, shards, `--cache` store, workers and their timeout, a progress
/// mode) it took and dropped, writing none of them and saying nothing.
@Suite struct WatchOptionsTests {
  @Test func aBatchOptionIsAUsageError() throws {
    let takes =
      "it is for a batch; watch takes -o, --format, --target, --locale, --force, --draft, --allow-outside, "
      + "--max-side, --max-frames, --max-pixels, --max-layer-pixels, --max-draw-pixels and -q"
    for (args, option) in [
      (["--report", "r.json"], "--report"), (["--junit", "j.xml"], "--junit"), (["--gallery", "g"], "--gallery"),
      (["--cache", "c"], "--cache"), (["--cache", "c", "--cache-max-bytes", "9"], "--cache"),
      (["--cache-max-bytes", "9"], "--cache-max-bytes"), (["--shard", "1/2"], "--shard"), (["--shard-count", "2"], "--shard-count"),
      (["-j", "2"], "-j"), (["-j2"], "-j"), (["--jobs=2"], "--jobs"), (["--job-timeout", "5"], "--job-timeout"),
      (["--progress", "none"], "--progress"), (["-o", "out", "--report", "r.json"], "--report"),
    ] {
      let capture = Capture()
      #expect(TransvidCommand.run(["watch", "w.cfg"] + args, console: capture.console, environment: [:]) == 2, "\(args)")
      #expect(capture.err == ["transvid: 'watch' takes no \(option): \(takes)\nRun 'transvid --help' for usage."])
    }
    let o = try Options.parse([
      "watch", "w.cfg", "-o", "out", "--format", "gif", "--target", "web", "--locale", "ar", "--force", "--draft",
      "--allow-outside", "/", "--max-side", "100", "--max-frames", "9", "--max-pixels", "9", "--max-layer-pixels", "9",
      "--max-draw-pixels", "9", "-q",
    ])
    #expect(o.command == .watch(job: "w.cfg") && o.draft && o.force && o.quiet && o.formats == [.gif])
    #expect(o.limits.maxDrawPixels == 9)
  }
}

/// `check` checks every job whatever the shard, but `--shard K/N` with
/// another `--shard-count` is the usage error a render and `plan` make of
/// it: check exited 0.
@Suite struct CheckShardAgreementTests {
  @Test func aShardCountOtherThanTheShardsIsAUsageError() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(smallJob(name: "good"), to: "good.cfg", in: dir)
    for command in [["check"], ["plan"], []] {
      let capture = Capture()
      let args = command + [path(dir, "good.cfg"), "--shard", "1/2", "--shard-count", "3", "-o", path(dir, "out")]
      #expect(TransvidCommand.run(args, console: capture.console, environment: [:]) == 2, "\(args)")
      #expect(capture.err.first?.hasPrefix("transvid: --shard 1/2 and --shard-count 3 disagree") == true, "\(capture.err)")
    }
    let capture = Capture()
    #expect(
      TransvidCommand.run(
        ["check", path(dir, "good.cfg"), "--shard", "1/2", "--shard-count", "2", "-q"], console: capture.console,
        environment: [:]) == 0)
  }
}

/// The jobs come in the order the arguments name them, each folder's files
/// by their path below it, a file named again where it was first named
/// (README's Batches; it said "sorted by path, then the files named directly").
@Suite struct JobOrderTests {
  @Test func jobsComeInTheArgumentsOrder() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "jobs/a"), withIntermediateDirectories: true)
    for name in ["z.cfg", "jobs/b.cfg", "jobs/a/c.yaml"] { try write(tinyJob(name: "j"), to: name, in: dir) }
    let found = try BatchPlan.findJobs([path(dir, "z.cfg"), path(dir, "jobs"), path(dir, "jobs/b.cfg")])
    #expect(found == [path(dir, "z.cfg"), path(dir, "jobs/a/c.yaml"), path(dir, "jobs/b.cfg")])
  }

  /// A folder named through a symbolic link (`ln -s jobs lj; transvid lj`)
  /// is searched where it lives, its files named as the argument spells
  /// them (it found no jobs); inside it, a link to a job file is a job and
  /// a link to a folder is not followed (README's Batches). `transvid
  /// gallery` finds the reports in a linked folder the same way.
  @Test func aFolderNamedThroughALinkIsSearchedWhereItLives() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fm = FileManager.default
    for folder in ["jobs/sub", "other", "shards/s1"] {
      try fm.createDirectory(atPath: path(dir, folder), withIntermediateDirectories: true)
    }
    for name in ["jobs/a.cfg", "jobs/sub/b.cfg", "other/c.cfg", "other/d.cfg"] { try write(tinyJob(name: "j"), to: name, in: dir) }
    try fm.createSymbolicLink(atPath: path(dir, "jobs/c-link.cfg"), withDestinationPath: "../other/c.cfg")
    try fm.createSymbolicLink(atPath: path(dir, "jobs/linked"), withDestinationPath: "../other")
    try fm.createSymbolicLink(atPath: path(dir, "lj"), withDestinationPath: "jobs")
    let linked = path(dir, "lj")
    #expect(try BatchPlan.findJobs([linked]) == ["a.cfg", "c-link.cfg", "sub/b.cfg"].map { path(linked, $0) })
    #expect(try BatchPlan.findJobs([linked + "/"]) == ["a.cfg", "c-link.cfg", "sub/b.cfg"].map { path(linked, $0) })

    try write(#"{"jobs": [], "totals": {}}"#, to: "shards/s1/report.json", in: dir)
    try fm.createSymbolicLink(atPath: path(dir, "ls"), withDestinationPath: "shards")
    let found = try GalleryCommand.findReports([path(dir, "ls")], skipping: path(dir, "site/report.json"))
    #expect(found.reports == [path(dir, "ls/s1/report.json")])
    #expect(found.damaged == [])
  }

  /// A link to a job file is a job of its own: its `output.dir` (and its
  /// images, fonts and catalog) are found from the link's folder and its
  /// default name is the link's. A batch over the folder renders the file
  /// and each link; the CLI sweep found all but the first dropped as the
  /// same file named twice (a whole folder's demo never written, exit 0).
  /// The report tells them apart by `absolute_file`, as a gallery merge
  /// does; the same path spelled twice is still one job, and so is a link
  /// beside a job that names itself (the same outputs).
  @Test func aLinkToAJobFileIsAJobOfItsOwn() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fm = FileManager.default
    for folder in ["jobs/en", "jobs/de"] { try fm.createDirectory(atPath: path(dir, folder), withIntermediateDirectories: true) }
    let job = tinyJob(name: "unused")
      .replacingOccurrences(of: "name: unused\n", with: "")
      .replacingOccurrences(of: "output: { formats:", with: "output: { dir: out, formats:")
    let demo = try write(job, to: "jobs/en/demo.cfg", in: dir)
    try fm.createSymbolicLink(atPath: path(dir, "jobs/de/demo.cfg"), withDestinationPath: "../en/demo.cfg")
    try fm.createSymbolicLink(atPath: path(dir, "jobs/en/alias.cfg"), withDestinationPath: "demo.cfg")
    try write(job.replacingOccurrences(of: "canvas:", with: "name: fixed\ncanvas:"), to: "jobs/en/fixed.cfg", in: dir)
    try fm.createSymbolicLink(atPath: path(dir, "jobs/en/same.cfg"), withDestinationPath: "fixed.cfg")
    let capture = Capture()
    #expect(transvid([path(dir, "jobs"), "--report", path(dir, "report.json"), "-q"], capture) == 0, "\(capture.err)")
    #expect(Set(files(in: path(dir, "jobs/en/out")).keys) == ["alias.mp4", "demo.mp4", "fixed.mp4"])
    #expect(Set(files(in: path(dir, "jobs/de/out")).keys) == ["demo.mp4"])
    let real = try #require(PathPolicy.resolve(dir))
    #expect(
      try reportJobs(path(dir, "report.json")).map { $0["absolute_file"] as? String }
        == ["jobs/de/demo.cfg", "jobs/en/alias.cfg", "jobs/en/demo.cfg", "jobs/en/fixed.cfg"].map { path(real, $0) })
    #expect(
      try BatchPlan.findJobs([demo, path(dir, "jobs/de/../en/./demo.cfg"), path(dir, "jobs/en")])
        == [demo] + ["alias", "fixed", "same"].map { path(dir, "jobs/en/\($0).cfg") })
  }
}

/// A mistyped subcommand names no file: `transvid chekc jobs` said only "no
/// such file or directory: chekc", and `transvid check jobs --json` "unknown
/// option '--json'", not that the option is `plan`'s.
@Suite struct SubcommandHintTests {
  @Test func aNearMissOfASubcommandIsNamed() {
    for (args, message) in [
      (["chekc", "jobs"], "transvid: no such file or directory: chekc; did you mean 'check'?"),
      (["Plan", "jobs"], "transvid: no such file or directory: Plan; did you mean 'plan'?"),
      (["galery", "r.json", "-o", "m"], "transvid: no such file or directory: galery; did you mean 'gallery'?"),
      (["lsit"], "transvid: no such file or directory: lsit; did you mean 'list'?"),
      (["help"], "transvid: no such file or directory: help; did you mean '--help'?"),
      (["render", "jobs"], "transvid: no such file or directory: render; a render takes no subcommand: transvid [options] JOB.cfg|DIR ..."),
      (["list", "devcies"], "transvid: 'list' takes no arguments but 'devices' ('transvid list devices'), got 'devcies'; did you mean 'devices'?"),
    ] {
      let capture = Capture()
      let status = TransvidCommand.run(args, console: capture.console, environment: [:])
      #expect(status == 2, "\(args)")
      #expect(capture.err == [message + "\nRun 'transvid --help' for usage."], "\(args)")
    }
    // Not the first argument, or no near miss: a missing job file, as before.
    for args in [["-q", "chekc"], ["jobz-that-are-not-here"]] {
      let capture = Capture()
      #expect(TransvidCommand.run(args, console: capture.console, environment: [:]) == 2)
      #expect(capture.err == ["transvid: no such file or directory: \(args.last!)"], "\(args)")
    }
    // An empty argument (a script's unset "$JOB") is named as one, in a render, plan and check alike.
    for args in [[""], ["", "jobs-not-here"], ["plan", ""], ["check", "-q", ""]] {
      let capture = Capture()
      #expect(TransvidCommand.run(args, console: capture.console, environment: [:]) == 2)
      let said = capture.err.first?.hasPrefix("transvid: a job file or folder needs a path, got an empty argument") == true
      #expect(said, "\(args) \(capture.err)")
    }
    // An -o no system takes (a name over NAME_MAX, a path of PATH_MAX or more) fails before any job, not every job.
    let longName = "/tmp/" + String(repeating: "a", count: 300)
    let longPath = "/tmp/" + Array(repeating: String(repeating: "b", count: 200), count: 25).joined(separator: "/")
    for (folder, why) in [
      (longName, "a folder name in it is 300 bytes long, and the system takes names of at most 255 (NAME_MAX)"),
      (longPath, "its path is \(longPath.utf8.count) bytes long, and the system opens paths of at most 4095 (PATH_MAX)"),
    ] {
      let capture = Capture()
      #expect(TransvidCommand.run(["jobs-not-here.cfg", "-o", folder], console: capture.console, environment: [:]) == 2)
      #expect(capture.err == ["transvid: -o '\(folder)': \(why)\nRun 'transvid --help' for usage."])
    }
    for (args, message) in [
      (["watch", ""], "transvid: a job file needs a path, got an empty argument"),
      (["frame", "", "-t", "0", "-o", "f.png"], "transvid: a job file needs a path, got an empty argument"),
      (["gallery", "", "-o", "m"], "transvid: a report or folder needs a path, got an empty argument"),
    ] {
      let capture = Capture()
      #expect(TransvidCommand.run(args, console: capture.console, environment: [:]) == 2)
      let said = capture.err.first?.hasPrefix(message) == true
      #expect(said, "\(args) \(capture.err)")
    }
  }

  /// A folder named like a near miss is a folder of jobs, as any other.
  @Test func aFolderNamedLikeANearMissRenders() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "chekc"), withIntermediateDirectories: true)
    try write(goodJob(formats: "[png]"), to: "chekc/good.cfg", in: dir)
    let run = try runBinary(["chekc", "-q", "-o", "out"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/good.png")))
  }

  @Test func anOptionOfAnotherSubcommandNamesIt() {
    for (args, message) in [
      (["check", "x.cfg", "--json"], "'check' takes no --json: it is plan's option (transvid plan JOB.cfg|DIR ... --json)"),
      (["watch", "x.cfg", "--json"], "'watch' takes no --json: it is plan's option (transvid plan JOB.cfg|DIR ... --json)"),
      (["plan", "x.cfg", "--draft"], "'plan' takes no --draft: it is watch's option (transvid watch JOB.cfg --draft)"),
      (["x.cfg", "-t", "1"], "a render takes no -t: it is frame's option (transvid frame JOB.cfg -t T -o F.png)"),
      (["check", "x.cfg", "--appearance", "dark"],
       "'check' takes no --appearance: it is frame's option (transvid frame JOB.cfg --time T -o F.png --appearance light|dark)"),
      (["frame", "x.cfg", "-t", "0", "-o", "f.png", "--json"],
       "'frame' takes no --json: it is plan's option (transvid plan JOB.cfg|DIR ... --json)"),
      (["frame", "x.cfg", "-t", "0", "-o", "f.png", "--samples", "3"],
       "'frame' takes no --samples: it is curve's option (transvid curve NAME|SPEC --samples N)"),
      (["curve", "easeIn", "--time", "1"], "'curve' takes no --time: it is frame's option (transvid frame JOB.cfg --time T -o F.png)"),
      (["gallery", "r.json", "-o", "m", "--json"], "'gallery' takes no --json: it is plan's option (transvid plan JOB.cfg|DIR ... --json)"),
    ] {
      #expect(throws: Options.UsageError(description: message)) { try Options.parse(args) }
    }
    // Each subcommand still takes its own.
    #expect(throws: Never.self) { try Options.parse(["plan", "x.cfg", "--json"]) }
    #expect(throws: Never.self) { try Options.parse(["watch", "x.cfg", "--draft"]) }
  }
}
