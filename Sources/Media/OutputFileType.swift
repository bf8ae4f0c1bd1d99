/// What a writer's file is to the world around it: its name extension, its
/// MIME type and how a web page shows it. Each writer in Media declares one
/// (`MP4Writer.fileType`, `GIFWriter.fileType`, …), so the batch, the cache
/// and the gallery ask the writer instead of guessing from a file name.
public struct OutputFileType: Hashable, Sendable {
  /// How a page shows the file.
  public enum Presentation: String, Hashable, Sendable {
    /// A `<video>` element; several videos of one job are its `<source>`s,
    /// in the job's format order (WebM before an MP4 fallback).
    case video
    /// An animated `<img>` (GIF, APNG, animated WebP), shown when the job
    /// has no video.
    case animation
    /// A still `<img>` that stands for the clip: the video's `poster`, or
    /// the picture when there is nothing else.
    case still
    /// A file the page links to but does not show (a contact sheet, which
    /// is shown only by a job with no video, animation or still).
    case attachment
  }

  /// The file name's ending after `<job>.`: `mp4`, `sheet.png`.
  public var fileExtension: String
  public var mimeType: String
  public var presentation: Presentation

  public init(fileExtension: String, mimeType: String, presentation: Presentation) {
    self.fileExtension = fileExtension
    self.mimeType = mimeType
    self.presentation = presentation
  }

  /// One picture that does not move (a poster, a contact sheet): it has
  /// no length to give, and a page may show it as an `<img>`.
  public var isStillImage: Bool { mimeType.hasPrefix("image/") && presentation != .animation }

  /// The HTML element that shows the file, or nil for an attachment.
  public var element: String? {
    switch presentation {
    case .video: "video"
    case .animation, .still: "img"
    case .attachment: nil
    }
  }
}
