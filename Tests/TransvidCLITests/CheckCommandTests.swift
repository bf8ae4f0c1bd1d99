// Issue 19, through the built executable: `transvid check` parses every job
// and renders nothing, exiting 1 when one is broken; `plan` exits 1 too and
// prints a broken job's error once; folders pick up *.yaml and *.yml; a
// folder without a job says "no jobs found" and exits 1; and the cache key
// is the job, not the way its path was typed (one render from three folders).

import Foundation
import Testing

@Suite struct CheckCommandTests {
  /// A folder with a good `.cfg`, a good `.yaml`, a broken `.yml`, and a
  /// `notes.txt` that is no job.
  static func makeFolder() throws -> String {
    let dir = try makeTemporaryDirectory()
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try write(smallJob(name: "one"), to: "one.cfg", in: jobs)
    try write(smallJob(name: "two"), to: "two.yaml", in: jobs)
    try write(smallJob(name: "bad").replacingOccurrences(of: "circle-spread", with: "circle-spred"), to: "bad.yml", in: jobs)
    try write("not a job", to: "notes.txt", in: jobs)
    return dir
  }

  @Test func checkParsesEveryJobRendersNothingAndFailsOnABrokenOne() throws {
    let dir = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let check = try runTransvid(["check", "jobs"], in: dir)
    #expect(check.status == 1)
    // The same error a render prints for the same file, once, in FILE:LINE:COL form.
    let render = try runTransvid(["jobs/bad.yml", "-o", "rendered", "-q"], in: dir)
    #expect(render.status == 1)
    #expect(check.errorLines == render.errorLines)
    let error = try #require(check.errorLines.first)
    #expect(error.wholeMatch(of: /jobs\/bad\.yml:[0-9]+:[0-9]+: error: .*circle-spred.*/) != nil, "\(error)")
    #expect(!error.contains("error: jobs/bad.yml"))
    #expect(
      check.stdout == """
        jobs/one.cfg  ok  57 frames  1.90 s video  240x400  mp4
        jobs/two.yaml  ok  57 frames  1.90 s video  240x400  mp4
        transvid: 3 jobs checked, 1 broken

        """)
    // Nothing rendered: no `out`, no cache folder, no staging folder (the broken render made none either).
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["jobs"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: path(dir, "jobs")).sorted() == ["bad.yml", "notes.txt", "one.cfg", "two.yaml"])

    try FileManager.default.removeItem(atPath: path(dir, "jobs/bad.yml"))
    let good = try runTransvid(["check", "jobs", "-q"], in: dir)
    #expect(good.status == 0 && good.stdout.isEmpty && good.stderr.isEmpty, "\(good)")
  }

  /// A job file's name may hold a newline, a tab or U+202E: the
  /// `FILE:LINE:COL: error:` line (where they were printed raw, though ESC
  /// was escaped) and check's and plan's rows show them as every message
  /// does, `\u{a}`, one line each. A hidden file in a folder (an editor's
  /// `.x.cfg`) is no job, as README says.
  @Test func fileNamesAreShownEscaped() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    try write(
      "name: bad\ncanvas: { size: 40x40, scale: 1, fps: 10 }\nscreens: { a: {} }\ntimeline: [hold: -1]\n", to: "x\ny\t\u{202E}z.cfg",
      in: jobs)
    try write(
      "name: good\ncanvas: { size: 40x40, scale: 1, fps: 10 }\noutput: { formats: [png] }\nscreens: { a: {} }\n"
        + "timeline: [hold: 0.1]\n", to: "g\nood.cfg", in: jobs)
    try write("not: a job\n", to: ".hidden.cfg", in: jobs)
    let check = try runTransvid(["check", "jobs"], in: dir)
    #expect(check.status == 1)
    #expect(
      check.stderr
        == "jobs/x\\u{a}y\\u{9}\\u{202e}z.cfg:4:18: error: timeline[0].hold: expected a number of seconds from 0 to 600, got -1\n")
    #expect(check.stdout == "jobs/g\\u{a}ood.cfg  ok  1 frame  0.10 s video  40x40  png\ntransvid: 2 jobs checked, 1 broken\n")
    let plan = try runTransvid(["plan", "jobs"], in: dir)
    let rows = plan.stdout.split(separator: "\n")
    #expect(rows.count == 2)
    #expect(rows.first?.hasPrefix("1/1  jobs/g\\u{a}ood.cfg  1 frame 40x40") == true)
    // The broken job's row is its shard, file and error: no "0 frames 0x0 cost 0" of a job never laid out.
    let brokenRow =
      "1/1  jobs/x\\u{a}y\\u{9}\\u{202e}z.cfg  broken  "
      + "jobs/x\\u{a}y\\u{9}\\u{202e}z.cfg:4:18: error: timeline[0].hold: expected a number of seconds from 0 to 600, got -1"
    let last = rows.last.map(String.init) ?? ""
    #expect(last == brokenRow, "\(last)")
  }

  /// `check` gives a job's length as the render's line gives its video's:
  /// whole frames at the canvas rate (1.5 s at 25 fps is 38 frames, 1.52 s).
  @Test func checkGivesTheLengthTheRenderGives() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(
      "name: held\ncanvas: { size: 40x60, scale: 1, fps: 25 }\noutput: { formats: [mp4], mp4: { preset: ultrafast } }\n"
        + "screens: { a: {} }\ntimeline: [hold: 1.5]\n", to: "held.cfg", in: dir)
    let check = try runTransvid(["check", "held.cfg"], in: dir)
    #expect(check.stdout == "held.cfg  ok  38 frames  1.52 s video  40x60  mp4\ntransvid: 1 job checked, 0 broken\n")
    let render = try runTransvid(["held.cfg", "-o", "out", "--progress", "plain"], in: dir)
    #expect(render.status == 0)
    #expect(render.stdout.hasPrefix("out/held.mp4  38 frames  1.52 s video  "), "\(render.stdout)")
  }

  /// A job font that cannot be loaded (a folder, bytes that are no font, a
  /// family fontconfig lacks) fails `check` with the error its render gives.
  @Test(arguments: ["{ file: fonts }", "{ file: junk.ttf }", "{ family: No Such Face }"])
  func checkLoadsTheJobsFonts(font: String) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "fonts"), withIntermediateDirectories: true)
    try write("no font", to: "junk.ttf", in: dir)
    try write(
      smallJob(name: "f").replacingOccurrences(
        of: "color: \"#FFFFFF\", corner: 8 }", with: "text: Hello, font: \(font) }"),
      to: "f.cfg", in: dir)
    try Self.expectCheckFailsAsTheRender("f.cfg", in: dir, saying: "f.cfg:8:")
  }

  /// An HDR PNG (a cICP of the PQ transfer function, no ICC profile), whose
  /// header is a plain 4×4 RGB PNG's, fails `check` with the error its render
  /// gives, at its `image:` key: check read only its header and passed it.
  @Test func checkRefusesAnHDRPNGAsTheRenderDoes() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // IHDR 4×4 RGB, cICP 9/16/0/1 (BT.2020, PQ, RGB, full range), IDAT of level 150, IEND.
    let png = Data(
      base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAABGNJQ1AJEAABTSMj/gAAAA9JREFUeJxjmIYEGIjjAADbkhwhdwihfQAAAABJRU5ErkJggg==")!
    try png.write(to: URL(fileURLWithPath: path(dir, "hdr.png")))
    try write(
      "name: hdr\ncanvas: { size: 40x40, scale: 1, fps: 10 }\noutput: { formats: [png] }\nscreens:\n  a: { image: hdr.png }\n"
        + "timeline: [hold: 0.2]\n", to: "hdr.cfg", in: dir)
    try Self.expectCheckFailsAsTheRender(
      "hdr.cfg", in: dir,
      saying: "hdr.cfg:5:8: error: screens.a.image: cannot decode 'hdr.png': an HDR PNG (its cICP chunk gives the PQ "
        + "transfer function), which transvid does not tone-map: export it as SDR (sRGB or Display P3)")
  }

  /// A job whose files cannot go where they go fails `check` with the error
  /// its render gives: its own `output.dir` a file (at that key), a file
  /// where the cache records' folder goes, a folder where its output goes
  /// (which the render found only after drawing every frame). Check said
  /// "ok" to all three; the render fails each, every run.
  @Test func checkRefusesAJobWhoseFilesCannotGoInPlace() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func job(_ name: String, _ output: String) -> String {
      "name: \(name)\ncanvas: { size: 40x40, scale: 1, fps: 10 }\noutput: { formats: [png]\(output) }\nscreens: { a: {} }\n"
        + "timeline: [hold: 0.2]\n"
    }
    try write("notes", to: "notes.txt", in: dir)
    try write(job("mine", ", dir: notes.txt/demos"), to: "mine.cfg", in: dir)
    try FileManager.default.createDirectory(atPath: path(dir, "records"), withIntermediateDirectories: true)
    try write("x", to: "records/.transvid-cache", in: dir)
    try write(job("record", ", dir: records"), to: "record.cfg", in: dir)
    try FileManager.default.createDirectory(atPath: path(dir, "out/folder.png"), withIntermediateDirectories: true)
    try write(job("folder", ""), to: "folder.cfg", in: dir)
    let expected = [
      "folder.cfg: error: write 'out/folder.png': it is a folder, not a regular file; transvid writes only regular files",
      "mine.cfg:3:32: error: output.dir: create folder 'notes.txt/demos': 'notes.txt' is a regular file",
      "record.cfg: error: create folder 'records/.transvid-cache': 'records/.transvid-cache' is a regular file",
    ]
    let check = try runTransvid(["check", "folder.cfg", "mine.cfg", "record.cfg"], in: dir)
    #expect(check.status == 1)
    #expect(check.errorLines == expected, "\(check.errorLines)")
    let render = try runTransvid(["folder.cfg", "mine.cfg", "record.cfg", "-q"], in: dir)
    #expect(render.status == 1)
    // Errors print as jobs fail, in any order.
    #expect(render.errorLines.sorted() == expected, "\(render.errorLines)")
  }

  /// `check FILE` and a render of it both exit 1 with the same one error, which contains `saying`.
  static func expectCheckFailsAsTheRender(_ file: String, in dir: String, saying: String) throws {
    let check = try runTransvid(["check", file], in: dir)
    let render = try runTransvid([file, "-q", "-o", "out"], in: dir)
    #expect(check.status == 1 && render.status == 1)
    #expect(check.errorLines.count == 1 && check.errorLines == render.errorLines, "\(check.errorLines)")
    #expect(check.errorLines.first?.contains(saying) == true, "\(check.errorLines)")
  }

  /// A file named several ways (relative, with './', absolute, through its
  /// folder, by a link, by a hard link beside it) is one job: it was refused
  /// as writing another's output (the hard link until the batch sweep).
  @Test func aFileNamedSeveralWaysIsOneJob() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(smallJob(name: "one"), to: "one.cfg", in: path(dir, ""))
    try FileManager.default.createSymbolicLink(atPath: path(dir, "link.yaml"), withDestinationPath: "one.cfg")
    try FileManager.default.linkItem(atPath: path(dir, "one.cfg"), toPath: path(dir, "hard.yml"))
    let check = try runTransvid(["check", "one.cfg", "./one.cfg", path(dir, "one.cfg"), ".", "link.yaml", "hard.yml"], in: dir)
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stdout.hasSuffix("transvid: 1 job checked, 0 broken\n"), "\(check.stdout)")
  }

  /// A file's several jobs (locales × appearances) are told apart in the
  /// rows of `check` and `plan` by their names.
  @Test func rowsNameEachLocaleAndAppearance() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(
      smallJob(name: "l").replacingOccurrences(
        of: "output: {", with: "locales: [en, fr]\nstrings: { en: { t: Hi }, fr: { t: Salut } }\nappearances: [light, dark]\noutput: {"),
      to: "l.cfg", in: dir)
    let check = try runTransvid(["check", "l.cfg"], in: dir)
    #expect(check.status == 0, "\(check.stderr)")
    let labels = ["l.en.light", "l.en.dark", "l.fr.light", "l.fr.dark"].map { "l.cfg (\($0))" }
    let checked: [String] = check.stdout.split(separator: "\n").dropLast().map { row in
      String(row.split(separator: "  ")[0])
    }
    #expect(checked == labels)
    let plan = try runTransvid(["plan", "l.cfg"], in: dir)
    let planned: [String] = plan.stdout.split(separator: "\n").map { row in String(row.split(separator: "  ")[1]) }
    #expect(planned == labels)
  }

  /// A caption that cannot fit its stage fails `check` with the render's error.
  @Test func checkWrapsTheCaptions() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(
      """
      name: c
      canvas: { size: 100x100, scale: 1, fps: 5 }
      output: { formats: [png] }
      stage: { padding: 4, caption: { text: Supercalifragilisticexpialidocious, font: { size: 20 }, lines: 1 } }
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 0.4
      """, to: "c.cfg", in: dir)
    try Self.expectCheckFailsAsTheRender("c.cfg", in: dir, saying: "has a word wider than the")
  }

  @Test func planExitsOneOnABrokenJobAndPrintsItsErrorOnce() throws {
    let dir = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let plan = try runTransvid(["plan", "jobs", "-o", "out"], in: dir)
    #expect(plan.status == 1)
    let rows = plan.stdout.split(separator: "\n").map(String.init)
    #expect(rows.count == 3)
    let bad = try #require(rows.first { $0.contains("bad.yml") })
    #expect(bad.components(separatedBy: "error:").count == 2, "\(bad)")
    // Its shard, file and error: no frames, size or cost of a job never laid out.
    #expect(bad.hasPrefix("1/1  jobs/bad.yml  broken  jobs/bad.yml:"), "\(bad)")
    #expect(rows.filter { $0.hasSuffix("  to render") }.count == 2)
  }

  @Test(arguments: [["check", "empty"], ["plan", "empty"], ["empty"]])
  func aFolderWithoutJobsSaysSoAndExitsOne(_ arguments: [String]) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "empty/sub"), withIntermediateDirectories: true)
    try write("name: x", to: "notes.txt", in: path(dir, "empty/sub"))
    let run = try runTransvid(arguments, in: dir)
    #expect(run.status == 1)
    #expect(run.errorLines == ["transvid: no jobs found in empty (a folder stands for the *.cfg, *.yaml, *.yml files below it)"])
  }

  /// The same job with an image, run from its own folder, from the folder
  /// above and by absolute path into one output folder: one key, one render.
  @Test func theCacheKeyDoesNotDependOnHowTheJobWasReached() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let project = path(dir, "project")
    try FileManager.default.createDirectory(atPath: path(project, "assets"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: PlanFramesTests.repository.appendingPathComponent("jobs/assets/cover.png").path,
      toPath: path(project, "assets/cover.png"))
    let job = smallJob(name: "pic").replacingOccurrences(
      of: "- { id: hero, frame: [0, 0, 120, 80], color: \"#E5E5EA\" }",
      with: "- { id: hero, frame: [0, 0, 120, 80], image: assets/cover.png }")
    #expect(job.contains("assets/cover.png"))
    try write(job, to: "pic.cfg", in: project)
    let out = path(dir, "out")
    let ways: [(folder: String, file: String)] = [(project, "pic.cfg"), (dir, "project/pic.cfg"), ("/", path(project, "pic.cfg"))]

    var keys: [String] = []
    for way in ways {
      let plan = try runTransvid(["plan", "--json", way.file, "-o", out], in: way.folder)
      #expect(plan.status == 0, "\(plan.stderr)")
      let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
      let first = try #require((json["jobs"] as? [[String: Any]])?.first)
      keys.append(try #require(first["key"] as? String))
    }
    #expect(Set(keys).count == 1, "\(keys)")

    var lines: [String] = []
    for way in ways {
      let run = try runTransvid([way.file, "-o", out, "--progress", "plain"], in: way.folder)
      #expect(run.status == 0, "\(run.stderr)")
      lines.append(run.stdout)
    }
    #expect(lines[0].hasPrefix("\(out)/pic.mp4  57 frames"), "\(lines[0])")
    #expect(lines[1] == "\(out)/pic.mp4  up to date\n")
    #expect(lines[2] == "\(out)/pic.mp4  up to date\n")

    // The image's bytes are in the key: another image at the same path renders again.
    try FileManager.default.removeItem(atPath: path(project, "assets/cover.png"))
    try FileManager.default.copyItem(
      atPath: PlanFramesTests.repository.appendingPathComponent("jobs/assets/settings.png").path,
      toPath: path(project, "assets/cover.png"))
    let again = try runTransvid(["project/pic.cfg", "-o", out, "--progress", "plain"], in: dir)
    #expect(again.status == 0 && again.stdout.hasPrefix("\(out)/pic.mp4  57 frames"), "\(again)")
  }

  /// A job's own font file is keyed by its name and bytes, not by the path
  /// it resolves to: one key from any folder, another key for other bytes.
  @Test func aJobsFontFileIsKeyedByItsBytes() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let project = path(dir, "project")
    try FileManager.default.createDirectory(atPath: path(project, "fonts"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", toPath: path(project, "fonts/App.ttf"))
    try write(JobFontTests.job(font: "{ size: 20, file: fonts/App.ttf }"), to: "font.cfg", in: project)
    func key(_ file: String, in folder: String) throws -> String {
      let plan = try runTransvid(["plan", "--json", file, "-o", path(dir, "out")], in: folder)
      #expect(plan.status == 0, "\(plan.stderr)")
      let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
      return try #require(((json["jobs"] as? [[String: Any]])?.first)?["key"] as? String)
    }
    let fromProject = try key("font.cfg", in: project)
    #expect(try key("project/font.cfg", in: dir) == fromProject)
    #expect(try key(path(project, "font.cfg"), in: "/") == fromProject)
    try FileManager.default.removeItem(atPath: path(project, "fonts/App.ttf"))
    try FileManager.default.copyItem(
      atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: path(project, "fonts/App.ttf"))
    #expect(try key("font.cfg", in: project) != fromProject)
  }
}
