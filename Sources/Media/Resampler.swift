import CFFmpeg
import Dispatch
import Glibc
import Raster
import Synchronization

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
/// Alpha is resized as a plane of its own (`ResampledAlpha`): swscale's
/// packed RGBA path rounds every alpha from 128 to 254 one level high (a
/// half see-through screen's 128 as 129, its colour a level darker once
/// unpremultiplied), where its grey path keeps the level.
///
/// Opaque BGRA (`resizeToOpaqueBGRA`, the GIF writer's frames) is written by
/// swscale as planar G, B, R and interleaved here: swscale's planar writer
/// gives exactly the colour bytes of its packed BGRA writer (the same
/// filter, the same rounding; the packed full-chroma writer is a per-pixel C
/// loop, ~2.7× slower for the whole resize), and alpha is set opaque anyway.
/// It keeps the planes and the frame they came from (a reference: a caller
/// that draws its frames into two bitmaps in turn copies neither), so the
/// next frame is resized only in the rows where it differs.
///
/// Where `LanczosResizer` takes the sizes (all but cascades and tiny
/// frames), opaque BGRA is its work instead: swscale's bytes, computed by
/// transvid's own kernels, with the last frame's output kept alike.
public final class Resampler {
  /// The swscale flags for resizing.
  static let flags =
    SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP | SWS_BITEXACT

