// `output.webm`, `output.apng` and `output.webp`: what they decode to, and the
// exact diagnostic for each kind of mistake (columns counted by hand).

import Testing
import Raster

@testable import Jobs

let brokenWebFormatJobs: [BrokenJob] = [
  BrokenJob(
    "webm crf 64", "output: { webm: { crf: 64 } }\n",
    "job.cfg:1:24: error: output.webm.crf: expected an integer from 0 to 63, got 64"),
  BrokenJob(
    "webm speed 6", "output: { webm: { speed: 6 } }\n",
    "job.cfg:1:26: error: output.webm.speed: expected an integer from 0 to 5, got 6"),
  BrokenJob(
    "webm cpu-used", "output: { webm: { cpuUsed: 2 } }\n",
    "job.cfg:1:19: error: unknown key 'cpuUsed' in output.webm; expected one of: crf, speed, maxBytes, frameRate, width, height"),
  BrokenJob(
    "mp4 frameRate vfr", "output: { mp4: { frameRate: vfr } }\n",
    "job.cfg:1:29: error: output.mp4.frameRate: unknown frame rate \"vfr\"; expected one of: constant, variable"),
  BrokenJob(
    "webm frameRate near miss", "output: { webm: { frameRate: variabel } }\n",
    "job.cfg:1:30: error: output.webm.frameRate: unknown frame rate \"variabel\"; did you mean 'variable'?"),
  BrokenJob(
    "mp4 frameRate number", "output: { mp4: { frameRate: 30 } }\n",
    "job.cfg:1:29: error: output.mp4.frameRate: unknown frame rate \"30\"; expected one of: constant, variable"),
  BrokenJob(
    "apng loop word", "output: { apng: { loop: always } }\n",
    "job.cfg:1:25: error: output.apng.loop: expected 'forever' or a repeat count from 0 to 65534, got \"always\""),
  // APNG and WebP store plays, at most 65535: one play and 65534 repeats (a GIF stores the repeats).
  BrokenJob(
    "apng loop 65535", "output: { apng: { loop: 65535 } }\n",
    "job.cfg:1:25: error: output.apng.loop: expected an integer from 0 to 65534, got 65535"),
  BrokenJob(
    "webp loop 65535", "output: { webp: { loop: 65535 } }\n",
    "job.cfg:1:25: error: output.webp.loop: expected an integer from 0 to 65534, got 65535"),
  BrokenJob(
    "apng misspelt loop", "output: { apng: { loops: 2 } }\n",
    "job.cfg:1:19: error: unknown key 'loops' in output.apng; did you mean 'loop'?"),
  BrokenJob(
    "webp quality 101", "output: { webp: { quality: 101 } }\n",
    "job.cfg:1:28: error: output.webp.quality: expected an integer from 0 to 100, got 101"),
  BrokenJob(
    "webp lossless yes", "output: { webp: { lossless: yes } }\n",
    "job.cfg:1:29: error: output.webp.lossless: expected true or false, got \"yes\""),
  BrokenJob(
    "webp misspelt quality", "output: { webp: { qualty: 90 } }\n",
    "job.cfg:1:19: error: unknown key 'qualty' in output.webp; did you mean 'quality'?"),
  BrokenJob(
    "mov has only a size", "output: { mov: { profile: hq } }\n",
    "job.cfg:1:18: error: unknown key 'profile' in output.mov; expected one of: width, height"),
  BrokenJob(
    "odd video width", "output: { mp4: { width: 721 } }\n",
    "job.cfg:1:25: error: output.mp4.width: expected an even number of pixels (the video is 4:2:0), got 721"),
  BrokenJob(
    "odd mov width", "output: { mov: { width: 721 } }\n",
    "job.cfg:1:25: error: output.mov.width: expected an even number of pixels (the MOV keeps even sides, as 4:2:0 video has them), got 721"),
  BrokenJob(
    "video width and height", "output: { webm: { width: 720, height: 1280 } }\n",
    "job.cfg:1:39: error: output.webm.height: give width or height, not both: the other keeps the canvas's aspect ratio"),
  BrokenJob(
    "translucent matte", "output: { matte: \"#FFFFFF80\" }\n",
    "job.cfg:1:18: error: output.matte: expected an opaque colour (mp4 and gif have no alpha), got \"#FFFFFF80\""),
  BrokenJob(
    "gif maxBytes unit", "output: { gif: { maxBytes: 10XB } }\n",
    "job.cfg:1:28: error: output.gif.maxBytes: expected a size from 1024 to 1099511627776 bytes (a number, or like 10MB or 10MiB), got \"10XB\""),
  BrokenJob(
    "unknown target", "output: { target: gihtub }\n",
    "job.cfg:1:19: error: output.target: unknown target \"gihtub\"; did you mean 'github'?"),
  BrokenJob(
    "fps not an NTSC rate", "canvas: { fps: 59.5 }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got 59.5"),
  BrokenJob(
    "unknown format near webm", "output: { formats: [webn] }\n",
    "job.cfg:1:21: error: output.formats[0]: unknown format \"webn\"; did you mean 'webm'?"),
]

