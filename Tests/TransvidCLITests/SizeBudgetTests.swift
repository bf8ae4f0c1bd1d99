// `maxBytes:` of mp4 and webm, through the executable: the file fits the
// budget and uses at least 80 % of it, the summary line gives the rate,
// two runs give the same bytes, and a budget below the lowest rate is an
// error at the key. (The acceptance measurement on the 10 s photo demo is
// in the commit message: too slow for the suite.)
import Foundation
import Testing

@Suite(.enabled(if: transvidBinary() != nil, "build the executable first (swift build --build-tests)"))
struct SizeBudgetTests {
  @Test(arguments: ["mp4", "webm"])
  func fitsTheBudget(format: String) throws {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      smallJob(output: "{ formats: [\(format)], \(format): { maxBytes: 30kB } }"), to: "small.cfg", in: dir)
    var files: [Data] = []
    for out in ["a", "b"] {
      let (status, data) = try PlanFramesTests.run(binary, [job, "-o", "\(dir)/\(out)"])
      let text = String(decoding: data, as: UTF8.self)
      #expect(status == 0, "\(text)")
      #expect(text.contains("\(format): maxBytes 30000: two-pass at "), "\(text)")
      files.append(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(out)/small.\(format)")))
      // Nothing but the video is left beside it (no first pass, no stats).
      #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/\(out)").filter { !$0.hasPrefix(".") } == ["small.\(format)"])
    }
    #expect(files[0] == files[1], "two runs give the same bytes")
    #expect(files[0].count <= 30_000 && files[0].count >= 24_000, "\(files[0].count) bytes")
  }

