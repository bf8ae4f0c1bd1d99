import Foundation

/// `--report FILE.json` and `--junit FILE.xml`: what each job of the run did.
enum BatchReport {
  /// The JSON report: per job its status, formats, size, transitions,
  /// outputs, bytes, frames, time, and for a failure the message with file,
  /// line and column. Written to `path`, each output also gets `file`: its
  /// path relative to the report's folder, which still holds when the folder
  /// is copied elsewhere (a CI artifact), so `transvid gallery` finds it.
  /// Each job's `absolute_file` is its file absolute, its folder's links
  /// resolved (`absoluteFile(of:)`): which job it is, however the command line
  /// spelled it, for `transvid gallery` to find a job two reports list.
  /// `merged`: the number of reports `transvid gallery` merged into this one
  /// and the shards they were of (`"shards": ["1/3", "2/3"]`, in order; a
  /// merged report's own count for theirs, so a later merge counts them);
  /// an output one of them lists that is gone is `"missing": true`, without
  /// bytes, counted in the totals' `missing` and in no `bytes`; a job's
  /// `absolute_file` is its report's (`JobResult.absoluteFile`).
  /// Each job's `order` is its place in the whole batch (`PlannedJob.position`;
  /// in a merged report its report's), so a merge lists the jobs of every
  /// shard in the order one run of the batch lists them.
  /// `stoppedBy`: the signal that stopped the batch (`"stopped": "SIGINT"`),
  /// its unfinished jobs `stopped`, counted in the totals' `stopped`.
  /// Not `planned`: stopped before its jobs were planned (`"planned": false`,
  /// `StoppedWhilePlanned`), its jobs the files found, without `order`.
  static func json(
    _ results: [JobResult], shard: Shard, at path: String? = nil, merged: (reports: Int, shards: [Shard])? = nil,
    stoppedBy signal: String? = nil, planned: Bool = true
  ) -> String {
    let folder = path.map { BatchPlan.absolute(PathText.folder(of: $0)) }
    var lines: [String] = ["{"]
    lines.append("  \"version\": \(JSONText.string(TransvidCommand.version)),")
    lines.append("  \"shard\": \(shard == .all ? "null" : JSONText.string(shard.description)),")
    if let signal { lines.append("  \"stopped\": \(JSONText.string(signal)),") }
    if !planned { lines.append("  \"planned\": false,") }
    if let merged {
      lines.append("  \"merged\": \(merged.reports),")
      let shards = merged.shards.sorted { ($0.count, $0.index) < ($1.count, $1.index) }
      lines.append("  \"shards\": \(JSONText.value(shards.map(\.description))),")
    }
    let counts = Dictionary(grouping: results, by: \.status).mapValues(\.count)
    lines.append(
      "  \"totals\": " + JSONText.object([
        ("jobs", results.count), ("rendered", counts[.rendered] ?? 0), ("cached", counts[.cached] ?? 0),
        ("failed", counts[.failed] ?? 0), ("stopped", counts[.stopped] ?? 0), ("bytes", results.reduce(0) { $0 + $1.bytes }),
        ("missing", merged.map { _ in results.reduce(0) { $0 + $1.outputs.filter(\.missing).count } }),
      ]) + ",")
    lines.append("  \"jobs\": [")
    for (i, r) in results.enumerated() {
      var fields: [(String, Any?)] = [
        ("job", r.job.name), ("file", r.job.file),
        ("absolute_file", merged == nil ? absoluteFile(of: r.job.file) : r.absoluteFile),
        ("order", merged == nil ? (planned ? r.job.position : nil) : r.order),
        ("status", r.status.rawValue), ("cached", r.status == .cached),
        ("frames", r.job.frames), ("duration", r.job.duration), ("bytes", r.bytes), ("seconds", r.seconds),
        ("key", r.key.isEmpty ? nil : r.key), ("formats", r.job.formats.map(\.rawValue)),
        ("width", r.job.pixelWidth), ("height", r.job.pixelHeight), ("transitions", r.job.transitions),
      ]
      let outputs = r.outputs.map { output in
        let file = folder.map { Gallery.relativePath(BatchPlan.absolute(output.path), from: $0, encoded: false) }
        return JSONText.object([
          ("path", output.path), ("file", file), ("missing", output.missing ? true : nil),
          ("bytes", output.missing ? nil : output.bytes), ("frames", output.frames), ("duration", output.duration),
        ])
      }
      fields.append(("outputs", RawJSON("[" + outputs.joined(separator: ",") + "]")))
      if let failure = r.failure {
        fields.append(
          ("error",
            RawJSON(
              JSONText.object([
                ("message", failure.description), ("file", failure.location?.file ?? r.job.file),
                ("line", failure.location?.line), ("column", failure.location?.column),
              ]))))
      }
      lines.append("    " + JSONText.object(fields) + (i + 1 < results.count ? "," : ""))
    }
    lines.append("  ]")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `file` made absolute in the working folder, the links and `..` of its
  /// folder resolved as the kernel follows them: which job it is
  /// (`BatchPlan.identity(of:)`), so a link to a job file in another folder
  /// is a job of its own here too.
  static func absoluteFile(of file: String) -> String { BatchPlan.identity(of: file) }

  /// `transvid.` and the folder of the job file `file`, the same however
  /// the command line named it: relative to `workingFolder` when inside it
  /// (`transvid.jobs/a` for `jobs/a/x.cfg`, `./jobs/a/`, `jobs/../jobs/a/x.cfg`
  /// or its absolute path, also one through a link to the working folder),
  /// else absolute, `.` and `..` taken from the text (`PathText.normalized`);
  /// just `transvid` for a job in the working folder.
  static func junitClassName(file: String, workingFolder: String = FileManager.default.currentDirectoryPath) -> String {
    func below(_ folder: String, _ base: String) -> String? {
      if folder == base { return "" }
      let prefix = base == "/" ? "/" : base + "/"
      return folder.hasPrefix(prefix) ? String(folder.dropFirst(prefix.count)) : nil
    }
    let base = PathText.normalized(workingFolder)
    let written = PathText.folder(of: file)
    let folder = PathText.normalized(written.hasPrefix("/") ? written : base + "/" + written)
    let path =
      below(folder, base)
      ?? PathPolicy.resolve(folder).flatMap { real in PathPolicy.resolve(base).flatMap { below(real, $0) } }
      ?? folder
    return path.isEmpty ? "transvid" : "transvid." + path
  }

  /// JUnit XML, one `testcase` per job (classname: the job file's folder;
  /// `file` the job file, or for a failure with a place the file its `line`
  /// is in); a failed job carries a `failure` with the message, one a
  /// signal stopped (`stopped`) a `skipped` saying so, an
  /// up-to-date one a `system-out` saying so, a rendered one or one copied
  /// from the `--cache` store its result lines.
  static func junit(_ results: [JobResult]) -> String {
    let failures = results.filter { $0.status == .failed }.count
    let skipped = results.filter { $0.status == .stopped }.count
    let time = results.reduce(0) { $0 + $1.seconds }
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites name=\"transvid\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" time=\"\(seconds(time))\">\n"
    xml += "  <testsuite name=\"transvid\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
    for r in results {
      let classname = junitClassName(file: r.job.file)
      // A failure's file and line, where it has a place: the job file, or the file the error is in (its String Catalog).
      let place = r.failure?.location
      xml += "    <testcase classname=\"\(escape(classname, attribute: true))\" name=\"\(escape(r.job.name, attribute: true))\" "
        + "file=\"\(escape(place?.file ?? r.job.file, attribute: true))\""
      if let line = place?.line { xml += " line=\"\(line)\"" }
      xml += " time=\"\(seconds(r.seconds))\""
      switch r.status {
      case .failed:
        let message = r.failure?.description ?? "failed"
        xml += ">\n      <failure message=\"\(escape(message, attribute: true))\" type=\"error\">\(escape(message))</failure>\n    </testcase>\n"
      case .stopped:
        let message = r.failure?.description ?? "stopped"
        xml += ">\n      <skipped message=\"\(escape(message, attribute: true))\"/>\n    </testcase>\n"
      case .cached where !r.copied:
        xml += ">\n      <system-out>up to date: \(escape(r.outputs.map(\.path).joined(separator: ", ")))</system-out>\n    </testcase>\n"
      case .rendered, .cached:
        // A copy from the `--cache` store has its result lines, each saying so, as a render has.
        let lines = zip(r.job.formats, r.outputs).map { $1.line($0.writer.fileType) }
        xml += ">\n      <system-out>\(escape(lines.joined(separator: "\n")))</system-out>\n    </testcase>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  private static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

  /// Text escaped for XML attributes and content. Characters XML 1.0 does
  /// not allow at all (controls other than tab and newline, U+FFFE, U+FFFF)
  /// become `?`: a job name or message may echo them, and a JUnit file a CI
  /// server cannot parse reports nothing.
  /// `attribute`: for an XML attribute, whose line breaks and tabs a
  /// parser turns into spaces unless they are character references.
  static func escape(_ text: String, attribute: Bool = false) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n" where attribute, "\t" where attribute: out += "&#\(scalar.value);"
      case "\n", "\t": out.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "?"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

/// JSON text that `JSONText.value` inserts as it is.
struct RawJSON: CustomStringConvertible {
  var description: String
  init(_ text: String) { description = text }
}