/// The broken jobs above run in `OutputSettingsTests.diagnostic`.
@Suite enum WebFormatSettingsTests {
  @Test static func decodesEverySetting() throws {
    let text = """
      output:
        formats: [webm, mov, apng, webp]
        webm: { crf: 20, speed: 1 }
        apng: { loop: 0 }
        webp: { quality: 95, lossless: true, loop: forever }

      """ + job("hold: 1")
    let spec = try JobParser.parse(text, file: "job.cfg")
    #expect(spec.output.formats == [.webm, .mov, .apng, .webp])
    #expect(spec.output.webm == WebMSettings(crf: 20, speed: 1))
    #expect(spec.output.apng == APNGSettings(loop: .repeat(0)))
    #expect(spec.output.webp == WebPSettings(quality: 95, lossless: true, loop: .forever))
    #expect(AnimationLoop.repeat(0).plays == 1 && AnimationLoop.forever.plays == 0)
  }

  @Test static func variableFrameRate() throws {
    let spec = try JobParser.parse(
      "output: { mp4: { frameRate: variable, crf: 20 }, webm: { frameRate: constant } }\n" + job("hold: 1"),
      file: "job.cfg")
    #expect(spec.output.mp4.frameRate == .variable && spec.output.mp4.crf == 20)
    #expect(spec.output.webm.frameRate == .constant)
  }

  @Test static func defaults() throws {
    let spec = try JobParser.parse("output: { formats: [webm, webp] }\n" + job("hold: 1"), file: "job.cfg")
    #expect(spec.output.webm == WebMSettings(crf: 31, speed: 2))
    #expect(spec.output.webm.frameRate == .constant && spec.output.mp4.frameRate == .constant)
    #expect(spec.output.apng == APNGSettings(loop: nil))
    #expect(spec.output.webp == WebPSettings(quality: 80, lossless: false, loop: nil))
  }
}

/// `background: transparent`, `output.matte` and sizes written with units.
@Suite enum AlphaAndSizeSettingsTests {
  @Test static func transparentCanvasAndMatte() throws {
    let spec = try JobParser.parse(
      "canvas: { background: transparent }\noutput: { matte: \"#FFFFFF\" }\n" + job("hold: 1"), file: "job.cfg")
    #expect(spec.canvas.background == .clear && !spec.canvas.isOpaque)
    #expect(spec.output.matte == .white)
    #expect(!spec.isOpaque)
    let opaque = try JobParser.parse(job("hold: 1"), file: "job.cfg")
    #expect(opaque.output.matte == .black && opaque.canvas.isOpaque && opaque.isOpaque)
    // A transparent stage around an opaque canvas makes frames with alpha too.
    let staged = try JobParser.parse("stage: { background: transparent, device: none }\n" + job("hold: 1"), file: "job.cfg")
    #expect(staged.canvas.isOpaque && !staged.isOpaque)
  }

  @Test static func sizesWithUnits() {
    #expect(ByteSize.bytes("10MB") == 10_000_000)
    #expect(ByteSize.bytes("10MiB") == 10_485_760)
    #expect(ByteSize.bytes("1.5 MB") == 1_500_000)
    #expect(ByteSize.bytes("512KiB") == 524_288 && ByteSize.bytes("500kB") == 500_000)
    #expect(ByteSize.bytes("2000000") == 2_000_000 && ByteSize.bytes("64 B") == 64)
    #expect(ByteSize.bytes("10 mb") == nil && ByteSize.bytes("MB") == nil && ByteSize.bytes("1.2.3MB") == nil)
    // The largest budget (1 TiB) in its own unit.
    #expect(ByteSize.bytes("1TiB") == 1 << 40 && ByteSize.bytes("1 TB") == 1_000_000_000_000)
  }

