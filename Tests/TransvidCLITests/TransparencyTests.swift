// A transparent canvas through every output, checked by decoders that are
// not transvid's: the ffmpeg CLI (with libvpx's own VP9 decoder for the WebM,
// which reads the alpha stream FFmpeg's native decoder drops) and libwebp's
// dwebp. The picture is one blue disc on nothing: its anti-aliased edge must
// come back with the disc's own colour (straight alpha, no darkening from a
// premultiplication slip or from the invisible black around it), the
// background at alpha 0; mp4 and gif show the matte instead.
import Foundation
import Jobs
import Raster
import Rendering
import Testing

@testable import TransvidCLI
import TestSupport

/// A 120×200 pt canvas at 2× (240×400 px), transparent, 0.2 s at 30 fps:
/// a #3080E0 disc 80 pt across at (20, 40) on a transparent screen.
func transparentJob(output: String) -> String {
  """
  name: disc
  canvas: { size: 120x200, scale: 2, fps: 30, background: transparent }
  output: \(output)
  screens:
    one:
      background: "#00000000"
      views:
        - { id: disc, frame: [20, 40, 80, 80], color: "#3080E0", corner: 40 }
  timeline:
    - hold: 0.2
  """
}

@Suite(.enabled(if: transvidBinary() != nil, "build the executable first (swift build --build-tests)"))
struct TransparencyTests {
  static let disc: [Double] = [0x30, 0x80, 0xE0]

  /// Renders `transparentJob(output:)` with the executable; the output's path and the reference renderer.
  func render(_ output: String, in dir: String) throws -> (path: String, renderer: FrameRenderer) {
    let binary = try #require(transvidBinary())
    let job = try write(transparentJob(output: output), to: "disc.cfg", in: dir)
    let (status, _) = try PlanFramesTests.run(binary, [job, "-o", dir, "-q"])
    #expect(status == 0)
    let spec = try JobParser.load(path: job)
    let file = try #require(spec.output.formats.first).writer.fileType.fileExtension
    return ("\(dir)/disc.\(file)", FrameRenderer(spec: spec))
  }

