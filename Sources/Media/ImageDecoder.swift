import CFFmpeg
import Raster

/// Decodes PNG (an APNG's first frame, `APNGFirstFrame`), JPEG, WebP (an animated one's first
/// frame), GIF (first frame, on a screen grown to hold it, `GIFLogicalScreen`,
/// transparent where it does not cover the screen: `GIFUncoveredArea`) and BMP into premultiplied
/// `Bitmap`s, from memory or from a file.
///
/// The format comes from the file's signature, not its name. The size the
/// header declares is checked against `Limits` before any pixel memory is
/// allocated, and libavcodec is told the same limit (`max_pixels`, with room
/// for its stride alignment). Truncated
/// and corrupt files throw a `MediaError` saying what is wrong, and so do
/// files whose pixel data is cut short or damaged while their structure is
/// whole (a JPEG cut and given an end marker, a PNG whose image data holds
/// half the rows): decoders draw the pixels they miss as a flat colour,
/// which would show as garbage in a video nobody looks at closely; here
/// it is the image's error, as a plainly truncated file is.
///
/// Decoders: a JPEG goes to libjpeg-turbo first (`TurboJPEG`: RGBA straight
/// from its SIMD decoder, the decoder browsers use; a warning that loses no
/// pixel leaves its decode as it is), and to libavcodec when libjpeg-turbo
/// fails (a lossless or 12-bit JPEG), unless it found pixel data lost; a
/// WebP still to libwebp (`WebPDecoder`, the browsers' decoder too), and to
/// libavcodec when libwebp declines it for a reason other than short or
/// broken data; every other format to libavcodec, which is told to stop at
/// damage (`AV_EF_EXPLODE`) and whose decode fails when it logged an error
/// or flagged the frame, damage it concealed.
///
/// Colour: libavcodec's pixels are converted to RGBA with swscale (YUV
/// WebP with its BT.601 matrix; a 16-bit PNG's samples scaled to 8 bits as
/// libpng scales them, `SixteenBitSamples`) and then premultiplied. An embedded ICC profile (PNG's iCCP, JPEG's APP2, WebP's
/// ICCP, a BMP's, `BMPEmbeddedProfile`) is honoured: the pixels are converted to sRGB (`ColorProfile`:
/// Display P3 screenshots and photos show as a browser shows them); so are
/// a PNG's cICP, gAMA and cHRM, in Chromium's order (`PNGColorChunks`);
/// without any, pixel values are taken as sRGB. A
/// JPEG's or PNG's EXIF orientation is applied (phone photos rely on it;
/// a PNG's is its eXIf chunk, `PNGAncillaryChunks`); the returned size is
/// the upright size.
///
/// Size: a caller that will shrink the image anyway may say by how much
/// (`allowedReduction`); a JPEG is then decoded at 1/2, 1/4 or 1/8 of its
/// size by libjpeg-turbo's scaled inverse DCT (libavcodec's `lowres` when
/// it falls back), which scales the transform itself, so a
/// 12 Mpx photo shown in a thumbnail is never decoded, converted or averaged
/// at 12 Mpx. It still keeps twice the pixels asked for along each side: a
/// 4:2:0 JPEG's colour is half its decoded size, and the scaled IDCT is
/// softer than an area average, so a decode at the drawn size itself would
/// bleed colour at sharp edges and blur; at twice it, the caller's own
/// reduction does the last (≥ 2×) step. Other formats have no such decoder
/// option and come back whole.
public enum ImageDecoder {
  /// Changes whenever a change to decoding moves any pixel of a decoded
  /// image, so output caches keyed on it (`OutputCache`) do not keep
  /// frames drawn from an earlier build's pixels. 1: JPEGs by libjpeg-turbo;
  /// 2: ICC profiles honoured; 3: WebP by libwebp; 4: 16-bit samples
  /// scaled as libpng scales them; 5: a PNG's EXIF orientation applied;
  /// 6: grey profiles honoured; 7: images with lost pixel data refused
  /// (outputs drawn from one are not kept as up to date); 8: CMYK JPEGs by
  /// libjpeg-turbo, as Chromium converts them; 9: a PNG's profile and
  /// orientation after its image data ignored; 10: a PNG's cICP, gAMA and
  /// cHRM honoured; 11: an RGB profile on a grey image honoured; 12: a
  /// 32-bit BI_RGB BMP opaque; 13: a CMYK JPEG's CMYK profile honoured;
  /// 14: an APNG whose image data is not its first frame draws that frame;
  /// 15: a GIF's screen outside its first image transparent; 16: a 16-bit
  /// BMP's channels scaled to the nearest 8-bit levels; 17: a GIF's screen
  /// grown to hold its first image; 18: an HDR PNG (cICP PQ or HLG,
  /// without a profile) refused; 19: cICP's SMPTE ST 428 curve honoured;
  /// 20: a JPEG libjpeg-turbo warns on without losing pixels decoded by it;
  /// 21: a 1-bit grey PNG's tRNS honoured; 22: an APNG whose first frame's
  /// control (after a default image) is damaged refused; 23: an APNG's
  /// first frame smaller than the image drawn at its place; 24: a BMP's
  /// embedded ICC profile honoured; 25: a 16-bit BMP's alpha mask honoured.
  public static let revision = 25