  let sourceWidth: Int, sourceHeight: Int
  let width: Int, height: Int
  let destinationFormat: AVPixelFormat
  private let context: OpaquePointer
  /// transvid's own kernels for `resizeToOpaqueBGRA` (nil: swscale's).
  var resizer: LanczosResizer?
  /// The own kernels' last output, and the frame it came from.
  private var output: [UInt8] = []
  private var outputSource: Bitmap?
  /// The context for the lower half of a band split in two (`scale`),
  /// made when first needed.
  private var lowerContext: OpaquePointer?
  /// Whether bands of at least `splitRows` output rows are resized in two
  /// halves at once; off only to test that the bytes are the same.
  var splitsBands = true
  static let splitRows = 64

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
    guard let context = Self.makeContext(sourceWidth, sourceHeight, width, height, format) else {
      throw MediaError(
        "resize \(sourceWidth)×\(sourceHeight) to \(width)×\(height)", code: cff_averror(EINVAL))
    }
    self.context = context
    if format == AV_PIX_FMT_GBRP { resizer = LanczosResizer(from: sourceWidth, sourceHeight, to: width, height) }
  }

  /// A swscale context for this resize (nil: swscale refused the sizes).
  private static func makeContext(
    _ sourceWidth: Int, _ sourceHeight: Int, _ width: Int, _ height: Int, _ format: AVPixelFormat
  ) -> OpaquePointer? {
    sws_getContext(
      Int32(sourceWidth), Int32(sourceHeight), AV_PIX_FMT_RGBA, Int32(width), Int32(height), format, Self.flags, nil,
      nil, nil)
  }

  /// The row multiple a band of output rows starts at (`sws_receive_slice`).
  private var alignment: Int { Swift.max(1, Int(sws_receive_slice_alignment(context))) }

  /// A resizer from `sourceWidth × sourceHeight` to `width × height`, RGBA
  /// both (premultiplied stays premultiplied).
  public convenience init(resizing sourceWidth: Int, _ sourceHeight: Int, to width: Int, _ height: Int)
    throws(MediaError)
  {
    try self.init(from: sourceWidth, sourceHeight, to: width, height, format: AV_PIX_FMT_RGBA)
  }

  deinit {
    sws_freeContext(context)
    sws_freeContext(lowerContext)
  }

  /// The G, B and R planes of `resizeToOpaqueBGRA`'s last frame, and the
  /// source they were resized from (nil: none, or a resize failed).
  private var planes: Frame?
  private var planesSource: Bitmap?

  /// Resizes `source` into `destination` (`width × height × 4` bytes, packed
  /// rows) as opaque BGRA: the colour bytes swscale's packed BGRA output
  /// has, alpha 255. This resizer's format must be `AV_PIX_FMT_GBRP`.
  ///
  /// A source that differs from the previous call's only in some rows (a
  /// clip's next frame, often) is resized only where that shows: swscale
  /// computes the output rows whose filter reaches a changed row
  /// (`outputRows(reaching:)`), and the others keep the previous frame's
  /// values, which are those swscale would compute again (every output row
  /// is a function of the source rows under its filter alone).
  public func resizeToOpaqueBGRA(_ source: Bitmap, into destination: UnsafeMutablePointer<UInt8>)
    throws(MediaError)
  {
    precondition(destinationFormat == AV_PIX_FMT_GBRP, "resizeToOpaqueBGRA needs a GBRP resizer")
    guard source.width == sourceWidth, source.height == sourceHeight else {
      throw MediaError(
        "resize frame", "frame is \(source.width)×\(source.height), expected \(sourceWidth)×\(sourceHeight)")
    }
    if let resizer {
      return resizeOwn(source, with: resizer, into: destination)
    }
    let planes: Frame
    if let kept = self.planes {
      planes = kept
    } else {
      planes = try Frame(width: width, height: height, format: AV_PIX_FMT_GBRP)
    }
    let rows: Range<Int>
    if let previous = planesSource {
      rows = Self.changedRows(source, previous).map(outputRows(reaching:)) ?? 0..<0
    } else {
      rows = 0..<height
    }
    planesSource = nil
    if !rows.isEmpty { try scale(source, rows: rows, into: planes) }
    self.planes = planes
    planesSource = source
    Self.interleave(planes, width: width, height: height, into: destination)
  }

  /// `resizeToOpaqueBGRA` by `resizer`: the output rows that read source
  /// rows changed since the last frame made again, in two halves at once
  /// when there are many (the halves write disjoint rows; every row is the
  /// same whichever half makes it); the others are the last frame's.
  private func resizeOwn(_ source: Bitmap, with resizer: LanczosResizer, into destination: UnsafeMutablePointer<UInt8>) {
    let rows: Range<Int>
    if let previous = outputSource, !output.isEmpty {
      rows = Self.changedRows(source, previous).map(resizer.outputRows(reading:)) ?? 0..<0
    } else {
      rows = 0..<height
      output = [UInt8](repeating: 0, count: 4 * width * height)
    }
    outputSource = nil
    let rowBytes = 4 * width
    source.bytes.withUnsafeBytes { pixels in
      output.withUnsafeMutableBytes { out in
        let work = UncheckedBuffers(source: pixels.baseAddress!, output: out.baseAddress!)
        Self.inHalves(rows, splitting: splitsBands) { part in
          resizer.resize(rows: part, of: work.source, stride: source.stride, into: work.output, destinationStride: rowBytes)
        }
      }
    }
    output.withUnsafeBytes { out in
      UnsafeMutableRawPointer(destination).copyMemory(from: out.baseAddress!, byteCount: out.count)
    }
    outputSource = source
  }

  /// `work` over `rows`, in two halves at once when `splitting` and there
  /// are `splitRows` or more.
  private static func inHalves(_ rows: Range<Int>, splitting: Bool, _ work: (Range<Int>) -> Void) {
    guard splitting, rows.count >= splitRows else { return work(rows) }
    let middle = rows.lowerBound + rows.count / 2
    let halves = [rows.lowerBound..<middle, middle..<rows.upperBound]
    withoutActuallyEscaping(work) { work in
      let shared = UncheckedWork(work: work)
      DispatchQueue.concurrentPerform(iterations: 2) { k in shared.work(halves[k]) }
    }
  }

  private struct UncheckedWork: @unchecked Sendable { let work: (Range<Int>) -> Void }
  private struct UncheckedBuffers: @unchecked Sendable {
    let source: UnsafeRawPointer, output: UnsafeMutableRawPointer
  }

  /// The G, B, R `planes` as packed opaque BGRA in `destination`: sixteen
  /// pixels at a time, widened to 32-bit lanes and shifted into place (on a
  /// little-endian machine, as Linux's are), the rest one by one.
  static func interleave(_ planes: Frame, width: Int, height: Int, into destination: UnsafeMutablePointer<UInt8>) {
    let frame = planes.pointer.pointee
    let opaque = SIMD16<UInt32>(repeating: 0xFF00_0000)
    for y in 0..<height {
      let g = UnsafeRawPointer(frame.data.0! + y * Int(frame.linesize.0))
      let b = UnsafeRawPointer(frame.data.1! + y * Int(frame.linesize.1))
      let r = UnsafeRawPointer(frame.data.2! + y * Int(frame.linesize.2))
      let row = UnsafeMutableRawPointer(destination + 4 * y * width)
      var x = 0
      while x + 16 <= width {
        let gv = SIMD16<UInt32>(truncatingIfNeeded: g.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self))
        let bv = SIMD16<UInt32>(truncatingIfNeeded: b.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self))
        let rv = SIMD16<UInt32>(truncatingIfNeeded: r.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self))
        row.storeBytes(of: bv | gv &<< 8 | rv &<< 16 | opaque, toByteOffset: 4 * x, as: SIMD16<UInt32>.self)
        x += 16
      }
      while x < width {
        let bgra =
          UInt32(b.load(fromByteOffset: x, as: UInt8.self)) | UInt32(g.load(fromByteOffset: x, as: UInt8.self)) << 8
          | UInt32(r.load(fromByteOffset: x, as: UInt8.self)) << 16 | 0xFF00_0000
        row.storeBytes(of: bgra.littleEndian, toByteOffset: 4 * x, as: UInt32.self)
        x += 1
      }
    }
  }

  /// Output rows `rows` of `source` resized into `planes`. A band of
  /// `splitRows` rows or more is cut at a row of swscale's alignment and its
  /// halves resized at once, each by a context of its own: in the GIF
  /// writer's first pass this resize is the step the others wait for, and
  /// each output row is the same whichever band computes it.
  private func scale(_ source: Bitmap, rows: Range<Int>, into planes: Frame) throws(MediaError) {
    let align = alignment
    let middle = (rows.lowerBound + rows.count / 2) / align * align
    guard splitsBands, rows.count >= Self.splitRows, middle > rows.lowerBound else {
      return try scale(source, rows: rows, into: planes, context: context)
    }
    if lowerContext == nil {
      lowerContext = Self.makeContext(sourceWidth, sourceHeight, width, height, destinationFormat)
    }
    guard let lower = lowerContext else { return try scale(source, rows: rows, into: planes, context: context) }
    // The halves write disjoint rows of `planes`.
    let halves = UncheckedHalves(
      resampler: self, source: source, planes: planes, contexts: [context, lower],
      bands: [rows.lowerBound..<middle, middle..<rows.upperBound])
    let errors = Mutex<[MediaError?]>([nil, nil])
    DispatchQueue.concurrentPerform(iterations: 2) { k in
      do throws(MediaError) {
        try halves.resampler.scale(halves.source, rows: halves.bands[k], into: halves.planes, context: halves.contexts[k])
      } catch { errors.withLock { $0[k] = error } }
    }
    if let error = errors.withLock({ $0.compactMap { $0 }.first }) { throw error }
  }

  /// What the two halves of a split band share (each writes only its rows).
  private struct UncheckedHalves: @unchecked Sendable {
    let resampler: Resampler, source: Bitmap, planes: Frame, contexts: [OpaquePointer], bands: [Range<Int>]
  }

  /// Output rows `rows` of `source` resized into `planes` by `context`
  /// (swscale's frame API, which computes any band of output rows; the
  /// source is lent to it, not copied).
  private func scale(_ source: Bitmap, rows: Range<Int>, into planes: Frame, context: OpaquePointer) throws(MediaError) {
    let input = try Frame()
    let code = source.bytes.withUnsafeBufferPointer { bytes -> Int32 in
      let base = UnsafeMutablePointer(mutating: bytes.baseAddress!)
      guard let buffer = av_buffer_create(base, bytes.count, { _, _ in }, nil, AV_BUFFER_FLAG_READONLY) else {
        return cff_averror(ENOMEM)
      }
      let frame = input.pointer
      frame.pointee.buf.0 = buffer
      frame.pointee.data.0 = base
      frame.pointee.linesize.0 = Int32(source.stride)
      frame.pointee.width = Int32(sourceWidth)
      frame.pointee.height = Int32(sourceHeight)
      frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
      defer { av_frame_unref(frame) }
      var code = sws_frame_start(context, planes.pointer, frame)
      guard code >= 0 else { return code }
      defer { sws_frame_end(context) }
      code = sws_send_slice(context, 0, UInt32(sourceHeight))
      guard code >= 0 else { return code }
      return sws_receive_slice(context, UInt32(rows.lowerBound), UInt32(rows.count))
    }
    guard code >= 0 else { throw MediaError("resize frame", code: code) }
  }

  /// The first to the last row in which `a` and `b` (of one size) differ,
  /// or nil if they are the same pixels.
  static func changedRows(_ a: Bitmap, _ b: Bitmap) -> Range<Int>? {
    let rowBytes = 4 * a.width
    return a.bytes.withUnsafeBytes { p in
      b.bytes.withUnsafeBytes { q in
        func differs(_ y: Int) -> Bool {
          memcmp(p.baseAddress! + y * a.stride, q.baseAddress! + y * b.stride, rowBytes) != 0
        }
        guard let first = (0..<a.height).first(where: differs) else { return nil }
        let last = (first..<a.height).last(where: differs)!
        return first..<(last + 1)
      }
    }
  }

  /// The output rows whose value can depend on source rows `changed`, in
  /// whole slices of swscale's alignment. swscale's Lanczos filter reads 3
  /// source rows each side of an output row's centre, times the reduction
  /// when shrinking; this takes twice that and 4 rows more, so rounding in
  /// swscale's filter placement (and its clamping at the edges, which only
  /// moves taps onto rows the filter covers) stays inside.
  func outputRows(reaching changed: Range<Int>) -> Range<Int> {
    let ratio = Double(sourceHeight) / Double(height)
    let reach = 6 * Swift.max(1, ratio) + 4
    let low = (Double(changed.lowerBound) - reach + 0.5) / ratio - 0.5
    let high = (Double(changed.upperBound - 1) + reach + 0.5) / ratio - 0.5
    let align = alignment
    let first = Swift.max(0, Int(low.rounded(.down))) / align * align
    var end = Swift.min(height, Int(high.rounded(.up)) + 1)
    end = end == height ? height : Swift.min(height, (end + align - 1) / align * align)
    return first..<Swift.max(first, end)
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
      // swscale reads four planes' pointers and strides.
      let s: [UnsafePointer<UInt8>?] = [src.baseAddress, nil, nil, nil]
      let sStride: [Int32] = [Int32(source.stride), 0, 0, 0]
      let d: [UnsafeMutablePointer<UInt8>?] = [destination, nil, nil, nil]
      let dStride: [Int32] = [Int32(stride), 0, 0, 0]
      return sws_scale(context, s, sStride, 0, Int32(sourceHeight), d, dStride)
    }
    guard rows == Int32(height) else {
      throw MediaError("resize frame", code: rows < 0 ? rows : cff_averror(EINVAL))
    }
    if destinationFormat == AV_PIX_FMT_RGBA {
      if alpha == nil { alpha = try ResampledAlpha(from: sourceWidth, sourceHeight, to: width, height, flags: Self.flags) }
      try alpha!.resize(source, into: destination, stride: stride)
    }
  }

  /// The alpha plane's own resizer, made at the first RGBA resize.
  private var alpha: ResampledAlpha?

  /// `source` resized to a new RGBA bitmap (this resizer's format must be RGBA).
  func resized(_ source: Bitmap) throws(MediaError) -> Bitmap {
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    try bytes.withUnsafeMutableBufferPointer { (p) throws(MediaError) in
      try resize(source, into: p.baseAddress!, stride: width * 4)
    }
    return Bitmap(width: width, height: height, bytes: bytes)!
  }
}