  /// Frame 0 decoded by the ffmpeg CLI as straight RGBA (`decoder` before
  /// `-i`), its top left `width × height` (a codec may pad the sides).
  func decoded(_ path: String, decoder: [String] = [], width: Int = 240, height: Int = 400) throws -> Bitmap {
    let (_, data) = try PlanFramesTests.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["ffmpeg", "-v", "error"] + decoder + ["-i", path, "-frames:v", "1", "-vf", "crop=\(width):\(height):0:0",
       "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
    return try #require(Bitmap(width: width, height: height, bytes: Array(data)))
  }

  /// Frame 1 of an animated WebP decoded by libwebp's tools, straight RGBA,
  /// placed at its offset on a transparent 240×400 canvas (libwebp may store
  /// only the rectangle that is not transparent).
  func decodedWebP(_ path: String, dir: String) throws -> Bitmap {
    let frame = "\(dir)/frame1.webp", pam = "\(dir)/frame1.pam"
    let env = URL(fileURLWithPath: "/usr/bin/env")
    let (_, info) = try PlanFramesTests.run(env, ["webpmux", "-info", path])
    // Frame rows: "  n:  width height alpha x y duration dispose blend size compression".
    let lines: [[Substring]] = String(decoding: info, as: UTF8.self).split(separator: "\n").map { $0.split(separator: " ") }
    // libwebp writes an animation whose frames are all alike as a still image.
    var width = 240, height = 400, left = 0, top = 0, source = path
    if let row = lines.first(where: { $0.count == 11 && $0[0] == "1:" }) {
      let numbers: [Int] = row[1...5].map { Int($0) ?? -1 }
      (width, height, left, top, source) = (numbers[0], numbers[1], numbers[3], numbers[4], frame)
      _ = try PlanFramesTests.run(env, ["webpmux", "-get", "frame", "1", path, "-o", frame])
    }
    _ = try PlanFramesTests.run(env, ["dwebp", "-quiet", source, "-pam", "-o", pam])
    let data = Array(try Data(contentsOf: URL(fileURLWithPath: pam)))
    let end = try #require((0..<(data.count - 7)).first { Array(data[$0..<($0 + 7)]) == Array("ENDHDR\n".utf8) })
    let pixels = Array(data[(end + 7)...])
    #expect(pixels.count == width * height * 4 && width > 0)
    var bytes = [UInt8](repeating: 0, count: 240 * 400 * 4)
    for y in 0..<height {
      let start: Int = ((top + y) * 240 + left) * 4
      let source: Int = y * width * 4
      for i in 0..<(width * 4) { bytes[start + i] = pixels[source + i] }
    }
    return try #require(Bitmap(width: 240, height: 400, bytes: bytes))
  }

  /// The largest errors of `decoded` (straight RGBA) against the reference
  /// frame (premultiplied): alpha over every pixel, and colour over the
  /// disc's edge pixels (reference alpha 64…223, where a premultiplied or
  /// black-fringed colour would be a third to three quarters too dark) and
  /// its inside (alpha 255).
  func errors(_ decoded: Bitmap, _ reference: Bitmap) -> (alpha: Int, edgeColor: Double, edgePixels: Int) {
    var alpha = 0, edgeColor = 0.0, edgePixels = 0
    for i in stride(from: 0, to: reference.bytes.count, by: 4) {
      let a = Int(reference.bytes[i + 3])
      alpha = max(alpha, abs(Int(decoded.bytes[i + 3]) - a))
      guard a >= 64 else { continue }
      if a < 224 { edgePixels += 1 }
      for c in 0..<3 { edgeColor = max(edgeColor, abs(Double(decoded.bytes[i + c]) - Self.disc[c])) }
    }
    return (alpha, edgeColor, edgePixels)
  }

  /// Checks one alpha format: background alpha 0, alpha within `alphaBound`
  /// of the rendered frame's, the disc's colour within `colorBound` at its
  /// edge and inside.
  func check(_ format: String, _ output: String, alphaBound: Int, colorBound: Double, decode: (String, String) throws -> Bitmap)
    throws
  {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (path, renderer) = try render(output, in: dir)
    let frame = try decode(path, dir)
    let reference = renderer.frame(0, width: 240, height: 400)
    #expect(frame[0, 0].a == 0 && frame[239, 399].a == 0 && frame[120, 300].a == 0, "\(format): background")
    #expect(frame[120, 160].a == 255, "\(format): the disc's centre")
    let e = errors(frame, reference)
    #expect(e.edgePixels > 100, "\(format): an anti-aliased edge to check")
    #expect(e.alpha <= alphaBound, "\(format): alpha off by \(e.alpha)")
    #expect(e.edgeColor <= colorBound, "\(format): colour off by \(e.edgeColor)")
  }

  func probe(_ path: String) throws -> String {
    let (_, data) = try PlanFramesTests.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,profile,pix_fmt:stream_tags=alpha_mode",
       "-of", "default=nw=1", path])
    return String(decoding: data, as: UTF8.self)
  }

  // Bounds: a few levels over what each format gave (webm alpha 7, colour 6;
  // mov 1 and 2; apng 0 and 1, the rounding of unpremultiplying 8 bits;
  // lossy webp 0 and 3, 32 before transparent pixels took the edge colour).
  // A premultiplied colour would be off by 28 in blue at alpha 223.
  @Test func webmIsVP9WithAlpha() throws {
    try check("webm", "{ formats: [webm] }", alphaBound: 10, colorBound: 10) { path, _ in
      let p = try probe(path)
      #expect(p.contains("codec_name=vp9") && p.contains("TAG:alpha_mode=1"), "\(p)")
      return try decoded(path, decoder: ["-c:v", "libvpx-vp9"])
    }
  }

  @Test func movIsProRes4444WithAlpha() throws {
    try check("mov", "{ formats: [mov] }", alphaBound: 2, colorBound: 4) { path, _ in
      let p = try probe(path)
      // FFmpeg's ProRes decoder reports 4444 as yuva444p12le, its own output format.
      #expect(p.contains("profile=4444") && p.contains("pix_fmt=yuva444p"), "\(p)")
      return try decoded(path)
    }
  }

  /// An opaque canvas on a transparent stage: the frame has alpha around
  /// the screen, so the WebM and the MOV are their alpha kinds (they were
  /// chosen by the canvas alone, and showed black there).
  @Test func aTransparentStageGivesTheAlphaKinds() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let binary = try #require(transvidBinary())
    let job = try write(
      """
      name: staged
      canvas: { size: 100x180, scale: 2, fps: 30, background: "#FFFFFF" }
      stage: { device: none, background: transparent, padding: 10 }
      output: { formats: [webm, mov] }
      screens:
        one: { background: "#3080E0" }
      timeline:
        - hold: 0.2
      """, to: "staged.cfg", in: dir)
    let (status, _) = try PlanFramesTests.run(binary, [job, "-o", dir, "-q"])
    #expect(status == 0)
    for (file, kind, decoder) in [("staged.webm", "TAG:alpha_mode=1", ["-c:v", "libvpx-vp9"]), ("staged.mov", "profile=4444", [])] {
      #expect(try probe("\(dir)/\(file)").contains(kind), "\(file)")
      let frame = try decoded("\(dir)/\(file)", decoder: decoder)
      #expect(frame[4, 4].a <= 2 && frame[235, 395].a <= 2, "\(file): the stage around the screen")
      #expect(frame[120, 200].a >= 253 && abs(Int(frame[120, 200].b) - 0xE0) <= 6, "\(file): the screen")
    }
  }

  /// A shape's bottom edge keeps its colour beside another shape in the same
  /// rows: the transparent pixels under the edge take the edge's colour, not
  /// the other shape's (the nearest in their row), which VP9's 4:2:0 mixed
  /// into the edge (a red bar's half-covered last row beside a green bar came
  /// back (145, 37, 0), dark olive).
  @Test func anEdgeKeepsItsColourBesideAnotherShape() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let binary = try #require(transvidBinary())
    let job = try write(
      """
      name: bars
      canvas: { size: 100x40, scale: 1, fps: 10, background: transparent }
      output: { formats: [webm, mov] }
      screens:
        one:
          background: transparent
          views:
            - { frame: [0, 0, 40, 10.5], color: "#FF0000" }
            - { frame: [60, 0, 40, 30], color: "#00C000" }
      timeline:
        - hold: 0.3
      """, to: "bars.cfg", in: dir)
    let (status, _) = try PlanFramesTests.run(binary, [job, "-o", dir, "-q"])
    #expect(status == 0)
    for (file, decoder) in [("bars.webm", ["-c:v", "libvpx-vp9"]), ("bars.mov", [])] {
      let frame = try decoded("\(dir)/\(file)", decoder: decoder, width: 100, height: 40)
      var worst = 0
      for x in 2..<38 {
        let p = frame[x, 10]
        worst = max(worst, 255 - Int(p.r), Int(p.g), Int(p.b), abs(Int(p.a) - 128))
      }
      #expect(worst <= 10, "\(file): the red bar's half-covered row is off by \(worst): \(frame[20, 10])")
    }
  }

  @Test func apngKeepsAlphaExactly() throws {
    try check("apng", "{ formats: [apng] }", alphaBound: 0, colorBound: 2) { path, _ in try decoded(path) }
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dwebp"), "needs libwebp's tools"))
  func webpKeepsAlpha() throws {
    try check("webp", "{ formats: [webp] }", alphaBound: 0, colorBound: 6, decode: decodedWebP)
    try check("lossless webp", "{ formats: [webp], webp: { lossless: true } }", alphaBound: 0, colorBound: 2, decode: decodedWebP)
  }

  /// mp4 and gif have no alpha: the disc over the matte (white here, black by default).
  @Test func mp4AndGIFShowTheMatte() throws {
    for (matte, expected) in [("matte: \"#FFFFFF\", ", 255), ("", 0)] {
      for format in ["mp4", "gif"] {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (path, _) = try render("{ \(matte)formats: [\(format)], gif: { width: 240 } }", in: dir)
        let frame = try decoded(path)
        for (x, y) in [(0, 0), (239, 399), (120, 300)] {
          let p = frame[x, y]
          #expect(
            abs(Int(p.r) - expected) <= 3 && abs(Int(p.g) - expected) <= 3 && abs(Int(p.b) - expected) <= 3 && p.a == 255,
            "\(format) \(matte): background \(p)")
        }
        let centre = frame[120, 160]
        #expect(abs(Double(centre.b) - Self.disc[2]) <= 6 && abs(Double(centre.r) - Self.disc[0]) <= 6, "\(format): \(centre)")
      }
    }
  }

  /// A frame without alpha is the frame with alpha laid over the matte,
  /// exactly, in transitions too: a transparent screen pushed over another
  /// shows it (it was snapshotted over the matte's colour and hid it), and a
  /// transparent stage shows the matte (it stayed black).
  @Test func theMatteIsUnderTheFrameWithAlpha() throws {
    let job = """
      name: m
      canvas: { size: 100x150, scale: 1, fps: 10, background: transparent }
      output: { formats: [mp4], matte: "#FFFFFF" }
      stage: { background: transparent, padding: 10, device: none }
      screens:
        a:
          background: transparent
          views: [ { frame: [10, 10, 80, 60], color: "#FF0000", corner: 8 }, { frame: [10, 80, 80, 40], color: "#0000FF80" } ]
        b:
          background: transparent
          views: [ { frame: [30, 40, 40, 40], color: "#FFCC00", corner: 20 } ]
      timeline:
        - push: { to: b, transition: push, duration: 1 }
        - present: { to: a, transition: cross-dissolve, duration: 1 }
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "m.cfg"))
    let matted = renderer.overMatte()
    let (width, height) = (renderer.spec.framePixelWidth, renderer.spec.framePixelHeight)
    for n in [0, 4, 12, 15, renderer.frameCount - 1] {
      let alpha = renderer.frame(n, width: width, height: height), opaque = matted.frame(n, width: width, height: height)
      var differ = 0
      for y in 0..<height {
        for x in 0..<width {
          let p = alpha[x, y], q = opaque[x, y]
          // Premultiplied: p + white × (1 − a), each channel rounded.
          let expected = [p.r, p.g, p.b].map { Int($0) + (255 * (255 - Int(p.a)) + 127) / 255 }
          if [Int(q.r), Int(q.g), Int(q.b)] != expected || q.a != 255 { differ += 1 }
        }
      }
      #expect(differ == 0, "frame \(n): \(differ) pixels are not the frame with alpha over the matte")
    }
    // Mid-push both screens show: the red card of the screen leaving beside the one arriving.
    let mid = matted.frame(4, width: width, height: height)
    #expect((0..<width).contains { mid[$0, 40].g == 0 && mid[$0, 40].r > 200 }, "the leaving screen's red card is hidden")
  }
}
