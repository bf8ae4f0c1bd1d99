import CFFmpeg
import Raster

// Colour conversion off the encoder's thread: a converted frame (`YUVFrame`)
// is what `VideoWriter.append(_: YUVFrame)` encodes, and `YUVConverter` fills it
// from a `Bitmap`, with swscale's own slice threads. A renderer pipeline keeps
// a few of each (one converter per worker, a small pool of frames) and reuses
// them for every frame of a video.

/// A yuv420p frame (BT.709, limited range) of a fixed size, for
/// `VideoWriter.append(_: YUVFrame)`. Its buffers are allocated once.
///
/// Not thread-safe: one thread at a time (a pipeline hands it from the worker
/// that converts into it to the thread that encodes it).
public final class YUVFrame: @unchecked Sendable {
  let frame: Frame
  /// Size in pixels.
  public let width: Int, height: Int

  /// A frame with its own buffers. Sizes must be even (yuv420p).
  public init(width: Int, height: Int) throws {
    guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
      throw MediaError("allocate YUV frame", "size \(width)×\(height) is not even and positive")
    }
    self.width = width
    self.height = height
    frame = try Frame(width: width, height: height, format: AV_PIX_FMT_YUV420P)
  }

  /// The Y, U and V planes one after another without row padding: raw
  /// yuv420p, as FFmpeg's `rawvideo` reads it (benchmarks and tests).
  public func planarBytes() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 3 / 2)
    frame.withPlanes { data, lines in
      for plane in 0..<3 {
        let w = plane == 0 ? width : width / 2, h = plane == 0 ? height : height / 2
        for y in 0..<h { bytes.append(contentsOf: UnsafeBufferPointer(start: data[plane]! + y * Int(lines[plane]), count: w)) }
      }
    }
    return bytes
  }
}

/// Converts premultiplied RGBA bitmaps (colour bytes as they are, i.e. over
/// black; alpha dropped) to limited-range BT.709 yuv420p, exactly as
/// `VideoWriter.append(_: Bitmap)` does, with the rows split over `threads`
/// (swscale's slice threads, `sws_scale_frame`).
///
/// The output does not depend on `threads`: each slice context computes its
/// own output rows from the whole source (the vertical chroma filter reads
/// across slice edges), with the same bit-exact C paths (`MP4Tests` compares
/// it with the single-threaded converter byte for byte).
///
/// Not thread-safe: one thread at a time.
public final class YUVConverter: @unchecked Sendable {
  /// Size in pixels.
  public let width: Int, height: Int
  /// swscale slice threads.
  public let threads: Int
  private let context: OpaquePointer
  private let source: Frame

  public init(width: Int, height: Int, threads: Int = 1) throws {
    let what = "create \(width)×\(height) RGBA to YUV converter"
    guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
      throw MediaError(what, "size is not even and positive")
    }
    guard threads >= 1 else { throw MediaError(what, "threads \(threads) is not positive") }
    self.width = width
    self.height = height
    self.threads = threads
    guard let c = sws_alloc_context() else { throw MediaError(what, code: cff_averror(ENOMEM)) }
    do {
      let raw = UnsafeMutableRawPointer(c)
      try check(av_opt_set_int(raw, "srcw", Int64(width), 0), what)
      try check(av_opt_set_int(raw, "srch", Int64(height), 0), what)
      try check(av_opt_set_int(raw, "src_format", Int64(AV_PIX_FMT_RGBA.rawValue), 0), what)
      try check(av_opt_set_int(raw, "dstw", Int64(width), 0), what)
      try check(av_opt_set_int(raw, "dsth", Int64(height), 0), what)
      try check(av_opt_set_int(raw, "dst_format", Int64(AV_PIX_FMT_YUV420P.rawValue), 0), what)
      try check(av_opt_set_int(raw, "sws_flags", Int64(Scaler.flags), 0), what)
      try check(av_opt_set_int(raw, "threads", Int64(threads), 0), what)
      try check(sws_init_context(c, nil, nil), what)
      // As `Scaler`: RGB side full range, YUV side limited, BT.709 both ways.
      let coefficients = sws_getCoefficients(SWS_CS_ITU709)
      try check(sws_setColorspaceDetails(c, coefficients, 1, coefficients, 0, 0, 1 << 16, 1 << 16), what)
      source = try Frame()
    } catch {
      var p: OpaquePointer? = c
      sws_freeContext(p)
      p = nil
      throw error
    }
    context = c
  }

  deinit { sws_freeContext(context) }

  /// Converts `bitmap` (this converter's size) into `frame` (the same size).
  public func convert(_ bitmap: Bitmap, into frame: YUVFrame) throws {
    guard bitmap.width == width, bitmap.height == height, frame.width == width, frame.height == height else {
      throw MediaError(
        "convert RGBA to YUV",
        "bitmap \(bitmap.width)×\(bitmap.height) or frame \(frame.width)×\(frame.height) is not \(width)×\(height)")
    }
    let dst = frame.frame.pointer
    // Normally a no-op: the encoder has let go of the frame's buffers by the
    // time a pipeline reuses it. If it has not, this copies rather than races.
    try check(av_frame_make_writable(dst), "make frame writable")
    try bitmap.bytes.withUnsafeBufferPointer { (bytes) throws(MediaError) in
      // `sws_scale_frame` takes a reference to its source: wrap the bitmap's
      // bytes in a buffer that frees nothing (they outlive the call), so it
      // neither copies them nor needs an allocation of their size.
      let base = UnsafeMutablePointer(mutating: bytes.baseAddress!)
      guard
        let buffer = av_buffer_create(base, bytes.count, { _, _ in }, nil, Int32(AV_BUFFER_FLAG_READONLY))
      else { throw MediaError("wrap RGBA frame", code: cff_averror(ENOMEM)) }
      let src = source.pointer
      defer { av_frame_unref(src) }
      src.pointee.buf.0 = buffer
      src.pointee.data.0 = base
      src.pointee.linesize.0 = Int32(bitmap.stride)
      src.pointee.width = Int32(width)
      src.pointee.height = Int32(height)
      src.pointee.format = AV_PIX_FMT_RGBA.rawValue
      try check(sws_scale_frame(context, dst, src), "convert RGBA to YUV")
    }
  }
}
