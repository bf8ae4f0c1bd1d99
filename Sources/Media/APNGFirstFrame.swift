import CZlib
import Raster

/// An animated PNG's first frame as a still PNG, where that frame is not
/// the PNG's own image.
///
/// An APNG's image data (IDAT) is its first frame when a frame control
/// chunk (fcTL) comes before it; without one it is a default image for
/// viewers that do not play APNG, and the animation starts with the frame
/// of the first fcTL after it, its data in fdAT chunks. Browsers draw that
/// frame (Chromium, Firefox and Safari never show such a default image),
/// and so transvid draws an animated PNG's first frame as a browser shows
/// it before it plays: the stream libavcodec is given has the frame's data
/// as its image data, behind the same header and the chunks before the
/// image data (palette, transparency, colour), which the frames share.
///
/// A damaged acTL is as if it were not there (`PNGChunkCRC`): with no
/// animation control the image data is a still PNG's, as Chromium draws it.
///
/// A first frame smaller than the image (the APNG specification requires
/// the whole size only of a frame whose data is the image data) stands at
/// its fcTL's offset on a transparent image, as the specification clears
/// the output buffer before each play and browsers draw it: the stream's
/// header then gives the frame's size, and `Frame.placed` puts the decoded
/// frame in place. Nothing of the default image shows. A PNG whose first
/// frame has no data or whose fdAT chunks fail their CRC is left as it
/// is: its default image is drawn, as a viewer without APNG draws it.
///
/// A damaged frame control for that first frame is the image's error
/// (`checkFirstControl`): Chromium draws no picture of such a PNG, where
/// the APNG specification advises its default image, so what the file
/// shows depends on the viewer.
enum APNGFirstFrame {
  /// An animated PNG's first frame as a still PNG, and its place in the image.
  struct Frame: Equatable {
    /// The PNG: the image's chunks before its image data (its header
    /// giving the frame's size), the frame's data as the image data.
    var stream: [UInt8]
    /// The frame's rectangle in the `imageWidth × imageHeight` image, in pixels.
    var x: Int, y: Int, width: Int, height: Int
    var imageWidth: Int, imageHeight: Int

    /// Whether the frame covers the whole image.
    var isWhole: Bool { x == 0 && y == 0 && width == imageWidth && height == imageHeight }

    /// `bitmap`, the frame decoded (`width × height`), at its place on a
    /// transparent image of the whole size.
    func placed(_ bitmap: Bitmap) -> Bitmap {
      var image = Bitmap(width: imageWidth, height: imageHeight)
      let rowBytes = width * 4
      image.bytes.withUnsafeMutableBytes { out in
        bitmap.bytes.withUnsafeBytes { source in
          for row in 0..<height {
            let to = ((y + row) * imageWidth + x) * 4
            let from = source.baseAddress!.advanced(by: row * rowBytes)
            out.baseAddress!.advanced(by: to).copyMemory(from: from, byteCount: rowBytes)
          }
        }
      }
      return image
    }
  }

