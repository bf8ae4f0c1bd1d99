import CZlib

/// Whether a PNG chunk's stored CRC matches its type and body.
///
/// A chunk whose CRC fails is damaged. A damaged critical chunk (IHDR,
/// PLTE, IDAT, IEND) is an error (`ImageHeader`); a damaged ancillary one
/// (a lower-case first letter) is as if it were not there: libpng by
/// default warns and drops it, and Chromium draws such a PNG as the file
/// without the chunk (no colour conversion by a damaged iCCP, cICP, gAMA
/// or cHRM, sRGB's absence letting gAMA decide, no transparency by a
/// damaged tRNS, no rotation by a damaged eXIf, no animation by a damaged
/// acTL).
enum PNGChunkCRC {
  /// Whether the chunk at `offset` (its length field) of `length` body
  /// bytes, which fits in `data`, has the CRC of its type and body.
  static func matches(_ data: [UInt8], chunkAt offset: Int, length: Int) -> Bool {
    let end = offset + 12 + length
    let stored = UInt(data[end - 4]) << 24 | UInt(data[end - 3]) << 16 | UInt(data[end - 2]) << 8 | UInt(data[end - 1])
    let computed = data.withUnsafeBufferPointer { crc32(0, $0.baseAddress! + offset + 4, UInt32(length + 4)) }
    return stored == computed
  }
}
