import Foundation
import Jobs
import Media
import Raster
import Rendering
import Testing
import TransvidCLI
import TestSupport

/// The whole pipeline: job file → frames → MP4 → decoded frames.
@Suite struct EndToEndTests {
  /// A poster's and a contact sheet's result lines call them still images,
  /// with no length (a sheet-only job said "1 frame  0.20 s video"); the
  /// GIF beside them is a video of its frames, and the JUnit report's
  /// `system-out` has the same lines.
  @Test func aPosterAndASheetAreStillImagesInTheirResultLines() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      "name: still\ncanvas: { size: 40x60, scale: 1, fps: 10 }\n"
        + "output: { formats: [png, sheet, gif], png: { time: 0.1 }, sheet: { frames: 3 } }\n"
        + "screens: { a: { background: \"#FF0000\" } }\ntimeline: [hold: 0.3]\n", to: "still.cfg", in: dir)
    let out = (dir as NSString).appendingPathComponent("out")
    let capture = Capture()
    let junit = (dir as NSString).appendingPathComponent("junit.xml")
    let status = TransvidCommand.run([job, "-o", out, "--junit", junit], console: capture.console)
    #expect(status == 0, "\(capture.err)")
    func bytes(_ name: String) -> Int {
      (try? FileManager.default.attributesOfItem(atPath: "\(out)/\(name)")[.size] as? Int) ?? 0
    }
    let lines = capture.out.map { $0.replacing(/rendered in [0-9]+\.[0-9]{2} s/, with: "rendered in T s") }
    let expected = [
      "\(out)/still.png  still image  \(bytes("still.png")) bytes  rendered in T s  (poster at 0.10 s (frame 1))",
      "\(out)/still.sheet.png  still image  \(bytes("still.sheet.png")) bytes  rendered in T s  (contact sheet 92×65: 3 frames in 3 columns)",
      "\(out)/still.gif  2 frames  0.30 s video  \(bytes("still.gif")) bytes  rendered in T s",
    ]
    #expect(lines == expected, "\(capture.out)")
    let xml = try String(contentsOfFile: junit, encoding: .utf8).replacing(/rendered in [0-9]+\.[0-9]{2} s/, with: "rendered in T s")
    #expect(xml.contains("<system-out>" + expected.joined(separator: "\n") + "</system-out>"), "\(xml)")
  }

  @Test func rendersAJobAndTheVideoMatchesTheCompositor() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(smallJob(), to: "small.cfg", in: dir)
    let out = (dir as NSString).appendingPathComponent("out")
    let capture = Capture()
    let status = TransvidCommand.run([job, "-o", out], console: capture.console)
    #expect(status == 0, "\(capture.err)")
    let mp4 = (out as NSString).appendingPathComponent("small.mp4")
    // 0.2 + 0.7 + 0.2 + 0.7 + 0.1 = 1.9 s at 30 fps = 57 frames.
    let bytes = (try FileManager.default.attributesOfItem(atPath: mp4)[.size] as? Int) ?? 0
    // The video's length, its size, then how long it took (which varies: a pattern).
    #expect(capture.out.count == 1)
    let line = try #require(capture.out.first)
    let prefix = "\(mp4)  57 frames  1.90 s video  \(bytes) bytes  rendered in "
    #expect(line.hasPrefix(prefix), "\(line)")
    #expect(line.dropFirst(prefix.count).wholeMatch(of: /[0-9]+\.[0-9]{2} s/) != nil, "\(line)")

    let reader = try VideoReader(path: mp4)
    #expect(reader.width == 240 && reader.height == 400)
    #expect(reader.fps == 30)
    let decoded = try reader.readAll()
    #expect(decoded.count == 57)

    let renderer = FrameRenderer(spec: try JobParser.load(path: job))
    // t = 0, mid-push (t = 0.55), mid-pop (t = 1.45) and the last frame.
    for n in [0, 16, 43, 56] {
      let expected = renderer.frame(n, width: 240, height: 400)
      let quality = psnr(decoded[n], expected)
      #expect(quality >= 38, "frame \(n): PSNR \(quality) dB")
    }
    // The mid-push frame really is mid-transition: it differs from both screens.
    let first = renderer.frame(0, width: 240, height: 400)
    let pushed = renderer.frame(33, width: 240, height: 400)
    let mid = renderer.frame(16, width: 240, height: 400)
    #expect(mid != first && mid != pushed)
    #expect(decoded[56] == decoded[56] && psnr(decoded[56], first) >= 38)
  }

  /// 4:2:0 needs even sides: the last column and row are repeated (`VideoSizeTests` checks the pixels).
  @Test func oddCanvasSizesArePaddedToEvenForH264() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      smallJob(name: "odd").replacingOccurrences(of: "size: 120x200", with: "size: 61x41").replacingOccurrences(of: "scale: 2", with: "scale: 1"), to: "odd.cfg", in: dir)
    let capture = Capture()
    #expect(TransvidCommand.run([job, "-o", dir, "-q"], console: capture.console) == 0)
    #expect(capture.out.isEmpty)
    let reader = try VideoReader(path: (dir as NSString).appendingPathComponent("odd.mp4"))
    #expect(reader.width == 62 && reader.height == 42)
  }

  @Test func sameJobGivesByteIdenticalVideos() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(smallJob(), to: "small.cfg", in: dir)
    let a = (dir as NSString).appendingPathComponent("a"), b = (dir as NSString).appendingPathComponent("b")
    #expect(TransvidCommand.run([job, "-o", a, "-q"], console: Capture().console) == 0)
    #expect(TransvidCommand.run([job, "-o", b, "-q"], console: Capture().console) == 0)
    let da = FileManager.default.contents(atPath: (a as NSString).appendingPathComponent("small.mp4"))
    let db = FileManager.default.contents(atPath: (b as NSString).appendingPathComponent("small.mp4"))
    #expect(da != nil && da == db)
  }
}
