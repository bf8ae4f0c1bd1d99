#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TransvidCLI

/// A tiny job (60×100 px, 10 fps) whose length depends on `hold`.
func tinyJob(name: String, hold: Double = 0.2, color: String = "#FFFFFF") -> String {
  """
  name: \(name)
  canvas: { size: 60x100, scale: 1, fps: 10, background: "#000000" }
  output: { formats: [mp4], mp4: { crf: 23, preset: ultrafast } }
  screens:
    list:
      background: "#F2F2F7"
      views:
        - { id: row, frame: [5, 10, 50, 20], color: "\(color)", corner: 4 }
    detail:
      background: "#FFFFFF"
  timeline:
    - hold: \(hold)
    - push: { from: list, to: detail, transition: circle-spread, origin: [40, 70, 10, 10], duration: 0.3 }
    - hold: 0.1

  """
}

/// The broken job of the batch: `fsp` at line 2, column 35.
let brokenJob = "name: broken\ncanvas: { size: 60x100, scale: 1, fsp: 10 }\nscreens: { a: {} }\ntimeline: [ {hold: 1} ]\n"

/// A folder `jobs/` of `count` tiny jobs (in two subfolders), plus the broken one if asked.
func makeBatch(in dir: String, count: Int, broken: Bool = false) throws -> String {
  let jobs = (dir as NSString).appendingPathComponent("jobs")
  for sub in ["a", "b"] {
    try FileManager.default.createDirectory(
      atPath: (jobs as NSString).appendingPathComponent(sub), withIntermediateDirectories: true)
  }
  for i in 0..<count {
    let name = String(format: "job-%02d", i)
    try write(
      tinyJob(name: name, hold: 0.1 * Double(i % 4 + 1), color: i % 2 == 0 ? "#FF9500" : "#34C759"),
      to: "\(i % 2 == 0 ? "a" : "b")/\(name).cfg", in: jobs)
  }
  if broken { try write(brokenJob, to: "a/broken.cfg", in: jobs) }
  return jobs
}

/// Every visible file below `dir` (relative path → bytes).
func files(in dir: String) -> [String: Data] {
  var result: [String: Data] = [:]
  let names = FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []
  for name in names where !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
    let path = (dir as NSString).appendingPathComponent(name)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
      result[name] = FileManager.default.contents(atPath: path)
    }
  }
  return result
}

func path(_ dir: String, _ name: String) -> String { (dir as NSString).appendingPathComponent(name) }

/// The report's jobs, decoded loosely.
func reportJobs(_ file: String) throws -> [[String: Any]] {
  let data = try #require(FileManager.default.contents(atPath: file))
  let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  return try #require(object["jobs"] as? [[String: Any]])
}

/// Runs transvid with no scheduler environment (no accidental shard).
@discardableResult
func transvid(_ arguments: [String], _ capture: Capture = Capture(), environment: [String: String] = [:]) -> Int32 {
  TransvidCommand.run(arguments, console: capture.console, environment: environment)
}

