import Jobs
import Media
import Rendering

/// `png`: the poster, one frame at full canvas size.
struct PosterOutput: FormatWriter {
  var fileType: OutputFileType { PNGWriter.fileType }
  var cacheKey: String { "png \(PNGWriter.revision) past-delay shown-at" }

  /// The poster frame's time: `png.time`, else the middle of the first
  /// transition's animation, else the middle of the timeline. A step's
  /// `delay` is waited out before its animation (slowed down with it), so
  /// the middle is past it; a gesture scrubs its delay as part of the
  /// animation, so its middle is the segment's.
  static func posterTime(_ renderer: FrameRenderer) -> Double {
    if let time = renderer.spec.output.png.time { return time }
    for segment in renderer.timeline.segments {
      guard case .transition(_, let step) = segment.content else { continue }
      let delay = segment.track == nil ? (segment.transition?.delay ?? 0) * step.slowmo : 0
      return segment.start + (segment.duration + delay) / 2
    }
    return renderer.timeline.duration / 2
  }

  /// The frame a player shows at `time` (`FrameRate.frame(at:)`, ⌊time·fps⌋,
  /// clamped to the last).
  static func frameIndex(at time: Double, _ renderer: FrameRenderer) -> Int {
    let last = max(renderer.frameCount - 1, 0)
    let wanted = renderer.spec.canvas.frameRate.frame(at: time)
    return wanted > Double(last) ? last : Int(wanted)
  }

  /// What the summary says of a `png.time` at or past the video's end (its
  /// frames over the rate), where the poster is the last frame (as
  /// `transvid frame --time` says of its own); nil for a time within the
  /// video, one in the last frame's time on screen included.
  static func pastTheEndNote(_ renderer: FrameRenderer) -> String? {
    guard let time = renderer.spec.output.png.time else { return nil }
    let last = max(renderer.frameCount - 1, 0)
    // Compared as doubles: `time · fps` may be beyond any Int.
    guard renderer.spec.canvas.frameRate.frame(at: time) >= Double(renderer.frameCount) else { return nil }
    return "png.time \(String(format: "%g", time)) is past the end (\(renderer.frameCount) frame\(renderer.frameCount == 1 ? "" : "s"), the last at "
      + "\(String(format: "%.2f", renderer.spec.canvas.frameRate.time(ofFrame: last))) s): the poster is the last frame"
  }

  /// One frame at full canvas size as a PNG.
  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    let spec = renderer.spec
    let n = Self.frameIndex(at: Self.posterTime(renderer), renderer)
    let frame = renderer.frame(n, width: spec.framePixelWidth, height: spec.framePixelHeight)
    let bytes = try PNGWriter.encode(frame)
    try Platform.writeAtomically(bytes, to: path)
    let time = spec.canvas.frameRate.time(ofFrame: n)
    return OutputSummary(
      path: path, frames: 1, duration: 0, bytes: bytes.count,
      notes: ["poster at \(String(format: "%.2f", time)) s (frame \(n))"] + [Self.pastTheEndNote(renderer)].compactMap { $0 })
  }
}
