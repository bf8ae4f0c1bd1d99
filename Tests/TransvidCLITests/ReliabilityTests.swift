// Issue 9: bad input never crashes transvid or loses output.
//
// - The broken-job corpus (`Tests/Corpus/jobs`, each with its `.expected`
//   line) runs through the built executable in one batch beside a good job.
// - Limits flags reach the parser.
// - A render killed with SIGKILL at random moments leaves the previous output
//   or none, never a partial one; the next run removes the stale staging folder.
// - A full disk is reported as such (a 64 KiB tmpfs; needs root).
// - MP4 and GIF bytes do not depend on the run, `-j` or compositor threads.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs
import Media
import Raster
import Rendering
import Testing
import TransvidCLI
import TestSupport

/// `Tests/Corpus`.
let corpusDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Corpus").path

/// What a run of the executable did.
struct BinaryRun {
  var status: Int32
  var reason: Process.TerminationReason
  var stderr: String
  var lines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs the built `transvid` with `arguments` and waits for it.
func runBinary(_ arguments: [String]) throws -> BinaryRun {
  let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
  let process = Process()
  process.executableURL = binary
  process.arguments = arguments
  let stderr = Pipe()
  process.standardError = stderr
  process.standardOutput = FileHandle.nullDevice
  try process.run()
  let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return BinaryRun(status: process.terminationStatus, reason: process.terminationReason, stderr: text)
}

/// A valid 5-frame job (60×100 px, 10 fps).
func goodJob(name: String = "good", color: String = "#FF9500", formats: String = "[mp4]") -> String {
  """
  name: \(name)
  canvas: { size: 60x100, scale: 1, fps: 10 }
  output: { formats: \(formats), mp4: { crf: 23, preset: ultrafast } }
  screens:
    list:
      background: "#F2F2F7"
      views:
        - { id: row, frame: [5, 10, 50, 20], color: "\(color)", corner: 4 }
    detail:
      background: "#FFFFFF"
  timeline:
    - hold: 0.2
    - push: { to: detail, transition: circle-spread, duration: 0.3 }

  """
}

@Suite(.serialized) struct ReliabilityTests {
  // MARK: - The corpus in one batch

  /// Every broken job fails with its own message and writes nothing; the good
  /// job beside them renders; the process exits 1 (no crash, no signal).
  @Test func corpusInOneBatch() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs"), out = path(dir, "out"), report = path(dir, "report.json")
    try FileManager.default.copyItem(atPath: path(corpusDirectory, "jobs"), toPath: jobs)
    // The image-* jobs name `../images/…`.
    try FileManager.default.copyItem(atPath: path(corpusDirectory, "images"), toPath: path(dir, "images"))
    let good = try write(goodJob(), to: "good.cfg", in: dir)

