import Foundation
import Jobs
import Media

/// `transvid gallery PATH... -o DIR`: one gallery and one report from many
/// shards. Each PATH is a report (`--report`) or a folder searched for them
/// (the artifacts of a CI matrix, downloaded side by side): every `*.json`
/// below it, outside hidden folders, that is a transvid report.
///
/// Every job of every report is listed once: a job (by its file and name;
/// a file with locales is one job per locale) in two
/// reports is an error naming both, since two shards rendering one job
/// means the shards were not one batch. The file is the report's
/// `absolute_file` (absolute, its folder's links resolved, where the shard ran: one job
/// however the shards spelled it or whichever folder they ran in); a report
/// from before reports gave it is compared by its file as written
/// (`sameFile`). An output is found through its
/// report's `file` (its path relative to the report, which holds after the
/// artifact was moved), else its `path` as written. `DIR/index.html` is
/// `Gallery.html` (the page `--gallery` writes) with links relative to DIR,
/// and `DIR/report.json` the merged report (marked `"merged"`, so that a
/// later merge into DIR takes it for its own and leaves it out; `"shards"`
/// lists the shards its reports were of, so that a merged report named as
/// an input counts for each of them).
///
/// Nothing is lost without a word: a `*.json` in a folder that is not valid
/// JSON (a report cut short by a full disk or a failed upload) or that
/// cannot be read (a FIFO, which is never opened to be read; a report
/// larger than `ReportFile.maxBytes`) is an error,
/// as is a report of a shard whose N shards are not all there, or an output a
/// report lists that is not on disk (`missing`: the page does not show it,
/// the merged report marks it); the page and the merged report are still
/// written where the reports can be read (exit 1). A job that failed in its
/// shard is shown with its error and counted in the summary, and is no
/// failure of the merge (exit 0): its shard already exited 1, and a CI step
/// that publishes the page runs on the nights the page matters most
/// (`totals.failed` in the merged report says how many). `DIR/report.json`
/// is replaced only when a merge wrote it: a shard's report there, or a
/// file that is not valid JSON (which may be a shard's, cut short), is a
/// usage error, nothing written.
enum GalleryCommand {
  static func run(inputs: [String], output: String, console: Console) -> Int32 {
    do {
      // DIR is a folder, or one to be made: a file or device there is the wrong kind, as a batch's
      // `-o` is (exit 2, nothing read), not a merge that failed.
      do throws(MediaError) {
        try Platform.checkDirectories(output)
      } catch {
        throw Options.UsageError(description: "-o '\(output)': \(error.message)")
      }
      let merged = BatchPlan.absolute((output as NSString).appendingPathComponent("report.json"))
      try refuseToOverwriteJobReport(at: merged, output: output)
      let (reports, damaged, unreadable, unreadableFiles) = try findReports(inputs, skipping: merged)
      guard !reports.isEmpty || !damaged.isEmpty || !unreadable.isEmpty || !unreadableFiles.isEmpty else {
        throw Options.UsageError(description: "no transvid reports found in \(inputs.joined(separator: ", "))")
      }
      var results: [JobResult] = []
      // A damaged report, or a folder that cannot be read, is said, and the page made from the others.
      var problems = damaged.map { "\($0) is not valid JSON: a damaged report?" }
        + unreadableFiles.map { "cannot read \($0.path): \($0.reason)" }
        + unreadable.map { "cannot read the folder \($0.folder) (\($0.reason)): the reports in it are not merged" }
      // Every report read first, so that a job in two reports of different splits is said to be so.
      let loadedReports = reports.map { report in
        Result { try load(report) }
      }
      // The shards each count N has, by the reports that name one ("K/N").
      var shards: [Int: Set<Int>] = [:]
      for case .success(let loaded) in loadedReports {
        for shard in loaded.shards { shards[shard.count, default: []].insert(shard.index) }
      }
      let splits = Self.differentSplits(
        zip(reports, loadedReports).compactMap { report, loaded in (try? loaded.get()).map { (report: report, shards: $0.shards) } })
      // A report of a batch stopped while it was planned lists every job file found, each stopped: such an
      // entry stands for a file no other report lists (another shard's report, or an earlier such report).
      var listed = Set<String>(), listedFiles: [String] = []
      func list(_ result: JobResult) {
        if let absolute = result.absoluteFile { listed.insert(absolute) }
        listedFiles.append(PathText.normalized(result.job.file))
      }
      func isListed(_ result: JobResult) -> Bool {
        if let absolute = result.absoluteFile { return listed.contains(absolute) }
        let file = PathText.normalized(result.job.file)
        return listedFiles.contains { Self.sameFile($0, file) }
      }
      for case .success(let loaded) in loadedReports where loaded.planned { loaded.jobs.forEach(list) }
      // A unit of work is a file and a job name: a file with locales is one job per locale.
      var source: [String: [(file: String, absolute: String?, report: String)]] = [:]
      for (report, loaded) in zip(reports, loadedReports) {
        let jobs: [JobResult]
        let planned: Bool
        do {
          (jobs, _, planned) = try loaded.get()
        } catch let error as ReportError {
          // A report named on the command line that cannot be read is said like one found in a folder.
          problems.append(error.description)
          continue
        }
        for var result in jobs {
          if !planned {
            if isListed(result) { continue }
            list(result)
          }
          let file = PathText.normalized(result.job.file)
          let unit = PathText.fileName(of: file) + "\u{0}" + result.job.name
          let absolute = result.absoluteFile
          if let other = source[unit]?.first(where: { other in
            guard other.report != report else { return false }
            if let absolute, let otherAbsolute = other.absolute { return absolute == otherAbsolute }
            return Self.sameFile(other.file, file)
          }) {
            let base = PathText.baseName(of: result.job.file)
            let job = result.job.name == base ? result.job.file : "\(result.job.file) (\(result.job.name))"
            console.error("transvid: job \(job) is in two reports: \(other.report) and \(report)" + (splits.map { "; \($0)" } ?? ""))
            return 1
          }
          source[unit, default: []].append((file, absolute, report))
          // One that is gone is kept as missing: the page does not show it, the merged report says so.
          for (i, output) in result.outputs.enumerated() where !FileManager.default.fileExists(atPath: output.path) {
            problems.append("\(shown(output.path)), an output of \(report), is missing")
            result.outputs[i].missing = true
          }
          results.append(result)
        }
      }
      if let splits {
        problems.append(splits)
      } else {
        for (count, present) in shards.sorted(by: { $0.key < $1.key }) {
          for gap in Self.missingShards(present, of: count) {
            problems.append(
              gap.lowerBound == gap.upperBound
                ? "no report of shard \(gap.lowerBound)/\(count) among the inputs: its jobs are missing"
                : "no reports of shards \(gap.lowerBound)/\(count) to \(gap.upperBound)/\(count) among the inputs: their jobs are missing")
          }
        }
      }
      results.sort(by: Self.batchOrder)
      try BatchRunner.writeAtomically(Gallery.html(results, in: output), to: BatchRunner.galleryPage(output))
      try BatchRunner.writeAtomically(
        BatchReport.json(
          results.map(\.relativeToWorkingFolder), shard: .all, at: merged,
          merged: (reports: reports.count, shards: shards.flatMap { count, indices in indices.map { Shard(index: $0, count: count) } })),
        to: merged)
      let failed = results.filter { $0.status == .failed }.count
      let stopped = results.filter { $0.status == .stopped }.count
      func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
      console.print(
        "transvid: \(count(results.count, "job")) from \(count(reports.count, "report")) (\(failed) failed"
          + (stopped > 0 ? ", \(stopped) stopped" : "") + ") in "
          + BatchRunner.galleryPage(output))
      for problem in problems { console.error("transvid: error: \(problem)") }
      return problems.isEmpty ? 0 : 1
    } catch let error as Options.UsageError {
      console.error("transvid: \(error)")
      return 2
    } catch {
      // The step and its file with the reason: a folder named index.html in DIR is named as such.
      console.error("transvid: \(error)")
      return 1
    }
  }

