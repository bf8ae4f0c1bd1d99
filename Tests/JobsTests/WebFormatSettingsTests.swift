// `output.webm`, `output.apng` and `output.webp`: what they decode to, and the
// exact diagnostic for each kind of mistake (columns counted by hand).

import Testing

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
    "job.cfg:1:19: error: unknown key 'cpuUsed' in output.webm; expected one of: crf, speed"),
  BrokenJob(
    "apng loop word", "output: { apng: { loop: always } }\n",
    "job.cfg:1:25: error: output.apng.loop: expected 'forever' or a repeat count from 0 to 65535, got \"always\""),
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
    "mov has no settings yet", "output: { mov: { profile: hq } }\n",
    "job.cfg:1:11: error: unknown key 'mov' in output; expected one of: dir, formats, mp4, gif, png, sheet, webm, apng, webp"),
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

  @Test static func defaults() throws {
    let spec = try JobParser.parse("output: { formats: [webm, webp] }\n" + job("hold: 1"), file: "job.cfg")
    #expect(spec.output.webm == WebMSettings(crf: 31, speed: 2))
    #expect(spec.output.apng == APNGSettings(loop: nil))
    #expect(spec.output.webp == WebPSettings(quality: 80, lossless: false, loop: nil))
  }
}
