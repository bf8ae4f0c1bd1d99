// Issue 19, end to end through the built executable: `transvid watch`
// renders, renders again after an edit of the job and after an image it uses
// is replaced (as editors save: a new file renamed over the old), prints a
// broken edit's error and keeps watching, renders the fix, writes a preview
// page naming the last render's key, and on SIGINT exits 130 leaving no
// partial file. Pixels are checked in the decoded video.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Raster
import Media
import Synchronization
import Testing
import TestSupport

@Suite struct WatchTests {
  /// A running `transvid watch` whose output is collected as it comes.
  final class Watch: Sendable {
    let process: Process
    let out = Mutex(""), err = Mutex("")

    /// `environment` is added to this process's.
    init(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws {
      let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
      process = Process()
      process.executableURL = binary
      process.arguments = arguments
      process.currentDirectoryURL = URL(fileURLWithPath: directory)
      if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
      let outPipe = Pipe(), errPipe = Pipe()
      process.standardOutput = outPipe
      process.standardError = errPipe
      // Each pipe is read by a thread of its own, blocking until end of
      // file. Not `readabilityHandler`: Foundation's dispatch source on the
      // pipe made libdispatch's event loop crash (a bad pointer in
      // _dispatch_event_loop_drain as the watch process exited), with the
      // handler left in place and with it removed at end of file alike.
      Self.collect(outPipe) { text in self.out.withLock { $0 += text } }
      Self.collect(errPipe) { text in self.err.withLock { $0 += text } }
      try process.run()
    }

    /// Reads `pipe` to its end on a thread of its own, handing on each piece.
    static func collect(_ pipe: Pipe, _ append: @escaping @Sendable (String) -> Void) {
      let handle = pipe.fileHandleForReading
      Thread {
        while true {
          let data = handle.availableData
          if data.isEmpty { return }
          append(String(decoding: data, as: UTF8.self))
        }
      }.start()
    }

    /// Waits up to `seconds` for `condition`.
    func wait(seconds: Double = 60, _ condition: () -> Bool) -> Bool {
      let end = Date().addingTimeInterval(seconds)
      while Date() < end {
        if condition() { return true }
        usleep(20_000)
      }
      return condition()
    }

    var renders: Int { out.withLock { $0.components(separatedBy: " rendered in ").count - 1 } }
    /// Preview pages written: one after each render, when the render is done.
    var previews: Int { out.withLock { $0.components(separatedBy: "transvid: preview ").count - 1 } }
    var errors: [String] { err.withLock { $0.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") } } }
  }

  /// The first frame's pixel in the middle of the job's row.
  static func rowColor(_ mp4: String) throws -> Pixel {
    let frame = try #require(try VideoReader(path: mp4).nextFrame())
    return frame[30, 20]
  }

  static func near(_ p: Pixel, _ r: Int, _ g: Int, _ b: Int) -> Bool {
    abs(Int(p.r) - r) <= 24 && abs(Int(p.g) - g) <= 24 && abs(Int(p.b) - b) <= 24
  }

  /// Writes `text` as editors do: a new file renamed over the old one.
  static func save(_ data: Data, to file: String) throws {
    try data.write(to: URL(fileURLWithPath: file + ".swp"))
    #expect(rename(file + ".swp", file) == 0)
  }

  /// An edit saved while the first render runs renders again after it
  /// (the folders were watched only once that render was done).
  @Test func anEditDuringTheFirstRenderRendersAgain() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 720×1200 at 60 fps, a 2 s transition, x264's slowest preset: a render
    // of about a second and a half, long enough to edit during.
    func job(_ color: String) -> Data {
      Data(
        tinyJob(name: "w", hold: 0.1, color: color)
          .replacingOccurrences(of: "size: 60x100, scale: 1, fps: 10", with: "size: 240x400, scale: 3, fps: 60")
          .replacingOccurrences(of: "preset: ultrafast", with: "preset: veryslow")
          .replacingOccurrences(of: "duration: 0.3", with: "duration: 2").utf8)
    }
    let file = path(dir, "w.cfg"), mp4 = path(dir, "out/w.mp4")
    try job("#FF9500").write(to: URL(fileURLWithPath: file))
    let watch = try Watch(["watch", "w.cfg", "-o", "out"], in: dir)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
    usleep(250_000)
    #expect(watch.previews == 0, "the first render ended before the edit: make it longer")
    try Self.save(job("#34C759"), to: file)
    // Two slow renders: on a loaded 2-core machine (a CI runner shared with other builds) they took over 60 s.
    #expect(watch.wait(seconds: 300) { watch.previews == 2 }, "\(watch.out.withLock { $0 }) \(watch.err.withLock { $0 })")
    let frame = try #require(try VideoReader(path: mp4).nextFrame())
    #expect(Self.near(frame[90, 60], 52, 199, 89))
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })
  }

