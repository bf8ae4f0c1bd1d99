// A batch renders each job in a worker process: a job whose process dies
// (a crash, the kernel's out-of-memory killer) fails alone, with an error
// that says how it ended, and the batch's other jobs render as they would
// in one process, byte for byte.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport
@testable import TransvidCLI

/// The processes whose command line holds every one of `parts` (this test's
/// temporary folder and `__worker` find one test's workers only).
func processes(with parts: [String]) -> [pid_t] {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.compactMap { name -> pid_t? in
    guard let pid = pid_t(name), let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else {
      return nil
    }
    let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    return parts.allSatisfy(arguments.contains) ? pid : nil
  }
}

/// Stops `batch`, waits until its `worker` waits for a request (its main
/// thread in read(2) on its standard input: before its first job or after
/// one), kills the worker there and lets the batch go on.
func killWhileWaiting(_ worker: pid_t, of batch: Process) {
  kill(batch.processIdentifier, SIGSTOP)
  // read(2) is system call 0 on x86-64, 63 on arm64; its first argument the file descriptor.
  #if arch(arm64)
    let waiting = "63 0x0 "
  #else
    let waiting = "0 0x0 "
  #endif
  #expect(eventually(within: 20) {
    (try? String(contentsOfFile: "/proc/\(worker)/syscall", encoding: .utf8))?.hasPrefix(waiting) == true
  })
  kill(worker, SIGKILL)
  // Dead, not yet reaped by the stopped batch.
  #expect(eventually(within: 5) {
    (try? String(contentsOfFile: "/proc/\(worker)/stat", encoding: .utf8))?.contains(") Z ") == true
  })
  kill(batch.processIdentifier, SIGCONT)
}

/// Waits up to `seconds` for `condition`, checking every 2 ms.
func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
  let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
  while ContinuousClock.now < end {
    if condition() { return true }
    usleep(2000)
  }
  return condition()
}

@Suite(.serialized, .enabled(if: transvidBinary() != nil, "build the executable first (swift build --build-tests)"))
struct WorkerIsolationTests {
  /// Three jobs, rendered one at a time (`-j 1`, so in the folder's order):
  /// the first one's worker is sent `signal` while it renders (at the
  /// batch's first frame event), or once the first of its two outputs is
  /// written in the staging folder. That job fails with how its
  /// process ended, and writes nothing: a job's outputs go into place
  /// together, so its finished one is removed with its unfinished one; the
  /// other two render in a worker started again, exactly as the same jobs
  /// render in one process.
  @Test(arguments: [
    (SIGSEGV, false, "crashed (SIGSEGV); a bug in transvid, please report it with the job"),
    (SIGKILL, true, "was killed (SIGKILL; the kernel sends it when memory runs out)"),
  ])
  func deadWorkerFailsItsJobAlone(signal: Int32, afterFirstOutput: Bool, says: String) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs"), out = path(dir, "out"), alone = path(dir, "alone")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    // Its GIF takes long enough (60 frames at 600×1000) for the kill to fall inside it.
    let a = try write(
      goodJob(name: "a", formats: "[mp4, gif]").replacingOccurrences(of: "hold: 0.2", with: "hold: 6")
        .replacingOccurrences(of: "size: 60x100", with: "size: 600x1000"), to: "a.cfg", in: jobs)
    try write(goodJob(name: "b", color: "#34C759", formats: "[mp4, gif]"), to: "b.cfg", in: jobs)
    try write(goodJob(name: "c", color: "#5856D6"), to: "c.cfg", in: jobs)