    // Expected lines: the corpus's, then a few that cannot live in git.
    var expected: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: jobs) where name.hasSuffix(".expected") {
      let file = path(jobs, (name as NSString).deletingPathExtension + ".cfg")
      let line = try String(contentsOfFile: path(jobs, name), encoding: .utf8).trimmingCharacters(in: .newlines)
      expected[file] = line.replacingOccurrences(of: "{file}", with: file).replacingOccurrences(of: "{out}", with: out)
        .replacingOccurrences(of: "{good}", with: good)
      try FileManager.default.removeItem(atPath: path(jobs, name))
    }
    let big = path(jobs, "bytes-too-big.cfg")
    try Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1).write(to: URL(fileURLWithPath: big))
    expected[big] = "\(big):1:1: error: the job file is larger than 1 MiB; is it a job file?"
    // A folder named like a job file is a folder, not a job: nothing is said of it.
    let folder = path(jobs, "read-folder.cfg")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let loop = path(jobs, "read-symlink-loop.cfg")
    try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "read-symlink-loop.cfg")
    expected[loop] = "\(loop):1:1: error: cannot read job file: Too many levels of symbolic links"
    let dangling = path(jobs, "read-dangling-symlink.cfg")
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere/job.cfg")
    expected[dangling] = "\(dangling):1:1: error: cannot read job file: No such file or directory"
    // Images that are not regular files: a FIFO (would block a plain read
    // forever) and a link to /dev/zero (would never end), beside the others.
    let template = try String(contentsOfFile: path(corpusDirectory, "jobs/image-folder.cfg"), encoding: .utf8)
    #expect(mkfifo(path(dir, "images/fifo.png"), 0o644) == 0)
    try FileManager.default.createSymbolicLink(atPath: path(dir, "images/zero.png"), withDestinationPath: "/dev/zero")
    for (name, image, kind) in [("fifo", "fifo.png", "a FIFO"), ("symlink-dev-zero", "zero.png", "a character device")] {
      let file = try write(
        template.replacingOccurrences(of: "image: ../images", with: "image: ../images/\(image)"), to: "image-\(name).cfg",
        in: jobs)
      expected[file] = "\(file):7:5: error: screens.list.image: cannot read '../images/\(image)': not a regular file (\(kind))"
    }
    #expect(expected.count >= 50)

    // The image-* jobs reach `../images`, and /dev for the device cases:
    // outside their folder, so allowed by name (the path-* jobs stay refused).
    let run = try runBinary([
      good, jobs, "-o", out, "-j", "2", "-q", "--report", report, "--allow-outside", path(dir, "images"),
      "--allow-outside", "/dev",
    ])
    #expect(run.reason == .exit && run.status == 1, "\(run.reason) \(run.status): \(run.stderr.suffix(2000))")
    var printed: [String: String] = [:]
    for line in run.lines {
      guard let file = expected.keys.first(where: { line.hasPrefix($0 + ":") }) else {
        Issue.record("unexpected line: \(line)")
        continue
      }
      #expect(printed[file] == nil, "two lines for \(file)")
      printed[file] = line
    }
    for (file, line) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(printed[file] == line, "\((file as NSString).lastPathComponent)")
    }

    // Only the good job wrote anything, and its video is whole.
    #expect(files(in: out).keys.sorted() == ["good.mp4"])
    #expect(allEntries(in: out).filter { $0.contains("transvid-partial") }.isEmpty)
    let reader = try VideoReader(path: path(out, "good.mp4"))
    #expect(try reader.readAll().count == 5)
    let entries = try reportJobs(report)
    #expect(entries.count == expected.count + 1)
    #expect(entries.filter { $0["status"] as? String == "failed" }.count == expected.count)
    #expect(entries.first { $0["file"] as? String == good }?["status"] as? String == "rendered")
  }

  // MARK: - Limits

  @Test func limitFlagsReachTheParser() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(goodJob(), to: "good.cfg", in: dir)
    let out = path(dir, "out")
    for (flags, message) in [
      (["--max-frames", "4"], "\(job):11:1: error: timeline: 5 frames (0.5 s at 10 fps); at most 4 frames per job (raise the limit with --max-frames)"),
      (["--max-pixels=29999"], "\(job):11:1: error: timeline: 5 frames of 60x100 pixels is 30000 pixels; at most 29999 per job (raise the limit with --max-pixels)"),
      (["--max-layer-pixels", "11999"],
       "\(job):9:3: error: screens.detail: the job's screens (a canvas each), text frames and flown views come to more than 11999 pixels, "
        + "all held while it renders (raise the limit with --max-layer-pixels)"),
      (["--max-side", "99"], "\(job):2:17: error: canvas.size: 60x100 points at scale 1 is 60x100 pixels; at most 99 per side (raise the limit with --max-side)"),
      (["--max-side", "7"], "\(job):2:17: error: canvas.size: 60x100 points at scale 1 is 60x100 pixels; at most 7 per side (raise the limit with --max-side)"),
    ] {
      let capture = Capture()
      #expect(transvid([job, "-o", out, "-q"] + flags, capture) == 1)
      #expect(capture.err == [message])
    }
    #expect(files(in: out).isEmpty)
    #expect(
      transvid([job, "-o", out, "-q", "--max-frames", "5", "--max-pixels", "30000", "--max-side", "100", "--max-layer-pixels", "12000"])
        == 0)
    #expect(files(in: out).keys.sorted() == ["good.mp4"])

    // At the most --max-side takes, the error says so rather than to raise it.
    let wide = try write(goodJob(name: "wide").replacingOccurrences(of: "size: 60x100, scale: 1", with: "size: 8200x10, scale: 2"), to: "wide.cfg", in: dir)
    for (side, advice) in [("16383", "raise the limit with --max-side"), ("16384", "16384 is the most --max-side allows")] {
      let capture = Capture()
      #expect(transvid([wide, "-o", out, "-q", "--max-side", side], capture) == 1)
      #expect(capture.err == ["\(wide):2:17: error: canvas.size: 8200x10 points at scale 2 is 16400x20 pixels; at most \(side) per side (\(advice))"])
    }

    let capture = Capture()
    #expect(transvid([job, "--max-side", "20000"], capture) == 2)
    #expect(capture.err == ["transvid: option --max-side allows at most 16384 pixels, got '20000'\nRun 'transvid --help' for usage."])
    #expect(transvid([job, "--max-frames", "0"]) == 2)
  }

  // MARK: - Nothing lost

  /// 20 renders killed with SIGKILL 50–800 ms after launch: the output path
  /// holds the previous file (when there was one), the new complete one, or
  /// nothing; never a partial file. The next run clears the staging folders
  /// the killed processes left.
  @Test func sigkillNeverLeavesAPartialOutput() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 300 frames: the kills below fall within the time a render takes here.
    func victim(_ color: String) -> String {
      """
      name: victim
      canvas: { size: 48x80, scale: 1, fps: 60 }
      output: { formats: [mp4], mp4: { crf: 23, preset: ultrafast } }
      screens:
        list:
          background: "#F2F2F7"
          views:
            - { id: row, frame: [4, 8, 40, 20], color: "\(color)", corner: 4 }
        detail:
          background: "#FFFFFF"
      timeline:
        - hold: 0.5
        - push: { to: detail, transition: circle-spread, origin: [4, 8, 40, 20], duration: 2 }
        - hold: 0.5
        - pop: { duration: 2 }

      """
    }
    let old = try write(victim("#FF9500"), to: "old.cfg", in: dir)
    let new = try write(victim("#34C759"), to: "new.cfg", in: dir)
    let reference = path(dir, "reference")
    #expect(try runBinary([old, "-o", path(reference, "old"), "-q"]).status == 0)
    let (run, render) = try timed { try runBinary([new, "-o", path(reference, "new"), "-q"]) }
    #expect(run.status == 0)
    let oldBytes = try #require(FileManager.default.contents(atPath: path(reference, "old/victim.mp4")))
    let newBytes = try #require(FileManager.default.contents(atPath: path(reference, "new/victim.mp4")))
    #expect(oldBytes != newBytes)
    #expect(try VideoReader(path: path(reference, "new/victim.mp4")).frameCount == 300)

    let binary = try #require(transvidBinary())
    var generator = SplitMix64(seed: 9)
    var outcomes: [String: Int] = [:]
    for round in 0..<20 {
      let out = path(dir, "out-\(round)")
      let target = path(out, "victim.mp4")
      let hadPrevious = round % 2 == 0
      if hadPrevious {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try oldBytes.write(to: URL(fileURLWithPath: target))
      }
      let process = Process()
      process.executableURL = binary
      process.arguments = [new, "-o", out, "-q", "--force"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(UInt32.random(in: killMoments(render: render), using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()

      let found = FileManager.default.contents(atPath: target)
      switch found {
      case nil:
        #expect(!hadPrevious, "round \(round): the previous output is gone")
        outcomes["none", default: 0] += 1
      case oldBytes?:
        #expect(hadPrevious)
        outcomes["previous", default: 0] += 1
      case newBytes?:
        outcomes["new", default: 0] += 1
      default:
        Issue.record("round \(round): a partial or foreign file of \(found?.count ?? 0) bytes at the output path")
      }
      #expect(files(in: out).keys.allSatisfy { $0 == "victim.mp4" }, "round \(round): \(allEntries(in: out))")
    }
    #expect(outcomes.values.reduce(0, +) == 20, "\(outcomes)")
    print("SIGKILL outcomes at the output path: \(outcomes.sorted { $0.key < $1.key })")

    // The next run in a folder a killed process left removes its staging folder.
    let stale = (0..<20).map { path(dir, "out-\($0)") }.filter { out in
      allEntries(in: out).contains { $0.hasPrefix(".transvid-partial-") }
    }
    if let out = stale.first {
      #expect(try runBinary([new, "-o", out, "-q"]).status == 0)
      #expect(!allEntries(in: out).contains { $0.hasPrefix(".transvid-partial-") }, "\(allEntries(in: out))")
      #expect(FileManager.default.contents(atPath: path(out, "victim.mp4")) == newBytes)
    }
  }

  /// Staging folders of dead processes go; those of live ones stay.
  @Test func staleStagingFoldersOfDeadProcessesAreRemoved() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(goodJob(), to: "good.cfg", in: dir)
    let out = path(dir, "out")
    // A pid that surely ended: a child that has exited (and been reaped).
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    let dead = child.processIdentifier
    let host = StaleStaging.host
    let otherHost = ".transvid-partial-\(host)x-\(dead)"  // another machine's: its pid means nothing here
    // Another pid namespace of this host (a container sharing its name): nor there.
    let otherNamespace = ".transvid-partial-\(StaleStaging.namespace)0-\(dead)"
    for name in [
      ".transvid-partial-\(host)-\(dead)", ".transvid-partial-\(host)-\(dead).cancelled", ".transvid-partial-\(host)-1",
      ".transvid-partial-x", otherHost, otherNamespace, StaleStaging.folderName(pid: dead),
      StaleStaging.folderName(pid: dead) + ".cancelled",
    ] {
      try FileManager.default.createDirectory(atPath: path(out, name), withIntermediateDirectories: true)
      try Data("half a file".utf8).write(to: URL(fileURLWithPath: path(path(out, name), "victim.mp4.tmp-1")))
    }
    #expect(transvid([job, "-o", out, "-q"]) == 0)
    #expect(
      allEntries(in: out).filter { !$0.contains("/") && $0.hasPrefix(".transvid-partial") }.sorted()
        == [".transvid-partial-\(host)-1", otherHost, otherNamespace, ".transvid-partial-x"].sorted())
  }

  /// A full disk fails the job with the system's words for it and leaves
  /// nothing behind. Needs root (it mounts a 64 KiB tmpfs).
  @Test func fullDiskIsReportedAsSuch() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let disk = path(dir, "disk")
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    let mount = Process()
    mount.executableURL = URL(fileURLWithPath: "/bin/mount")
    mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk]
    mount.standardError = FileHandle.nullDevice
    try mount.run()
    mount.waitUntilExit()
    guard mount.terminationStatus == 0 else {
      // Not root, or no mount namespace: nothing to test here.
      return
    }
    defer {
      let umount = Process()
      umount.executableURL = URL(fileURLWithPath: "/bin/umount")
      umount.arguments = [disk]
      try? umount.run()
      umount.waitUntilExit()
    }
    // 60 KiB of filler leaves 4 KiB; the job's MP4 is about 7.5 KB, its GIF 21 KB.
    try Data(count: 60 << 10).write(to: URL(fileURLWithPath: path(disk, "filler")))
    let job = try write(
      goodJob(name: "big", formats: "[mp4, gif]").replacingOccurrences(of: "60x100", with: "160x280")
        .replacingOccurrences(of: "duration: 0.3", with: "duration: 2").replacingOccurrences(of: "fps: 10", with: "fps: 30"),
      to: "big.cfg", in: dir)
    let out = path(disk, "out")
    let capture = Capture()
    #expect(transvid([job, "-o", out, "-q"], capture) == 1)
    #expect(capture.err == ["\(job): error: write mp4 trailer to '\(out)/big.mp4': No space left on device"])
    #expect(allEntries(in: out) == [])
    let gif = Capture()
    #expect(transvid([job, "-o", out, "-q", "--format", "gif"], gif) == 1)
    #expect(gif.err.count == 1 && gif.err[0].hasSuffix("No space left on device"), "\(gif.err)")
    #expect(allEntries(in: out) == [])
  }

  // MARK: - Determinism

  /// MP4 and GIF bytes are the same across runs and across -j 1 / -j 2.
  @Test func mp4AndGIFAreByteIdenticalAcrossRunsAndWorkerCounts() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    for (i, color) in ["#FF9500", "#34C759", "#AF52DE"].enumerated() {
      try write(goodJob(name: "job-\(i)", color: color, formats: "[mp4, gif]"), to: "job-\(i).cfg", in: jobs)
    }
    var runs: [[String: Data]] = []
    for (name, workers) in [("a", "1"), ("b", "1"), ("c", "2")] {
      #expect(transvid([jobs, "-o", path(dir, name), "-j", workers, "-q"]) == 0)
      runs.append(files(in: path(dir, name)))
    }
    #expect(runs[0].count == 6)
    #expect(runs[0].keys.filter { $0.hasSuffix(".gif") }.count == 3)
    #expect(runs[1] == runs[0])
    #expect(runs[2] == runs[0])
  }

  /// Every frame of a job composites to the same pixels on 1 or 3 threads.
  @Test func framesDoNotDependOnCompositorThreads() throws {
    let spec = try JobParser.parse(goodJob().replacingOccurrences(of: "60x100, scale: 1", with: "60x100, scale: 2"), file: "t.cfg")
    let renderer = FrameRenderer(spec: spec)
    var compared = 0
    for n in 0..<renderer.frameCount {
      guard let layer = renderer.layers(ofFrame: n) else { continue }
      var images: [Bitmap] = []
      for threads in [1, 3] {
        var bitmap = Bitmap(width: 120, height: 200, fill: spec.canvas.background.premultipliedPixel)
        Compositor(scale: 2, threadCount: threads).render(layer, into: &bitmap)
        images.append(bitmap)
      }
      #expect(images[0].bytes == images[1].bytes, "frame \(n)")
      compared += 1
    }
    #expect(compared >= 2)
  }
}

/// A small seeded generator, so the kill times are the same on every run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
