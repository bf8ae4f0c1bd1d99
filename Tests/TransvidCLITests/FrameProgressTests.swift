#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import Testing

@testable import TransvidCLI

/// Writers report every frame: ndjson gets a `frame` event every 30 frames.
@Suite struct FrameProgressTests {
  @Test func ndjsonReportsFramesWithinAnOutput() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(smallJob(), to: "small.cfg", in: dir)
    let capture = Capture()
    #expect(TransvidCommand.run([job, "-o", dir, "--progress", "ndjson"], console: capture.console) == 0)
    let frames = capture.out.compactMap { line -> Int? in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["event"] as? String == "frame"
      else { return nil }
      return object["frame"] as? Int
    }
    // 57 frames: one event at frame 30.
    #expect(frames == [30])
  }

  /// The jobs of one file (its locales) running side by side (`-j 2`) each
  /// count their own frames: every locale's `progress` reaches its total,
  /// whichever finishes first.
  @Test func localesOfOneFileRunningAtOnceCountTheirOwnFrames() throws {
    let capture = Capture()
    let jobs = ["locales.en", "locales.ar"].enumerated().map { unit, name in
      var job = PlannedJob(file: "jobs/locales.cfg", name: name, unit: unit)
      job.formats = [.mp4]
      job.outputs = ["out/\(name).mp4"]
      job.frames = 27
      return job
    }
    let reporter = ProgressReporter(mode: .ndjson, console: capture.console, jobs: jobs)
    func written(_ job: PlannedJob) {
      let summary = OutputSummary(path: job.outputs[0], frames: 27, duration: 2.7, bytes: 100)
      reporter.outputRendered(job, summary)
      reporter.outputWritten(job, summary, number: 1)
    }
    // Both outputs written while both run, then one finishing before the other writes.
    reporter.jobStarted(jobs[0])
    reporter.jobStarted(jobs[1])
    written(jobs[0])
    written(jobs[1])
    reporter.jobFinished(jobs[0], seconds: 1, bytes: 100)
    reporter.jobFinished(jobs[1], seconds: 1, bytes: 100)
    reporter.jobStarted(jobs[0])
    reporter.jobStarted(jobs[1])
    written(jobs[0])
    reporter.jobFinished(jobs[0], seconds: 1, bytes: 100)
    written(jobs[1])
    reporter.jobFinished(jobs[1], seconds: 1, bytes: 100)
    let progress = capture.out.filter { $0.contains("\"event\":\"progress\"") }
    #expect(
      progress == [
        "{\"event\":\"progress\",\"job\":\"locales.en\",\"file\":\"jobs/locales.cfg\",\"frames\":27,\"total\":27,\"output\":\"out/locales.en.mp4\",\"bytes\":100}",
        "{\"event\":\"progress\",\"job\":\"locales.ar\",\"file\":\"jobs/locales.cfg\",\"frames\":27,\"total\":27,\"output\":\"out/locales.ar.mp4\",\"bytes\":100}",
        "{\"event\":\"progress\",\"job\":\"locales.en\",\"file\":\"jobs/locales.cfg\",\"frames\":27,\"total\":27,\"output\":\"out/locales.en.mp4\",\"bytes\":100}",
        "{\"event\":\"progress\",\"job\":\"locales.ar\",\"file\":\"jobs/locales.cfg\",\"frames\":27,\"total\":27,\"output\":\"out/locales.ar.mp4\",\"bytes\":100}",
      ])
  }
}

