// Issue 20, through the built executable: command-line integer edges never
// trap or allocate without bound and say what is wrong; `frame` takes the
// limit flags its messages name and says when a time is past the end; an
// empty folder says "no jobs found"; control characters in paths are escaped
// on the terminal; notes for a gesture that cancels under the 0.5 rule and for
// text the renderer cannot shape; the JUnit class name of `transvid .`; and a
// batch with hostile jobs beside good ones renders the good ones, writes its
// report and exits 1. (The job-file findings are corpus files in
// `Tests/Corpus/jobs`, replayed by `ReliabilityTests.corpusInOneBatch`.)

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Media
import Testing

/// What a run of the executable printed and how it ended.
struct ExecutableRun {
  var status: Int32
  var reason: Process.TerminationReason
  var stdout: String
  var stderr: String
  var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs the built `transvid` in `directory` with `arguments` and `environment`
/// (added to an environment without scheduler variables).
/// (`executable`: a program that runs transvid, given its path among the arguments.)
func runTransvid(
  _ arguments: [String], in directory: String, environment: [String: String] = [:], executable: String? = nil
) throws -> ExecutableRun {
  let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
  let process = Process()
  process.executableURL = executable.map(URL.init(fileURLWithPath:)) ?? binary
  process.arguments = arguments
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SLURM_") && $0.key != "JOB_COMPLETION_INDEX" }
  env.merge(environment) { $1 }
  process.environment = env
  // Standard output to a file (it is short), standard error through a pipe.
  let outPath = path(directory, ".stdout-\(UUID().uuidString)")
  _ = FileManager.default.createFile(atPath: outPath, contents: nil)
  defer { try? FileManager.default.removeItem(atPath: outPath) }
  let out = try #require(FileHandle(forWritingAtPath: outPath))
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let errData = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  try out.close()
  let outData = FileManager.default.contents(atPath: outPath) ?? Data()
  return ExecutableRun(
    status: process.terminationStatus, reason: process.terminationReason,
    stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
}

/// `runTransvid`, the process held to its files' permissions: as root, it
/// runs without the capabilities that read and write any file (`setpriv`).
func runTransvidUnprivileged(_ arguments: [String], in directory: String) throws -> ExecutableRun {
  guard getuid() == 0 else { return try runTransvid(arguments, in: directory) }
  let binary = try #require(transvidBinary())
  return try runTransvid(
    ["--bounding-set", "-dac_override,-dac_read_search", binary.path] + arguments, in: directory,
    executable: "/usr/bin/setpriv")
}

/// Whether `runTransvidUnprivileged` can hold transvid to its files'
/// permissions: as root, whether `setpriv` can drop those capabilities
/// (it needs CAP_SETPCAP, which a container may not grant).
let canRunUnprivileged: Bool = {
  guard getuid() == 0 else { return true }
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return false }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
  process.arguments = ["--bounding-set", "-dac_override,-dac_read_search", "/bin/true"]
  guard (try? process.run()) != nil else { return false }
  process.waitUntilExit()
  return process.terminationStatus == 0
}()

@Suite(.serialized) struct HardeningTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var label: String
    var arguments: [String]
    var environment: [String: String] = [:]
    var status: Int32
    /// Standard error, line by line.
    var stderr: [String]
    /// Text standard output must contain, if any.
    var stdout: String? = nil
    var testDescription: String { label }
  }

  static let usage = "Run 'transvid --help' for usage."

  /// `good.cfg` (5 frames at 10 fps) and an empty folder `empty` are in the
  /// folder each case runs in.
  static let cases: [Case] = [
    Case(
      label: "frame --time 1e18 (was SIGILL converting to Int)",
      arguments: ["frame", "good.cfg", "--time", "1e18", "-o", "f.png"], status: 0,
      stderr: ["transvid: note: --time 1e+18 is past the end of good.cfg (5 frames, the last at 0.40 s); writing the last frame"],
      stdout: "f.png  frame 4 of 5  60x100"),
    Case(
      label: "frame --time past the end says so",
      arguments: ["frame", "good.cfg", "--time", "99", "-o", "f.png"], status: 0,
      stderr: ["transvid: note: --time 99 is past the end of good.cfg (5 frames, the last at 0.40 s); writing the last frame"],
      stdout: "f.png  frame 4 of 5  60x100"),
    // The last frame is on screen until 0.5 s: 0.47 rounds to frame 5, but is within the video.
    Case(
      label: "frame --time in the last frame's time on screen is not past the end",
      arguments: ["frame", "good.cfg", "--time", "0.47", "-o", "f.png"], status: 0, stderr: [],
      stdout: "f.png  frame 4 of 5  60x100"),
    Case(
      label: "frame --time at the end is past it",
      arguments: ["frame", "good.cfg", "--time", "0.5", "-o", "f.png"], status: 0,
      stderr: ["transvid: note: --time 0.5 is past the end of good.cfg (5 frames, the last at 0.40 s); writing the last frame"],
      stdout: "f.png  frame 4 of 5  60x100"),
    Case(
      label: "frame takes --max-side, as its messages say",
      arguments: ["frame", "good.cfg", "--time", "0.1", "-o", "f.png", "--max-side", "50"], status: 1,
      stderr: [
        "good.cfg:2:17: error: canvas.size: 60x100 points at scale 1 is 60x100 pixels; at most 50 per side (raise the limit with --max-side)"
      ]),
    Case(
      label: "frame: a near miss of a flag",
      arguments: ["frame", "good.cfg", "--time", "0.1", "-o", "f.png", "--max-sid", "100"], status: 2,
      stderr: ["transvid: unexpected argument '--max-sid' for 'frame'; did you mean '--max-side'?", usage]),
    Case(
      label: "--shard 1/Int.max (was SIGSEGV)",
      arguments: ["good.cfg", "--shard", "1/9223372036854775807", "-o", "out", "-q"], status: 0, stderr: []),
    Case(
      label: "--shard 1/1000000000 (was 7.9 GB)",
      arguments: ["good.cfg", "--shard", "1/1000000000", "-o", "out", "-q"], status: 0, stderr: []),
    Case(
      label: "plan --shard-count Int.max (was an abort)",
      arguments: ["plan", "good.cfg", "--shard-count", "9223372036854775807"], status: 0, stderr: [],
      stdout: "1/9223372036854775807  good.cfg  5 frames 60x100"),
    Case(
      label: "--shard -1/3 names the value",
      arguments: ["good.cfg", "--shard", "-1/3"], status: 2,
      stderr: ["transvid: --shard needs K/N with 1 ≤ K ≤ N (K is 1-based), got '-1/3'", usage]),
    Case(
      label: "-j -3 names the value",
      arguments: ["good.cfg", "-j", "-3"], status: 2,
      stderr: ["transvid: option -j needs a whole number ≥ 1, got '-3'", usage]),
    Case(
      label: "SLURM_ARRAY_TASK_ID=Int.min (was an overflow trap)",
      arguments: ["good.cfg", "-o", "out"],
      environment: [
        "SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1",
      ], status: 2,
      stderr: ["transvid: SLURM_ARRAY_TASK_ID=-9223372036854775808 minus SLURM_ARRAY_TASK_MIN=1 is not a shard index"]),
    Case(
      label: "curve of an undamped spring (printed -nan and exited 0)",
      arguments: ["curve", "spring(mass: 1, stiffness: 100, damping: 0)"], status: 2,
      stderr: [
        "transvid: 'spring(mass: 1, stiffness: 100, damping: 0)' never comes to rest (it has no damping); give --duration SECONDS",
        usage,
      ]),
    Case(
      label: "curve of UIKit's spring without a duration names --duration (the README's way to give one)",
      arguments: ["curve", "spring(damping: 0.7, velocity: 0)"], status: 2,
      stderr: [
        "transvid: spring: give 'duration' (the UIKit form: spring(damping: 0.55, velocity: 1.818, duration: 0.75)) or "
          + "'stiffness' (the CA form: spring(mass: 1, stiffness: 100, damping: 10, velocity: 0)); or give --duration "
          + "SECONDS, which UIKit's form without a duration of its own takes",
        usage,
      ]),
    Case(
      label: "an empty folder says no jobs found",
      arguments: ["empty"], status: 1,
      stderr: ["transvid: no jobs found in empty (a folder stands for the *.cfg, *.yaml, *.yml files below it)"]),
    Case(
      label: "an empty folder beside a job says no jobs found too (it was passed over)",
      arguments: ["good.cfg", "empty", "-o", "out"], status: 1,
      stderr: ["transvid: no jobs found in empty (a folder stands for the *.cfg, *.yaml, *.yml files below it)"]),
    Case(
      label: "a loop of links named on the command line says so (it said 'no such file')",
      arguments: ["loop1.cfg"], status: 2,
      stderr: ["transvid: cannot read 'loop1.cfg': Too many levels of symbolic links"]),
    Case(
      label: "--formats: did you mean",
      arguments: ["--formats", "gif", "good.cfg"], status: 2,
      stderr: ["transvid: unknown option '--formats'; did you mean '--format'?", usage]),
    Case(
      label: "--format gfi: did you mean",
      arguments: ["--format", "gfi", "good.cfg"], status: 2,
      stderr: ["transvid: unknown format 'gfi'; did you mean 'gif'?", usage]),
  ]

  @Test(arguments: cases)
  func commandLineEdge(_ edge: Case) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(), to: "good.cfg", in: dir)
    try FileManager.default.createDirectory(atPath: path(dir, "empty"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: path(dir, "loop1.cfg"), withDestinationPath: "loop2.cfg")
    try FileManager.default.createSymbolicLink(atPath: path(dir, "loop2.cfg"), withDestinationPath: "loop1.cfg")
    let start = ContinuousClock.now
    let run = try runTransvid(edge.arguments, in: dir, environment: edge.environment)
    #expect(run.reason == .exit && run.status == edge.status, "\(run.reason) \(run.status): \(run.stderr)")
    #expect(run.errorLines == edge.stderr)
    if let stdout = edge.stdout { #expect(run.stdout.contains(stdout), "\(run.stdout)") }
    // None of them renders more than the 5-frame job: seconds, not minutes.
    #expect(ContinuousClock.now - start < .seconds(60))
  }

  /// `--format` is checked like the job's own formats: a GIF 16 px wide
  /// (its `gif.width`) of a 2×8192 canvas would be 16×65536 pixels (GIF
  /// sides end at 65535); as an MP4 the job is fine.
  @Test func formatsFromTheCommandLineAreSizedToo() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(
      goodJob(name: "thin").replacingOccurrences(of: "size: 60x100", with: "size: 2x8192")
        .replacingOccurrences(of: "[5, 10, 50, 20]", with: "[0, 10, 2, 20]")
        .replacingOccurrences(of: "mp4: { crf: 23, preset: ultrafast }", with: "mp4: { crf: 23, preset: ultrafast }, gif: { width: 16 }"),
      to: "thin.cfg", in: dir)
    #expect(try runTransvid(["thin.cfg", "-o", "out", "-q"], in: dir).status == 0)
    let run = try runTransvid(["thin.cfg", "-o", "out", "-q", "--format", "gif"], in: dir)
    #expect(run.status == 1)
    #expect(
      run.errorLines == [
        "thin.cfg:3:78: error: output.gif.width: the GIF would be 16x65536 pixels; at most 65535 per side "
          + "(GIF stores sides in 16 bits; --max-side cannot raise it)"
      ])
  }

  /// A video over its codec's largest level is refused before anything is
  /// drawn, at the key that made it big: no player is bound to decode it,
  /// and x264 took 15 GB for an 8192×8192 frame. Other formats of the same
  /// canvas are fine, and an 8192×4352 video (the levels' largest) is too.
  @Test func aVideoNoPlayerDecodesIsRefused() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(name: "big").replacingOccurrences(of: "size: 60x100", with: "size: 8192x8192"), to: "big.cfg", in: dir)
    let mp4 = try runTransvid(["check", "big.cfg"], in: dir)
    #expect(mp4.status == 1)
    #expect(mp4.errorLines.first == "big.cfg:2:17: error: canvas.size: the mp4 would be 8192x8192 pixels (262144 macroblocks); "
      + "H.264's largest level decodes at most 139264 (8192x4352) and 16880 per side, so players could not play it: give output.mp4.width or height")
    let webm = try runTransvid(["check", "big.cfg", "--format", "webm"], in: dir)
    #expect(webm.errorLines.first?.hasPrefix("big.cfg:2:17: error: canvas.size: the webm would be 8192x8192 pixels; VP9's largest level") == true, "\(webm.errorLines)")
    #expect(try runTransvid(["check", "big.cfg", "--format", "png,apng"], in: dir).status == 0)
    // A stage that makes the frame that big is blamed, not the small canvas inside it.
    try write(goodJob(name: "staged") + "stage:\n  device: none\n  size: [8192, 8192]\n", to: "staged.cfg", in: dir)
    let staged = try runTransvid(["check", "staged.cfg"], in: dir)
    #expect(staged.errorLines.first?.hasPrefix("staged.cfg:16:9: error: stage.size: the mp4 would be 8192x8192 pixels") == true, "\(staged.errorLines)")
    try write(
      goodJob(name: "padded").replacingOccurrences(of: "size: 60x100", with: "size: 4000x4000") + "stage: { padding: 1000 }\n",
      to: "padded.cfg", in: dir)
    let padded = try runTransvid(["check", "padded.cfg"], in: dir)
    #expect(padded.errorLines.first?.hasPrefix("padded.cfg:14:19: error: stage.padding: the mp4 would be 6000x6000 pixels") == true, "\(padded.errorLines)")
    try write(goodJob(name: "wide").replacingOccurrences(of: "size: 60x100", with: "size: 8192x4352"), to: "wide.cfg", in: dir)
    #expect(try runTransvid(["check", "wide.cfg", "--format", "mp4,webm"], in: dir).status == 0)
    try write(goodJob(name: "up").replacingOccurrences(of: "mp4: { crf: 23, preset: ultrafast }", with: "mp4: { height: 8192 }"), to: "up.cfg", in: dir)
    let scaled = try runTransvid(["check", "up.cfg"], in: dir)
    #expect(scaled.errorLines == [
      "up.cfg:3:42: error: output.mp4.height: the mp4 would be 4916x8192 pixels (157696 macroblocks); H.264's largest level "
        + "decodes at most 139264 (8192x4352) and 16880 per side, so players could not play it: give a smaller width or height"
    ])
    // The outputs the run writes are the ones checked: a 1x1 canvas is no MP4, but --format png makes
    // none (it failed on the job's own mp4), nor is a GIF too wide for the limits made by --format png.
    try write(goodJob(name: "dot").replacingOccurrences(of: "size: 60x100", with: "size: 1x1"), to: "dot.cfg", in: dir)
    #expect(try runTransvid(["check", "dot.cfg"], in: dir).errorLines.first?.hasSuffix("an MP4 needs at least 2x2 (H.264 4:2:0 has even sides)") == true)
    #expect(try runTransvid(["dot.cfg", "--format", "png", "-o", "out"], in: dir).status == 0)
    try write(
      goodJob(name: "wide-gif").replacingOccurrences(of: "formats: [mp4]", with: "formats: [gif], gif: { width: 8000 }"),
      to: "wide-gif.cfg", in: dir)
    #expect(try runTransvid(["check", "wide-gif.cfg"], in: dir).status == 1)
    #expect(try runTransvid(["check", "wide-gif.cfg", "--format", "png"], in: dir).status == 0)
  }

  /// A canvas `--max-side 16384` allows but FFmpeg cannot encode fails when
  /// parsed (it rendered for 19 s, then failed in the encoder).
  @Test func encoderPictureLimitIsKnownUpFront() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(name: "huge").replacingOccurrences(of: "size: 60x100", with: "size: 16384x16384"), to: "huge.cfg", in: dir)
    let start = ContinuousClock.now
    let run = try runTransvid(["huge.cfg", "-o", "out", "--max-side", "16384"], in: dir)
    #expect(run.status == 1)
    #expect(
      run.errorLines == [
        "huge.cfg:2:17: error: canvas.size: the canvas would be 16384x16384 pixels; "
          + "FFmpeg encodes at most (width + 128)·(height + 128) < 268435455"
      ])
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  /// A timeline of many short steps costs each step once: 16 000 holds of
  /// 0.01 s (160 frames at 1 fps, a 240 kB job file) and 10 000 push/pop
  /// pairs render in seconds. Each step's resting images were appended to
  /// arrays copied per step, so the first took 247 s, the second over a
  /// minute, holding a nightly batch for hours with no limit reached.
  @Test func manyStepsCostEachStepOnce() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let head = """
      canvas: { size: 40x60, scale: 1, fps: 1 }
      output: { formats: [mp4] }
      screens:
        a: { background: "#FF0000" }
        b: { background: "#00FF00" }
      timeline:

      """
    try write("name: holds\n" + head + String(repeating: "  - hold: 0.01\n", count: 16_000), to: "holds.cfg", in: dir)
    try write(
      "name: pairs\n" + head
        + String(repeating: "  - push: { to: b, transition: push, duration: 0.01 }\n  - pop: { duration: 0.01 }\n", count: 10_000),
      to: "pairs.cfg", in: dir)
    let start = ContinuousClock.now
    let run = try runTransvid(["holds.cfg", "pairs.cfg", "-o", "out", "-q", "-j", "1"], in: dir)
    #expect(run.reason == .exit && run.status == 0, "\(run.reason) \(run.status): \(run.stderr)")
    #expect(ContinuousClock.now - start < .seconds(60))
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/holds.mp4")))
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/pairs.mp4")))
  }

  /// `frame` writes the last frame for a time past the end.
  @Test func framePastTheEndIsTheLastFrame() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(), to: "good.cfg", in: dir)
    #expect(try runTransvid(["frame", "good.cfg", "--time", "1e300", "-o", "late.png"], in: dir).status == 0)
    #expect(try runTransvid(["frame", "good.cfg", "--time", "0.4", "-o", "last.png"], in: dir).status == 0)
    let late = try ImageDecoder.decode(path: path(dir, "late.png"))
    let last = try ImageDecoder.decode(path: path(dir, "last.png"))
    #expect(late.bytes == last.bytes)
  }

  /// Control characters in a path reach the terminal escaped.
  @Test func controlCharactersInPathsAreEscaped() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write("name: x\ncanvas: { fps: 0 }\n", to: "bad\u{1B}[31mname\u{7}.cfg", in: dir)
    let run = try runTransvid(["bad\u{1B}[31mname\u{7}.cfg", "-o", "out"], in: dir)
    #expect(run.status == 1)
    #expect(run.errorLines.first == "bad\\u{1b}[31mname\\u{7}.cfg:2:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got 0")
    #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  /// A gesture that ends under 0.5 without `release:` is said, with its
  /// place, when the job renders; Thai, shaped, and emoji, drawn in colour,
  /// need no note.
  @Test func notesSayWhatHappens() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 520 of 1194 points, the issue's iPad example, as 26 of 60 here.
    try write(
      goodJob(name: "gesture") + "  - pop: { transition: page-flip, duration: 0.3, gesture: { direction: right, distance: [0, 20, 26] } }\n",
      to: "gesture.cfg", in: dir)
    try write(goodJob(name: "thai").replacingOccurrences(of: "corner: 4 }", with: "corner: 4, text: \"สวัสดี\" }"), to: "thai.cfg", in: dir)
    try write(goodJob(name: "emoji").replacingOccurrences(of: "corner: 4 }", with: "corner: 4, text: \"Hi 👋\" }"), to: "emoji.cfg", in: dir)
    let run = try runTransvid(["gesture.cfg", "thai.cfg", "emoji.cfg", "-o", "out", "--progress", "none", "-j", "1"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.errorLines == [
        "gesture.cfg:14:5: note: timeline[2].pop: the gesture ends at progress 0.433, not past 0.5, so the pop is cancelled "
          + "and 'detail' stays on screen (UIPercentDrivenInteractiveTransition); say release: cancel to keep this, "
          + "or move the finger further"
      ])
    // `-q` keeps them out.
    let quiet = try runTransvid(["gesture.cfg", "-o", "out2", "-q"], in: dir)
    #expect(quiet.status == 0 && quiet.stderr.isEmpty)
  }

  /// `transvid .` names its JUnit class `transvid`, not `transvid..`.
  @Test func junitClassNameOfTheCurrentFolder() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(), to: "good.cfg", in: dir)
    let run = try runTransvid([".", "-o", "out", "-q", "--junit", "junit.xml"], in: dir)
    #expect(run.status == 0)
    let xml = try String(contentsOfFile: path(dir, "junit.xml"), encoding: .utf8)
    #expect(xml.contains("<testcase classname=\"transvid\" name=\"good\" file=\"./good.cfg\""))
  }

  /// A job's JUnit class is the same however the command line names it:
  /// relative to the working folder, `.` and `..` resolved.
  @Test func junitClassNameHoweverTheJobIsNamed() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "t1"), withIntermediateDirectories: true)
    try write(goodJob(name: "a", formats: "[png]"), to: "t1/a.cfg", in: dir)
    for name in ["t1/a.cfg", "./t1/", "t1/../t1/a.cfg", "t1//a.cfg", path(dir, "t1/a.cfg"), path(dir, "./t1/../t1")] {
      let run = try runTransvid([name, "-o", "out", "-q", "--junit", "junit.xml"], in: dir)
      #expect(run.status == 0, "\(run.stderr)")
      let xml = try String(contentsOfFile: path(dir, "junit.xml"), encoding: .utf8)
      #expect(xml.contains("<testcase classname=\"transvid.t1\" name=\"a\" "), "\(name): \(xml)")
    }
  }

  /// A folder of good jobs and hostile ones (the numbers that used to trap or
  /// exhaust memory): every good job renders, the report is written, exit 1.
  @Test func hostileJobsDoNotStopTheBatch() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    for (i, color) in ["#FF9500", "#34C759", "#5856D6"].enumerated() {
      try write(goodJob(name: "good-\(i)", color: color, formats: "[mp4, gif, png, sheet]"), to: "good-\(i).cfg", in: jobs)
    }
    let hostile = [
      "curve: \"cubic-bezier(0,-1e308,1,1e308)\"",
      "curve: \"spring(allowsOverdamping: true, mass: 1, stiffness: 1, damping: 1e300)\"",
      "spring: { response: 1e200, dampingRatio: 1 }",
    ]
    for (i, parameter) in hostile.enumerated() {
      let text = goodJob(name: "hostile-\(i)").replacingOccurrences(of: "duration: 0.3 }", with: "duration: 0.3, \(parameter) }")
      try write(text, to: "hostile-\(i).cfg", in: jobs)
    }
    try write(
      goodJob(name: "hostile-view").replacingOccurrences(of: "[5, 10, 50, 20]", with: "[0, 0, 100000, 100000]"),
      to: "hostile-view.cfg", in: jobs)
    try write(
      goodJob(name: "hostile-sheet", formats: "[sheet]").replacingOccurrences(
        of: "mp4: { crf: 23, preset: ultrafast }", with: "sheet: { frames: 100, columns: 1, width: 8192 }"),
      to: "hostile-sheet.cfg", in: jobs)
    let run = try runTransvid(["jobs", "-o", "out", "-q", "--report", "report.json"], in: dir)
    #expect(run.reason == .exit && run.status == 1, "\(run.reason) \(run.status): \(run.stderr)")
    #expect(run.errorLines.count == 5, "\(run.stderr)")
    #expect(run.errorLines.allSatisfy { $0.hasPrefix("jobs/hostile-") && $0.contains(": error: ") })
    let written = files(in: path(dir, "out")).keys.sorted()
    #expect(written == (0..<3).flatMap { ["good-\($0).gif", "good-\($0).mp4", "good-\($0).png", "good-\($0).sheet.png"] }.sorted())
    let entries = try reportJobs(path(dir, "report.json"))
    #expect(entries.count == 8)
    #expect(entries.filter { $0["status"] as? String == "rendered" }.count == 3)
    #expect(entries.filter { $0["status"] as? String == "failed" }.count == 5)
    #expect(allEntries(in: path(dir, "out")).filter { $0.contains("transvid-partial") }.isEmpty)
  }

  /// A folder below a batch's folder that cannot be read (no read
  /// permission, another user's) fails as a job of its own, saying so, and
  /// the others render, exit 1; `check` and `plan` count it broken; named
  /// itself it is a usage error, as a folder not there is. A merge says
  /// such a folder of reports too (the hardening sweep: both passed it over
  /// without a word, its jobs never rendered or merged, exit 0). Run as
  /// root, transvid runs without the capabilities that read any folder.
  @Test(.enabled(if: canRunUnprivileged, "as root, setpriv cannot drop the capabilities that read and write any file"))
  func aFolderThatCannotBeReadIsSaidNotPassedOver() throws {
    let dir = try makeTemporaryDirectory()
    defer {
      _ = chmod(path(dir, "jobs/locked"), 0o755)
      _ = chmod(path(dir, "shards/s2"), 0o755)
      try? FileManager.default.removeItem(atPath: dir)
    }
    let fm = FileManager.default
    try fm.createDirectory(atPath: path(dir, "jobs/locked"), withIntermediateDirectories: true)
    try write(tinyJob(name: "open"), to: "jobs/open.cfg", in: dir)
    try write(tinyJob(name: "shut"), to: "jobs/locked/shut.cfg", in: dir)
    #expect(chmod(path(dir, "jobs/locked"), 0) == 0)
    func run(_ arguments: [String]) throws -> ExecutableRun { try runTransvidUnprivileged(arguments, in: dir) }
    let failure = "jobs/locked: error: cannot read this folder (Permission denied): the job files in it are not rendered"
    let batch = try run(["jobs", "-o", "out", "-q", "--report", "shards/s1/report.json"])
    #expect(batch.status == 1 && batch.errorLines == [failure], "\(batch.status) \(batch.stderr)")
    #expect(files(in: path(dir, "out")).keys.sorted() == ["open.mp4"])
    let entries = try reportJobs(path(dir, "shards/s1/report.json"))
    let statuses = entries.map { "\($0["file"] ?? "") \($0["status"] ?? "")" }
    #expect(statuses == ["jobs/locked failed", "jobs/open.cfg rendered"], "\(statuses)")
    let check = try run(["check", "jobs", "-q"])
    #expect(check.status == 1 && check.errorLines == [failure], "\(check.stderr)")
    let plan = try run(["plan", "jobs", "-o", "out"])
    #expect(plan.status == 1 && plan.stdout.contains("  jobs/locked  broken  \(failure)\n"), "\(plan.stdout)")
    let named = try run(["jobs/locked", "-o", "out"])
    #expect(named.status == 2 && named.errorLines == ["transvid: cannot read 'jobs/locked': Permission denied"], "\(named.stderr)")

    // Another folder of reports beside it, which cannot be read.
    try fm.createDirectory(atPath: path(dir, "shards/s2"), withIntermediateDirectories: true)
    try fm.copyItem(atPath: path(dir, "shards/s1/report.json"), toPath: path(dir, "shards/s2/report.json"))
    #expect(chmod(path(dir, "shards/s2"), 0) == 0)
    let merge = try run(["gallery", "shards", "-o", "site"])
    #expect(
      merge.status == 1
        && merge.errorLines == ["transvid: error: cannot read the folder shards/s2 (Permission denied): the reports in it are not merged"],
      "\(merge.status) \(merge.stderr)")
  }

  /// A job file deeper than the kernel opens by path (3000 folders below
  /// `jobs/`, a path of 36 013 bytes) fails as a job of its own, saying so,
  /// and the other job renders, exit 1 (the batch sweep: FileManager's
  /// enumerator stopped short of it without a word, exit 0).
  @Test func aJobDeeperThanThePathLimitIsSaidNotPassedOver() throws {
    let dir = try makeTemporaryDirectory()
    defer {
      // `rm` removes a tree of any depth; FileManager stops at PATH_MAX.
      let rm = Process()
      rm.executableURL = URL(fileURLWithPath: "/bin/rm")
      rm.arguments = ["-rf", dir]
      if (try? rm.run()) != nil { rm.waitUntilExit() }
    }
    try FileManager.default.createDirectory(atPath: path(dir, "jobs"), withIntermediateDirectories: true)
    try write(tinyJob(name: "top"), to: "jobs/top.cfg", in: dir)
    // Made folder by folder through descriptors: no path to it fits PATH_MAX.
    var folder = open(path(dir, "jobs"), O_RDONLY | O_DIRECTORY)
    for _ in 0..<3000 {
      #expect(mkdirat(folder, "d0123456789", 0o755) == 0)
      let next = openat(folder, "d0123456789", O_RDONLY | O_DIRECTORY)
      close(folder)
      folder = next
    }
    let job = Array(tinyJob(name: "deep").utf8)
    let file = openat(folder, "deep.cfg", O_WRONLY | O_CREAT | O_EXCL, 0o644)
    #expect(job.withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) } == job.count)
    close(file)
    close(folder)
    let deep = "jobs/" + Array(repeating: "d0123456789", count: 3000).joined(separator: "/") + "/deep.cfg"
    let failure =
      "\(deep): error: cannot read this job file: its path is 36013 bytes long, and the system opens paths "
      + "of at most 4095 (PATH_MAX); move it to a folder less deep"
    let run = try runTransvid(["jobs", "-o", "out", "-q", "--report", "report.json"], in: dir)
    let said = run.status == 1 && run.errorLines == [failure]
    #expect(said, "\(run.status) \(run.stderr.suffix(300))")
    #expect(files(in: path(dir, "out")).keys.sorted() == ["top.mp4"])
    let statuses = try reportJobs(path(dir, "report.json")).map { "\($0["file"] ?? "") \($0["status"] ?? "")" }
    #expect(statuses == ["\(deep) failed", "jobs/top.cfg rendered"])
  }

  /// An output folder the batch may not write in (no write permission, a
  /// read-only mount), `-o`'s or a job's `output.dir`, fails each job that
  /// would write there saying so, at `output.dir` for the job's own (the
  /// batch sweep: it named the staging folder, `create folder
  /// 'ro/.transvid-partial-…': Permission denied`, at no line); a job up to
  /// date there is still up to date.
  @Test(.enabled(if: canRunUnprivileged, "as root, setpriv cannot drop the capabilities that read and write any file"))
  func anOutputFolderThatCannotBeWrittenIsNamed() throws {
    let dir = try makeTemporaryDirectory()
    defer {
      _ = chmod(path(dir, "jobs/ro"), 0o755)
      try? FileManager.default.removeItem(atPath: dir)
    }
    try FileManager.default.createDirectory(atPath: path(dir, "jobs/ro"), withIntermediateDirectories: true)
    try write(tinyJob(name: "mine").replacingOccurrences(of: "output: { formats:", with: "output: { dir: ro, formats:"), to: "jobs/mine.cfg", in: dir)
    try write(tinyJob(name: "other"), to: "jobs/other.cfg", in: dir)
    // Rendered while it could be written: then up to date, also unwritable.
    #expect(try runTransvid(["jobs/mine.cfg", "-q"], in: dir).status == 0)
    #expect(chmod(path(dir, "jobs/ro"), 0o555) == 0)
    let own = try runTransvidUnprivileged(["jobs", "--progress", "none"], in: dir)
    #expect(own.status == 0 && own.stdout.contains("jobs/ro/mine.mp4  up to date"), "\(own.status) \(own.stdout) \(own.stderr)")
    let forced = try runTransvidUnprivileged(["jobs", "-q", "--force"], in: dir)
    #expect(
      forced.status == 1
        && forced.errorLines == ["jobs/mine.cfg:3:16: error: output.dir: write the outputs: 'jobs/ro' cannot be written: Permission denied"],
      "\(forced.status) \(forced.stderr)")
    #expect(files(in: path(dir, "out")).keys.sorted() == ["other.mp4"])
    // As -o: mine is up to date there, other cannot be written.
    let given = try runTransvidUnprivileged(["jobs", "-o", "jobs/ro", "-q"], in: dir)
    #expect(
      given.status == 1
        && given.errorLines == ["jobs/other.cfg: error: write the outputs: 'jobs/ro' cannot be written: Permission denied"],
      "\(given.status) \(given.stderr)")
  }
}
