// The broken-job corpus (`Tests/Corpus/jobs/*.cfg`), parsed directly: each
// file's diagnostic is exactly its `.expected` line, with `{file}` standing for
// the path. The same files run through the real command line in
// `TransvidCLITests/ReliabilityTests.swift`. Also: limits are named and can
// be raised or lowered, and alias bombs are refused at once.

import Foundation
import Testing

@testable import Jobs

/// One corpus file and the line it must print.
struct CorpusJob: Sendable, CustomTestStringConvertible {
  var path: String
  var expected: String
  var testDescription: String { (path as NSString).lastPathComponent }

  /// `Tests/Corpus/jobs`.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus/jobs").path

  static let all: [CorpusJob] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".cfg") }.sorted().map { name in
      let path = (directory as NSString).appendingPathComponent(name)
      let expectedPath = (path as NSString).deletingPathExtension + ".expected"
      let expected = (try? String(contentsOfFile: expectedPath, encoding: .utf8)) ?? "(no .expected file)"
      return CorpusJob(path: path, expected: expected.trimmingCharacters(in: .newlines))
    }
  }()

  /// Whether the problem is only visible in a batch (two jobs, one output).
  var isBatchLevel: Bool { expected.contains("{out}") }
  /// Whether the problem is in a file the job names, found by the runner
  /// (its path policy, `AssetLoader`'s checks and decoding), not by the parser.
  var isFileLevel: Bool {
    [": cannot decode '", ": cannot read '", "is outside the job's folder"].contains { expected.contains($0) }
  }
}

@Suite enum BrokenCorpusTests {
  @Test static func corpusIsBigEnough() {
    #expect(CorpusJob.all.count >= 40)
    #expect(CorpusJob.all.allSatisfy { !$0.expected.hasPrefix("(no") })
  }

