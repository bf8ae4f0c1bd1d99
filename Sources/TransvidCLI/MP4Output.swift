import Foundation
import Jobs
import Media
import Rendering

/// `mp4`: H.264 by `MP4Writer`, its frames rendered and converted ahead of
/// the encoder by a `FramePipeline`.
struct MP4Output: FormatWriter {
  var fileType: OutputFileType { MP4Writer.fileType }
  /// `vfr-pixels`: a variable-rate MP4 holds a frame drawn with the pixels
  /// of the one before (it was a picture), so such files are made again.
  var cacheKey: String { "libx264 threads=\(Self.encoderThreads) budget=\(SizeBudget.revision) vfr-pixels" }

  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    if let maxBytes = renderer.spec.output.mp4.maxBytes {
      let renderer = renderer.overMatte()
      let duration = renderer.spec.canvas.frameRate.time(ofFrame: renderer.frameCount)
      let budget = SizeBudget(maxBytes: maxBytes, key: "output.mp4.maxBytes", spec: renderer.spec)
      let settings = renderer.spec.output.mp4
      let (s, note) = try budget.capping(
        settings.capsCRF, crf: settings.crf, path: path, duration: duration, what: "mp4",
        encodeAtCRF: { try Self.encode(renderer, to: path, onFrame: onFrame) }
      ) { bitRate in
        try Self.encodeTwoPass(renderer, to: path, bitRate: bitRate, onFrame: onFrame)
      }
      return OutputSummary(path: path, frames: s.frames, duration: s.duration, bytes: s.bytes, notes: [note])
    }
    let s = try Self.encode(renderer, to: path, onFrame: onFrame)
    return OutputSummary(path: path, frames: s.frames, duration: s.duration, bytes: s.bytes)
  }

  /// Both passes of an average-rate encode at `bitRate` (`SizeBudget`): the
  /// first to a scratch file beside `path`, removed with x264's stats files.
  static func encodeTwoPass(
    _ renderer: FrameRenderer, to path: String, bitRate: Int, pipeline: FramePipeline = .standard(),
    onFrame: (Int) throws -> Void
  ) throws -> VideoSummary {
    let spec = renderer.spec
    let (width, height) = spec.videoSize(spec.output.mp4.size)
    let stats = path + ".x264-stats", firstPass = path + ".pass1"
    defer {
      for file in [stats, stats + ".temp", stats + ".mbtree", stats + ".mbtree.temp", firstPass] {
        try? FileManager.default.removeItem(atPath: file)
      }
    }
    var summary: VideoSummary?
    for pass in 1...2 {
      let writer = try MP4Writer(
        path: pass == 1 ? firstPass : path, width: width, height: height, fps: spec.canvas.fps,
        preset: spec.output.mp4.preset, threads: encoderThreads,
        twoPass: TwoPass(pass: pass, bitRate: bitRate, stats: stats), fractional: spec.canvas.isFractional)
      let variable = spec.output.mp4.frameRate == .variable
      try pipeline.run(renderer, width: width, height: height, comparing: variable) { n, yuv, repeats in
        try writer.append(yuv, frame: n, of: renderer, repeats: repeats, mergingHolds: variable)
        try onFrame(n)
      }
      summary = try writer.finish()
    }
    return summary!
  }

  /// Renders every frame and encodes it at `JobSpec.videoSize`: H.264 4:2:0
  /// needs even sizes, so an odd canvas (393 pt @3x = 1179 px) gains a copy
  /// of its last column or row (`FrameFitter`), or is scaled to a `width:`.
  ///
  /// Frames are rendered and converted ahead of the encoder by a
  /// `FramePipeline` (`pipeline`, default `FramePipeline.standard()`); held
  /// frames reuse the previous converted frame, and with `frameRate:
  /// variable` are not encoded again (`FrameRateMode`), nor is a frame drawn
  /// with the same pixels as the one before. The bytes do not depend on the
  /// pipeline's settings.
  ///
  /// Bench only: with `TRANSVID_NO_ENCODE=1` in the environment the frames
  /// are rendered but not converted or encoded, an empty file is written, and
  /// a line on stderr gives the frames rendered, the seconds it took and the
  /// seconds preparing the job (snapshots) takes (`scripts/bench-e2e` uses it
  /// for the compositor's share).
  ///
  /// Bench only: `TRANSVID_RAW_YUV=FILE` also writes every encoded frame, as
  /// the encoder got it, to FILE as raw yuv420p (`scripts/bench floor` feeds
  /// them to FFmpeg's CLI: the encoder's floor on the same frames).
  static func encode(
    _ renderer: FrameRenderer, to path: String, pipeline: FramePipeline = .standard(),
    onFrame: (Int) throws -> Void = { _ in }
  ) throws -> VideoSummary {
    // H.264 has no alpha: a transparent canvas shows over the job's matte.
    let renderer = renderer.overMatte()
    let spec = renderer.spec
    let (width, height) = spec.videoSize(spec.output.mp4.size)
    if ProcessInfo.processInfo.environment["TRANSVID_NO_ENCODE"] == "1" {
      return try composeOnly(renderer, to: path, width: width, height: height, pipeline: pipeline, onFrame: onFrame)
    }
    let writer = try MP4Writer(
      path: path, width: width, height: height, fps: spec.canvas.fps,
      crf: spec.output.mp4.crf, preset: spec.output.mp4.preset, threads: encoderThreads,
      fractional: spec.canvas.isFractional)
    let raw = ProcessInfo.processInfo.environment["TRANSVID_RAW_YUV"].flatMap { path in
      FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil
    }
    let variable = spec.output.mp4.frameRate == .variable
    try pipeline.run(renderer, width: width, height: height, comparing: variable) { n, yuv, repeats in
      try StageTimings.measure(.encode) {
        try writer.append(yuv, frame: n, of: renderer, repeats: repeats, mergingHolds: variable)
      }
      raw?.write(Data(yuv.planarBytes()))
      try onFrame(n)
    }
    return try StageTimings.measure(.finish) { try writer.finish() }
  }

  /// `TRANSVID_NO_ENCODE=1`: render every frame the MP4 path would render,
  /// time it, write an empty file.
  private static func composeOnly(
    _ renderer: FrameRenderer, to path: String, width: Int, height: Int, pipeline: FramePipeline,
    onFrame: (Int) throws -> Void
  ) throws -> VideoSummary {
    let clock = ContinuousClock()
    func seconds(_ d: Duration) -> Double {
      Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
    // What preparing the job costs (screen snapshots, resting composites):
    // compositor work done once per job, timed on a second renderer.
    let prepareStart = clock.now
    FrameRenderer(spec: renderer.spec).prepare()
    let prepare = seconds(clock.now - prepareStart)
    let start = clock.now
    let statistics = try pipeline.run(renderer, width: width, height: height, convert: false) { n, _, _ in
      try onFrame(n)
    }
    let loop = seconds(clock.now - start)
    FileHandle.standardError.write(
      Data(
        ("TRANSVID_NO_ENCODE: rendered \(statistics.rendered) of \(statistics.frames) frames in "
          + "\(String(format: "%.4f", loop)) s; preparing the job took \(String(format: "%.4f", prepare)) s\n").utf8))
    try Platform.writeAtomically([], to: path)
    let duration = renderer.spec.canvas.frameRate.time(ofFrame: statistics.frames)
    return VideoSummary(frames: statistics.frames, duration: duration, bytes: 0)
  }
}