  /// The job's String Catalog is watched as its images are (a translator's
  /// edit renders again); a folder is no job to watch (exit 2 at once, not a
  /// watch of nothing).
  @Test func aCatalogEditRendersAgainAndAFolderIsRefused() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func catalog(_ text: String) -> Data {
      Data("{ \"sourceLanguage\" : \"en\", \"strings\" : { \"t\" : { \"localizations\" : { \"en\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"\(text)\" } } } } } }\n".utf8)
    }
    try catalog("Hello").write(to: URL(fileURLWithPath: path(dir, "App.xcstrings")))
    // The poster is the last frame: the text is on the screen pushed.
    let job = tinyJob(name: "w").replacingOccurrences(
      of: "background: \"#FFFFFF\"\n", with: "background: \"#FFFFFF\"\n    views: [{ frame: [0, 40, 60, 30], text: { key: t }, font: 20 }]\n")
      .replacingOccurrences(of: "screens:", with: "locales: [en]\nstrings: App.xcstrings\nscreens:")
    #expect(job.contains("text: { key: t }"))
    try Data(job.utf8).write(to: URL(fileURLWithPath: path(dir, "w.cfg")))
    let watch = try Watch(["watch", "w.cfg", "-o", "out", "--format", "png"], in: dir)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
    #expect(watch.wait { watch.previews == 1 }, "\(watch.err.withLock { $0 })")
    let first = try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/w.en.png")))
    usleep(300_000)
    try Self.save(catalog("Bonjour"), to: path(dir, "App.xcstrings"))
    #expect(watch.wait { watch.previews == 2 }, "\(watch.out.withLock { $0 })")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/w.en.png"))) != first)
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })

    let folder = try Watch(["watch", "."], in: dir)
    defer { if folder.process.isRunning { kill(folder.process.processIdentifier, SIGKILL) } }
    // Its message is read on a thread of its own, which may finish after the process ends.
    #expect(folder.wait(seconds: 10) { !folder.process.isRunning && folder.err.withLock { $0.hasSuffix("\n") } })
    folder.process.waitUntilExit()
    #expect(folder.process.terminationStatus == 2)
    #expect(folder.err.withLock { $0 }.hasPrefix("transvid: 'watch' takes a job file; . is a folder (render a folder with 'transvid .')"))
  }

  /// An image the job names that is not there yet (still to be exported):
  /// the error, then a render once it appears (the watch waited for an edit
  /// of the job alone).
  @Test func anImageThatAppearsLaterIsRendered() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(imageJob(name: "w", image: "shot.png"), to: "w.cfg", in: dir)
    let watch = try Watch(["watch", "w.cfg", "-o", "out", "--format", "png"], in: dir)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
    #expect(watch.wait { watch.errors.count == 1 }, "\(watch.err.withLock { $0 })")
    #expect(watch.errors.first?.hasSuffix("cannot read 'shot.png': No such file or directory") == true, "\(watch.errors)")
    try Self.save(Data(try PNGWriter.encode(Bitmap(width: 4, height: 4, fill: Pixel(r: 0, g: 0, b: 255, a: 255)))), to: path(dir, "shot.png"))
    #expect(watch.wait { watch.previews == 1 }, "\(watch.out.withLock { $0 }) \(watch.err.withLock { $0 })")
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/w.png")))
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })
  }

  /// An image in folders not there yet (`shots/sub/pic.png`, screenshots
  /// still to be exported) renders once they and it appear, and again after
  /// its folder is removed, made again and the image copied in (the fleet
  /// sweep: the image's own folder was watched alone, and watching a folder
  /// that is not there fails, so nothing was seen).
  @Test func anImageInFoldersNotThereYetIsRendered() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(
      """
      canvas: { size: 40x40, scale: 1, fps: 10, background: "#FFFFFF" }
      output: { formats: [png] }
      screens:
        home:
          views:
            - { frame: [0, 0, 40, 40], image: shots/sub/pic.png }
      timeline: [hold: 0.1]
      """, to: "w.cfg", in: dir)
    func png(_ pixel: Pixel) throws -> Data { Data(try PNGWriter.encode(Bitmap(width: 4, height: 4, fill: pixel))) }
    func center() throws -> Pixel { try ImageDecoder.decode(path: path(dir, "out/w.png"))[20, 20] }
    let fm = FileManager.default
    let watch = try Watch(["watch", "w.cfg", "-o", "out"], in: dir)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
    #expect(watch.wait { watch.errors.count == 1 }, "\(watch.err.withLock { $0 })")
    #expect(watch.errors.first?.hasSuffix("cannot read 'shots/sub/pic.png': No such file or directory") == true, "\(watch.errors)")
    try fm.createDirectory(atPath: path(dir, "shots"), withIntermediateDirectories: false)
    usleep(300_000)
    try fm.createDirectory(atPath: path(dir, "shots/sub"), withIntermediateDirectories: false)
    usleep(300_000)
    #expect(fm.createFile(atPath: path(dir, "shots/sub/pic.png"), contents: try png(Pixel(r: 255, g: 0, b: 0, a: 255))))
    #expect(watch.wait { watch.previews == 1 }, "\(watch.out.withLock { $0 }) \(watch.err.withLock { $0 })")
    #expect(try center() == Pixel(r: 255, g: 0, b: 0, a: 255))

    // `rm -rf shots/sub; mkdir shots/sub; cp blue.png shots/sub/pic.png`, the steps apart and at once.
    for (pause, pixel) in [(300_000, Pixel(r: 0, g: 0, b: 255, a: 255)), (0, Pixel(r: 0, g: 255, b: 0, a: 255))] {
      let previews = watch.previews
      try fm.removeItem(atPath: path(dir, "shots/sub"))
      usleep(UInt32(pause))
      try fm.createDirectory(atPath: path(dir, "shots/sub"), withIntermediateDirectories: false)
      usleep(UInt32(pause))
      #expect(fm.createFile(atPath: path(dir, "shots/sub/pic.png"), contents: try png(pixel)))
      #expect(watch.wait { (try? center()) == pixel && watch.previews > previews }, "\(watch.out.withLock { $0 }) \(watch.err.withLock { $0 })")
    }
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })
  }

  /// A job one of whose locales fails keeps its String Catalog and every
  /// locale's screenshot watched: the `{locale}` screenshot exported later
  /// renders, and so does the catalog's fix of a string one locale could not
  /// take (the fleet sweep: the watch fell back to the job without its
  /// locales, watching the job and `shots/{locale}/pic.png` as written, and
  /// neither save was ever seen).
  @Test func aLocaleThatFailsKeepsItsScreenshotAndCatalogWatched() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func catalog(_ french: String) -> Data {
      let unit = { (text: String) in "{ \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"\(text)\" } }" }
      return Data(
        "{ \"sourceLanguage\" : \"en\", \"strings\" : { \"t\" : { \"localizations\" : { \"en\" : \(unit("%lld")), \"fr\" : \(unit(french)) } } } }\n"
          .utf8)
    }
    try catalog("%lld").write(to: URL(fileURLWithPath: path(dir, "App.xcstrings")))
    try write(
      """
      canvas: { size: 40x40, scale: 1, fps: 10, background: "#FFFFFF" }
      output: { formats: [png] }
      locales: [en, fr]
      strings: App.xcstrings
      screens:
        home:
          views:
            - { frame: [0, 0, 40, 20], image: "shots/{locale}/pic.png" }
            - { frame: [0, 20, 40, 20], text: { key: t, args: [3] }, font: { size: 12 } }
      timeline: [hold: 0.1]
      """, to: "w.cfg", in: dir)
    func png(_ pixel: Pixel) throws -> Data { Data(try PNGWriter.encode(Bitmap(width: 4, height: 4, fill: pixel))) }
    let fm = FileManager.default
    for folder in ["shots/en", "shots/fr"] { try fm.createDirectory(atPath: path(dir, folder), withIntermediateDirectories: true) }
    #expect(fm.createFile(atPath: path(dir, "shots/en/pic.png"), contents: try png(Pixel(r: 255, g: 0, b: 0, a: 255))))
    let watch = try Watch(["watch", "w.cfg", "-o", "out"], in: dir)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
    #expect(watch.wait { watch.errors.count == 1 }, "\(watch.err.withLock { $0 })")
    #expect(watch.errors.first?.hasSuffix("(locale 'fr'): cannot read 'shots/fr/pic.png': No such file or directory") == true, "\(watch.errors)")

    try Self.save(try png(Pixel(r: 0, g: 0, b: 255, a: 255)), to: path(dir, "shots/fr/pic.png"))
    #expect(watch.wait { watch.previews == 1 }, "\(watch.out.withLock { $0 }) \(watch.err.withLock { $0 })")
    #expect(try ImageDecoder.decode(path: path(dir, "out/w.fr.png"))[20, 10] == Pixel(r: 0, g: 0, b: 255, a: 255))

    // French that cannot take the job's one argument, then the fix.
    usleep(300_000)
    try Self.save(catalog("%@ %lld"), to: path(dir, "App.xcstrings"))
    #expect(watch.wait { watch.errors.count == 2 }, "\(watch.err.withLock { $0 })")
    #expect(watch.errors.last?.contains("the 'fr' string of 't' in 'App.xcstrings'") == true, "\(watch.errors)")
    usleep(300_000)
    let before = try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/w.fr.png")))
    try Self.save(catalog("= %lld"), to: path(dir, "App.xcstrings"))
    #expect(watch.wait { watch.previews == 2 }, "\(watch.out.withLock { $0 }) \(watch.err.withLock { $0 })")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/w.fr.png"))) != before)
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })
  }

  /// A String Catalog not there yet (still to be exported from Xcode) is
  /// watched for, as an image is: the error, then a render once it appears
  /// (the fleet sweep: the job, which does not parse without it, was the only
  /// file watched).
  @Test func aCatalogThatAppearsLaterIsRendered() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = tinyJob(name: "w").replacingOccurrences(
      of: "background: \"#FFFFFF\"\n", with: "background: \"#FFFFFF\"\n    views: [{ frame: [0, 40, 60, 30], text: { key: t }, font: 20 }]\n")
      .replacingOccurrences(of: "screens:", with: "locales: [en]\nstrings: App.xcstrings\nscreens:")
    #expect(job.contains("strings: App.xcstrings"))
    try write(job, to: "w.cfg", in: dir)
    let watch = try Watch(["watch", "w.cfg", "-o", "out", "--format", "png"], in: dir)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
    #expect(watch.wait { watch.errors.count == 1 }, "\(watch.err.withLock { $0 })")
    #expect(watch.errors.first?.hasSuffix("strings: cannot read 'App.xcstrings': No such file or directory") == true, "\(watch.errors)")
    usleep(300_000)
    try Self.save(
      Data("{ \"sourceLanguage\" : \"en\", \"strings\" : { \"t\" : { \"localizations\" : { \"en\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"Hello\" } } } } } }\n".utf8),
      to: path(dir, "App.xcstrings"))
    #expect(watch.wait { watch.previews == 1 }, "\(watch.out.withLock { $0 }) \(watch.err.withLock { $0 })")
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/w.en.png")))
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })
  }

  /// A locale that fails is its own, as in a batch: the job's other locales
  /// render (the fleet sweep: the watch rendered none of them until the
  /// failing one was fixed), and the fix renders it and writes the preview.
  @Test func theOtherLocalesRenderWhileOneFails() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func job(french: String) -> Data {
      Data(
        """
        canvas: { size: 40x40, scale: 1, fps: 10, background: "#FFFFFF" }
        output: { formats: [png] }
        locales: [en, fr]
        strings: { en: { t: "%lld" }, fr: { t: "\(french)" } }
        screens:
          home:
            views:
              - { frame: [0, 0, 40, 40], text: { key: t, args: [3] }, font: { size: 12 } }
        timeline: [hold: 0.1]
        """.utf8)
    }
    try job(french: "%@ %lld").write(to: URL(fileURLWithPath: path(dir, "w.cfg")))
    let watch = try Watch(["watch", "w.cfg", "-o", "out"], in: dir)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
    #expect(watch.wait { watch.renders == 1 && watch.errors.count == 1 }, "\(watch.out.withLock { $0 }) \(watch.err.withLock { $0 })")
    #expect(watch.errors.first?.contains("the 'fr' string of 't' in the inline strings") == true, "\(watch.errors)")
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/w.en.png")))
    #expect(!FileManager.default.fileExists(atPath: path(dir, "out/w.fr.png")))
    #expect(watch.previews == 0)
    usleep(300_000)
    try Self.save(job(french: "= %lld"), to: path(dir, "w.cfg"))
    #expect(watch.wait { watch.previews == 1 }, "\(watch.out.withLock { $0 }) \(watch.err.withLock { $0 })")
    #expect(FileManager.default.fileExists(atPath: path(dir, "out/w.fr.png")))
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })
  }

  /// The file fontconfig finds for the job's `font: { family: … }` is
  /// watched: a package upgrade that replaces it renders again, with the
  /// new letters (the fleet sweep: only `font: { file: … }` was).
  @Test(.enabled(if: JobFontTests.hasFontTools, "needs fontTools for /usr/bin/python3 (Debian package python3-fonttools, scripts/bootstrap)"))
  func aFamilysNewFileRendersAgain() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fonts = path(dir, "fonts")
    try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
    try JobFontTests.installBoxFont(width: 100, at: path(fonts, "box.ttf"), in: dir)
    let environment = try JobFontTests.fontconfigEnvironment(fonts: fonts, in: dir)
    try write(JobFontTests.familyJob("Transvid Test Box"), to: "w.cfg", in: dir)
    let watch = try Watch(["watch", "w.cfg", "-o", "out"], in: dir, environment: environment)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
    #expect(watch.wait { watch.previews == 1 }, "\(watch.err.withLock { $0 })")
    let narrow = try JobFontTests.ink(path(dir, "out/w.png"))
    usleep(300_000)
    try JobFontTests.installBoxFont(width: 300, at: path(fonts, "box.ttf"), in: dir)
    #expect(watch.wait { watch.previews == 2 } && watch.renders == 2, "\(watch.out.withLock { $0 })")
    #expect(try JobFontTests.ink(path(dir, "out/w.png")) > narrow * 2)
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })
  }

  /// Every appearance (and locale) of the job is rendered and shown on one
  /// preview page (only the first was); a job linked from another folder
  /// renders again when the file the link leads to is edited.
  @Test func everyVariantIsRenderedAndALinkedJobIsWatched() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: path(dir, "real"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: path(dir, "link"), withIntermediateDirectories: true)
    func job(_ color: String) -> Data {
      // The poster is the last frame, the detail screen: its background changes.
      Data(
        tinyJob(name: "w").replacingOccurrences(of: "screens:", with: "appearances: [light, dark]\nscreens:")
          .replacingOccurrences(of: "detail:\n    background: \"#FFFFFF\"", with: "detail:\n    background: \"\(color)\"").utf8)
    }
    try job("#FF9500").write(to: URL(fileURLWithPath: path(dir, "real/w.cfg")))
    #expect(symlink("../real/w.cfg", path(dir, "link/w.cfg")) == 0)
    let watch = try Watch(["watch", "link/w.cfg", "-o", "out", "--format", "png"], in: dir)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
    #expect(watch.wait { watch.previews == 1 }, "\(watch.err.withLock { $0 })")
    #expect(watch.renders == 2, "\(watch.out.withLock { $0 })")
    let page = try String(contentsOfFile: path(dir, "out/w.preview.html"), encoding: .utf8)
    #expect(page.contains("<img src=\"w.light.png\"") && page.contains("<img src=\"w.dark.png\""))
    let light = try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/w.light.png")))
    usleep(300_000)
    try Self.save(job("#34C759"), to: path(dir, "real/w.cfg"))
    #expect(watch.wait { watch.previews == 2 }, "\(watch.out.withLock { $0 })")
    #expect(watch.renders == 4)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/w.light.png"))) != light)
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })
  }

  @Test func rendersOnEveryChangeAndStopsWith130() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let repository = PlanFramesTests.repository.appendingPathComponent("jobs/assets")
    try FileManager.default.copyItem(atPath: repository.appendingPathComponent("cover.png").path, toPath: path(dir, "pic.png"))
    func job(_ color: String) -> Data {
      Data(
        tinyJob(name: "w", color: color).replacingOccurrences(
          of: "- { id: row,", with: "- { id: pic, frame: [5, 40, 50, 50], image: pic.png }\n      - { id: row,"
        ).utf8)
    }
    #expect(String(decoding: job("#FF9500"), as: UTF8.self).contains("\n      - { id: pic, frame: [5, 40, 50, 50], image: pic.png }\n"))
    let file = path(dir, "w.cfg"), mp4 = path(dir, "out/w.mp4")
    try job("#FF9500").write(to: URL(fileURLWithPath: file))
    let watch = try Watch(["watch", "w.cfg", "-o", "out"], in: dir)
    defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }

    #expect(watch.wait { watch.previews == 1 } && watch.renders == 1, "\(watch.err.withLock { $0 })")
    #expect(Self.near(try Self.rowColor(mp4), 255, 149, 0))
    let preview = try String(contentsOfFile: path(dir, "out/w.preview.html"), encoding: .utf8)
    #expect(preview.contains("<source src=\"w.mp4\" type=\"video/mp4\">") && preview.contains("w.preview.js"))

    // An edit of the job: rendered again, the new colour in the video.
    usleep(300_000)
    try Self.save(job("#34C759"), to: file)
    #expect(watch.wait { watch.previews == 2 } && watch.renders == 2, "\(watch.out.withLock { $0 })")
    #expect(Self.near(try Self.rowColor(mp4), 52, 199, 89))
    let green = try Data(contentsOf: URL(fileURLWithPath: mp4))

    // The image replaced: rendered again.
    try Self.save(try Data(contentsOf: repository.appendingPathComponent("settings.png")), to: path(dir, "pic.png"))
    #expect(watch.wait { watch.previews == 3 } && watch.renders == 3, "\(watch.out.withLock { $0 })")
    let replaced = try Data(contentsOf: URL(fileURLWithPath: mp4))
    #expect(replaced != green)

    // A broken edit: its error, the watch goes on, the video stays.
    try Self.save(job("#34C759") + Data("broken: [\n".utf8), to: file)
    #expect(watch.wait { !watch.errors.isEmpty })
    #expect(watch.errors.count == 1 && watch.errors[0].hasPrefix("w.cfg:"), "\(watch.errors)")
    #expect(watch.errors.first?.wholeMatch(of: /w\.cfg:[0-9]+:[0-9]+: error: .*/) != nil)
    usleep(500_000)
    #expect(watch.process.isRunning && watch.renders == 3)
    #expect(try Data(contentsOf: URL(fileURLWithPath: mp4)) == replaced)

    // The fix: rendered again.
    try Self.save(job("#007AFF"), to: file)
    #expect(watch.wait { watch.previews == 4 } && watch.renders == 4, "\(watch.out.withLock { $0 })")
    #expect(Self.near(try Self.rowColor(mp4), 0, 122, 255))
    let key = try String(contentsOfFile: path(dir, "out/w.preview.js"), encoding: .utf8)
    #expect(try String(contentsOfFile: path(dir, "out/w.preview.html"), encoding: .utf8).contains(
      key.replacingOccurrences(of: "window.transvidPreviewKey = ", with: "").replacingOccurrences(of: ";\n", with: "")))

    // Ctrl-C: 130, nothing partial.
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait { !watch.process.isRunning })
    watch.process.waitUntilExit()
    #expect(watch.process.terminationReason == .exit && watch.process.terminationStatus == 130)
    #expect(try FileManager.default.contentsOfDirectory(atPath: path(dir, "out")).sorted() == [
      ".transvid-cache", "w.mp4", "w.preview.html", "w.preview.js",
    ])
  }
}