  /// Throws a usage error unless the merged report may take `path`
  /// (DIR/report.json): nothing is there, or a report a merge wrote (marked
  /// `"merged"`; a merge writes its report whole, by a rename). Anything
  /// else is kept: a shard's report (`--report`), a file that is not valid
  /// JSON (a report cut short, whose nothing shows), JSON that is no
  /// transvid report, a file that cannot be read.
  static func refuseToOverwriteJobReport(at path: String, output: String) throws {
    guard FileManager.default.fileExists(atPath: path) else { return }
    let shown = (output as NSString).appendingPathComponent("report.json")
    func kept(_ what: String) -> Options.UsageError {
      Options.UsageError(
        description: "\(shown) \(what), and no merge wrote it; the merged report would overwrite it: "
          + "give -o another folder than \(output), or remove it")
    }
    let bytes: [UInt8]
    do throws(MediaError) {
      bytes = try ReportFile.read(path)
    } catch {
      throw kept("cannot be read (\(error.message))")
    }
    guard let json = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) else {
      throw kept("is not valid JSON (a report cut short?)")
    }
    guard let object = report(json) else { throw kept("is not a transvid report") }
    if object["merged"] != nil { return }
    throw Options.UsageError(
      description: "\(shown) is a report of rendered jobs (from --report), which the merged "
        + "report would overwrite: give -o another folder than \(output)")
  }

  /// The runs of shard indices from 1 to `count` that `present` lacks, in
  /// order: a report of `--shard 1/1000000000` (which a batch takes) lacks
  /// one run, said in one line, where each index was a line of its own (a
  /// billion of them, the merge writing for minutes).
  static func missingShards(_ present: Set<Int>, of count: Int) -> [ClosedRange<Int>] {
    var gaps: [ClosedRange<Int>] = []
    // The first index not yet known present or missing (never past `count`: `Int.max` is a count).
    var next = 1
    for index in present.filter({ (1...count).contains($0) }).sorted() {
      if index > next { gaps.append(next...(index - 1)) }
      if index == count { return gaps }
      next = index + 1
    }
    gaps.append(next...count)
    return gaps
  }

  /// That the reports are of different shard splits (`--shard K/N` of more
  /// than one N), naming each report's shards, or nil: such reports are not
  /// the shards of one run, so a shard of either split missing says nothing.
  static func differentSplits(_ reports: [(report: String, shards: [Shard])]) -> String? {
    guard Set(reports.flatMap { $0.shards.map(\.count) }).count > 1 else { return nil }
    let each = reports.filter { !$0.shards.isEmpty }.map { report, shards in
      let held = shards.sorted { ($0.count, $0.index) < ($1.count, $1.index) }.map(\.description)
      return "\(held.count == 1 ? "shard" : "shards") \(held.joined(separator: ", ")) in \(report)"
    }
    return "the reports are of different shard splits, so not of one run: \(each.joined(separator: "; ")); "
      + "merge the reports of every shard of one split"
  }

  /// Whether `a` comes before `b` on the page and in the merged report: in
  /// their batch's order (`order`, the same in every shard's report), as a
  /// run of the whole batch lists them; a job of a report without it after
  /// those with it; jobs of one place (of other batches) by their file and name.
  static func batchOrder(_ a: JobResult, _ b: JobResult) -> Bool {
    if a.order != b.order {
      guard let x = a.order else { return false }
      guard let y = b.order else { return true }
      return x < y
    }
    return a.job.file == b.job.file
      ? Array(a.job.name.utf8).lexicographicallyPrecedes(Array(b.job.name.utf8))
      : Array(a.job.file.utf8).lexicographicallyPrecedes(Array(b.job.file.utf8))
  }

  /// Whether two normalized paths name one file as two shards would write
  /// it, for a report without `absolute_file`: equal, or the absolute one
  /// ends with the relative one after a slash (a guess: `/ci/legacy/jobs/a.cfg`
  /// ends with `jobs/a.cfg` too).
  static func sameFile(_ a: String, _ b: String) -> Bool {
    if a == b { return true }
    switch (a.hasPrefix("/"), b.hasPrefix("/")) {
    case (true, false): return a.hasSuffix("/" + b)
    case (false, true): return b.hasSuffix("/" + a)
    default: return false
    }
  }

  /// The report files named by `inputs`, resolved, sorted per folder, once
  /// each. A folder's `skipping` (DIR/report.json, the merged report a
  /// previous merge wrote) is passed over; named as a file it is read like
  /// any report, before the merge replaces it (`gallery DIR/report.json
  /// shard-3 -o DIR` adds shard 3 to DIR's merge). A `*.json` in a folder
  /// that is valid JSON but no report, or a merged report, is passed over;
  /// one that is not valid JSON is `damaged` (a report cut short), for the
  /// caller to say, and so is a folder below an input that cannot be read
  /// (`unreadable`: its reports would be lost without a word), and a
  /// `*.json` that cannot be read (`unreadableFiles`: a FIFO, a device,
  /// one without read permission; read only if it is a regular file, so a
  /// FIFO never holds the merge); an input folder that cannot be read is a
  /// usage error, as one not there is. A folder named `x.json` is no report
  /// (its files are searched), as a folder named `x.cfg` is no job.
  static func findReports(_ inputs: [String], skipping: String) throws
    -> (
      reports: [String], damaged: [String], unreadable: [(folder: String, reason: String)],
      unreadableFiles: [(path: String, reason: String)]
    )
  {
    var reports: [String] = [], damaged: [String] = [], unreadable: [(folder: String, reason: String)] = []
    var unreadableFiles: [(path: String, reason: String)] = []
    var seen: Set<String> = []
    let fm = FileManager.default
    for input in inputs {
      var isDirectory: ObjCBool = false
      guard !input.isEmpty else {
        throw Options.UsageError(description: "a report or folder needs a path, got an empty argument")
      }
      guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
        throw Options.UsageError(description: "no such file or directory: \(input)")
      }
      var found = [input]
      if isDirectory.boolValue {
        let listing = FolderListing.listing(below: input)
        for (path, reason) in listing.unreadable.sorted(by: { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }) {
          guard !path.isEmpty else { throw Options.UsageError(description: "cannot read '\(input)': \(reason)") }
          unreadable.append(((input as NSString).appendingPathComponent(path), reason))
        }
        found = listing.paths
          .filter { $0.hasSuffix(".json") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
          .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
          .map { (input as NSString).appendingPathComponent($0) }
          .filter { BatchPlan.absolute($0) != skipping }
          .filter { path in
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return false }
            let bytes: [UInt8]
            // A large JSON file that does not begin as a report is another tool's, passed over unread.
            if ReportFile.oversize(path) != nil && !ReportFile.beginsAsReport(path) { return false }
            do throws(MediaError) {
              bytes = try ReportFile.read(path)
            } catch {
              unreadableFiles.append((path, error.message))
              return false
            }
            guard let json = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) else {
              damaged.append(path)
              return false
            }
            // A merged report (a gallery's) is made of reports found beside it.
            return report(json).map { $0["merged"] == nil } ?? false
          }
      }
      for path in found where seen.insert(BatchPlan.absolute(path)).inserted { reports.append(path) }
    }
    return (reports, damaged, unreadable, unreadableFiles)
  }

  /// The report at `path` as JSON, or an error saying it is not one, or
  /// cannot be read (a FIFO or device is not opened for reading).
  static func report(at path: String) throws -> [String: Any] {
    let data: Data
    do throws(MediaError) {
      data = Data(try ReportFile.read(path))
    } catch {
      throw ReportError(description: "cannot read \(path): \(error.message)")
    }
    guard let object = (try? JSONSerialization.jsonObject(with: data)).flatMap(report) else {
      throw ReportError(description: "\(path) is not a transvid report (from --report)")
    }
    return object
  }

  /// `json` as a report: an object with `jobs` and `totals`, else nil.
  static func report(_ json: Any) -> [String: Any]? {
    guard let object = json as? [String: Any], object["jobs"] is [Any], object["totals"] is [String: Any] else { return nil }
    return object
  }

  struct ReportError: Error, CustomStringConvertible { var description: String }

  /// The jobs of the report at `path`, their outputs' paths resolved, and
  /// the shards it holds: the one a shard's report names, those a merged
  /// report lists, none for a whole batch's; and whether its batch was
  /// planned (false: stopped while it was, `StoppedWhilePlanned`).
  static func load(_ path: String) throws -> (jobs: [JobResult], shards: [Shard], planned: Bool) {
    let folder = BatchPlan.absolute(PathText.folder(of: path))
    let object = try report(at: path)
    let entries = object["jobs"] as? [[String: Any]] ?? []
    let shards = ([object["shard"] as? String] + (object["shards"] as? [String] ?? [])).compactMap { $0.flatMap(Shard.init(parsing:)) }
    let jobs = try entries.map { entry in
      guard let file = entry["file"] as? String, let name = entry["job"] as? String,
        let status = (entry["status"] as? String).flatMap(JobResult.Status.init(rawValue:))
      else { throw ReportError(description: "\(path): a job without file, job or status") }
      var job = PlannedJob(file: file, name: name)
      let outputs = entry["outputs"] as? [[String: Any]] ?? []
      // A report from before reports named formats: each output's format from its file name.
      job.formats =
        (entry["formats"] as? [String])?.compactMap(OutputFormat.init(rawValue:))
        ?? outputs.compactMap { format(ofFile: $0["path"] as? String ?? "") }
      job.frames = entry["frames"] as? Int ?? 0
      job.duration = entry["duration"] as? Double ?? 0
      job.pixelWidth = entry["width"] as? Int ?? 0
      job.pixelHeight = entry["height"] as? Int ?? 0
      job.transitions = entry["transitions"] as? [String] ?? []
      var result = JobResult(job: job, status: status, seconds: entry["seconds"] as? Double ?? 0, key: entry["key"] as? String ?? "")
      result.absoluteFile = entry["absolute_file"] as? String
      result.order = entry["order"] as? Int
      for output in outputs {
        let written = output["path"] as? String ?? ""
        let resolved = (output["file"] as? String).map { (folder as NSString).appendingPathComponent($0) } ?? written
        result.outputs.append(
          OutputSummary(
            path: BatchPlan.absolute(resolved), frames: output["frames"] as? Int ?? 0,
            duration: output["duration"] as? Double ?? 0, bytes: output["bytes"] as? Int ?? 0))
      }
      if let error = entry["error"] as? [String: Any] {
        let location = (error["line"] as? Int).flatMap { line in
          (error["column"] as? Int).map { SourceLocation(file: error["file"] as? String ?? file, line: line, column: $0) }
        }
        result.failure = JobFailure(description: error["message"] as? String ?? "failed", location: location)
      }
      return result
    }
    return (jobs, shards, object["planned"] as? Bool ?? true)
  }
}

