// Issue 20, the file-system half: what a job or a flag can make transvid read
// or write, through the built executable.
//
// - Images are regular files of at most 256 MiB: a FIFO, /dev/zero, a link to
//   /dev/urandom are refused at once (no hang, no unbounded read).
// - Files are written through a private temp folder and renamed; a planted
//   symlink redirects nothing, a device node or FIFO at the target is refused.
// - Reports go into folders that do not exist yet; JUnit stays valid XML.
// - Errors name the path and the reason, never a raw NSCocoaErrorDomain dump;
//   a full disk leaves no temp file.
// - Jobs reach only their own folder (or `--allow-outside DIR`); no file
//   content is echoed.
// - Same-name jobs keep separate cache records; reports never overwrite an
//   input or output of the run.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Media
import Raster
import Synchronization
import Testing
import TransvidCLI
import TestSupport

/// Runs `/bin/sh -c script transvid ARGS…` in `directory` (the script ends
/// with `exec "$0" "$@"` to become transvid, keeping its pid), killing it
/// after `timeout` seconds.
func runInShell(_ script: String, _ arguments: [String], in directory: String, timeout: Double = 120) throws -> BinaryRun {
  let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", script, binary.path] + arguments
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  let stderr = Pipe()
  process.standardError = stderr
  process.standardOutput = FileHandle.nullDevice
  try process.run()
  let finished = DispatchSemaphore(value: 0)
  let text = Mutex("")
  Thread.detachNewThread {
    let data = stderr.fileHandleForReading.readDataToEndOfFile()
    text.withLock { $0 = String(decoding: data, as: UTF8.self) }
    finished.signal()
  }
  if finished.wait(timeout: .now() + timeout) == .timedOut {
    kill(process.processIdentifier, SIGKILL)
    Issue.record("transvid \(arguments) still running after \(timeout) s: killed")
    finished.wait()
  }
  process.waitUntilExit()
  return BinaryRun(status: process.terminationStatus, reason: process.terminationReason, stderr: text.withLock { $0 })
}

