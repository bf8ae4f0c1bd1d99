import Foundation
import Raster
import Testing

@testable import Media
import TestSupport

@Suite struct MP4WriterTests {
  static let width = 128, height = 96, fps = 30, count = 45

  /// Soft-edged rectangles (a 4 px coverage ramp) over gradients: what the
  /// codec and the colour conversion lose, without 4:2:0's hard-edge loss.
  @Test func roundTripKeepsFramesRateAndQuality() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("clip.mp4")
    let source = (0..<Self.count).map {
      syntheticFrame($0, width: Self.width, height: Self.height, edge: 4)
    }
    let summary = try writeClip(source, to: path, fps: Self.fps)
    #expect(summary.frames == Self.count)
    #expect(summary.duration == 1.5)
    #expect(summary.bytes == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))

    let reader = try VideoReader(path: path)
    #expect(reader.width == Self.width && reader.height == Self.height)
    #expect(reader.fps == 30)
    #expect(reader.frameCount == Self.count)
    #expect(reader.codecName == "h264")
    let decoded = try reader.readAll()
    #expect(decoded.count == Self.count)
    let values = zip(source, decoded).map { psnr($0, $1) }
    for (index, value) in values.enumerated() {
      #expect(value >= 38, "frame \(index): PSNR \(value) dB")
    }
    print(
      "MP4 \(Self.width)×\(Self.height)×\(Self.count) crf 18: \(summary.bytes) bytes,",
      "PSNR min \(values.min() ?? 0) dB, mean \(values.reduce(0, +) / Double(values.count)) dB")
  }

  /// Hard saturated edges: 4:2:0 stores chroma per 2×2 block, so the pixels
  /// next to such an edge lose colour whatever the encoder does (measured:
  /// ffmpeg's own CLI pipeline, swscale + libx264 crf 18, loses as much on
  /// such content: 34.6 dB against our 34.8 dB). Away from the edge the
  /// picture must still be close to the source.
  @Test func hardEdgesLoseOnlyNextToTheEdge() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("hard.mp4")
    let source = (0..<Self.count).map { syntheticFrame($0, width: Self.width, height: Self.height) }
    try writeClip(source, to: path, fps: Self.fps)
    let decoded = try VideoReader(path: path).readAll()
    #expect(decoded.count == Self.count)
    var overall: [Double] = [], away: [Double] = []
    for (index, (a, b)) in zip(source, decoded).enumerated() {
      let box = syntheticBox(index, width: Self.width, height: Self.height)
      func nearEdge(_ x: Int, _ y: Int) -> Bool {
        let px = Double(x) + 0.5, py = Double(y) + 0.5, band = 3.0
        let inOuter =
          px > box.x - band && px < box.x + box.width + band && py > box.y - band
          && py < box.y + box.height + band
        let inInner =
          px > box.x + band && px < box.x + box.width - band && py > box.y + band
          && py < box.y + box.height - band
        return inOuter && !inInner
      }
      overall.append(psnr(a, b))
      away.append(psnr(a, b) { !nearEdge($0, $1) })
    }
    #expect(overall.allSatisfy { $0 >= 30 }, "\(overall)")
    #expect(away.allSatisfy { $0 >= 42 }, "\(away)")
    print(
      "MP4 hard edges crf 18: PSNR min \(overall.min() ?? 0) dB overall,",
      "\(away.min() ?? 0) dB farther than 3 px from the edges")
  }

  /// The encoder really uses the BT.709 matrix and limited range: ffmpeg reads
  /// back Y′CbCr (63, 102, 240) for #FF0000 (BT.601 would give 81, 90, 240).
  @Test func redIsBT709LimitedRange() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("red.mp4")
    let red = Bitmap(width: 64, height: 48, fill: Pixel(r: 255, g: 0, b: 0, a: 255))
    try writeClip([red, red], to: path)
    let yuv = Array(
      try runData(
        "ffmpeg",
        ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]))
    let lumaCount = 64 * 48, chromaCount = 32 * 24
    #expect(yuv.count == lumaCount + 2 * chromaCount)
    guard yuv.count == lumaCount + 2 * chromaCount else { return }
    let y = yuv[lumaCount / 2], cb = yuv[lumaCount + chromaCount / 2]
    let cr = yuv[lumaCount + chromaCount + chromaCount / 2]
    #expect(abs(Int(y) - 63) <= 1 && abs(Int(cb) - 102) <= 1 && abs(Int(cr) - 240) <= 1, "\(y) \(cb) \(cr)")
  }

  @Test(arguments: [
    ("red", Pixel(r: 255, g: 0, b: 0, a: 255)),
    ("green", Pixel(r: 0, g: 255, b: 0, a: 255)),
    ("blue", Pixel(r: 0, g: 0, b: 255, a: 255)),
    ("grey", Pixel(r: 128, g: 128, b: 128, a: 255)),
    ("white", Pixel(r: 255, g: 255, b: 255, a: 255)),
    ("black", Pixel(r: 0, g: 0, b: 0, a: 255)),
  ])
  func flatColourRoundTrip(name: String, colour: Pixel) throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("\(name).mp4")
    try writeClip(Array(repeating: Bitmap(width: 64, height: 48, fill: colour), count: 3), to: path)
    let frames = try VideoReader(path: path).readAll()
    #expect(frames.count == 3)
    for frame in frames {
      for (x, y) in [(0, 0), (32, 24), (63, 47)] {
        let p = frame[x, y]
        let diffs = [Int(p.r) - Int(colour.r), Int(p.g) - Int(colour.g), Int(p.b) - Int(colour.b)]
        #expect(diffs.allSatisfy { abs($0) <= 2 }, "\(name) decoded as \(p)")
        #expect(p.a == 255)
      }
    }
  }

  @Test func ffprobeSeesH264HighBT709TVRange() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("probe.mp4")
    try writeClip((0..<12).map { syntheticFrame($0, width: 64, height: 48) }, to: path, fps: 24)
    let info = try probe(path)
    #expect(info["codec_name"] == "h264")
    #expect(info["profile"] == "High")
    #expect(info["pix_fmt"] == "yuv420p")
    #expect(info["width"] == "64" && info["height"] == "48")
    #expect(info["color_primaries"] == "bt709")
    #expect(info["color_transfer"] == "bt709")
    #expect(info["color_space"] == "bt709")
    #expect(info["color_range"] == "tv")
    #expect(info["r_frame_rate"] == "24/1")
    #expect(info["avg_frame_rate"] == "24/1")
    #expect(info["nb_frames"] == "12")
  }

  @Test func moovComesBeforeMdat() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.path("fast.mp4")
    try writeClip((0..<10).map { syntheticFrame($0, width: 64, height: 48) }, to: path)
    let boxes = topLevelBoxes(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    let moov = try #require(boxes.firstIndex(of: "moov"))
    let mdat = try #require(boxes.firstIndex(of: "mdat"))
    #expect(boxes.first == "ftyp")
    #expect(moov < mdat, "boxes: \(boxes)")
  }

  @Test(arguments: [1, 2, 0])
  func sameFramesGiveIdenticalBytes(threads: Int) throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    // 640×480: big enough that x264 really runs the threads it is given
    // (it clamps the count for tiny frames).
    let frames = (0..<16).map { syntheticFrame($0, width: 640, height: 480, edge: 2) }
    try writeClip(frames, to: dir.path("a.mp4"), threads: threads)
    try writeClip(frames, to: dir.path("b.mp4"), threads: threads)
    let a = try Data(contentsOf: URL(fileURLWithPath: dir.path("a.mp4")))
    let b = try Data(contentsOf: URL(fileURLWithPath: dir.path("b.mp4")))
    #expect(a == b)
    // No library version string sneaks in with bitexact.
    #expect(a.range(of: Data("Lavf".utf8)) == nil)
  }
}

