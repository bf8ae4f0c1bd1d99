// Issue 19, through the built executable: `transvid gallery` merges the
// reports of three shards, whose folders were moved after rendering (as CI
// artifacts are downloaded side by side), into one page and one report:
// every job once, every link resolving relative to the page's folder, the
// page loading in headless Chromium without console errors; a job in two
// reports is an error naming both.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import TransvidCLI

@Suite(.serialized) struct GalleryMergeTests {
  /// Renders `jobs` in three shards from `dir`, each into `shard-K/out` with
  /// its report there, then moves each to `artifacts/shard-K`.
  static func renderShards(in dir: String) throws -> [String] {
    _ = try makeBatch(in: dir, count: 5)
    try FileManager.default.createDirectory(atPath: path(dir, "artifacts"), withIntermediateDirectories: true)
    var reports: [String] = []
    for k in 1...3 {
      let run = try runTransvid(
        ["jobs", "--shard", "\(k)/3", "-o", "shard-\(k)/out", "--format", "mp4,png", "--report", "shard-\(k)/out/report.json", "-q"],
        in: dir)
      #expect(run.status == 0, "\(run.stderr)")
      try FileManager.default.moveItem(atPath: path(dir, "shard-\(k)/out"), toPath: path(dir, "artifacts/shard-\(k)"))
      reports.append(path(dir, "artifacts/shard-\(k)/report.json"))
    }
    return reports
  }

