import CFFmpeg
import Raster

/// What `GIFWriter.write` produced.
public struct GIFSummary: Hashable, Sendable {
  /// Images stored in the file (identical consecutive frames are merged into
  /// one image with a longer delay).
  public var frames: Int
  /// Frames of the clip that went in.
  public var sourceFrames: Int
  /// The delay of each stored image, in centiseconds.
  public var delays: [Int]
  /// Size in pixels.
  public var width: Int, height: Int
  /// Size of the file in bytes.
  public var bytes: Int

  /// Length in seconds: the sum of the delays.
  public var duration: Double { Double(delays.reduce(0, +)) / 100 }
}

/// Encodes a clip as an animated GIF with libavcodec's `gif` encoder and
/// libavformat's `gif` muxer, quantised by libavfilter's `palettegen` and
/// `paletteuse` (a filter graph built through the library).
///
/// Pipeline, per frame: resize (Lanczos, `Resampler`) to the output size →
/// opaque BGRA (colour bytes as they are, i.e. composited over black, like the
/// MP4 writer) → compare with the previous frame: identical frames are
/// merged into one image → `paletteuse` → `gif` encoder → muxer.
///
/// Palette. Global (default): pass 1 feeds every distinct frame to
/// `palettegen` (statistics `full` or `diff`, `max_colors`, one entry reserved
/// for transparency) and takes its palette at the end; pass 2 maps every frame
/// to it with `paletteuse` and `diff_mode=rectangle`, which re-dithers only
/// the rectangle that changed since the previous frame and copies the rest,
/// so static areas never flicker. The encoder (`gifflags
/// offsetting+transdiff`) then stores only the bounding box of the changed
/// pixels and writes the reserved transparent index over pixels that did not
/// change, which LZW compresses to almost nothing. Per-frame palettes: one
/// pass through `split → palettegen=stats_mode=single → paletteuse=new=1`.
///
/// Because of the two passes, `frame` is called up to twice per frame (once
/// per distinct frame in pass 2) and must return the same pixels each time;
/// distinct frames are kept in memory between the passes up to
/// `cacheBytes`, the rest are asked for again.
///
/// Timing: frame `i` is shown from `i / fps` s; delays are whole centiseconds
/// with the rounding carried (`GIFTiming`), so the file lasts
/// `round(100 · frameCount / fps)` cs. `fps` must be 1…50 (2 cs minimum).
/// Packets carry their start time in a 1/100 time base, which is what the
/// muxer turns into each image's delay; the last image's delay is the muxer's
/// `final_delay`.
///
/// The file is written to a temp file beside `path` and renamed onto it when
/// complete; on any error `path` is left as it was. Output is deterministic:
/// `fflags +bitexact`, `AV_CODEC_FLAG_BITEXACT`, a single-threaded graph.
public enum GIFWriter {
  /// A GIF on a page is an animated `<img>`.
  public static let fileType = OutputFileType(fileExtension: "gif", mimeType: "image/gif", presentation: .animation)

  /// Distinct resized frames kept between the passes (bytes).
  public static let cacheBytes = 256 << 20

