import Foundation
import Jobs
import Media
import Raster
import Rendering
import Testing

@testable import TransvidCLI
import TestSupport

/// `smallJob` with its `output:` line replaced.
func smallJob(output: String) -> String {
  smallJob().replacingOccurrences(
    of: "output: { formats: [mp4], mp4: { crf: 18, preset: veryfast } }", with: "output: \(output)")
}

/// GIF, poster PNG and contact sheet outputs, through the per-format seam.
@Suite struct StillAndGIFOutputTests {
  func renderer(_ output: String, in dir: String, gradients: Bool = false) throws -> FrameRenderer {
    var text = smallJob(output: output)
    if gradients {
      // Colours that count: every palette entry taken off costs fidelity and bytes.
      text = text.replacingOccurrences(
        of: "{ id: hero, frame: [0, 0, 120, 80], color: \"#E5E5EA\" }",
        with: "{ id: hero, frame: [0, 0, 120, 200], gradient: { colors: [\"#1D2B64\", \"#F8CDDA\"] } }")
      text = text.replacingOccurrences(
        of: "{ id: row, frame: [10, 30, 100, 30], color: \"#FFFFFF\", corner: 8 }",
        with: "{ id: row, frame: [0, 0, 120, 140], gradient: { colors: [\"#FF5F6D\", \"#2C5364\"] } }")
    }
    let job = try write(text, to: "small.cfg", in: dir)
    return FrameRenderer(spec: try JobParser.load(path: job))
  }