    let binary = try #require(transvidBinary())
    let process = Process()
    process.executableURL = binary
    process.arguments = ["-j", "1", "--progress", "ndjson", "-o", out, "--report", path(dir, "report.json"), jobs]
    // Where a crash's core file would go, if the machine writes them.
    process.currentDirectoryURL = URL(fileURLWithPath: dir)
    let stderr = Pipe(), stdout = Pipe()
    process.standardError = stderr
    process.standardOutput = stdout
    try process.run()
    var worker: pid_t?
    #expect(eventually(within: 20) {
      worker = processes(with: [JobWorker.command, jobs]).first
      return worker != nil
    })
    if afterFirstOutput {
      // a.mp4 complete in the staging folder (renamed there when finished), not in place.
      #expect(eventually(within: 60) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        return names.contains {
          $0.hasPrefix(".transvid-partial") && FileManager.default.fileExists(atPath: path(path(out, $0), "a.mp4"))
        }
      })
    } else {
      // The batch's progress events, up to a's first frame event.
      var events = Data()
      func reached() -> Bool {
        String(decoding: events, as: UTF8.self).split(separator: "\n").contains {
          $0.contains("\"event\":\"frame\"") && $0.contains("\"job\":\"a\"")
        }
      }
      while !reached() {
        let chunk = stdout.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        events += chunk
      }
    }
    if let worker { kill(worker, signal) }
    let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    _ = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()

    #expect(process.terminationReason == .exit && process.terminationStatus == 1)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines == ["\(a): error: the process rendering this job \(says)"])
    let files = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted()
    #expect(files == ["b.gif", "b.mp4", "c.mp4"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { !$0.hasPrefix(".transvid-partial") })
    #expect(try VideoReader(path: path(out, "c.mp4")).readAll().count == 5)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path(dir, "report.json"))))
        as? [String: Any])
    let entries = try #require(report["jobs"] as? [[String: Any]])
    #expect(entries.map { $0["status"] as? String } == ["failed", "rendered", "rendered"])
    #expect(((entries[0]["error"] as? [String: Any])?["message"] as? String) == lines.first)
    // No worker outlives its batch.
    #expect(eventually(within: 5) { processes(with: [JobWorker.command, jobs]).isEmpty })

    // The same two jobs in this process (no worker): the same bytes.
    let capture = Capture()
    #expect(transvid(["-q", "-o", alone, path(jobs, "b.cfg"), path(jobs, "c.cfg")], capture) == 0, "\(capture.err)")
    for name in ["b.gif", "b.mp4", "c.mp4"] {
      let (batch, inProcess) = (path(out, name), path(alone, name))
      #expect(FileManager.default.contents(atPath: batch) == FileManager.default.contents(atPath: inProcess), "\(name)")
    }
  }

  /// A worker that dies between jobs (killed while it waits, as the
  /// out-of-memory killer may take it) fails no job: the next one, which it
  /// never had, goes to a new worker. The batch is stopped while the worker
  /// is at work, so the worker finishes and waits for a request (its main
  /// thread in read(2) on its standard input); it is killed there, and the
  /// batch goes on. Before, the next job failed as "killed (SIGKILL…)".
  @Test func workerDeadBetweenJobsFailsNoJob() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs"), out = path(dir, "out")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    for (name, color) in [("a", "#FF9500"), ("b", "#34C759"), ("c", "#5856D6")] {
      try write(goodJob(name: name, color: color), to: "\(name).cfg", in: jobs)
    }
    let binary = try #require(transvidBinary())
    let process = Process()
    process.executableURL = binary
    process.arguments = ["-j", "1", "-q", "-o", out, "--report", path(dir, "report.json"), jobs]
    let stderr = Pipe()
    process.standardError = stderr
    try process.run()
    var worker: pid_t?
    #expect(eventually(within: 20) {
      worker = processes(with: [JobWorker.command, jobs]).first
      return worker != nil
    })
    if let worker { killWhileWaiting(worker, of: process) }
    let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()

    #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(text)")
    #expect(text.isEmpty)
    let files = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted()
    #expect(files == ["a.mp4", "b.mp4", "c.mp4"])
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path(dir, "report.json"))))
        as? [String: Any])
    let entries = try #require(report["jobs"] as? [[String: Any]])
    #expect(entries.map { $0["status"] as? String } == ["rendered", "rendered", "rendered"])
    #expect(eventually(within: 5) { processes(with: [JobWorker.command, jobs]).isEmpty })
  }

  /// A job alone renders in a worker too: one that runs out of memory fails
  /// with one line saying so, exit 1, and leaves no staged files. In this
  /// process it aborted with a backtrace (exit 134) and left its folder.
  @Test func aJobAloneThatRunsOutOfMemoryFailsWithOneLine() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 8192×8192 pixels: 256 MiB a bitmap, two at least; the batch itself needs far less than 450 MB.
    let job = try write(
      "canvas: { size: 4096x4096, scale: 2, fps: 10 }\noutput: { formats: [png] }\n"
        + "screens: { a: { background: \"#FF0000\" } }\ntimeline: [hold: 0.2]\n", to: "huge.cfg", in: dir)
    let run = try runInShell(#"ulimit -v 450000; exec "$0" "$@""#, ["-q", "-o", "out", job], in: dir)
    #expect(run.reason == .exit && run.status == 1, "\(run.stderr)")
    #expect(run.lines.count == 1 && run.lines.first?.hasPrefix("\(job): error: the process rendering this job ran out of memory (SIGABRT)") == true, "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: path(dir, "out")).isEmpty)
  }

  /// An image whose picture the decoder cannot get memory for is an error
  /// at its key saying so, not damage: a 51-byte GIF declaring a 16000×6000
  /// screen (96 Mpx, within the limits) under `ulimit -v` was "corrupt GIF
  /// data (get_buffer() failed)" (the hardening sweep); with the memory it
  /// renders.
  @Test func anImageTheDecoderHasNoMemoryForSaysSo() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let gif: [UInt8] =
      [0x47, 0x49, 0x46, 0x38, 0x37, 0x61, 0x80, 0x3E, 0x70, 0x17, 0x80, 0x00, 0x00, 0, 0, 0, 0, 0, 0]
      + [0x2C, 0, 0, 0, 0, 0x0A, 0x00, 0x0A, 0x00, 0x00, 0x08, 0x12]
      + [0x00, 0x01, 0x08, 0x1C, 0x48, 0xB0, 0xA0, 0xC1, 0x83, 0x08, 0x13, 0x2A, 0x5C, 0xC8, 0xB0, 0x61, 0xC2, 0x80]
      + [0x00, 0x3B]
    try Data(gif).write(to: URL(fileURLWithPath: path(dir, "wide.gif")))
    let job = try write(
      "canvas: { size: 60x100, scale: 1, fps: 10 }\noutput: { formats: [png] }\n"
        + "screens: { a: { background: \"#FF0000\", image: wide.gif } }\ntimeline: [hold: 0.2]\n", to: "wide.cfg", in: dir)
    let run = try runInShell(#"ulimit -v 450000; exec "$0" "$@""#, ["-q", "-o", "out", job], in: dir)
    #expect(run.reason == .exit && run.status == 1, "\(run.stderr)")
    #expect(
      run.lines == ["\(job):3:40: error: screens.a.image: cannot decode 'wide.gif': ran out of memory decoding its 16000×6000 pixels"],
      "\(run.stderr)")
    let plenty = try runBinary(["-q", "-o", "out", job], in: dir)
    #expect(plenty.status == 0, "\(plenty.stderr)")
  }

  /// `--job-timeout` stops a job still rendering (its worker killed), in a
  /// batch and alone; the batch's other job renders.
  @Test func jobTimeoutStopsAJob() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs"), out = path(dir, "out")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    // Minutes of work: 780×1688 px at 60 fps for 20 s.
    let slow = try write(
      goodJob(name: "slow").replacingOccurrences(of: "size: 60x100, scale: 1, fps: 10", with: "size: 390x844, scale: 2, fps: 60")
        .replacingOccurrences(of: "hold: 0.2", with: "hold: 10").replacingOccurrences(of: "duration: 0.3", with: "duration: 10"),
      to: "slow.cfg", in: jobs)
    try write(goodJob(name: "fast"), to: "fast.cfg", in: jobs)
    let said = "\(slow): error: stopped after --job-timeout 1.5 s; it was still rendering"
    let batch = try runBinary(["-j", "1", "-q", "--job-timeout", "1.5", "-o", out, jobs])
    #expect(batch.status == 1 && batch.lines == [said])
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") } == ["fast.mp4"])
    let alone = try runBinary(["-q", "--job-timeout", "1.5", "-o", out, slow])
    #expect(alone.status == 1 && alone.lines == [said])
    #expect(eventually(within: 5) { processes(with: [JobWorker.command, jobs]).isEmpty })
    // Below a millisecond, what the deadline counts in, was waited as 1 ms and said as "1e-09 s".
    for text in ["0", "-1", "1e8", "0x10", "inf", "nan", "1s", "1e-9", "0.0009"] {
      let error = #expect(throws: Options.UsageError.self) { try Options.parse(["--job-timeout", text, slow]) }
      #expect(error?.description == "option --job-timeout needs a number of seconds from 0.001 to 10000000, got '\(text)'")
    }
    #expect(try Options.parse(["--job-timeout", "0.001", slow]).jobTimeout == 0.001)
  }

  /// A worker started again is the batch's own build, even when the
  /// executable's file was replaced meanwhile (a rebuild, an upgrade): the
  /// worker is killed while it waits, so the job it was to get next goes
  /// to a new one, and both jobs render.
  @Test func workersRunTheBatchsOwnBuild() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs"), out = path(dir, "out"), copy = path(dir, "transvid")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: try #require(transvidBinary()).path, toPath: copy)
    for name in ["a", "b"] { try write(goodJob(name: name), to: "\(name).cfg", in: jobs) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: copy)
    process.arguments = ["-j", "1", "-q", "-o", out, jobs]
    let stderr = Pipe()
    process.standardError = stderr
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    var worker: pid_t?
    #expect(eventually(within: 20) {
      worker = processes(with: [JobWorker.command, jobs]).first
      return worker != nil
    })
    // The file replaced by one that renders nothing, then the worker killed: the next job needs a new one.
    let impostor = try write("#!/bin/sh\nexit 3\n", to: "impostor", in: dir)
    #expect(chmod(impostor, 0o755) == 0 && rename(impostor, copy) == 0)
    if let worker { killWhileWaiting(worker, of: process) }
    let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(try VideoReader(path: path(out, "a.mp4")).readAll().count == 5)
    #expect(try VideoReader(path: path(out, "b.mp4")).readAll().count == 5)
  }

  /// A batch killed outright (SIGKILL: no handler runs) takes its workers
  /// with it: the kernel's parent-death signal.
  @Test func workersDieWithTheirBatch() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    // Long enough that the batch is still rendering when it is killed.
    for name in ["a", "b"] {
      try write(
        goodJob(name: name).replacingOccurrences(of: "hold: 0.2", with: "hold: 30")
          .replacingOccurrences(of: "size: 60x100", with: "size: 600x1000"), to: "\(name).cfg", in: jobs)
    }
    let process = Process()
    process.executableURL = try #require(transvidBinary())
    process.arguments = ["-j", "2", "--progress", "none", "-o", path(dir, "out"), jobs]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    #expect(eventually(within: 20) { processes(with: [JobWorker.command, jobs]).count == 2 })
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(eventually(within: 5) { processes(with: [JobWorker.command, jobs]).isEmpty })
  }

  /// How a worker's end reads in its job's error, for each kind of end.
  @Test func howAWorkerEnded() {
    #expect(
      WorkerProcess.describe(status: SIGKILL, printed: "")
        == "the process rendering this job was killed (SIGKILL; the kernel sends it when memory runs out)")
    #expect(
      WorkerProcess.describe(status: SIGILL, printed: "Sources/X.swift:3: Fatal error: Index out of range\n\n")
        == "the process rendering this job crashed (SIGILL); a bug in transvid, please report it with the job: "
        + "Sources/X.swift:3: Fatal error: Index out of range")
    #expect(
      WorkerProcess.describe(status: SIGTERM, printed: "") == "the process rendering this job was stopped by SIGTERM")
    // Swift's report of a refused allocation, then its stack trace (as under `ulimit -v`).
    let refused = """
      Fatal error: failed to allocate 1339376 bytes of memory with alignment 8
      Current stack trace:
      0    libswiftCore.so                    0x00007f338235f130 swift_reportError + 33
      1    libswiftCore.so                    0x00007f338266d197 <unavailable> + 4641175
      """
    #expect(
      WorkerProcess.describe(status: SIGABRT, printed: refused)
        == "the process rendering this job ran out of memory (SIGABRT): "
        + "Fatal error: failed to allocate 1339376 bytes of memory with alignment 8")
    #expect(
      WorkerProcess.describe(status: SIGSEGV, printed: "warning: x\nCurrent stack trace:\n0    a.so    0x1 f + 1")
        == "the process rendering this job crashed (SIGSEGV); a bug in transvid, please report it with the job: warning: x")
    #expect(
      WorkerProcess.describe(status: 3 << 8, printed: "one\ntwo\nthree\nfour")
        == "the process rendering this job ended with status 3 before the job was done: two / three / four")
  }

  /// A file that makes several jobs (locales × appearances) renders each of
  /// them in a worker, each as it renders in one process (the worker once
  /// took the file's first job for every one of them).
  @Test func everyJobOfAFileRendersInAWorker() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try write(
      """
      name: ap
      canvas: { size: 60x100, scale: 1, fps: 10 }
      locales: [en, fr]
      strings: { en: { t: Hello }, fr: { t: Bonjour } }
      appearances: [light, dark]
      output: { formats: [png], png: { time: 0 } }
      screens:
        a: { background: systemBackground, views: [{ frame: [0, 0, 60, 20], text: { key: t }, textColor: label }] }
        b: { background: "#0000FF" }
      timeline:
        - push: { to: b, transition: cross-dissolve }
      """, to: "ap.cfg", in: jobs)
    try write(goodJob(), to: "good.cfg", in: jobs)
    let run = try runBinary(["-j", "2", "-q", "-o", path(dir, "batch"), jobs])
    #expect(run.status == 0, "\(run.stderr)")
    let capture = Capture()
    #expect(transvid(["-q", "-o", path(dir, "alone"), path(jobs, "ap.cfg")], capture) == 0, "\(capture.err)")
    let names = ["ap.en.light.png", "ap.en.dark.png", "ap.fr.light.png", "ap.fr.dark.png"]
    for name in names {
      let (batch, alone) = (path(path(dir, "batch"), name), path(path(dir, "alone"), name))
      #expect(FileManager.default.contents(atPath: batch) != nil, "\(name)")
      #expect(FileManager.default.contents(atPath: batch) == FileManager.default.contents(atPath: alone), "\(name)")
    }
    // Four different pictures: each locale and appearance its own.
    #expect(Set(names.map { FileManager.default.contents(atPath: path(path(dir, "batch"), $0)) }).count == 4)
  }

  /// A worker parses its job's file again: a file edited since the batch
  /// planned (and keyed) the job fails it rather than rendering other content.
  @Test func jobChangedSinceThePlan() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let file = try write(goodJob(), to: "good.cfg", in: dir)
    let options = try Options.parse([file])
    let planned = try #require(BatchPlan.place(file: file, options: options).first)
    var request = JobWorker.Request(
      file: file, unit: 0, spec: JobWorker.digest(ofJobText: OutputCache.jobText(of: planned)), formats: ["mp4"], staged: [path(dir, "s.mp4")],
      outputs: [path(dir, "good.mp4")])
    try write(goodJob(color: "#FF0000"), to: "good.cfg", in: dir)
    guard case .failed(let description, nil) = JobWorker.render(request, options: options) else {
      Issue.record("an edited job rendered")
      return
    }
    #expect(description == "\(file): error: the job file changed while the batch ran; run the batch again")
    #expect(!FileManager.default.fileExists(atPath: path(dir, "s.mp4")))
    // Unchanged, it renders: a reply when loaded, one per frame, one for the output.
    request.spec = JobWorker.digest(ofJobText: OutputCache.jobText(of: try #require(BatchPlan.place(file: file, options: options).first)))
    var replies: [String] = []
    guard case .done = JobWorker.render(request, options: options, send: { replies.append("\($0)") }) else {
      Issue.record("the job did not render")
      return
    }
    #expect(replies.count == 7 && replies.first == "started")
    #expect(replies[1...5] == ["frame(0)", "frame(1)", "frame(2)", "frame(3)", "frame(4)"])
    #expect(try VideoReader(path: path(dir, "s.mp4")).readAll().count == 5)
  }

  /// A worker is started by a batch only: by hand it refuses, and says so.
  @Test func workerByHandRefuses() throws {
    let run = try runBinary([JobWorker.command])
    #expect(run.status == 2)
    #expect(run.lines == ["transvid: '__worker' is started by a batch, not by hand"])
  }
}
