import Foundation
import Jobs
import Media
import Raster
import Rendering

/// What one written output was: the path, frames, duration and size — the
/// line the runner prints and the report records — plus notes on anything
/// the writer changed on its own (a GIF's fps lowered, `maxBytes` fitting).
struct OutputSummary: Sendable, Codable {
  var path: String
  var frames: Int
  var duration: Double
  var bytes: Int
  /// What the writer decided for the user, one sentence each.
  var notes: [String] = []
  /// Wall-clock seconds this output took to render and encode (set by the runner).
  var seconds = 0.0
  /// The file's SHA-256, set where its bytes were read whole anyway (the
  /// shared cache storing or restoring it), so the record need not read them again.
  var sha256: String? = nil
  /// The file is gone: a report `transvid gallery` merged lists it, and it is not on disk.
  var missing = false

  /// `PATH  N frames  D s video  B bytes  rendered in T s`: the video's
  /// length and the time it took; for a file of `type` that is one still
  /// picture (a poster, a contact sheet), `PATH  still image  B bytes …`,
  /// as it is no video and has no length (its note says which frames it shows).
  func line(_ type: OutputFileType) -> String {
    let what =
      type.isStillImage
      ? "still image" : "\(frames) frame\(frames == 1 ? "" : "s")  \(String(format: "%.2f", duration)) s video"
    let base = "\(path)  \(what)  \(bytes) bytes  rendered in \(String(format: "%.2f", seconds)) s"
    return notes.isEmpty ? base : base + "  (" + notes.joined(separator: "; ") + ")"
  }
}

/// Writes one output format of a job through the format's writer (see
/// `FormatWriter`). Every writer writes to a temporary file and renames it
/// into place, so a failure leaves nothing at `path`.
enum OutputWriter {
  /// `onFrame` runs after every rendered frame with its number; it may throw
  /// (a cancelled batch) to stop the writer, which then removes its
  /// temporary file.
  static func write(
    format: OutputFormat, renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void = { _ in }
  ) throws -> OutputSummary {
    let writer = format.writer
    guard writer.fillsHeap else { return try writer.write(renderer, to: path, onFrame: onFrame) }
    return try HeapFill.needed { try writer.write(renderer, to: path, onFrame: onFrame) }
  }
}