/// `transvid ARGS…` in `directory`.
func runBinary(_ arguments: [String], in directory: String, timeout: Double = 120) throws -> BinaryRun {
  try runInShell(#"exec "$0" "$@""#, arguments, in: directory, timeout: timeout)
}

/// Whether this process may mount a tmpfs (root in a mount namespace).
let canMountTmpfs: Bool = {
  guard let dir = try? makeTemporaryDirectory() else { return false }
  defer { try? FileManager.default.removeItem(atPath: dir) }
  guard mountTmpfs(at: dir, options: "size=64k") else { return false }
  unmount(dir)
  return true
}()

@discardableResult
func mountTmpfs(at dir: String, options: String) -> Bool {
  let mount = Process()
  mount.executableURL = URL(fileURLWithPath: "/bin/mount")
  mount.arguments = ["-t", "tmpfs", "-o", options, "tmpfs", dir]
  mount.standardError = FileHandle.nullDevice
  guard (try? mount.run()) != nil else { return false }
  mount.waitUntilExit()
  return mount.terminationStatus == 0
}

func unmount(_ dir: String) {
  let umount = Process()
  umount.executableURL = URL(fileURLWithPath: "/bin/umount")
  umount.arguments = [dir]
  try? umount.run()
  umount.waitUntilExit()
}

/// `goodJob` with its list screen showing `image`.
func imageJob(name: String, image: String) -> String {
  goodJob(name: name).replacingOccurrences(of: "background: \"#F2F2F7\"", with: "image: \(image)")
}

/// The file type of `path` itself (a link is a link).
func fileType(_ path: String) -> mode_t? {
  var info = stat()
  return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
}

let outsideHint = "jobs may reach only their own folder; allow another with --allow-outside DIR"

@Suite(.serialized) struct FileSystemTests {
  // MARK: - One hostile job in a batch

  /// Jobs that point at a FIFO (as an image, a font, the job file itself),
  /// at /etc/passwd (as an image, a String Catalog), /dev/zero (a font) and
  /// outside their folder, a
  /// symlink planted at the old report temp name and at the report itself:
  /// the good jobs render, the report is written (a regular file, the link
  /// target untouched), exit 1, nothing written outside.
  @Test func hostileJobsDoNotStopTheBatch() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try write(goodJob(name: "a-good"), to: "a-good.cfg", in: jobs)
    #expect(mkfifo(path(jobs, "fifo.png"), 0o644) == 0)
    try write(imageJob(name: "b-fifo", image: "fifo.png"), to: "b-fifo.cfg", in: jobs)
    try write(imageJob(name: "c-passwd", image: "/etc/passwd"), to: "c-passwd.cfg", in: jobs)
    try write(
      goodJob(name: "d-outside").replacingOccurrences(of: "output: {", with: "output: { dir: ../../elsewhere,"),
      to: "d-outside.cfg", in: jobs)
    try write(
      goodJob(name: "e-absolute").replacingOccurrences(of: "output: {", with: "output: { dir: \(path(dir, "abs")),"),
      to: "e-absolute.cfg", in: jobs)
    try write(goodJob(name: "f-good", color: "#34C759"), to: "f-good.cfg", in: jobs)
    // A font file that is a FIFO inside the folder, /dev/zero as a font, the
    // password file as a String Catalog, and a job file that is a FIFO.
    func textJob(_ name: String, font: String) -> String {
      goodJob(name: name).replacingOccurrences(
        of: "color: \"#FF9500\", corner: 4 }", with: "text: \"Hi\", font: { file: \(font) } }")
    }
    #expect(mkfifo(path(jobs, "font-fifo.ttf"), 0o644) == 0)
    try write(textJob("g-font-fifo", font: "font-fifo.ttf"), to: "g-font-fifo.cfg", in: jobs)
    try write(textJob("h-font-zero", font: "/dev/zero"), to: "h-font-zero.cfg", in: jobs)
    try write(
      goodJob(name: "i-strings").replacingOccurrences(of: "output: {", with: "strings: /etc/passwd\noutput: {"),
      to: "i-strings.cfg", in: jobs)
    #expect(mkfifo(path(jobs, "j-fifo.cfg"), 0o644) == 0)
    try write("do not overwrite", to: "victim.txt", in: dir)
    try FileManager.default.createDirectory(atPath: path(dir, "out"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: path(dir, "victim-folder"), withIntermediateDirectories: true)
    try write("keep", to: "victim-folder/keep.txt", in: dir)

    // Links where the old report temp name, the report and this process's staging folder go.
    let plant = #"ln -s victim.txt "report.json.tmp-$$" && ln -s victim.txt report.json && "#
      + #"ln -s ../victim-folder "out/.transvid-partial-\#(StaleStaging.namespace)-$$" && exec "$0" "$@""#
    let run = try runInShell(
      plant, ["jobs", "-q", "-j", "2", "--report", "report.json", "--junit", "fresh/ci/junit.xml"], in: dir)
    #expect(run.reason == .exit && run.status == 1, "\(run.stderr)")
    #expect(
      run.lines.sorted() == [
        "jobs/b-fifo.cfg:6:5: error: screens.list.image: cannot read 'fifo.png': not a regular file (a FIFO)",
        "jobs/c-passwd.cfg:6:5: error: screens.list.image: '/etc/passwd' is outside the job's folder (\(outsideHint))",
        "jobs/d-outside.cfg:3:16: error: output.dir: '../../elsewhere' is outside the job's folder (\(outsideHint))",
        "jobs/e-absolute.cfg:3:16: error: output.dir: '\(path(dir, "abs"))' is outside the job's folder (\(outsideHint))",
        "jobs/g-font-fifo.cfg:8:70: error: screens.list.views[0].font: cannot load font 'font-fifo.ttf': "
          + "not a regular file (a FIFO)",
        "jobs/h-font-zero.cfg:8:70: error: screens.list.views[0].font.file: '/dev/zero' is outside the job's folder "
          + "(\(outsideHint))",
        "jobs/i-strings.cfg:3:10: error: strings: '/etc/passwd' is outside the job's folder (\(outsideHint))",
        "jobs/j-fifo.cfg:1:1: error: cannot read job file: not a regular file (a FIFO)",
      ])
    // The good jobs rendered whole.
    for name in ["a-good", "f-good"] {
      #expect(try VideoReader(path: path(dir, "out/\(name).mp4")).readAll().count == 5)
    }
    #expect(files(in: path(dir, "out")).keys.sorted() == ["a-good.mp4", "f-good.mp4"])
    #expect(!FileManager.default.fileExists(atPath: path((dir as NSString).deletingLastPathComponent, "elsewhere")))
    #expect(!FileManager.default.fileExists(atPath: path(dir, "abs")))
    // The report replaced the link (not its target); the planted temp link was not used.
    #expect(try String(contentsOfFile: path(dir, "victim.txt"), encoding: .utf8) == "do not overwrite")
    #expect(fileType(path(dir, "report.json")) == S_IFREG)
    #expect(try FileManager.default.contentsOfDirectory(atPath: path(dir, "victim-folder")) == ["keep.txt"])
    #expect(allEntries(in: path(dir, "out")).filter { $0.contains("partial") } == [])
    #expect(allEntries(in: dir).filter { $0.contains(".tmp") }.allSatisfy { fileType(path(dir, $0)) == S_IFLNK })
    let entries = try reportJobs(path(dir, "report.json"))
    #expect(entries.map { $0["status"] as? String } == ["rendered"] + Array(repeating: "failed", count: 4) + ["rendered"] + Array(repeating: "failed", count: 4))
    let report = try String(contentsOfFile: path(dir, "report.json"), encoding: .utf8)
    #expect(!report.contains("root:"))
    #expect(fileType(path(dir, "fresh/ci/junit.xml")) == S_IFREG)
  }

  /// A link inside the job's folder that leads out counts as outside;
  /// `--allow-outside DIR` lets a job write its `output.dir` and read an
  /// image in DIR (even a folder not made yet).
  /// The output folder deleted while a batch runs (here right after its
  /// first job is done): the later jobs make it again and render; they all
  /// failed, unable to write into the staging folder that went with it.
  @Test func outputFolderDeletedMidBatch() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs"), out = path(dir, "out")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    for name in ["a", "b", "c"] { try write(goodJob(name: name), to: "\(name).cfg", in: jobs) }
    let errors = Capture()
    let console = Console(
      print: { line in
        if line.contains("\"event\":\"done\"") && line.contains("\"job\":\"a\"") {
          try? FileManager.default.removeItem(atPath: out)
        }
      }, error: errors.console.error)
    #expect(TransvidCommand.run(["-j", "1", "--progress", "ndjson", "-o", out, jobs], console: console) == 0)
    #expect(errors.err == [])
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted() == ["b.mp4", "c.mp4"])
    #expect(allEntries(in: out).allSatisfy { !$0.contains(".transvid-partial") })
  }

  /// An image saved while its job renders (here as the render starts,
  /// after the cache key was worked out from the old bytes): the outputs
  /// are kept with a note, but not recorded, so the next run renders them
  /// again from the file as it is. They were recorded under the old
  /// image's key, so a run after the old image came back said "up to date"
  /// over a video of the new one (the fleet sweep).
  @Test func anImageSavedDuringTheRenderIsNotRecorded() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let red = try PNGWriter.encode(Bitmap(width: 8, height: 8, fill: Pixel(r: 255, g: 0, b: 0, a: 255)))
    let blue = try PNGWriter.encode(Bitmap(width: 8, height: 8, fill: Pixel(r: 0, g: 0, b: 255, a: 255)))
    try Data(red).write(to: URL(fileURLWithPath: path(dir, "img.png")))
    try Data(blue).write(to: URL(fileURLWithPath: path(dir, "blue.png")))
    // The poster at 0 s: the list screen, the image filling it.
    try write(
      imageJob(name: "job", image: "img.png").replacingOccurrences(of: "formats: [mp4],", with: "formats: [png], png: { time: 0 },"),
      to: "job.cfg", in: dir)
    let out = path(dir, "out")
    func centre() throws -> Pixel {
      let image = try ImageDecoder.decode(path: path(out, "job.png"))
      return image[image.width / 2, image.height / 2]
    }
    let events = Capture()
    let swapping = Console(
      print: { line in
        if line.contains("\"event\":\"start\"") { _ = rename(path(dir, "blue.png"), path(dir, "img.png")) }
        events.console.print(line)
      }, error: events.console.error)
    #expect(TransvidCommand.run(["--progress", "ndjson", "-o", out, path(dir, "job.cfg")], console: swapping) == 0)
    let first = try centre()
    #expect(first.r == 0 && first.b == 255)
    let notes = events.out.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
      .filter { $0["event"] as? String == "note" }.compactMap { $0["note"] as? String }
    #expect(
      notes.map { $0.replacingOccurrences(of: dir + "/", with: "") } == [
        "job.cfg:6:5: note: 'img.png' changed while the job rendered; its outputs are kept but not recorded as up to date, "
          + "so the next run renders them again"
      ], "\(events.out) \(events.err)")
    // The old image back: rendered again, red.
    try Data(red).write(to: URL(fileURLWithPath: path(dir, "img.png")))
    let again = Capture()
    #expect(TransvidCommand.run(["--progress", "plain", "-o", out, path(dir, "job.cfg")], console: again.console) == 0)
    #expect(!again.out.contains { $0.hasSuffix("up to date") }, "\(again.out)")
    let pixel = try centre()
    #expect(pixel.r == 255 && pixel.b == 0, "\(again.out) \(again.err) \(pixel)")
  }

  /// A font file outside the job's folder is named as the job writes it,
  /// as an image is (it was relative to the working folder: 'jobs/../fonts/x.ttf').
  @Test func fontOutsideTheFolderIsNamedAsWritten() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "jobs"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: path(dir, "fonts"), withIntermediateDirectories: true)
    try write("not read", to: "fonts/x.ttf", in: dir)
    let job = try write(
      goodJob(name: "k").replacingOccurrences(
        of: "color: \"#FF9500\", corner: 4 }", with: "text: \"Hi\", font: { file: ../fonts/x.ttf } }"),
      to: "k.cfg", in: path(dir, "jobs"))
    let capture = Capture()
    #expect(transvid(["-q", "-o", path(dir, "out"), job], capture) == 1)
    #expect(
      capture.err == [
        "\(job):8:70: error: screens.list.views[0].font.file: '../fonts/x.ttf' is outside the job's folder (\(outsideHint))"
      ])
  }

  @Test func allowOutsideNamesTheFoldersAJobMayReach() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs"), shared = path(dir, "shared")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: path(AssetLoaderTests.assets, "cover.png"), toPath: path(shared, "cover.png"))
    try FileManager.default.createSymbolicLink(atPath: path(jobs, "link"), withDestinationPath: "../shared")
    try write(
      imageJob(name: "linked", image: "link/cover.png").replacingOccurrences(
        of: "output: {", with: "output: { dir: ../published/demos,"),
      to: "linked.cfg", in: jobs)
    let refused = try runBinary(["jobs/linked.cfg", "-q"], in: dir)
    #expect(refused.status == 1)
    #expect(refused.lines == ["jobs/linked.cfg:6:5: error: screens.list.image: 'link/cover.png' is outside the job's folder (\(outsideHint))"])
    let allowed = try runBinary(
      ["jobs/linked.cfg", "-q", "--allow-outside", "shared", "--allow-outside", path(dir, "published")], in: dir)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(try VideoReader(path: path(dir, "published/demos/linked.mp4")).readAll().count == 5)
  }

  /// A loop of links is said as a loop, and a link to nothing as missing,
  /// not as outside the folder; an
  /// `output.dir` that is a file is an error at that key.
  @Test func loopsAndFilesInTheWayAreSaidAtTheirKey() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createSymbolicLink(atPath: path(dir, "loop1.png"), withDestinationPath: "loop2.png")
    try FileManager.default.createSymbolicLink(atPath: path(dir, "loop2.png"), withDestinationPath: "loop1.png")
    try write(imageJob(name: "loop", image: "loop1.png"), to: "loop.cfg", in: dir)
    let loop = try runBinary(["loop.cfg", "-q", "-o", "out"], in: dir)
    #expect(loop.status == 1)
    #expect(loop.lines == ["loop.cfg:6:5: error: screens.list.image: cannot read 'loop1.png': Too many levels of symbolic links"])
    // A link to nothing is missing, with its target, even where every folder is allowed.
    try FileManager.default.createSymbolicLink(atPath: path(dir, "dangling.png"), withDestinationPath: "gone.png")
    try write(imageJob(name: "dangling", image: "dangling.png"), to: "dangling.cfg", in: dir)
    // So is a folder link to nothing on the way, a catalog link and an output.dir link.
    try FileManager.default.createSymbolicLink(atPath: path(dir, "folder"), withDestinationPath: "nowhere")
    try write(imageJob(name: "inside", image: "folder/x.png"), to: "inside.cfg", in: dir)
    try FileManager.default.createSymbolicLink(atPath: path(dir, "cat.xcstrings"), withDestinationPath: "nocat.xcstrings")
    try write(
      goodJob(name: "cat").replacingOccurrences(of: "output: {", with: "locales: [en]\nstrings: cat.xcstrings\noutput: {"),
      to: "cat.cfg", in: dir)
    try write(
      goodJob(name: "dir").replacingOccurrences(of: "output: {", with: "output: { dir: folder,"), to: "dir.cfg", in: dir)
    for flags in [[], ["--allow-outside", "/"]] {
      for (job, message) in [
        ("dangling.cfg", "dangling.cfg:6:5: error: screens.list.image: cannot read 'dangling.png': No such file or directory (a symbolic link to gone.png)"),
        ("inside.cfg", "inside.cfg:6:5: error: screens.list.image: cannot read 'folder/x.png': No such file or directory (a symbolic link ('folder') to nowhere)"),
        ("cat.cfg", "cat.cfg:4:10: error: strings: 'cat.xcstrings' cannot be read: No such file or directory (a symbolic link to nocat.xcstrings)"),
        ("dir.cfg", "dir.cfg:3:16: error: output.dir: cannot use 'folder': No such file or directory (a symbolic link to nowhere)"),
      ] {
        let run = try runBinary([job, "-q"] + flags, in: dir)
        #expect(run.status == 1)
        #expect(run.lines == [message], "\(flags)")
      }
    }
    try write("not a folder", to: "taken", in: dir)
    try write(
      goodJob(name: "taken").replacingOccurrences(of: "output: {", with: "output: { dir: taken/demos,"), to: "taken.cfg", in: dir)
    let taken = try runBinary(["taken.cfg", "-q"], in: dir)
    #expect(taken.status == 1)
    #expect(taken.lines == ["taken.cfg:3:16: error: output.dir: create folder 'taken/demos': 'taken' is a regular file"])
    #expect(try String(contentsOfFile: path(dir, "taken"), encoding: .utf8) == "not a folder")
  }

  // MARK: - Image reads

  /// A FIFO, /dev/zero, a link to /dev/urandom and a file over the byte cap
  /// are refused before anything is read; each run ends within seconds.
  @Test func imagesAreRegularFilesOfBoundedSize() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(mkfifo(path(dir, "fifo.png"), 0o644) == 0)
    try FileManager.default.createSymbolicLink(atPath: path(dir, "noise.png"), withDestinationPath: "/dev/urandom")
    let big = FileHandle(forWritingAtPath: try write("", to: "big.png", in: dir))!
    try big.truncate(atOffset: UInt64(256 << 20) + 1)  // sparse: no disk used
    try big.close()
    for (image, reason) in [
      ("fifo.png", "not a regular file (a FIFO)"),
      ("/dev/zero", "not a regular file (a character device)"),
      ("noise.png", "not a regular file (a character device)"),
      ("big.png", "the file is 268435457 bytes, over the limit of 268435456"),
    ] {
      try write(imageJob(name: "job", image: image), to: "job.cfg", in: dir)
      let start = Date()
      let run = try runBinary(["frame", "job.cfg", "--time", "0", "-o", "f.png", "--allow-outside", "/dev"], in: dir, timeout: 30)
      #expect(run.status == 1)
      #expect(run.lines == ["job.cfg:6:5: error: screens.list.image: cannot read '\(image)': \(reason)"])
      #expect(Date().timeIntervalSince(start) < 20)
    }
    #expect(!FileManager.default.fileExists(atPath: path(dir, "f.png")))
  }

  // MARK: - Output targets

  /// `frame -o` onto a device node made here or a FIFO, and a batch output
  /// path that is a FIFO: refused, the node left as it was; `frame`'s -o
  /// is checked before the job is read, a usage error as a batch's -o is.
  /// (/dev/null is no PNG name: a usage error.)
  @Test func outputsThatAreNotRegularFilesAreRefused() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(), to: "good.cfg", in: dir)
    #expect(mkfifo(path(dir, "pipe.png"), 0o644) == 0)
    let null = try runBinary(["frame", "good.cfg", "--time", "0.1", "-o", "/dev/null"], in: dir)
    #expect(null.status == 2)
    #expect(null.lines.first == "transvid: 'frame' writes a PNG: -o needs a file name ending in .png, got '/dev/null'")
    var targets = [("pipe.png", "a FIFO")]
    if mknod(path(dir, "null.png"), S_IFCHR | 0o666, dev_t(0x103)) == 0 {  // 1:3, what /dev/null is; root only
      targets.append(("null.png", "a character device"))
    }
    for (target, kind) in targets {
      let run = try runBinary(["frame", "good.cfg", "--time", "0.1", "-o", target], in: dir)
      #expect(run.status == 2)
      #expect(
        run.lines == [
          "transvid: -o '\(target)': it is \(kind), not a regular file; transvid writes only regular files",
          "Run 'transvid --help' for usage.",
        ])
    }
    #expect(fileType("/dev/null") == S_IFCHR)
    #expect(fileType(path(dir, "pipe.png")) == S_IFIFO)

    try FileManager.default.createDirectory(atPath: path(dir, "out"), withIntermediateDirectories: true)
    #expect(mkfifo(path(dir, "out/good.mp4"), 0o644) == 0)
    let run = try runBinary(["good.cfg", "-o", "out", "-q"], in: dir)
    #expect(run.status == 1)
    #expect(
      run.lines == [
        "good.cfg: error: write 'out/good.mp4': it is a FIFO, not a regular file; transvid writes only regular files"
      ])
    #expect(fileType(path(dir, "out/good.mp4")) == S_IFIFO)
    #expect(allEntries(in: path(dir, "out")).filter { $0.contains("tmp") || $0.contains("partial") } == [])

    // Where the job's cache record goes: a folder (and what it holds) and a FIFO stay.
    try FileManager.default.removeItem(atPath: path(dir, "out/good.mp4"))
    let record = "out/.transvid-cache/good.mp4.json"
    try FileManager.default.createDirectory(atPath: path(dir, record + "/sub"), withIntermediateDirectories: true)
    try write("mine", to: "keep.txt", in: path(dir, record + "/sub"))
    let folder = try runBinary(["good.cfg", "-o", "out", "-q"], in: dir)
    #expect(folder.status == 1)
    #expect(folder.lines == ["good.cfg: error: write '\(record)': it is a folder, not a regular file; transvid writes only regular files"])
    #expect(FileManager.default.contents(atPath: path(dir, record + "/sub/keep.txt")) == Data("mine".utf8))
    try FileManager.default.removeItem(atPath: path(dir, record))
    #expect(mkfifo(path(dir, record), 0o644) == 0)
    let fifo = try runBinary(["good.cfg", "-o", "out", "-q"], in: dir)
    #expect(fifo.status == 1)
    #expect(fifo.lines == ["good.cfg: error: write '\(record)': it is a FIFO, not a regular file; transvid writes only regular files"])
    #expect(fileType(path(dir, record)) == S_IFIFO)
  }

  // MARK: - Reports

  /// Reports into folders that do not exist yet (also when this shard got no
  /// job), and a JUnit file that stays valid XML when a job's file name holds
  /// U+FFFE and a control character (python3's XML parser is the oracle); on
  /// the console the control character is escaped.
  @Test func reportsCreateFoldersAndJUnitIsValidXML() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try write(goodJob(), to: "good.cfg", in: jobs)
    try write("name: [", to: "bad\u{FFFE}\u{1}.cfg", in: jobs)
    let empty = try runBinary(["jobs/good.cfg", "-q", "--shard", "2/2", "--junit", "fresh/junit-2.xml"], in: dir)
    #expect(empty.status == 0, "\(empty.stderr)")
    let run = try runBinary(
      ["jobs", "-q", "--junit", "a/b/junit.xml", "--report", "c/report.json", "--gallery", "d/e"], in: dir)
    #expect(run.status == 1)
    #expect(run.lines.count == 1 && run.lines[0].hasPrefix("jobs/bad\u{FFFE}\\u{1}.cfg:"), "\(run.lines)")
    #expect(try reportJobs(path(dir, "c/report.json")).count == 2)
    #expect(fileType(path(dir, "d/e/index.html")) == S_IFREG)
    for junit in ["fresh/junit-2.xml", "a/b/junit.xml"] {
      let python = Process()
      python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
      python.arguments = [
        "-c", "import sys, xml.etree.ElementTree as E; print(len(E.parse(sys.argv[1]).getroot().findall('.//testcase')))",
        path(dir, junit),
      ]
      let out = Pipe()
      python.standardOutput = out
      python.standardError = FileHandle.nullDevice
      try python.run()
      let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      python.waitUntilExit()
      #expect(python.terminationStatus == 0, "\(junit) is not well-formed XML")
      #expect(printed == (junit.hasPrefix("fresh") ? "0\n" : "2\n"), "\(junit)")
    }
  }

  /// `--report`/`--junit`/`--gallery` naming an output, a job file, an
  /// image or each other: a usage error, nothing touched.
  @Test func reportsNeverOverwriteTheRun() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(name: "base"), to: "job.cfg", in: dir)
    let job = try String(contentsOfFile: path(dir, "job.cfg"), encoding: .utf8)
    #expect(try runBinary(["job.cfg", "-o", "out", "-q"], in: dir).status == 0)
    let video = try #require(FileManager.default.contents(atPath: path(dir, "out/base.mp4")))
    // A job that reads a font file and a String Catalog of its folder.
    try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: path(dir, "App.ttf"))
    let catalog = try write(
      #"{"sourceLanguage":"en","strings":{"t":{"localizations":{"en":{"stringUnit":{"state":"translated","value":"Hi"}}}}},"version":"1.0"}"#,
      to: "strings.xcstrings", in: dir)
    try write(
      goodJob(name: "cat").replacingOccurrences(of: "output: {", with: "locales: [en]\nstrings: strings.xcstrings\noutput: {")
        .replacingOccurrences(of: "color: \"#FF9500\", corner: 4 }", with: "text: { key: t }, font: { file: App.ttf } }"),
      to: "cat.cfg", in: dir)
    let font = try #require(FileManager.default.contents(atPath: path(dir, "App.ttf")))
    let strings = try String(contentsOfFile: catalog, encoding: .utf8)
    for (flags, message) in [
      (["cat.cfg", "--report", "App.ttf"], "--report 'App.ttf' would overwrite the font 'App.ttf' of cat.cfg"),
      (["cat.cfg", "--junit", "strings.xcstrings"], "--junit 'strings.xcstrings' would overwrite the String Catalog of cat.cfg"),
      (["--cache", "c", "--report", "c/entries/x/mp4.mp4"],
        "--report 'c/entries/x/mp4.mp4' would overwrite a file of the --cache store 'c'"),
      (["--report", "out/base.mp4"], "--report 'out/base.mp4' would overwrite the output 'out/base.mp4' of job.cfg"),
      (["--report", "job.cfg"], "--report 'job.cfg' would overwrite the job file job.cfg"),
      (["--junit", "./out/../job.cfg"], "--junit './out/../job.cfg' would overwrite the job file job.cfg"),
      // Through a folder not there yet: it would be made, and `..` leads back (the fleet sweep).
      (["--report", "new/../job.cfg"], "--report 'new/../job.cfg' would overwrite the job file job.cfg"),
      (["cat.cfg", "--report", "new/deeper/../../App.ttf"],
        "--report 'new/deeper/../../App.ttf' would overwrite the font 'App.ttf' of cat.cfg"),
      (["--report", "r.json", "--junit", "r.json"], "--junit 'r.json' would overwrite the --report file"),
      // A file where another of the run's files needs a folder: only one of the two could be written.
      (["--report", "g", "--gallery", "g"], "--gallery 'g/index.html' would need a folder where the --report file is"),
      (["--junit", "new/j", "--report", "new/j/r.json"], "--junit 'new/j' would be a file where the --report file needs a folder"),
      (["--report", "out/x/r.json", "--junit", "out/x"], "--junit 'out/x' would be a file where the --report file needs a folder"),
      (["--report", "c", "--cache", "c/store"], "--report 'c' would be a file where the --cache store 'c/store' needs a folder"),
    ] {
      let run = try runBinary(["job.cfg", "-o", "out", "-q", "--force"] + flags, in: dir)
      #expect(run.status == 2, "\(flags)")
      #expect(run.lines == ["transvid: \(message)"])
    }
    #expect(FileManager.default.contents(atPath: path(dir, "out/base.mp4")) == video)
    #expect(try String(contentsOfFile: path(dir, "job.cfg"), encoding: .utf8) == job)
    #expect(FileManager.default.contents(atPath: path(dir, "App.ttf")) == font)
    #expect(try String(contentsOfFile: catalog, encoding: .utf8) == strings)
    #expect(!FileManager.default.fileExists(atPath: path(dir, "r.json")))
    // An output folder that is the report: the outputs need it as a folder.
    let folder = try runBinary(["job.cfg", "-o", "o2/r.json", "--report", "o2/r.json", "-q"], in: dir)
    #expect(folder.status == 2)
    #expect(folder.lines == ["transvid: --report 'o2/r.json' would be a file where the output 'o2/r.json/base.mp4' of job.cfg needs a folder"])
    for made in ["g", "new", "out/x", "c", "o2"] { #expect(!FileManager.default.fileExists(atPath: path(dir, made)), "\(made)") }
  }

  /// An output or `frame -o` that is a file the run reads — the job's own
  /// screenshot (a poster named like it), the job file itself — fails that
  /// job (the others render) or is a usage error, and the file is untouched.
  @Test func outputsNeverOverwriteInputs() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.copyItem(atPath: AssetLoaderTests.assets + "/cover.png", toPath: path(dir, "home.png"))
    let screenshot = try #require(FileManager.default.contents(atPath: path(dir, "home.png")))
    try write(
      goodJob(name: "home", formats: "[png]").replacingOccurrences(of: "output: {", with: "output: { dir: ., ")
        .replacingOccurrences(of: "background: \"#F2F2F7\"", with: "image: home.png"),
      to: "home.cfg", in: dir)
    try write(goodJob(name: "self", formats: "[png]").replacingOccurrences(of: "output: {", with: "output: { dir: ., "),
      to: "self.png", in: dir)
    let selfJob = try #require(FileManager.default.contents(atPath: path(dir, "self.png")))
    try write(goodJob(name: "other", formats: "[png]"), to: "other.cfg", in: dir)
    let run = try runBinary(["home.cfg", "self.png", "other.cfg", "-q"], in: dir)
    #expect(run.status == 1)
    #expect(run.lines.sorted() == [
      "home.cfg:1:7: error: output './home.png' would overwrite the image 'home.png' of home.cfg, which the run reads; "
        + "give the job another name or output.dir",
      "self.png:1:7: error: output './self.png' would overwrite the job file self.png, which the run reads; "
        + "give the job another name or output.dir",
    ])
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/other.png")))
    // An output folder not there yet, then `..`: the poster would land on the screenshot (the fleet sweep).
    let through = try runBinary(["home.cfg", "-o", "new/..", "-q"], in: dir)
    #expect(through.status == 1)
    #expect(through.lines == [
      "home.cfg:1:7: error: output 'new/../home.png' would overwrite the image 'home.png' of home.cfg, which the run reads; "
        + "give the job another name or output.dir"
    ])
    for (flags, message) in [
      (["home.cfg", "-o", "./home.png"], "-o './home.png' would overwrite the image 'home.png' of home.cfg"),
      (["self.png", "-o", "self.png"], "-o 'self.png' would overwrite the job file self.png"),
      (["home.cfg", "-o", "new/../home.png"], "-o 'new/../home.png' would overwrite the image 'home.png' of home.cfg"),
    ] {
      let frame = try runBinary(["frame"] + flags + ["--time", "0"], in: dir)
      #expect(frame.status == 2)
      #expect(frame.lines == ["transvid: \(message); write the frame elsewhere"])
    }
    #expect(FileManager.default.contents(atPath: path(dir, "home.png")) == screenshot)
    #expect(FileManager.default.contents(atPath: path(dir, "self.png")) == selfJob)
    #expect(try String(contentsOfFile: path(dir, "home.cfg"), encoding: .utf8).hasPrefix("name: home"))
  }

  /// An `output.dir` through a folder not made yet and back (`new/../out`)
  /// lies inside the job's folder and renders there; one that climbs out
  /// through it (`new/../../elsewhere`) is outside (the fleet sweep: both
  /// were called outside, the first wrongly).
  @Test func anOutputFolderThroughAFolderNotMadeYetIsWhereItLands() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try write(
      goodJob(name: "in").replacingOccurrences(of: "output: {", with: "output: { dir: new/../out,"), to: "in.cfg", in: jobs)
    try write(
      goodJob(name: "up").replacingOccurrences(of: "output: {", with: "output: { dir: new/../../elsewhere,"),
      to: "up.cfg", in: jobs)
    let run = try runBinary(["jobs", "-q"], in: dir)
    #expect(run.status == 1)
    #expect(run.lines == [
      "jobs/up.cfg:3:16: error: output.dir: 'new/../../elsewhere' is outside the job's folder (\(outsideHint))"
    ])
    #expect(try VideoReader(path: path(jobs, "out/in.mp4")).readAll().count == 5)
    #expect(!FileManager.default.fileExists(atPath: path(dir, "elsewhere")))
  }

  /// An output folder whose first name holds a ':' (`out:1` in `output.dir`,
  /// `-o http:127.0.0.1:1`) is a folder beside the job like any other: the
  /// files FFmpeg writes (MP4, WebM, MOV, APNG) land in it, where FFmpeg
  /// took `out:` for a protocol it lacks and `http:` for one that sends the
  /// file to that host.
  @Test func outputFoldersNamedLikeAURLAreLocalFolders() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(
      goodJob(name: "j", formats: "[mp4, webm, mov, apng]").replacingOccurrences(of: "output: {", with: "output: { dir: \"out:1\", "),
      to: "j.cfg", in: dir)
    for (arguments, folder) in [(["j.cfg", "-q"], "out:1"), (["j.cfg", "-q", "-o", "http:127.0.0.1:1"], "http:127.0.0.1:1")] {
      let run = try runBinary(arguments, in: dir)
      #expect(run.status == 0, "\(arguments)")
      #expect(run.lines == [], "\(arguments)")
      for (file, codec) in [("j.mp4", "h264"), ("j.webm", "vp9"), ("j.mov", "prores"), ("j.apng.png", "apng")] {
        let reader = try VideoReader(path: path(path(dir, folder), file))
        #expect(reader.codecName == codec, "\(folder)/\(file)")
        #expect(try reader.nextFrame()?.width == 60, "\(folder)/\(file)")
      }
    }
  }

  /// Every output, rendered or copied from `--cache`, and every record and
  /// report, has mode 0666 less the umask, as `cp` and the shell's `>` give
  /// a new file: FFmpeg's files (MP4, WebM, MOV, APNG) had it, while the
  /// GIF, PNG, contact sheet and WebP, and every copy from the store, were
  /// 0644 (0664 under `umask 002`, a team's shared folder, for the ones and
  /// not the others).
  @Test func everyFileWrittenHasTheUmasksMode() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(name: "j", formats: "[mp4, gif, png, sheet, webm, mov, apng, webp]"), to: "j.cfg", in: dir)
    let outputs = ["j.mp4", "j.gif", "j.png", "j.sheet.png", "j.webm", "j.mov", "j.apng.png", "j.webp"]
    func modes(_ files: [String]) -> [String: String] {
      Dictionary(uniqueKeysWithValues: files.map { file in
        var info = stat()
        return (file, lstat(path(dir, file), &info) == 0 ? String(info.st_mode & 0o7777, radix: 8) : "missing")
      })
    }
    for (umask, mode) in [("002", "664"), ("077", "600")] {
      for (out, copied) in [("rendered-\(umask)", false), ("copied-\(umask)", true)] {
        let run = try runInShell(
          "umask \(umask); exec \"$0\" \"$@\"", ["j.cfg", "-q", "-o", out, "--cache", "cache-\(umask)", "--report", "\(out)/r.json"],
          in: dir)
        #expect(run.status == 0 && run.lines == [], "\(run.stderr)")
        let files = outputs.map { "\(out)/\($0)" } + ["\(out)/r.json", "\(out)/.transvid-cache/j.mp4+gif+png+sheet+webm+mov+apng+webp.json"]
        #expect(modes(files) == Dictionary(uniqueKeysWithValues: files.map { ($0, mode) }), "umask \(umask), copied: \(copied)")
      }
    }
  }

  /// A name within its 200 bytes whose locale, appearance and formats
  /// make a file name past the file system's 255 (with the temporary
  /// suffix) is an error at `name:` from `check` on, where the job
  /// rendered, failed to rename its cache record, and failed every run.
  @Test func fileNamesTheRunComposesFitTheFileSystem() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let name = String(repeating: "n", count: 200)
    let formats = "[mp4, gif, webm, mov, apng, webp, png, sheet]"
    try write(goodJob(name: name, formats: formats), to: "long.cfg", in: dir)
    try write(goodJob(name: String(repeating: "n", count: 180), formats: "[png]"), to: "fits.cfg", in: dir)
    let check = try runBinary(["check", "long.cfg", "fits.cfg"], in: dir)
    #expect(check.status == 1)
    // Named with the formats in their own order (`OutputCache.keyOrder`).
    let record = "\(name).mp4+gif+png+sheet+webm+mov+apng+webp.json"
    #expect(check.lines.first == "long.cfg:1:7: error: name: the file '\(record)' this job writes has a name of 242 bytes; "
      + "file systems allow 230 with transvid's temporary suffix (shorten the name or write fewer formats)")
    #expect(check.lines.count == 1)  // fits.cfg is fine
  }

  /// The cache folder is transvid's own: a link in its place (to a folder
  /// outside, say) fails the job, and no record goes through it.
  @Test func aLinkedCacheFolderIsRefused() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(name: "good", formats: "[png]"), to: "good.cfg", in: dir)
    try FileManager.default.createDirectory(atPath: path(dir, "out"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: path(dir, "elsewhere"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: path(dir, "out/.transvid-cache"), withDestinationPath: "../elsewhere")
    let run = try runBinary(["good.cfg", "-q"], in: dir)
    #expect(run.status == 1)
    #expect(run.lines == [
      "good.cfg: error: 'out/.transvid-cache' is a symbolic link; transvid keeps its records in a folder of its own there"
    ])
    #expect(try FileManager.default.contentsOfDirectory(atPath: path(dir, "elsewhere")).isEmpty)
  }

  /// `check` finds what a render would: an image that is no image, one
  /// whose header declares too many pixels, a `maxBytes` below the lowest
  /// rate — each at its key, without rendering.
  @Test func checkReadsImagesToTheirHeadersAndHoldsBudgets() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write("just text", to: "text.png", in: dir)
    let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Corpus/images/png-bomb-side.png").path
    try FileManager.default.copyItem(atPath: corpus, toPath: path(dir, "wide.png"))
    try write(imageJob(name: "text", image: "text.png"), to: "text.cfg", in: dir)
    try write(imageJob(name: "wide", image: "wide.png"), to: "wide.cfg", in: dir)
    try write(
      goodJob(name: "budget").replacingOccurrences(of: "mp4: { crf: 23, preset: ultrafast }", with: "mp4: { maxBytes: 1024 }"),
      to: "budget.cfg", in: dir)
    try write(goodJob(name: "fine"), to: "fine.cfg", in: dir)
    let check = try runBinary(["check", "text.cfg", "wide.cfg", "budget.cfg", "fine.cfg"], in: dir)
    #expect(check.status == 1)
    #expect(check.lines == [
      "text.cfg:6:5: error: screens.list.image: cannot decode 'text.png': not a PNG, JPEG, WebP, GIF or BMP image (unrecognised signature)",
      "wide.cfg:6:5: error: screens.list.image: cannot decode 'wide.png': PNG declares 100000×100000 = 10000000000 pixels, over the limits of 16384 per side and 100000000 in all",
      "budget.cfg:3:44: error: output.mp4.maxBytes: 1024 bytes over 0.50 s is 16.3 kb/s, below the lowest rate (20 kb/s)",
    ])
  }

  /// An `output.dir` of 1500 nested folders that exist (the second night's
  /// run) resolves in a moment: `realpath` of each part walked the whole
  /// path again, 40 s of system time for 1000 parts in the batch's own
  /// planning, before any worker, where `--job-timeout` does not reach
  /// (the hardening sweep).
  @Test func aDeepOutputFolderResolvesInAMoment() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let deep = String(repeating: "d/", count: 1500)
    try FileManager.default.createDirectory(atPath: path(dir, deep), withIntermediateDirectories: true)
    try write(
      goodJob(name: "deep").replacingOccurrences(of: "output: {", with: "output: { dir: \(deep),"), to: "deep.cfg", in: dir)
    let run = try runBinary(["deep.cfg", "-q", "--format", "png", "--job-timeout", "20"], in: dir, timeout: 20)
    #expect(run.reason == .exit && run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: path(dir, deep + "deep.png")))
  }

  // MARK: - Clear errors

  /// `-o` naming a file, below a file, a link to nothing (usage errors), empty; `.transvid-cache` a file;
  /// a read-only `-o` (a read-only tmpfs when mounting works): the system's
  /// words, no NSCocoaErrorDomain.
  @Test func folderProblemsAreSaidPlainly() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(), to: "good.cfg", in: dir)
    try write("x", to: "afile", in: dir)
    try FileManager.default.createDirectory(atPath: path(dir, "cached"), withIntermediateDirectories: true)
    try write("x", to: "cached/.transvid-cache", in: dir)
    try FileManager.default.createSymbolicLink(atPath: path(dir, "gone"), withDestinationPath: "nowhere")
    var cases = [
      // A file for -o fails every job alike: a usage error before any. So does a file where one of
      // its folders should be, as for `gallery -o` (it failed each job, exit 1: the CLI sweep).
      (["-o", "afile"], 2, "transvid: -o 'afile' is a file; outputs go into a folder"),
      (["-o", "afile/sub"], 2, "transvid: -o 'afile/sub': 'afile' is a regular file"),
      (["-o", "afile/sub/deeper"], 2, "transvid: -o 'afile/sub/deeper': 'afile' is a regular file"),
      // A link to nothing is said as one (each job said only that no folder could be made inside it: the CLI sweep).
      (["-o", "gone"], 2, "transvid: -o 'gone': 'gone' is a symbolic link to 'nowhere': No such file or directory"),
      (["-o", "gone/sub"], 2, "transvid: -o 'gone/sub': 'gone' is a symbolic link to 'nowhere': No such file or directory"),
      (["-o", "cached"], 1, "good.cfg: error: create folder 'cached/.transvid-cache': 'cached/.transvid-cache' is a regular file"),
      (["-o", ""], 2, "transvid: option -o needs a path, got an empty one"),
      (["--report", ""], 2, "transvid: option --report needs a path, got an empty one"),
    ]
    let readOnly = path(dir, "ro")
    try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
    let mounted = canMountTmpfs && mountTmpfs(at: readOnly, options: "ro,size=64k")
    defer { if mounted { unmount(readOnly) } }
    if mounted { cases.append((["-o", "ro/out"], 1, "good.cfg: error: create folder 'ro/out': Read-only file system")) }
    for (flags, status, message) in cases {
      let run = try runBinary(["good.cfg", "-q"] + flags, in: dir)
      #expect(run.status == Int32(status), "\(flags)")
      #expect(run.lines.first == message, "\(flags)")
      #expect(!run.stderr.contains("NSCocoaErrorDomain"))
    }
    #expect(files(in: dir).keys.sorted() == ["afile", "good.cfg"])
  }

  /// A full disk (a 64 KiB tmpfs, filled) under the report, the JUnit file
  /// and a poster: "No space left on device", exit 1, no temp file left.
  @Test(.enabled(if: canMountTmpfs, "needs to mount a tmpfs (root)"))
  func fullDiskUnderReportsAndPosters() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let disk = path(dir, "disk")
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    #expect(mountTmpfs(at: disk, options: "size=64k"))
    defer { unmount(disk) }
    try Data(count: 63_000).write(to: URL(fileURLWithPath: path(disk, "filler")))
    try write(goodJob(), to: "good.cfg", in: dir)
    let reports = try runBinary(
      ["good.cfg", "-q", "-o", "out", "--format", "png", "--report", "disk/r.json", "--junit", "disk/j.xml"], in: dir)
    #expect(reports.status == 1)
    #expect(
      reports.lines == [
        "transvid: cannot write the report 'disk/r.json': No space left on device",
        "transvid: cannot write the JUnit report 'disk/j.xml': No space left on device",
      ])
    let poster = try runBinary(["good.cfg", "-q", "-o", "disk/out", "--format", "png,sheet"], in: dir)
    #expect(poster.status == 1)
    #expect(poster.lines == ["good.cfg: error: write 'disk/out/good.png': No space left on device"])
    #expect(allEntries(in: disk).filter { $0 != "filler" && $0 != "out" && $0 != "out/.transvid-cache" } == [])
    // A --cache store on the full disk: the job is done and says it is not in the store (it said nothing).
    let stored = try runBinary(["good.cfg", "-o", "fresh", "--format", "png", "--cache", "disk/cache", "--progress", "plain"], in: dir)
    #expect(stored.status == 0)
    let note = stored.stderr.split(separator: "\n").filter { $0.hasPrefix("good.cfg:1:1: note: its outputs are not in the cache: write '") }
    #expect(note.count == 1 && note[0].hasSuffix("': No space left on device"), "\(stored.stderr)")
    #expect(FileManager.default.fileExists(atPath: path(dir, "fresh/good.png")))
  }

  // MARK: - Cache records

  /// Two jobs named alike with different formats in one folder: each keeps
  /// its own record, so the second and third runs render nothing.
  @Test func sameNameDifferentFormatsKeepTheirOwnRecords() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(name: "twin", formats: "[mp4]"), to: "a.cfg", in: dir)
    try write(goodJob(name: "twin", formats: "[png]"), to: "b.cfg", in: dir)
    var statuses: [[String?]] = []
    for _ in 0..<3 {
      #expect(try runBinary(["a.cfg", "b.cfg", "-o", "out", "-q", "--report", "r.json"], in: dir).status == 0)
      statuses.append(try reportJobs(path(dir, "r.json")).map { $0["status"] as? String })
    }
    #expect(statuses == [["rendered", "rendered"], ["cached", "cached"], ["cached", "cached"]])
    #expect(
      allEntries(in: path(dir, "out/.transvid-cache")) == ["twin.mp4.json", "twin.png.json"])
  }

  /// The order formats are listed in (`--format`, the job's `formats:`)
  /// changes no output's bytes, so it is no part of the key: `gif,mp4`
  /// after `mp4,gif` is up to date, with one record and one `--cache`
  /// entry, and the outputs come in the order asked. (The fleet sweep: it
  /// rendered again and left `j1.gif+mp4.json` beside `j1.mp4+gif.json`.)
  @Test func theOrderOfFormatsIsNoPartOfTheKey() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(goodJob(name: "j1", formats: "[mp4, gif]"), to: "j.cfg", in: dir)
    func run(_ arguments: [String]) throws -> ExecutableRun {
      let run = try runTransvid(arguments, in: dir)
      #expect(run.status == 0, "\(arguments) \(run.stderr)")
      return run
    }
    func bytes(_ file: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(dir, file))) }
    _ = try run(["j.cfg", "-o", "out", "--format", "mp4,gif", "--cache", "store", "-q"])
    #expect(try run(["plan", "j.cfg", "-o", "out", "--format", "gif,mp4"]).stdout.hasSuffix("  up to date\n"))
    _ = try run(["j.cfg", "-o", "out", "--format", "gif,mp4", "--report", "r.json", "-q"])
    let job = try #require(try reportJobs(path(dir, "r.json")).first)
    #expect(job["status"] as? String == "cached" && job["formats"] as? [String] == ["gif", "mp4"])
    #expect((job["outputs"] as? [[String: Any]])?.map { $0["path"] as? String } == ["out/j1.gif", "out/j1.mp4"])
    #expect(allEntries(in: path(dir, "out/.transvid-cache")) == ["j1.mp4+gif.json"])
    // The same bytes in either order, so the store's entry serves both.
    _ = try run(["j.cfg", "-o", "forced", "--format", "gif,mp4", "--force", "-q"])
    #expect(try bytes("forced/j1.gif") == bytes("out/j1.gif") && bytes("forced/j1.mp4") == bytes("out/j1.mp4"))
    let copied = try run(["j.cfg", "-o", "copied", "--format", "gif,mp4", "--cache", "store"])
    #expect(copied.stdout.components(separatedBy: "copied from the cache").count == 3, "\(copied.stdout)")
    #expect(try bytes("copied/j1.gif") == bytes("out/j1.gif") && bytes("copied/j1.mp4") == bytes("out/j1.mp4"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: path(dir, "store/entries")).count == 1)
    // The job's own list, reordered: up to date.
    _ = try run(["j.cfg", "-o", "own", "-q"])
    try write(goodJob(name: "j1", formats: "[gif, mp4]"), to: "j.cfg", in: dir)
    #expect(try run(["plan", "j.cfg", "-o", "own"]).stdout.hasSuffix("  up to date\n"))
  }
}
