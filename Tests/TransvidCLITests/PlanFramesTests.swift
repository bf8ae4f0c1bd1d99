// `transvid plan` counts the frames a render writes. The oracle is ffprobe
// decoding the written MP4 (`-count_frames`), so the check does not go through
// transvid's own timeline: every example job and jobs whose steps have
// `delay:`, gestures and `slowmo:`, at several frame rates. The examples
// render at their own 393×852 pt, but 1× and 8 fps to stay fast (the full
// screen, because gesture distances and touch points are checked against it).

import Foundation
import Jobs
import Testing

@Suite struct PlanFramesTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Two steps that each wait 0.3 s before 0.5 s of animation: 2.0 s, 60 frames.
  static let delayed = """
    name: delayed
    canvas: { size: 40x60, scale: 1, fps: 30 }
    screens:
      a: { background: "#FFFFFF" }
      b: { background: "#FF0000" }
    timeline:
      - hold: 0.2
      - push: { from: a, to: b, transition: circle-spread, duration: 0.5, delay: 0.3 }
      - hold: 0.2
      - pop: { duration: 0.5, delay: 0.3 }
    """

  /// A finished gesture push, a cancelled gesture pop, then a delayed one
  /// driven by distance.
  static let gestures = """
    name: gestures
    canvas: { size: 40x60, scale: 1, fps: 24 }
    screens:
      list: { background: "#FFFFFF" }
      detail: { background: "#0000FF" }
    timeline:
      - push: { from: list, to: detail, transition: circle-spread, gesture: { progress: [0, 0.3, 0.6] } }
      - pop: { gesture: { progress: [0, 0.2, 0.35], release: cancel, completionSpeed: 2 } }
      - hold: 0.1
      - pop: { delay: 0.2, gesture: { direction: right, distance: [0, 10, 30] } }
    """

  /// Slowed steps, one also delayed.
  static let slowmo = """
    name: slowmo
    canvas: { size: 40x60, scale: 1, fps: 25 }
    screens:
      a: { background: "#FFFFFF" }
      b: { background: "#00FF00" }
    timeline:
      - push: { from: a, to: b, transition: tap-spread, tap: [20, 30], slowmo: 3, delay: 0.1 }
      - pop: { slowmo: 2 }
      - hold: 0.15
    """

  /// Delay, slow motion, touch and a gesture on the same steps.
  static let combined = """
    name: combined
    canvas: { size: 60x80, scale: 1, fps: 20 }
    screens:
      grid: { background: "#FFFFFF", views: [ { id: cell, frame: [5, 5, 20, 20], color: "#FF0000" } ] }
      detail: { background: "#EEEEEE", views: [ { id: hero, frame: [0, 0, 60, 40], color: "#FF0000" } ] }
    timeline:
      - push: { from: grid, to: detail, transition: magic-move, element: { from: cell, to: hero }, delay: 0.15, slowmo: 2, touch: true }
      - pop: { delay: 0.1, slowmo: 1.5, touch: [10, 40], gesture: { direction: right, distance: [0, 20, 40] } }
      - hold: 0.3
    """

  /// Runs `executable`; its exit status and standard output.
  static func run(_ executable: URL, _ arguments: [String]) throws -> (Int32, Data) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
  }

  /// The frames ffprobe decodes from the video at `path`.
  static func decodedFrames(_ path: String) throws -> Int? {
    let (_, data) = try run(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
        "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path,
      ])
    return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test func planFramesAreTheFramesInTheWrittenMP4() throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = (dir as NSString).appendingPathComponent("jobs")
    let out = (dir as NSString).appendingPathComponent("out")
    try FileManager.default.createDirectory(atPath: jobs, withIntermediateDirectories: true)
    let examples = Self.repository.appendingPathComponent("jobs")
    // A copy, not a link: a job's images must lie inside its own folder.
    try FileManager.default.copyItem(
      atPath: examples.appendingPathComponent("assets").path,
      toPath: (jobs as NSString).appendingPathComponent("assets"))
    var names = ["delayed", "gestures", "slowmo", "combined"]
    for (name, text) in zip(names, [Self.delayed, Self.gestures, Self.slowmo, Self.combined]) {
      try write(text, to: "\(name).cfg", in: jobs)
    }
    for file in try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted() where file.hasSuffix(".cfg") {
      let text = try String(contentsOf: examples.appendingPathComponent(file), encoding: .utf8)
      let small = text.replacingOccurrences(of: "device: iphone-15, fps: 60", with: "device: iphone-15, scale: 1, fps: 8")
      try #require(small != text, "\(file): its canvas line changed; update this test")
      // A job with locales is one unit of work per locale (`locales.en`, …).
      let copy = try write(small, to: file, in: jobs)
      names += try JobParser.load(path: copy).localizedJobs().map(\.name)
    }

    let (planStatus, planData) = try Self.run(binary, ["plan", "--json", jobs, "-o", out, "--format", "mp4"])
    #expect(planStatus == 0)
    let plan = try #require(try JSONSerialization.jsonObject(with: planData) as? [String: Any])
    let planned = try #require(plan["jobs"] as? [[String: Any]])
    #expect(planned.count == names.count)
    let (renderStatus, _) = try Self.run(binary, [jobs, "-o", out, "--format", "mp4", "-q"])
    #expect(renderStatus == 0)

    var frames: [String: Int] = [:]
    for job in planned {
      let name = try #require(job["job"] as? String), count = try #require(job["frames"] as? Int)
      let output = try #require((job["outputs"] as? [String])?.first)
      #expect(job["error"] == nil, "\(name): \(job["error"] ?? "")")
      let decoded = try Self.decodedFrames(output)
      #expect(decoded == count, "\(name): plan says \(count) frames, the MP4 has \(decoded.map(String.init) ?? "none")")
      frames[name] = count
    }
    #expect(Set(frames.keys) == Set(names))
    // 0.2 + (0.3 + 0.5) + 0.2 + (0.3 + 0.5) s at 30 fps.
    #expect(frames["delayed"] == 60)
  }

  /// The NTSC rates: plan frames == decoded frames in mp4, webm and mov,
  /// mp4 and mov tagged with the exact rational rate (webm to the
  /// nanosecond), the last frame at n·1001/(fps·1000) s.
  @Test(arguments: [("23.976", "24000/1001"), ("29.97", "30000/1001"), ("59.94", "60000/1001")])
  func fractionalRatesAreTaggedExactly(rate: String, tag: String) throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = Self.delayed.replacingOccurrences(of: "fps: 30", with: "fps: \(rate)")
      .replacingOccurrences(of: "name: delayed", with: "name: delayed\noutput: { formats: [mp4, webm, mov] }")
    let job = try write(text, to: "delayed.cfg", in: dir)
    let (planStatus, planData) = try Self.run(binary, ["plan", "--json", job, "-o", "\(dir)/out"])
    #expect(planStatus == 0)
    let plan = try #require(try JSONSerialization.jsonObject(with: planData) as? [String: Any])
    let entry = try #require((plan["jobs"] as? [[String: Any]])?.first)
    let frames = try #require(entry["frames"] as? Int)
    // 2.0 s at fps·1000/1001 frames a second, rounded.
    let fps = Double(tag.split(separator: "/")[0])! / 1001
    #expect(frames == Int((2.0 * fps).rounded()))
    let (status, _) = try Self.run(binary, [job, "-o", "\(dir)/out", "-q"])
    #expect(status == 0)
    for format in ["mp4", "webm", "mov"] {
      let path = "\(dir)/out/delayed.\(format)"
      #expect(try Self.decodedFrames(path) == frames, "\(format) at \(rate)")
      let (_, data) = try Self.run(
        URL(fileURLWithPath: "/usr/bin/env"),
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate:frame=pts_time",
         "-of", "default=nw=1", path])
      let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
      let tagged = lines.first { $0.hasPrefix("r_frame_rate=") }.map { String($0.dropFirst(13)) } ?? ""
      if format == "webm" {
        // Matroska stores a frame's duration in whole nanoseconds (16683333 ns
        // at 59.94), which ffprobe reads back as a nearby fraction (19001/317).
        let parts = tagged.split(separator: "/").compactMap { Double($0) }
        #expect(parts.count == 2 && abs(parts[0] / parts[1] - fps) < 1e-4, "webm at \(rate): \(tagged)")
      } else {
        #expect(tagged == tag, "\(format) at \(rate): \(tagged)")
      }
      let last = lines.compactMap { $0.hasPrefix("pts_time=") ? Double($0.dropFirst(9)) : nil }.max() ?? -1
      #expect(abs(last - Double(frames - 1) / fps) < 0.002, "\(format) at \(rate): last frame at \(last) s")
    }
  }
}