  /// A byte count written as YAML writes a number in exponent form is that
  /// count (the job sweep): `maxBytes: 1e7` said "expected a size from 1024
  /// to 1099511627776 bytes (a number, or like 10MB or 10MiB), got 1e7".
  @Test static func aNumberInExponentFormIsACount() throws {
    #expect(ByteSize.bytes("1e7") == 10_000_000 && ByteSize.bytes("2.5E+6") == 2_500_000)
    #expect(ByteSize.bytes("1.5e3") == 1500 && ByteSize.bytes("1e1MB") == 10_000_000)
    #expect(ByteSize.bytes("1e") == nil && ByteSize.bytes("e7") == nil && ByteSize.bytes("1e7e7") == nil)
    let spec = try JobParser.parse("output: { gif: { maxBytes: 1e7 }, mp4: { maxBytes: 2.5e6 } }\n" + job("hold: 1"), file: "job.cfg")
    #expect(spec.output.gif.maxBytes == 10_000_000 && spec.output.mp4.maxBytes == 2_500_000)
    var message = ""
    do { _ = try JobParser.parse("output: { gif: { maxBytes: 1e-3 } }\n" + job("hold: 1"), file: "job.cfg") } catch {
      message = error.description
    }
    #expect(message == "job.cfg:1:28: error: output.gif.maxBytes: expected a size from 1024 to 1099511627776 bytes (a number, or like 10MB or 10MiB), got 1e-3")
  }
}

/// `width:`/`height:` of mp4, webm and mov, and the size without them.
@Suite enum VideoSizeSettingsTests {
  @Test static func sizes() throws {
    let spec = try JobParser.parse(
      "canvas: { size: 393x852, scale: 3 }\noutput: { formats: [mp4, webm, mov], mp4: { width: 720 }, webm: { height: 1280 } }\n"
        + job("hold: 1"), file: "job.cfg")
    #expect(spec.output.mp4.size == VideoSize(width: 720) && spec.output.webm.size == VideoSize(height: 1280))
    // 2556 × 720 / 1179 = 1560.9 → 1560; 1179 × 1280 / 2556 = 590.4 → 590.
    #expect(spec.videoSize(spec.output.mp4.size) == (720, 1560))
    #expect(spec.videoSize(spec.output.webm.size) == (590, 1280))
    #expect(spec.videoSize(spec.output.mov.size) == (1180, 2556))
    #expect(spec.notes.map(\.description) == [
      "job.cfg:1:17: note: canvas.size: the canvas is 1179x2556 pixels; the mov is 1180x2556, its last column repeated "
        + "(the MOV keeps even sides, as 4:2:0 video has them); give a width or height to scale instead"
    ])
  }

  /// ProRes is 4:2:2, or 4:4:4 with alpha: the MOV's even sides are said to
  /// be its own rule, not 4:2:0's (the outputs sweep: an odd canvas's note
  /// called the MOV 4:2:0; "odd mov width" in the broken jobs for `width`).
  @Test static func theMOVsEvenSidesAreNotCalled420() throws {
    let odd = "canvas: { size: 101x57, scale: 1 }\n"
    let both = try JobParser.parse(odd + "output: { formats: [mp4, mov] }\n" + job("hold: 1"), file: "job.cfg")
    #expect(both.notes.map(\.description) == [
      "job.cfg:1:17: note: canvas.size: the canvas is 101x57 pixels; the mp4 is 102x58, its last column and row repeated "
        + "(4:2:0 video has even sides); the mov is 102x57, its last column repeated (its clean aperture names the height "
        + "alone, as ProRes 4:2:2's colour samples span two columns); give a width or height to scale instead"
    ])
    let wide = try JobParser.parse(
      "canvas: { size: 101x56, scale: 1 }\noutput: { formats: [mp4, mov] }\n" + job("hold: 1"), file: "job.cfg")
    #expect(wide.notes.map(\.description) == [
      "job.cfg:1:17: note: canvas.size: the canvas is 101x56 pixels; the mp4, mov are 102x56, their last column repeated "
        + "(4:2:0 video has even sides; the MOV keeps them too); give a width or height to scale instead"
    ])
  }

  /// The MOV is named at the size it plays, the part its clean aperture
  /// names: ProRes 4444 (with alpha) names both sides and shows the frame
  /// as drawn, so it is left out, and ProRes 4:2:2 names the height (the
  /// outputs sweep: `target: editor` on an iPhone 15 was told its MOV
  /// repeats its last column, which players show it without, and to scale it).
  @Test static func theMOVIsNamedAtTheSizeItPlays() throws {
    let transparent = "canvas: { size: 101x57, scale: 1, background: transparent }\n"
    let alone = try JobParser.parse(transparent + "output: { formats: [mov] }\n" + job("hold: 1"), file: "job.cfg")
    #expect(alone.notes.isEmpty)
    let both = try JobParser.parse(transparent + "output: { formats: [mov, webm] }\n" + job("hold: 1"), file: "job.cfg")
    #expect(both.notes.map(\.description) == [
      "job.cfg:1:17: note: canvas.size: the canvas is 101x57 pixels; the webm is 102x58, its last column and row repeated "
        + "(4:2:0 video has even sides); give a width or height to scale instead"
    ])
    let tall = try JobParser.parse(
      "canvas: { size: 100x57, scale: 1 }\noutput: { formats: [mov] }\n" + job("hold: 1"), file: "job.cfg")
    #expect(tall.notes.isEmpty)
    let editor = try JobParser.parse(
      "canvas: { device: iphone-15 }\noutput: { target: editor }\n" + job("hold: 1"), file: "job.cfg")
    #expect(editor.notes.isEmpty)
  }

  /// The note on an odd canvas names the key the job wrote that makes its
  /// pixels, or the canvas itself where it wrote none (it named
  /// `canvas.device`, a key the job did not have, at 1:1); a canvas written
  /// without such a key is named where it is written.
  @Test static func anOddCanvasNamesTheKeyWritten() throws {
    func note(_ canvas: String) throws -> [String] {
      try JobParser.parse(canvas + "output: { formats: [mp4] }\n" + job("hold: 1"), file: "job.cfg").notes.map(\.description)
    }
    let tail = " is 1179x2556 pixels; the mp4 is 1180x2556, its last column repeated "
      + "(4:2:0 video has even sides); give a width or height to scale instead"
    let unwritten = try note(""), fps = try note("canvas: { fps: 30 }\n"), scale = try note("canvas: { scale: 3 }\n")
    let device = try note("canvas: { device: iphone-15 }\n")
    #expect(unwritten == ["job.cfg:1:1: note: canvas: the canvas" + tail])
    #expect(fps == ["job.cfg:1:9: note: canvas: the canvas" + tail])
    #expect(scale == ["job.cfg:1:18: note: canvas.scale: the canvas" + tail])
    #expect(device == ["job.cfg:1:19: note: canvas.device: the canvas" + tail])
  }

  /// A stage that makes the frame is named as the stage in the note on
  /// its odd size (it was called the canvas, whose own pixels are others).
  @Test static func aStagesSizeIsTheStages() throws {
    let spec = try JobParser.parse(
      "canvas: { device: iphone-15-pro, scale: 1 }\nstage: { padding: 20, size: [501.5, 1001] }\noutput: { formats: [mp4] }\n"
        + job("hold: 1"), file: "job.cfg")
    #expect(spec.notes.map(\.description) == [
      "job.cfg:2:29: note: stage.size: 501.5x1001 points at scale 1 are 501.5x1001 pixels; the stage is 502x1001 pixels, "
        + "each side rounded to the nearest whole pixel",
      "job.cfg:2:29: note: stage.size: the stage is 502x1001 pixels; the mp4 is 502x1002, its last row repeated "
        + "(4:2:0 video has even sides); give a width or height to scale instead"
    ])
  }
}

