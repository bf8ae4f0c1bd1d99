import Media

/// `transvid plan DIR|FILE... [--json]`: what a batch would do, without
/// rendering — every job with its cache key, estimated cost, shard (of
/// `--shard`'s N, `--shard-count`, or the environment's; 1 by default) and
/// whether its outputs are up to date or, with `--cache`, in the store. Exit status 1 when a job is broken
/// (its row is its shard, its file, `broken` and its `FILE:LINE:COL: error: …`; in JSON it has
/// no frames, width, height or key, and an `error`) or no job is found; 2 for a usage error, and for a `--cache`
/// that is no folder and cannot be made one, as the render it plans refuses them.
enum PlanCommand {
  static func run(inputs: [String], json: Bool, options: Options, environment: [String: String], console: Console) -> Int32 {
    // The options first: a usage error comes before any file is looked for.
    let shardCount: Int
    do {
      if let shard = options.shard {
        try Shard.checkAgreement(shard, count: options.shardCount)
        shardCount = shard.count
      } else {
        // The scheduler's variables as a render reads them, so a count they disagree with is the same usage error.
        shardCount = try Shard.fromEnvironment(environment, count: options.shardCount)?.count ?? options.shardCount ?? 1
      }
    } catch {
      console.error("transvid: \(error)\nRun 'transvid --help' for usage.")
      return 2
    }
    // A --cache that is no folder and cannot be made one (a file, a device): the render refuses it (exit 2, `SharedCache`).
    if let store = options.cache {
      do throws(MediaError) {
        try Platform.checkDirectories(store)
      } catch {
        console.error("transvid: cannot use the cache '\(store)': \(error.message)")
        return 2
      }
    }
    let files: [String]
    switch CheckCommand.findJobs(inputs, console: console) {
    case .success(let found): files = found
    case .failure(let exit): return exit.status
    }
    let plan = BatchPlan(files: files, options: options, shardCount: shardCount)
    if let unlisted = plan.unlistedLocales {
      console.error("transvid: \(unlisted)")
      return 2
    }
    let cache = OutputCache()
    var rows: [String] = []
    for job in plan.jobs {
      let key = job.failure == nil ? cache.key(for: job) : ""
      let upToDate = job.failure == nil && !options.force && OutputCache.validRecord(for: job, key: key) != nil
      // With --cache: whether the store holds the job; one not up to date is then copied, not rendered (but for --force).
      let inStore = options.cache.map { job.failure == nil && SharedCache.holds(key, in: $0) }
      // A broken job has no frames, size or key to show: its row is its shard and its error.
      let broken = job.failure != nil
      if json {
        var fields: [(String, Any?)] = [
          ("job", job.name), ("file", job.file), ("shard", job.shard), ("cost", job.cost),
          ("frames", broken ? nil : job.frames), ("width", broken ? nil : job.pixelWidth),
          ("height", broken ? nil : job.pixelHeight), ("key", key.isEmpty ? nil : key),
          ("outputs", job.outputs), ("up_to_date", upToDate),
        ]
        if let inStore { fields.append(("in_cache", inStore)) }
        if let failure = job.failure { fields.append(("error", failure.description)) }
        rows.append("    " + JSONText.object(fields))
      } else if let failure = job.failure {
        rows.append("\(job.shard)/\(shardCount)  \(job.label)  broken  \(failure.description)")
      } else {
        let state = upToDate ? "up to date" : inStore == true && !options.force ? "in the cache (copied)" : "to render"
        rows.append(
          "\(job.shard)/\(shardCount)  \(job.label)  \(job.frames) frame\(job.frames == 1 ? "" : "s") \(job.pixelWidth)x\(job.pixelHeight)"
            + "  cost \(job.cost)  \(key.prefix(12))  \(state)")
      }
    }
    if json {
      console.print("{\n  \"shards\": \(shardCount),\n  \"jobs\": [\n" + rows.joined(separator: ",\n") + "\n  ]\n}")
    } else {
      console.print(rows.joined(separator: "\n"))
    }
    // A broken job fails the plan as it would fail the render.
    return plan.jobs.contains { $0.failure != nil } ? 1 : 0
  }
}
