import Foundation
import Jobs
import Media
import Raster
import Rendering
import Testing

@testable import TransvidCLI
import TestSupport

/// The MP4 path renders on worker threads ahead of the encoder, converts in
/// parallel and reuses held frames; none of that may change a byte.
@Suite struct FramePipelineTests {
  /// `smallJob` (holds, a circle-spread push and pop) at 240×400.
  func renderer(_ dir: String, extra: String = "") throws -> FrameRenderer {
    FrameRenderer(spec: try JobParser.parse(smallJob(extra: extra), file: "\(dir)/small.cfg"))
  }

  /// The file the writer made before the pipeline: each frame rendered on the
  /// calling thread and appended as a bitmap (single-threaded conversion).
  func referenceMP4(_ renderer: FrameRenderer, to path: String) throws -> [UInt8] {
    let spec = renderer.spec
    let width = spec.canvas.pixelWidth & ~1, height = spec.canvas.pixelHeight & ~1
    let writer = try MP4Writer(
      path: path, width: width, height: height, fps: spec.canvas.fps, crf: spec.output.mp4.crf,
      preset: spec.output.mp4.preset, threads: MP4Output.encoderThreads)
    for n in 0..<renderer.frameCount {
      try writer.append(renderer.frame(n, width: width, height: height))
    }
    try writer.finish()
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  func pipelineMP4(_ renderer: FrameRenderer, _ pipeline: FramePipeline, to path: String) throws -> [UInt8] {
    _ = try MP4Output.encode(renderer, to: path, pipeline: pipeline)
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static let settings: [FramePipeline] = [
    FramePipeline(workers: 0, depth: 1, conversionThreads: 1),
    FramePipeline(workers: 1, depth: 1, conversionThreads: 1),
    FramePipeline(workers: 1, depth: 3, conversionThreads: 2),
    FramePipeline(workers: 2, depth: 4, conversionThreads: 3),
    FramePipeline(workers: 4, depth: 2, conversionThreads: 4),
    FramePipeline(workers: 2, depth: 8, conversionThreads: 1, bandThreads: 1, background: true),
    .standard(),
  ]

  @Test func everyPipelineSettingGivesTheReferenceBytes() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer(dir)
    let reference = try referenceMP4(renderer, to: "\(dir)/reference.mp4")
    #expect(reference.count > 1000)
    for (i, pipeline) in Self.settings.enumerated() {
      let bytes = try pipelineMP4(renderer, pipeline, to: "\(dir)/p\(i).mp4")
      #expect(bytes == reference, "pipeline \(pipeline) differs from the single-threaded reference")
    }
  }

  @Test func twoRunsGiveIdenticalBytes() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let pipeline = FramePipeline(workers: 2, depth: 3, conversionThreads: 2)
    let a = try pipelineMP4(try renderer(dir), pipeline, to: "\(dir)/a.mp4")
    let b = try pipelineMP4(try renderer(dir), pipeline, to: "\(dir)/b.mp4")
    #expect(a == b)
  }

