import CFFmpeg
import CZlib

/// What an image file declares about itself, read from its header without
/// decoding any pixels: the format and the size it claims.
///
/// The decoder checks this size against `ImageDecoder.Limits` before it
/// allocates anything for the pixels (decompression-bomb safety), and the
/// structural checks here turn truncated files into clear errors instead of
/// silently half-decoded pictures.
struct ImageHeader: Equatable {
  enum Format: String, CaseIterable {
    case png = "PNG", jpeg = "JPEG", webp = "WebP", gif = "GIF", bmp = "BMP"

    var codecID: AVCodecID {
      switch self {
      case .png: AV_CODEC_ID_PNG
      case .jpeg: AV_CODEC_ID_MJPEG
      case .webp: AV_CODEC_ID_WEBP
      case .gif: AV_CODEC_ID_GIF
      case .bmp: AV_CODEC_ID_BMP
      }
    }

    /// The still-image matrix for YUV data without tags (JFIF and WebP's VP8
    /// are BT.601).
    var defaultMatrix: Int32 { SWS_CS_ITU601 }
  }

  var format: Format
  var width: Int
  var height: Int
  /// The scans (SOS markers) before a JPEG's end of image; 1 for the other
  /// formats. Each is a pass over the whole image: a progressive file of
  /// thousands of tiny scans decodes for minutes (`Limits.maxScans`).
  var scans = 1
  /// The colour channels the image stores: 1 for a grey PNG or JPEG, 4 for
  /// a CMYK JPEG, 3 otherwise. An image takes a colour profile of its own
  /// space (`ColorProfile`: RGB for 3, grey or RGB for 1, CMYK for 4);
  /// another is malformed, and browsers ignore it.
  var colorComponents = 3
  /// A 32-bit BMP stored without bit masks (BI_RGB): its fourth byte is
  /// reserved, not alpha, and Windows and Chromium draw every pixel
  /// opaque; libavcodec would take it as alpha.
  var alphaIsReserved = false
  /// The part of a GIF's picture its first image covers; nil for the other
  /// formats. The rest shows transparent (`GIFUncoveredArea`). The picture
  /// (`width × height`) is the logical screen grown to hold that image
  /// (`GIFLogicalScreen`).
  var gifFirstImage: GIFUncoveredArea.Rectangle?

