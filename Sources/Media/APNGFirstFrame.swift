import CZlib

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
/// The first frame covers the whole image (the APNG specification requires
/// it), so nothing of the default image shows through. A PNG whose first
/// frame is not whole, has no data, or whose fdAT chunks fail their CRC is
/// left as it is: its default image is drawn, as a viewer without APNG
/// draws it.
enum APNGFirstFrame {
  /// `data` (a PNG whose chunk list `ImageHeader` has checked) with its
  /// first animation frame as its image data, or nil when it is no APNG,
  /// its image data is its first frame, or that frame cannot stand in for it.
  static func stream(_ data: [UInt8]) -> [UInt8]? {
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
    guard animated, let control = frameControl, control.count >= 26, frameChunks > 0 else { return nil }
    let at = control.lowerBound
    guard be32(at + 4) == width, be32(at + 8) == height, be32(at + 12) == 0, be32(at + 16) == 0 else { return nil }
    var stream: [UInt8] = Array(data[0..<8])
    for range in beforeData where type(range.lowerBound) != "acTL" { stream += data[range] }
    stream += chunk("IDAT", frame)
    stream += chunk("IEND", [])
    return stream
  }

  /// A chunk: length, type, body, CRC.
  private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    let crc = UInt32(typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    return be(UInt32(body.count)) + typed + be(crc)
  }
}
