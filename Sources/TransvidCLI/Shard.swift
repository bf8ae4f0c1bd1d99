/// One of `count` parts of a batch, so that `count` machines can share it.
/// `index` is 1-based, as `--shard K/N` writes it.
struct Shard: Hashable, Sendable, CustomStringConvertible {
  var index: Int
  var count: Int

  var description: String { "\(index)/\(count)" }

  /// The whole batch.
  static let all = Shard(index: 1, count: 1)

  /// `K/N` with 1 ≤ K ≤ N.
  init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
      return nil
    }
    self.init(index: k, count: n)
  }

  init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// The shard a cluster scheduler gives this process, when `--shard` is not
  /// on the command line:
  /// - Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based) and the shard
  ///   count from `--shard-count N` or `TRANSVID_SHARD_COUNT`;
  /// - Slurm job array: `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` (0 when
  ///   unset) of `SLURM_ARRAY_TASK_COUNT` (the array must be contiguous,
  ///   `--array=0-3` or `--array=1-4`).
  /// Returns nil when neither is present.
  static func fromEnvironment(_ environment: [String: String], count explicitCount: Int?) throws -> Shard? {
    func number(_ name: String) throws -> Int? {
      guard let text = environment[name] else { return nil }
      guard let n = Int(text.trimmingWhitespace()) else {
        throw Options.UsageError(description: "\(name)='\(text)' is not a number")
      }
      return n
    }
    // A count of 0 or less was said as the index being out of a range such as 0..<-3.
    func shardCount(_ name: String) throws -> Int? {
      guard let n = try number(name) else { return nil }
      guard n >= 1 else {
        throw Options.UsageError(description: "\(name)='\(environment[name] ?? "")' is not a shard count: it needs a whole number ≥ 1")
      }
      return n
    }
    if let index = try number("JOB_COMPLETION_INDEX") {
      guard let count = try explicitCount ?? shardCount("TRANSVID_SHARD_COUNT") else {
        throw Options.UsageError(
          description: "JOB_COMPLETION_INDEX is set but the shard count is not: pass --shard-count N or set TRANSVID_SHARD_COUNT")
      }
      return try make(zeroBased: index, count: count, source: "JOB_COMPLETION_INDEX")
    }
    if let id = try number("SLURM_ARRAY_TASK_ID") {
      // Without a count every task of the array would render the whole batch.
      let tasks = try shardCount("SLURM_ARRAY_TASK_COUNT")
      guard let count = explicitCount ?? tasks else {
        throw Options.UsageError(
          description: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: pass --shard-count N")
      }
      // A count other than the array's leaves shards no task renders, or renders some twice.
      if let tasks, let explicitCount, tasks != explicitCount {
        throw Options.UsageError(
          description: "--shard-count \(explicitCount) and SLURM_ARRAY_TASK_COUNT=\(tasks) disagree: "
            + "the array must have one task per shard")
      }
      let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
      // A stepped or listed array (--array=0-6:2, --array=1,3,5) skips indices: their shards would never render.
      if let tasks, let maximum = try number("SLURM_ARRAY_TASK_MAX") {
        let (span, overflow) = maximum.subtractingReportingOverflow(minimum)
        if overflow || span != tasks - 1 {
          throw Options.UsageError(
            description: "the Slurm array is not contiguous (SLURM_ARRAY_TASK_MIN=\(minimum), SLURM_ARRAY_TASK_MAX=\(maximum), "
              + "SLURM_ARRAY_TASK_COUNT=\(tasks)): give it as --array=\(minimum)-\(minimum &+ tasks &- 1)")
        }
      }
      let (index, overflow) = id.subtractingReportingOverflow(minimum)
      guard !overflow else {
        throw Options.UsageError(
          description: "SLURM_ARRAY_TASK_ID=\(id) minus SLURM_ARRAY_TASK_MIN=\(minimum) is not a shard index")
      }
      return try make(zeroBased: index, count: count, source: "SLURM_ARRAY_TASK_ID")
    }
    return nil
  }

  /// The shard a batch renders: `--shard`'s (which `--shard-count`, if
  /// given too, must agree with), else the environment's, else the whole
  /// batch. A `--shard-count` with no index from either is an error: the
  /// shards would each render everything.
  static func forBatch(_ shard: Shard?, count: Int?, environment: [String: String]) throws -> Shard {
    if let shard {
      try checkAgreement(shard, count: count)
      return shard
    }
    if let found = try fromEnvironment(environment, count: count) { return found }
    if let count {
      throw Options.UsageError(
        description: "--shard-count \(count) needs the shard's index: JOB_COMPLETION_INDEX (0-based) or "
          + "SLURM_ARRAY_TASK_ID in the environment, or --shard K/\(count)")
    }
    return .all
  }

  /// Throws a usage error when `--shard`'s N and `--shard-count` differ.
  static func checkAgreement(_ shard: Shard, count: Int?) throws {
    if let count, count != shard.count {
      throw Options.UsageError(description: "--shard \(shard) and --shard-count \(count) disagree")
    }
  }

  private static func make(zeroBased index: Int, count: Int, source: String) throws -> Shard {
    guard count >= 1, (0..<count).contains(index) else {
      throw Options.UsageError(description: "\(source) gives shard index \(index) (0-based), not in 0..<\(count)")
    }
    return Shard(index: index + 1, count: count)
  }

  /// Splits items into `count` shards of about equal total cost: greedy
  /// longest-processing-time, over the items sorted by (cost descending,
  /// key ascending), each to the least loaded shard (the lowest index on a
  /// tie). It depends only on the costs and keys, so every machine computes
  /// the same partition. Returns each item's 1-based shard. A batch's keys
  /// are its jobs' places in the order they were found (the arguments'
  /// order, each folder's files by their path below it), which do not
  /// depend on how a folder is spelled (`jobs`, `./jobs/`, its absolute
  /// path), as the paths themselves would.
  ///
  /// Only the first `costs.count` shards can get an item (each of them gets
  /// one before any gets two), so at most that many loads are kept, whatever
  /// `count` is: `--shard 1/9223372036854775807` allocates nothing more.
  /// Loads add with overflow reported and saturate, so huge costs cannot trap.
  static func assign<Key: Comparable>(costs: [Int], keys: [Key], count: Int) -> [Int] {
    precondition(costs.count == keys.count && count >= 1)
    let order = costs.indices.sorted { a, b in
      costs[a] != costs[b] ? costs[a] > costs[b] : keys[a] < keys[b]
    }
    var load = [Int](repeating: 0, count: Swift.max(1, Swift.min(count, costs.count)))
    var shard = [Int](repeating: 1, count: costs.count)
    for i in order {
      let least = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 }!
      shard[i] = least + 1
      let (sum, overflow) = load[least].addingReportingOverflow(costs[i])
      load[least] = overflow ? Int.max : sum
    }
    return shard
  }
}

extension String {
  func trimmingWhitespace() -> String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}
