import Foundation
import Jobs
import Media
import Rendering

/// `webm`: VP9 by `WebMWriter`, its frames rendered and converted ahead of
/// the encoder by a `FramePipeline` (yuv420p, as the MP4's); a transparent
/// canvas or stage gives VP9 with alpha, each frame converted by the writer.
struct WebMOutput: FormatWriter {
  var fileType: OutputFileType { WebMWriter.fileType }
  /// `vfr-pixels`: as the MP4's (a variable-rate WebM holds a frame drawn
  /// with the pixels of the one before).
  var cacheKey: String { "libvpx-vp9 threads=\(Self.encoderThreads) budget=\(SizeBudget.revision) vfr-pixels bleed-vertical grey-alpha" }

  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    let spec = renderer.spec
    guard let maxBytes = spec.output.webm.maxBytes else {
      let (s, _) = try Self.encode(renderer, to: path, twoPass: nil, onFrame: onFrame)
      return OutputSummary(path: path, frames: s.frames, duration: s.duration, bytes: s.bytes)
    }
    let duration = spec.canvas.frameRate.time(ofFrame: renderer.frameCount)
    let budget = SizeBudget(maxBytes: maxBytes, key: "output.webm.maxBytes", spec: spec)
    let firstPass = path + ".pass1"
    defer { try? FileManager.default.removeItem(atPath: firstPass) }
    let (s, note) = try budget.capping(
      spec.output.webm.capsCRF, crf: spec.output.webm.crf, path: path, duration: duration, what: "webm",
      encodeAtCRF: { try Self.encode(renderer, to: path, twoPass: nil, onFrame: onFrame).0 }
    ) { bitRate in
      // libvpx's first pass writes only stats, which it returns in memory.
      let first = try Self.encode(renderer, to: firstPass, twoPass: TwoPass(pass: 1, bitRate: bitRate), onFrame: onFrame)
      return try Self.encode(
        renderer, to: path, twoPass: TwoPass(pass: 2, bitRate: bitRate, stats: first.stats), onFrame: onFrame).0
    }
    return OutputSummary(path: path, frames: s.frames, duration: s.duration, bytes: s.bytes, notes: [note])
  }

  /// One encode (or one pass of two): opaque frames through a
  /// `FramePipeline`, frames with alpha converted by the writer. Returns
  /// the summary and, after a first pass, libvpx's stats.
  static func encode(
    _ renderer: FrameRenderer, to path: String, twoPass: TwoPass?, onFrame: (Int) throws -> Void
  ) throws -> (VideoSummary, stats: String?) {
    let spec = renderer.spec
    let (width, height) = spec.videoSize(spec.output.webm.size)
    let writer = try WebMWriter(
      path: path, width: width, height: height, fps: spec.canvas.fps, crf: spec.output.webm.crf,
      speed: spec.output.webm.speed, threads: encoderThreads, alpha: !spec.isOpaque, twoPass: twoPass,
      fractional: spec.canvas.isFractional)
    let variable = spec.output.webm.frameRate == .variable
    if !spec.isOpaque {
      let s = try writer.encodeFrames(of: renderer, mergingHolds: variable, onFrame: onFrame)
      return (VideoSummary(frames: s.frames, duration: s.duration, bytes: s.bytes), writer.passStats)
    }
    try FramePipeline.standard().run(renderer, width: width, height: height, comparing: variable) { n, yuv, repeats in
      try writer.append(yuv, frame: n, of: renderer, repeats: repeats, mergingHolds: variable)
      try onFrame(n)
    }
    return (try writer.finish(), writer.passStats)
  }
}
