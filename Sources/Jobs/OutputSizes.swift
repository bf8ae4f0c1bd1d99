// OutputSizes: the size of every image a job's outputs allocate, known from
// its numbers alone, checked against the limits before anything is drawn.
//
// What each output allocates (the writers in `TransvidCLI/OutputWriter.swift`
// and `Media` lay them out this way):
// - every format: frames of the canvas's pixel size;
// - mp4, webm, mov: the canvas padded to even sides, or scaled to a
//   `width:`/`height:` (`VideoSize.swift`);
// - gif: frames `gif.width` wide (default: the canvas width in points, one
//   pixel per point however narrow), the height keeping the canvas's
//   aspect ratio;
// - sheet: `sheet.width` wide (default: thumbnails of half the canvas
//   width in points), one row of thumbnails and labels per `columns` of the
//   frames it shows (`sheet.frames`, at most the video's frames).
// Each image must have at most `maxSide²` pixels and each side at most what
// its format takes (`OutputSizes.largestSide`: 16384 for a video, as the
// writers and libx264 take them; 16383 for a WebP; 65535 for a GIF and the
// sheet), and every image goes through an FFmpeg encoder, which refuses
// pictures with (w + 128)·(h + 128) ≥ 2³¹/8 (`av_image_check_size`).
// The GIF and the sheet are bounded by the same pixel count as the canvas:
// an upscaled GIF or a tall sheet costs what a canvas of that area would.
//
// The check runs when the job is parsed, for its own `formats`, and again
// when the command line chooses other formats (`--format`), so the error
// always points at the key that made the image big.

extension JobSpec {
  /// Throws when an output of one of `formats` would allocate an image
  /// beyond `limits` or beyond what its encoder accepts; `frameCount` is
  /// the video's (`Timeline.frameCount`), which bounds the contact sheet's.
  public func checkOutputSizes(formats: [OutputFormat], limits: JobLimits, frameCount: Int) throws(Diagnostic) {
    let width = framePixelWidth, height = framePixelHeight
    try OutputSizes.check(width, height, what: frameName, key: canvasKey, in: self, limits: limits)
    if formats.contains(.mp4), width < 2 || height < 2 {
      throw diagnostic(
        at: canvasKey, "\(frameName) is \(width)x\(height) pixels; an MP4 needs at least 2x2 (H.264 4:2:0 has even sides)")
    }
    if formats.contains(.webp) {
      try OutputSizes.check(
        width, height, what: "the webp", key: canvasKey, side: OutputSizes.largestSide(of: .webp), in: self, limits: limits)
    }
    for format in formats {
      guard let size = videoSize(of: format), size != VideoSize() else { continue }
      let (w, h) = videoSize(size)
      let key = videoSizeKey(format, size)
      // A scaled video is that size at any canvas scale (`--draft`'s too): its codec's level binds first.
      try OutputSizes.checkPlayable(format, w, h, key: key, in: self)
      try OutputSizes.check(
        w, h, what: "the \(format.rawValue)", key: key, side: OutputSizes.largestSide(of: format), in: self, limits: limits)
    }
    if formats.contains(.gif) {
      let size = gifSize
      // Without a width the GIF's size comes from the canvas: blame that.
      let key = sizeSources["output.gif.width"] != nil ? "output.gif.width" : canvasKey
      try OutputSizes.check(
        size.width, size.height, what: "the GIF", key: key, side: OutputSizes.largestSide(of: .gif), in: self, limits: limits)
    }
    if formats.contains(.sheet) {
      // The sheet's keys the job wrote, the one that sizes the thumbnails first; else the canvas.
      let key = ["output.sheet.width", "output.sheet.frames", "output.sheet.columns"].first { sizeSources[$0] != nil } ?? canvasKey
      let frames = sheetFrameCount(of: frameCount)
      let columns = Swift.min(output.sheet.columns, frames)
      let gap = OutputSizes.sheetGap
      let sheetWidth = sheetWidth(columns: columns)
      let thumbnail = (sheetWidth - gap * (columns + 1)) / columns
      guard thumbnail >= 8 else {
        throw diagnostic(
          at: key,
          "\(sheetWidth) pixels do not fit \(columns) columns (each needs 8 pixels, with \(gap) between them and at "
            + "both edges: \(columns * 8 + (columns + 1) * gap) pixels in all)")
      }
      let thumbnailHeight = Swift.max(1, Int((Double(thumbnail) * Double(height) / Double(width)).rounded()))
      let rows = (frames + columns - 1) / columns
      // At most 100 rows of thumbnails at most 65535 wide, of frames at most 16384:1: no overflow.
      let sheetHeight = gap + rows * (thumbnailHeight + OutputSizes.sheetLabelHeight(thumbnailWidth: thumbnail) + gap)
      try OutputSizes.check(
        sheetWidth, sheetHeight, what: "the contact sheet", key: key, side: OutputSizes.largestSide(of: .sheet), in: self,
        limits: limits)
    }
  }

