// `output.gif`, `output.png` and `output.sheet`: what they decode to, and the
// exact diagnostic for each kind of mistake (columns counted by hand).

import Foundation
import Testing

@testable import Jobs

let brokenOutputJobs: [BrokenJob] = [
  BrokenJob(
    "unknown gif key", "output: { gif: { colours: 64 } }\n",
    "job.cfg:1:18: error: unknown key 'colours' in output.gif; expected one of: width, fps, maxColors, maxBytes, dither, bayerScale, palette, loop, quality, lossy"),
  BrokenJob(
    "misspelt gif key", "output: { gif: { maxColours: 64 } }\n",
    "job.cfg:1:18: error: unknown key 'maxColours' in output.gif; did you mean 'maxColors'?"),
  // The snake_case spellings of earlier versions, like any near miss.
  BrokenJob(
    "max_colors", "output: { gif: { max_colors: 64 } }\n",
    "job.cfg:1:18: error: unknown key 'max_colors' in output.gif; did you mean 'maxColors'?"),
  BrokenJob(
    "max_bytes", "output: { gif: { max_bytes: 2000000 } }\n",
    "job.cfg:1:18: error: unknown key 'max_bytes' in output.gif; did you mean 'maxBytes'?"),
  BrokenJob(
    "bayer_scale", "output: { gif: { dither: bayer, bayer_scale: 3 } }\n",
    "job.cfg:1:33: error: unknown key 'bayer_scale' in output.gif; did you mean 'bayerScale'?"),
  BrokenJob(
    "maxColors 300", "output: { gif: { maxColors: 300 } }\n",
    "job.cfg:1:29: error: output.gif.maxColors: expected an integer from 4 to 256, got 300"),
  BrokenJob(
    "gif lossy 300", "output: { gif: { lossy: 300 } }\n",
    "job.cfg:1:25: error: output.gif.lossy: expected an integer from 0 to 255, got 300"),
  BrokenJob(
    "gif fps 60", "output: { gif: { fps: 60 } }\n",
    "job.cfg:1:23: error: output.gif.fps: expected an integer from 1 to 50, got 60"),
  BrokenJob(
    "maxBytes too small", "output: { gif: { maxBytes: 100 } }\n",
    "job.cfg:1:28: error: output.gif.maxBytes: expected a size from 1024 to 1099511627776 bytes (a number, or like 10MB or 10MiB), got 100"),
  BrokenJob(
    "misspelt dither", "output: { gif: { dither: sierra } }\n",
    "job.cfg:1:26: error: output.gif.dither: unknown dither mode \"sierra\"; expected one of: bayer, sierra2_4a, floyd_steinberg, none"),
  BrokenJob(
    "near-miss dither", "output: { gif: { dither: bayr } }\n",
    "job.cfg:1:26: error: output.gif.dither: unknown dither mode \"bayr\"; did you mean 'bayer'?"),
  BrokenJob(
    "dither is a list", "output: { gif: { dither: [bayer] } }\n",
    "job.cfg:1:26: error: output.gif.dither: expected a dither mode (bayer, sierra2_4a, floyd_steinberg, none), got a list of 1 item"),
  BrokenJob(
    "bayerScale 9", "output: { gif: { bayerScale: 9 } }\n",
    "job.cfg:1:30: error: output.gif.bayerScale: expected an integer from 0 to 5, got 9"),
  // A scale that changes nothing is a mistake, as a contentMode without an image is.
  BrokenJob(
    "bayerScale without a dither", "output: { gif: { bayerScale: 3 } }\n",
    "job.cfg:1:30: error: output.gif.bayerScale: only with dither: bayer (the dither is none)"),
  BrokenJob(
    "bayerScale with sierra", "output: { gif: { dither: sierra2_4a, bayerScale: 3 } }\n",
    "job.cfg:1:50: error: output.gif.bayerScale: only with dither: bayer (the dither is sierra2_4a)"),
  BrokenJob(
    "palette local", "output: { gif: { palette: local } }\n",
    "job.cfg:1:27: error: output.gif.palette: unknown palette mode \"local\"; did you mean 'global'?"),
  BrokenJob(
    "loop always", "output: { gif: { loop: always } }\n",
    "job.cfg:1:24: error: output.gif.loop: expected 'forever' or a repeat count from 0 to 65535, got \"always\""),
  BrokenJob(
    "loop -1", "output: { gif: { loop: -1 } }\n",
    "job.cfg:1:24: error: output.gif.loop: expected an integer from 0 to 65535, got -1"),
  BrokenJob(
    "png time negative", "output: { png: { time: -1 } }\n",
    "job.cfg:1:24: error: output.png.time: expected a time in seconds from 0 to 86400, got -1"),
  // The message names the upper bound too: "(0 or more)" refused 1e300 (the hardening sweep).
  BrokenJob(
    "png time past a day", "output: { png: { time: 86401 } }\n",
    "job.cfg:1:24: error: output.png.time: expected a time in seconds from 0 to 86400, got 86401"),
  BrokenJob(
    "png unknown key", "output: { png: { frame: 3 } }\n",
    "job.cfg:1:18: error: unknown key 'frame' in output.png; expected one of: time"),
  BrokenJob(
    "sheet columns 0", "output: { sheet: { columns: 0 } }\n",
    "job.cfg:1:29: error: output.sheet.columns: expected an integer from 1 to 20, got 0"),
  BrokenJob(
    "sheet frames word", "output: { sheet: { frames: many } }\n",
    "job.cfg:1:28: error: output.sheet.frames: expected an integer from 1 to 100, got \"many\""),
  BrokenJob(
    "sheet width 10", "output: { sheet: { width: 10 } }\n",
    "job.cfg:1:27: error: output.sheet.width: expected an integer from 64 to 65535, got 10"),
]

