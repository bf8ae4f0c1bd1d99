import CZlib

/// A PNG as libavcodec is given it: without its text chunks, and with its
/// ICC profile (iCCP) inflated here, within a bound; the EXIF orientation
/// its eXIf chunk records; and its other colour chunks (`PNGColorChunks`).
///
/// The compressed chunks a PNG may carry besides its pixels — text (zTXt,
/// iTXt) and the ICC profile — are inflated by libavcodec's decoder
/// without any limit, before a pixel is decoded: a few megabytes of zTXt
/// inflate to gigabytes, which the pixel limits, checked from the header,
/// never see. Text is
/// never drawn, so its chunks (tEXt too) are left out of what libavcodec
/// reads; the profile is inflated here by zlib, at most `maxProfileBytes`,
/// and handed to the colour conversion as libavcodec's side data would be.
/// A profile that does not inflate, or inflates past the bound, is no
/// profile: the PNG's other colour chunks decide, else the picture is drawn
/// as sRGB, as libpng (a benign error) and so browsers show such a PNG, and
/// as the JPEG decoder treats a broken one.
/// The chunks are whole, so the PNG stays valid and its pixels are the
/// same.
///
/// libavcodec does not read eXIf, whose orientation UIImage, ImageIO and
/// Safari apply as they do a JPEG's: it is read here (`EXIFOrientation`),
/// from the first eXIf chunk, as libpng keeps the first.
///
/// An ancillary chunk that fails its CRC is left out and not read, as
/// libpng and Chromium leave it (`PNGChunkCRC`).
///
/// Only chunks before the image data count: a profile or an orientation
/// after the first IDAT is none, as the PNG specification places them and
/// browsers read them (CSS Images 3: metadata after the image data is
/// ignored; Chromium draws such a PNG as stored, and libpng drops an iCCP
/// there).
enum PNGAncillaryChunks {
  /// The largest ICC profile accepted: display and camera profiles are a
  /// few kilobytes, printers' with large tables a few megabytes.
  static let maxProfileBytes = 16 << 20

  /// `data` (a PNG whose chunk list `ImageHeader` has checked) without its
  /// tEXt, zTXt, iTXt and iCCP chunks and its damaged ancillary ones, or
  /// nil when it has none; its ICC
  /// profile, inflated: nil when there is none before its image data, or it
  /// does not inflate within `maxProfileBytes`; and its EXIF orientation,
  /// nil when it records none before its image data; and its other colour
  /// chunks before its image data (cICP, sRGB, gAMA, cHRM).
  static func separated(_ data: [UInt8]) -> (
    stream: [UInt8]?, profile: [UInt8]?, orientation: Int?, color: PNGColorChunks
  ) {
    var color = PNGColorChunks()
    var kept: [Range<Int>] = []
    var profile: [UInt8]?
    var profileSeen = false
    var orientation: Int?
    var exifSeen = false
    var imageDataSeen = false
    var dropped = false
    var offset = 8
    var run = 0..<8
    while offset + 12 <= data.count {
      let length = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
      let end = offset + 12 + length
      guard end <= data.count else { break }
      let type = Array(data[(offset + 4)..<(offset + 8)])
      let body = (offset + 8)..<(offset + 8 + length)
      switch type {
      case Array("tEXt".utf8), Array("zTXt".utf8), Array("iTXt".utf8):
        dropped = true
      case _ where type[0] & 0x20 != 0 && !PNGChunkCRC.matches(data, chunkAt: offset, length: length):
        // A damaged ancillary chunk is none (`PNGChunkCRC`).
        dropped = true
      case Array("iCCP".utf8):
        dropped = true
        // The first profile, as libavcodec takes it: name, NUL, method 0 (zlib), the stream.
        if !profileSeen, !imageDataSeen { profile = inflatedProfile(data[body]) }
        profileSeen = true
      default:
        if type == Array("IDAT".utf8) { imageDataSeen = true }
        if !imageDataSeen { color.read(type: type, body: data[body]) }
        if type == Array("eXIf".utf8), !exifSeen, !imageDataSeen {
          orientation = EXIFOrientation.orientation(tiff: data[body])
          exifSeen = true
        }
        if run.upperBound == offset { run = run.lowerBound..<end } else {
          kept.append(run)
          run = offset..<end
        }
      }
      offset = end
      if type == Array("IEND".utf8) { break }
    }
    kept.append(run)
    guard dropped else { return (nil, profile, orientation, color) }
    var stream: [UInt8] = []
    stream.reserveCapacity(kept.reduce(0) { $0 + $1.count })
    for range in kept { stream += data[range] }
    return (stream, profile, orientation, color)
  }

  /// An iCCP chunk's profile: the bytes after its name's NUL and the
  /// compression method, inflated by zlib up to `maxProfileBytes`; nil
  /// when the chunk is malformed, its stream corrupt or cut short, or the
  /// profile larger.
  private static func inflatedProfile(_ body: ArraySlice<UInt8>) -> [UInt8]? {
    // A name of 1…79 bytes, its NUL, method 0 (zlib).
    guard let nul = body.prefix(80).firstIndex(of: 0), nul > body.startIndex, nul + 1 < body.endIndex, body[nul + 1] == 0
    else { return nil }
    let compressed = Array(body[(nul + 2)...])
    var stream = z_stream()
    guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var out = [UInt8](repeating: 0, count: min(maxProfileBytes + 1, max(4096, compressed.count * 4)))
    var produced = 0
    var status = Z_OK
    compressed.withUnsafeBufferPointer { input in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = UInt32(input.count)
      while status == Z_OK {
        if produced == out.count {
          guard out.count <= maxProfileBytes else { return }
          out += [UInt8](repeating: 0, count: min(out.count, maxProfileBytes + 1 - out.count))
        }
        status = out.withUnsafeMutableBufferPointer { buffer in
          stream.next_out = buffer.baseAddress! + produced
          stream.avail_out = UInt32(buffer.count - produced)
          let result = inflate(&stream, Z_NO_FLUSH)
          produced = buffer.count - Int(stream.avail_out)
          return result
        }
        if status == Z_BUF_ERROR && stream.avail_out == 0 { status = Z_OK }
      }
    }
    guard produced <= maxProfileBytes, status == Z_STREAM_END else { return nil }
    return Array(out[..<produced])
  }
}
