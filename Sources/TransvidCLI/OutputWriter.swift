import Foundation
import Jobs
import Media
import Raster

/// What one written output was: the path, frames, duration and size — the
/// line the runner prints and the report records — plus notes on anything
/// the writer changed on its own (a GIF's fps lowered, `max_bytes` fitting).
struct OutputSummary: Sendable {
  var path: String
  var frames: Int
  var duration: Double
  var bytes: Int
  /// What the writer decided for the user, one sentence each.
  var notes: [String] = []

  var line: String {
    let base = "\(path)  \(frames) frames  \(String(format: "%.2f", duration)) s  \(bytes) bytes"
    return notes.isEmpty ? base : base + "  (" + notes.joined(separator: "; ") + ")"
  }
}

/// Writes one output format of a job. Every writer writes to a temporary file
/// and renames it into place, so a failure leaves nothing at `path`.
enum OutputWriter {
  ///
  /// `onFrame` runs after every rendered frame with its number; it may throw
  /// (a cancelled batch) to stop the writer, which then removes its
  /// temporary file.
  static func write(
    format: String, renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void = { _ in }
  ) throws -> OutputSummary {
    switch format {
    case "mp4":
      let s = try writeMP4(renderer, to: path, onFrame: onFrame)
      return OutputSummary(path: path, frames: s.frames, duration: s.duration, bytes: s.bytes)
    case "gif":
      return try writeGIF(renderer, to: path, onFrame: onFrame)
    case "png":
      return try writePoster(renderer, to: path)
    case "sheet":
      return try writeSheet(renderer, to: path)
    default:
      throw JobFailure(file: renderer.spec.file, message: "output format '\(format)' is not supported yet")
    }
  }

  /// The file name extension for a format: the format's name, except the
  /// contact sheet, which is a PNG (`<job>.sheet.png`).
  static func fileExtension(for format: String) -> String {
    format == "sheet" ? "sheet.png" : format
  }

  /// x264's thread count changes its decisions (and so the bytes), so it is
  /// fixed rather than taken from the machine: the same job gives the same
  /// file on a laptop and on a 64-core runner.
  static let encoderThreads = 4

  /// Renders every frame and encodes it. H.264 4:2:0 needs even sizes, so an
  /// odd canvas (393 pt @3x = 1179 px) loses its last pixel column or row.
  ///
  /// Frames are rendered and converted ahead of the encoder by a
  /// `FramePipeline` (`pipeline`, default `FramePipeline.standard()`); held
  /// frames reuse the previous converted frame. The bytes do not depend on the
  /// pipeline's settings.
  ///
  /// Bench only: with `TRANSVID_NO_ENCODE=1` in the environment the frames
  /// are rendered but not converted or encoded, an empty file is written, and
  /// a line on stderr gives the frames rendered, the seconds it took and the
  /// seconds preparing the job (snapshots) takes (`scripts/bench-e2e` uses it
  /// for the compositor's share).
  static func writeMP4(
    _ renderer: FrameRenderer, to path: String, pipeline: FramePipeline = .standard(),
    onFrame: (Int) throws -> Void = { _ in }
  ) throws -> MP4Summary {
    let spec = renderer.spec
    let width = spec.canvas.pixelWidth & ~1, height = spec.canvas.pixelHeight & ~1
    if ProcessInfo.processInfo.environment["TRANSVID_NO_ENCODE"] == "1" {
      return try composeOnly(renderer, to: path, width: width, height: height, pipeline: pipeline, onFrame: onFrame)
    }
    let writer = try MP4Writer(
      path: path, width: width, height: height, fps: spec.canvas.fps,
      crf: spec.output.mp4.crf, preset: spec.output.mp4.preset, threads: encoderThreads)
    try pipeline.run(renderer, width: width, height: height) { n, yuv in
      try writer.append(yuv)
      try onFrame(n)
    }
    return try writer.finish()
  }