@Suite struct MP4WriterAtomicityTests {
  static let old = Data("previous output".utf8)

  /// A directory with `out.mp4` holding `old`.
  func prepared() throws -> (TempDirectory, String) {
    let dir = try TempDirectory()
    let path = dir.path("out.mp4")
    try Self.old.write(to: URL(fileURLWithPath: path))
    return (dir, path)
  }

  func expectUntouched(_ dir: TempDirectory, _ path: String) throws {
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.old)
    #expect(try dir.entries() == ["out.mp4"])
  }

  @Test func wrongFrameSizeThrowsAndLeavesNothing() throws {
    let (dir, path) = try prepared()
    defer { dir.cleanUp() }
    let writer = try MP4Writer(path: path, width: 64, height: 48, fps: 30)
    try writer.append(syntheticFrame(0, width: 64, height: 48))
    #expect(try dir.entries().count == 2)  // the temp file is there while writing
    #expect(try dir.entries().contains { $0.hasPrefix(".out.mp4.tmp-") })
    #expect(throws: MediaError.self) { try writer.append(syntheticFrame(1, width: 66, height: 48)) }
    do {
      try writer.append(syntheticFrame(1, width: 66, height: 48))
    } catch let error as MediaError {
      #expect(error.description.contains("closed"))
    }
    try expectUntouched(dir, path)
    #expect(throws: MediaError.self) { try writer.finish() }
    try expectUntouched(dir, path)

    // The message names both sizes.
    let fresh = try MP4Writer(path: path, width: 64, height: 48, fps: 30)
    let error = #expect(throws: MediaError.self) { try fresh.append(Bitmap(width: 32, height: 48)) }
    #expect(error?.message == "frame is 32×48, expected 64×48")
    try expectUntouched(dir, path)
  }

  @Test func errorWithoutPreviousOutputLeavesNoFile() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let writer = try MP4Writer(path: dir.path("new.mp4"), width: 64, height: 48, fps: 30)
    try writer.append(syntheticFrame(0, width: 64, height: 48))
    #expect(throws: MediaError.self) { try writer.append(Bitmap(width: 64, height: 50)) }
    #expect(try dir.entries() == [])
  }

  @Test func cancelLeavesNothing() throws {
    let (dir, path) = try prepared()
    defer { dir.cleanUp() }
    let writer = try MP4Writer(path: path, width: 64, height: 48, fps: 30)
    for i in 0..<5 { try writer.append(syntheticFrame(i, width: 64, height: 48)) }
    writer.cancel()
    writer.cancel()
    try expectUntouched(dir, path)
  }

  @Test func droppingUnfinishedWriterLeavesNothing() throws {
    let (dir, path) = try prepared()
    defer { dir.cleanUp() }
    do {
      let writer = try MP4Writer(path: path, width: 64, height: 48, fps: 30)
      try writer.append(syntheticFrame(0, width: 64, height: 48))
    }
    try expectUntouched(dir, path)
  }

  @Test func finishReplacesPreviousOutput() throws {
    let (dir, path) = try prepared()
    defer { dir.cleanUp() }
    try writeClip([syntheticFrame(0, width: 64, height: 48)], to: path)
    #expect(try dir.entries() == ["out.mp4"])
    #expect(try VideoReader(path: path).readAll().count == 1)
  }

  @Test func finishWithoutFramesFails() throws {
    let (dir, path) = try prepared()
    defer { dir.cleanUp() }
    let writer = try MP4Writer(path: path, width: 64, height: 48, fps: 30)
    let error = #expect(throws: MediaError.self) { try writer.finish() }
    #expect(error?.message == "no frames were appended")
    try expectUntouched(dir, path)
  }

  @Test func invalidSettingsAreRejectedUpFront() throws {
    let (dir, path) = try prepared()
    defer { dir.cleanUp() }
    let odd = #expect(throws: MediaError.self) {
      try MP4Writer(path: path, width: 63, height: 48, fps: 30)
    }
    #expect(odd?.description.contains("63×48") == true)
    #expect(odd?.description.contains("even") == true)
    let preset = #expect(throws: MediaError.self) {
      try MP4Writer(path: path, width: 64, height: 48, fps: 30, preset: "warp")
    }
    // x264 knows its presets: the message is its own.
    #expect(preset?.message.contains("Error setting preset/tune warp") == true)
    #expect(throws: MediaError.self) { try MP4Writer(path: path, width: 64, height: 48, fps: 0) }
    #expect(throws: MediaError.self) { try MP4Writer(path: path, width: 64, height: 48, fps: 30, crf: 52) }
    let missingDir = #expect(throws: MediaError.self) {
      try MP4Writer(path: dir.path("no/such/dir/x.mp4"), width: 64, height: 48, fps: 30)
    }
    #expect(missingDir?.message == "No such file or directory")
    try expectUntouched(dir, path)
  }
}

