// JobNote: something a valid job will do that its author may not expect,
// said once when the job renders (`FILE:LINE:COL: note: …`), as compilers
// print notes beside errors. Notes never stop a job.
//
// The decoder notes:
// - a gesture without `release:` whose last sample is not past 0.5: UIKit's
//   UIPercentDrivenInteractiveTransition then cancels, the step plays back
//   and the screens after it are not the ones the step names;
// - label text in scripts that need shaping (Thai, Arabic, Devanagari, …) or
//   in emoji: the renderer draws one glyph per character without shaping or
//   colour fonts, so these show as empty boxes;
// - an odd canvas written to mp4, webm or mov at its own size: the video
//   repeats the last column or row (`VideoSize.swift`).

/// A remark on a valid job, at a place in its file.
public struct JobNote: Hashable, Sendable, CustomStringConvertible {
  public var location: SourceLocation
  public var message: String

  public init(_ location: SourceLocation, _ message: String) {
    self.location = location
    self.message = message
  }

  /// `FILE:LINE:COL: note: MESSAGE`.
  public var description: String { "\(location): note: \(message)" }
}

extension JobDecoder {
  /// The notes on `spec` (see the file's comment).
  func notes(on spec: JobSpec) -> [JobNote] {
    var notes: [JobNote] = []
    for screen in spec.screens {
      for (i, view) in screen.views.enumerated() {
        guard let text = view.text, let script = JobDecoder.unshapedScript(in: text) else { continue }
        notes.append(
          JobNote(
            view.location,
            "screens.\(screen.name).views[\(i)].text: \(script) is drawn without shaping or colour glyphs "
              + "and shows as empty boxes"))
      }
    }
    for case (let i, .transition(let step)) in spec.timeline.enumerated() {
      guard let gesture = step.gesture, gesture.release == nil, gesture.isCancelled else { continue }
      // Three decimals: 520 of 1194 points is 0.436.
      let last = ((gesture.progress.last ?? 0) * 1000).rounded() / 1000
      notes.append(
        JobNote(
          step.location,
          "timeline[\(i)].\(step.operation.rawValue): the gesture ends at progress \(JobDecoder.format(last)), "
            + "not past 0.5, so the \(step.operation.rawValue) is cancelled and '\(step.from)' stays on screen "
            + "(UIPercentDrivenInteractiveTransition); say release: cancel to keep this, or move the finger further"))
    }
    if let note = oddCanvasNote(on: spec) { notes.append(note) }
    return notes
  }

  /// Ranges of scripts the label renderer cannot shape, by name.
  static let unshapedScripts: [(name: String, range: ClosedRange<UInt32>)] = [
    ("Arabic", 0x0600...0x06FF), ("Hebrew", 0x0590...0x05FF), ("Devanagari", 0x0900...0x097F),
    ("Bengali", 0x0980...0x09FF), ("Tamil", 0x0B80...0x0BFF), ("Thai", 0x0E00...0x0E7F), ("Lao", 0x0E80...0x0EFF),
    ("Tibetan", 0x0F00...0x0FFF), ("Myanmar", 0x1000...0x109F), ("Khmer", 0x1780...0x17FF),
  ]

  /// "Thai text", "emoji", … for the first character of `text` that the
  /// renderer cannot draw as one plain glyph; nil when there is none.
  static func unshapedScript(in text: String) -> String? {
    for scalar in text.unicodeScalars {
      if let script = unshapedScripts.first(where: { $0.range.contains(scalar.value) }) {
        return "\(script.name) text"
      }
      if scalar.properties.isEmojiPresentation || scalar.value == 0xFE0F { return "emoji" }
    }
    return nil
  }
}