  /// Every `src="…"`, `poster="…"` and `href="…"` of `html`.
  static func links(in html: String) -> [String] {
    html.matches(of: /(?:src|poster|href)="([^"]*)"/).map { String($0.output.1) }
  }

  @Test func threeShardsMakeOneGalleryAndOneReport() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let reports = try Self.renderShards(in: dir)
    #expect(try reports.map { try reportJobs($0).count }.reduce(0, +) == 5)

    let run = try runTransvid(["gallery", "artifacts", "-o", "site"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "transvid: 5 jobs from 3 reports (0 failed) in site/index.html\n")

    let merged = try reportJobs(path(dir, "site/report.json"))
    let files = (0..<5).map { String(format: "jobs/%@/job-%02d.cfg", $0 % 2 == 0 ? "a" : "b", $0) }
    #expect(merged.map { $0["file"] as? String ?? "" } == files.sorted())
    for entry in merged {
      let outputs = try #require(entry["outputs"] as? [[String: Any]])
      let name = try #require(entry["job"] as? String)
      #expect(outputs.compactMap { $0["file"] as? String }.sorted().map { $0.replacingOccurrences(of: "../artifacts/", with: "") }.allSatisfy {
        $0.hasSuffix("/\(name).mp4") || $0.hasSuffix("/\(name).png")
      })
      #expect(entry["formats"] as? [String] == ["mp4", "png"] && entry["width"] as? Int == 60)
    }

    let index = path(dir, "site/index.html")
    let html = try String(contentsOfFile: index, encoding: .utf8)
    #expect(html.components(separatedBy: "<figure").count - 1 == 5)
    let links = Self.links(in: html)
    // Per job: the poster, the video's source, and a link to each of its two files.
    #expect(links.count == 5 * 4)
    for link in links {
      #expect(link.hasPrefix("../artifacts/shard-"), "\(link)")
      #expect(FileManager.default.fileExists(atPath: path(path(dir, "site"), link)), "\(link) does not resolve")
    }

    let dom = try chromiumDOM(of: index, profile: path(dir, "chromium-profile"))
    #expect(dom.contains("data-media-count=\"5\""), "\(dom.prefix(600))")
    #expect(dom.contains("data-media-loaded=\"5\""))
    #expect(dom.contains("data-console-errors=\"0\""))
    #expect(dom.contains("data-media-ready=\"true\""))

    // Merging again, with the merged site among the inputs, gives the same page.
    let again = try runTransvid(["gallery", "artifacts", "site", "-o", "site"], in: dir)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try String(contentsOfFile: index, encoding: .utf8) == html)
  }

  @Test func aJobInTwoReportsIsAnErrorNamingBoth() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let reports = try Self.renderShards(in: dir)
    try FileManager.default.copyItem(atPath: reports[0], toPath: path(dir, "artifacts/shard-3/again.json"))
    let first = try #require(try reportJobs(reports[0]).first?["file"] as? String)
    let run = try runTransvid(["gallery", "artifacts", "-o", "site"], in: dir)
    #expect(run.status == 1)
    #expect(
      run.errorLines == [
        "transvid: job \(first) is in two reports: artifacts/shard-1/report.json and artifacts/shard-3/again.json"
      ])
    #expect(!FileManager.default.fileExists(atPath: path(dir, "site")))

    let none = try runTransvid(["gallery", "jobs", "-o", "site"], in: dir)
    #expect(none.status == 2 && none.errorLines == ["transvid: no transvid reports found in jobs"])

    // The same shard run with the folder spelled another way (its absolute path, `./`, a
    // trailing slash) writes other paths into its report: still the same jobs.
    let spelled = try runTransvid(
      [path(dir, ".") + "/jobs/", "--shard", "1/3", "-o", "abs", "--format", "mp4,png", "--report", "abs/report.json", "-q"], in: dir)
    #expect(spelled.status == 0, "\(spelled.stderr)")
    let twice = try runTransvid(["gallery", "artifacts/shard-1/report.json", "abs/report.json", "-o", "site"], in: dir)
    #expect(twice.status == 1)
    #expect(twice.errorLines.count == 1 && twice.errorLines.first?.hasSuffix(" is in two reports: artifacts/shard-1/report.json and abs/report.json") == true, "\(twice.errorLines)")

    // Two jobs of one name in two folders, one below the other's name, are two jobs.
    for folder in ["pair/jobs", "pair/legacy/jobs"] {
      try FileManager.default.createDirectory(atPath: path(dir, folder), withIntermediateDirectories: true)
    }
    try write(tinyJob(name: "twin").replacingOccurrences(of: "output: { formats", with: "output: { dir: one, formats"), to: "pair/jobs/a.cfg", in: dir)
    try write(tinyJob(name: "twin").replacingOccurrences(of: "output: { formats", with: "output: { dir: two, formats"), to: "pair/legacy/jobs/a.cfg", in: dir)
    let pair = try runTransvid(["jobs", "legacy", "--report", "r.json", "-q"], in: path(dir, "pair"))
    #expect(pair.status == 0, "\(pair.stderr)")
    let merged = try runTransvid(["gallery", "pair/r.json", "-o", "pair-site"], in: dir)
    #expect(merged.status == 0, "\(merged.stderr)")
  }

  /// A merged report lists the shards its reports were of, and a merge that
  /// is given it counts it for each: shards 1 and 2 merged, then merged with
  /// shard 3, are all three. (The fleet sweep: the merged report said
  /// `"shard": null`, and the second merge, with every job, exited 1 for
  /// shards 1/3 and 2/3 missing.)
  @Test func aMergedReportCountsForItsShards() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try Self.renderShards(in: dir)
    let first = try runTransvid(["gallery", "artifacts/shard-1", "artifacts/shard-2", "-o", "m12"], in: dir)
    #expect(first.status == 1)
    #expect(first.errorLines == ["transvid: error: no report of shard 3/3 among the inputs: its jobs are missing"])
    func shards(_ report: String) throws -> [String]? {
      let data = try #require(FileManager.default.contents(atPath: path(dir, report)))
      return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["shards"] as? [String]
    }
    #expect(try shards("m12/report.json") == ["1/3", "2/3"])
    let final = try runTransvid(["gallery", "m12/report.json", "artifacts/shard-3/report.json", "-o", "final"], in: dir)
    #expect(final.status == 0, "\(final.stderr)")
    #expect(final.stdout == "transvid: 5 jobs from 2 reports (0 failed) in final/index.html\n")
    #expect(try shards("final/report.json") == ["1/3", "2/3", "3/3"])
    let html = try String(contentsOfFile: path(dir, "final/index.html"), encoding: .utf8)
    let links = Self.links(in: html)
    #expect(links.count == 5 * 4)
    for link in links { #expect(FileManager.default.fileExists(atPath: path(path(dir, "final"), link)), "\(link) does not resolve") }
  }

  /// A shard stopped while its jobs were planned lists every job file
  /// found, stopped (`"planned": false`): the merge keeps such an entry
  /// only for a file no other shard's report lists, where it said that
  /// every job of shards 1 and 2 was in two reports and wrote nothing.
  @Test func aShardStoppedWhilePlannedYieldsTheOthersJobs() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let reports = try Self.renderShards(in: dir)
    let others = try reports.prefix(2).flatMap { try reportJobs($0).map { $0["file"] as? String ?? "" } }
    let files = (0..<5).map { String(format: "jobs/%@/job-%02d.cfg", $0 % 2 == 0 ? "a" : "b", $0) }
    let stopped = BatchReport.json(
      StoppedWhilePlanned.results(files.map { path(dir, $0) }, by: "SIGTERM"), shard: Shard(index: 3, count: 3),
      at: reports[2], stoppedBy: "SIGTERM", planned: false)
    try stopped.write(toFile: reports[2], atomically: true, encoding: .utf8)
    let run = try runTransvid(["gallery", "artifacts", "-o", "site"], in: dir)
    let rest = files.filter { !others.contains($0) }
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "transvid: 5 jobs from 3 reports (0 failed, \(rest.count) stopped) in site/index.html\n")
    let merged = try reportJobs(path(dir, "site/report.json"))
    let statuses = merged.map { "\(PathText.fileName(of: $0["file"] as? String ?? "")) \($0["status"] ?? "")" }.sorted()
    let expected = files.map { "\(PathText.fileName(of: $0)) \(rest.contains($0) ? "stopped" : "rendered")" }
    #expect(statuses == expected)
    #expect(!rest.isEmpty && rest.count < 5)
  }

  /// Reports of two splits of a batch (shard 1/3 of one run, 2/2 of
  /// another) are not the shards of one run: the merge says so in one line,
  /// naming each report's shard, where it listed shards 2/3, 3/3 and 1/2 as
  /// missing; and a job in two such reports is said to be there because of it.
  @Test func reportsOfDifferentSplitsAreSaidToBe() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try Self.renderShards(in: dir)
    try FileManager.default.createDirectory(atPath: path(dir, "other"), withIntermediateDirectories: true)
    try write(#"{"version": "0.1.0", "shard": "2/2", "totals": {}, "jobs": []}"#, to: "other/report.json", in: dir)
    let mixed = try runTransvid(["gallery", "artifacts/shard-1", "other", "-o", "site"], in: dir)
    #expect(mixed.status == 1)
    #expect(
      mixed.errorLines == [
        "transvid: error: the reports are of different shard splits, so not of one run: shard 1/3 in "
          + "artifacts/shard-1/report.json; shard 2/2 in other/report.json; merge the reports of every shard of one split"
      ])
    #expect(FileManager.default.fileExists(atPath: path(dir, "site/index.html")))

    let half = try runTransvid(
      ["jobs", "--shard", "1/2", "-o", "half", "--format", "png", "--report", "half/report.json", "-q"], in: dir)
    #expect(half.status == 0, "\(half.stderr)")
    let twice = try runTransvid(["gallery", "artifacts", "half", "-o", "site2"], in: dir)
    #expect(twice.status == 1)
    let line = twice.errorLines.first ?? ""
    let ok =
      twice.errorLines.count == 1 && line.hasPrefix("transvid: job jobs/")
      && line.hasSuffix(
        "; the reports are of different shard splits, so not of one run: shard 1/3 in artifacts/shard-1/report.json; "
          + "shard 2/3 in artifacts/shard-2/report.json; shard 3/3 in artifacts/shard-3/report.json; shard 1/2 in "
          + "half/report.json; merge the reports of every shard of one split")
    #expect(ok, "\(twice.errorLines)")
  }

  /// A merged report named as a file is read even when it is the report
  /// the merge replaces: `gallery m12/report.json shard-3 -o m12` adds shard 3
  /// to m12. (The fleet sweep: it was passed over as the merge's own, and
  /// m12/report.json rewritten with shard 3's jobs alone, exit 1 for shards
  /// 1/3 and 2/3 missing.)
  @Test func aMergedReportNamedIntoItsOwnFolderIsRead() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try Self.renderShards(in: dir)
    let first = try runTransvid(["gallery", "artifacts/shard-1", "artifacts/shard-2", "-o", "m12"], in: dir)
    #expect(first.status == 1, "\(first.stderr)")
    let run = try runTransvid(["gallery", "m12/report.json", "artifacts/shard-3/report.json", "-o", "m12"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "transvid: 5 jobs from 2 reports (0 failed) in m12/index.html\n")
    let data = try #require(FileManager.default.contents(atPath: path(dir, "m12/report.json")))
    let merged = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(merged["shards"] as? [String] == ["1/3", "2/3", "3/3"])
    #expect(try reportJobs(path(dir, "m12/report.json")).count == 5)
    let links = Self.links(in: try String(contentsOfFile: path(dir, "m12/index.html"), encoding: .utf8))
    #expect(links.count == 5 * 4)
    for link in links { #expect(FileManager.default.fileExists(atPath: path(path(dir, "m12"), link)), "\(link) does not resolve") }
  }

  /// A job is its file wherever the shard ran and however it spelled the
  /// path (the report's `absolute_file`): `legacy/jobs/a.cfg` given absolute
  /// and `jobs/a.cfg` given relative are two jobs, `w/jobs/j1.cfg` run from
  /// the folder above `w` and `jobs/j1.cfg` run from `w` one. (The fleet
  /// sweep: the merge guessed from the paths as written, the first pair in
  /// two reports, the second not.)
  @Test func aJobIsItsAbsoluteFile() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for (folder, output) in [("jobs", "one"), ("legacy/jobs", "two")] {
      try FileManager.default.createDirectory(atPath: path(dir, folder), withIntermediateDirectories: true)
      try write(
        tinyJob(name: "a").replacingOccurrences(of: "output: { formats", with: "output: { dir: \(output), formats"),
        to: "\(folder)/a.cfg", in: dir)
    }
    let absolute = try runTransvid(
      [path(dir, "legacy/jobs"), path(dir, "jobs"), "--shard", "1/2", "--format", "png", "--report", "s1/report.json", "-q"], in: dir)
    let relative = try runTransvid(
      ["legacy/jobs", "jobs", "--shard", "2/2", "--format", "png", "--report", "s2/report.json", "-q"], in: dir)
    #expect(absolute.status == 0 && relative.status == 0, "\(absolute.stderr) \(relative.stderr)")
    #expect(try reportJobs(path(dir, "s1/report.json")).map { $0["file"] as? String } == [path(dir, "legacy/jobs") + "/a.cfg"])
    #expect(try reportJobs(path(dir, "s2/report.json")).map { $0["file"] as? String } == ["jobs/a.cfg"])
    let two = try runTransvid(["gallery", "s1", "s2", "-o", "site"], in: dir)
    #expect(two.status == 0 && two.stdout == "transvid: 2 jobs from 2 reports (0 failed) in site/index.html\n", "\(two.stderr)")
    let real = URL(fileURLWithPath: dir).resolvingSymlinksInPath().path
    #expect(Set(try reportJobs(path(dir, "site/report.json")).map { $0["absolute_file"] as? String }) == [
      real + "/jobs/a.cfg", real + "/legacy/jobs/a.cfg",
    ])

    try FileManager.default.createDirectory(atPath: path(dir, "w/jobs"), withIntermediateDirectories: true)
    try write(tinyJob(name: "j1"), to: "w/jobs/j1.cfg", in: dir)
    let above = try runTransvid(["w/jobs/j1.cfg", "-o", "o1", "--format", "png", "--report", "r1/report.json", "-q"], in: dir)
    let inside = try runTransvid(
      ["jobs/j1.cfg", "-o", "../o2", "--format", "png", "--report", "../r2/report.json", "-q"], in: path(dir, "w"))
    #expect(above.status == 0 && inside.status == 0, "\(above.stderr) \(inside.stderr)")
    let once = try runTransvid(["gallery", "r1", "r2", "-o", "site2"], in: dir)
    #expect(once.status == 1)
    #expect(once.errorLines == ["transvid: job jobs/j1.cfg is in two reports: r1/report.json and r2/report.json"])
  }

  /// Nothing of a merge is lost without a word: a shard whose report is
  /// missing, a report cut short, an output no longer on disk each fail the
  /// merge (exit 1, the page still written from what could be read).
  @Test func aLostShardReportOrOutputFailsTheMerge() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let reports = try Self.renderShards(in: dir)
    let kept = try Data(contentsOf: URL(fileURLWithPath: reports[1]))
    try FileManager.default.removeItem(atPath: reports[1])
    let lost = try runTransvid(["gallery", "artifacts", "-o", "site"], in: dir)
    #expect(lost.status == 1)
    #expect(lost.errorLines == ["transvid: error: no report of shard 2/3 among the inputs: its jobs are missing"])
    #expect(FileManager.default.fileExists(atPath: path(dir, "site/index.html")))

    // Cut short, as by a full disk: it was passed over as "not a report".
    // It is said, and the page still made from the other reports.
    try kept.prefix(120).write(to: URL(fileURLWithPath: reports[1]))
    try FileManager.default.removeItem(atPath: path(dir, "site"))
    let damaged = try runTransvid(["gallery", "artifacts", "-o", "site"], in: dir)
    #expect(damaged.status == 1)
    #expect(damaged.errorLines == [
      "transvid: error: artifacts/shard-2/report.json is not valid JSON: a damaged report?",
      "transvid: error: no report of shard 2/3 among the inputs: its jobs are missing",
    ])
    #expect(FileManager.default.fileExists(atPath: path(dir, "site/index.html")))
    #expect(FileManager.default.fileExists(atPath: path(dir, "site/report.json")))
    // Named on the command line, alike.
    let named = try runTransvid(
      ["gallery", "artifacts/shard-1/report.json", "artifacts/shard-2/report.json", "artifacts/shard-3/report.json", "-o", "named"],
      in: dir)
    #expect(named.status == 1)
    #expect(named.errorLines.first?.hasPrefix("transvid: error: artifacts/shard-2/report.json is not a transvid report") == true)
    #expect(FileManager.default.fileExists(atPath: path(dir, "named/index.html")))

    // Valid JSON that is no report is still passed over.
    try kept.write(to: URL(fileURLWithPath: reports[1]))
    try Data("{\"name\": \"artifact metadata\"}".utf8).write(to: URL(fileURLWithPath: path(dir, "artifacts/meta.json")))
    let whole = try runTransvid(["gallery", "artifacts", "-o", "site"], in: dir)
    #expect(whole.status == 0 && whole.stdout == "transvid: 5 jobs from 3 reports (0 failed) in site/index.html\n")

    let entry = try #require(try reportJobs(reports[2]).first)
    let written = try #require(entry["outputs"] as? [[String: Any]])
    let output = try #require(written.first?["file"] as? String)
    try FileManager.default.removeItem(atPath: path(dir, "artifacts/shard-3/" + output))
    let missing = try runTransvid(["gallery", "artifacts", "-o", "site"], in: dir)
    #expect(missing.status == 1)
    #expect(
      missing.errorLines == [
        "transvid: error: artifacts/shard-3/\(output), an output of artifacts/shard-3/report.json, is missing"
      ])
    // The merged report and the page say it is gone: marked missing, in no bytes, never linked.
    let data = try Data(contentsOf: URL(fileURLWithPath: path(dir, "site/report.json")))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let jobs = try #require(object["jobs"] as? [[String: Any]])
    let merged = try #require(jobs.first { $0["job"] as? String == entry["job"] as? String })
    let outputs = try #require(merged["outputs"] as? [[String: Any]])
    #expect(outputs.map { $0["missing"] as? Bool } == [true, nil] && outputs[0]["bytes"] == nil)
    #expect(merged["status"] as? String == "rendered" && merged["bytes"] as? Int == written[1]["bytes"] as? Int)
    let totals = try #require(object["totals"] as? [String: Any])
    #expect(totals["missing"] as? Int == 1 && totals["bytes"] as? Int == jobs.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) })
    let html = try String(contentsOfFile: path(dir, "site/index.html"), encoding: .utf8)
    #expect(html.contains("<pre class=\"error\">\(output) is missing</pre>"))
    let links = Self.links(in: html)
    #expect(links.count == 5 * 4 - 2, "\(links)")
    for link in links {
      #expect(FileManager.default.fileExists(atPath: path(path(dir, "site"), link)), "\(link) does not resolve")
    }
  }

  /// `-o` a shard's own folder would overwrite its report with the merge:
  /// refused, the report as it was. The merged report keeps each failure's
  /// line and column, and names outputs relative to the working folder. A
  /// failed job is shown and counted, and the merge that shows it succeeds
  /// (the fleet sweep: it exited 1, and the README's CI example published
  /// no page on the nights a job failed).
  @Test func theMergeKeepsShardReportsAndFailurePlaces() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 2, broken: true)
    let run = try runTransvid([jobs, "-o", "out", "--format", "png", "--report", "out/report.json", "-q"], in: dir)
    #expect(run.status == 1)
    let before = try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/report.json")))
    let refused = try runTransvid(["gallery", "out", "-o", "out"], in: dir)
    #expect(refused.status == 2)
    #expect(
      refused.errorLines == [
        "transvid: out/report.json is a report of rendered jobs (from --report), which the merged report would "
          + "overwrite: give -o another folder than out"
      ])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/report.json"))) == before)

    let merged = try runTransvid(["gallery", "out", "-o", "site"], in: dir)
    #expect(merged.status == 0 && merged.stdout == "transvid: 3 jobs from 1 report (1 failed) in site/index.html\n")
    #expect(merged.stderr.isEmpty, "\(merged.stderr)")
    #expect(try String(contentsOfFile: path(dir, "site/index.html"), encoding: .utf8).contains("<figure class=\"job failed\">"))
    func errors(_ jobs: [[String: Any]]) -> [String] {
      jobs.compactMap { $0["error"] as? [String: Any] }.map { "\($0["file"] ?? "") \($0["line"] ?? "") \($0["column"] ?? "")" }
    }
    let shard = try reportJobs(path(dir, "out/report.json")), site = try reportJobs(path(dir, "site/report.json"))
    #expect(errors(shard).count == 1 && errors(site) == errors(shard) && !errors(site)[0].hasSuffix("  "))
    let paths = site.flatMap { $0["outputs"] as? [[String: Any]] ?? [] }.compactMap { $0["path"] as? String }
    #expect(paths.count == 2 && paths.allSatisfy { $0.hasPrefix("out/job-") }, "\(paths)")
  }

  /// `DIR/report.json` is replaced only when a merge wrote it (`"merged"`):
  /// a report there cut short may be a shard's, so `gallery DIR -o DIR`
  /// keeps it (exit 2, nothing written), as it keeps a whole one, and JSON
  /// that is no report. A merged report is replaced; one cut short is kept.
  @Test func onlyAMergedReportIsOverwritten() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 1)
    let run = try runTransvid([jobs, "-o", "out", "--format", "png", "--report", "out/shard.json", "-q"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let report = path(dir, "out/report.json")
    let whole = try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/shard.json")))
    func refused(_ text: Data, _ what: String) throws {
      try text.write(to: URL(fileURLWithPath: report))
      let run = try runTransvid(["gallery", "out", "-o", "out"], in: dir)
      #expect(run.status == 2)
      #expect(
        run.errorLines == [
          "transvid: out/report.json \(what), and no merge wrote it; the merged report would overwrite it: "
            + "give -o another folder than out, or remove it"
        ])
      #expect(try Data(contentsOf: URL(fileURLWithPath: report)) == text)
      #expect(!FileManager.default.fileExists(atPath: path(dir, "out/index.html")))
    }
    try refused(whole.prefix(120), "is not valid JSON (a report cut short?)")
    try refused(Data("{\"name\": \"artifact metadata\"}".utf8), "is not a transvid report")

    try FileManager.default.removeItem(atPath: report)
    for _ in 1...2 {
      let merged = try runTransvid(["gallery", "out", "-o", "out"], in: dir)
      #expect(merged.status == 0 && merged.stdout == "transvid: 1 job from 1 report (0 failed) in out/index.html\n", "\(merged.stderr)")
    }
    let merged = try Data(contentsOf: URL(fileURLWithPath: report))
    try FileManager.default.removeItem(atPath: path(dir, "out/index.html"))
    try refused(merged.prefix(merged.count / 2), "is not valid JSON (a report cut short?)")
  }

  /// A page that cannot be written (a folder named index.html in DIR) is
  /// named with why: the message once said only "it is a folder".
  @Test func aPageInTheWayIsNamed() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 1)
    let run = try runTransvid([jobs, "-o", "out", "--format", "png", "--report", "out/shard.json", "-q"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    try FileManager.default.createDirectory(atPath: path(dir, "site/index.html"), withIntermediateDirectories: true)
    let merge = try runTransvid(["gallery", "out", "-o", "site"], in: dir)
    #expect(merge.status == 1)
    #expect(
      merge.errorLines == [
        "transvid: write 'site/index.html': it is a folder, not a regular file; transvid writes only regular files"
      ])
    #expect(!FileManager.default.fileExists(atPath: path(dir, "site/report.json")))
  }

  /// A `-o` that is no folder (a file, a device, a file on its way) is a
  /// usage error, exit 2 and nothing written, as a batch's `-o` is (the fleet
  /// sweep: exit 1, which a merge says for a lost shard).
  @Test func anOutputThatIsNoFolderIsAUsageError() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 1)
    let run = try runTransvid([jobs, "-o", "out", "--format", "png", "--report", "out/shard.json", "-q"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.createFile(atPath: path(dir, "site"), contents: Data("x".utf8)))
    for (output, message) in [
      ("site", "'site' is a regular file"), ("site/sub", "'site' is a regular file"), ("/dev/null", "'/dev/null' is a character device"),
    ] {
      let merge = try runTransvid(["gallery", "out", "-o", output], in: dir)
      #expect(merge.status == 2, "\(merge.stderr)")
      #expect(merge.errorLines == ["transvid: -o '\(output)': \(message)"])
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path(dir, "site"))) == Data("x".utf8))
  }

  /// A `*.json` that is no regular file is said for what it is, and a FIFO
  /// never holds the merge: one in a folder, or named, is `cannot read PATH:
  /// not a regular file (a FIFO)` (exit 1, the page written from the other
  /// reports), and a folder named `x.json` is searched like any folder, its
  /// reports merged (the batch sweep: each was "not valid JSON: a damaged
  /// report?", and a FIFO named on the command line a Foundation error
  /// about permission).
  @Test func aReportPathThatIsNoFileIsSaidForWhatItIs() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "shards/x.json"), withIntermediateDirectories: true)
    try write(#"{"jobs": [], "totals": {}}"#, to: "shards/x.json/report.json", in: dir)
    let folder = try runTransvid(["gallery", "shards", "-o", "site"], in: dir)
    #expect(folder.status == 0, "\(folder.stderr)")
    #expect(folder.errorLines == [])
    #expect(folder.stdout == "transvid: 0 jobs from 1 report (0 failed) in site/index.html\n")

    #expect(mkfifo(path(dir, "shards/y.json"), 0o644) == 0)
    for inputs in [["shards"], ["shards/x.json/report.json", "shards/y.json"]] {
      try? FileManager.default.removeItem(atPath: path(dir, "site"))
      let fifo = try runTransvid(["gallery"] + inputs + ["-o", "site"], in: dir)
      #expect(fifo.status == 1, "\(inputs)")
      #expect(fifo.errorLines == ["transvid: error: cannot read shards/y.json: not a regular file (a FIFO)"], "\(inputs)")
      #expect(FileManager.default.fileExists(atPath: path(dir, "site/index.html")), "\(inputs)")
    }
  }

  /// A report larger than 64 MiB is refused by its size, read no further,
  /// named on the command line or found in a folder (exit 1, the page
  /// written from the others), and as `-o`'s report.json (exit 2); a large
  /// `*.json` in a folder that does not begin as a report is another tool's,
  /// passed over. (The batch sweep: every one was read whole and parsed,
  /// 40 MB of jobs taking 1.2 GB, and said to be "not valid JSON".)
  @Test func aReportLargerThanTheLimitIsRefusedBySize() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "shards"), withIntermediateDirectories: true)
    try write(#"{"jobs": [], "totals": {}}"#, to: "shards/small.json", in: dir)
    // Sparse files: a report's first bytes, or another tool's, then nothing up to one byte past 64 MiB.
    func large(_ name: String, _ head: String) throws {
      let file = try write(head, to: name, in: dir)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
      try handle.truncate(atOffset: UInt64(64 << 20) + 1)
      try handle.close()
    }
    try large("shards/big.json", "{\n  \"version\": \"0.1.0\",\n")
    try large("shards/coverage.json", "{\"data\": [")
    let said = "transvid: error: cannot read shards/big.json: it is 67108865 bytes, more than a report may have (64 MiB)"
    for inputs in [["shards"], ["shards/small.json", "shards/big.json"]] {
      try? FileManager.default.removeItem(atPath: path(dir, "site"))
      let merge = try runTransvid(["gallery"] + inputs + ["-o", "site"], in: dir)
      #expect(merge.status == 1, "\(inputs)")
      #expect(merge.errorLines == [said], "\(inputs)")
      #expect(FileManager.default.fileExists(atPath: path(dir, "site/index.html")), "\(inputs)")
    }
    try FileManager.default.removeItem(atPath: path(dir, "site/report.json"))
    try FileManager.default.moveItem(atPath: path(dir, "shards/big.json"), toPath: path(dir, "site/report.json"))
    let kept = try runTransvid(["gallery", "shards", "-o", "site"], in: dir)
    #expect(kept.status == 2)
    #expect(
      kept.errorLines.first
        == "transvid: site/report.json cannot be read (it is 67108865 bytes, more than a report may have (64 MiB)), and no "
        + "merge wrote it; the merged report would overwrite it: give -o another folder than site, or remove it")
  }

  /// The merge lists the jobs of every shard in the batch's order, as a run
  /// of the whole batch lists them in its report and page: `zz aa` puts
  /// zz's jobs first, though `aa` sorts first, and so does a merge of that
  /// merge (the batch sweep: the merge sorted the jobs by their paths).
  @Test func theMergeListsJobsInTheBatchsOrder() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for folder in ["zz", "aa"] {
      try FileManager.default.createDirectory(atPath: path(dir, folder), withIntermediateDirectories: true)
      for n in 1...2 { try write(tinyJob(name: "\(folder)-\(n)"), to: "\(folder)/j\(n).cfg", in: dir) }
    }
    func names(_ report: String) throws -> [String] { try reportJobs(path(dir, report)).compactMap { $0["job"] as? String } }
    func pageNames(_ page: String) throws -> [String] {
      try String(contentsOfFile: path(dir, page), encoding: .utf8).matches(of: /<strong>([^<]*)<\/strong>/).map { String($0.output.1) }
    }
    let whole = try runTransvid(
      ["zz", "aa", "-o", "whole", "--format", "png", "--report", "whole/report.json", "--gallery", "whole", "-q"], in: dir)
    #expect(whole.status == 0, "\(whole.stderr)")
    let order = ["zz-1", "zz-2", "aa-1", "aa-2"]
    #expect(try names("whole/report.json") == order && pageNames("whole/index.html") == order)
    for k in 1...2 {
      let shard = try runTransvid(
        ["zz", "aa", "--shard", "\(k)/2", "-o", "shard-\(k)", "--format", "png", "--report", "shard-\(k)/report.json", "-q"],
        in: dir)
      #expect(shard.status == 0, "\(shard.stderr)")
      #expect(try names("shard-\(k)/report.json").count == 2)
    }
    let merge = try runTransvid(["gallery", "shard-2", "shard-1", "-o", "site"], in: dir)
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(try names("site/report.json") == order)
    #expect(try pageNames("site/index.html") == order)
    let again = try runTransvid(["gallery", "site/report.json", "-o", "again"], in: dir)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try names("again/report.json") == order)
  }

  /// A file with locales is one job per locale, and shards split them: the
  /// merge lists each locale once and takes none for a duplicate.
  @Test func localesOfOneFileFromSeveralShardsAreSeveralJobs() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = PlanFramesTests.repository.appendingPathComponent("jobs/locales.cfg").path
    var perShard: [Int] = []
    for k in 1...2 {
      let run = try runTransvid(
        [job, "--shard", "\(k)/2", "-o", "shard-\(k)", "--format", "png", "--report", "shard-\(k)/report.json", "-q"], in: dir)
      #expect(run.status == 0, "\(run.stderr)")
      perShard.append(try reportJobs(path(dir, "shard-\(k)/report.json")).count)
    }
    #expect(perShard.allSatisfy { $0 > 0 } && perShard.reduce(0, +) == 4, "\(perShard)")
    let run = try runTransvid(["gallery", "shard-1", "shard-2", "-o", "site"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let names = try reportJobs(path(dir, "site/report.json")).compactMap { $0["job"] as? String }
    // In the file's order of its locales, as a run of the whole batch lists them.
    #expect(names == ["locales.en", "locales.ar", "locales.ja", "locales.de"])
  }
}

