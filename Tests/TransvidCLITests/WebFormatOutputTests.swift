// The webm, mov, apng and webp outputs, checked by tools that are not
// transvid: ffprobe and the ffmpeg CLI (codec, size, frames, timing, a
// decoded frame), and libwebp's own webpmux and dwebp for the animated WebP
// (Debian's FFmpeg 5.1 cannot decode animated WebP). The reference frame is
// `FrameRenderer.frame`, what `transvid frame` writes.
import Foundation
import Media
import Jobs
import Raster
import Rendering
import Testing

@testable import TransvidCLI
import TestSupport

private func tool(_ name: String) -> Bool {
  ["/usr/bin", "/usr/local/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
}

@Suite(.enabled(if: transvidBinary() != nil, "build the executable first (swift build --build-tests)"))
struct WebFormatOutputTests {
  /// The job: `smallJob` (240×400 px, 57 frames at 30 fps) writing `format`.
  struct Rendered {
    var path: String
    var plannedFrames: Int
    var renderer: FrameRenderer
    var dir: String
  }

  /// Plans and renders `format` twice with the `transvid` executable; expects
  /// both files byte-identical.
  func render(_ format: String, output: String? = nil) throws -> Rendered {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    let job = try write(smallJob(output: output ?? "{ formats: [\(format)] }"), to: "small.cfg", in: dir)
    let (planStatus, planData) = try PlanFramesTests.run(binary, ["plan", "--json", job, "-o", "\(dir)/a"])
    #expect(planStatus == 0)
    let plan = try #require(try JSONSerialization.jsonObject(with: planData) as? [String: Any])
    let entry = try #require((plan["jobs"] as? [[String: Any]])?.first)
    let frames = try #require(entry["frames"] as? Int)
    let path = try #require((entry["outputs"] as? [String])?.first)
    for out in ["a", "b"] {
      let (status, _) = try PlanFramesTests.run(binary, [job, "-o", "\(dir)/\(out)", "-q"])
      #expect(status == 0)
    }
    let a = try Data(contentsOf: URL(fileURLWithPath: path))
    let b = try Data(contentsOf: URL(fileURLWithPath: path.replacingOccurrences(of: "\(dir)/a/", with: "\(dir)/b/")))
    #expect(!a.isEmpty && a == b, "two runs give the same bytes")
    return Rendered(path: path, plannedFrames: frames, renderer: FrameRenderer(spec: try JobParser.load(path: job)), dir: dir)
  }

  /// Runs a tool by name; its standard output as text.
  func output(_ arguments: [String]) throws -> String {
    let (_, data) = try PlanFramesTests.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
    return String(decoding: data, as: UTF8.self)
  }

  /// ffprobe's `key=value` lines for the first video stream, as a dictionary.
  func probe(_ path: String) throws -> [String: String] {
    let text = try output([
      "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
      "stream=codec_name,profile,pix_fmt,width,height,color_primaries,color_transfer,color_space", "-of",
      "default=nw=1", path,
    ])
    return Dictionary(
      text.split(separator: "\n").compactMap { line in
        line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
      }, uniquingKeysWith: { a, _ in a })
  }

  /// Every decoded frame's presentation time in seconds (ffprobe decodes them all).
  func frameTimes(_ path: String) throws -> [Double] {
    try output(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path])
      .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
  }

  /// Frame `n` decoded by the ffmpeg CLI, as RGBA.
  func decodedFrame(_ path: String, _ n: Int, width: Int, height: Int) throws -> Bitmap {
    let (_, data) = try PlanFramesTests.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["ffmpeg", "-v", "error", "-i", path, "-vf", "select=eq(n\\,\(n))", "-frames:v", "1", "-f", "rawvideo",
       "-pix_fmt", "rgba", "-"])
    return try #require(Bitmap(width: width, height: height, bytes: Array(data)))
  }

  /// The checks every FFmpeg-decodable format shares: frames == plan,
  /// times n/fps (so the duration is exact), pixel size, and frame `mid`
  /// against the renderer's at PSNR ≥ `bound`. Returns ffprobe's stream fields.
  func checkVideo(_ r: Rendered, bound: Double) throws -> [String: String] {
    let p = try probe(r.path)
    #expect(p["width"] == "240" && p["height"] == "400")
    let times = try frameTimes(r.path)
    #expect(times.count == r.plannedFrames && r.plannedFrames == 57)
    for (n, t) in times.enumerated() { #expect(abs(t - Double(n) / 30) < 0.002, "frame \(n) at \(t) s") }
    let mid = r.plannedFrames / 2
    let decoded = try decodedFrame(r.path, mid, width: 240, height: 400)
    let reference = r.renderer.frame(mid, width: 240, height: 400)
    let db = psnr(decoded, reference)
    #expect(db >= bound, "frame \(mid): \(db) dB")
    #expect(decoded.bytes.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }, "opaque")
    return p
  }

  @Test func webmIsVP9WithBT709Tags() throws {
    let r = try render("webm")
    defer { try? FileManager.default.removeItem(atPath: r.dir) }
    #expect(r.path.hasSuffix("/small.webm"))
    // Lossy at crf 31 and 4:2:0 (chroma halved at the coloured edges): a
    // bound a few dB under what this job gives.
    let p = try checkVideo(r, bound: 45)
    #expect(p["codec_name"] == "vp9" && p["pix_fmt"] == "yuv420p")
    #expect(p["color_primaries"] == "bt709" && p["color_transfer"] == "bt709" && p["color_space"] == "bt709")
  }

  @Test func movIsProRes422HQ() throws {
    let r = try render("mov")
    defer { try? FileManager.default.removeItem(atPath: r.dir) }
    #expect(r.path.hasSuffix("/small.mov"))
    // 10-bit 4:2:2 at HQ rates; the ffmpeg CLI's 10-bit → 8-bit RGBA
    // conversion shifts every level by 1–3 (a ProRes HQ the ffmpeg CLI makes
    // of the same frame decodes the same way), so the bound is the picture's,
    // not the last level's.
    let p = try checkVideo(r, bound: 40)
    #expect(p["codec_name"] == "prores" && p["profile"] == "HQ" && p["pix_fmt"] == "yuv422p10le")
    #expect(p["color_primaries"] == "bt709" && p["color_transfer"] == "bt709" && p["color_space"] == "bt709")
  }

  /// An odd canvas's MOV, padded to even sides for the encoder, names the
  /// canvas's own size as its clean aperture (`clap`) and track size, where
  /// the crop is exact: both sides in ProRes 4444 (with alpha), the height
  /// alone in ProRes 422, whose colour samples span two columns (FFmpeg 7.1
  /// and later crop a 4:2:2 frame to an even width, the picture's last
  /// column with it). A MOV of even sides, or scaled, has none.
  @Test func anOddCanvasMOVNamesItsOwnSizeAsItsCleanAperture() throws {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    /// The clean aperture's eight numbers and the track header's size, read from the file's atoms.
    func aperture(_ path: String) throws -> (clap: [Int32]?, track: [Int]) {
      let b = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      func u32(_ i: Int) -> UInt32 { b[i..<(i + 4)].reduce(0) { $0 << 8 | UInt32($1) } }
      func find(_ type: String) -> Int? {
        (0..<(b.count - 8)).first { String(decoding: b[($0 + 4)..<($0 + 8)], as: UTF8.self) == type }
      }
      let tkhd = try #require(find("tkhd"))
      let end = tkhd + Int(u32(tkhd))
      let track = [Int(u32(end - 8) >> 16), Int(u32(end - 4) >> 16)]
      guard let clap = find("clap") else { return (nil, track) }
      #expect(u32(clap) == 40)
      return ((0..<8).map { Int32(bitPattern: u32(clap + 8 + 4 * $0)) }, track)
    }
    for (name, canvas, output, clap, track) in [
      ("alpha", "size: 101x75, scale: 1, background: transparent", "{ formats: [mov] }",
       [101, 1, 75, 1, -1, 2, -1, 2] as [Int32]?, [101, 75]),
      ("opaque", "size: 101x75, scale: 1", "{ formats: [mov] }", [102, 1, 75, 1, 0, 2, -1, 2], [102, 75]),
      ("even", "size: 100x74, scale: 1, background: transparent", "{ formats: [mov] }", nil, [100, 74]),
      ("scaled", "size: 101x75, scale: 1, background: transparent", "{ formats: [mov], mov: { width: 50 } }", nil, [50, 38]),
    ] {
      let job = try write(
        """
        name: \(name)
        canvas: { \(canvas), fps: 30 }
        output: \(output)
        screens:
          one:
            background: transparent
            views:
              - { frame: [90, 0, 11, 75], color: "#FF0000" }
        timeline:
          - hold: 0.1
        """, to: "\(name).cfg", in: dir)
      let (status, _) = try PlanFramesTests.run(binary, [job, "-o", dir, "-q"])
      #expect(status == 0, "\(name)")
      let found = try aperture("\(dir)/\(name).mov")
      #expect(found.clap == clap && found.track == track, "\(name): \(found)")
      // The coded frame is as before: the padded size, its last column and row repeated.
      let p = try probe("\(dir)/\(name).mov")
      let coded = name == "scaled" ? ("50", "38") : name == "even" ? ("100", "74") : ("102", "76")
      #expect(p["width"] == coded.0 && p["height"] == coded.1, "\(name): \(p)")
    }
  }

  @Test func apngIsLosslessMergesHoldsAndLoopsAsAsked() throws {
    let r = try render("apng", output: "{ formats: [apng], apng: { loop: 2 } }")
    defer { try? FileManager.default.removeItem(atPath: r.dir) }
    #expect(r.path.hasSuffix("/small.apng.png"))
    let p = try probe(r.path)
    #expect(p["codec_name"] == "apng" && p["pix_fmt"] == "rgba" && p["width"] == "240" && p["height"] == "400")
    // Each picture's fcTL delay (num/den s) in file order; acTL: pictures, plays.
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: r.path)))
    func u32(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
    func u16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
    var delays: [(num: Int, den: Int)] = []
    var acTL: (frames: Int, plays: Int)? = nil
    var i = 8
    while i + 8 <= bytes.count {
      let length = u32(i), type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
      if type == "acTL" { acTL = (u32(i + 8), u32(i + 12)) }
      if type == "fcTL" { delays.append((u16(i + 8 + 20), u16(i + 8 + 22))) }
      i += 12 + length
    }
    // Holds are merged: fewer pictures than frames, whole frames each, 57 frames in all.
    #expect(acTL?.plays == 3 && acTL?.frames == delays.count)
    #expect(delays.count < r.plannedFrames, "\(delays.count) pictures for \(r.plannedFrames) frames")
    let frames = delays.map { $0.num * 30 / $0.den }
    #expect(delays.allSatisfy { $0.num * 30 % $0.den == 0 && $0.num > 0 }, "\(delays)")
    #expect(frames.reduce(0, +) == r.plannedFrames && r.plannedFrames == 57)
    // The clip ends on a 0.1 s hold (3 frames): its picture stays on display to the end,
    // not repeated as a 1-frame picture of its own.
    #expect(frames.last == 3, "\(frames)")
    // The report's frames are the file's pictures, as a decoder counts them (it said the 57 frames shown).
    let summary = try OutputWriter.write(format: .apng, renderer: r.renderer, to: "\(r.dir)/c.apng.png")
    #expect(summary.frames == delays.count && summary.duration == 57.0 / 30)
    // Lossless: every frame of the plan is on display exactly when it is due.
    let (_, data) = try PlanFramesTests.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["ffmpeg", "-v", "error", "-i", r.path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
    let size = 240 * 400 * 4
    #expect(data.count == size * delays.count)
    var n = 0
    var previous: Bitmap?
    for (k, count) in frames.enumerated() where data.count == size * delays.count {
      let picture = try #require(Bitmap(width: 240, height: 400, bytes: Array(data[(k * size)..<((k + 1) * size)])))
      for _ in 0..<count {
        #expect(picture == r.renderer.frame(n, width: 240, height: 400), "frame \(n) (picture \(k))")
        n += 1
      }
      // Frames drawn alike are one picture, not only holds (a transition's first frame, a settled end).
      let repeatsPrevious = previous == picture  // a Bool: a failure does not print both pictures
      #expect(!repeatsPrevious, "picture \(k) repeats the one before")
      previous = picture
    }
  }

  /// A clip that is one hold stays an animation of its length: two
  /// pictures (an APNG of one would be a still PNG, its length lost).
  @Test func anAPNGOfOneHoldKeepsItsLength() throws {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      "name: still\ncanvas: { size: 20x20, scale: 1, fps: 30 }\noutput: { formats: [apng] }\nscreens: { a: {} }\ntimeline: [{ hold: 0.5 }]\n",
      to: "still.cfg", in: dir)
    let (status, _) = try PlanFramesTests.run(binary, [job, "-o", dir, "-q"])
    #expect(status == 0)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path(dir, "still.apng.png"))))
    func u16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
    func u32(_ i: Int) -> Int { u16(i) << 16 | u16(i + 2) }
    var delays: [Double] = []
    var i = 8
    while i + 8 <= bytes.count {
      let length = u32(i), type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
      if type == "fcTL" { delays.append(Double(u16(i + 8 + 20)) / Double(u16(i + 8 + 22))) }
      i += 12 + length
    }
    #expect(delays.count == 2 && abs(delays.reduce(0, +) - 0.5) < 1e-9, "\(delays)")
  }

  /// APNG's delays are 16-bit fractions: a held picture's whole frames of
  /// 1/fps exactly where that fraction fits, else the nearest that does. At
  /// 29.97 fps the first hold's picture is 91 frames, 91091/30000 s, whose
  /// numerator does not fit: it is 54688/18011 s, 2 ns short; the last, 90
  /// frames, is 3003/1000 s exactly.
  @Test func apngDelaysAreExactWhereTheirFractionFits() throws {
    let binary = try #require(transvidBinary())
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(
      """
      name: ntsc
      canvas: { size: 20x20, scale: 1, fps: 29.97 }
      output: { formats: [apng] }
      screens: { a: { background: "#FF0000" }, b: { background: "#00FF00" } }
      timeline: [{ hold: 3.003 }, { push: { to: b, transition: cross-dissolve, duration: 0.1 } }, { hold: 3.003 }]

      """, to: "ntsc.cfg", in: dir)
    let (status, _) = try PlanFramesTests.run(binary, [job, "-o", dir, "-q"])
    #expect(status == 0)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path(dir, "ntsc.apng.png"))))
    func u16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
    func u32(_ i: Int) -> Int { u16(i) << 16 | u16(i + 2) }
    var delays: [[Int]] = []
    var i = 8
    while i + 8 <= bytes.count {
      let length = u32(i), type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
      if type == "fcTL" { delays.append([u16(i + 8 + 20), u16(i + 8 + 22)]) }
      i += 12 + length
    }
    #expect(delays == [[54688, 18011], [1001, 30000], [1001, 30000], [3003, 1000]], "\(delays)")
    #expect(abs(54688.0 / 18011 - 91091.0 / 30000) < 2e-9)
  }

  /// `webpmux -info`: canvas size, loop count and each frame's duration in ms.
  func webpInfo(_ path: String) throws -> (size: String, loop: String, durations: [Int]) {
    let text = try output(["webpmux", "-info", path])
    let lines = text.split(separator: "\n").map(String.init)
    let size = try #require(lines.first { $0.hasPrefix("Canvas size:") })
    let loop = try #require(lines.first { $0.contains("Loop Count") }?.components(separatedBy: "Loop Count :").last)
    // Frame rows: "  n:  width height alpha x y duration dispose blend size compression".
    let durations = lines.compactMap { line -> Int? in
      let f = line.split(separator: " ")
      guard f.count == 11, f[0].hasSuffix(":"), Int(f[0].dropLast()) != nil else { return nil }
      return Int(f[6])
    }
    return (size, loop.trimmingCharacters(in: .whitespaces), durations)
  }

  /// What the WebP at `path` shows after each of its frames, and for how
  /// many ms: each frame taken out by webpmux, decoded by dwebp and put in
  /// place over the canvas so far (transvid writes frames that replace
  /// their rectangle, `dispose none`, `blend no`; any other is refused here).
  func webpCanvases(_ path: String, width: Int, height: Int, in dir: String) throws -> [(canvas: Bitmap, ms: Int)] {
    let text = try output(["webpmux", "-info", path])
    var canvas = Bitmap(width: width, height: height)
    var result: [(Bitmap, Int)] = []
    for line in text.split(separator: "\n") {
      // "  n:  width height alpha x y duration dispose blend size compression"
      let f = line.split(separator: " ").map(String.init)
      guard f.count == 11, f[0].hasSuffix(":"), let n = Int(f[0].dropLast()) else { continue }
      #expect(f[7] == "none" && f[8] == "no", "\(line)")
      let (w, h, x, y, ms) = (Int(f[1])!, Int(f[2])!, Int(f[4])!, Int(f[5])!, Int(f[6])!)
      let frame = "\(dir)/f\(n).webp", pam = "\(dir)/f\(n).pam"
      _ = try output(["webpmux", "-get", "frame", "\(n)", path, "-o", frame])
      _ = try output(["dwebp", "-quiet", frame, "-pam", "-o", pam])
      let data = Array(try Data(contentsOf: URL(fileURLWithPath: pam)))
      let end = try #require((0..<(data.count - 7)).first { Array(data[$0..<($0 + 7)]) == Array("ENDHDR\n".utf8) })
      let pixels = Array(data[(end + 7)...])
      #expect(pixels.count == w * h * 4)
      for row in 0..<h where pixels.count == w * h * 4 {
        for column in 0..<w {
          let i = (row * w + column) * 4
          canvas[x + column, y + row] = Pixel(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
        }
      }
      result.append((canvas, ms))
    }
    return result
  }

  /// A frame stores the rectangle that changed, its offsets made even; an
  /// equal frame lengthens the one before.
  @Test(.enabled(if: tool("webpmux") && tool("dwebp"), "needs libwebp's tools (Debian package webp)"))
  func aWebPFrameIsTheRectangleThatChanged() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let writer = try WebPWriter(path: "\(dir)/r.webp", width: 80, height: 60, fps: 10, lossless: true)
    var frame = Bitmap(width: 80, height: 60, fill: Pixel(r: 90, g: 90, b: 90, a: 255))
    try writer.append(frame)
    for y in 21..<27 { for x in 33..<43 { frame[x, y] = Pixel(r: 250, g: 20, b: 20, a: 255) } }
    frame[79, 59] = Pixel(r: 0, g: 0, b: 255, a: 255)
    try writer.append(frame)
    try writer.append(frame)
    frame[5, 50] = Pixel(r: 0, g: 255, b: 0, a: 255)
    try writer.append(frame)
    let summary = try writer.finish()
    // Pictures in the file: the repeated frame is the second one's longer duration.
    #expect(summary.frames == 3)
    let rows = try output(["webpmux", "-info", "\(dir)/r.webp"]).split(separator: "\n")
      .map { $0.split(separator: " ").map(String.init) }.filter { $0.count == 11 && Int($0[0].dropLast()) != nil }
    // width height alpha x y duration
    #expect(rows.map { Array($0[1...6]) } == [
      ["80", "60", "no", "0", "0", "100"], ["48", "40", "no", "32", "20", "200"], ["2", "1", "no", "4", "50", "100"],
    ])
    let canvases = try webpCanvases("\(dir)/r.webp", width: 80, height: 60, in: dir)
    #expect(canvases.last?.canvas == frame)
  }

  /// A clip that never changes stays an animation of its length and loop
  /// count (libwebpmux writes one frame as a still), and a hold past WebP's
  /// 24 bits of milliseconds goes on in copies of its picture. The summary
  /// counts the file's frames, copies included, as a decoder does (it said
  /// 1 and 2: the pictures encoded).
  @Test(.enabled(if: tool("webpmux"), "needs libwebp's tools (Debian package webp)"))
  func aStillClipAndAVeryLongHoldKeepTheirLength() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let grey = Bitmap(width: 8, height: 6, fill: Pixel(r: 90, g: 90, b: 90, a: 255))
    let still = try WebPWriter(path: "\(dir)/still.webp", width: 8, height: 6, fps: 10, lossless: true, loop: 3)
    for _ in 0..<30 { try still.append(grey) }
    let stillSummary = try still.finish()
    let info = try webpInfo("\(dir)/still.webp")
    #expect(info.loop == "3" && info.durations == [1500, 1500], "\(info)")
    #expect(stillSummary.frames == 2)
    // 16 800 s at 1 fps, then a change: past 16 777.215 s.
    let long = try WebPWriter(path: "\(dir)/long.webp", width: 8, height: 6, fps: 1, lossless: true)
    for _ in 0..<16_800 { try long.append(grey) }
    try long.append(Bitmap(width: 8, height: 6, fill: Pixel(r: 200, g: 0, b: 0, a: 255)))
    let longSummary = try long.finish()
    let durations = try webpInfo("\(dir)/long.webp").durations
    #expect(durations == [WebPWriter.longestDuration, 16_800_000 - WebPWriter.longestDuration, 1000], "\(durations)")
    #expect(longSummary.frames == 3)
    // One frame is a still WebP: one frame to a decoder (its one feature the sRGB profile).
    let one = try WebPWriter(path: "\(dir)/one.webp", width: 8, height: 6, fps: 10, lossless: true)
    try one.append(grey)
    #expect(try one.finish().frames == 1)
    #expect(try output(["webpmux", "-info", "\(dir)/one.webp"]).contains("Features present: ICC profile\n"))
  }

  /// A fade too slow for any frame to change a pixel by more than a level
  /// or so (12 levels of grey over 1.5 s): every change reaches the file,
  /// so each frame shows its own colour within the codec's loss and the
  /// last shows the end state. libwebp's animation encoder took such
  /// changes for none and ended 12 levels off.
  @Test(.enabled(if: tool("webpmux") && tool("dwebp"), "needs libwebp's tools (Debian package webp)"))
  func aSlowFadeReachesItsEndState() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = """
      name: fade
      canvas: { size: 120x200, scale: 1, fps: 30, background: "#000000" }
      output: { formats: [webp] }
      screens:
        a: { background: "#404040" }
        b: { background: "#4C4C4C" }
      timeline:
        - hold: 0.1
        - present: { to: b, transition: cross-dissolve, duration: 1.5 }
        - hold: 0.2

      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "\(dir)/fade.cfg"))
    let summary = try OutputWriter.write(format: .webp, renderer: renderer, to: "\(dir)/fade.webp")
    let canvases = try webpCanvases("\(dir)/fade.webp", width: 120, height: 200, in: dir)
    #expect(canvases.map(\.ms).reduce(0, +) == 1800 && summary.frames == canvases.count)
    var start = 0
    for (k, shown) in canvases.enumerated() {
      // Its first frame, and the last it stays for (times in whole ms, rounded).
      let first = Int((Double(start) * 0.03).rounded()), end = Int((Double(start + shown.ms) * 0.03).rounded())
      #expect(end > first)
      for n in [first, end - 1] {
        let expected = renderer.frame(n, width: 120, height: 200)
        let error = (0..<200).map { y in (0..<120).map { x in abs(Int(shown.canvas[x, y].g) - Int(expected[x, y].g)) }.max()! }.max()!
        #expect(error <= 2, "picture \(k) at frame \(n): \(error) levels off")
      }
      start += shown.ms
    }
    #expect(canvases.last.map { $0.canvas[60, 100].g } == renderer.frame(53, width: 120, height: 200)[60, 100].g)
  }

  /// The last picture a lossy WebP of a push from a red screen (with a
  /// green view) to a blue one shows, and the frame it should show.
  func lossyPushLastPicture(output: String, endsWithHold: Bool) throws -> (shown: Bitmap, expected: Bitmap) {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = """
      name: push
      canvas: { size: 200x300, scale: 1, fps: 30, background: "#000000" }
      output: \(output)
      screens:
        a:
          background: "#FF3B30"
          views:
            - { id: v, frame: [10, 10, 60, 40], color: "#34C759", corner: 5 }
        b: { background: "#007AFF" }
      timeline:
        - hold: 0.3
        - push: { to: b, transition: push, duration: 0.5 }
      \(endsWithHold ? "  - hold: 0.3\n" : "")
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "\(dir)/push.cfg"))
    _ = try OutputWriter.write(format: .webp, renderer: renderer, to: "\(dir)/push.webp")
    let shown = try #require(try webpCanvases("\(dir)/push.webp", width: 200, height: 300, in: dir).last).canvas
    let expected = renderer.frame(renderer.frameCount - 1, width: 200, height: 300)
    return (shown, expected)
  }

  /// A lossy push comes to rest as the new screen: the columns at the edge
  /// of each frame's picture, encoded beside the old screen still moving
  /// (VP8's 4:2:0 chroma and macroblocks), are encoded again once it rests.
  /// They kept the old screen's colours: the blue screen's last picture
  /// showed stripes of red and a ghost of the green view, 75 levels off.
  @Test(.enabled(if: tool("webpmux") && tool("dwebp"), "needs libwebp's tools (Debian package webp)"))
  func aLossyPushRestsAsTheNewScreen() throws {
    let (shown, expected) = try lossyPushLastPicture(output: "{ formats: [webp] }", endsWithHold: true)
    var worst = 0
    for y in 0..<300 {
      for x in 0..<200 {
        let (a, b) = (shown[x, y], expected[x, y])
        worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
      }
    }
    #expect(worst <= 6, "the screen at rest is \(worst) levels off")
  }

  /// A lossy push that ends the timeline, with no hold after it, ends on
  /// the new screen as drawn: its last frame is what the WebP shows once it
  /// ends, so the pixels at rest there that pictures encoded beside the old
  /// screen left off are encoded again with its own picture. They showed
  /// stripes of red on the blue screen, 47 levels off away from any edge.
  @Test(.enabled(if: tool("webpmux") && tool("dwebp"), "needs libwebp's tools (Debian package webp)"))
  func aLossyPushThatEndsTheClipEndsAsTheNewScreen() throws {
    let (shown, expected) = try lossyPushLastPicture(output: "{ formats: [webp], webp: { loop: 1 } }", endsWithHold: false)
    // Pixels of one colour 4 px around (lossy coding's own error is at
    // colour edges, as the old screen's last column still moving).
    func isFlat(_ x: Int, _ y: Int) -> Bool {
      for v in max(0, y - 4)...min(299, y + 4) {
        for u in max(0, x - 4)...min(199, x + 4) where expected[u, v] != expected[x, y] { return false }
      }
      return true
    }
    var worst = 0, flat = 0
    for y in 0..<300 {
      for x in 0..<200 where isFlat(x, y) {
        let (a, b) = (shown[x, y], expected[x, y])
        worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
        flat += 1
      }
    }
    #expect(flat > 50_000)
    #expect(worst <= 6, "the last frame is \(worst) levels off")
  }

  /// The WebP's first frame (a full-canvas key frame), decoded by dwebp.
  func firstWebPFrame(_ r: Rendered) throws -> Bitmap {
    let frame = "\(r.dir)/frame1.webp", pam = "\(r.dir)/frame1.pam"
    _ = try output(["webpmux", "-get", "frame", "1", r.path, "-o", frame])
    _ = try output(["dwebp", "-quiet", frame, "-pam", "-o", pam])
    let data = Array(try Data(contentsOf: URL(fileURLWithPath: pam)))
    // PAM header: text lines up to "ENDHDR\n", then RGBA rows.
    let end = try #require((0..<(data.count - 7)).first { Array(data[$0..<($0 + 7)]) == Array("ENDHDR\n".utf8) })
    return try #require(Bitmap(width: 240, height: 400, bytes: Array(data[(end + 7)...])))
  }

  @Test(.enabled(if: tool("webpmux") && tool("dwebp"), "needs libwebp's tools (Debian package webp)"))
  func webpIsAnimatedLoopingWithTheJobsDuration() throws {
    let r = try render("webp")
    defer { try? FileManager.default.removeItem(atPath: r.dir) }
    #expect(r.path.hasSuffix("/small.webp"))
    let info = try webpInfo(r.path)
    #expect(info.size == "Canvas size: 240 x 400" && info.loop == "0")
    // libwebp merges identical frames into longer ones and rounds delays to
    // whole ms: fewer frames than 57, durations summing to 1.9 s (± 1 frame).
    #expect(info.durations.count > 1 && info.durations.count < r.plannedFrames)
    #expect(abs(info.durations.reduce(0, +) - 1900) <= 33)
    // Lossy at quality 80 (4:2:0 inside VP8): a bound a few dB under what
    // this frame gives.
    let db = psnr(try firstWebPFrame(r), r.renderer.frame(0, width: 240, height: 400))
    #expect(db >= 40, "frame 0: \(db) dB")
  }

  @Test(.enabled(if: tool("webpmux") && tool("dwebp"), "needs libwebp's tools (Debian package webp)"))
  func losslessWebPIsExact() throws {
    let r = try render("webp", output: "{ formats: [webp], webp: { lossless: true, loop: 0 } }")
    defer { try? FileManager.default.removeItem(atPath: r.dir) }
    #expect(try webpInfo(r.path).loop == "1")
    #expect(psnr(try firstWebPFrame(r), r.renderer.frame(0, width: 240, height: 400)) == .infinity)
  }

  /// A 120 fps canvas: APNG and WebP at 60 fps, every other frame, with a
  /// note (browsers show a frame of 10 ms or less for 100 ms); 119.88 at
  /// 59.94. Every picture of the APNG is the canvas frame it stands for.
  @Test(.enabled(if: tool("webpmux"), "needs libwebp's tools (Debian package webp)"))
  func animatedImagesAreAtMost60FPS() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = smallJob(output: "{ formats: [apng, webp] }").replacingOccurrences(of: "fps: 30", with: "fps: 120")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "\(dir)/small.cfg"))
    let apng = try OutputWriter.write(format: .apng, renderer: renderer, to: "\(dir)/small.apng.png")
    #expect(apng.notes == ["apng: 120 fps reduced to 60 fps (browsers show frames of 10 ms or less for 100 ms)"])
    let webp = try OutputWriter.write(format: .webp, renderer: renderer, to: "\(dir)/small.webp")
    #expect(webp.notes == ["webp: 120 fps reduced to 60 fps (browsers show frames of 10 ms or less for 100 ms)"])
    let durations = try webpInfo("\(dir)/small.webp").durations
    #expect(durations.allSatisfy { $0 >= 16 } && abs(durations.reduce(0, +) - 1900) <= 17, "\(durations)")
    // The APNG's frames as ffmpeg shows them at 60 fps: canvas frames 0, 2, 4, …
    let (_, data) = try PlanFramesTests.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["ffmpeg", "-v", "error", "-i", "\(dir)/small.apng.png", "-vf", "fps=60", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
    let size = 240 * 400 * 4
    #expect(data.count / size == 114, "\(data.count / size) frames at 60 fps for 1.9 s")
    for k in [0, 30, 57, 113] where (k + 1) * size <= data.count {
      let picture = try #require(Bitmap(width: 240, height: 400, bytes: Array(data[(k * size)..<((k + 1) * size)])))
      #expect(picture == renderer.frame(2 * k, width: 240, height: 400), "60 fps frame \(k)")
    }
    let ntsc = FrameRenderer(spec: try JobParser.parse(job.replacingOccurrences(of: "fps: 120", with: "fps: 119.88"), file: "\(dir)/small.cfg"))
    let fractional = try OutputWriter.write(format: .apng, renderer: ntsc, to: "\(dir)/ntsc.apng.png")
    #expect(fractional.notes == ["apng: 119.88 fps reduced to 59.94 fps (browsers show frames of 10 ms or less for 100 ms)"])
    #expect(AnimationRate.reduced(100) == 50 && AnimationRate.reduced(90) == 45 && AnimationRate.reduced(75) == 60)
  }

  /// A timeline of one canvas frame above 60 fps (0.008 s: 0.96 frames at
  /// 120 fps, 0.56 at 70) rounds to none at the rate APNG and WebP are
  /// written at (0.48 at 60, 0.28 at 35): they still show its first frame,
  /// one picture each, and the job writes all its outputs. It failed with
  /// "no frames were appended" and no line, and wrote nothing, not even the MP4.
  @Test(arguments: ["120", "70", "119.88"])
  func oneFrameAbove60FPSIsOnePicture(_ fps: String) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try write(
      """
      name: one
      canvas: { size: 64x64, scale: 1, fps: \(fps) }
      output: { formats: [apng, webp, mp4] }
      screens:
        a: { background: "#FF0000" }
      timeline:
        - hold: 0.008

      """, to: "one.cfg", in: dir)
    let run = try runBinary(["one.cfg", "-o", "out", "-q", "--report", "report.json"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(dir)/report.json"))) as? [String: Any])
    let outputs = try #require((report["jobs"] as? [[String: Any]])?.first?["outputs"] as? [[String: Any]])
    let frames = Dictionary(
      uniqueKeysWithValues: outputs.map { ((($0["file"] as? String ?? "") as NSString).lastPathComponent, $0["frames"] as? Int ?? -1) })
    #expect(frames == ["one.apng.png": 1, "one.webp": 1, "one.mp4": 1])
    // Each file decodes to one frame of the red screen (the MP4 and the lossy WebP within a few levels).
    for file in ["one.apng.png", "one.webp", "one.mp4"] {
      let (_, data) = try PlanFramesTests.run(
        URL(fileURLWithPath: "/usr/bin/env"),
        ["ffmpeg", "-v", "error", "-i", "\(dir)/out/\(file)", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
      #expect(data.count == 64 * 64 * 4, "\(file): \(data.count / (64 * 64 * 4)) frames")
      let pixels = [UInt8](data)
      var far = 0
      for i in stride(from: 0, to: pixels.count, by: 4) {
        let (r, g, b, a) = (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        if r < 247 || g > 8 || b > 8 || a != 255 { far += 1 }
      }
      #expect(far == 0, "\(file): \(far) pixels not red")
    }
  }

  /// An odd canvas (121×201 px): the WebM and MOV repeat the last column
  /// and row (122×202) as the MP4 does; APNG and WebP keep every pixel as is.
  @Test(.enabled(if: tool("webpmux"), "needs libwebp's tools (Debian package webp)"))
  func oddCanvasesArePaddedForVideoOnly() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = smallJob(output: "{ formats: [webm, mov, apng, webp] }")
      .replacingOccurrences(of: "size: 120x200, scale: 2", with: "size: 121x201, scale: 1")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "\(dir)/small.cfg"))
    for (format, size) in [(OutputFormat.webm, "122x202"), (.mov, "122x202"), (.apng, "121x201")] {
      let path = "\(dir)/small.\(format.writer.fileType.fileExtension)"
      _ = try OutputWriter.write(format: format, renderer: renderer, to: path)
      let p = try probe(path)
      #expect("\(p["width"] ?? "")x\(p["height"] ?? "")" == size, "\(format)")
    }
    _ = try OutputWriter.write(format: .webp, renderer: renderer, to: "\(dir)/small.webp")
    #expect(try webpInfo("\(dir)/small.webp").size == "Canvas size: 121 x 201")
  }
}