@Suite enum OutputSettingsTests {
  @Test(arguments: brokenOutputJobs + brokenWebFormatJobs)
  static func diagnostic(_ broken: BrokenJob) {
    do {
      let job = try JobParser.parse(bytes: broken.bytes, file: "job.cfg", transitions: TestCatalog.all)
      Issue.record("parsed, expected \(broken.expected); got \(job)")
    } catch {
      #expect(error.description == broken.expected)
    }
  }

  @Test static func decodesEverySetting() throws {
    let text = """
      output:
        formats: [gif, png, sheet]
        gif: { width: 390, fps: 30, maxColors: 128, maxBytes: 500000, dither: bayer,
               bayerScale: 3, palette: per-frame, loop: 2, lossy: 12 }
        png: { time: 1.2 }
        sheet: { frames: 8, columns: 2, width: 600 }

      """ + job("hold: 1")
    let spec = try JobParser.parse(text, file: "job.cfg")
    #expect(spec.output.formats == [.gif, .png, .sheet])
    var gif = GIFSettings(
      width: 390, fps: 30, maxColors: 128, maxBytes: 500_000, dither: .bayer, bayerScale: 3,
      palette: .perFrame, loop: .repeat(2))
    gif.lossy = 12
    #expect(spec.output.gif == gif)
    #expect(spec.output.png == PNGSettings(time: 1.2))
    #expect(spec.output.sheet == SheetSettings(frames: 8, columns: 2, width: 600))
  }