  /// Reads the header of `data`; the error message says what is wrong.
  /// `operation` names the file for the errors.
  init(_ data: [UInt8], operation: String) throws(MediaError) {
    func fail(_ message: String) -> MediaError { MediaError(operation, message) }
    if data.isEmpty { throw fail("the file is empty") }
    let d = data
    func be16(_ i: Int) -> Int { Int(d[i]) << 8 | Int(d[i + 1]) }
    func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
    func le16(_ i: Int) -> Int { Int(d[i]) | Int(d[i + 1]) << 8 }
    func le24(_ i: Int) -> Int { le16(i) | Int(d[i + 2]) << 16 }
    func le32(_ i: Int) -> Int { le24(i) | Int(d[i + 3]) << 24 }
    func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
      d.count >= offset + bytes.count && Array(d[offset..<offset + bytes.count]) == bytes
    }
    func tag(_ s: String) -> [UInt8] { Array(s.utf8) }

    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      guard d.count >= 24 else { throw fail("truncated PNG: the file ends inside the header") }
      guard starts(tag("IHDR"), at: 12) else { throw fail("corrupt PNG: the first chunk is not IHDR") }
      self.init(format: .png, width: be32(16), height: be32(20))
      if d.count > 25, d[25] == 0 || d[25] == 4 { colorComponents = 1 }  // grey, grey + alpha
      try Self.checkPNGChunks(d, fail: fail)
    } else if starts([0xFF, 0xD8, 0xFF]) {
      let (width, height, scans, components) = try Self.jpegSize(d, fail: fail)
      self.init(format: .jpeg, width: width, height: height, scans: scans)
      colorComponents = components
    } else if starts(tag("RIFF")), starts(tag("WEBP"), at: 8) {
      guard d.count >= 30 else { throw fail("truncated WebP: the file ends inside the header") }
      let declared = le32(4) + 8
      guard d.count >= declared else {
        throw fail("truncated WebP: the header declares \(declared) bytes, the file has \(d.count)")
      }
      if starts(tag("VP8 "), at: 12) {
        guard starts([0x9D, 0x01, 0x2A], at: 23) else { throw fail("corrupt WebP: bad VP8 start code") }
        self.init(format: .webp, width: le16(26) & 0x3FFF, height: le16(28) & 0x3FFF)
      } else if starts(tag("VP8L"), at: 12) {
        guard d[20] == 0x2F else { throw fail("corrupt WebP: bad VP8L signature") }
        let bits = le32(21)
        self.init(format: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
      } else if starts(tag("VP8X"), at: 12) {
        // An animated one's canvas: its first frame is drawn (`WebPDecoder`).
        self.init(format: .webp, width: le24(24) + 1, height: le24(27) + 1)
      } else {
        throw fail("corrupt WebP: unknown first chunk")
      }
    } else if starts(tag("GIF87a")) || starts(tag("GIF89a")) {
      guard d.count >= 13 else { throw fail("truncated GIF: the file ends inside the header") }
      let first = try Self.checkGIFBlocks(d, fail: fail)
      let picture = GIFLogicalScreen.grown(width: le16(6), height: le16(8), toHold: first)
      self.init(format: .gif, width: picture.width, height: picture.height)
      gifFirstImage = first
    } else if starts(tag("BM")) {
      guard d.count >= 26 else { throw fail("truncated BMP: the file ends inside the header") }
      if le32(14) == 12 {
        // OS/2 1.x's BITMAPCOREHEADER: unsigned 16-bit sides, rows bottom-up.
        self.init(format: .bmp, width: le16(18), height: le16(20))
        return
      }
      let height = Int32(bitPattern: UInt32(le32(22)))
      self.init(format: .bmp, width: Int(Int32(bitPattern: UInt32(le32(18)))), height: Int(height.magnitude))
      // BITMAPINFOHEADER or later: 32 bits a pixel, compression 0 (BI_RGB).
      alphaIsReserved = d.count >= 34 && le32(14) >= 40 && le16(28) == 32 && le32(30) == 0
    } else if d.count >= 12, starts(tag("ftyp"), at: 4) {
      // An ISO media file: an iPhone's photo (HEIC) is one, as are AVIF, MP4 and MOV.
      throw fail(Self.isoMediaKind(brand: Array(d[8..<12])))
    } else {
      // The file's bytes are never echoed: the path may name a file the reader of the log should not see.
      throw fail("not a PNG, JPEG, WebP, GIF or BMP image (unrecognised signature)")
    }
  }

  init(format: Format, width: Int, height: Int, scans: Int = 1) {
    self.format = format
    self.width = width
    self.height = height
    self.scans = scans
  }

  /// Walks the chunk list up to IEND: every chunk must fit in the file,
  /// every critical chunk (IHDR, PLTE, IDAT, IEND: an upper-case first
  /// letter) must match its CRC, and there must be image data. A damaged
  /// ancillary chunk is left to the decoder, as libpng, and so browsers,
  /// ignore one: libavcodec checks no CRC.
  /// What an ISO media file (its `ftyp` box's major `brand`) is, as the
  /// error says it: HEIC, the format an iPhone's camera saves photos in by
  /// default, and AVIF are images transvid does not decode, and the advice
  /// is the export that does; other brands are a video or an audio file.
  static func isoMediaKind(brand: [UInt8]) -> String {
    let name = String(decoding: brand, as: UTF8.self)
    let advice = "transvid does not decode it: export it as JPEG or PNG"
    switch name {
    case "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "mif2", "msf1":
      return "a HEIC (HEIF) image, as an iPhone's camera saves photos; \(advice) (Photos' Export, or Settings › Camera › Formats › Most Compatible)"
    case "avif", "avis": return "an AVIF image; \(advice)"
    default: return "an MP4 or QuickTime file (a video or audio), not a PNG, JPEG, WebP, GIF or BMP image"
    }
  }

  private static func checkPNGChunks(
    _ d: [UInt8], fail: (String) -> MediaError
  ) throws(MediaError) {
    var offset = 8
    var sawData = false
    while true {
      guard offset + 8 <= d.count else {
        throw fail("truncated PNG: the file ends at byte \(d.count) before the IEND chunk")
      }
      let length = Int(d[offset]) << 24 | Int(d[offset + 1]) << 16 | Int(d[offset + 2]) << 8
        | Int(d[offset + 3])
      let type = String(decoding: d[offset + 4..<offset + 8], as: UTF8.self)
      let end = offset + 12 + length
      guard end <= d.count else {
        // A type is four ASCII letters; anything else is the file's bytes, never echoed.
        let letters = d[offset + 4..<offset + 8].allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        throw fail(
          "truncated PNG: \(letters ? "chunk '\(type)'" : "a chunk of no valid type") at byte \(offset) needs \(12 + length) bytes, "
            + "only \(d.count - offset) left"
        )
      }
      if (0x41...0x5A).contains(d[offset + 4]) {
        let stored = UInt(d[end - 4]) << 24 | UInt(d[end - 3]) << 16 | UInt(d[end - 2]) << 8 | UInt(d[end - 1])
        let computed = d.withUnsafeBufferPointer { crc32(0, $0.baseAddress! + offset + 4, UInt32(length + 4)) }
        guard stored == computed else {
          let letters = d[offset + 4..<offset + 8].allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
          throw fail(
            "corrupt PNG: \(letters ? "chunk '\(type)'" : "a chunk of no valid type") at byte \(offset) does not match "
              + "its CRC (the file is damaged)")
        }
      }
      if type == "IDAT" { sawData = true }
      if type == "IEND" { break }
      offset = end
    }
    if !sawData { throw fail("corrupt PNG: no image data (IDAT) before IEND") }
  }

  /// Walks a GIF's blocks up to the end of its first image's data (the
  /// picture decoded): colour tables, extensions and the image's data
  /// sub-blocks must all fit in the file. libavcodec draws the rows of a
  /// GIF cut inside them in one colour, without an error. The first
  /// image's rectangle, as its descriptor gives it.
  private static func checkGIFBlocks(
    _ d: [UInt8], fail: (String) -> MediaError
  ) throws(MediaError) -> GIFUncoveredArea.Rectangle {
    func truncated(_ place: String) -> MediaError {
      fail("truncated GIF: the file ends at byte \(d.count) inside \(place)")
    }
    func tableSize(_ packed: UInt8) -> Int { packed & 0x80 == 0 ? 0 : 3 << (Int(packed & 0x07) + 1) }
    /// The offset after the sub-blocks starting at `start` (after their 0 terminator).
    func subBlocks(from start: Int, _ place: String) throws(MediaError) -> Int {
      var i = start
      while true {
        guard i < d.count else { throw truncated(place) }
        let size = Int(d[i])
        i += 1 + size
        if size == 0 { return i }
      }
    }
    var i = 13 + tableSize(d[10])
    guard i <= d.count else { throw truncated("the global colour table") }
    while true {
      guard i < d.count else { throw truncated("the blocks before the first image") }
      switch d[i] {
      case 0x21:  // extension: label, sub-blocks
        guard i + 1 < d.count else { throw truncated("an extension") }
        i = try subBlocks(from: i + 2, "an extension")
      case 0x2C:  // image: descriptor, local colour table, LZW code size, data sub-blocks
        guard i + 10 <= d.count else { throw truncated("the first image's descriptor") }
        func le16(_ k: Int) -> Int { Int(d[k]) | Int(d[k + 1]) << 8 }
        let image = GIFUncoveredArea.Rectangle(x: le16(i + 1), y: le16(i + 3), width: le16(i + 5), height: le16(i + 7))
        i += 10 + tableSize(d[i + 9])
        guard i < d.count else { throw truncated("the first image's colour table") }
        _ = try subBlocks(from: i + 1, "the first image's data")
        return image
      case 0x3B:
        throw fail("corrupt GIF: the file ends (trailer) before any image")
      default:
        throw fail("corrupt GIF: an unknown block at byte \(i), before any image")
      }
    }
  }

  /// The size from the first SOF marker and the number of scans; also
  /// checks that the entropy-coded data is followed by an EOI marker (a
  /// truncated JPEG has none).
  private static func jpegSize(
    _ d: [UInt8], fail: (String) -> MediaError
  ) throws(MediaError) -> (width: Int, height: Int, scans: Int, components: Int) {
    var i = 2
    var size: (Int, Int)?
    var components = 3
    while true {
      // Markers: 0xFF, optional 0xFF fill bytes, the marker byte. Bytes
      // before a marker that are none (stray bytes an editor left between
      // segments, a stuffed FF 00) are skipped, as libjpeg skips them with
      // its "extraneous bytes before marker" warning: no pixel is in them.
      while i < d.count && d[i] != 0xFF { i += 1 }
      while i + 1 < d.count && d[i + 1] == 0xFF { i += 1 }
      guard i + 1 < d.count else { throw fail("truncated JPEG: the file ends in the headers") }
      let marker = d[i + 1]
      if marker == 0x00 {
        i += 2
        continue
      }
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        i += 2
        continue
      }
      if marker == 0xD9 { throw fail("corrupt JPEG: end of image before any scan") }
      guard i + 3 < d.count else { throw fail("truncated JPEG: the file ends in the headers") }
      let length = Int(d[i + 2]) << 8 | Int(d[i + 3])
      guard length >= 2, i + 2 + length <= d.count else {
        throw fail("truncated JPEG: segment at byte \(i) runs past the end of the file")
      }
      if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
        guard length >= 7 else { throw fail("corrupt JPEG: short frame header") }
        let height = Int(d[i + 5]) << 8 | Int(d[i + 6])
        let width = Int(d[i + 7]) << 8 | Int(d[i + 8])
        if size == nil {
          size = (width, height)
          if length >= 8 { components = Int(d[i + 9]) }
        }
      }
      if marker == 0xDA {
        guard let size else { throw fail("corrupt JPEG: scan before the frame header") }
        // Inside entropy-coded data 0xFF is always followed by 0x00 or a
        // restart marker, so an FF D9 pair after the scan is the real EOI,
        // and an FF DA pair the start of another scan.
        var j = i + 2 + length, scans = 1
        while j + 1 < d.count {
          if d[j] == 0xFF {
            if d[j + 1] == 0xD9 { return (size.0, size.1, scans, components) }
            if d[j + 1] == 0xDA { scans += 1 }
          }
          j += 1
        }
        throw fail("truncated JPEG: no end-of-image marker after the image data")
      }
      i += 2 + length
    }
  }
}
