/// The result lines of a batch's jobs in the batch's order: a job's lines
/// print once every job before it has finished, so `-j` workers finishing
/// in any order print the same lines in the same order (a nightly log
/// compares with the last night's). A job's lines wait only for the jobs
/// before it, and none past the end of the batch (`all`).
struct ResultLines {
  /// The place of the first job whose lines have not printed.
  private var next = 0
  /// Lines of jobs at or after `next`, by their place.
  private var lines: [Int: [String]] = [:]
  /// Places at or after `next` whose jobs have finished.
  private var finished: Set<Int> = []

  /// Keeps `text` for the job at `place`.
  mutating func add(_ text: [String], at place: Int) {
    lines[place, default: []] += text
  }

  /// The job at `place` has finished: the lines now due, in order.
  mutating func finish(_ place: Int) -> [String] {
    if next == .max { return lines.removeValue(forKey: place) ?? [] }
    finished.insert(place)
    var due: [String] = []
    while finished.remove(next) != nil {
      due += lines.removeValue(forKey: next) ?? []
      next += 1
    }
    return due
  }

  /// Every line still kept, in order; a job finishing afterwards prints at once.
  mutating func all() -> [String] {
    let due = lines.keys.sorted().flatMap { lines[$0] ?? [] }
    lines = [:]
    finished = []
    next = Int.max
    return due
  }
}
