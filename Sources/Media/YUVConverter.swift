import CFFmpeg
import Raster

// Colour conversion off the encoder's thread: a converted frame (`YUVFrame`)
// is what `VideoWriter.append(_: YUVFrame)` encodes, and `YUVConverter` fills it
// from a `Bitmap` (Raster's `YUV420Converter`, bands of rows over threads).
// A renderer pipeline keeps a few of each (one converter per worker, a small
// pool of frames) and reuses them for every frame of a video.

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

  /// Whether `other` holds the same picture: every row of its three planes
  /// the same bytes (`memcmp`, as `Bitmap`'s `==`; the rows' padding
  /// aside). A variable-rate video holds a frame that equals the one before
  /// (`FramePipeline`'s `comparing`).
  public func hasSamePixels(as other: YUVFrame) -> Bool {
    guard other !== self else { return true }
    guard width == other.width, height == other.height else { return false }
    return frame.withPlanes { a, aLines in
      other.frame.withPlanes { b, bLines in
        for plane in 0..<3 {
          let w = plane == 0 ? width : width / 2, h = plane == 0 ? height : height / 2
          for y in 0..<h where memcmp(a[plane]! + y * Int(aLines[plane]), b[plane]! + y * Int(bLines[plane]), w) != 0 {
            return false
          }
        }
        return true
      }
    }
  }
}

/// Converts premultiplied RGBA bitmaps (colour bytes as they are, i.e. over
/// black; alpha dropped) to limited-range BT.709 yuv420p, byte for byte as
/// `VideoWriter.append(_: Bitmap)` does with swscale, by Raster's
/// `YUV420Converter` (swscale's bit-exact arithmetic in SIMD, a fraction of
/// its time) with bands of rows spread over `threads` threads.
///
/// The output does not depend on `threads` (`YUVConverterTests` compares it
/// with swscale's single-threaded converter byte for byte).
///
/// Not thread-safe: one thread at a time.
public final class YUVConverter: @unchecked Sendable {
  /// Size in pixels.
  public let width: Int, height: Int
  /// Threads the bands of rows are spread over.
  public let threads: Int
  private let converter: YUV420Converter

  public init(width: Int, height: Int, threads: Int = 1) throws {
    let what = "create \(width)×\(height) RGBA to YUV converter"
    guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
      throw MediaError(what, "size is not even and positive")
    }
    guard threads >= 1 else { throw MediaError(what, "threads \(threads) is not positive") }
    self.width = width
    self.height = height
    self.threads = threads
    converter = YUV420Converter(width: width, height: height)
  }

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
    let planes = frame.frame.withPlanes { data, lines in
      YUVPlanes(
        y: data[0]!, yStride: Int(lines[0]), u: data[1]!, uStride: Int(lines[1]), v: data[2]!, vStride: Int(lines[2]))
    }
    converter.convert(bitmap, into: planes, threads: threads)
  }
}