  /// `TRANSVID_NO_ENCODE=1`: render every frame the MP4 path would render,
  /// time it, write an empty file.
  private static func composeOnly(
    _ renderer: FrameRenderer, to path: String, width: Int, height: Int, pipeline: FramePipeline,
    onFrame: (Int) throws -> Void
  ) throws -> MP4Summary {
    let clock = ContinuousClock()
    func seconds(_ d: Duration) -> Double {
      Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
    // What preparing the job costs (screen snapshots, resting composites):
    // compositor work done once per job, timed on a second renderer.
    let prepareStart = clock.now
    _ = FrameRenderer(spec: renderer.spec)
    let prepare = seconds(clock.now - prepareStart)
    let start = clock.now
    let statistics = try pipeline.run(renderer, width: width, height: height, convert: false) { n, _ in
      try onFrame(n)
    }
    let loop = seconds(clock.now - start)
    FileHandle.standardError.write(
      Data(
        ("TRANSVID_NO_ENCODE: rendered \(statistics.rendered) of \(statistics.frames) frames in "
          + "\(String(format: "%.4f", loop)) s; preparing the job took \(String(format: "%.4f", prepare)) s\n").utf8))
    try Platform.writeAtomically([], to: path)
    let fps = renderer.spec.canvas.fps
    return MP4Summary(frames: statistics.frames, duration: Double(statistics.frames) / Double(fps), bytes: 0)
  }

  // MARK: - GIF

  /// The GIF frame rate for a canvas rate above 50 (GIF delays are whole
  /// centiseconds, at least 2): the largest whole divisor of `fps` from 24
  /// to 50 (60 → 30, 120 → 40), so GIF frames are video frames; else 50.
  static func reducedGIFRate(_ fps: Int) -> Int {
    (24...GIFTiming.maximumFPS).reversed().first { fps % $0 == 0 } ?? GIFTiming.maximumFPS
  }

  /// Renders the job at the GIF's frame rate (its own `FrameRenderer`, so
  /// frame `i` shows `i / fps` s) and writes it with `GIFWriter`. Frames are
  /// rendered at the canvas's full pixel size and resized to `width`
  /// (default: the canvas width in points). With `max_bytes`, a file that
  /// is too big is written again with fewer colours (128), a lower frame rate
  /// (20), fewer colours (64), then narrower, until it fits; the summary
  /// says what changed.
  static func writeGIF(
    _ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void = { _ in }
  ) throws -> OutputSummary {
    let spec = renderer.spec
    let settings = spec.output.gif
    let canvasWidth = spec.canvas.pixelWidth, canvasHeight = spec.canvas.pixelHeight
    var notes: [String] = []
    var width = settings.width ?? max(16, Int(spec.canvas.size.width.rounded()))
    var fps = settings.fps ?? spec.canvas.fps
    if fps > GIFTiming.maximumFPS {
      let reduced = reducedGIFRate(fps)
      notes.append("gif: \(fps) fps reduced to \(reduced) fps (GIF delays are whole centiseconds, at least 2)")
      fps = reduced
    }
    var colors = settings.maxColors ?? 256
    var renderers: [Int: FrameRenderer] = [spec.canvas.fps: renderer]
    var options = GIFOptions()
    if let dither = settings.dither { options.dither = GIFOptions.Dither(rawValue: dither.rawValue)! }
    if let scale = settings.bayerScale { options.bayerScale = scale }
    if settings.palette == .perFrame { options.palette = .perFrame }
    switch settings.loop {
    case .repeat(let n): options.loop = .repeat(n)
    case .forever, nil: options.loop = .forever
    }

    func attempt() throws -> GIFSummary {
      let clip: FrameRenderer
      if let cached = renderers[fps] {
        clip = cached
      } else {
        clip = renderer.retimed(fps: fps)
        renderers[fps] = clip
      }
      options.width = width
      options.height = max(1, Int((Double(canvasHeight) * Double(width) / Double(canvasWidth)).rounded()))
      options.maxColors = colors
      var frame = Bitmap(width: canvasWidth, height: canvasHeight, fill: spec.canvas.background.premultipliedPixel)
      return try GIFWriter.write(to: path, frameCount: max(clip.frameCount, 1), fps: fps, options: options) { i in
        clip.render(i, into: &frame)
        try onFrame(i)
        return frame
      }
    }

    var summary = try attempt()
    if let maxBytes = settings.maxBytes, summary.bytes > maxBytes {
      let (firstBytes, firstColors, firstFPS, firstWidth) = (summary.bytes, colors, fps, width)
      while summary.bytes > maxBytes {
        if colors > 128 {
          colors = 128
        } else if fps > 20 {
          fps = 20
        } else if colors > 64 {
          colors = 64
        } else if width > 32 {
          // File size goes roughly with the area: aim a little under.
          let ratio = (Double(maxBytes) / Double(summary.bytes)).squareRoot() * 0.97
          width = max(32, min(width - 1, Int(Double(width) * ratio)))
        } else {
          throw JobFailure(
            file: spec.file,
            message: "output.gif.max_bytes \(maxBytes): even at 32 px, 20 fps and 64 colours the GIF is \(summary.bytes) bytes")
        }
        summary = try attempt()
      }
      var changes: [String] = []
      if colors != firstColors { changes.append("colours \(firstColors) → \(colors)") }
      if fps != firstFPS { changes.append("fps \(firstFPS) → \(fps)") }
      if width != firstWidth { changes.append("width \(firstWidth) → \(width)") }
      notes.append("gif: \(firstBytes) bytes > max_bytes \(maxBytes): \(changes.joined(separator: ", "))")
    }
    return OutputSummary(
      path: path, frames: summary.frames, duration: summary.duration, bytes: summary.bytes, notes: notes)
  }

  // MARK: - Poster and contact sheet

  /// The poster frame's time: `png.time`, else the middle of the first
  /// transition, else the middle of the timeline.
  static func posterTime(_ renderer: FrameRenderer) -> Double {
    if let time = renderer.spec.output.png.time { return time }
    for segment in renderer.timeline.segments {
      if case .transition = segment.content { return segment.start + segment.duration / 2 }
    }
    return renderer.timeline.duration / 2
  }

  /// The frame shown at `time` (frame ⌊time·fps⌉, clamped to the last).
  static func frameIndex(at time: Double, _ renderer: FrameRenderer) -> Int {
    let n = Int((time * Double(renderer.spec.canvas.fps)).rounded())
    return min(max(n, 0), max(renderer.frameCount - 1, 0))
  }

  /// One frame at full canvas size as a PNG.
  static func writePoster(_ renderer: FrameRenderer, to path: String) throws -> OutputSummary {
    let spec = renderer.spec
    let n = frameIndex(at: posterTime(renderer), renderer)
    let frame = renderer.frame(n, width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight)
    let bytes = try PNGWriter.encode(frame)
    try Platform.writeAtomically(bytes, to: path)
    let time = Double(n) / Double(spec.canvas.fps)
    return OutputSummary(
      path: path, frames: 1, duration: 0, bytes: bytes.count,
      notes: ["poster at \(String(format: "%.2f", time)) s (frame \(n))"])
  }

  /// The frames a contact sheet shows: `count` spread evenly from the first
  /// frame to the last.
  static func sheetFrames(count: Int, of frameCount: Int) -> [Int] {
    let count = max(1, min(count, frameCount))
    if count == 1 { return [0] }
    return (0..<count).map { k in
      Int((Double(k) * Double(frameCount - 1) / Double(count - 1)).rounded())
    }
  }

  /// A grid of frames with time labels, as a PNG.
  static func writeSheet(_ renderer: FrameRenderer, to path: String) throws -> OutputSummary {
    let spec = renderer.spec
    let settings = spec.output.sheet
    let indices = sheetFrames(count: settings.frames, of: max(renderer.frameCount, 1))
    let columns = min(settings.columns, indices.count)
    let gap = 8
    let thumbnail = max(16, Int((spec.canvas.size.width / 2).rounded(.up)))
    let sheet = ContactSheet(
      width: settings.width ?? columns * thumbnail + (columns + 1) * gap, columns: columns, gap: gap)
    let width = spec.canvas.pixelWidth, height = spec.canvas.pixelHeight
    let image = try sheet.render(
      count: indices.count, frameWidth: width, frameHeight: height,
      frame: { renderer.frame(indices[$0], width: width, height: height) },
      label: { ContactSheet.label(seconds: Double(indices[$0]) / Double(spec.canvas.fps)) })
    let bytes = try PNGWriter.encode(image)
    try Platform.writeAtomically(bytes, to: path)
    let last = Double(indices[indices.count - 1]) / Double(spec.canvas.fps)
    return OutputSummary(
      path: path, frames: indices.count, duration: last, bytes: bytes.count,
      notes: ["contact sheet \(image.width)×\(image.height), \(columns) columns"])
  }
}
