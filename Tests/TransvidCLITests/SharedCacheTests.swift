// Issue 19, through the built executable: `--cache DIR` is shared by runs and
// shards. A job found there is copied, byte for byte, not rendered; two
// processes writing one store and killed with SIGKILL at random moments never
// leave an entry that is not whole (every entry's files match its manifest's
// SHA-256), and a later run from that store writes exactly what a fresh
// render writes; `--cache-max-bytes` evicts the least recently used entry.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Media
import Testing
import TransvidCLI

@Suite(.serialized) struct SharedCacheTests {
  /// Every entry of the store at `cache`: its key, and whether it is whole
  /// (a manifest naming the key, each file there with its SHA-256).
  static func entries(_ cache: String) throws -> [String: Bool] {
    let root = path(cache, "entries")
    var result: [String: Bool] = [:]
    for key in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
      let entry = path(root, key)
      guard let data = FileManager.default.contents(atPath: path(entry, "manifest.json")),
        let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        manifest["key"] as? String == key, let outputs = manifest["outputs"] as? [[String: Any]], !outputs.isEmpty
      else {
        result[key] = false
        continue
      }
      result[key] = outputs.allSatisfy { item in
        guard let file = item["file"] as? String, let bytes = FileManager.default.contents(atPath: path(entry, file)) else { return false }
        return SHA256.hex(Array(bytes)) == item["sha256"] as? String
      }
    }
    return result
  }

  /// The bytes an entry takes (all its files).
  static func size(of entry: String) -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: entry)) ?? []).reduce(0) {
      $0 + ((try? FileManager.default.attributesOfItem(atPath: path(entry, $1)))?[.size] as? Int ?? 0)
    }
  }

  /// A damaged entry (a file that no longer matches its manifest, the
  /// manifest gone, a plain file where the entry's folder was) is not
  /// copied: the job renders, and its render takes the entry's place, so the
  /// run after copies again (it rendered every time before).
  @Test(arguments: ["flipped byte", "no manifest", "a file"])
  func aDamagedEntryIsReplacedByTheRender(damage: String) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try makeBatch(in: dir, count: 1)
    func run(_ out: String) throws -> [Substring] {
      let run = try runTransvid(["jobs", "-o", out, "--cache", "cache", "--progress", "plain"], in: dir)
      #expect(run.status == 0, "\(run.stderr)")
      return run.stdout.split(separator: "\n").filter { $0.contains(".mp4") }
    }
    _ = try run("one")
    let key = try #require(try Self.entries(path(dir, "cache")).keys.first)
    let entry = path(dir, "cache/entries/\(key)")
    switch damage {
    case "flipped byte":
      var bytes = try #require(FileManager.default.contents(atPath: path(entry, "mp4.mp4")))
      bytes[bytes.count / 2] ^= 0xFF
      try bytes.write(to: URL(fileURLWithPath: path(entry, "mp4.mp4")))
    case "no manifest": try FileManager.default.removeItem(atPath: path(entry, "manifest.json"))
    default:
      try FileManager.default.removeItem(atPath: entry)
      try write("x", to: key, in: path(dir, "cache/entries"))
    }
    #expect(try Self.entries(path(dir, "cache")) == [key: false])
    let rendered = try run("two")
    #expect(rendered.count == 1 && !rendered[0].hasSuffix("(copied from the cache)"), "\(rendered)")
    #expect(try Self.entries(path(dir, "cache")) == [key: true])
    let copied = try run("three")
    #expect(copied.count == 1 && copied[0].hasSuffix("(copied from the cache)"), "\(copied)")
    #expect(files(in: path(dir, "one")) == files(in: path(dir, "three")))
  }

  /// A store on a read-only mount, with no `entries` yet, is read all the
  /// same: the batch renders what it lacks, each such job saying it is not in
  /// the cache, and writes its report (it once stopped before rendering,
  /// exit 1). A `--cache` naming a regular file is refused before anything
  /// renders, exit 2, as an unwritable `--report` is: no job failed.
  @Test(.enabled(if: canMountTmpfs, "needs to mount a tmpfs (root)"))
  func aReadOnlyStoreIsReadAndAFileIsRefused() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try makeBatch(in: dir, count: 2)
    let store = path(dir, "store")
    try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
    #expect(mountTmpfs(at: store, options: "ro,size=64k"))
    defer { unmount(store) }
    let run = try runTransvid(["jobs", "-o", "out", "--cache", "store", "--report", "report.json"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(files(in: path(dir, "out")).keys.sorted() == ["job-00.mp4", "job-01.mp4"])
    let notes = run.stderr.split(separator: "\n").filter { $0.contains(": note: its outputs are not in the cache: ") }
    #expect(notes.count == 2, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: path(dir, "report.json")))

    try write("", to: "file", in: dir)
    let refused = try runTransvid(["jobs", "-o", "two", "--cache", "file"], in: dir)
    #expect(refused.status == 2)
    #expect(refused.stderr == "transvid: cannot use the cache 'file': 'file' is a regular file\n")
    #expect(!FileManager.default.fileExists(atPath: path(dir, "two")))
  }

  /// `plan --cache` refuses a store the render it plans refuses (a file, a
  /// file where one of its folders goes): it listed every job `to render`,
  /// exit 0, where that render stops with exit 2.
  @Test func planRefusesAStoreTheRenderRefuses() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(tinyJob(name: "a"), to: "a.cfg", in: dir)
    let file = try write("", to: "file", in: dir)
    for store in [file, path(file, "store")] {
      let capture = Capture()
      #expect(TransvidCommand.run(["plan", job, "--cache", store], console: capture.console, environment: [:]) == 2)
      #expect(capture.err == ["transvid: cannot use the cache '\(store)': '\(file)' is a regular file"], "\(store)")
      #expect(capture.out.isEmpty)
    }
    // A store still to be made is one: the render makes it.
    let capture = Capture()
    #expect(TransvidCommand.run(["plan", job, "--cache", path(dir, "new/store")], console: capture.console, environment: [:]) == 0)
    #expect(!FileManager.default.fileExists(atPath: path(dir, "new")))
  }

  @Test func aJobInTheCacheIsCopiedNotRendered() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try makeBatch(in: dir, count: 3)
    let first = try runTransvid(["jobs", "-o", "one", "--cache", "cache", "--format", "mp4,png", "--progress", "plain"], in: dir)
    #expect(first.status == 0, "\(first.stderr)")
    let stored = try Self.entries(path(dir, "cache"))
    #expect(stored.count == 3 && stored.values.allSatisfy { $0 })
    // `plan` says so first: each job is in the store (--json: in_cache).
    let plan = try runTransvid(["plan", "jobs", "-o", "two", "--cache", "cache", "--format", "mp4,png"], in: dir)
    #expect(plan.stdout.split(separator: "\n").filter { $0.hasSuffix("  in the cache (copied)") }.count == 3, "\(plan.stdout)")
    let planned = try runTransvid(["plan", "jobs", "-o", "two", "--cache", "cache", "--format", "mp4,png", "--json"], in: dir)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(planned.stdout.utf8)) as? [String: Any])
    #expect((json["jobs"] as? [[String: Any]])?.map { $0["in_cache"] as? Bool } == [true, true, true])
    // The store holds them also where the outputs are up to date; with --force they render.
    let here = try runTransvid(["plan", "jobs", "-o", "one", "--cache", "cache", "--format", "mp4,png", "--json"], in: dir)
    let rows = try #require((try JSONSerialization.jsonObject(with: Data(here.stdout.utf8)) as? [String: Any])?["jobs"] as? [[String: Any]])
    #expect(rows.map { [$0["up_to_date"] as? Bool, $0["in_cache"] as? Bool] } == Array(repeating: [true, true], count: 3))
    let forced = try runTransvid(["plan", "jobs", "-o", "two", "--cache", "cache", "--format", "mp4,png", "--force"], in: dir)
    #expect(forced.stdout.split(separator: "\n").filter { $0.hasSuffix("  to render") }.count == 3, "\(forced.stdout)")
    // Another output folder (another shard, another machine sharing the store): copies.
    let second = try runTransvid(
      ["jobs", "-o", "two", "--cache", "cache", "--format", "mp4,png", "--progress", "plain", "--junit", "junit.xml"], in: dir)
    #expect(second.status == 0, "\(second.stderr)")
    let lines = second.stdout.split(separator: "\n")
    #expect(lines.filter { $0.hasSuffix("(copied from the cache)") }.count == 6, "\(second.stdout)")
    // JUnit says so too, in the result lines: a copy is not an up-to-date job.
    let junit = try String(contentsOfFile: path(dir, "junit.xml"), encoding: .utf8)
    let outs = junit.matches(of: /<system-out>([^<]*)<\/system-out>/).map { String($0.output.1) }
    #expect(
      outs.count == 3
        && Set(outs.flatMap { $0.split(separator: "\n") }) == Set(lines.filter { $0.hasSuffix("(copied from the cache)") }),
      "\(junit)")
    // The summary counts them up to date and says they were copied.
    #expect(
      lines.last?.hasPrefix("transvid: 3 jobs: 0 rendered, 3 up to date (3 copied from the cache), 0 failed in ") == true,
      "\(second.stdout)")
    #expect(files(in: path(dir, "one")) == files(in: path(dir, "two")))
    // The records of the stored (one) and the copied (two) outputs hold each
    // output's own SHA-256, which the store worked out as it read them.
    for out in ["one", "two"] {
      let records = path(dir, "\(out)/.transvid-cache")
      let names = try FileManager.default.contentsOfDirectory(atPath: records).filter { $0.hasSuffix(".json") }
      #expect(names.count == 3, "\(names)")
      for name in names {
        let data = try #require(FileManager.default.contents(atPath: path(records, name)))
        let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let outputs = try #require(record["outputs"] as? [[String: Any]])
        #expect(outputs.count == 2)
        for output in outputs {
          let file = try #require(output["file"] as? String)
          let bytes = try #require(FileManager.default.contents(atPath: path(dir, "\(out)/\(file)")))
          #expect(output["sha256"] as? String == SHA256.hex(Array(bytes)), "\(out)/\(file)")
        }
      }
    }
    // No staging left behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: path(dir, "cache/staging")) == [])
    // ndjson says what the summary and the report say: cached (copied), not done.
    let third = try runTransvid(["jobs", "-o", "three", "--cache", "cache", "--format", "mp4,png", "--progress", "ndjson"], in: dir)
    let events = third.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let finished = events.filter { ["done", "cached"].contains($0["event"] as? String) }
    #expect(finished.count == 3 && finished.allSatisfy { $0["event"] as? String == "cached" && $0["copied"] as? Bool == true }, "\(third.stdout)")
    let summary = events.last
    let counted = summary?["cached"] as? Int == 3 && summary?["copied"] as? Int == 3 && summary?["rendered"] as? Int == 0
    #expect(counted, "\(third.stdout)")
  }

  @Test func theLeastRecentlyUsedEntryIsEvicted() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = try makeBatch(in: dir, count: 3)
    let a = path(jobs, "a/job-00.cfg"), b = path(jobs, "b/job-01.cfg"), c = path(jobs, "a/job-02.cfg")
    // The entries' sizes, from a store without a bound.
    #expect(try runTransvid([a, b, c, "-o", "sizes", "--cache", "unbounded", "-q"], in: dir).status == 0)
    let unbounded = path(dir, "unbounded/entries")
    let sizes = try FileManager.default.contentsOfDirectory(atPath: unbounded).map { Self.size(of: path(unbounded, $0)) }
    #expect(sizes.count == 3)
    let bound = sizes.reduce(0, +) - 1  // all three do not fit; any two do
    let keyOf = { (job: String) throws -> String in
      let plan = try runTransvid(["plan", "--json", job, "-o", "x"], in: dir)
      let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
      return try #require((json["jobs"] as? [[String: Any]])?.first?["key"] as? String)
    }
    let store = ["--cache", "bounded", "--cache-max-bytes", "\(bound)", "-q"]
    #expect(try runTransvid([a, "-o", "r1"] + store, in: dir).status == 0)
    #expect(try runTransvid([b, "-o", "r2"] + store, in: dir).status == 0)
    #expect(try runTransvid([a, "-o", "r3"] + store, in: dir).status == 0)  // a copy: a is now used last
    #expect(try runTransvid([c, "-o", "r4"] + store, in: dir).status == 0)  // over the bound: b goes
    #expect(try Set(Self.entries(path(dir, "bounded")).keys) == [keyOf(a), keyOf(c)])

    // A lower bound shrinks the store at the end of a run that only copies
    // from it: the entry it used stays.
    let smallest = ["--cache", "bounded", "--cache-max-bytes", "\(sizes.max()!)", "-q"]
    #expect(try runTransvid([c, "-o", "r5"] + smallest, in: dir).status == 0)
    #expect(try Set(Self.entries(path(dir, "bounded")).keys) == [keyOf(c)])
    let unused = try runTransvid([c, "-o", "r6", "--cache-max-bytes", "1000"], in: dir)
    #expect(unused.status == 2)
    #expect(
      unused.errorLines == [
        "transvid: --cache-max-bytes bounds the --cache store: give --cache DIR too", "Run 'transvid --help' for usage.",
      ])
  }

  /// Two processes share one store, each killed with SIGKILL at a random
  /// moment, eight times over, the store bounded so that entries are also
  /// evicted while the other reads. Afterwards every entry is whole, and a
  /// run from the store writes what a render without it writes.
  @Test func sigkilledWritersNeverLeaveAnEntryALaterRunTrusts() throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try makeBatch(in: dir, count: 8)
    let formats = ["--format", "mp4,png,gif"]
    let (run, render) = try timed { try runTransvid(["jobs", "-o", "reference", "-q", "-j", "1"] + formats, in: dir) }
    #expect(run.status == 0)
    let reference = files(in: path(dir, "reference"))
    #expect(reference.count == 24)
    let store = ["--cache", "cache", "--cache-max-bytes", "60000", "-j", "1", "-q"] + formats

    var generator = SystemRandomNumberGenerator()
    var kills: [String] = []
    for round in 0..<8 {
      let processes = try (0..<2).map { p -> Process in
        let process = Process()
        process.executableURL = binary
        process.arguments = ["jobs", "-o", "round-\(round)-\(p)"] + store
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
      }
      for process in processes {
        let delay = UInt32.random(in: killMoments(render: render), using: &generator)
        kills.append("round \(round): \(delay / 1000) ms")
        usleep(delay)
        kill(process.processIdentifier, SIGKILL)
      }
      for process in processes { process.waitUntilExit() }
      let entries = try Self.entries(path(dir, "cache"))
      #expect(entries.values.allSatisfy { $0 }, "after \(kills): \(entries)")
    }

    let final = try runTransvid(["jobs", "-o", "final"] + store, in: dir)
    #expect(final.status == 0, "\(final.stderr)")
    #expect(files(in: path(dir, "final")) == reference, "after \(kills)")
    #expect(try Self.entries(path(dir, "cache")).values.allSatisfy { $0 })
    // The killed processes' staging folders went with the next run.
    #expect(try FileManager.default.contentsOfDirectory(atPath: path(dir, "cache/staging")) == [])
  }
}
