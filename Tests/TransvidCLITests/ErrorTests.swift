import Foundation
import Testing
import Transitions
@testable import TransvidCLI

/// Broken job files: exact messages, exit status 1, no output, the other
/// jobs of the batch still rendered.
@Suite struct ErrorTests {
  struct Broken: Sendable, CustomTestStringConvertible {
    var label: String
    var text: String
    var message: String
    var testDescription: String { label }
  }

  static let cases: [Broken] = [
    Broken(
      label: "bad indentation",
      text: "name: x\ncanvas:\n  fps: 30\n size: 100x100\nscreens: { a: {} }\ntimeline: [ {hold: 1} ]\n",
      message: "JOB:4:2: error: invalid YAML: did not find expected key (while parsing a block mapping at line 1, column 1)"),
    Broken(
      label: "unknown key",
      text: "name: x\ncanvas: { size: 100x100, fsp: 30 }\nscreens: { a: {} }\ntimeline: [ {hold: 1} ]\n",
      message: "JOB:2:26: error: unknown key 'fsp' in canvas; did you mean 'fps'?"),
    Broken(
      label: "wrong type",
      text: "name: x\ncanvas: { size: 100x100, fps: sixty }\nscreens: { a: {} }\ntimeline: [ {hold: 1} ]\n",
      message: "JOB:2:31: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got \"sixty\""),
    Broken(
      label: "missing screen",
      text: """
        name: x
        canvas: { size: 100x100, fps: 30 }
        screens: { a: {}, b: {} }
        timeline:
          - push: { from: a, to: c, transition: circle-spread }

        """,
      message: "JOB:5:26: error: timeline[0].push.to: unknown screen \"c\"; expected one of: a, b"),
  ]

  @Test(arguments: cases)
  func brokenJobFailsWithItsPlace(_ broken: Broken) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(broken.text, to: "broken.cfg", in: dir)
    let capture = Capture()
    let status = TransvidCommand.run([job, "-o", dir], console: capture.console)
    #expect(status == 1)
    #expect(capture.err == [broken.message.replacingOccurrences(of: "JOB", with: job)])
    #expect(!FileManager.default.fileExists(atPath: (dir as NSString).appendingPathComponent("x.mp4")))
  }

  @Test func aBrokenJobDoesNotStopTheBatch() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = (dir as NSString).appendingPathComponent("jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try write(Self.cases[1].text, to: "a-broken.cfg", in: jobs)
    try write(smallJob(name: "b-good"), to: "b-good.cfg", in: jobs)
    let out = (dir as NSString).appendingPathComponent("out")
    let capture = Capture()
    #expect(TransvidCommand.run([jobs, "-o", out], console: capture.console) == 1)
    #expect(capture.err.count == 1 && capture.err[0].contains("a-broken.cfg:2:26: error: unknown key 'fsp'"))
    #expect(FileManager.default.fileExists(atPath: (out as NSString).appendingPathComponent("b-good.mp4")))
    // Besides the output only the cache folder (a dot folder) is there.
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") } == ["b-good.mp4"])
  }

  @Test func missingJobFile() {
    let capture = Capture()
    #expect(TransvidCommand.run(["/nonexistent/job.cfg"], console: capture.console) == 2)
    #expect(capture.err == ["transvid: no such file or directory: /nonexistent/job.cfg"])
  }

  /// `frame` of a job file that is not there, or of a folder, is a usage
  /// error too, as for a render (the contract sweep: it was exit 1 with
  /// 'missing.cfg:1:1: error: cannot read job file').
  @Test func frameOfAMissingJobFileIsAUsageError() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let png = path(dir, "f.png")
    let missing = Capture()
    #expect(TransvidCommand.run(["frame", path(dir, "missing.cfg"), "--time", "0", "-o", png], console: missing.console) == 2)
    #expect(missing.err == ["transvid: no such file or directory: \(path(dir, "missing.cfg"))"])
    let folder = Capture()
    #expect(TransvidCommand.run(["frame", dir, "--time", "0", "-o", png], console: folder.console) == 2)
    #expect(folder.err == ["transvid: 'frame' takes a job file; \(dir) is a folder"])
    #expect(!FileManager.default.fileExists(atPath: png))
  }

  /// `frame -o` that is a folder, or under a file, is a usage error before
  /// the job is read or drawn, as a batch's `-o` and `--report` are.
  @Test func frameIntoAFolderIsAUsageError() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(smallJob(name: "small"), to: "small.cfg", in: dir)
    let broken = try write("name: broken\nfsp: 30\n", to: "broken.cfg", in: dir)
    let folder = path(dir, "d.png")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    for file in [job, broken] {
      let capture = Capture()
      #expect(TransvidCommand.run(["frame", file, "--time", "0", "-o", folder], console: capture.console) == 2)
      #expect(capture.err == ["transvid: -o '\(folder)' is a folder; give a file\nRun 'transvid --help' for usage."])
      #expect(capture.out.isEmpty)
    }
    let under = path(job, "f.png")
    let capture = Capture()
    #expect(TransvidCommand.run(["frame", job, "--time", "0", "-o", under], console: capture.console) == 2)
    #expect(capture.err == ["transvid: -o '\(under)': '\(job)' is a regular file\nRun 'transvid --help' for usage."])
    let fresh = path(dir, "new/f.png")
    #expect(TransvidCommand.run(["frame", job, "--time", "0", "-o", fresh, "-q"], console: Capture().console) == 0)
    #expect(FileManager.default.fileExists(atPath: fresh))
  }

  /// `frame -q` prints errors only, as a render's `-q` (the contract sweep:
  /// DESIGN.md lists -q among the options, and frame called it a usage error).
  @Test func frameQuietPrintsErrorsOnly() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(smallJob(name: "small"), to: "small.cfg", in: dir)
    let png = path(dir, "f.png")
    let quiet = Capture()
    #expect(TransvidCommand.run(["frame", job, "--time", "99", "-o", png, "-q"], console: quiet.console) == 0, "\(quiet.err)")
    #expect(quiet.out.isEmpty && quiet.err.isEmpty, "\(quiet.out) \(quiet.err)")
    #expect(FileManager.default.fileExists(atPath: png))
    let told = Capture()
    #expect(TransvidCommand.run(["frame", job, "--time", "99", "-o", png], console: told.console) == 0)
    #expect(told.out.count == 1 && told.err.contains { $0.contains("is past the end") })
    let broken = Capture()
    #expect(TransvidCommand.run(["frame", job, "--time", "0", "-o", job + ".png", "--quiet", "--max-side", "1"], console: broken.console) == 1)
    #expect(broken.err.count == 1)
  }

  /// A path named that does not exist is a usage error, exit 2, and a good
  /// job named with it does not render either, as `--help` says.
  @Test func aMissingPathAmongGoodOnesRendersNothing() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let good = try write(smallJob(name: "good"), to: "good.cfg", in: dir)
    let out = (dir as NSString).appendingPathComponent("out")
    for command in [[], ["check"], ["plan"]] {
      let capture = Capture()
      #expect(TransvidCommand.run(command + [good, path(dir, "missing.cfg"), "-o", out], console: capture.console) == 2)
      #expect(capture.err.first?.hasPrefix("transvid: no such file or directory: \(path(dir, "missing.cfg"))") == true)
    }
    #expect(!FileManager.default.fileExists(atPath: out))
    let help = Capture()
    #expect(TransvidCommand.run(["--help"], console: help.console) == 0)
    let text = help.out.joined().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("2 usage error (a job file or folder named that does not exist is one: nothing renders)"))
  }
}