  /// The largest image the decoder accepts.
  public struct Limits: Hashable, Sendable {
    /// Largest width or height in pixels.
    public var maxSide: Int
    /// Largest `width × height`.
    public var maxPixels: Int
    /// Largest file, in bytes: the decoder holds the whole file in memory.
    public var maxBytes: Int
    /// Most scans in a JPEG. Each is a pass over the whole image, in
    /// libjpeg-turbo and libavcodec alike: 20 000 empty scans of a 12 Mpx
    /// picture fit in half a megabyte and take libavcodec 10 s.
    public var maxScans: Int
    /// Largest sum of `width × height` over a job's images as decoded (each
    /// file once): all of them are held while the job renders, 4 bytes a pixel.
    public var maxTotalPixels: Int

    /// 16384 pixels per side, 100 Mpx and 256 MiB by default (an uncompressed
    /// 32-bit BMP of 64 Mpx; compressed images of 100 Mpx are far smaller);
    /// 500 scans (libjpeg-turbo's advice, as `djpeg -maxscans`: cameras and
    /// encoders write about ten); 500 Mpx for a job's images together (2 GB
    /// decoded: forty 12 Mpx photos; five of the largest single image).
    public init(
      maxSide: Int = 16384, maxPixels: Int = 100_000_000, maxBytes: Int = 256 << 20, maxScans: Int = 500,
      maxTotalPixels: Int = 500_000_000
    ) {
      self.maxSide = maxSide
      self.maxPixels = maxPixels
      self.maxBytes = maxBytes
      self.maxScans = maxScans
      self.maxTotalPixels = maxTotalPixels
    }
  }

  /// What an image declares about itself, without decoding it. The size is
  /// the stored one: a JPEG or PNG with EXIF orientation 5…8 decodes
  /// transposed.
  public struct Info: Hashable, Sendable {
    /// `"PNG"`, `"JPEG"`, `"WebP"`, `"GIF"` or `"BMP"`.
    public var format: String
    /// Declared size in pixels.
    public var width: Int, height: Int
  }

  /// Reads the format and declared size of an encoded image (header only).
  public static func info(data: [UInt8], name: String) throws -> Info {
    let header = try ImageHeader(data, operation: "read image '\(name)'")
    return Info(format: header.format.rawValue, width: header.width, height: header.height)
  }

  /// About how many pixels `decode` makes of an image that declares `info`,
  /// given the same `allowedReduction` (a JPEG's `lowres` step counted): what
  /// a decode costs, to order several side by side.
  public static func decodedPixels(_ info: Info, allowedReduction: (Info) -> Double = { _ in 1 }) -> Int {
    let steps = info.format == ImageHeader.Format.jpeg.rawValue ? lowres(for: allowedReduction(info), max: 3) : 0
    let size = reducedSize(width: info.width, height: info.height, steps: steps)
    return size.width * size.height
  }