/// The shards a merge lacks are said a run at a time: a report of
/// `--shard 1/1000000` (a batch takes any N) made the merge say each of the
/// 999 999 others on a line of its own, and one of `--shard
/// 1/9223372036854775807` wrote lines until memory ran out.
@Suite struct MissingShardsTests {
  /// A report of a failed job (no outputs to find) of `shard`, at `dir/name`.
  static func report(of shard: String, job: String, in dir: String) throws -> String {
    try write(
      """
      {"version": "0.1.0", "shard": "\(shard)", "totals": {"jobs": 1, "rendered": 0, "cached": 0, "failed": 1, "stopped": 0, "bytes": 0},
       "jobs": [{"job": "\(job)", "file": "jobs/\(job).cfg", "status": "failed", "outputs": [],
                 "error": {"message": "jobs/\(job).cfg: error: broken", "file": "jobs/\(job).cfg"}}]}
      """, to: "\(job).json", in: dir)
  }

  @Test func theShardsAMergeLacksAreSaidARunAtATime() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for (shards, lines) in [
      (["1/1000000"], ["no reports of shards 2/1000000 to 1000000/1000000 among the inputs: their jobs are missing"]),
      (
        ["2/7", "5/7"],
        [
          "no report of shard 1/7 among the inputs: its jobs are missing",
          "no reports of shards 3/7 to 4/7 among the inputs: their jobs are missing",
          "no reports of shards 6/7 to 7/7 among the inputs: their jobs are missing",
        ]
      ),
      (["1/3", "3/3"], ["no report of shard 2/3 among the inputs: its jobs are missing"]),
    ] {
      let folder = path(dir, shards.joined(separator: "+").replacingOccurrences(of: "/", with: "of"))
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let reports = try shards.enumerated().map { try MissingShardsTests.report(of: $1, job: "job\($0)", in: folder) }
      let capture = Capture()
      #expect(TransvidCommand.run(["gallery"] + reports + ["-o", path(folder, "site")], console: capture.console) == 1)
      #expect(capture.err == lines.map { "transvid: error: " + $0 }, "\(shards)")
    }
    // The largest N a batch takes: its runs, without counting to it.
    let all = Int.max
    #expect(GalleryCommand.missingShards([1], of: all) == [2...all])
    #expect(GalleryCommand.missingShards([all], of: all) == [1...(all - 1)])
    #expect(GalleryCommand.missingShards([1, 3], of: 3) == [2...2])
    #expect(GalleryCommand.missingShards([1, 2, 3], of: 3).isEmpty)
  }
}