@Suite struct UsageTests {
  @Test func usageErrorsExitWith2() {
    for (args, message) in [
      ([String](), "transvid: no job files given"),
      (["--frobnicate", "x.cfg"], "transvid: unknown option '--frobnicate'"),
      (["-o"], "transvid: option -o needs a value"),
      (["--format", "avi", "x.cfg"], "transvid: unknown format 'avi'; expected one of: mp4, gif, png, sheet, webm, mov, apng, webp"),
      (["--format", "mp4,gfi", "x.cfg"], "transvid: unknown format 'gfi'; did you mean 'gif'?"),
      (["--format", "gif,png,gif", "x.cfg"], "transvid: format 'gif' is listed twice"),
    ] {
      let capture = Capture()
      #expect(TransvidCommand.run(args, console: capture.console) == 2)
      #expect(capture.err == [message + "\nRun 'transvid --help' for usage."])
    }
  }

  @Test func helpShowsAnExampleAndVersionPrints() {
    let capture = Capture()
    #expect(TransvidCommand.run(["--help"], console: capture.console) == 0)
    #expect(capture.out.count == 1)
    #expect(capture.out[0].hasPrefix("USAGE: transvid [options] JOB.cfg|DIR ..."))
    #expect(capture.out[0].contains("transvid jobs/circle-spread.cfg        writes out/circle-spread.mp4"))
    #expect(capture.out[0].contains("--format LIST          override the job's formats: mp4,gif,png,sheet,webm,mov,apng,webp\n"))
    // Every option is explained under OPTIONS, a subcommand's own too (--json, --draft, --time,
    // --appearance, --samples and --duration were in the USAGE lines only: the CLI sweep).
    let options = capture.out[0].components(separatedBy: "OPTIONS:").dropFirst().joined()
    for option in Options.renderOptions + ["--draft", "--time", "--appearance", "--samples", "--duration"] {
      #expect(options.contains("  \(option) ") || options.contains(", \(option) "), "\(option)")
    }
    let version = Capture()
    #expect(TransvidCommand.run(["--version"], console: version.console) == 0)
    #expect(version.out == ["transvid \(TransvidCommand.version)"])
  }

  @Test func listShowsTheCatalog() {
    let capture = Capture()
    #expect(TransvidCommand.run(["list"], console: capture.console) == 0)
    #expect(capture.out[0].contains("circle-spread — "))
    #expect(capture.out[0].contains("  origin (rect, default [0, 0, 0, 0])"))
  }

  /// Every transition lists the keys DESIGN.md says all of them share,
  /// `spring` and `gesture` beside `duration`, `delay` and `curve`, and the
  /// step's own (the contract sweep: only the first three were listed).
  @Test func listShowsEveryStepKeyForEachTransition() {
    let capture = Capture()
    #expect(TransvidCommand.run(["list"], console: capture.console) == 0)
    let blocks = capture.out[0].components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(blocks.count == Catalog.all.count)
    for block in blocks {
      for key in ["duration", "delay", "curve", "spring", "gesture", "slowmo", "touch", "mirror"] {
        #expect(block.contains("\n  \(key) ("), "\(block.prefix(20)) lists no \(key)")
      }
    }
    #expect(capture.out[0].contains("  spring (spring, default none): the curve as a spring, instead of curve: { damping, velocity }"))
    #expect(capture.out[0].contains("  gesture (gesture, default none): a finger drives the step: { progress: [0…1, …] }"))
    #expect(capture.out[0].contains("  slowmo (number, 1…20, default 1): the step plays this many times slower"))
  }

  /// The executable itself returns the statuses (not just the library).
  @Test func executableExitStatus() throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["--no-such-flag"]
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
  }
}
