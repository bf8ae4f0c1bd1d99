import Raster

/// Where a clip's frames go, one after another, at a constant rate: a
/// video or animated-image writer. `append` a frame, or `hold` the one on
/// display a frame longer; `finish` writes the file at `path` (or `cancel`
/// leaves it as it was). `VideoWriter` (the FFmpeg formats) and
/// `WebPWriter` (libwebp) are sinks, so one loop feeds any of them.
public protocol FrameSink: AnyObject {
  var path: String { get }
  var width: Int { get }
  var height: Int { get }
  /// Whether pictures carry their own delays, so a hold is better written
  /// as a longer delay (`hold()`) than as a repeated picture.
  var mergesHolds: Bool { get }
  /// Whether the clip may end on a hold (the last picture's delay runs to
  /// its end); elsewhere the last frame must be a picture.
  var endsOnHold: Bool { get }
  func append(_ bitmap: Bitmap) throws
  func hold() throws
  @discardableResult func finish() throws -> VideoSummary
  func cancel()
}

extension VideoWriter: FrameSink {}