  @Test(arguments: CorpusJob.all)
  static func diagnostic(_ job: CorpusJob) throws {
    let bytes = Array(try #require(FileManager.default.contents(atPath: job.path)))
    do {
      let spec = try JobParser.parse(bytes: bytes, file: job.path)
      #expect(try JobParser.load(path: job.path).name == spec.name)
      #expect(job.isBatchLevel || job.isFileLevel, "parsed, expected \(job.expected); got a job named \(spec.name)")
    } catch {
      #expect(!job.isBatchLevel && !job.isFileLevel)
      #expect(error.description == job.expected.replacingOccurrences(of: "{file}", with: job.path))
    }
  }

  // MARK: Limits

  static func corpus(_ name: String) throws -> (bytes: [UInt8], path: String) {
    let path = (CorpusJob.directory as NSString).appendingPathComponent(name)
    return (Array(try #require(FileManager.default.contents(atPath: path))), path)
  }

  @Test static func limitsCanBeRaised() throws {
    let frames = try corpus("limit-frames.cfg")
    #expect(try JobParser.parse(bytes: frames.bytes, file: "f.cfg", limits: JobLimits(maxFrames: 24014)).name == "limit-frames")
    let pixels = try corpus("limit-pixels.cfg")
    let spec = try JobParser.parse(bytes: pixels.bytes, file: "p.cfg", limits: JobLimits(maxPixels: 118_098_000_000))
    #expect(spec.canvas.pixelWidth == 8100)
    let side = try corpus("num-canvas-over-cap.cfg")
    #expect(try JobParser.parse(bytes: side.bytes, file: "s.cfg", limits: JobLimits(maxSide: 9000)).canvas.pixelWidth == 9000)
  }

  @Test static func limitsCanBeLowered() throws {
    let job = """
      canvas: { size: 60x100, scale: 2, fps: 10 }
      screens: { a: {} }
      timeline:
        - hold: 1.5
      """
    #expect(throws: Diagnostic(
      SourceLocation(file: "j.cfg", line: 3, column: 1),
      "timeline: 15 frames (1.5 s at 10 fps); at most 14 frames per job (raise the limit with --max-frames)")) {
      try JobParser.parse(job, file: "j.cfg", limits: JobLimits(maxFrames: 14))
    }
    #expect(throws: Diagnostic(
      SourceLocation(file: "j.cfg", line: 3, column: 1),
      "timeline: 15 frames of 120x200 pixels is 360000 pixels; at most 359999 per job (raise the limit with --max-pixels)")) {
      try JobParser.parse(job, file: "j.cfg", limits: JobLimits(maxPixels: 359_999))
    }
    #expect(throws: Diagnostic(
      SourceLocation(file: "j.cfg", line: 1, column: 9),
      "canvas.device: 393x852 points at scale 3 is 1179x2556 pixels; at most 2000 per side (raise the limit with --max-side)")) {
      try JobParser.parse("canvas: {}\nscreens: { a: {} }\ntimeline: [hold: 1]\n", file: "j.cfg", limits: JobLimits(maxSide: 2000))
    }
    #expect(try JobParser.parse(job, file: "j.cfg", limits: JobLimits(maxSide: 200, maxFrames: 15, maxPixels: 360_000)).name == "j")
  }

  /// Each format keeps to the sides its encoder takes, which --max-side
  /// cannot raise: a WebP to libwebp's 16383, though the canvas may have
  /// 16384 (an APNG of it is fine).
  @Test static func aWebPKeepsToLibwebpsSides() throws {
    let job = "canvas: { size: 16384x16, scale: 1, fps: 10 }\noutput: { formats: [webp] }\nscreens: { a: {} }\ntimeline: [hold: 0.2]\n"
    let limits = JobLimits(maxSide: 16384)
    #expect(throws: Diagnostic(
      SourceLocation(file: "j.cfg", line: 1, column: 17),
      "canvas.size: the webp would be 16384x16 pixels; at most 16383 per side (libwebp encodes no more; --max-side cannot raise it)")) {
      try JobParser.parse(job, file: "j.cfg", limits: limits)
    }
    #expect(try JobParser.parse(job.replacingOccurrences(of: "[webp]", with: "[apng]"), file: "j.cfg", limits: limits).name == "j")
  }

  /// What drawing the screens writes is counted as `ScreenBuilder` draws
  /// them: a canvas per screen and each view's frame within it, at the
  /// canvas scale, for each time the screen is drawn (again without each
  /// view a transition flies), and a flown view's whole frame on its own.
  @Test static func drawingIsCountedAsDrawn() throws {
    let job = """
      canvas: { size: 100x200, scale: 2, fps: 10 }
      screens:
        a:
          views:
            - { frame: [-50, 0, 100, 100], color: red }
            - { id: e, frame: [0, 100, 100, 100], color: blue }
        b:
          views:
            - { id: e, frame: [0, 0, 300, 300], color: green }
      timeline:
        - push: { to: b, transition: magic-move, element: { from: e, to: e } }
      """
    // Each screen twice (80 000 px a canvas), half of the first view (2 × 20 000), the second
    // (2 × 40 000 and 40 000 alone), b's view within the canvas (2 × 80 000) and alone (600 × 600),
    // then the push's last frame (a canvas, `stepsPicturesAreCounted`).
    let spec = try JobParser.parse(job, file: "j.cfg")
    #expect(spec.drawnPixels == 160_000 + 40_000 + 120_000 + 160_000 + 520_000 + 80_000)
    #expect(try JobParser.parse(job, file: "j.cfg", limits: JobLimits(maxDrawPixels: 1_080_000)).drawnPixels == 1_080_000)
    for (limit, line, column, path) in [(999_999, 9, 9, "screens.b.views[0]"), (319_999, 6, 9, "screens.a.views[1]"), (479_999, 7, 3, "screens.b")] {
      #expect(throws: Diagnostic(
        SourceLocation(file: "j.cfg", line: line, column: column),
        "\(path): drawing the job's screens comes to more than \(limit) pixels (each screen's canvas and every view's frame "
          + "within it, at the canvas scale, each time the screen is drawn; raise the limit with --max-draw-pixels)")) {
        try JobParser.parse(job, file: "j.cfg", limits: JobLimits(maxDrawPixels: limit))
      }
    }
  }

  /// What a job's steps leave on display is counted as the renderer draws
  /// and keeps it (`JobSpec+StepPictures.swift`): each step's last frame
  /// drawn, a canvas; the resting composite of a sheet, and of a push in
  /// its card, drawn and held; the picture the last step left held for the
  /// hold after it. A sheet and 1000 pushes of no duration in its card
  /// passed every check, then asked for 16 GB.
  @Test static func stepsPicturesAreCounted() throws {
    let job = """
      canvas: { size: 100x100, scale: 1, fps: 10 }
      screens: { a: {}, b: {}, c: {} }
      timeline:
        - present: { to: b, transition: sheet, duration: 0 }
        - hold: 0.2
        - push: { to: c, transition: push, duration: 0 }
        - pop: { duration: 0 }
        - dismiss: { duration: 0 }
        - push: { to: c, transition: push, duration: 0 }
        - hold: 0.5
      """
    // Three screens (10 000 px a canvas), five steps' last frames, two composites.
    #expect(try JobParser.parse(job, file: "j.cfg").drawnPixels == 30_000 + 50_000 + 20_000)
    #expect(try JobParser.parse(job, file: "j.cfg", limits: JobLimits(maxLayerPixels: 60_000, maxDrawPixels: 100_000)).name == "j")
    for (limit, line, path) in [(99_999, 9, "timeline[5]"), (59_999, 6, "timeline[2]")] {
      #expect(throws: Diagnostic(
        SourceLocation(file: "j.cfg", line: line, column: 5),
        "\(path): drawing the job's screens, the pictures its steps leave on display (a canvas a step) and its caption "
          + "strips comes to more than \(limit) pixels as it renders (raise the limit with --max-draw-pixels)")) {
        try JobParser.parse(job, file: "j.cfg", limits: JobLimits(maxDrawPixels: limit))
      }
    }
    // Held: the screens, the sheet's composite, the hold's picture (that composite on display), the
    // push's in its card; the hold after the last push keeps nothing: the push ends on its plain screen.
    for (limit, line, path) in [(59_999, 6, "timeline[2]"), (49_999, 5, "timeline[1]"), (39_999, 4, "timeline[0]")] {
      #expect(throws: Diagnostic(
        SourceLocation(file: "j.cfg", line: line, column: 5),
        "\(path): the pictures the job's steps leave on display (a canvas a step), its screens' flipped and "
          + "strip-less copies and its caption strips, with its screens, text frames and flown views, come to more than "
          + "\(limit) pixels, all held while it renders "
          + "(raise the limit with --max-layer-pixels)")) {
        try JobParser.parse(job, file: "j.cfg", limits: JobLimits(maxLayerPixels: limit))
      }
    }
  }

  /// A step that ends on its plain screen leaves nothing for the holds
  /// after it to keep: a long demo of pushes and pops on a large canvas
  /// holds its two screens, far under the default limit that a canvas
  /// counted for every hold (200 × 4 Mpx) would pass.
  @Test static func holdsAfterPlainStepsKeepNothing() throws {
    let steps = String(repeating: """
        - push: { to: b, transition: push, duration: 0.1 }
        - hold: 0.1
        - pop: {}
        - hold: 0.1

      """, count: 100)
    let job = """
      canvas: { size: 2000x2000, scale: 1, fps: 10 }
      screens: { a: {}, b: {} }
      timeline:

      """ + steps
    let spec = try JobParser.parse(job, file: "j.cfg")
    let held = spec.stepPictures().reduce(0) { $0 + $1.held }
    #expect(held == 0)
    #expect(spec.drawnPixels == 8_000_000 + 200 * 4_000_000)
  }

  /// A step drawn mirrored keeps a flipped copy of each of its screens, a
  /// right-to-left locale's navigation steps too, and with the
  /// screenshots' own status bar each screen a step shows is kept once more
  /// without its strip (`ScreenSnapshots`): copies that held up to four
  /// times the screens the limit counted.
  @Test static func screensCopiesAreCountedAsHeld() throws {
    let job = """
      canvas: { size: 100x100, scale: 1, fps: 10, statusBar: 20 }
      screens: { a: {}, b: {}, c: {} }
      timeline:
        - push: { to: b, transition: push, duration: 0, mirror: true }
        - push: { to: c, transition: push, duration: 0.5 }
      """
    // Three screens (10 000 px a canvas); a and b flipped, and both without the strip; b and c without it.
    #expect(try JobParser.parse(job, file: "j.cfg", limits: JobLimits(maxLayerPixels: 90_000)).name == "j")
    let arabic = """
      canvas: { size: 100x100, scale: 1, fps: 10 }
      locales: [en, ar]
      strings: { en: { t: "t" }, ar: { t: "t" } }
      screens: { a: {}, b: {} }
      timeline:
        - push: { to: b, transition: push, duration: 0.5 }
      """
    for (text, limit, line, path) in [
      (job, 89_999, 5, "timeline[1]"), (job, 69_999, 4, "timeline[0]"), (arabic, 39_999, 6, "timeline[0]"),
    ] {
      #expect(throws: Diagnostic(
        SourceLocation(file: "j.cfg", line: line, column: 5),
        "\(path): the pictures the job's steps leave on display (a canvas a step), its screens' flipped and "
          + "strip-less copies and its caption strips, with its screens, text frames and flown views, come to more than "
          + "\(limit) pixels, all held while it renders (raise the limit with --max-layer-pixels)")) {
        try JobParser.parse(text, file: "j.cfg", limits: JobLimits(maxLayerPixels: limit))
      }
    }
    #expect(try JobParser.parse(arabic, file: "j.cfg", limits: JobLimits(maxLayerPixels: 40_000)).name == "j")
  }

  /// The project's jobs draw far less than the limit.
  @Test static func theProjectsJobsDrawFarUnderTheLimit() throws {
    let jobs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("jobs").path
    let names = try FileManager.default.contentsOfDirectory(atPath: jobs).filter { $0.hasSuffix(".cfg") }
    #expect(names.count >= 15)
    for name in names {
      for spec in try JobParser.load(path: (jobs as NSString).appendingPathComponent(name)).localizedJobs() {
        #expect(spec.drawnPixels < JobLimits().maxDrawPixels / 100, "\(name)")
      }
    }
  }

  /// The largest job a 1 MiB file can describe is counted exactly (no overflow).
  @Test static func hugeJobsAreCountedExactly() {
    var steps = ""
    for _ in 0..<2000 { steps += "  - hold: 600\n" }
    let job = "canvas: { size: 2730x2730, scale: 3, fps: 120 }\nscreens: { a: {} }\ntimeline:\n" + steps
    let limits = JobLimits(maxFrames: .max, maxPixels: 1 << 50)
    do {
      _ = try JobParser.parse(job, file: "j.cfg", limits: limits)
      Issue.record("parsed")
    } catch {
      #expect(
        error.description == "j.cfg:3:1: error: timeline: 144000000 frames of 8190x8190 pixels is 9658958400000000 "
          + "pixels; at most 1125899906842624 per job (raise the limit with --max-pixels)")
    }
  }

  // MARK: Alias bombs

  /// A billion-laughs file is refused at its first anchor, without
  /// expanding anything: no slower than a plain file of the same size.
  @Test static func aliasBombIsRefusedQuickly() {
    var text = "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
    var level = 0
    while text.utf8.count < 128 << 10 {
      level += 1
      let refs = Array(repeating: "*\(level == 1 ? "a" : "l\(level - 1)")", count: 10).joined(separator: ", ")
      text += "l\(level): &l\(level) [\(refs)]\n"
    }
    let bomb = Array(text.utf8)
    let plain = Array(repeating: UInt8(ascii: "#"), count: bomb.count - 1) + [UInt8(ascii: "\n")]
    let clock = ContinuousClock()
    var refusal: Diagnostic?
    // Best of three, alternating, so other tests running meanwhile do not skew it.
    var bombTime = Duration.seconds(1000), plainTime = Duration.seconds(1000)
    for _ in 0..<3 {
      bombTime = min(bombTime, clock.measure {
        do throws(Diagnostic) { _ = try JobParser.parse(bytes: bomb, file: "bomb.cfg") } catch { refusal = error }
      })
      plainTime = min(plainTime, clock.measure { _ = try? JobParser.parse(bytes: plain, file: "plain.cfg") })
    }
    #expect(refusal?.description == "bomb.cfg:1:4: error: anchors (&a) and aliases are not supported; write the value out")
    #expect(bombTime < plainTime * 2 + .milliseconds(100), "bomb \(bombTime), plain \(plainTime)")
    #expect(bombTime < .seconds(5))
  }

  /// Aliases without anchors (an undefined alias) are refused the same way.
  @Test static func aliasWithoutAnchor() {
    #expect(throws: Diagnostic(
      SourceLocation(file: "j.cfg", line: 1, column: 10),
      "aliases (*nowhere) are not supported; write the value out")) {
      try JobParser.parse("screens: *nowhere\n", file: "j.cfg")
    }
  }

  // MARK: Fuzz regressions

  /// Inputs the fuzzers once stumbled on (`Tests/Corpus/fuzz/jobs`): each must
  /// parse or fail with a diagnostic, quickly.
  @Test static func fuzzRegressions() throws {
    let dir = URL(fileURLWithPath: CorpusJob.directory).deletingLastPathComponent().appendingPathComponent("fuzz/jobs").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    for name in names.sorted() {
      let bytes = Array(try #require(FileManager.default.contents(atPath: (dir as NSString).appendingPathComponent(name))))
      _ = try? JobParser.parse(bytes: bytes, file: name)
    }
  }
}