  /// The first animation frame of `data` (a PNG whose chunk list
  /// `ImageHeader` has checked), or nil when it is no APNG, its image data
  /// is its first frame, or that frame cannot stand in for it. Throws, with
  /// `operation`, when the first frame's control is damaged.
  static func frame(_ data: [UInt8], operation: String) throws(MediaError) -> Frame? {
    func be32(_ at: Int) -> Int { Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3]) }
    func type(_ at: Int) -> String { String(decoding: data[(at + 4)..<(at + 8)], as: UTF8.self) }
    guard data.count >= 33 else { return nil }
    let width = be32(16), height = be32(20)
    var offset = 8
    var animated = false
    var beforeData: [Range<Int>] = []
    var sawData = false
    var frameControl: Range<Int>?
    var frame: [UInt8] = []
    var frameChunks = 0
    scan: while offset + 12 <= data.count {
      let length = be32(offset)
      let end = offset + 12 + length
      guard end <= data.count else { return nil }
      let body = (offset + 8)..<(end - 4)
      switch type(offset) {
      // A damaged acTL is none (`PNGChunkCRC`).
      case "acTL": if !sawData, PNGChunkCRC.matches(data, chunkAt: offset, length: length) { animated = true }
      case "fcTL":
        // An fcTL before the image data makes the image data the first frame.
        guard sawData, animated else { return nil }
        if frameControl != nil { break scan }
        try checkFirstControl(data, at: offset, width: width, height: height, operation: operation)
        frameControl = body
      case "IDAT": sawData = true
      case "fdAT":
        guard frameControl != nil, length > 4 else { break }
        let stored = UInt(be32(end - 4))
        let computed = data.withUnsafeBufferPointer { crc32(0, $0.baseAddress! + offset + 4, UInt32(length + 4)) }
        guard stored == computed else { return nil }
        // Its sequence number, then the frame's compressed rows.
        frame += data[(body.lowerBound + 4)..<body.upperBound]
        frameChunks += 1
      case "IEND": break scan
      default: if !sawData { beforeData.append(offset..<end) }
      }
      offset = end
    }
    // The frame's control: sequence, width, height, x, y (then delay, dispose, blend).
    guard animated, let control = frameControl, frameChunks > 0 else { return nil }
    let at = control.lowerBound
    let first = Frame(
      stream: [], x: be32(at + 12), y: be32(at + 16), width: be32(at + 4), height: be32(at + 8), imageWidth: width,
      imageHeight: height)
    var stream: [UInt8] = Array(data[0..<8])
    for range in beforeData {
      switch type(range.lowerBound) {
      case "acTL": continue
      // The frame's size, then the image's bit depth, colour type, compression, filter and interlace.
      case "IHDR" where !first.isWhole:
        let rest = data[(range.lowerBound + 16)..<(range.upperBound - 4)]
        stream += chunk("IHDR", be(UInt32(first.width)) + be(UInt32(first.height)) + rest)
      default: stream += data[range]
      }
    }
    stream += chunk("IDAT", frame)
    stream += chunk("IEND", [])
    var result = first
    result.stream = stream
    return result
  }

  /// Checks the fcTL chunk at `offset` that opens the first frame after a
  /// default image, as Chromium's PNG reader checks it: 26 bytes that match
  /// their CRC, sequence number 0, a frame of some width and height within
  /// the `width` × `height` image, a dispose operation of 0…2 and a blend
  /// operation of 0…1 (the APNG specification's values).
  private static func checkFirstControl(
    _ data: [UInt8], at offset: Int, width: Int, height: Int, operation: String
  ) throws(MediaError) {
    func be32(_ at: Int) -> Int { Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3]) }
    let length = be32(offset)
    func damaged(_ what: String) -> MediaError {
      MediaError(operation, "corrupt APNG: its first frame's control chunk 'fcTL' at byte \(offset) \(what)")
    }
    guard length == 26 else { throw damaged("holds \(length) bytes, not 26 (the file is damaged)") }
    guard PNGChunkCRC.matches(data, chunkAt: offset, length: length) else {
      throw damaged("does not match its CRC (the file is damaged)")
    }
    // Sequence, width, height, x, y, delay (two 16-bit numbers), dispose, blend.
    let at = offset + 8
    let sequence = be32(at), frameWidth = be32(at + 4), frameHeight = be32(at + 8), x = be32(at + 12), y = be32(at + 16)
    let dispose = data[at + 24], blend = data[at + 25]
    guard sequence == 0 else { throw damaged("has sequence number \(sequence), not 0 (the file is damaged)") }
    guard frameWidth > 0, frameHeight > 0 else {
      throw damaged("gives the frame an empty size \(frameWidth)×\(frameHeight) (the file is damaged)")
    }
    // Each is below 2³², so the sums cannot overflow.
    guard x + frameWidth <= width, y + frameHeight <= height else {
      throw damaged(
        "places a \(frameWidth)×\(frameHeight) frame at (\(x), \(y)), outside the \(width)×\(height) image (the file is damaged)")
    }
    guard dispose <= 2 else { throw damaged("has dispose operation \(dispose), not 0, 1 or 2 (the file is damaged)") }
    guard blend <= 1 else { throw damaged("has blend operation \(blend), not 0 or 1 (the file is damaged)") }
  }

  /// A chunk: length, type, body, CRC.
  private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    let crc = UInt32(typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
    return be(UInt32(body.count)) + typed + be(crc)
  }

  /// `v` as four bytes, most significant first.
  private static func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}
