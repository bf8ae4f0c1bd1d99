// How long a job runs: its frame count and the pixels it renders, checked
// against `limits` once the timeline is known (the canvas side is checked in
// `JobDecoder+Canvas.swift`). Both are blamed on the `timeline` key: its
// length (with fps and the canvas) is what makes the job big.

extension JobDecoder {
  /// Throws when `spec` has more frames or pixels than `limits` allow.
  func checkLength(of spec: JobSpec, at location: SourceLocation) throws(Diagnostic) {
    let timeline = Timeline(spec: spec, transitions: transitions)
    let frames = timeline.frameCount
    let fps = spec.canvas.fps
    if frames < 1 {
      throw Diagnostic(
        location,
        "timeline: \(JobDecoder.format(seconds: timeline.duration)) s at \(spec.canvas.frameRate) fps is less than one frame; "
          + "a job needs at least half a frame (1/\(2 * fps) s)")
    }
    if frames > limits.maxFrames {
      throw Diagnostic(
        location,
        "timeline: \(frames) frames (\(JobDecoder.format(seconds: timeline.duration)) s at \(spec.canvas.frameRate) fps); "
          + "at most \(limits.maxFrames) frames per job (raise the limit with --max-frames)")
    }
    let width = spec.framePixelWidth, height = spec.framePixelHeight
    let (perFrame, o1) = width.multipliedReportingOverflow(by: height)
    let (pixels, o2) = perFrame.multipliedReportingOverflow(by: frames)
    if o1 || o2 || pixels > limits.maxPixels {
      throw Diagnostic(
        location,
        "timeline: \(frames) frames of \(width)x\(height) pixels is \(o1 || o2 ? "too many" : String(pixels)) pixels; "
          + "at most \(limits.maxPixels) per job (raise the limit with --max-pixels)")
    }
  }
}