  /// The size of a `width × height` image decoded at 1/2^`steps`: each side
  /// rounded up, as libavcodec's `lowres` (AV_CEIL_RSHIFT) and libjpeg's
  /// scaled IDCT both make it.
  static func reducedSize(width: Int, height: Int, steps: Int) -> (width: Int, height: Int) {
    ((width + (1 << steps) - 1) >> steps, (height + (1 << steps) - 1) >> steps)
  }

  /// The `lowres` step for a reduction `factor`: the largest k ≤ `max` with
  /// 2 × 2^k ≤ factor (twice the drawn size is kept along each side).
  private static func lowres(for factor: Double, max: Int) -> Int {
    var k = 0
    while k < max, Double(4 << k) <= factor { k += 1 }
    return k
  }

  /// Decodes the file at `path`: a regular file of at most `limits.maxBytes`
  /// (`Platform.readRegularFile`).
  ///
  /// `allowedReduction` is given the image's declared size and returns how
  /// many times smaller along both sides the result may be (1: whole). A
  /// JPEG is decoded at 1/2^k of its stored size, each side rounded up, for
  /// the largest k ≤ 3 with 2 × 2^k ≤ that factor; other formats whole.
  public static func decode(
    path: String, limits: Limits = Limits(), allowedReduction: (Info) -> Double = { _ in 1 }
  ) throws -> Bitmap {
    try decode(
      data: try Platform.readRegularFile(path, maxBytes: limits.maxBytes), name: path, limits: limits,
      allowedReduction: allowedReduction)
  }

  /// Checks, without reading it, that `path` is a file `decode(path:)` would
  /// read: regular, openable, at most `limits.maxBytes`. Throws a `MediaError`
  /// whose operation is `read '…'`.
  public static func checkFile(path: String, limits: Limits = Limits()) throws(MediaError) {
    try Platform.checkRegularFile(path, maxBytes: limits.maxBytes)
  }

  /// What `decode` checks before decoding: an image's header, its declared
  /// size against `limits` (not empty, not over), its scans. The image's
  /// `Info`, or the error `decode` would throw (`transvid check` says it
  /// without decoding).
  public static func checkHeader(data: [UInt8], name: String, limits: Limits = Limits()) throws(MediaError) -> Info {
    let operation = "decode image '\(name)'"
    let header = try checkedHeader(data: data, operation: operation, limits: limits)
    if header.format == .png {
      // An HDR PNG is refused by its colour chunks (and profile) before its pixels are decoded.
      // (A profile is opened only for such a cICP: it decides then.)
      let separated = PNGAncillaryChunks.separated(try APNGFirstFrame.frame(data, operation: operation)?.stream ?? data)
      if case .hdr(let transfer) = separated.color.meaning(hasProfile: false),
        !(separated.profile.map(ColorProfile.isReadable) ?? false)
      {
        throw hdrRefusal(transfer, operation)
      }
    }
    return Info(format: header.format.rawValue, width: header.width, height: header.height)
  }

  /// Why a PNG whose cICP gives HDR `transfer` (PQ, HLG) and that has no
  /// ICC profile is not decoded: its levels are light beyond SDR white, which
  /// a browser tone-maps for its display and transvid does not.
  private static func hdrRefusal(_ transfer: String, _ operation: String) -> MediaError {
    MediaError(
      operation,
      "an HDR PNG (its cICP chunk gives the \(transfer) transfer function), which transvid does not tone-map: "
        + "export it as SDR (sRGB or Display P3)")
  }