  /// A contact sheet shows at most the video's frames (`SheetOutput`), so
  /// it is sized for those: 100 asked of a 30-frame video are 30 rows of
  /// one 1000-pixel thumbnail, which fit; of a 103-frame video, 100 rows do
  /// not, and the error is at the `frames` that asked for them. Without
  /// sheet keys the canvas, which sizes the thumbnails, is blamed.
  @Test static func aSheetIsSizedForTheFramesItShows() throws {
    func failure(_ text: String) -> String? {
      do {
        _ = try JobParser.parse(text, file: "job.cfg")
        return nil
      } catch {
        return error.description
      }
    }
    let head = "canvas: { size: 2000x2000, scale: 1, fps: 10 }\noutput: { formats: [sheet], sheet: { frames: 100, columns: 1 } }\n"
    #expect(failure(head + job("hold: 3")) == nil)
    #expect(
      failure(head + job("hold: 10.3"))
        == "job.cfg:2:46: error: output.sheet.frames: the contact sheet would be 1016x107408 pixels; "
        + "at most 65535 per side (transvid's bound for a contact sheet; --max-side cannot raise it)")
    let plain = "canvas: { size: 4000x8192, scale: 1, fps: 10 }\noutput: { formats: [sheet] }\n"
    #expect(failure(plain + job("hold: 0.3")) == nil)
    #expect(
      failure(plain + job("hold: 2"))
        == "job.cfg:1:17: error: canvas.size: the contact sheet would be 8040x12518 pixels; "
        + "at most 67108864 pixels (8192x8192) and 65535 per side (raise the limit with --max-side)")
  }

  /// A sheet too narrow for its columns says what they need: 8 pixels
  /// each and the 8-pixel gaps between and around them, 72 for the 4
  /// default columns, so the 64 the key allows holds no more than 3 (the
  /// outputs sweep: "each needs 8 pixels and 8 between" added up to 56).
  @Test static func aSheetTooNarrowForItsColumnsSaysWhatTheyNeed() throws {
    let head = "canvas: { size: 40x60, scale: 1, fps: 10 }\n"
    func failure(_ sheet: String) -> String? {
      do {
        _ = try JobParser.parse(head + "output: { formats: [sheet], sheet: { \(sheet) } }\n" + job("hold: 1"), file: "job.cfg")
        return nil
      } catch {
        return error.description
      }
    }
    #expect(
      failure("width: 64")
        == "job.cfg:2:45: error: output.sheet.width: 64 pixels do not fit 4 columns (each needs 8 pixels, "
        + "with 8 between them and at both edges: 72 pixels in all)")
    #expect(failure("width: 72") == nil)
    #expect(failure("width: 64, columns: 3") == nil)
  }

  /// The `width:` keys go as far as the README's limits: the image's
  /// area within `--max-side`² and each side within its format's (16384
  /// for a video, 65535 for a GIF and the sheet), not the canvas's 8192.
  /// Past the format's side the error is the key's, with that side.
  @Test static func widthKeysReachTheirFormatsSides() throws {
    func parsed(_ output: String, canvas: String = "2000x100", limits: JobLimits = JobLimits()) throws(Diagnostic) -> JobSpec {
      try JobParser.parse(
        "canvas: { size: \(canvas), scale: 1, fps: 10 }\noutput: \(output)\n" + job("hold: 0.3"), file: "job.cfg",
        limits: limits)
    }
    func failure(_ output: String, canvas: String = "2000x100", limits: JobLimits = JobLimits()) -> String? {
      do {
        _ = try parsed(output, canvas: canvas, limits: limits)
        return nil
      } catch {
        return error.description
      }
    }
    let gif = try parsed("{ formats: [gif], gif: { width: 20000 } }")
    #expect(gif.output.gif.width == 20000 && gif.gifSize == (20000, 1000))
    let sheet = try parsed("{ formats: [sheet], sheet: { width: 30000, columns: 1, frames: 1 } }")
    #expect(sheet.output.sheet.width == 30000)
    for format in ["mp4", "webm", "mov"] {
      let video = try parsed("{ formats: [\(format)], \(format): { width: 16384 } }", canvas: "4000x100")
      let kind = try #require(OutputFormat(rawValue: format))
      let size = try #require(video.videoSize(of: kind))
      #expect(video.videoSize(size) == (16384, 410))
      #expect(
        failure("{ formats: [\(format)], \(format): { width: 16386 } }")
          == "job.cfg:2:\(35 + 2 * format.count): error: output.\(format).width: expected an integer from 16 to 16384, got 16386")
    }
    #expect(
      failure("{ formats: [gif], gif: { width: 65536 } }")
        == "job.cfg:2:41: error: output.gif.width: expected an integer from 16 to 65535, got 65536")
    #expect(
      failure("{ formats: [sheet], sheet: { width: 65536 } }")
        == "job.cfg:2:45: error: output.sheet.width: expected an integer from 64 to 65535, got 65536")
    // The area is --max-side's, at the key: 20000x20000 is over 8192², within 16384² when raised.
    #expect(
      failure("{ formats: [gif], gif: { width: 12000 } }", canvas: "1000x1000")
        == "job.cfg:2:41: error: output.gif.width: the GIF would be 12000x12000 pixels; "
        + "at most 67108864 pixels (8192x8192) and 65535 per side (raise the limit with --max-side)")
    #expect(failure("{ formats: [gif], gif: { width: 12000 } }", canvas: "1000x1000", limits: JobLimits(maxSide: 16384)) == nil)
  }

  @Test static func defaultsAndForever() throws {
    let spec = try JobParser.parse(
      "output: { gif: { loop: forever, dither: floyd_steinberg } }\n" + job("hold: 1"), file: "job.cfg")
    #expect(spec.output.gif == GIFSettings(dither: .floydSteinberg, loop: .forever))
    for palette in GIFSettings.Palette.allCases {
      let text = "output: { gif: { palette: \(palette.rawValue) } }\n" + job("hold: 1")
      #expect(try JobParser.parse(text, file: "job.cfg").output.gif.palette == palette)
    }
    #expect(spec.output.png == PNGSettings())
    #expect(spec.output.sheet == SheetSettings(frames: 12, columns: 4, width: nil))
  }

  /// The README's example `output:` block shows every key of `png`,
  /// `sheet`, `apng` and `webp` on its format's line (the fleet sweep:
  /// `sheet: { width }` was taken but written nowhere).
  @Test static func theReadmeOutputsExampleShowsEveryKeyOfTheSmallFormats() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let block = try #require(readme.components(separatedBy: "### Outputs\n\n```yaml\n").dropFirst().first)
    let lines = block.prefix { $0 != "`" }.split(separator: "\n")
    for (format, keys) in [
      ("png", JobDecoder.pngKeys), ("sheet", JobDecoder.sheetKeys), ("apng", JobDecoder.apngKeys),
      ("webp", JobDecoder.webpKeys),
    ] {
      let line = try #require(lines.first { $0.hasPrefix("  \(format): {") }, "\(format)")
      for key in keys { #expect(line.contains("\(key): "), "output.\(format).\(key)") }
    }
  }

  /// The README's table of `gif:` keys names every key the GIF takes, each
  /// where a row documents it (the GIF photos sweep: `width` and `loop`
  /// had no row, so `width`'s range, 16…65535, was written nowhere).
  @Test static func theReadmeGIFTableNamesEveryGIFKey() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let table = try #require(readme.components(separatedBy: "| `gif:` key | values | default |\n").dropFirst().first)
    let rows = table.split(separator: "\n").prefix { $0.hasPrefix("|") }.dropFirst()
    for key in JobDecoder.gifKeys {
      #expect(rows.contains { $0.contains("`\(key)`") }, "output.gif.\(key)")
    }
    let width = try #require(rows.first { $0.hasPrefix("| `width` |") })
    #expect(width.contains("16…65535"))
    let loop = try #require(rows.first { $0.hasPrefix("| `loop` |") })
    #expect(loop.contains("0…65535"))
  }
}
