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
/// means the shards were not one batch. An output is found through its
/// report's `file` (its path relative to the report, which holds after the
/// artifact was moved), else its `path` as written. `DIR/index.html` is
/// `Gallery.html` (the page `--gallery` writes) with links relative to DIR,
/// and `DIR/report.json` the merged report.
enum GalleryCommand {
  static func run(inputs: [String], output: String, console: Console) -> Int32 {
    do {
      let merged = BatchPlan.absolute((output as NSString).appendingPathComponent("report.json"))
      let reports = try findReports(inputs, skipping: merged)
      guard !reports.isEmpty else {
        throw Options.UsageError(description: "no transvid reports found in \(inputs.joined(separator: ", "))")
      }
      var results: [JobResult] = []
      // A unit of work is a file and a job name: a file with locales is one job per locale.
      var source: [String: String] = [:]
      for report in reports {
        for result in try load(report) {
          let unit = result.job.file + "\u{0}" + result.job.name
          if let other = source[unit] {
            let base = PathText.baseName(of: result.job.file)
            let job = result.job.name == base ? result.job.file : "\(result.job.file) (\(result.job.name))"
            console.error("transvid: job \(job) is in two reports: \(other) and \(report)")
            return 1
          }
          source[unit] = report
          results.append(result)
        }
      }
      results.sort { a, b in
        a.job.file == b.job.file
          ? Array(a.job.name.utf8).lexicographicallyPrecedes(Array(b.job.name.utf8))
          : Array(a.job.file.utf8).lexicographicallyPrecedes(Array(b.job.file.utf8))
      }
      try BatchRunner.writeAtomically(Gallery.html(results, in: output), to: BatchRunner.galleryPage(output))
      try BatchRunner.writeAtomically(BatchReport.json(results, shard: .all, at: merged), to: merged)
      let failed = results.filter { $0.status == .failed }.count
      console.print(
        "transvid: \(results.count) jobs from \(reports.count) reports (\(failed) failed) in \(BatchRunner.galleryPage(output))")
      return failed == 0 ? 0 : 1
    } catch let error as Options.UsageError {
      console.error("transvid: \(error)")
      return 2
    } catch {
      console.error("transvid: \((error as? MediaError)?.message ?? "\(error)")")
      return 1
    }
  }

  /// The report files named by `inputs`, resolved, sorted per folder, once
  /// each, without `skipping` (the merged report a previous merge wrote).
  static func findReports(_ inputs: [String], skipping: String) throws -> [String] {
    var reports: [String] = []
    var seen: Set<String> = [skipping]
    let fm = FileManager.default
    for input in inputs {
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
        throw Options.UsageError(description: "no such file or directory: \(input)")
      }
      var found = [input]
      if isDirectory.boolValue {
        found = (fm.enumerator(atPath: input)?.allObjects as? [String] ?? [])
          .filter { $0.hasSuffix(".json") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
          .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
          .map { (input as NSString).appendingPathComponent($0) }
          .filter { (try? report(at: $0)) != nil }
      }
      for path in found where seen.insert(BatchPlan.absolute(path)).inserted { reports.append(path) }
    }
    return reports
  }

  /// The report at `path` as JSON, or an error saying it is not one.
  static func report(at path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["jobs"] is [Any],
      object["totals"] is [String: Any]
    else { throw ReportError(description: "\(path) is not a transvid report (from --report)") }
    return object
  }

  struct ReportError: Error, CustomStringConvertible { var description: String }

  /// The jobs of the report at `path`, their outputs' paths resolved.
  static func load(_ path: String) throws -> [JobResult] {
    let folder = BatchPlan.absolute(PathText.folder(of: path))
    let entries = try report(at: path)["jobs"] as? [[String: Any]] ?? []
    return try entries.map { entry in
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
      for output in outputs {
        let written = output["path"] as? String ?? ""
        let resolved = (output["file"] as? String).map { (folder as NSString).appendingPathComponent($0) } ?? written
        result.outputs.append(
          OutputSummary(
            path: BatchPlan.absolute(resolved), frames: output["frames"] as? Int ?? 0,
            duration: output["duration"] as? Double ?? 0, bytes: output["bytes"] as? Int ?? 0))
      }
      if let error = entry["error"] as? [String: Any] {
        var failure = JobFailure(file: file, message: "")
        failure.description = error["message"] as? String ?? "failed"
        result.failure = failure
      }
      return result
    }
  }
}

extension GalleryCommand {
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
    var stream = ArgumentStream(arguments, splitsJobs: false)
    while let arg = stream.next() {
      switch arg {
      case "-h", "--help": return Options(command: .help)
      case "-o", "--output-dir":
        output = try stream.value()
        guard output?.isEmpty == false else { throw UsageError(description: "option \(arg) needs a path, got an empty one") }
      case "--": inputs += stream.remaining()
      default:
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