@Suite struct BatchTests {
  /// 12 jobs, one broken: 11 outputs, exit 1, reports name the broken one;
  /// a second run renders nothing; editing one job re-renders only it.
  @Test func batchCacheAndReports() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 11, broken: true)
    let out = path(dir, "out"), report = path(dir, "report.json"), junit = path(dir, "junit.xml")
    let arguments = [jobs, "-o", out, "-j", "2", "--report", report, "--junit", junit]

    let first = Capture()
    #expect(transvid(arguments, first) == 1)
    let brokenFile = path(jobs, "a/broken.cfg")
    #expect(first.err == ["\(brokenFile):2:35: error: unknown key 'fsp' in canvas; did you mean 'fps'?"])
    let outputs = files(in: out)
    #expect(outputs.keys.sorted() == (0..<11).map { String(format: "job-%02d.mp4", $0) })
    #expect(first.out.last?.hasPrefix("transvid: 12 jobs: 11 rendered, 0 up to date, 1 failed in ") == true)

    var entries = try reportJobs(report)
    #expect(entries.count == 12)
    #expect(entries.filter { $0["status"] as? String == "rendered" }.count == 11)
    let broken = try #require(entries.first { $0["status"] as? String == "failed" })
    #expect(broken["file"] as? String == brokenFile)
    let error = try #require(broken["error"] as? [String: Any])
    #expect(error["file"] as? String == brokenFile)
    #expect(error["line"] as? Int == 2 && error["column"] as? Int == 35)
    #expect((error["message"] as? String)?.contains("unknown key 'fsp'") == true)
    let rendered = try #require(entries.first { $0["job"] as? String == "job-00" })
    #expect(rendered["frames"] as? Int == 5 && rendered["cached"] as? Bool == false)
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("tests=\"12\" failures=\"1\""))
    #expect(xml.contains("<testcase classname=\"transvid.\(jobs)/a\" name=\"broken\" file=\"\(brokenFile)\" line=\"2\""))
    #expect(xml.contains("<failure message=\"\(brokenFile):2:35: error: unknown key &apos;fsp&apos; in canvas; did you mean &apos;fps&apos;?\""))
    #expect(xml.components(separatedBy: "<testcase ").count - 1 == 12)

    // Second run: everything up to date, nothing rewritten.
    let second = Capture()
    #expect(transvid(arguments, second) == 1)
    entries = try reportJobs(report)
    #expect(entries.filter { $0["status"] as? String == "cached" && $0["cached"] as? Bool == true }.count == 11)
    #expect(second.out.filter { $0.hasSuffix("  up to date") }.count == 11)
    #expect(second.out.last?.hasPrefix("transvid: 12 jobs: 0 rendered, 11 up to date, 1 failed") == true)
    #expect(files(in: out) == outputs)

    // A comment changes no pixel: still up to date. A real edit re-renders that job only.
    let edited = path(jobs, "b/job-03.cfg")
    try write(tinyJob(name: "job-03", hold: 0.4, color: "#34C759") + "# a comment\n", to: "b/job-03.cfg", in: jobs)
    #expect(transvid(arguments) == 1)
    #expect(try reportJobs(report).filter { $0["status"] as? String == "cached" }.count == 11)
    try write(tinyJob(name: "job-03", hold: 0.5, color: "#34C759"), to: "b/job-03.cfg", in: jobs)
    #expect(transvid(arguments) == 1)
    entries = try reportJobs(report)
    #expect(entries.filter { $0["status"] as? String == "rendered" }.map { $0["file"] as? String } == [edited])
    #expect(entries.filter { $0["status"] as? String == "cached" }.count == 10)
    let after = files(in: out)
    #expect(after["job-03.mp4"] != outputs["job-03.mp4"])
    #expect(after.filter { $0.key != "job-03.mp4" } == outputs.filter { $0.key != "job-03.mp4" })

    // A deleted or damaged output is noticed; --force renders everything.
    try FileManager.default.removeItem(atPath: path(out, "job-07.mp4"))
    #expect(transvid(arguments) == 1)
    #expect(try reportJobs(report).filter { $0["status"] as? String == "rendered" }.count == 1)
    #expect(files(in: out)["job-07.mp4"] == outputs["job-07.mp4"])
    #expect(transvid(arguments + ["--force"]) == 1)
    #expect(try reportJobs(report).filter { $0["status"] as? String == "rendered" }.count == 11)
    #expect(files(in: out) == after)
  }

  /// Each list of formats keeps its own record: an output another list's
  /// run rewrote (a poster previewed from an edited job, of the same size)
  /// is not the file the first record wrote, so it is made again.
  @Test func anOutputAnotherRunRewroteIsNotUpToDate() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = path(dir, "s.cfg"), out = path(dir, "out")
    func setColor(_ color: String) throws {
      _ = try write(
        "name: sz\ncanvas: { size: 100x100, scale: 1, fps: 10 }\noutput: { formats: [png, mp4] }\n"
          + "screens:\n  one: { background: \"\(color)\" }\ntimeline: [hold: 0.5]\n", to: "s.cfg", in: dir)
    }
    try setColor("#FF9F0A")
    #expect(transvid([job, "-o", out]) == 0)
    let poster = try #require(FileManager.default.contents(atPath: path(out, "sz.png")))
    try setColor("#FF9F0B")
    #expect(transvid([job, "-o", out, "--format", "png"]) == 0)
    let preview = try #require(FileManager.default.contents(atPath: path(out, "sz.png")))
    try #require(preview.count == poster.count && preview != poster)
    try setColor("#FF9F0A")
    let again = Capture()
    #expect(transvid([job, "-o", out], again) == 0)
    #expect(!again.out.contains { $0.hasSuffix("sz.png  up to date") }, "\(again.out)")
    #expect(FileManager.default.contents(atPath: path(out, "sz.png")) == poster)
  }

  /// A job's outputs are all or nothing: run 2 of an edited job fails at
  /// its mp4 (a budget no rate meets) after its png is written, and every
  /// output, the png too, is still run 1's, byte for byte, with no staged
  /// file left; the report lists none for it. It wrote the new png over
  /// run 1's, so the folder held files of two runs. In this process and
  /// in a worker (the executable).
  @Test func aFailedJobLeavesThePreviousOutputsAsTheyWere() throws {
    for inWorker in [false, true] {
      let dir = try makeTemporaryDirectory()
      defer { try? FileManager.default.removeItem(atPath: dir) }
      let job = path(dir, "j.cfg"), out = path(dir, "out"), report = path(dir, "report.json")
      func setJob(_ color: String, mp4: String = "{}") throws {
        _ = try write(
          "name: j\ncanvas: { size: 60x100, scale: 1, fps: 10 }\noutput: { formats: [png, mp4, gif], mp4: \(mp4) }\n"
            + "screens:\n  a: { background: \"\(color)\" }\ntimeline: [hold: 0.5]\n", to: "j.cfg", in: dir)
      }
      func run(_ arguments: [String]) throws -> Int32 {
        inWorker ? try runBinary(arguments, in: dir).status : transvid(arguments)
      }
      try setJob("#FF0000")
      #expect(try run([job, "-o", out, "-q"]) == 0)
      let first = files(in: out)
      #expect(first.keys.sorted() == ["j.gif", "j.mp4", "j.png"])
      try setJob("#00FF00", mp4: "{ maxBytes: 1100 }")
      #expect(try run([job, "-o", out, "-q", "--report", report]) == 1)
      #expect(files(in: out) == first, "in a worker: \(inWorker)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [".transvid-cache", "j.gif", "j.mp4", "j.png"])
      let failed = try #require(try reportJobs(report).first)
      #expect(failed["status"] as? String == "failed" && (failed["outputs"] as? [Any])?.isEmpty == true, "\(failed)")
      // Fixed, the job writes all three anew.
      try setJob("#00FF00")
      #expect(try run([job, "-o", out, "-q"]) == 0)
      let second = files(in: out)
      #expect(second.keys.sorted() == first.keys.sorted() && second.keys.allSatisfy { second[$0] != first[$0] })
    }
  }

  /// An output folder restored from an archive (a CI cache: new inodes,
  /// whole-second times) is up to date by its bytes.
  @Test func aRestoredOutputFolderIsUpToDate() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(tinyJob(name: "r").replacingOccurrences(of: "formats: [mp4]", with: "formats: [mp4, png]"), to: "r.cfg", in: dir)
    let out = path(dir, "out")
    #expect(transvid([job, "-o", out]) == 0)
    let before = files(in: out)
    // As tar restores it: every file copied (a new inode) with its time cut to the second.
    try FileManager.default.copyItem(atPath: out, toPath: path(dir, "copy"))
    try FileManager.default.removeItem(atPath: out)
    try FileManager.default.moveItem(atPath: path(dir, "copy"), toPath: out)
    for name in (FileManager.default.enumerator(atPath: out)?.allObjects as? [String] ?? []) {
      var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
      #expect(utimensat(AT_FDCWD, path(out, name), &times, 0) == 0)
    }
    let again = Capture()
    #expect(transvid([job, "-o", out], again) == 0)
    #expect(again.out.filter { $0.hasSuffix("  up to date") }.count == 2, "\(again.out)")
    #expect(files(in: out) == before)
  }

  /// Three shard runs write exactly what one unsharded run writes; -j 1 and
  /// -j 3 give the same bytes.
  @Test func shardsAndWorkerCountsGiveTheSameFiles() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 7)
    let whole = path(dir, "whole"), sharded = path(dir, "sharded"), parallel = path(dir, "parallel")
    #expect(transvid([jobs, "-o", whole, "-j", "1", "-q"]) == 0)
    var perShard: [Int] = []
    for k in 1...3 {
      let capture = Capture()
      #expect(transvid([jobs, "-o", sharded, "--shard", "\(k)/3", "-j", "2"], capture) == 0)
      perShard.append(capture.out.filter { $0.contains(" bytes  rendered in ") }.count)
    }
    #expect(perShard.reduce(0, +) == 7 && perShard.allSatisfy { $0 >= 2 })
    #expect(transvid([jobs, "-o", parallel, "-j", "3", "-q"]) == 0)
    let expected = files(in: whole)
    #expect(expected.count == 7)
    #expect(files(in: sharded) == expected)
    #expect(files(in: parallel) == expected)

    // The scheduler's variables pick the same shards (0-based index).
    let viaKubernetes = path(dir, "k8s")
    for index in 0..<3 {
      #expect(
        transvid(
          [jobs, "-o", viaKubernetes, "-q", "--shard-count", "3"],
          environment: ["JOB_COMPLETION_INDEX": "\(index)"]) == 0)
    }
    #expect(files(in: viaKubernetes) == expected)
  }

  /// A shard's summary counts its jobs in words: "1 job", "0 jobs" (it said "1 jobs").
  @Test func aShardsSummarySaysOneJob() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 2)
    for (k, says) in [(1, "1 job (shard 1/3): 1 rendered"), (2, "1 job (shard 2/3): 1 rendered"), (3, "0 jobs (shard 3/3): 0 rendered")] {
      let capture = Capture()
      #expect(transvid([jobs, "-o", path(dir, "out"), "--shard", "\(k)/3", "--format", "png"], capture) == 0)
      #expect(capture.out.last?.hasPrefix("transvid: \(says), 0 up to date, 0 failed in ") == true, "\(capture.out)")
    }
  }

  /// Jobs of equal cost are split by where they were found, not by how a folder is spelled:
  /// one shard given `x y` and another `x ./y` would otherwise both render one job and neither the other.
  @Test func theSplitDoesNotDependOnHowAFolderIsSpelled() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for sub in ["x", "y"] { try FileManager.default.createDirectory(atPath: path(dir, sub), withIntermediateDirectories: true) }
    try write(tinyJob(name: "p"), to: "x/p.cfg", in: dir)
    try write(tinyJob(name: "q"), to: "y/q.cfg", in: dir)
    func split(_ roots: [String]) throws -> [String: Int] {
      let capture = Capture()
      #expect(transvid(["plan"] + roots + ["--json", "--shard-count", "2", "-o", path(dir, "out")], capture) == 0)
      let object = try JSONSerialization.jsonObject(with: Data(capture.out.joined(separator: "\n").utf8)) as? [String: Any]
      let list = try #require(object?["jobs"] as? [[String: Any]])
      return Dictionary(uniqueKeysWithValues: list.map { ($0["job"] as? String ?? "", $0["shard"] as? Int ?? 0) })
    }
    let plain = try split([path(dir, "x"), path(dir, "y")])
    #expect(plain == ["p": 1, "q": 2])
    #expect(try split([path(dir, "x"), path(dir, ".") + "/y/"]) == plain)
  }

  /// A folder named like a job file is no job; an -o that is a file is a
  /// usage error at once (every job failed alike, exit 1).
  @Test func aFolderNamedLikeAJobAndAFileForOutputs() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "jobs/x.cfg"), withIntermediateDirectories: true)
    try write(tinyJob(name: "p"), to: "jobs/p.cfg", in: dir)
    let capture = Capture()
    #expect(transvid(["check", path(dir, "jobs")], capture) == 0, "\(capture.err)")
    #expect(capture.out.last == "transvid: 1 job checked, 0 broken")
    try write("", to: "taken", in: dir)
    let file = Capture()
    #expect(transvid([path(dir, "jobs"), "-o", path(dir, "taken")], file) == 2)
    #expect(file.err.first?.hasPrefix("transvid: -o '\(path(dir, "taken"))' is a file; outputs go into a folder") == true, "\(file.err)")
    // A report that is a folder fails before anything renders (it failed after every job had).
    let report = Capture()
    #expect(transvid([path(dir, "jobs"), "-o", path(dir, "out"), "--report", path(dir, "jobs")], report) == 2)
    #expect(report.err.first?.hasPrefix("transvid: --report '\(path(dir, "jobs"))' is a folder; give a file") == true, "\(report.err)")
    #expect(!FileManager.default.fileExists(atPath: path(dir, "out")))
  }

  /// A job file whose name is not UTF-8 (Latin-1 `caf\xE9.cfg`) cannot be
  /// opened by the name Swift holds for it (U+FFFD for the byte): the error
  /// says why, where it said "No such file or directory" of a file the
  /// folder listing had just found.
  @Test func aJobFileNameThatIsNotUTF8IsSaidSo() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try write(tinyJob(name: "ok"), to: "ok.cfg", in: jobs)
    let name = Array((jobs + "/caf").utf8) + [0xE9] + Array(".cfg".utf8) + [0]
    let fd = name.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
    #expect(fd >= 0)
    let text = Array(tinyJob(name: "cafe").utf8)
    #expect(write(fd, text, text.count) == text.count)
    close(fd)
    let why = "its name is not valid UTF-8, and transvid opens files by UTF-8 names: rename it"
    let batch = Capture()
    #expect(transvid([jobs, "-o", path(dir, "out"), "--format", "png"], batch) == 1)
    #expect(batch.err == ["\(jobs)/caf\u{FFFD}.cfg:1:1: error: cannot read job file: \(why)"], "\(batch.err)")
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/ok.png")))
    let named = Capture()
    #expect(transvid(["\(jobs)/caf\u{FFFD}.cfg", "-o", path(dir, "out")], named) == 2)
    #expect(named.err.first?.hasPrefix("transvid: no such file or directory: \(jobs)/caf\u{FFFD}.cfg (\(why))") == true, "\(named.err)")
  }

  /// A folder whose name is not UTF-8 (Latin-1 `d\xE9mos/`) cannot be
  /// searched by the name Swift holds for it: it fails as a folder that
  /// cannot be read, saying why and that its job files are not rendered,
  /// where it said "cannot read job file" of a folder.
  @Test func aFolderNameThatIsNotUTF8IsSaidSo() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try write(tinyJob(name: "ok"), to: "ok.cfg", in: jobs)
    let name = Array((jobs + "/d").utf8) + [0xE9] + Array("mos".utf8) + [0]
    #expect(name.withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) } == 0)
    let inside = Array((jobs + "/d").utf8) + [0xE9] + Array("mos/in.cfg".utf8) + [0]
    let fd = inside.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
    #expect(fd >= 0)
    close(fd)
    let why = "its name is not valid UTF-8, and transvid opens files by UTF-8 names: rename it"
    let batch = Capture()
    #expect(transvid([jobs, "-o", path(dir, "out"), "--format", "png"], batch) == 1)
    #expect(
      batch.err == ["\(jobs)/d\u{FFFD}mos: error: cannot read this folder (\(why)): the job files in it are not rendered"],
      "\(batch.err)")
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/ok.png")))
  }

  /// A report that cannot be written — a device (`/dev/null`), a FIFO, a
  /// file where its folder should be — is refused before anything renders,
  /// exit 2, as a folder is; it failed after every job had rendered
  /// (exit 1). A link is fine: the report replaces the link.
  @Test func anUnwritableReportIsRefusedBeforeTheRun() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "jobs"), withIntermediateDirectories: true)
    try write(tinyJob(name: "p"), to: "jobs/p.cfg", in: dir)
    try write("", to: "taken", in: dir)
    #expect(mkfifo(path(dir, "fifo"), 0o644) == 0)
    // A gallery folder whose page is a folder: the page is what is in the way (the folder was named).
    try FileManager.default.createDirectory(atPath: path(dir, "site/index.html"), withIntermediateDirectories: true)
    let out = path(dir, "out")
    let device = "it is a character device, not a regular file; transvid writes only regular files"
    for (option, target, says) in [
      ("--report", "/dev/null", "--report '/dev/null': \(device)"),
      ("--junit", "/dev/null", "--junit '/dev/null': \(device)"),
      ("--report", path(dir, "fifo"), "--report '\(path(dir, "fifo"))': it is a FIFO, not a regular file; transvid writes only regular files"),
      ("--report", path(dir, "taken/r.json"), "--report '\(path(dir, "taken/r.json"))': '\(path(dir, "taken"))' is a regular file"),
      ("--gallery", path(dir, "taken"), "--gallery '\(path(dir, "taken"))': '\(path(dir, "taken"))' is a regular file"),
      (
        "--gallery", path(dir, "site"),
        "--gallery '\(path(dir, "site/index.html"))': it is a folder, not a regular file; transvid writes only regular files"
      ),
    ] {
      let capture = Capture()
      #expect(transvid([path(dir, "jobs"), "-o", out, option, target], capture) == 2, "\(option) \(target)")
      #expect(capture.err == ["transvid: \(says)\nRun 'transvid --help' for usage."], "\(capture.err)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
    // A link to /dev/null is replaced by the report, never written through.
    #expect(symlink("/dev/null", path(dir, "link.json")) == 0)
    let linked = Capture()
    #expect(transvid([path(dir, "jobs"), "-o", out, "--report", path(dir, "link.json")], linked) == 0, "\(linked.err)")
    var status = stat()
    #expect(lstat(path(dir, "link.json"), &status) == 0 && status.st_mode & S_IFMT == S_IFREG)
  }

  /// A report whose name or path is longer than the system takes is
  /// refused before anything renders, exit 2, as a device is (the batch
  /// sweep: with `--report` of a 300-byte name the batch rendered every job
  /// and then could not write it, "File name too long", exit 1).
  @Test func aReportNamedLongerThanTheSystemTakesIsRefusedBeforeTheRun() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "jobs"), withIntermediateDirectories: true)
    try write(tinyJob(name: "p"), to: "jobs/p.cfg", in: dir)
    let long = String(repeating: "r", count: 300) + ".json"
    let deep = Array(repeating: "folder", count: 600).joined(separator: "/") + "/r.json"
    for (option, target, says) in [
      ("--report", long, "its name is 305 bytes long; the system takes 243 with transvid's temporary suffix"),
      ("--junit", "new/" + long, "its name is 305 bytes long; the system takes 243 with transvid's temporary suffix"),
      (
        "--report", deep,
        "its path is 4206 bytes long; with transvid's temporary folder it would be 4225, "
          + "and the system opens paths of at most 4095 (PATH_MAX)"
      ),
    ] {
      let run = try runTransvid(["jobs", "-o", "out", option, target], in: dir)
      let refused = run.status == 2 && run.errorLines == ["transvid: \(option) '\(target)': \(says)", "Run 'transvid --help' for usage."]
      #expect(refused, "\(run.status) \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: path(dir, "out")))
    }
  }

  /// A report in a folder that cannot be written (a read-only mount: its
  /// own folder, a missing folder below it, a gallery's) is refused before
  /// anything renders, exit 2, as a device is; the batch rendered every job
  /// and then could not write it (exit 1) (the hardening sweep).
  @Test(.enabled(if: canMountTmpfs, "needs to mount a tmpfs (root)"))
  func aReportInAFolderThatCannotBeWrittenIsRefusedBeforeTheRun() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "jobs"), withIntermediateDirectories: true)
    try write(tinyJob(name: "p"), to: "jobs/p.cfg", in: dir)
    let readOnly = path(dir, "ro")
    try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
    #expect(mountTmpfs(at: readOnly, options: "ro,size=64k"))
    defer { unmount(readOnly) }
    let out = path(dir, "out")
    for (option, target, named) in [
      ("--report", path(dir, "ro/r.json"), path(dir, "ro/r.json")),
      ("--junit", path(dir, "ro/reports/j.xml"), path(dir, "ro/reports/j.xml")),
      ("--gallery", path(dir, "ro/site"), path(dir, "ro/site/index.html")),
    ] {
      let capture = Capture()
      #expect(transvid([path(dir, "jobs"), "-o", out, option, target], capture) == 2, "\(option) \(target)")
      #expect(
        capture.err == [
          "transvid: \(option) '\(named)': '\(readOnly)' cannot be written: Read-only file system\n"
            + "Run 'transvid --help' for usage."
        ], "\(capture.err)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
    // A report beside the mount, in a folder not made yet, is fine.
    #expect(transvid([path(dir, "jobs"), "-o", out, "--report", path(dir, "reports/r.json")]) == 0)
    #expect(FileManager.default.fileExists(atPath: path(dir, "reports/r.json")))
  }

  @Test func twoJobsWritingOneOutputIsAnError() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let first = try write(tinyJob(name: "same"), to: "a.cfg", in: dir)
    let second = try write(tinyJob(name: "same", color: "#000000"), to: "b.cfg", in: dir)
    let out = path(dir, "out")
    let capture = Capture()
    #expect(transvid([dir, "-o", out], capture) == 1)
    #expect(
      capture.err == [
        "\(second):1:7: error: output '\(out)/same.mp4' is also written by \(first) (listed first); give one of the two jobs another name"
      ])
    #expect(Array(files(in: out).keys) == ["same.mp4"])
    // The surviving file is the first job's.
    #expect(transvid([first, "-o", path(dir, "alone"), "-q"]) == 0)
    #expect(files(in: out)["same.mp4"] == files(in: path(dir, "alone"))["same.mp4"])
  }

  /// The same, each job writing through its own `output.dir`, one of them a
  /// link to the other's folder: one file, so the second job fails (both
  /// rendered and the last one's video won).
  @Test func twoJobsWritingOneOutputThroughALinkIsAnError() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "p/q"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: path(dir, "p/out"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: path(dir, "p/q/lnk"), withDestinationPath: "../out")
    func job(_ folder: String, _ color: String) -> String {
      tinyJob(name: "same", color: color).replacingOccurrences(of: "output: { formats:", with: "output: { dir: \(folder), formats:")
    }
    let first = try write(job("../out", "#FFFFFF"), to: "p/q/a.cfg", in: dir)
    let second = try write(job("lnk", "#000000"), to: "p/q/b.cfg", in: dir)
    let capture = Capture()
    #expect(transvid([path(dir, "p"), "--allow-outside", path(dir, "p")], capture) == 1)
    #expect(
      capture.err == [
        "\(second):1:7: error: output '\(path(dir, "p/q/lnk"))/same.mp4' is also written by \(first) (listed first); "
          + "give one of the two jobs another name"
      ], "\(capture.err)")
    #expect(transvid([first, "-o", path(dir, "alone"), "-q"]) == 0)
    #expect(files(in: path(dir, "p/out"))["same.mp4"] == files(in: path(dir, "alone"))["same.mp4"])
  }

  /// Result lines come in the batch's order, whatever order `-j`'s workers
  /// finish the jobs in (costliest first), so a batch prints the same lines
  /// every run, rendering or up to date; the error of the broken job is on
  /// standard error (the batch sweep: a nightly log's "up to date" lines came
  /// in another order each night).
  @Test func resultLinesComeInTheBatchsOrder() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try makeBatch(in: dir, count: 6, broken: true)
    // Found as a/broken, a/job-00, a/job-02, a/job-04, b/job-01, …; claimed costliest (longest) first.
    let order = ["00", "02", "04", "01", "03", "05"].map { "out/job-\($0).mp4" }
    for (run, result) in [(1, "rendered in "), (2, "up to date")] {
      let batch = try runTransvid(["jobs", "-o", "out", "-j", "3"], in: dir)
      #expect(batch.status == 1, "\(batch.stderr)")
      #expect(batch.errorLines == ["jobs/a/broken.cfg:2:35: error: unknown key 'fsp' in canvas; did you mean 'fps'?"])
      let lines = batch.stdout.split(separator: "\n").map(String.init)
      let paths = lines.dropLast().map { String($0.prefix { $0 != " " }) }
      #expect(paths == order, "run \(run): \(lines)")
      #expect(lines.dropLast().allSatisfy { $0.contains(result) }, "run \(run): \(lines)")
    }
  }

  /// A `frame` event names the job's file and the output being written, as
  /// `start` and `progress` do, so a program following several outputs (or
  /// jobs at once) knows which one the frames are of (the batch sweep: it
  /// named the job alone).
  @Test func aFrameEventNamesItsOutput() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(smallJob(), to: "small.cfg", in: dir)
    let run = try runTransvid(["small.cfg", "-o", "out", "--format", "mp4,webm", "--progress", "ndjson"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let frames = try run.stdout.split(separator: "\n").compactMap { line -> String? in
      let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      guard event["event"] as? String == "frame" else { return nil }
      return "\(event["job"] ?? "-") \(event["file"] ?? "-") \(event["output"] ?? "-") \(event["frame"] ?? "-")"
    }
    #expect(frames == ["small small.cfg out/small.mp4 30", "small small.cfg out/small.webm 30"])
  }

  @Test func ndjsonEvents() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 2, broken: true)
    let out = path(dir, "out")
    let capture = Capture()
    #expect(transvid([jobs, "-o", out, "--progress=ndjson", "-j1"], capture) == 1)
    let events = try capture.out.map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(
      events.map { "\($0["event"]!) \($0["job"] ?? "-")" } == [
        "failed broken", "start job-00", "progress job-00", "done job-00", "start job-01", "progress job-01",
        "done job-01", "summary -",
      ])
    #expect(events[0]["line"] as? Int == 2 && events[0]["column"] as? Int == 35)
    #expect(events[2]["frames"] as? Int == 5 && events[2]["total"] as? Int == 5)
    #expect(events.last?["rendered"] as? Int == 2 && events.last?["failed"] as? Int == 1)
    let again = Capture()
    #expect(transvid([jobs, "-o", out, "--progress", "ndjson"], again) == 1)
    #expect(again.out.filter { $0.contains("\"event\":\"cached\"") }.count == 2)

    // Outputs of other frame counts (a poster is one frame, a GIF at a lower rate fewer) each stand
    // for the job's frames: the last progress event reaches its total. And -q, for people,
    // does not silence the events, which are for programs.
    let formats = Capture()
    #expect(transvid([path(jobs, "a/job-00.cfg"), "-o", path(dir, "f"), "--format", "mp4,png,gif", "--progress", "ndjson", "-q"], formats) == 0)
    let progress = try formats.out.compactMap { line -> [String: Any]? in
      let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return event["event"] as? String == "progress" ? event : nil
    }
    #expect(progress.map { $0["frames"] as? Int ?? 0 } == [5, 10, 15] && progress.allSatisfy { $0["total"] as? Int == 15 }, "\(progress)")
    // An output's notes, which its result line shows, are in its event too (they were left out).
    #expect(progress.map { $0["notes"] as? [String] ?? [] } == [[], ["poster at 0.20 s (frame 2)"], []], "\(progress)")
  }

  /// An error in the job's String Catalog is placed in the catalog: ndjson
  /// gives `error_file` beside `line` and `column` (`file` stays the job's),
  /// and JUnit's `file` names the file its `line` is in, as the report's
  /// `error` does.
  @Test func aFailureInTheStringCatalogIsPlacedThere() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      """
      name: cat
      canvas: { size: 60x100, scale: 1, fps: 10 }
      output: { formats: [png] }
      locales: [en]
      strings: App.xcstrings
      screens: { a: { views: [ { frame: [0, 0, 60, 20], text: { key: hi } } ] } }
      timeline: [ { hold: 0.2 } ]

      """, to: "cat.cfg", in: dir)
    let catalog = try write("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"hi\" : { }, ,\n  }\n}\n", to: "App.xcstrings", in: dir)
    let junit = path(dir, "junit.xml"), report = path(dir, "report.json")
    let capture = Capture()
    #expect(transvid([job, "-o", path(dir, "out"), "--progress", "ndjson", "--junit", junit, "--report", report], capture) == 1)
    let message = "\(catalog):4:17: error: invalid JSON: a comma before '}' (JSON has no trailing commas)"
    #expect(
      capture.out.first
        == "{\"event\":\"failed\",\"job\":\"cat\",\"file\":\"\(job)\",\"error\":\"\(message)\",\"error_file\":\"\(catalog)\",\"line\":4,\"column\":17}")
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains(" name=\"cat\" file=\"\(catalog)\" line=\"4\" time="), "\(xml)")
    let error = try #require(try reportJobs(report).first?["error"] as? [String: Any])
    #expect(error["file"] as? String == catalog && error["line"] as? Int == 4 && error["column"] as? Int == 17)
  }

  @Test func planListsJobsKeysCostsAndShards() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 5, broken: true)
    let capture = Capture()
    // The broken job fails the plan (exit 1) as it would fail the render; the others are still listed.
    #expect(transvid(["plan", jobs, "--json", "--shard-count", "2", "-o", path(dir, "out")], capture) == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(capture.out.joined(separator: "\n").utf8)) as? [String: Any])
    #expect(object["shards"] as? Int == 2)
    let list = try #require(object["jobs"] as? [[String: Any]])
    #expect(list.map { $0["file"] as? String ?? "" } == [
      "a/broken.cfg", "a/job-00.cfg", "a/job-02.cfg", "a/job-04.cfg", "b/job-01.cfg", "b/job-03.cfg",
    ].map { path(jobs, $0) })
    #expect(list[0]["error"] != nil && list[0]["cost"] as? Int == 0 && list[0]["key"] == nil)
    // A broken job was never laid out: no frames or size, rather than 0 frames of 0×0.
    #expect(list[0]["frames"] == nil && list[0]["width"] == nil && list[0]["height"] == nil)
    // job-00: 0.1 + 0.3 + 0.1 s at 10 fps = 5 frames of 60×100 px, and its snapshots' drawing: two
    // screens of 60×100 px and a view of 50×20, then the picture its push leaves, a canvas.
    #expect(
      list[1]["cost"] as? Int == 5 * 60 * 100 + 2 * 60 * 100 + 50 * 20 + 60 * 100 && (list[1]["key"] as? String)?.count == 64)
    #expect(Set(list.map { $0["shard"] as? Int ?? 0 }) == [1, 2])
    #expect(list[1]["up_to_date"] as? Bool == false)
    // The scheduler's count is read as a render reads it: one that disagrees is a usage error.
    let slurm = ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "2"]
    let disagreeing = Capture()
    #expect(transvid(["plan", jobs, "--shard-count", "3"], disagreeing, environment: slurm) == 2)
    #expect(disagreeing.err.first?.hasPrefix("transvid: --shard-count 3 and SLURM_ARRAY_TASK_COUNT=2 disagree") == true)
  }
}
