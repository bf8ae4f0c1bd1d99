// OutputTarget: `output: { target: github | web | editor }` (and `--target`):
// where the files go, as a bundle of ordinary settings. A target fills in
// only what the job file does not write itself, so any of its settings can
// be overridden by writing that key.
//
//   github   formats [mp4, gif]; mp4 and gif maxBytes 10MB (GitHub's limit
//            for videos and images on free plans: the mp4's caps its crf
//            encode, `MP4Settings.capsCRF`); the mp4 at most 1280 px
//            wide (width: 1280 when the output frame is wider: the
//            stage's, which is wider than the canvas it holds, or the
//            canvas's without one); mp4 frameRate variable
//   web      formats [webm, mp4, png]: VP9 first, H.264 as the fallback,
//            the poster for <video poster=…>; webm and mp4 frameRate
//            variable
//   editor   formats [mov], canvas background transparent: ProRes 4444
//            with alpha for Final Cut, Premiere, Keynote (screens keep
//            their own backgrounds)
//
// Browsers and GitHub's player play a variable rate as they play a
// constant one, so the web targets code each held picture once
// (`FrameRateMode`); the editor target keeps MOV's constant rate.

import Raster

/// A destination for a job's files.
public enum OutputTarget: String, Hashable, Sendable, CaseIterable {
  case github, web, editor

  /// GitHub's limit for a video or image attachment on free plans (SI megabytes).
  public static let githubLimit = 10_000_000
  /// The widest MP4 the github target writes (measured on the output frame).
  public static let githubWidth = 1280

  /// `; did you mean 'web'?` for a near miss of a target's name, else the list.
  public static func hint(forUnknown name: String) -> String { Suggestion.hint(for: name, in: allCases.map(\.rawValue)) }
}

/// The settings a target may fill in (`JobSpec.targetKeys`), together.
struct TargetSettings: Sendable {
  var formats: [OutputFormat]
  var mp4: MP4Settings
  var webm: WebMSettings
  var gifMaxBytes: Int?
  var background: Color
}

extension JobSpec {
  /// The settings a target may fill in, as they are now.
  var targetSettings: TargetSettings {
    get {
      TargetSettings(
        formats: output.formats, mp4: output.mp4, webm: output.webm, gifMaxBytes: output.gif.maxBytes,
        background: canvas.background)
    }
    set {
      output.formats = newValue.formats
      output.mp4 = newValue.mp4
      output.webm = newValue.webm
      output.gif.maxBytes = newValue.gifMaxBytes
      canvas.background = newValue.background
    }
  }

  /// The keys a target may fill in, by dotted path (`writtenSettings` holds those the file writes).
  static let targetKeys = [
    ["output", "formats"], ["output", "mp4", "maxBytes"], ["output", "gif", "maxBytes"], ["output", "mp4", "width"],
    ["output", "mp4", "height"], ["canvas", "background"], ["output", "mp4", "frameRate"], ["output", "webm", "frameRate"],
  ]

  /// The job with `target`'s settings wherever the file does not write
  /// them. A job another target filled in (its own `output.target`, then
  /// `--target`) takes this one's settings alone: the first's are undone.
  public func applying(_ target: OutputTarget) -> JobSpec {
    var spec = self
    if let untargeted { spec.targetSettings = untargeted } else { spec.untargeted = targetSettings }
    func unwritten(_ key: String) -> Bool { !writtenSettings.contains(key) }
    switch target {
    case .github:
      if unwritten("output.formats") { spec.output.formats = [.mp4, .gif] }
      if unwritten("output.mp4.maxBytes") {
        spec.output.mp4.maxBytes = OutputTarget.githubLimit
        spec.output.mp4.capsCRF = true
      }
      if unwritten("output.gif.maxBytes") { spec.output.gif.maxBytes = OutputTarget.githubLimit }
      if unwritten("output.mp4.width"), unwritten("output.mp4.height"), framePixelWidth > OutputTarget.githubWidth {
        spec.output.mp4.size = VideoSize(width: OutputTarget.githubWidth)
      }
      if unwritten("output.mp4.frameRate") { spec.output.mp4.frameRate = .variable }
    case .web:
      if unwritten("output.formats") { spec.output.formats = [.webm, .mp4, .png] }
      if unwritten("output.mp4.frameRate") { spec.output.mp4.frameRate = .variable }
      if unwritten("output.webm.frameRate") { spec.output.webm.frameRate = .variable }
    case .editor:
      if unwritten("output.formats") { spec.output.formats = [.mov] }
      if unwritten("canvas.background") { spec.canvas.background = .clear }
    }
    spec.output.target = target
    return spec
  }
}