/// What `transvid ARGS…` run in `directory` with `TERM=term` (nil: unset) writes to its
/// standard output and error when both are a terminal (a pseudo-terminal
/// read here, of `size` when given), `\r\n` read as `\n`; with `log`, standard
/// output goes to that file in `directory` instead.
func outputOnATerminal(
  _ arguments: [String], in directory: String, term: String?, size: (rows: Int, columns: Int)? = nil, log: String? = nil
) throws -> String {
  let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
  // posix_openpt's steps, which Glibc's module does not export: a new
  // terminal from /dev/ptmx, unlocked (TIOCSPTLCK), its other end
  // /dev/pts/N (TIOCGPTN); their numbers are asm-generic's (x86-64, arm64),
  // macros Swift does not import.
  let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
  try #require(master >= 0, "no pseudo-terminal")
  let reader = FileHandle(fileDescriptor: master, closeOnDealloc: true)
  var unlock: Int32 = 0, number: UInt32 = 0
  try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
  let terminal = try #require(FileHandle(forUpdatingAtPath: "/dev/pts/\(number)"))
  if let size {
    var window = winsize(ws_row: UInt16(size.rows), ws_col: UInt16(size.columns), ws_xpixel: 0, ws_ypixel: 0)
    try #require(ioctl(master, UInt(TIOCSWINSZ), &window) == 0)
  }
  let process = Process()
  process.executableURL = binary
  process.arguments = arguments
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  var environment = ProcessInfo.processInfo.environment
  environment["TERM"] = term
  process.environment = environment
  process.standardError = terminal
  process.standardOutput = terminal
  if let log {
    _ = FileManager.default.createFile(atPath: path(directory, log), contents: nil)
    process.standardOutput = try #require(FileHandle(forWritingAtPath: path(directory, log)))
  }
  try process.run()
  try terminal.close()
  let text = Mutex(Data())
  let finished = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    // Until the last end of the terminal closes (EIO); FileHandle's reads
    // would drop what they had read when it comes.
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(reader.fileDescriptor, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      text.withLock { $0.append(contentsOf: buffer[0..<n]) }
    }
    finished.signal()
  }
  if finished.wait(timeout: .now() + 120) == .timedOut {
    kill(process.processIdentifier, SIGKILL)
    Issue.record("transvid \(arguments) still running after 120 s: killed")
    finished.wait()
  }
  process.waitUntilExit()
  #expect(process.terminationStatus == 0, "\(arguments)")
  return String(decoding: text.withLock { $0 }, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
}

/// On a terminal that cannot move its cursor (`TERM=dumb`: Emacs' shell,
/// some CI consoles), or of no known type (`TERM` unset), progress is plain
/// lines, as when standard error is no terminal: the bars' cursor-control
/// codes were written there as text.
@Suite struct DumbTerminalTests {
  @Test func aDumbTerminalGetsPlainLines() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(name: "j", formats: "[png, mp4]"), to: "j.cfg", in: dir)
    let bars = try outputOnATerminal(["j.cfg", "--force"], in: dir, term: "xterm")
    #expect(bars.contains("\u{1b}["), "\(bars)")
    for term in ["dumb", nil] {
      let plain = try outputOnATerminal(["j.cfg", "--force"], in: dir, term: term)
      #expect(!plain.contains("\u{1b}") && !plain.contains("\r"), "TERM=\(term ?? "(unset)"): \(plain)")
      let lines = plain.split(separator: "\n")
      #expect(lines.count == 2 && lines[0].hasPrefix("out/j.png  still image  ") && lines[1].hasPrefix("out/j.mp4  5 frames  "), "\(plain)")
    }
  }
}

/// What a terminal of `rows` × `columns` shows after `text` (`\n` a new
/// line), its scrollback included: each line as its rows joined where the
/// text ran past the right edge and wrapped. It takes what the live
/// progress writes: `\r`, cursor up (`ESC[1A`, which stops at the top row:
/// a row scrolled away cannot be reached again) and erase line (`ESC[2K`).
func terminalTranscript(_ text: String, rows: Int, columns: Int) -> [String] {
  var screen = [[Character]](repeating: [], count: rows), wrapped = [Bool](repeating: false, count: rows)
  var scrolled: [([Character], Bool)] = []
  var row = 0, column = 0
  func newLine(wrapping: Bool) {
    wrapped[row] = wrapping
    column = 0
    if row < rows - 1 {
      row += 1
      return
    }
    scrolled.append((screen.removeFirst(), wrapped.removeFirst()))
    screen.append([])
    wrapped.append(false)
  }
  var rest = Substring(text)
  while let c = rest.first {
    if rest.hasPrefix("\u{1B}[1A") {
      row = max(0, row - 1)
      column = min(column, columns - 1)
      rest = rest.dropFirst(4)
      continue
    }
    if rest.hasPrefix("\u{1B}[2K") {
      screen[row] = []
      wrapped[row] = false
      rest = rest.dropFirst(4)
      continue
    }
    rest = rest.dropFirst()
    switch c {
    case "\r": column = 0
    case "\n": newLine(wrapping: false)
    default:
      if column == columns { newLine(wrapping: true) }
      while screen[row].count <= column { screen[row].append(" ") }
      screen[row][column] = c
      column += 1
    }
  }
  var lines: [String] = [], current = ""
  for (cells, wraps) in scrolled + Array(zip(screen, wrapped)) {
    current += String(cells)
    if !wraps {
      while current.last == " " { current.removeLast() }
      lines.append(current)
      current = ""
    }
  }
  while lines.last == "" { lines.removeLast() }
  return lines
}