  /// A budget far above what the demo needs (10 MB for a 2 s demo): the
  /// rate is raised once, to the 100 Mb/s ceiling, the file grows no
  /// larger, and the file at the first rate is kept, at level 5.1 or below
  /// (the ceiling was 1 Gb/s, and x264 wrote the larger file at level 6.2,
  /// which many phones do not decode).
  @Test func aGenerousBudgetStopsWhereMoreBitsAreNotUsed() throws {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      smallJob(output: "{ formats: [mp4], mp4: { maxBytes: 10MB, frameRate: variable } }"), to: "small.cfg", in: dir)
    let (status, data) = try PlanFramesTests.run(binary, [job, "-o", "\(dir)/out"])
    let text = String(decoding: data, as: UTF8.self)
    #expect(status == 0, "\(text)")
    #expect(
      text.contains("mp4: maxBytes 10000000: two-pass at 40421 kb/s, <1 % of the budget (it needs no more bits: it averages ")
        && text.contains(" kb/s) (tried 100000 kb/s → "), "\(text)")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: "\(dir)/out/small.mp4")[.size] as? Int)
    #expect(size > 1000 && size < 10_000_000)
    let (_, probe) = try PlanFramesTests.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["ffprobe", "-v", "error", "-show_entries", "stream=level", "-of", "csv=p=0", "\(dir)/out/small.mp4"])
    let level = Int(String(decoding: probe, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99
    #expect(level <= 51, "level \(level)")
  }

  /// A variable-rate WebM of 15 pictures grows slowly with the rate: 24 %
  /// of a 6000-byte budget at the first rate, 40 % after four encodes,
  /// where the search stopped and said nothing of why. Now it goes on until
  /// a rate half again as high buys under a tenth more, and says the file
  /// needs no more bits.
  @Test func aSlowlyGrowingFileIsRaisedUntilMoreBitsBuyNothing() throws {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      """
      name: vfr
      canvas: { size: 200x300, scale: 1, fps: 29.97, background: "#000000" }
      output: { formats: [webm], webm: { frameRate: variable, maxBytes: 6000 } }
      screens:
        a:
          background: "#FF0000"
          views:
            - { id: g, frame: [0, 0, 100, 100], color: "#808080" }
            - { id: d, frame: [100, 0, 100, 100], color: "#0A0A0A" }
            - { id: w, frame: [0, 100, 100, 100], color: "#FFFFFF" }
            - { id: b, frame: [100, 100, 100, 100], color: "#0000FF" }
        b:
          background: "#00FF00"
      timeline:
        - hold: 0.5
        - push: { to: b, transition: cross-dissolve, duration: 0.5 }
        - hold: 0.5

      """, to: "vfr.cfg", in: dir)
    let (status, data) = try PlanFramesTests.run(binary, [job, "-o", "\(dir)/out"])
    let text = String(decoding: data, as: UTF8.self)
    #expect(status == 0, "\(text)")
    #expect(text.contains("% of the budget (it needs no more bits: it averages "), "\(text)")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: "\(dir)/out/vfr.webm")[.size] as? Int)
    #expect(size <= 6000 && size > 2408, "\(size) bytes")
  }

  /// A budget beside `crf`, or the github target's, caps the crf encode:
  /// the file is the one the crf alone makes (byte for byte) when it fits,
  /// and two passes at the rate that fits when it does not.
  @Test(arguments: ["mp4", "webm"])
  func aBudgetBesideCRFCapsTheCRFEncode(format: String) throws {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func render(_ output: String, _ extra: [String] = []) throws -> (text: String, bytes: Data) {
      let job = try write(smallJob(output: output), to: "small.cfg", in: dir)
      try? FileManager.default.removeItem(atPath: "\(dir)/out")
      let (status, data) = try PlanFramesTests.run(binary, [job, "-o", "\(dir)/out", "--force"] + extra)
      let text = String(decoding: data, as: UTF8.self)
      #expect(status == 0, "\(text)")
      return (text, try Data(contentsOf: URL(fileURLWithPath: "\(dir)/out/small.\(format)")))
    }
    let crf = format == "mp4" ? 8 : 4
    let plain = try render("{ formats: [\(format)], \(format): { crf: \(crf) } }")
    let capped = try render("{ formats: [\(format)], \(format): { crf: \(crf), maxBytes: 1MB } }")
    #expect(capped.bytes == plain.bytes)
    let share = plain.bytes.count * 100 / 1_000_000
    #expect(capped.text.contains("(\(format): crf \(crf), \(share == 0 ? "<1" : "\(share)") % of maxBytes 1000000)"), "\(capped.text)")
    // Over the budget: two passes at the rate that fits, the crf encode's size said.
    let budget = plain.bytes.count * 6 / 10
    let over = try render("{ formats: [\(format)], \(format): { crf: \(crf), maxBytes: \(budget) } }")
    #expect(over.bytes.count <= budget && over.bytes != plain.bytes)
    #expect(
      over.text.contains("\(format): maxBytes \(budget): two-pass at ")
        && over.text.contains("(crf \(crf) made \(plain.bytes.count) bytes)"), "\(over.text)")
    guard format == "mp4" else { return }
    // The github target's 10 MB is GitHub's limit, not a size to fill: the default crf's file, at its variable rate.
    let variable = try render("{ formats: [mp4], mp4: { frameRate: variable } }")
    let github = try render("{ formats: [mp4] }", ["--target", "github"])
    #expect(github.bytes == variable.bytes)
    #expect(github.text.contains("(mp4: crf 18, <1 % of maxBytes 10000000)"), "\(github.text)")
  }

  @Test func aBudgetBelowTheLowestRateIsAnError() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try write(smallJob(output: "{ formats: [mp4], mp4: { maxBytes: 2kB } }"), to: "small.cfg", in: dir)
    let run = try runBinary(["small.cfg", "-o", "out", "-q"], in: dir)
    let errors = run.stderr
    #expect(run.status == 1)
    #expect(
      errors.contains(
        "small.cfg:3:44: error: output.mp4.maxBytes: 2000 bytes over 1.90 s is 8.4 kb/s, below the lowest rate (20 kb/s)"),
      "\(errors)")
    #expect(!FileManager.default.fileExists(atPath: "\(dir)/out/small.mp4"))
  }

  /// The lowest rate is the budget's own (bytes × 8 over the duration), not
  /// the rate less the first attempt's headroom: 2600 bytes over 1 s (20.8
  /// kb/s) is met, at 20 kb/s (it was refused as "19 kb/s"); 2499 bytes
  /// (19.99 kb/s) is refused, said as 19.9 kb/s, never rounded up to the
  /// lowest rate it is below; 2500 bytes (20 kb/s) is not refused.
  @Test func aBudgetAtTheLowestRateIsTried() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func job(_ maxBytes: Int) -> String {
      """
      name: b\(maxBytes)
      canvas: { size: 60x60, scale: 1, fps: 30, background: "#000000" }
      output: { formats: [mp4], mp4: { maxBytes: \(maxBytes) } }
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 1.0

      """
    }
    for maxBytes in [2499, 2500, 2600] { _ = try write(job(maxBytes), to: "b\(maxBytes).cfg", in: dir) }
    let check = try runBinary(["check", "b2499.cfg", "b2500.cfg", "b2600.cfg"], in: dir)
    #expect(check.status == 1)
    let refusal = "b2499.cfg:3:44: error: output.mp4.maxBytes: 2499 bytes over 1.00 s is 19.9 kb/s, below the lowest rate (20 kb/s)"
    #expect(check.lines == [refusal], "\(check.lines)")
    let low = try runBinary(["b2499.cfg", "-o", "out", "-q"], in: dir)
    #expect(low.status == 1 && low.stderr.contains(refusal), "\(low.stderr)")
    let binary = try #require(transvidBinary())
    let (status, data) = try PlanFramesTests.run(binary, ["\(dir)/b2600.cfg", "-o", "\(dir)/out"])
    let text = String(decoding: data, as: UTF8.self)
    #expect(status == 0, "\(text)")
    #expect(text.contains("(mp4: maxBytes 2600: two-pass at 20 kb/s, "), "\(text)")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: "\(dir)/out/b2600.mp4")[.size] as? Int)
    #expect(size > 1000 && size <= 2600, "\(size) bytes")
  }
}
