import CFFmpeg
import Raster

/// Resizes premultiplied RGBA bitmaps with libswscale's Lanczos filter.
///
/// Premultiplied colour is the right thing to filter (a transparent pixel adds
/// nothing to its neighbours). The flags are those of `Scaler` plus full
/// chroma on input: an RGB → RGB resize goes through swscale's internal
/// planar form, and without `SWS_FULL_CHR_H_INP` it would halve the
/// horizontal colour resolution. `scripts/gif-quality` gives FFmpeg's `scale`
/// filter the same flags (`lanczos+accurate_rnd+full_chroma_int+
/// full_chroma_inp+bitexact`) so that both pipelines start from the same pixels.
///
/// Opaque BGRA (`resizeToOpaqueBGRA`, the GIF writer's frames) is written by
/// swscale as planar G, B, R and interleaved here: swscale's planar writer
/// gives exactly the colour bytes of its packed BGRA writer (the same
/// filter, the same rounding; the packed full-chroma writer is a per-pixel C
/// loop, ~2.7× slower for the whole resize), and alpha is set opaque anyway.
public final class Resampler {
  /// The swscale flags for resizing.
  static let flags =
    SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP | SWS_BITEXACT

  let sourceWidth: Int, sourceHeight: Int
  let width: Int, height: Int
  let destinationFormat: AVPixelFormat
  private let context: OpaquePointer

  /// A resizer from `sourceWidth × sourceHeight` RGBA to `width × height`
  /// pixels of `format` (`AV_PIX_FMT_RGBA` or `AV_PIX_FMT_BGRA`; with
  /// `AV_PIX_FMT_GBRP`, only `resizeToOpaqueBGRA`).
  init(
    from sourceWidth: Int, _ sourceHeight: Int, to width: Int, _ height: Int,
    format: AVPixelFormat = AV_PIX_FMT_RGBA
  ) throws(MediaError) {
    self.sourceWidth = sourceWidth
    self.sourceHeight = sourceHeight
    self.width = width
    self.height = height
    destinationFormat = format
    guard
      let context = sws_getContext(
        Int32(sourceWidth), Int32(sourceHeight), AV_PIX_FMT_RGBA, Int32(width), Int32(height),
        format, Self.flags, nil, nil, nil)
    else {
      throw MediaError(
        "resize \(sourceWidth)×\(sourceHeight) to \(width)×\(height)", code: cff_averror(EINVAL))
    }
    self.context = context
  }

  /// A resizer from `sourceWidth × sourceHeight` to `width × height`, RGBA
  /// both (premultiplied stays premultiplied).
  public convenience init(resizing sourceWidth: Int, _ sourceHeight: Int, to width: Int, _ height: Int)
    throws(MediaError)
  {
    try self.init(from: sourceWidth, sourceHeight, to: width, height, format: AV_PIX_FMT_RGBA)
  }

  deinit { sws_freeContext(context) }

  /// The G, B and R planes of `resizeToOpaqueBGRA`, kept between frames.
  private var planes: [UInt8] = []

  /// Resizes `source` into `destination` (`width × height × 4` bytes, packed
  /// rows) as opaque BGRA: the colour bytes swscale's packed BGRA output
  /// has, alpha 255. This resizer's format must be `AV_PIX_FMT_GBRP`.
  public func resizeToOpaqueBGRA(_ source: Bitmap, into destination: UnsafeMutablePointer<UInt8>)
    throws(MediaError)
  {
    precondition(destinationFormat == AV_PIX_FMT_GBRP, "resizeToOpaqueBGRA needs a GBRP resizer")
    guard source.width == sourceWidth, source.height == sourceHeight else {
      throw MediaError(
        "resize frame", "frame is \(source.width)×\(source.height), expected \(sourceWidth)×\(sourceHeight)")
    }
    let count = width * height
    if planes.isEmpty { planes = [UInt8](repeating: 0, count: 3 * count) }
    let rows = source.bytes.withUnsafeBufferPointer { src in
      planes.withUnsafeMutableBufferPointer { planes in
        let g = planes.baseAddress!, b = g + count, r = b + count
        var s: [UnsafePointer<UInt8>?] = [src.baseAddress, nil, nil, nil]
        var sStride: [Int32] = [Int32(source.stride), 0, 0, 0]
        var d: [UnsafeMutablePointer<UInt8>?] = [g, b, r, nil]
        var dStride: [Int32] = [Int32(width), Int32(width), Int32(width), 0]
        let rows = sws_scale(context, &s, &sStride, 0, Int32(sourceHeight), &d, &dStride)
        let out = UnsafeMutableRawPointer(destination)
        for i in 0..<count {
          let bgra = UInt32(b[i]) | UInt32(g[i]) << 8 | UInt32(r[i]) << 16 | 0xFF00_0000
          out.storeBytes(of: bgra.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
        }
        return rows
      }
    }
    guard rows == Int32(height) else {
      throw MediaError("resize frame", code: rows < 0 ? rows : cff_averror(EINVAL))
    }
  }

  /// Resizes `source` into `destination` (`width × height × 4` bytes, packed
  /// rows).
  public func resize(_ source: Bitmap, into destination: UnsafeMutablePointer<UInt8>, stride: Int)
    throws(MediaError)
  {
    guard source.width == sourceWidth, source.height == sourceHeight else {
      throw MediaError(
        "resize frame", "frame is \(source.width)×\(source.height), expected \(sourceWidth)×\(sourceHeight)")
    }
    let rows = source.bytes.withUnsafeBufferPointer { src in
      var s: UnsafePointer<UInt8>? = src.baseAddress
      var sStride = Int32(source.stride)
      var d: UnsafeMutablePointer<UInt8>? = destination
      var dStride = Int32(stride)
      return sws_scale(context, &s, &sStride, 0, Int32(sourceHeight), &d, &dStride)
    }
    guard rows == Int32(height) else {
      throw MediaError("resize frame", code: rows < 0 ? rows : cff_averror(EINVAL))
    }
  }

  /// `source` resized to a new RGBA bitmap (this resizer's format must be RGBA).
  func resized(_ source: Bitmap) throws(MediaError) -> Bitmap {
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    try bytes.withUnsafeMutableBufferPointer { (p) throws(MediaError) in
      try resize(source, into: p.baseAddress!, stride: width * 4)
    }
    return Bitmap(width: width, height: height, bytes: bytes)!
  }
}