  private static func checkedHeader(data: [UInt8], operation: String, limits: Limits) throws(MediaError) -> ImageHeader {
    let header = try ImageHeader(data, operation: operation)
    let kind = header.format.rawValue
    guard header.width > 0, header.height > 0 else {
      throw MediaError(operation, "\(kind) declares an empty size \(header.width)×\(header.height)")
    }
    // Both sides are positive and below 2³², so their product fits in 64 bits unsigned.
    let area = UInt64(header.width) * UInt64(header.height)
    let overSide = header.width > limits.maxSide || header.height > limits.maxSide
    let overArea = area > UInt64(max(limits.maxPixels, 0))
    if overSide || overArea {
      // Only the limits the image passes: 16384×16384 is within 16384 per side.
      let passed = [overSide ? "\(limits.maxSide) per side" : nil, overArea ? "\(limits.maxPixels) in all" : nil]
        .compactMap { $0 }
      throw MediaError(
        operation,
        "\(kind) declares \(header.width)×\(header.height)\(overArea ? " = \(area)" : "") pixels, over the "
          + "limit\(passed.count > 1 ? "s" : "") of \(passed.joined(separator: " and "))")
    }
    guard header.scans <= limits.maxScans else {
      throw MediaError(
        operation, "\(kind) has \(header.scans) scans, over the limit of \(limits.maxScans) (each is a pass over the whole image)")
    }

    return header
  }

  /// Decodes an encoded image held in memory; `name` is used in error
  /// messages, `allowedReduction` as in `decode(path:limits:allowedReduction:)`.
  public static func decode(
    data: [UInt8], name: String, limits: Limits = Limits(), allowedReduction: (Info) -> Double = { _ in 1 }
  ) throws -> Bitmap {
    MediaLog.setUp()
    let operation = "decode image '\(name)'"
    let header = try checkedHeader(data: data, operation: operation, limits: limits)
    let kind = header.format.rawValue

    let factor = allowedReduction(Info(format: kind, width: header.width, height: header.height))
    if header.format == .jpeg,
      let bitmap = try TurboJPEG.decode(
        data, header: header, scaleShift: lowres(for: factor, max: 3), maxScans: limits.maxScans, operation: operation)
    {
      return bitmap
    }
    if header.format == .webp, let bitmap = try WebPDecoder.decode(data, header: header, operation: operation) {
      return bitmap
    }
    // A PNG's text chunks and ICC profile never reach libavcodec, which inflates them without a limit.
    var data = data
    var profile: (icc: [UInt8], components: Int)?
    var orientation: Int?
    var transparentGrey: UInt8?
    // An APNG's first frame smaller than the image: decoded at its size, then placed.
    var part: APNGFirstFrame.Frame?
    var decoded = header
    if header.format == .png {
      // An APNG whose image data is only a default image: its first frame.
      if let frame = try APNGFirstFrame.frame(data, operation: operation) {
        data = frame.stream
        if !frame.isWhole {
          part = frame
          (decoded.width, decoded.height) = (frame.width, frame.height)
        }
      }
      let separated = PNGAncillaryChunks.separated(data)
      if let stream = separated.stream { data = stream }
      orientation = separated.orientation
      transparentGrey = PNGGreyTransparency.transparentSample(in: data)
      let iccp = separated.profile.flatMap { ColorProfile.isReadable($0) ? $0 : nil }
      switch separated.color.meaning(hasProfile: iccp != nil) {
      case .profile: profile = iccp.map { ($0, header.colorComponents) }
      case .sRGB: break
      // An RGB space: a grey or palette PNG's pixels are colours (r = g = b for grey).
      case .space(let space): profile = ColorProfile.icc(of: space).map { ($0, 3) }
      case .hdr(let transfer): throw hdrRefusal(transfer, operation)
      }
    }
    var alpha: [UInt8]?
    if header.format == .bmp {
      if let icc = BMPEmbeddedProfile.profile(in: data), ColorProfile.isReadable(icc) { profile = (icc, header.colorComponents) }
      alpha = BMPAlphaMask.levels(in: data, width: header.width, height: header.height)
    }
    if header.format == .gif { data = GIFLogicalScreen.declaring(width: header.width, height: header.height, in: data) }
    try FFmpegLibrary.codec.require()
    guard let decoder = avcodec_find_decoder(header.format.codecID) else {
      throw MediaError(operation, "this FFmpeg build has no \(kind) decoder")
    }
    let lowres = header.format == .jpeg ? lowres(for: factor, max: Int(decoder.pointee.max_lowres)) : 0
    if lowres > 0 {
      // Some JPEGs cannot be decoded scaled (lossless ones): those, and
      // corrupt files, are decoded whole, with that attempt's outcome.
      if let bitmap = try? decode(
        data, decoded, decoder, limits: limits, lowres: lowres, profile: profile, orientation: orientation,
        transparentGrey: transparentGrey, alpha: alpha, part: part, operation: operation)
      {
        return bitmap
      }
      MediaLog.setUp()
    }
    return try decode(
      data, decoded, decoder, limits: limits, lowres: 0, profile: profile, orientation: orientation,
      transparentGrey: transparentGrey, alpha: alpha, part: part, operation: operation)
  }