extension JobResult {
  /// The result with its outputs' paths relative to the working folder (as
  /// a batch's report writes them), where the merge resolved them absolute.
  var relativeToWorkingFolder: JobResult {
    var result = self
    for i in result.outputs.indices { result.outputs[i].path = GalleryCommand.shown(result.outputs[i].path) }
    return result
  }
}

extension GalleryCommand {
  /// An absolute path as messages and the merged report show it: relative
  /// to the working folder.
  static func shown(_ path: String) -> String {
    Gallery.relativePath(path, from: FileManager.default.currentDirectoryPath, encoded: false)
  }

  /// The format whose file extension ends `path` (the longest: `x.sheet.png` is a sheet, `x.png` a poster).
  static func format(ofFile path: String) -> OutputFormat? {
    OutputFormat.allCases.filter { path.hasSuffix(".\($0.writer.fileType.fileExtension)") }
      .max { $0.writer.fileType.fileExtension.count < $1.writer.fileType.fileExtension.count }
  }
}

extension Options {
  /// `gallery PATH... -o DIR`.
  static func parseGallery(_ arguments: ArraySlice<String>) throws -> Options {
    var inputs: [String] = []
    var output: String?
    var stream = ArgumentStream(arguments, shortValued: ["-o"])
    while let arg = try stream.next() {
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "-o", "--output-dir":
        output = try stream.value()
        guard output?.isEmpty == false else { throw UsageError(description: "option \(arg) needs a path, got an empty one") }
      case "--": inputs += stream.remaining()
      default:
        if let misplaced = Subcommand.misplaced(arg, in: "gallery") { throw misplaced }
        guard !arg.hasPrefix("-") else {
          throw UsageError(
            description: "unexpected argument '\(stream.raw)' for 'gallery'\(Options.hint(for: arg, among: ["--help", "--output-dir"]))")
        }
        inputs.append(arg)
      }
    }
    guard !inputs.isEmpty else { throw UsageError(description: "'gallery' needs reports or folders of reports") }
    guard let output else { throw UsageError(description: "'gallery' needs -o DIR") }
    return Options(command: .gallery(inputs: inputs, output: output))
  }
}