/// With the bars on a terminal and standard output in a file (`transvid jobs
/// -j 3 > log`), the log gets the result lines in the batch's order, as
/// `plain` does, whatever order the jobs finish in (the batch/CLI sweep:
/// costliest first, another order than the batch's).
@Suite struct LogBesideTheBarsTests {
  @Test func aLogBesideTheBarsIsInTheBatchsOrder() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try makeBatch(in: dir, count: 6)
    let order = ["00", "02", "04", "01", "03", "05"].map { "out/job-\($0).mp4" }
    for (run, result) in [(1, "rendered in "), (2, "up to date")] {
      let bars = try outputOnATerminal(["jobs", "-o", "out", "-j", "3"], in: dir, term: "xterm", log: "log-\(run)")
      #expect(!bars.contains(result), "run \(run): \(bars)")
      let lines = try String(contentsOfFile: path(dir, "log-\(run)"), encoding: .utf8).split(separator: "\n").map(String.init)
      #expect(lines.dropLast().map { String($0.prefix { $0 != " " }) } == order, "run \(run): \(lines)")
      #expect(lines.dropLast().allSatisfy { $0.contains(result) }, "run \(run): \(lines)")
    }
  }
}

/// The live progress fits the terminal: with more jobs running than it has
/// rows, the bars that fit and a line counting the others; in a terminal
/// narrower than 11 columns, lines cut to its width. Once the batch is done
/// the terminal shows its result lines and summary, nothing of the bars
/// (the batch sweep: at `-j 8` in 5 rows the top bars scrolled where the
/// redraw could not clear them, and 8 columns were taken as 80, each bar
/// wrapping into ten rows, a screenful of leftovers).
@Suite(.serialized) struct LiveProgressSizeTests {
  @Test func theLiveProgressFitsTheTerminal() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for i in 1...8 {
      try write(
        """
        name: bar-\(i)
        canvas: { size: 200x300, scale: 1, fps: 60, background: "#000000" }
        output: { formats: [mp4], mp4: { preset: ultrafast } }
        screens:
          list: { background: "#F2F2F7", views: [ { id: row, frame: [5, 10, 50, 20], color: "#FF0000", corner: 4 } ] }
          detail: { background: "#FFFFFF" }
        timeline:
          - push: { from: list, to: detail, transition: circle-spread, origin: [40, 70, 10, 10], duration: 3 }

        """, to: "bar-\(i).cfg", in: dir)
    }
    for (rows, columns, workers) in [(5, 200, 8), (24, 8, 3)] {
      let text = try outputOnATerminal(
        [".", "-o", "out", "--force", "-j", "\(workers)"], in: dir, term: "xterm", size: (rows, columns))
      let lines = terminalTranscript(text, rows: rows, columns: columns)
      let results = lines.filter { $0.wholeMatch(of: /out\/bar-\d\.mp4  180 frames  3\.00 s video  \d+ bytes  rendered in [\d.]+ s/) != nil }
      let summary = lines.filter { $0.wholeMatch(of: /transvid: 8 jobs: 8 rendered, 0 up to date, 0 failed in [\d.]+ s/) != nil }
      #expect(results.count == 8 && summary.count == 1 && lines.count == 9, "\(rows)×\(columns): \(lines)")
    }
  }
}