  /// Pooled frames are reused round the pool while consecutive frames differ
  /// (the transitions) and are handed on unchanged for holds: every decoded
  /// frame must still be its own compositor frame.
  @Test(arguments: [FramePipeline(workers: 1, depth: 1, conversionThreads: 2), FramePipeline(workers: 3, depth: 2, conversionThreads: 1)])
  func pooledFramesDoNotLeakIntoLaterFrames(pipeline: FramePipeline) throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer(dir)
    let path = "\(dir)/pooled.mp4"
    _ = try MP4Output.encode(renderer, to: path, pipeline: pipeline)
    let decoded = try VideoReader(path: path).readAll()
    #expect(decoded.count == renderer.frameCount)
    var repeats = 0, changes = 0
    for (n, frame) in decoded.enumerated() {
      let expected = renderer.frame(n, width: frame.width, height: frame.height)
      let value = psnr(expected, frame)
      #expect(value >= 38, "frame \(n): PSNR \(value) dB")
      if renderer.repeatsPreviousFrame(n) {
        repeats += 1
        #expect(expected == renderer.frame(n - 1, width: frame.width, height: frame.height), "frame \(n) is not a repeat")
      } else if n > 0 {
        changes += 1
      }
    }
    // The job has both, so both paths of the pool were exercised.
    #expect(repeats > 5 && changes > 10, "\(repeats) repeats, \(changes) changes")
  }

  @Test func cancellingThroughOnFrameRemovesTheTempFile() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer(dir)
    for pipeline in [FramePipeline(workers: 0, depth: 1, conversionThreads: 1), FramePipeline(workers: 2, depth: 3, conversionThreads: 2)] {
      let path = "\(dir)/cancelled.mp4"
      var seen: [Int] = []
      #expect(throws: CancellationError.self) {
        try MP4Output.encode(renderer, to: path, pipeline: pipeline) { n in
          seen.append(n)
          if n == 7 { throw CancellationError() }
        }
      }
      #expect(seen == Array(0...7), "onFrame runs once per frame, in order, and stops at the throw")
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
  }

  @Test func aWorkerErrorStopsTheRunAndIsRethrown() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer(dir)
    struct Boom: Error {}
    for pipeline in [FramePipeline(workers: 0, depth: 1, conversionThreads: 1), FramePipeline(workers: 2, depth: 3, conversionThreads: 1)] {
      var count = 0
      #expect(throws: Boom.self) {
        try pipeline.run(renderer, width: 240, height: 400) { n, _, _ in
          count += 1
          if n == 3 { throw Boom() }
        }
      }
      #expect(count == 4)
    }
  }

  /// The frames a run hands to the encoder, as raw yuv420p.
  func frames(_ renderer: FrameRenderer, _ pipeline: FramePipeline) throws -> ([[UInt8]], FramePipeline.Statistics) {
    var frames: [[UInt8]] = []
    let statistics = try pipeline.run(renderer, width: 240, height: 400) { _, yuv, _ in frames.append(yuv.planarBytes()) }
    return (frames, statistics)
  }

  /// Background workers run at idle priority and can be starved by other
  /// work on the machine: the encoder's thread then draws the frames it
  /// waits for itself. Workers that never get to draw in time leave every
  /// frame to it; slow ones leave some, and their copies of frames the
  /// encoder drew meanwhile are dropped. The frames are the same.
  @Test func starvedOrSlowWorkersLeaveFramesToTheEncoder() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer(dir)
    let (reference, plain) = try frames(renderer, FramePipeline(workers: 0, depth: 1, conversionThreads: 1))
    #expect(plain.rendered > 20)

    var starved = FramePipeline(workers: 2, depth: 4, conversionThreads: 1, bandThreads: 1, background: true)
    starved.patience = 0.001
    starved.beforeWorkerFrame = { _ in usleep(300_000) }
    let (a, s) = try frames(renderer, starved)
    let starvedSame = a == reference
    #expect(starvedSame, "frames differ from the reference path's")
    #expect(s.rendered == plain.rendered)
    #expect(s.drawnByEncoder >= s.rendered - 4, "\(s.drawnByEncoder) of \(s.rendered) drawn by the encoder")

    var slow = starved
    slow.beforeWorkerFrame = { n in usleep(UInt32(n % 3 == 0 ? 40_000 : 0)) }
    slow.patience = 0.01
    let (b, t) = try frames(renderer, slow)
    let slowSame = b == reference
    #expect(slowSame, "frames differ from the reference path's")
    #expect(t.rendered == plain.rendered)
    #expect(t.drawnByEncoder > 0, "\(t.drawnByEncoder) of \(t.rendered) drawn by the encoder")
  }

  /// With `comparing` (a variable-rate video), a frame drawn with the
  /// pixels of the frame before is handed over as a repeat of it (the same
  /// object), on every setting; without it, only the frames the renderer
  /// knows repeat are. The frames are the same either way.
  @Test func comparingHandsOverFramesDrawnWithThePixelsBeforeAsRepeats() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer(dir)
    let (reference, _) = try frames(renderer, FramePipeline(workers: 0, depth: 1, conversionThreads: 1))
    let equal = reference.indices.map { n in n > 0 && reference[n] == reference[n - 1] }
    let known = reference.indices.map { n in n > 0 && renderer.repeatsPreviousFrame(n) }
    // circle-spread's first and last frames draw what the frame before did.
    #expect(equal.filter { $0 }.count >= known.filter { $0 }.count + 5)
    for pipeline in Self.settings {
      var got: [[UInt8]] = [], repeats: [Bool] = [], plain: [Bool] = []
      var previous: YUVFrame? = nil
      try pipeline.run(renderer, width: 240, height: 400, comparing: true) { _, yuv, repeated in
        got.append(yuv.planarBytes())
        repeats.append(repeated)
        if repeated { #expect(yuv === previous) }
        previous = yuv
      }
      #expect(got == reference, "\(pipeline)")
      #expect(repeats == equal, "\(pipeline)")
      try pipeline.run(renderer, width: 240, height: 400) { _, _, repeated in plain.append(repeated) }
      #expect(plain == known, "\(pipeline)")
    }
  }

  @Test func holdsAreNotRendered() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let renderer = try renderer(dir)
    let stats = try FramePipeline(workers: 1, depth: 2, conversionThreads: 1).run(renderer, width: 240, height: 400) { _, _, _ in }
    let repeats = (0..<renderer.frameCount).filter { renderer.repeatsPreviousFrame($0) }.count
    #expect(stats.frames == renderer.frameCount)
    #expect(stats.rendered == renderer.frameCount - repeats)
    #expect(repeats >= 10)
  }
}
