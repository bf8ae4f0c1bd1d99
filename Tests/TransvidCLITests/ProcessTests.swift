#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TransvidCLI

/// An executable product built with the tests (`swift build --build-tests`
/// makes them all): the one beside the running test bundle, so a debug
/// test run finds the debug build and scripts/test's optimised run its own.
func builtProduct(_ name: String) -> URL? {
  guard let bundle = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
  let url = URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent(name)
  return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
}

/// The built `transvid` executable.
func transvidBinary() -> URL? { builtProduct("transvid") }

/// What `body` returned, and the microseconds it took.
func timed<T>(_ body: () throws -> T) rethrows -> (T, microseconds: Int) {
  var result: T?
  let (seconds, attoseconds) = try ContinuousClock().measure { result = try body() }.components
  return (result!, Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000))
}

/// When to kill a process that renders what took `render` microseconds
/// here: from a fiftieth to three quarters of it, so that the kill falls
/// inside the render in a debug build and an optimised one alike (at most
/// 20 ms to 0.8 s, what a debug build's render allows).
func killMoments(render: Int) -> ClosedRange<UInt32> {
  UInt32(min(render / 50, 20_000))...UInt32(min(render * 3 / 4, 800_000))
}

/// Every entry below `dir`, dot files included.
func allEntries(in dir: String) -> [String] {
  (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).sorted()
}

/// Waits until `condition` holds or `seconds` pass; returns whether it held.
func wait(seconds: Double, until condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if condition() { return true }
    usleep(20_000)
  }
  return condition()
}

