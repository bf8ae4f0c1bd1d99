import CFFmpeg
import Raster

// Owners of FFmpeg objects. Each is a final class that holds one pointer for
// its whole life and frees it in `deinit`, so every exit path (return, throw,
// early release) frees exactly once. None of them leaves the module.

/// An owned `AVFrame`.
package final class Frame {
  package let pointer: UnsafeMutablePointer<AVFrame>

  package init() throws(MediaError) {
    pointer = try allocated(av_frame_alloc(), "av_frame_alloc")
  }

  /// A frame with its own buffers for `width × height` pixels of `format`.
  convenience init(width: Int, height: Int, format: AVPixelFormat) throws(MediaError) {
    try self.init()
    pointer.pointee.width = Int32(width)
    pointer.pointee.height = Int32(height)
    pointer.pointee.format = format.rawValue
    try check(av_frame_get_buffer(pointer, 0), "allocate \(width)×\(height) frame")
  }

  deinit {
    var p: UnsafeMutablePointer<AVFrame>? = pointer
    av_frame_free(&p)
  }

  /// Calls `body` with the plane pointers and line sizes as C arrays.
  func withPlanes<R>(
    _ body: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, UnsafePointer<Int32>) throws -> R
  ) rethrows -> R {
    try withUnsafePointer(to: &pointer.pointee.data) { data in
      try withUnsafePointer(to: &pointer.pointee.linesize) { lines in
        try data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { d in
          try lines.withMemoryRebound(to: Int32.self, capacity: 8) { l in try body(d, l) }
        }
      }
    }
  }
}

/// An owned `AVPacket`.
package final class Packet {
  package let pointer: UnsafeMutablePointer<AVPacket>

  package init() throws(MediaError) {
    try FFmpegLibrary.codec.require()
    pointer = try allocated(av_packet_alloc(), "av_packet_alloc")
  }

  deinit {
    var p: UnsafeMutablePointer<AVPacket>? = pointer
    av_packet_free(&p)
  }
}

/// An owned `AVCodecContext`. The heap is filled while it lives (`HeapFill`):
/// whatever the codec allocates, and the frames given to it or taken from
/// it after it was made.
package final class CodecContext {
  package let pointer: UnsafeMutablePointer<AVCodecContext>
  private let fill = HeapFill.Hold()

  package init(codec: UnsafePointer<AVCodec>) throws(MediaError) {
    try FFmpegLibrary.codec.require()
    pointer = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
  }

  deinit {
    var p: UnsafeMutablePointer<AVCodecContext>? = pointer
    avcodec_free_context(&p)
  }
}

