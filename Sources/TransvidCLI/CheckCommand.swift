import Foundation
import Jobs
import Rendering

/// `transvid check PATH...`: the lint step of a pull request. Every job is
/// parsed and placed exactly as a render would (`BatchPlan`: the job file,
/// its paths under `--allow-outside`, its images readable, no two jobs
/// writing one output, the sizes `--format` asks for), its fonts are
/// loaded and its captions wrapped (a font file that is a folder or no
/// font, a caption too long for its stage, fails here, not at render), its
/// images read to their headers (not an image, over the limits), its
/// `maxBytes` held to the lowest rate, where its files go checked as the
/// render checks it first (`OutputPlace`: also a folder it may not write
/// in, unless the job is up to date there), and nothing is rendered or written. A broken job prints its `FILE:LINE:COL: error: …`
/// on standard error; a good one a line with its length on standard output.
/// Exit status 1 when any job is broken or no job is found, 2 for a usage error
/// (`--shard K/N` with another `--shard-count` among them, as for a render).
enum CheckCommand {
  static func run(inputs: [String], options: Options, console: Console) -> Int32 {
    // Every job is checked, whatever the shard; but a --shard-count other than
    // --shard's N is the usage error a render and `plan` make of it, first.
    if let shard = options.shard {
      do {
        try Shard.checkAgreement(shard, count: options.shardCount)
      } catch {
        console.error("transvid: \(error)\nRun 'transvid --help' for usage.")
        return 2
      }
    }
    let files: [String]
    switch findJobs(inputs, console: console) {
    case .success(let found): files = found
    case .failure(let exit): return exit.status
    }
    let plan = BatchPlan(files: files, options: options, shardCount: 1)
    if let unlisted = plan.unlistedLocales {
      console.error("transvid: \(unlisted)")
      return 2
    }
    if !options.quiet, let note = plan.notRenderedNote(options: options) { console.error(note) }
    var broken = 0
    // Keys only for a job whose folder cannot be written: up to date there, it is fine.
    let cache = OutputCache()
    for job in plan.jobs {
      var failure = job.failure
      if failure == nil, let spec = job.spec {
        // Fonts are loaded at render, not when a batch is planned (a cached run opens none).
        do throws(Diagnostic) {
          try CaptionFit.check(spec, fonts: try AssetLoader.fonts(for: spec))
          // Images by their headers (a render reads them; a cached run does not), and the video budgets.
          try AssetLoader.checkImages(of: spec)
          try SizeBudget.check(spec, formats: job.formats, duration: job.duration)
        } catch {
          failure = JobFailure(error)
        }
        // Where its files go, as the render checks it first (a file where its folder goes, a folder where an output
        // goes, a folder it may not write in).
        if failure == nil {
          do {
            try OutputPlace.check(job, spec: spec, options: options)
            try OutputPlace.checkWritable(job, spec: spec, options: options) {
              OutputCache.validRecord(for: job, key: cache.key(for: job)) != nil
            }
          } catch {
            failure = JobFailure(file: job.file, error: error)
          }
        }
      }
      if let failure {
        broken += 1
        console.error(failure.description)
        continue
      }
      guard !options.quiet else { continue }
      for note in job.spec?.notes ?? [] { console.error(note.description) }
      console.print(
        "\(job.label)  ok  \(job.frames) frame\(job.frames == 1 ? "" : "s")  \(String(format: "%.2f", job.duration)) s video"
          + "  \(job.pixelWidth)x\(job.pixelHeight)  \(job.formats.map(\.rawValue).joined(separator: ","))")
    }
    if !options.quiet {
      console.print("transvid: \(plan.jobs.count) job\(plan.jobs.count == 1 ? "" : "s") checked, \(broken) broken")
    }
    return broken == 0 ? 0 : 1
  }

  /// An exit status as an error, for `Result`.
  struct Exit: Error { var status: Int32 }

  /// `BatchPlan.findJobs`, its error printed: `transvid: no jobs found …`
  /// (status 1) or a usage error with the hint to `--help` (status 2).
  static func findJobs(_ inputs: [String], console: Console) -> Result<[String], Exit> {
    do {
      return .success(try BatchPlan.findJobs(inputs))
    } catch let error as NoJobsFound {
      console.error("transvid: \(error)")
      return .failure(Exit(status: 1))
    } catch {
      console.error("transvid: \(error)\nRun 'transvid --help' for usage.")
      return .failure(Exit(status: 2))
    }
  }
}