  /// Throws when a video of one of `formats` (those a run writes: the job's,
  /// or `--format`'s) is over its codec's largest level
  /// (`OutputSizes.checkPlayable`), at the key that made it that big.
  public func checkPlayable(formats: [OutputFormat]) throws(Diagnostic) {
    for format in formats {
      guard let size = videoSize(of: format) else { continue }
      let (w, h) = videoSize(size)
      try OutputSizes.checkPlayable(format, w, h, key: videoSizeKey(format, size), in: self)
    }
  }

  /// The key a size error about the frame blames: the canvas's size (or
  /// device) as written; with a stage that makes the frame larger than
  /// the canvas, the stage's `size`, else its `padding`, else its `device`
  /// (else `stage` itself), which made it so.
  var canvasKey: String {
    if stage != nil, framePixelWidth > canvas.pixelWidth || framePixelHeight > canvas.pixelHeight {
      return ["stage.size", "stage.padding", "stage.device"].first { sizeSources[$0] != nil } ?? "stage"
    }
    // The canvas key the job wrote that sets its pixels; `canvas` where it
    // wrote none (the default device at its scale).
    return ["canvas.size", "canvas.device", "canvas.scale"].first { sizeSources[$0] != nil } ?? "canvas"
  }

  /// What the frame is, as messages about its size name it: the stage
  /// where it makes the frame larger than the canvas (`canvasKey` names a
  /// stage key), else the canvas.
  var frameName: String { canvasKey.hasPrefix("stage") ? "the stage" : "the canvas" }

  /// The key that makes `format`'s video `size`: its `width:` or `height:`,
  /// else the canvas's.
  func videoSizeKey(_ format: OutputFormat, _ size: VideoSize) -> String {
    size == VideoSize() ? canvasKey : "output.\(format.rawValue).\(size.width != nil ? "width" : "height")"
  }

  /// The GIF's frame size in pixels: `output.gif.width`, else one pixel
  /// per point (at least one pixel).
  public var gifSize: (width: Int, height: Int) {
    let width = output.gif.width ?? Swift.max(1, Int(frameSize.width.rounded()))
    let height = Swift.max(1, Int((Double(framePixelHeight) * Double(width) / Double(framePixelWidth)).rounded()))
    return (width, height)
  }

  /// The frames the contact sheet shows of a video of `frameCount` frames:
  /// `sheet.frames`, but no more than the video has (and at least one).
  public func sheetFrameCount(of frameCount: Int) -> Int {
    Swift.max(1, Swift.min(output.sheet.frames, frameCount))
  }

  /// The contact sheet's width in pixels for `columns` columns.
  public func sheetWidth(columns: Int) -> Int {
    let thumbnail = Swift.max(16, Int((frameSize.width / 2).rounded(.up)))
    return output.sheet.width ?? columns * thumbnail + (columns + 1) * OutputSizes.sheetGap
  }

  /// `KEY: message` at the key `key` names in `sizeSources`, or at the
  /// nearest enclosing key written in the file (`output.gif.width`, then
  /// `output.gif`, `output`), else at the top of the file.
  public func diagnostic(at key: String, _ message: String) -> Diagnostic {
    var path = key.split(separator: ".").map(String.init)
    while !path.isEmpty {
      let name = path.joined(separator: ".")
      if let location = sizeSources[name] { return Diagnostic(location, "\(name): \(message)") }
      path.removeLast()
    }
    return Diagnostic(SourceLocation(file: file, line: 1, column: 1), "\(key): \(message)")
  }

  /// The keys `sizeSources` records.
  static let sizeKeys = [
    ["canvas", "size"], ["canvas", "device"], ["canvas", "scale"], ["output", "gif", "width"],
    ["output", "sheet", "width"], ["output", "sheet", "frames"], ["output", "sheet", "columns"],
    ["output", "mp4", "width"], ["output", "mp4", "height"], ["output", "webm", "width"], ["output", "webm", "height"],
    ["output", "mov", "width"], ["output", "mov", "height"],
    ["output", "mp4", "maxBytes"], ["output", "webm", "maxBytes"], ["output", "gif", "maxBytes"],
    ["stage", "size"], ["stage", "padding"], ["stage", "device"],
  ]
}

public enum OutputSizes {
  /// Pixels between and around contact-sheet thumbnails.
  public static let sheetGap = 8
  /// The label strip under a thumbnail `thumbnailWidth` pixels wide, as
  /// `ContactSheet.layout` makes it (a label a twelfth of the thumbnail
  /// width, 10…40 px; a test holds the two equal for every width).
  public static func sheetLabelHeight(thumbnailWidth: Int) -> Int {
    let size = Double(Swift.min(Swift.max(thumbnailWidth / 12, 10), 40))
    return Int((size * 1.25).rounded(.up)) + 2 * Swift.max(3, Int(size / 5))
  }
  /// The most pixels a side of an image may have, and what sets that.
  struct Side {
    var pixels: Int
    /// Why, as the error gives it.
    var reason: String
  }

