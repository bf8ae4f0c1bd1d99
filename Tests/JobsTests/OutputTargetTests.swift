// `output.target`: each destination's settings, filled in only where the
// job file does not write them. An unknown target's message is in
// `brokenWebFormatJobs`.

import Raster
import Testing

@testable import Jobs

@Suite enum OutputTargetTests {
  static func spec(_ lines: String) throws -> JobSpec { try JobParser.parse(lines + job("hold: 1"), file: "job.cfg") }

  @Test static func github() throws {
    let phone = try spec("canvas: { device: iphone-15 }\noutput: { target: github }\n")
    #expect(phone.output.target == .github && phone.output.formats == [.mp4, .gif])
    #expect(phone.output.mp4.maxBytes == 10_000_000 && phone.output.gif.maxBytes == 10_000_000)
    // 1179 px is under 1280: the mp4 keeps the canvas size.
    #expect(phone.output.mp4.size == VideoSize())
    let tablet = try spec("canvas: { size: 1024x1366, scale: 2 }\noutput: { target: github }\n")
    #expect(tablet.output.mp4.size == VideoSize(width: 1280) && tablet.videoSize(tablet.output.mp4.size) == (1280, 1708))
    let mine = try spec("canvas: { size: 1024x1366, scale: 2 }\noutput: { target: github, formats: [mp4], mp4: { maxBytes: 5MB, height: 1000 } }\n")
    #expect(mine.output.formats == [.mp4] && mine.output.mp4.maxBytes == 5_000_000)
    #expect(mine.output.mp4.size == VideoSize(height: 1000) && mine.output.gif.maxBytes == 10_000_000)
    #expect(phone.output.mp4.frameRate == .variable && mine.output.mp4.frameRate == .variable)
    let constant = try spec("output: { target: github, mp4: { frameRate: constant } }\n")
    #expect(constant.output.mp4.frameRate == .constant)
  }

  /// The 1280 px cap is on the output frame: a stage is wider than the
  /// canvas it holds, so a canvas under 1280 px on a stage over it is
  /// scaled too (the canvas's width let 1340 and 1524 px MP4s through).
  @Test static func githubMeasuresTheFrameWithItsStage() throws {
    let strip = try spec(
      "canvas: { size: 1260x60, scale: 1 }\nstage: { device: none, padding: 40 }\noutput: { target: github }\n")
    #expect(strip.canvas.pixelWidth == 1260 && strip.framePixelWidth == 1340)
    #expect(strip.output.mp4.size == VideoSize(width: 1280) && strip.videoSize(strip.output.mp4.size) == (1280, 134))
    let held = try spec(
      "canvas: { device: iphone-15 }\nstage: { device: iphone-15-pro, padding: 36 }\noutput: { target: github }\n")
    #expect(held.canvas.pixelWidth == 1179 && held.framePixelWidth == 1524)
    #expect(held.output.mp4.size == VideoSize(width: 1280) && held.videoSize(held.output.mp4.size) == (1280, 2434))
    // --target measures the same frame.
    let plain = try spec("canvas: { size: 1260x60, scale: 1 }\nstage: { device: none, padding: 40 }\n")
    #expect(plain.applying(.github).output.mp4.size == VideoSize(width: 1280))
    // A stage that keeps the frame within 1280 px leaves the size alone.
    let narrow = try spec("canvas: { size: 1200x60, scale: 1 }\nstage: { device: none, padding: 40 }\n")
    #expect(narrow.framePixelWidth == 1280 && narrow.applying(.github).output.mp4.size == VideoSize())
  }

  @Test static func webAndEditor() throws {
    let web = try spec("output: { target: web }\n")
    #expect(web.output.formats == [.webm, .mp4, .png])
    #expect(web.output.webm.frameRate == .variable && web.output.mp4.frameRate == .variable)
    let mixed = try spec("output: { target: web, webm: { frameRate: constant } }\n")
    #expect(mixed.output.webm.frameRate == .constant && mixed.output.mp4.frameRate == .variable)
    let editor = try spec("output: { target: editor }\n")
    #expect(editor.output.formats == [.mov] && editor.canvas.background == .clear)
    #expect(editor.output.mp4.frameRate == .constant && editor.output.webm.frameRate == .constant)
    let white = try spec("canvas: { background: \"#FFFFFF\" }\noutput: { target: editor }\n")
    #expect(white.canvas.background == .white)
    // The command line's --target applies the same way to a parsed job.
    let plain = try spec("canvas: { background: \"#FFFFFF\" }\n")
    #expect(plain.output.mp4.frameRate == .constant && plain.applying(.web).output.mp4.frameRate == .variable)
    #expect(plain.applying(.editor).canvas.background == .white && plain.applying(.editor).output.formats == [.mov])
  }

  /// `--target` on a job with its own target: the command line's alone
  /// (the job's filled-in settings are undone, what the file writes stays).
  /// The github MP4's budget and the editor's transparent canvas stayed.
  @Test static func anotherTargetReplacesTheJobsOwn() throws {
    let github = try spec("output: { target: github }\n").applying(.web)
    #expect(github.output.target == .web && github.output.formats == [.webm, .mp4, .png])
    #expect(github.output.mp4.maxBytes == nil && !github.output.mp4.capsCRF && github.output.gif.maxBytes == nil)
    #expect(github.output.mp4.frameRate == .variable && github.output.webm.frameRate == .variable)
    let editor = try spec("output: { target: editor }\n")
    #expect(editor.canvas.background == .clear && editor.applying(.web).canvas.background == .black)
    #expect(editor.applying(.web).applying(.editor).canvas.background == .clear)
    let written = try spec("output: { target: github, mp4: { maxBytes: 5MB } }\n").applying(.web)
    #expect(written.output.mp4.maxBytes == 5_000_000 && written.output.gif.maxBytes == nil)
    #expect(try spec("output: { target: github }\n").applying(.github).output.formats == [.mp4, .gif])
  }
}