  /// Renders the clip and writes the GIF. See the type's documentation.
  ///
  /// - Parameters:
  ///   - frameCount: frames in the clip (at least 1).
  ///   - fps: frames per second, 1…50.
  ///   - frame: frame `i` of the clip, any size (the same for every frame);
  ///     resized to `options.width × options.height` when those are set.
  @discardableResult
  public static func write(
    to path: String, frameCount: Int, fps: Int, options: GIFOptions = GIFOptions(),
    frame: (Int) throws -> Bitmap
  ) throws -> GIFSummary {
    MediaLog.setUp()
    let what = "GIF '\(path)'"
    guard frameCount > 0 else { throw MediaError("write \(what)", "no frames") }
    guard (1...GIFTiming.maximumFPS).contains(fps) else {
      throw MediaError("write \(what)", "fps \(fps) is not in 1…50 (GIF delays are at least 2 cs)")
    }
    guard (4...256).contains(options.maxColors) else {
      throw MediaError("write \(what)", "max colors \(options.maxColors) is not in 4…256")
    }
    guard (0...5).contains(options.bayerScale) else {
      throw MediaError("write \(what)", "bayer scale \(options.bayerScale) is not in 0…5")
    }
    if case .repeat(let n) = options.loop, !(0...65535).contains(n) {
      throw MediaError("write \(what)", "loop count \(n) is not in 0…65535")
    }

    // Pass 1: resize, merge identical frames, gather palette statistics.
    let first = try frame(0)
    let width = options.width ?? first.width, height = options.height ?? first.height
    guard (1...65535).contains(width), (1...65535).contains(height) else {
      throw MediaError("write \(what)", "size \(width)×\(height) is not in 1…65535")
    }
    let frames = try GIFFrames(
      sourceWidth: first.width, sourceHeight: first.height, width: width, height: height)
    let statistics: FilterGraph? =
      options.palette == .global
      ? try FilterGraph(
        "[in]palettegen=max_colors=\(options.maxColors):reserve_transparent=1"
          + ":stats_mode=\(options.statistics.rawValue)[out]",
        inputs: [frames.input])
      : nil
    var runs: [Range<Int>] = []
    var cache: [[UInt8]] = []
    var previous: [UInt8] = []
    for i in 0..<frameCount {
      let pixels = try frames.resize(i == 0 ? first : try frame(i))
      if !runs.isEmpty && pixels == previous {
        runs[runs.count - 1] = runs[runs.count - 1].lowerBound..<(i + 1)
        continue
      }
      runs.append(i..<(i + 1))
      try statistics?.push(frames.frame(pixels, pts: 0), to: "in")
      if (cache.count + 1) * pixels.count <= cacheBytes { cache.append(pixels) }
      previous = pixels
    }
    previous = []

    // Pass 2: map to the palette(s), encode, mux.
    let mapping: FilterGraph
    let paletteOptions = "dither=\(options.dither.rawValue):bayer_scale=\(options.bayerScale)"
    if let statistics {
      try statistics.push(nil, to: "in")
      let palette = try Frame()
      guard try statistics.pull(into: palette) else {
        throw MediaError("write \(what)", "palettegen returned no palette")
      }
      mapping = try FilterGraph(
        "[in][palette]paletteuse=\(paletteOptions):diff_mode=rectangle[out]",
        inputs: [
          frames.input,
          FilterGraph.Input(
            name: "palette", width: Int(palette.pointer.pointee.width),
            height: Int(palette.pointer.pointee.height),
            format: AVPixelFormat(rawValue: palette.pointer.pointee.format)),
        ])
      palette.pointer.pointee.pts = 0
      try mapping.push(palette, to: "palette")
      try mapping.push(nil, to: "palette")
    } else {
      mapping = try FilterGraph(
        "[in]split[a][b];[a]palettegen=max_colors=\(options.maxColors):reserve_transparent=1"
          + ":stats_mode=single[p];[b][p]paletteuse=\(paletteOptions):new=1[out]",
        inputs: [frames.input])
    }
    let delays = runs.map { GIFTiming.delay(of: $0, fps: fps) }
    let muxer = try gifEncoder(
      path: path, width: width, height: height, loop: options.muxerLoop, finalDelay: delays[delays.count - 1])
    let mapped = try Frame()
    for (k, run) in runs.enumerated() {
      let pixels = k < cache.count ? cache[k] : try frames.resize(try frame(run.lowerBound))
      let pts = GIFTiming.centiseconds(beforeFrame: run.lowerBound, fps: fps)
      try mapping.push(frames.frame(pixels, pts: Int64(pts)), to: "in")
      while try mapping.pull(into: mapped) { try muxer.encode(mapped) }
    }
    try mapping.push(nil, to: "in")
    while try mapping.pull(into: mapped) { try muxer.encode(mapped) }
    let bytes = try muxer.finish()
    return GIFSummary(
      frames: runs.count, sourceFrames: frameCount, delays: delays, width: width, height: height,
      bytes: bytes)
  }
}

/// Turns `Bitmap`s into the opaque BGRA frames the palette filters take.
private final class GIFFrames {
  let input: FilterGraph.Input
  private let resampler: Resampler
  private let frame: Frame
  private let width: Int, height: Int

  init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws(MediaError) {
    self.width = width
    self.height = height
    // palettegen/paletteuse take AV_PIX_FMT_RGB32, which is BGRA in memory on
    // little-endian machines (transvid's targets).
    resampler = try Resampler(from: sourceWidth, sourceHeight, to: width, height, format: AV_PIX_FMT_BGRA)
    frame = try Frame(width: width, height: height, format: AV_PIX_FMT_BGRA)
    input = FilterGraph.Input(name: "in", width: width, height: height, format: AV_PIX_FMT_BGRA)
  }

  /// `bitmap` resized to packed opaque BGRA bytes.
  func resize(_ bitmap: Bitmap) throws(MediaError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    try bytes.withUnsafeMutableBufferPointer { (p) throws(MediaError) in
      try resampler.resize(bitmap, into: p.baseAddress!, stride: width * 4)
      // Composited over black: premultiplied colour as it is, alpha opaque.
      // (paletteuse maps alpha < 128 to the transparent entry otherwise.)
      var i = 3
      while i < p.count {
        p[i] = 255
        i += 4
      }
    }
    return bytes
  }

  /// The shared frame, holding `pixels`, stamped `pts` centiseconds.
  func frame(_ pixels: [UInt8], pts: Int64) throws(MediaError) -> Frame {
    try check(av_frame_make_writable(frame.pointer), "make frame writable")
    let stride = Int(frame.pointer.pointee.linesize.0)
    guard let rows = frame.pointer.pointee.data.0 else {
      throw MediaError("fill GIF frame", "frame has no pixel buffer")
    }
    pixels.withUnsafeBufferPointer { p in
      for y in 0..<height {
        (rows + y * stride).update(from: p.baseAddress! + y * width * 4, count: width * 4)
      }
    }
    frame.pointer.pointee.pts = pts
    return frame
  }
}

/// The `gif` encoder and muxer (`MuxedEncoder`) writing PAL8 images timed
/// in centiseconds: each image stores only the rectangle that changed, with
/// unchanged pixels transparent (`gifflags offsetting+transdiff`).
private func gifEncoder(path: String, width: Int, height: Int, loop: Int, finalDelay: Int) throws(MediaError)
  -> MuxedEncoder
{
  try MuxedEncoder(
    path: path,
    encoding: Encoding(
      container: "gif", codec: "gif", pixelFormat: .pal8, width: width, height: height, timeBase: (1, 100),
      frameRate: nil, codecOptions: [("gifflags", "offsetting+transdiff")],
      muxerOptions: [("loop", "\(loop)"), ("final_delay", "\(finalDelay)")], what: "GIF '\(path)'"))
}