/// An owned `SwsContext`, re-created when the source geometry or format changes.
package final class Scaler {
  private var context: OpaquePointer?
  private var key: Key?

  private struct Key: Equatable {
    var width: Int32, height: Int32, source: Int32, destination: Int32
    var matrix: Int32, fullRange: Bool
  }

  /// Flags used everywhere: bicubic chroma filters (down- and upsampling),
  /// accurate rounding, full chroma interpolation on RGB output, and bit-exact
  /// C paths so that the same input gives the same pixels on any CPU.
  ///
  /// Measured on the synthetic clip of MediaTests (128×96, sharp coloured
  /// edges, crf 18): bicubic upsampling on decode gains 1.5–2.5 dB PSNR over
  /// bilinear; on encode, bicubic, bilinear and area are within 0.5 dB, and
  /// `SWS_FULL_CHR_H_INP` loses 0.5 dB.
  static let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_BITEXACT

  package init() {}

  deinit { sws_freeContext(context) }

  /// Converts `source` (any format FFmpeg decodes) to packed RGBA, straight
  /// alpha, full range. YUV sources use `frame.colorspace` and
  /// `frame.color_range`; an unspecified matrix means `defaultMatrix`
  /// (`SWS_CS_ITU709` for transvid's videos, `SWS_CS_ITU601` for JPEG/WebP).
  /// 16-bit grey and RGB, with or without alpha, are scaled to 8 bits as
  /// libpng scales them (`SixteenBitSamples`), not by swscale.
  package func rgba(from source: Frame, defaultMatrix: Int32) throws(MediaError) -> Bitmap {
    if let bitmap = SixteenBitSamples.rgba(from: source) ?? PackedColorSamples.rgba(from: source) { return bitmap }
    let f = source.pointer.pointee
    let width = Int(f.width), height = Int(f.height)
    guard width > 0, height > 0, let format = AVPixelFormat(rawValue: f.format).nonNone,
      let desc = av_pix_fmt_desc_get(format)
    else { throw MediaError("convert frame", "decoder returned an empty or unknown frame") }
    let isYUV = desc.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 && desc.pointee.nb_components >= 3
    let matrix = isYUV ? Self.matrix(f.colorspace, default: defaultMatrix) : -1
    let fullRange = f.color_range == AVCOL_RANGE_JPEG || Self.isJPEGFormat(format)
    try configure(
      Key(
        width: f.width, height: f.height, source: f.format,
        destination: AV_PIX_FMT_RGBA.rawValue, matrix: matrix, fullRange: fullRange),
      operation: "convert \(String(cString: desc.pointee.name)) to RGBA")
    // Not filled first: swscale writes every byte of packed RGBA (alpha 255
    // where the source has none), and a 12 Mpx photo's 48 MB are then
    // written once instead of twice.
    var rows: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
      rows = source.withPlanes { planes, lines in
        planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
          // swscale reads four planes' pointers and strides.
          let dst: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
          let stride: [Int32] = [Int32(width * 4), 0, 0, 0]
          return sws_scale(context, src, lines, 0, f.height, dst, stride)
        }
      }
      count = rows == f.height ? out.count : 0
    }
    guard rows == f.height else {
      throw MediaError("convert frame to RGBA", code: rows < 0 ? rows : cff_averror(EINVAL))
    }
    // The size was checked above, so this cannot fail.
    return Bitmap(width: width, height: height, bytes: bytes)!
  }

  /// Converts premultiplied RGBA (taken as composited over black: the colour
  /// bytes are used as they are, alpha is dropped) into `destination`, a
  /// limited-range BT.709 YUV frame of the same size.
  func yuv(from source: Bitmap, into destination: Frame) throws(MediaError) {
    let d = destination.pointer.pointee
    try configure(
      Key(
        width: d.width, height: d.height, source: AV_PIX_FMT_RGBA.rawValue,
        destination: d.format, matrix: SWS_CS_ITU709, fullRange: false),
      operation: "create RGBA to YUV converter")
    let rows = source.bytes.withUnsafeBufferPointer { src in
      destination.withPlanes { planes, lines in
        let s: [UnsafePointer<UInt8>?] = [src.baseAddress, nil, nil, nil]
        let stride: [Int32] = [Int32(source.stride), 0, 0, 0]
        return sws_scale(context, s, stride, 0, Int32(source.height), planes, lines)
      }
    }
    guard rows == d.height else {
      throw MediaError("convert RGBA to YUV", code: rows < 0 ? rows : cff_averror(EINVAL))
    }
  }

  private func configure(_ wanted: Key, operation: @autoclosure () -> String) throws(MediaError) {
    if key == wanted, context != nil { return }
    sws_freeContext(context)
    key = nil
    context = sws_getContext(
      wanted.width, wanted.height, AVPixelFormat(rawValue: wanted.source),
      wanted.width, wanted.height, AVPixelFormat(rawValue: wanted.destination),
      Self.flags, nil, nil, nil)
    guard let context else { throw MediaError(operation(), code: cff_averror(EINVAL)) }
    if wanted.matrix >= 0 {
      // YUV → RGB: the source matrix and range matter (inv_table, srcRange).
      // RGB → YUV: the destination's do (table, dstRange). Setting both
      // covers either direction; the RGB side is always full range.
      let coefficients = sws_getCoefficients(wanted.matrix)
      let isYUVSource = wanted.destination == AV_PIX_FMT_RGBA.rawValue
      let yuvRange: Int32 = wanted.fullRange ? 1 : 0
      try check(
        sws_setColorspaceDetails(
          context, coefficients, isYUVSource ? yuvRange : 1, coefficients,
          isYUVSource ? 1 : yuvRange, 0, 1 << 16, 1 << 16),
        operation())
    }
    key = wanted
  }

  private static func matrix(_ space: AVColorSpace, default fallback: Int32) -> Int32 {
    switch space {
    case AVCOL_SPC_BT709: SWS_CS_ITU709
    case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: SWS_CS_ITU601
    case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
    case AVCOL_SPC_FCC: SWS_CS_FCC
    case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
    default: fallback
    }
  }

  private static func isJPEGFormat(_ format: AVPixelFormat) -> Bool {
    switch format {
    case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P,
      AV_PIX_FMT_YUVJ411P:
      true
    default: false
    }
  }
}

extension AVPixelFormat {
  /// `nil` for `AV_PIX_FMT_NONE`.
  var nonNone: AVPixelFormat? { self == AV_PIX_FMT_NONE ? nil : self }
}