/// The file is a function of the frames alone, not of when they arrive (a
/// renderer busy with a heavy frame, another job on the cores): x264 reads
/// heap memory it has not written, and what it found there depended on the
/// timing (`HeapFill`). Before the fix this gave other bytes.
@Suite struct MP4ReproducibilityTests {
  static let (width, height) = (480, 360)
  /// Motion with two cuts, so frame-type decisions have something to decide.
  static let frames = (0..<48).map { i in
    syntheticFrame(i < 16 ? i : i < 32 ? 40 + 3 * i : 7 * i, width: width, height: height, edge: 2.5)
  }

  func encode(_ path: String, threads: Int = 4, pause: (Int) -> UInt32 = { _ in 0 }) throws -> Data {
    let writer = try MP4Writer(path: path, width: Self.width, height: Self.height, fps: 30, threads: threads)
    for (i, frame) in Self.frames.enumerated() {
      try writer.append(frame)
      usleep(pause(i))
    }
    try writer.finish()
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  @Test func arrivalTimingDoesNotChangeTheBytes() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let fast = try encode(dir.path("fast.mp4"))
    let slow = try encode(dir.path("slow.mp4")) { _ in 20_000 }
    let uneven = try encode(dir.path("uneven.mp4")) { i in i % 5 == 0 ? 40_000 : 0 }
    #expect(fast == slow)
    #expect(fast == uneven)
  }
}