  /// A hold longer than a GIF delay's 16 bits of centiseconds (655.35 s):
  /// the image carries the most it can and copies of it the rest, so the
  /// GIF lasts the clip's length (it wrapped: 660.5 s showed for 5.14 s).
  /// The summary (the result line, `--report`) counts the copies, as a
  /// decoder does.
  @Test func aHoldPastTheLongestDelayLastsItsLength() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = smallJob(output: "{ formats: [gif], gif: { width: 60 } }")
      .replacingOccurrences(of: "- hold: 0.1", with: "- hold: 600\n  - hold: 60.5")
    #expect(job.contains("- hold: 600\n  - hold: 60.5\n"))
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "\(dir)/small.cfg"))
    let path = (dir as NSString).appendingPathComponent("small.gif")
    let summary = try OutputWriter.write(format: .gif, renderer: renderer, to: path)
    let gif = try GIFReader(path: path)
    #expect(gif.delays.allSatisfy { $0 <= GIFTiming.longestDelay })
    #expect(gif.delays.reduce(0, +) == Int((summary.duration * 100).rounded()) && summary.duration > 660, "\(gif.delays)")
    // The copy shows what the image did.
    let long = try #require(gif.delays.firstIndex(of: GIFTiming.longestDelay))
    #expect(gif.frames[long + 1] == gif.frames[long])
    #expect(summary.frames == gif.frames.count, "\(gif.delays)")
  }

  /// A GIF that stops ends on its last frame for good, so the pixels
  /// showing then are coded as a rest's are, exactly as the lossless GIF
  /// maps them, though the clip ends in motion: a push with no hold after
  /// it showed its rounded corners up to 15 levels off the lossless GIF's
  /// for good, lossy coding's bound for a frame shown once. A GIF that
  /// loops forever shows that frame once a play and keeps that bound.
  @Test func aGIFThatStopsEndsOnItsLastFrameCodedAsARest() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func lastImage(_ gif: String) throws -> Bitmap {
      let job = """
        name: end
        canvas: { size: 200x300, scale: 2, fps: 30, background: "#000000" }
        output: { formats: [gif], gif: { \(gif) } }
        screens:
          a: { background: "#FF3B30" }
          b:
            background: systemGroupedBackground
            views:
              - { id: r1, frame: [16, 40, 168, 44], color: "#FFFFFF", corner: 10 }
              - { id: r2, frame: [16, 100, 168, 44], color: "#34C759", corner: 22 }
              - { id: r3, frame: [30, 160, 60, 60], color: "#5856D6", corner: 30 }
              - { id: r4, frame: [110, 160, 60, 60], color: "#FF9500", corner: 14 }
              - { id: r5, frame: [20, 240, 160, 30], color: "#AF52DE", corner: 8 }
        timeline:
          - hold: 0.3
          - push: { to: b, transition: push, duration: 0.5 }

        """
      let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "\(dir)/end.cfg"))
      let path = (dir as NSString).appendingPathComponent("end.gif")
      _ = try OutputWriter.write(format: .gif, renderer: renderer, to: path)
      return try #require(try GIFReader(path: path).frames.last)
    }
    let lossless = try lastImage("loop: 0, lossy: 0")
    /// The most a channel of `image` is off the lossless GIF's.
    func worst(_ image: Bitmap) -> Int {
      var worst = 0
      for y in 0..<lossless.height {
        for x in 0..<lossless.width {
          let (a, b) = (image[x, y], lossless[x, y])
          worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
        }
      }
      return worst
    }
    let once = worst(try lastImage("loop: 0")), twice = worst(try lastImage("loop: 1"))
    let forever = worst(try lastImage("loop: forever"))
    #expect(once == 0, "a GIF that plays once ends \(once) levels off")
    #expect(twice == 0, "a GIF that plays twice ends \(twice) levels off")
    #expect(forever > 0)
  }

  @Test func gifTimingSizeAndLoop() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer("{ formats: [gif], gif: { width: 60, loop: 2 } }", in: dir)
    let path = (dir as NSString).appendingPathComponent("small.gif")
    let summary = try OutputWriter.write(format: .gif, renderer: renderer, to: path)
    #expect(summary.notes.isEmpty)
    let gif = try GIFReader(path: path)
    // 120×200 pt canvas → 60×100 px; 1.9 s at 30 fps.
    #expect(gif.frames.allSatisfy { $0.width == 60 && $0.height == 100 })
    #expect(abs(gif.delays.reduce(0, +) - 190) <= 1)
    #expect(gif.delays.allSatisfy { $0 >= 2 })
    // Holds are merged: far fewer images than the 57 frames.
    #expect(gif.frames.count == summary.frames && summary.frames < 50)
    #expect(summary.duration == 1.9)
    let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    let netscape = Array("NETSCAPE2.0".utf8)
    let at = try #require((0..<(bytes.count - 16)).first { Array(bytes[$0..<($0 + 11)]) == netscape })
    #expect(bytes[at + 13] == 2 && bytes[at + 14] == 0)
  }

  /// A GIF at a rate that does not divide the timeline lasts as long as the
  /// timeline all the same: 1.9 s at 15 fps is 28.5 frames, rounded up to
  /// 29 (1.93 s); the last image ends at 1.90 s, as the video does.
  @Test func aGIFLastsAsLongAsTheTimelineAtAnyRate() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer("{ formats: [gif], gif: { width: 60, fps: 15 } }", in: dir)
    let path = (dir as NSString).appendingPathComponent("small.gif")
    let summary = try OutputWriter.write(format: .gif, renderer: renderer, to: path)
    let gif = try GIFReader(path: path)
    #expect(gif.delays.reduce(0, +) == 190, "\(gif.delays)")
    #expect(summary.duration == 1.9 && gif.delays.allSatisfy { $0 >= 2 })
  }

  @Test func canvasRatesAbove50AreReducedWithANote() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = smallJob(output: "{ formats: [gif], gif: { width: 30 } }")
      .replacingOccurrences(of: "fps: 30", with: "fps: 60")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "\(dir)/small.cfg"))
    let path = (dir as NSString).appendingPathComponent("small.gif")
    let summary = try OutputWriter.write(format: .gif, renderer: renderer, to: path)
    #expect(summary.notes == ["gif: 60 fps reduced to 30 fps (GIF delays are whole centiseconds, at least 2)"])
    #expect(summary.line(GIFWriter.fileType).hasSuffix("(gif: 60 fps reduced to 30 fps (GIF delays are whole centiseconds, at least 2))"))
    let gif = try GIFReader(path: path)
    #expect(gif.delays.allSatisfy { $0 >= 3 })
    // A fractional canvas is named at its own rate (it said "120 fps" for 119.88).
    let ntsc = FrameRenderer(
      spec: try JobParser.parse(job.replacingOccurrences(of: "fps: 60", with: "fps: 119.88"), file: "\(dir)/small.cfg"))
    let fractional = try OutputWriter.write(format: .gif, renderer: ntsc, to: (dir as NSString).appendingPathComponent("ntsc.gif"))
    #expect(fractional.notes == ["gif: 119.88 fps reduced to 40 fps (GIF delays are whole centiseconds, at least 2)"])
    #expect(GIFOutput.reducedRate(120) == 40 && GIFOutput.reducedRate(59) == 50)
  }

  /// The bytes of the small job's GIF, its screens of gradients, with `gif:` `settings`.
  func gifBytes(_ settings: String, in dir: String) throws -> Int {
    try OutputWriter.write(
      format: .gif, renderer: try renderer("{ formats: [gif], gif: { \(settings) } }", in: dir, gradients: true),
      to: (dir as NSString).appendingPathComponent("sized.gif")
    ).bytes
  }

  /// The small job's 120 px GIF, its screens of gradients, written without
  /// a budget, then with `limit(bytes)`: both summaries and the path.
  func budgeted(in dir: String, limit: (Int) -> Int) throws -> (free: OutputSummary, summary: OutputSummary, limit: Int, path: String) {
    let path = (dir as NSString).appendingPathComponent("small.gif")
    let free = try OutputWriter.write(
      format: .gif, renderer: try renderer("{ formats: [gif], gif: { width: 120 } }", in: dir, gradients: true), to: path)
    let bytes = limit(free.bytes)
    let summary = try OutputWriter.write(
      format: .gif,
      renderer: try renderer("{ formats: [gif], gif: { width: 120, maxBytes: \(bytes) } }", in: dir, gradients: true),
      to: path)
    return (free, summary, bytes, path)
  }

  @Test func maxBytesShrinksTheGIFAndSaysWhat() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (free, summary, limit, path) = try budgeted(in: dir) { $0 / 3 }
    #expect(summary.bytes <= limit)
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    #expect(size == summary.bytes)
    let note = try #require(summary.notes.first)
    #expect(note.hasPrefix("gif: \(free.bytes) bytes > maxBytes \(limit): colours \(GIFOptions.colors(quality: GIFOptions.defaultQuality)) → "))
    #expect(abs(summary.duration - 1.9) <= 0.01)
  }

  /// A budget no GIF of the job can meet is an error at its key, found
  /// while rendering, with the place in the job file (a batch then keeps
  /// no GIF: the writer's file is in its staging folder).
  @Test func anUnreachableBudgetIsAnErrorAtItsKey() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer("{ formats: [gif], gif: { width: 120, maxBytes: 1100 } }", in: dir, gradients: true)
    let text = try String(contentsOfFile: path(dir, "small.cfg"), encoding: .utf8)
    let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("maxBytes") })
    let column = try #require(text.split(separator: "\n", omittingEmptySubsequences: false)[line].range(of: "1100")).lowerBound
    let row = text.split(separator: "\n", omittingEmptySubsequences: false)[line]
    do {
      _ = try OutputWriter.write(format: .gif, renderer: renderer, to: path(dir, "small.gif"))
      Issue.record("a 1100-byte budget was met")
    } catch let failure as JobFailure {
      let place = "\(dir)/small.cfg:\(line + 1):\(row.distance(from: row.startIndex, to: column) + 1)"
      #expect(failure.location?.description == place, "\(failure.description)")
      #expect(
        failure.description.wholeMatch(
          of: /.*small\.cfg:\d+:\d+: error: output\.gif\.maxBytes: even at 16 px, \d+ fps and \d+ colours the GIF is \d+ bytes, over 1100/)
          != nil, "\(failure.description)")
    }
  }

  /// A budget that needs a narrower GIF keeps the widest that fits, within
  /// 2 px: the width aimed at from the area falls under it, and the gap to
  /// the narrowest width over is halved (a 150 kB page flip kept 166 px where
  /// 172 fit). So a width at most 2 px wider was tried and is over.
  @Test(arguments: [35, 75])
  func maxBytesKeepsTheWidestGIFThatFits(percent: Int) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func size(_ width: Int) throws -> Int { try gifBytes("width: \(width), maxColors: 64, fps: 20", in: dir) }
    let full = try size(120)
    let (_, summary, limit, _) = try budgeted(in: dir) { _ in full * percent / 100 }
    #expect(summary.bytes <= limit)
    let note = try #require(summary.notes.first)
    let width = try #require(note.firstMatch(of: /width 120 → ([0-9]+)/).flatMap { Int($0.output.1) }, "\(note)")
    #expect(try size(width) <= limit)
    #expect(try max(size(width + 1), size(width + 2)) > limit, "\(note)")
  }

  /// A budget only a GIF narrower than 32 px meets is met: the search
  /// narrows down to 16 px, the narrowest `width:` a job may write (it
  /// stopped at 32 px and called unmet a budget `width: 16` meets).
  @Test func maxBytesNarrowsTheGIFDownToTheNarrowestWidth() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func size(_ width: Int) throws -> Int { try gifBytes("width: \(width), maxColors: 64, fps: 20", in: dir) }
    let limit = try size(GIFSettings.narrowestWidth)
    let at32 = try size(32)
    try #require(limit >= 1024 && at32 > limit, "\(limit) \(at32)")
    let (_, summary, _, _) = try budgeted(in: dir) { _ in limit }
    #expect(summary.bytes <= limit)
    let note = try #require(summary.notes.first)
    let width = try #require(note.firstMatch(of: /width 120 → ([0-9]+)/).flatMap { Int($0.output.1) }, "\(note)")
    let narrow = (16..<32).contains(width)
    #expect(narrow, "\(note)")
  }

  /// A budget 128 colours miss but fewer meet keeps every frame: colours go
  /// down to 64 before the rate does (a dropped frame shows the one before).
  @Test func maxBytesTakesColoursBeforeFrames() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func size(_ colors: Int) throws -> Int { try gifBytes("width: 120, maxColors: \(colors)", in: dir) }
    let (at64, at128) = (try size(64), try size(128))
    try #require(at64 < at128)
    let (_, summary, limit, _) = try budgeted(in: dir) { _ in (at64 + at128) / 2 }
    #expect(summary.bytes <= limit)
    let note = try #require(summary.notes.first)
    #expect(!note.contains("fps") && !note.contains("width"), "\(note)")
    let kept = try #require(note.split(separator: "→").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
    #expect((64..<128).contains(kept), "\(note)")
  }

  /// A budget a little under the file keeps most of the colours: the most
  /// (within `colourStep`) that fit, not the first step down.
  @Test func maxBytesKeepsTheMostColoursThatFit() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (_, summary, limit, path) = try budgeted(in: dir) { $0 * 97 / 100 }
    #expect(summary.bytes <= limit)
    #expect(!FileManager.default.fileExists(atPath: path + ".budget"))
    let note = try #require(summary.notes.first)
    let last = note.split(separator: "→").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    let kept = try #require(Int(last), "\(note)")
    #expect(kept > 128 && kept < GIFOptions.colors(quality: GIFOptions.defaultQuality), "\(note)")
    #expect(!note.contains("fps") && !note.contains("width"), "\(note)")
    // A step more colours would not have fitted.
    let more = try OutputWriter.write(
      format: .gif,
      renderer: try renderer(
        "{ formats: [gif], gif: { width: 120, maxColors: \(kept + GIFOutput.colourStep) } }", in: dir, gradients: true),
      to: (dir as NSString).appendingPathComponent("more.gif"))
    #expect(more.bytes > limit, "\(kept + GIFOutput.colourStep) colours: \(more.bytes) bytes, limit \(limit)")
  }

  @Test func posterIsTheRenderedFrame() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for (output, n) in [("{ formats: [png] }", 16), ("{ formats: [png], png: { time: 1.2 } }", 36)] {
      let renderer = try renderer(output, in: dir)
      let path = (dir as NSString).appendingPathComponent("small.png")
      let summary = try OutputWriter.write(format: .png, renderer: renderer, to: path)
      #expect(summary.frames == 1)
      // Default: the middle of the push (0.2 + 0.35 s = frame 16.5: frame 16 is on screen).
      let image = try ImageDecoder.decode(path: path)
      #expect(image == renderer.frame(n, width: 240, height: 400), "\(output)")
    }
  }

  /// The default poster is the middle of the first transition's animation,
  /// past its `delay` (slowed down with it): a delay of 1 s after a 0.5 s
  /// hold put it at 1.27 s, the screen still at rest.
  @Test(arguments: [("", "1.73 s (frame 52)"), (", slowmo: 2", "3.00 s (frame 90)"), (", delay: 0", "0.73 s (frame 22)")])
  func theDefaultPosterIsPastTheDelay(options: String, poster: String) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = """
      name: delayed
      canvas: { size: 40x60, scale: 1, fps: 30 }
      output: { formats: [png] }
      screens:
        a: { background: "#FFFFFF" }
        b: { background: "#FF0000" }
      timeline:
        - hold: 0.5
        - push: { to: b, transition: cross-dissolve, delay: 1.0, duration: 0.5\(options) }
      """.replacingOccurrences(of: "delay: 1.0, duration: 0.5, delay: 0", with: "delay: 0, duration: 0.5")
    let renderer = FrameRenderer(spec: try JobParser.load(path: try write(text, to: "delayed.cfg", in: dir)))
    let path = (dir as NSString).appendingPathComponent("delayed.png")
    let summary = try OutputWriter.write(format: .png, renderer: renderer, to: path)
    #expect(summary.notes == ["poster at \(poster)"])
    // Half way through the dissolve: neither screen alone.
    let image = try ImageDecoder.decode(path: path)
    #expect(image != renderer.snapshot(of: "a") && image != renderer.snapshot(of: "b"))
  }

  /// A `png.time` past the end shows the last frame, and the summary says
  /// so, as `transvid frame --time` does; a time at the last frame (its
  /// rounding included, and a time in its last half, which rounds to the
  /// frame after it: still within the video) says nothing more; the end
  /// itself is past it.
  @Test func posterPastTheEndSaysSo() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = (dir as NSString).appendingPathComponent("small.png")
    let whole = try renderer("{ formats: [png] }", in: dir)
    let last = whole.frameCount - 1
    let end = String(format: "%.2f", Double(last) / 30)
    for (time, note) in [
      ("100", "png.time 100 is past the end (\(whole.frameCount) frames, the last at \(end) s): the poster is the last frame"),
      ("86400", "png.time 86400 is past the end (\(whole.frameCount) frames, the last at \(end) s): the poster is the last frame"),
      ("1.9", "png.time 1.9 is past the end (\(whole.frameCount) frames, the last at \(end) s): the poster is the last frame"),
      (String(Double(last) / 30 + 0.01), nil),
      ("1.89", nil),
    ] {
      let renderer = try renderer("{ formats: [png], png: { time: \(time) } }", in: dir)
      let summary = try OutputWriter.write(format: .png, renderer: renderer, to: path)
      #expect(summary.notes == ["poster at \(end) s (frame \(last))"] + (note.map { [$0] } ?? []), "time \(time)")
      #expect(try ImageDecoder.decode(path: path) == renderer.frame(last, width: 240, height: 400))
    }
  }

  /// The poster at `png.time` is the frame a player shows then, ⌊time·fps⌋
  /// (README: one frame at that time), as `transvid frame --time` writes:
  /// at 30 fps 0.35 s is frame 10 (on screen 0.3333…0.3667 s), not the
  /// nearest, 11; 0.7 s is frame 21 though 0.7 · 30 is 20.999… in binary.
  @Test func posterIsTheFrameOnScreenAtItsTime() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = (dir as NSString).appendingPathComponent("small.png")
    for (time, n) in [("0.35", 10), ("0.3667", 11), ("0.7", 21), ("0", 0), ("0.0333", 0)] {
      let renderer = try renderer("{ formats: [png], png: { time: \(time) } }", in: dir)
      let summary = try OutputWriter.write(format: .png, renderer: renderer, to: path)
      #expect(summary.notes == ["poster at \(String(format: "%.2f", Double(n) / 30)) s (frame \(n))"], "time \(time)")
      let shown = try ImageDecoder.decode(path: path) == renderer.frame(n, width: 240, height: 400)
      #expect(shown, "time \(time)")
      let capture = Capture()
      let job = (dir as NSString).appendingPathComponent("small.cfg")
      #expect(transvid(["frame", job, "--time", time, "-o", (dir as NSString).appendingPathComponent("f.png")], capture) == 0)
      #expect(capture.out.last?.contains("  frame \(n) of \(renderer.frameCount)  ") == true, "--time \(time): \(capture.out)")
    }
  }

  @Test func sheetGridAndFrames() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer("{ formats: [sheet], sheet: { frames: 6, columns: 3, width: 200 } }", in: dir)
    let path = (dir as NSString).appendingPathComponent("small.sheet.png")
    let summary = try OutputWriter.write(format: .sheet, renderer: renderer, to: path)
    // The report's frames are the file's pictures: one, its note says how many it shows.
    #expect(summary.frames == 1)
    #expect(summary.notes == ["contact sheet 200×\(try ImageDecoder.decode(path: path).height): 6 frames in 3 columns"])
    #expect(SheetOutput.frames(count: 6, of: 57) == [0, 11, 22, 34, 45, 56])
    let image = try ImageDecoder.decode(path: path)
    let layout = try ContactSheet(width: 200, columns: 3).layout(count: 6, frameWidth: 240, frameHeight: 400)
    #expect(image.width == 200 && image.height == layout.sheetHeight)
    #expect(layout.rows == 2 && layout.thumbnailWidth == 56)
    #expect(OutputFormat.sheet.writer.fileType.fileExtension == "sheet.png")
    // One frame in one column is said so (the fleet sweep: "1 frames in 1 columns").
    let single = try OutputWriter.write(
      format: .sheet, renderer: try self.renderer("{ formats: [sheet], sheet: { frames: 1, columns: 1, width: 200 } }", in: dir),
      to: path)
    #expect(single.notes == ["contact sheet 200×\(try ImageDecoder.decode(path: path).height): 1 frame in 1 column"])
  }

  /// A transparent canvas keeps its alpha on the sheet (the README's
  /// table: sheet, alpha yes): the page and the canvas in each cell are
  /// transparent, the labels on their grey strips; an opaque canvas keeps
  /// the grey page.
  @Test func aSheetOfATransparentCanvasKeepsItsAlpha() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let output = "{ formats: [sheet], sheet: { frames: 2, columns: 2, width: 200 } }"
    let job = smallJob(output: output).replacingOccurrences(of: "background: \"#000000\"", with: "background: transparent")
      .replacingOccurrences(of: "background: \"#F2F2F7\"", with: "background: transparent")
    try #require(job.components(separatedBy: "background: transparent").count == 3)
    let clear = FrameRenderer(spec: try JobParser.parse(job, file: "\(dir)/small.cfg"))
    let path = (dir as NSString).appendingPathComponent("small.sheet.png")
    _ = try OutputWriter.write(format: .sheet, renderer: clear, to: path)
    let sheet = try ImageDecoder.decode(path: path)
    #expect(sheet[1, 1].a == 0, "the page: \(sheet[1, 1])")
    // The first frame's canvas where no view covers it is transparent in its cell too.
    let frame = clear.frame(0, width: clear.spec.framePixelWidth, height: clear.spec.framePixelHeight)
    let layout = try ContactSheet(width: 200, columns: 2).layout(count: 2, frameWidth: frame.width, frameHeight: frame.height)
    let (x, y) = layout.origin(of: 0)
    var clearPoint: (x: Int, y: Int)?
    for py in 20..<(frame.height - 20) where clearPoint == nil {
      for px in 20..<(frame.width - 20) where frame[px, py].a == 0 {
        clearPoint = (px, py)
        break
      }
    }
    let point = try #require(clearPoint, "the first frame shows its transparent canvas somewhere")
    let sx = x + point.x * layout.thumbnailWidth / frame.width, sy = y + point.y * layout.thumbnailHeight / frame.height
    #expect(sheet[sx, sy].a < 32, "canvas at \(point) → \(sheet[sx, sy])")
    // The time labels keep their grey strip, so they read on any page the sheet is laid on.
    #expect(sheet[x + 1, y + layout.thumbnailHeight + 1] == ContactSheet.page)
    // An opaque canvas: the grey page.
    let opaque = FrameRenderer(spec: try JobParser.parse(smallJob(output: output), file: "\(dir)/small.cfg"))
    _ = try OutputWriter.write(format: .sheet, renderer: opaque, to: path)
    #expect(try ImageDecoder.decode(path: path)[1, 1] == Pixel(r: 242, g: 242, b: 247, a: 255))
  }

  /// An opaque canvas on a transparent stage: the frames have alpha around
  /// the screen, and the sheet keeps it as the poster does (it laid them
  /// on the grey page, under a caption inked white for the black matte).
  /// An opaque stage keeps the grey page.
  @Test func aSheetOfATransparentStageKeepsItsAlpha() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let output = "{ formats: [sheet], sheet: { frames: 2, columns: 2, width: 200 } }"
    func sheet(stageBackground: String) throws -> (sheet: Bitmap, frame: Bitmap, layout: ContactSheet.Layout) {
      let job = smallJob(extra: "stage: { device: none, padding: 10, background: \(stageBackground) }")
        .replacingOccurrences(
          of: "output: { formats: [mp4], mp4: { crf: 18, preset: veryfast } }", with: "output: \(output)")
      let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "\(dir)/small.cfg"))
      let path = (dir as NSString).appendingPathComponent("small.sheet.png")
      _ = try OutputWriter.write(format: .sheet, renderer: renderer, to: path)
      let frame = renderer.frame(0, width: renderer.spec.framePixelWidth, height: renderer.spec.framePixelHeight)
      let layout = try ContactSheet(width: 200, columns: 2).layout(count: 2, frameWidth: frame.width, frameHeight: frame.height)
      return (try ImageDecoder.decode(path: path), frame, layout)
    }
    let (clear, frame, layout) = try sheet(stageBackground: "transparent")
    #expect(frame[2, 2].a == 0, "the stage around the screen: \(frame[2, 2])")
    #expect(clear[1, 1].a == 0, "the page: \(clear[1, 1])")
    let (x, y) = layout.origin(of: 0)
    #expect(clear[x + 1, y + 1].a == 0, "the stage in the first cell: \(clear[x + 1, y + 1])")
    // The screen in the middle of the cell stays opaque.
    #expect(clear[x + layout.thumbnailWidth / 2, y + layout.thumbnailHeight / 2].a == 255)
    #expect(clear[x + 1, y + layout.thumbnailHeight + 1] == ContactSheet.page)
    let opaque = try sheet(stageBackground: "\"#FFFFFF\"").sheet
    #expect(opaque[1, 1] == ContactSheet.page)
  }

  @Test func gifThroughTheCommandLine() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(smallJob(), to: "small.cfg", in: dir)
    let capture = Capture()
    #expect(TransvidCommand.run([job, "-o", dir, "--format", "gif"], console: capture.console) == 0, "\(capture.err)")
    let gif = try GIFReader(path: (dir as NSString).appendingPathComponent("small.gif"))
    #expect(gif.frames.first?.width == 120)
  }
}