@Suite struct ProcessTests {
  /// A reader of standard output that has gone (`transvid … | head`): the
  /// render goes on and ends as usual (it died of SIGPIPE halfway, leaving
  /// its staging folder).
  @Test func closedStandardOutputDoesNotStopARender() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(tinyJob(name: "piped"), to: "piped.cfg", in: dir)
    let out = path(dir, "out")
    let process = Process()
    process.executableURL = try #require(transvidBinary())
    process.arguments = [job, "-o", out, "--progress", "ndjson"]
    let stdout = Pipe()
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try stdout.fileHandleForReading.close()
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    #expect(allEntries(in: out).filter { !$0.hasPrefix(".transvid-cache") } == ["piped.mp4"])
  }

  /// SIGTERM and SIGINT stop a render cleanly: exit 143 / 130, no output,
  /// no temp file, no staging folder; a batch of two jobs (rendered in two
  /// worker processes) as well, and its workers end with it.
  @Test(arguments: [(SIGTERM, 1), (SIGINT, 1), (SIGHUP, 1), (SIGTERM, 2)])
  func signalStopsCleanly(_ signo: Int32, jobs: Int) throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // A slow job: 780×1688 px, 60 fps, 20 s.
    let files = try (1...jobs).map { i in
      try write(
        tinyJob(name: "slow\(i)").replacingOccurrences(of: "size: 60x100, scale: 1, fps: 10", with: "size: 390x844, scale: 2, fps: 60")
          .replacingOccurrences(of: "hold: 0.2", with: "hold: 10").replacingOccurrences(of: "duration: 0.3", with: "duration: 10"),
        to: "slow\(i).cfg", in: dir)
    }
    let out = path(dir, "out")
    let process = Process()
    process.executableURL = binary
    process.arguments = files + ["-o", out, "-j", "\(jobs)"]
    let stderr = Pipe()
    process.standardError = stderr
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    // Started: the encoder's temp file exists in the staging folder.
    let staging = path(out, StaleStaging.folderName(pid: process.processIdentifier))
    let started = wait(seconds: 120) {
      (try? FileManager.default.contentsOfDirectory(atPath: staging))?.contains { $0.contains(".tmp-") } == true
    }
    #expect(started, "the render did not start: \(allEntries(in: out))")
    usleep(300_000)
    kill(process.processIdentifier, signo)
    #expect(wait(seconds: 60) { !process.isRunning })
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 128 + signo)
    #expect(allEntries(in: out) == [])
    let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let name = [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"][signo]!
    // Its first line, with no empty line before it where standard error is no terminal (the CLI sweep).
    #expect(message.hasPrefix("transvid: stopped by \(name); unfinished outputs removed\n"), "\(message)")
    #expect(processes(with: ["__worker", files[0]]).isEmpty)
  }

  /// `--progress ndjson` ends a batch stopped by a signal with its
  /// `summary`, saying so and counting the jobs finished until then: the
  /// stream ended after the last job's `start`, as it does when transvid
  /// dies, so its reader could not tell a stopped batch from a crash.
  @Test func ndjsonEndsAStoppedBatchWithItsSummary() throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fast = try write(tinyJob(name: "fast"), to: "fast.cfg", in: dir)
    // A slow job: 780×1688 px, 60 fps, 20 s.
    let slow = try write(
      tinyJob(name: "slow").replacingOccurrences(of: "size: 60x100, scale: 1, fps: 10", with: "size: 390x844, scale: 2, fps: 60")
        .replacingOccurrences(of: "hold: 0.2", with: "hold: 10").replacingOccurrences(of: "duration: 0.3", with: "duration: 10"),
      to: "slow.cfg", in: dir)
    let events = path(dir, "events.ndjson")
    FileManager.default.createFile(atPath: events, contents: nil)
    let process = Process()
    process.executableURL = binary
    process.arguments = [fast, slow, "-o", path(dir, "out"), "-j", "1", "--progress", "ndjson"]
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: events))
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    func lines() -> [[String: Any]] {
      ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
      }
    }
    let started = wait(seconds: 120) { lines().contains { $0["event"] as? String == "start" && $0["job"] as? String == "slow" } }
    #expect(started, "the slow job did not start: \(lines())")
    usleep(300_000)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 130)
    let last = try #require(lines().last)
    let summary = ["event": "summary", "jobs": "2", "rendered": "1", "cached": "0", "copied": "0", "failed": "0", "stopped": "SIGINT"]
    #expect(summary.allSatisfy { key, value in last[key].map { "\($0)" } == value }, "\(last)")
    #expect(lines().filter { $0["event"] as? String == "summary" }.count == 1)
  }

  /// A batch stopped by a signal writes `--report`, `--junit` and
  /// `--gallery` with the jobs finished until then and the others stopped,
  /// where it left the previous run's reports (all green) under their names
  /// for a CI step that uploads them whatever the exit status. One worker:
  /// the fast job rendered, the first slow one stopped while it rendered,
  /// the second never started; two: both slow ones (the costliest, taken
  /// first) stopped rendering, the fast one not run.
  @Test(arguments: [1, 2])
  func stoppedBatchWritesItsReports(jobs: Int) throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fast = try write(tinyJob(name: "fast"), to: "fast.cfg", in: dir)
    // Slow jobs: 780×1688 px, 60 fps, 20 s.
    let slow = try (1...2).map { i in
      try write(
        tinyJob(name: "slow\(i)").replacingOccurrences(of: "size: 60x100, scale: 1, fps: 10", with: "size: 390x844, scale: 2, fps: 60")
          .replacingOccurrences(of: "hold: 0.2", with: "hold: 10").replacingOccurrences(of: "duration: 0.3", with: "duration: 10"),
        to: "slow\(i).cfg", in: dir)
    }
    let out = path(dir, "out")
    let reports = path(dir, "reports")
    // The previous run's reports.
    try FileManager.default.createDirectory(atPath: path(reports, "gallery"), withIntermediateDirectories: true)
    for name in ["report.json", "junit.xml", "gallery/index.html"] { try write("old", to: "reports/\(name)", in: dir) }
    let process = Process()
    process.executableURL = binary
    process.arguments =
      [fast] + slow + [
        "-o", out, "-j", "\(jobs)", "--report", path(reports, "report.json"), "--junit", path(reports, "junit.xml"),
        "--gallery", path(reports, "gallery"),
      ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let staging = path(out, StaleStaging.folderName(pid: process.processIdentifier))
    let started = wait(seconds: 120) {
      let temporary = (try? FileManager.default.contentsOfDirectory(atPath: staging))?.filter { $0.contains(".tmp-") } ?? []
      return temporary.count == jobs && (jobs == 2 || FileManager.default.fileExists(atPath: path(out, "fast.mp4")))
    }
    #expect(started, "the slow jobs did not start: \(allEntries(in: out))")
    usleep(300_000)
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 143)

    let data = try Data(contentsOf: URL(fileURLWithPath: path(reports, "report.json")))
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(report["stopped"] as? String == "SIGTERM")
    let entries = try #require(report["jobs"] as? [[String: Any]])
    let statuses = entries.map { "\($0["job"] ?? "") \($0["status"] ?? "")" }
    let rendering = { (job: String) in "\(job).cfg: stopped by SIGTERM while it rendered" }
    let notRun = { (job: String) in "\(job).cfg: not run: the batch was stopped by SIGTERM" }
    let expected: [(String, String, String?)] =
      jobs == 1
      ? [("fast", "rendered", nil), ("slow1", "stopped", rendering("slow1")), ("slow2", "stopped", notRun("slow2"))]
      : [("fast", "stopped", notRun("fast")), ("slow1", "stopped", rendering("slow1")), ("slow2", "stopped", rendering("slow2"))]
    #expect(statuses == expected.map { "\($0.0) \($0.1)" })
    for (entry, job) in zip(entries, expected) {
      let message = (entry["error"] as? [String: Any])?["message"] as? String
      let ok = job.2.map { message?.hasSuffix($0) == true } ?? (message == nil)
      #expect(ok, "\(job.0): \(message ?? "no message")")
    }
    let totals = try #require(report["totals"] as? [String: Any])
    #expect(totals["stopped"] as? Int == (jobs == 1 ? 2 : 3) && totals["rendered"] as? Int == (jobs == 1 ? 1 : 0))

    let junit = try String(contentsOfFile: path(reports, "junit.xml"), encoding: .utf8)
    #expect(junit.contains("skipped=\"\(jobs == 1 ? 2 : 3)\""))
    for job in expected where job.1 == "stopped" {
      let skipped = "<skipped message=\"\(path(dir, job.2!))\"/>"
      #expect(junit.contains(skipped), "\(junit)")
    }
    let page = try String(contentsOfFile: path(reports, "gallery/index.html"), encoding: .utf8)
    #expect(page.contains("<figure class=\"job stopped\">") && page.contains(notRun(jobs == 1 ? "slow2" : "fast")))
    // Nothing but the reports beside them: no private temp folder left.
    #expect(allEntries(in: reports) == ["gallery", "gallery/index.html", "junit.xml", "report.json"])
  }

  /// A batch stopped while its jobs are planned (a 59 MB String Catalog to
  /// parse) writes its reports too, every job file found `stopped` and
  /// the report `"planned": false`, where it left the previous run's
  /// reports (all green) for a CI step to upload as this run's; a report
  /// path naming a job file is left as it is, as what the jobs read is not
  /// known yet.
  @Test func batchStoppedWhilePlannedWritesItsReports() throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var catalog = "{\"sourceLanguage\": \"en\", \"version\": \"1.0\", \"strings\": {"
    for i in 0..<300_000 {
      catalog += "\"k\(i)\": {\"localizations\": {\"en\": {\"stringUnit\": {\"state\": \"translated\", \"value\": \""
        + String(repeating: "x", count: 100) + "\"}}}}, "
    }
    catalog += "\"hello\": {\"localizations\": {\"en\": {\"stringUnit\": {\"state\": \"translated\", \"value\": \"Hi\"}}}}}}"
    _ = try write(catalog, to: "big.xcstrings", in: dir)
    let slow = try write(
      tinyJob(name: "slow").replacingOccurrences(of: "screens:", with: "locales: [en]\nstrings: big.xcstrings\nscreens:")
        .replacingOccurrences(of: "color: \"#FFFFFF\", corner: 4", with: "text: { key: hello }"),
      to: "slow.cfg", in: dir)
    let other = try write(tinyJob(name: "other"), to: "other.cfg", in: dir)
    let otherBytes = try Data(contentsOf: URL(fileURLWithPath: other))
    // The previous run's reports, as transvid begins them.
    try FileManager.default.createDirectory(atPath: path(dir, "gallery"), withIntermediateDirectories: true)
    try write("{\n  \"version\": \"old\",\n  \"totals\": {},\n  \"jobs\": []\n}\n", to: "report.json", in: dir)
    try write(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>old</title></head></html>\n",
      to: "gallery/index.html", in: dir)
    let process = Process()
    process.executableURL = binary
    process.arguments = [
      slow, other, "-o", path(dir, "out"), "--report", path(dir, "report.json"), "--gallery", path(dir, "gallery"),
      "--junit", other, "--progress", "ndjson",
    ]
    let events = path(dir, "events.ndjson")
    FileManager.default.createFile(atPath: events, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: events))
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    usleep(400_000)
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 143)
    #expect(!FileManager.default.fileExists(atPath: path(dir, "out")), "the plan was done: \(allEntries(in: path(dir, "out")))")

    let data = try Data(contentsOf: URL(fileURLWithPath: path(dir, "report.json")))
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(report["stopped"] as? String == "SIGTERM" && report["planned"] as? Bool == false, "\(report)")
    let entries = try #require(report["jobs"] as? [[String: Any]])
    let listed = entries.map { "\($0["job"] ?? "") \($0["status"] ?? "") \($0["order"] == nil)" }
    #expect(listed == ["slow stopped true", "other stopped true"])
    let messages = entries.map { ($0["error"] as? [String: Any])?["message"] as? String ?? "" }
    #expect(messages == [slow, other].map { "\($0): not run: the batch was stopped by SIGTERM while it was planned" })
    let page = try String(contentsOfFile: path(dir, "gallery/index.html"), encoding: .utf8)
    #expect(page.contains("<figure class=\"job stopped\">") && page.contains("while it was planned"))
    // `--junit` named a job file: kept.
    #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBytes)
    // ndjson ends with the batch's summary, saying it was stopped.
    let last = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
    let summary = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any] ?? [:]
    #expect(summary["event"] as? String == "summary" && summary["stopped"] as? String == "SIGTERM", "\(last)")
    #expect(summary["jobs"] as? Int == 2 && summary["rendered"] as? Int == 0)
  }

  /// A job whose outputs went into place just before a signal is finished
  /// in the reports, as the disk shows it: a ProRes MOV of 7 MB, whose
  /// SHA-256 for its cache record is worked out after it is in place, was
  /// `stopped by SIGTERM while it rendered` though `out/big.mov` was this
  /// run's.
  @Test func aJobWhoseOutputsAreInPlaceIsFinishedForTheSignal() throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      """
      name: big
      canvas: { size: 390x844, scale: 2, fps: 60 }
      screens:
        a: { views: [ { frame: [0, 0, 390, 844], gradient: { colors: ["#000000", "#FFFFFF"] } } ] }
      timeline:
        - hold: 1

      """, to: "big.cfg", in: dir)
    let out = path(dir, "out"), movie = path(dir, "out/big.mov")
    let process = Process()
    process.executableURL = binary
    process.arguments = [job, "-o", out, "--format", "mov", "--report", path(dir, "report.json")]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let deadline = Date().addingTimeInterval(300)
    while access(movie, F_OK) != 0 && process.isRunning && Date() < deadline { usleep(200) }
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 143, "it ended before the signal")
    #expect(FileManager.default.fileExists(atPath: movie))
    let entries = try reportJobs(path(dir, "report.json"))
    #expect(entries.map { "\($0["job"] ?? "") \($0["status"] ?? "")" } == ["big rendered"], "\(entries)")
    let outputs = entries.first?["outputs"] as? [[String: Any]] ?? []
    let bytes = (try? FileManager.default.attributesOfItem(atPath: movie)[.size] as? Int) ?? nil
    #expect(outputs.count == 1 && outputs.first?["bytes"] as? Int == bytes)
  }

  /// The gallery page, opened from disk in headless Chromium: it loads, every
  /// video has its first frame, and nothing was logged as an error.
  @Test func galleryLoadsInHeadlessChromium() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 3, broken: true)
    let out = path(dir, "out with space"), gallery = path(dir, "gallery")
    #expect(transvid([jobs, "-o", out, "--gallery", gallery, "-q"]) == 1)
    let index = path(gallery, "index.html")
    let html = try String(contentsOfFile: index, encoding: .utf8)
    #expect(html.contains("<source src=\"../out%20with%20space/job-00.mp4\" type=\"video/mp4\">"))
    #expect(html.contains("unknown key &apos;fsp&apos;"))

    let dom = try chromiumDOM(of: index, profile: path(dir, "chromium-profile"))
    #expect(dom.contains("data-media-count=\"3\""), "\(dom.prefix(600))")
    #expect(dom.contains("data-media-loaded=\"3\""))
    #expect(dom.contains("data-console-errors=\"0\""))
    #expect(dom.contains("data-media-ready=\"true\""))
  }
}

/// The DOM of the page `index` after headless Chromium loaded it (and let
/// its scripts and media settle), for the gallery tests.
func chromiumDOM(of index: String, profile: String) throws -> String {
  let chromium = try #require(
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }, "the gallery test needs Chromium: run scripts/bootstrap (apt-get install chromium)")
  let process = Process()
  process.executableURL = URL(fileURLWithPath: chromium)
  process.arguments = [
    "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--mute-audio",
    "--user-data-dir=\(profile)", "--virtual-time-budget=15000", "--dump-dom",
    URL(fileURLWithPath: index).absoluteString,
  ]
  let stdout = Pipe()
  process.standardOutput = stdout
  process.standardError = FileHandle.nullDevice
  try process.run()
  let dom = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  #expect(process.terminationStatus == 0)
  return dom
}