/// `canvas.fps` as the NTSC rates.
@Suite enum FrameRateSettingsTests {
  @Test static func fractionalRates() throws {
    let spec = try JobParser.parse("canvas: { fps: 59.94 }\n" + job("hold: 10"), file: "job.cfg")
    #expect(spec.canvas.fps == 60 && spec.canvas.isFractional)
    #expect(spec.canvas.frameRate == FrameRate(frames: 60000, seconds: 1001) && spec.canvas.frameRate.description == "59.94")
    // 10 s × 59.94 = 599.4 frames: 599; frame 599 is at 599·1001/60000 s.
    let timeline = Timeline(spec: spec)
    #expect(timeline.frameCount == 599)
    #expect(spec.canvas.frameRate.time(ofFrame: 599) == 599.0 * 1001 / 60000)
    let film = try JobParser.parse("canvas: { fps: 23.976 }\n" + job("hold: 1"), file: "job.cfg")
    #expect(film.canvas.frameRate == FrameRate(frames: 24000, seconds: 1001) && film.canvas.frameRate.description == "23.976")
    let whole = try JobParser.parse("canvas: { fps: 30 }\n" + job("hold: 1"), file: "job.cfg")
    #expect(!whole.canvas.isFractional && whole.canvas.frameRate == FrameRate(frames: 30) && Timeline(spec: whole).frameCount == 30)
  }
}
