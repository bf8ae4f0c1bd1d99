import Jobs
import Media
import Raster
import Rendering

/// `sheet`: a contact sheet, a grid of frames with their times, as a PNG.
struct SheetOutput: FormatWriter {
  var fileType: OutputFileType { ContactSheet.fileType }
  var cacheKey: String { "sheet png \(PNGWriter.revision) stage-alpha labels-whole labels-apart grey-alpha" }
  /// The labels' font.
  var inputFiles: [String] { [FontLibrary.latinRegular.path] }

  /// The frames a contact sheet shows: `count` spread evenly from the first
  /// frame to the last.
  static func frames(count: Int, of frameCount: Int) -> [Int] {
    let count = max(1, min(count, frameCount))
    if count == 1 { return [0] }
    return (0..<count).map { k in
      Int((Double(k) * Double(frameCount - 1) / Double(count - 1)).rounded())
    }
  }

  /// A grid of frames with time labels, as a PNG.
  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    let spec = renderer.spec
    let settings = spec.output.sheet
    // As many as the parser sized the sheet for (`JobSpec.sheetFrameCount`).
    let indices = Self.frames(count: spec.sheetFrameCount(of: renderer.frameCount), of: max(renderer.frameCount, 1))
    let columns = min(settings.columns, indices.count)
    // The size the parser checked against the limits (`JobSpec.checkOutputSizes`).
    var sheet = ContactSheet(width: spec.sheetWidth(columns: columns), columns: columns, gap: OutputSizes.sheetGap)
    // Frames with alpha (a transparent canvas, or a stage whose background
    // is transparent or an image) keep it on the sheet too: a transparent
    // page, as the other formats with alpha keep it.
    if !spec.isOpaque { sheet.background = Pixel(r: 0, g: 0, b: 0, a: 0) }
    let width = spec.framePixelWidth, height = spec.framePixelHeight
    let image = try sheet.render(
      count: indices.count, frameWidth: width, frameHeight: height, font: try FontLibrary.font(FontLibrary.latinRegular),
      frame: { renderer.frame(indices[$0], width: width, height: height) },
      label: { ContactSheet.label(seconds: spec.canvas.frameRate.time(ofFrame: indices[$0])) })
    let bytes = try PNGWriter.encode(image)
    try Platform.writeAtomically(bytes, to: path)
    let last = spec.canvas.frameRate.time(ofFrame: indices[indices.count - 1])
    // One picture (as a decoder counts it; the report's frames), showing `indices.count` frames.
    return OutputSummary(
      path: path, frames: 1, duration: last, bytes: bytes.count,
      notes: [
        "contact sheet \(image.width)×\(image.height): \(indices.count) frame\(indices.count == 1 ? "" : "s") in "
          + "\(columns) column\(columns == 1 ? "" : "s")"
      ])
  }
}