  /// A decoder that could not get memory for the picture (libavcodec's
  /// `AVERROR(ENOMEM)`, under `ulimit -v` or a container's limit): said as
  /// such, since the file is not at fault, where a decoder's log
  /// ("get_buffer() failed") would read as damage.
  static func outOfMemory(_ header: ImageHeader, _ operation: String, code: Int32? = nil) -> MediaError {
    MediaError(
      operation, "ran out of memory decoding its \(header.width)×\(header.height) pixels", code: code)
  }

  /// Decodes `data` with `decoder` at 1/2^`lowres` of its size: RGBA,
  /// premultiplied; its colours converted by `profile` (a PNG's, inflated
  /// by `PNGAncillaryChunks`, or made of its colour chunks, `PNGColorChunks`;
  /// a BMP's, `BMPEmbeddedProfile`; for an image of that many colour
  /// components), else by the profile
  /// libavcodec found; upright
  /// by EXIF `orientation` (a PNG's), else by the one libavcodec exported;
  /// clear where a 1-bit grey PNG's sample is `transparentGrey`
  /// (`PNGGreyTransparency`); of straight `alpha` (a 16-bit BMP's,
  /// `BMPAlphaMask`, which libavcodec drops), one level a pixel; placed in its image when it is an APNG's
  /// first frame that is `part` of it (`header` then gives the frame's size).
  private static func decode(
    _ data: [UInt8], _ header: ImageHeader, _ decoder: UnsafePointer<AVCodec>, limits: Limits, lowres: Int,
    profile: (icc: [UInt8], components: Int)?, orientation: Int?, transparentGrey: UInt8?, alpha: [UInt8]?,
    part: APNGFirstFrame.Frame?, operation: String
  ) throws -> Bitmap {
    let kind = header.format.rawValue
    let codec = try CodecContext(codec: decoder)
    // libavcodec checks its frame buffers with the width rounded up to its
    // stride alignment (at most 64), so an image of exactly `maxPixels`,
    // which the header check lets through, needs that much room more.
    codec.pointer.pointee.max_pixels = Int64(limits.maxPixels) + 64 * Int64(header.height)
    codec.pointer.pointee.thread_count = 1
    codec.pointer.pointee.lowres = Int32(lowres)
    // Damage stops the decoders that check for it (a JPEG's scan that runs
    // out of data) instead of being concealed.
    codec.pointer.pointee.err_recognition = AV_EF_EXPLODE
    try check(avcodec_open2(codec.pointer, decoder, nil), "\(operation): open \(kind) decoder")

    // The whole file is one packet; av_new_packet zeroes the padding.
    let packet = try Packet()
    try check(av_new_packet(packet.pointer, Int32(data.count)), operation)
    data.withUnsafeBufferPointer { source in
      packet.pointer.pointee.data.update(from: source.baseAddress!, count: source.count)
    }
    let frame = try Frame()
    let sent = avcodec_send_packet(codec.pointer, packet.pointer)
    if sent < 0 {
      let reason = MediaLog.takeLastError() ?? MediaError.ffmpegMessage(sent)
      if sent == cff_averror(ENOMEM) { throw outOfMemory(header, operation, code: sent) }
      throw MediaError(operation, "corrupt \(kind) data (\(reason))", code: sent)
    }
    _ = avcodec_send_packet(codec.pointer, nil)
    let received = avcodec_receive_frame(codec.pointer, frame.pointer)
    if received == cff_averror(ENOMEM) {
      _ = MediaLog.takeLastError()
      throw outOfMemory(header, operation, code: received)
    }
    if received < 0 {
      let reason =
        received == cff_averror_eof() || received == cff_averror_eagain()
        ? "no picture in the data"
        : MediaLog.takeLastError() ?? MediaError.ffmpegMessage(received)
      throw MediaError(operation, "corrupt \(kind) data (\(reason))", code: received)
    }
    let f = frame.pointer.pointee
    // Damage the decoder concealed: it returns a picture and says so only
    // in its log (a PNG's "IEND without all image", the rows missing drawn
    // black; a GIF's "LZW decode failed") or in the frame's flags.
    if let reason = MediaLog.takeLastError() {
      throw MediaError(operation, "corrupt \(kind) data (\(reason))")
    }
    if f.decode_error_flags != 0 || f.flags & AV_FRAME_FLAG_CORRUPT != 0 {
      throw MediaError(operation, "corrupt \(kind) data (the decoder concealed errors)")
    }
    let scaled = reducedSize(width: header.width, height: header.height, steps: lowres)
    guard Int(f.width) == scaled.width, Int(f.height) == scaled.height else {
      throw MediaError(
        operation,
        "corrupt \(kind) data: decoded \(f.width)×\(f.height), header declared \(header.width)×\(header.height)"
      )
    }
    var bitmap = try Scaler().rgba(from: frame, defaultMatrix: header.format.defaultMatrix)
    let pixels = bitmap.width * bitmap.height, components = header.colorComponents
    if let profile {
      bitmap.bytes.withUnsafeMutableBufferPointer { rgba in
        profile.icc.withUnsafeBytes {
          _ = ColorProfile.convertToSRGB(rgba.baseAddress!, pixels: pixels, icc: $0, components: profile.components)
        }
      }
    } else if let side = av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_ICC_PROFILE), let icc = side.pointee.data {
      bitmap.bytes.withUnsafeMutableBufferPointer { rgba in
        _ = ColorProfile.convertToSRGB(
          rgba.baseAddress!, pixels: pixels, icc: UnsafeRawBufferPointer(start: icc, count: Int(side.pointee.size)),
          components: components)
      }
    }
    if header.alphaIsReserved {
      for i in stride(from: 3, to: bitmap.bytes.count, by: 4) { bitmap.bytes[i] = 255 }
    } else if let alpha, alpha.count == pixels {
      for i in 0..<pixels { bitmap.bytes[4 * i + 3] = alpha[i] }
      Alpha.premultiply(&bitmap.bytes)
    } else if hasAlpha(frame) {
      Alpha.premultiply(&bitmap.bytes)
    }
    if let transparentGrey { PNGGreyTransparency.clear(&bitmap, sample: transparentGrey, in: frame) }
    // An APNG's first frame, at its place, the rest transparent, as browsers draw it.
    if let part { bitmap = part.placed(bitmap) }
    // A GIF's screen outside its first image: transparent, as browsers show it.
    if let covered = header.gifFirstImage { GIFUncoveredArea.clear(&bitmap, outside: covered) }
    bitmap.pictureRect = reducedPicture(width: header.width, height: header.height, steps: lowres)
    return oriented(bitmap, orientation ?? exifOrientation(frame))
  }

  /// Whether `frame`'s pixel format carries alpha, in a channel or in a
  /// palette: without, every pixel is opaque and premultiplying would read
  /// the whole bitmap (48 MB for a 12 Mpx photo) to change nothing.
  private static func hasAlpha(_ frame: Frame) -> Bool {
    guard let format = AVPixelFormat(rawValue: frame.pointer.pointee.format).nonNone,
      let desc = av_pix_fmt_desc_get(format)
    else { return true }
    return desc.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_PAL) != 0
  }

  /// The EXIF orientation (1…8) the decoder exported, 1 when there is none.
  private static func exifOrientation(_ frame: Frame) -> Int {
    guard let entry = av_dict_get(frame.pointer.pointee.metadata, "Orientation", nil, 0),
      let value = entry.pointee.value,
      // FFmpeg pads the value ("    6").
      let number = Int(String(cString: value).filter { $0 != " " }),
      (1...8).contains(number)
    else { return 1 }
    return number
  }

  /// `bitmap` turned upright for EXIF `orientation`, as browsers and Photos
  /// show it: 2 mirror, 3 rotate 180°, 4 flip, 5 transpose, 6 rotate 90° CW,
  /// 7 transverse, 8 rotate 90° CCW.
  ///
  /// Output pixel (dx, dy) is source pixel (sx, sy), both linear in dx and
  /// dy, so its index in the source is `base + dx · across + dy · down`
  /// (`sourceIndexSteps`). The output is written in 32 × 32 tiles: a turn
  /// by 90° (how phones store portrait photos) reads a source column for
  /// each output row, and a tile's 32 source rows stay in cache while it
  /// is written.
  static func oriented(_ bitmap: Bitmap, _ orientation: Int) -> Bitmap {
    guard orientation != 1 else { return bitmap }
    let w = bitmap.width, h = bitmap.height
    let swaps = orientation >= 5
    let dw = swaps ? h : w, dh = swaps ? w : h
    let (base, across, down) = sourceIndexSteps(orientation, width: w, height: h)
    let tile = 32
    let bytes = [UInt8](unsafeUninitializedCapacity: bitmap.bytes.count) { outBytes, count in
      bitmap.bytes.withUnsafeBytes { raw in
        let source = raw.bindMemory(to: UInt32.self).baseAddress!
        let out = UnsafeMutableRawPointer(outBytes.baseAddress!).bindMemory(to: UInt32.self, capacity: dw * dh)
        for ty in stride(from: 0, to: dh, by: tile) {
          for tx in stride(from: 0, to: dw, by: tile) {
            let xEnd = min(tx + tile, dw)
            for dy in ty..<min(ty + tile, dh) {
              var i = base &+ tx &* across &+ dy &* down
              let row = out + dy &* dw
              for dx in tx..<xEnd {
                row[dx] = source[i]
                i &+= across
              }
            }
          }
        }
      }
      count = outBytes.count
    }
    // Same pixel count, so this cannot fail.
    var result = Bitmap(width: dw, height: dh, bytes: bytes)!
    result.pictureRect = bitmap.pictureRect.map { oriented($0, width: w, height: h, orientation: orientation) }
    return result
  }

  /// For EXIF `orientation` 2…8 of a `width × height` image: the source
  /// index of output pixel (dx, dy) is `base + dx · across + dy · down`.
  private static func sourceIndexSteps(_ orientation: Int, width w: Int, height h: Int) -> (
    base: Int, across: Int, down: Int
  ) {
    switch orientation {
    case 2: return (w - 1, -1, w)  // (w − 1 − dx, dy)
    case 3: return ((h - 1) * w + w - 1, -1, -w)  // (w − 1 − dx, h − 1 − dy)
    case 4: return ((h - 1) * w, 1, -w)  // (dx, h − 1 − dy)
    case 5: return (0, w, 1)  // (dy, dx)
    case 6: return ((h - 1) * w, -w, 1)  // (dy, h − 1 − dx)
    case 7: return ((h - 1) * w + w - 1, -w, -1)  // (w − 1 − dy, h − 1 − dx)
    default: return (w - 1, w, -1)  // 8: (w − 1 − dy, dx)
    }
  }
}