  /// The longest side `format`'s file may have: what its encoder, or
  /// transvid's writer, takes.
  static func largestSide(of format: OutputFormat) -> Side? {
    switch format {
    // x264 refuses either side over 16384 ("invalid width x height").
    case .mp4: Side(pixels: 16384, reason: "libx264 encodes no more")
    // VP9's largest level; libvpx fails to allocate frames past it.
    case .webm: Side(pixels: 16384, reason: "VP9's largest level, and libvpx, take no more")
    // `VideoWriter.checkEvenSize`: prores_ks itself would take more.
    case .mov: Side(pixels: 16384, reason: "transvid's ProRes writer takes no more")
    // libwebp's WEBP_MAX_DIMENSION (`WebPWriter`).
    case .webp: Side(pixels: 16383, reason: "libwebp encodes no more")
    case .gif: Side(pixels: 65535, reason: "GIF stores sides in 16 bits")
    // PNG stores 31 bits; the sheet keeps to a GIF's sides.
    case .sheet: Side(pixels: 65535, reason: "transvid's bound for a contact sheet")
    // Frames of the canvas, whose sides --max-side keeps to 16384 at most.
    case .png, .apng: nil
    }
  }
  /// FFmpeg's `av_image_check_size`: (w + 128)·(h + 128) < INT_MAX / 8.
  static func ffmpegAccepts(_ width: Int, _ height: Int) -> Bool {
    let (area, overflow) = (width + 128).multipliedReportingOverflow(by: height + 128)
    return !overflow && area < Int(Int32.max) / 8
  }

  /// H.264's largest level (6.2) decodes frames of at most 139 264
  /// macroblocks (8192 × 4352 pixels) and 16 880 pixels a side; VP9's (6.2)
  /// pictures of at most 35 651 584 pixels and 16 384 a side. Larger ones
  /// encode, but no player is bound to decode them, and the encoders take
  /// gigabytes for them (x264: 4.9 to 15 GB for 8192 × 8192 frames).
  static let h264MaxMacroblocks = 139_264
  static let vp9MaxPixels = 35_651_584

  /// Throws when a `width × height` video of `format` is over its codec's
  /// largest level.
  static func checkPlayable(_ format: OutputFormat, _ width: Int, _ height: Int, key: String, in spec: JobSpec) throws(Diagnostic) {
    let size = "\(width)x\(height) pixels"
    let advice = key.hasPrefix("output.") ? "give a smaller width or height" : "give output.\(format.rawValue).width or height"
    switch format {
    case .mp4:
      let macroblocks = ((width + 15) / 16) * ((height + 15) / 16)
      if macroblocks > h264MaxMacroblocks || Swift.max(width, height) > 16_880 {
        throw spec.diagnostic(
          at: key,
          "the mp4 would be \(size) (\(macroblocks) macroblocks); H.264's largest level decodes at most "
            + "\(h264MaxMacroblocks) (8192x4352) and 16880 per side, so players could not play it: \(advice)")
      }
    case .webm:
      if width * height > vp9MaxPixels || Swift.max(width, height) > 16_384 {
        throw spec.diagnostic(
          at: key,
          "the webm would be \(size); VP9's largest level decodes at most \(vp9MaxPixels) pixels (8192x4352) "
            + "and 16384 per side, so players could not play it: \(advice)")
      }
    default: break
    }
  }

  /// Throws unless a `width × height` image fits `limits`, its format's
  /// `side` and the encoders.
  static func check(
    _ width: Int, _ height: Int, what: String, key: String, side: Side? = nil, in spec: JobSpec, limits: JobLimits
  ) throws(Diagnostic) {
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    let budget = limits.maxSide * limits.maxSide
    let size = "\(width)x\(height) pixels"
    // The format's own limit, whatever --max-side allows.
    if let side, max(width, height) > side.pixels {
      throw spec.diagnostic(
        at: key, "\(what) would be \(size); at most \(side.pixels) per side (\(side.reason); --max-side cannot raise it)")
    }
    if overflow || pixels > budget {
      throw spec.diagnostic(
        at: key,
        "\(what) would be \(size); at most \(budget) pixels (\(limits.maxSide)x\(limits.maxSide))"
          + (side.map { " and \($0.pixels) per side" } ?? "") + " (\(limits.maxSideAdvice))")
    }
    if !ffmpegAccepts(width, height) {
      throw spec.diagnostic(
        at: key, "\(what) would be \(size); FFmpeg encodes at most (width + 128)·(height + 128) < 268435455")
    }
  }
}
