// VideoSize: the pixel size of the mp4, webm and mov.
//
//   mp4: { width: 720 }     # or height: 1280; the other side keeps the aspect ratio
//
// Their codecs store 4:2:0 (4:2:2 for ProRes) pictures, so both sides are
// even. Without a size the video is the canvas, and an odd side (393 pt at
// 3× is 1179 px) gains one column or row repeating the last, said in a note
// rather than dropped silently. With a size the frame is scaled (Lanczos)
// and the computed side is rounded to the nearest even number.
//
// VP9 and ProRes would take odd sides, but the WebM and the MOV are padded
// as the MP4 is: FFmpeg's converter (swscale) scales an odd width's chroma
// by the ratio of the two widths (197 samples to 393 pixels), so a player
// built on it shows every colour edge in the right of the frame up to a
// pixel off (a red bar's last column decoded blue), where the padded file
// decodes as drawn.
// The MOV names the canvas's own size as its clean aperture where the
// crop is exact (Media's `CleanAperture`); H.264 and a WebM cannot.

/// `width:` or `height:` of a video format (at most one; the other follows).
public struct VideoSize: Hashable, Sendable {
  public var width: Int?
  public var height: Int?

  public init(width: Int? = nil, height: Int? = nil) {
    self.width = width
    self.height = height
  }
}

/// `output.mov:` — ProRes has no settings of its own yet, only the size.
public struct MOVSettings: Hashable, Sendable {
  public var size = VideoSize()

  public init(size: VideoSize = VideoSize()) {
    self.size = size
  }
}

extension JobSpec {
  /// The frame size in pixels of a video with `size`.
  public func videoSize(_ size: VideoSize) -> (width: Int, height: Int) {
    let w = framePixelWidth, h = framePixelHeight
    func even(_ x: Double) -> Int { Swift.max(2, Int((x / 2).rounded()) * 2) }
    if let width = size.width { return (width, even(Double(h) * Double(width) / Double(w))) }
    if let height = size.height { return (even(Double(w) * Double(height) / Double(h)), height) }
    return (w + w % 2, h + h % 2)
  }

  /// The video settings' size for `format` (nil for formats that are not video).
  public func videoSize(of format: OutputFormat) -> VideoSize? {
    switch format {
    case .mp4: output.mp4.size
    case .webm: output.webm.size
    case .mov: output.mov.size
    case .gif, .png, .sheet, .apng, .webp: nil
    }
  }
}

extension JobDecoder {
  static let videoSizeKeys = ["width", "height"]

  /// `width:` / `height:` of `format`'s `fields`, even, from 16 to the
  /// most its file takes (`OutputSizes.largestSide`: 16384). The video's
  /// area against `--max-side`² and its codec's level are checked with the
  /// job's other sizes (`checkOutputSizes`), once the frame is known.
  func videoSize(_ fields: Fields, of format: OutputFormat) throws(Diagnostic) -> VideoSize {
    var size = VideoSize()
    let largest = OutputSizes.largestSide(of: format)?.pixels ?? limits.maxSide
    for key in JobDecoder.videoSizeKeys {
      guard let value = fields[key] else { continue }
      let pixels = try integer(value, fields.path(key), in: 16...largest)
      guard pixels % 2 == 0 else {
        let why = format == .mov ? Self.evenSides(of: [.mov]) : "the video is 4:2:0"
        throw mismatch(value, fields.path(key), expected: "an even number of pixels (\(why))")
      }
      if key == "width" { size.width = pixels } else { size.height = pixels }
    }
    if size.width != nil, let value = fields["height"] {
      throw Diagnostic(
        value.location, "\(fields.path("height")): give width or height, not both: the other keeps the canvas's aspect ratio")
    }
    return size
  }

  /// Why `videos` have even sides, for errors and notes: H.264's and VP9's
  /// 4:2:0 needs them; ProRes (4:2:2, or 4:4:4 with alpha) does not, and
  /// the MOV is kept to them for the reason in this file's note.
  static func evenSides(of videos: [OutputFormat]) -> String {
    guard videos.contains(.mov) else { return "4:2:0 video has even sides" }
    return videos.count == 1 ? "the MOV keeps even sides, as 4:2:0 video has them" : "4:2:0 video has even sides; the MOV keeps them too"
  }
}

extension JobSpec {
  /// The note on an odd frame (the canvas, or the stage around it) written
  /// to one of `formats` that is a video at the frame's own size (a run's
  /// `--format` may differ from the job's), naming each at the size it
  /// plays: the padded frame, or for the MOV the part its clean aperture
  /// names (`MOVWriter`): the height in ProRes 4:2:2, whose colour samples
  /// span two columns, both sides in ProRes 4444 (with alpha), which then
  /// shows the frame as drawn and is left out.
  public func oddCanvasNote(formats: [OutputFormat]) -> JobNote? {
    let w = framePixelWidth, h = framePixelHeight
    guard w % 2 == 1 || h % 2 == 1 else { return nil }
    let padded = videoSize(VideoSize())
    var groups: [(videos: [OutputFormat], width: Int, height: Int)] = []
    for format in formats where videoSize(of: format) == VideoSize() {
      let shown = format == .mov ? (width: isOpaque ? padded.width : w, height: h) : padded
      guard shown != (w, h) else { continue }
      if let i = groups.firstIndex(where: { $0.width == shown.width && $0.height == shown.height }) {
        groups[i].videos.append(format)
      } else {
        groups.append(([format], shown.width, shown.height))
      }
    }
    guard !groups.isEmpty else { return nil }
    let key = canvasKey
    let location = sizeSources[key] ?? SourceLocation(file: file, line: 1, column: 1)
    let clauses = groups.map { group in
      let one = group.videos.count == 1
      let sides = [group.width > w ? "column" : nil, group.height > h ? "row" : nil].compactMap { $0 }
      let why = group.height == h && h % 2 == 1
        ? "its clean aperture names the height alone, as ProRes 4:2:2's colour samples span two columns"
        : JobDecoder.evenSides(of: group.videos)
      return "the \(group.videos.map(\.rawValue).joined(separator: ", ")) \(one ? "is" : "are") \(group.width)x\(group.height), "
        + "\(one ? "its" : "their") last \(sides.joined(separator: " and ")) repeated (\(why))"
    }
    return JobNote(
      location,
      "\(key): \(frameName) is \(w)x\(h) pixels; \(clauses.joined(separator: "; ")); give a width or height to scale instead")
  }
}
