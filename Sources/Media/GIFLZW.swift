/// GIF image data: the LZW code stream of one image's palette indices, in
/// length-prefixed sub-blocks, optionally lossy.
///
/// Hand-written because lossy coding decides the indices while it compresses:
/// where the dictionary already holds a string one pixel longer whose next
/// index shows a colour close enough to the one wanted, the encoder takes that
/// string instead of ending the code (the technique of gifsicle's `--lossy`
/// and gifski). giflib's encoder (`EGifPutLine`) only codes the indices it is
/// given, and no maintained library exposes an LZW coder that chooses; giflib
/// still writes everything around this stream (`GIFFile`).
///
/// "Close enough" is a hard bound: an index is accepted for a pixel only when
/// the colour it shows — its palette colour, or for the transparent index the
/// colour already on screen — differs from the pixel's wanted colour by at
/// most the pixel's bound in each of R, G and B. Without a tolerance the
/// output is plain LZW of the given indices, the codes giflib would write.
///
/// The code stream follows giflib's encoder: a clear code first; code width
/// `minimumCodeSize + 1` growing to 12 bits as the dictionary fills; when it
/// reaches 4095 codes, a clear code and a fresh dictionary; the end code last.
struct GIFLZWEncoder {
  /// What each index shows at each pixel, and what the pixel should show.
  struct Tolerance {
    /// Packed colours (B | G << 8 | R << 16) of the palette's opaque indices.
    var colors: [UInt32]
    /// The index that leaves the screen as it is, if the image may use it.
    var transparentIndex: Int?
    /// Per pixel of the image: the colour on screen under it.
    var shown: [UInt32]
    /// Per pixel of the image: the colour the lossless image would show, or
    /// `Tolerance.unchanged`: the pixel shows what is on screen (only the
    /// transparent index is accepted).
    var wanted: [UInt32]
    /// Per pixel of the image: the largest accepted difference per channel.
    var bounds: [UInt8]

    /// The `wanted` mark of a pixel that keeps what is on screen.
    static let unchanged: UInt32 = 1 << 24
  }

  private static let maxCode = 4095
  /// `child[code << 8 | index]`: the code of string `code` + `index`, 0 if none
  /// (0 is never a string of two or more indices).
  private var child = [UInt16](repeating: 0, count: 4096 * 256)
  /// The first extension of a code and the next extension of the same
  /// prefix: the dictionary as a tree, walked for near matches.
  private var firstChild = [UInt16](repeating: 0, count: 4096)
  private var sibling = [UInt16](repeating: 0, count: 4096)
  private var parent = [UInt16](repeating: 0, count: 4096)
  private var suffix = [UInt8](repeating: 0, count: 4096)

  /// Codes `indices` (each below `1 << minimumCodeSize`) as image data:
  /// sub-blocks of at most 255 bytes, each after its length byte, without
  /// the closing empty block. With `tolerance`, indices are replaced by
  /// accepted ones where that makes codes longer; `indices` ends as what the
  /// stream decodes to.
  mutating func encode(_ indices: inout [UInt8], minimumCodeSize: Int, tolerance: Tolerance?) -> [UInt8] {
    var out = BitPacker()
    let clear = 1 << minimumCodeSize, end = clear + 1
    var width = minimumCodeSize + 1
    var limit = 1 << width
    var next = end + 1

    func emit(_ code: Int) {
      out.put(code, bits: width)
      if next >= limit && code <= Self.maxCode {
        width += 1
        limit = 1 << width
      }
    }

    func reset() {
      for code in (end + 1)..<next {
        child[Int(parent[code]) << 8 | Int(suffix[code])] = 0
        firstChild[code] = 0
      }
      for code in 0..<clear { firstChild[code] = 0 }
      next = end + 1
      width = minimumCodeSize + 1
      limit = 1 << width
    }

    // The colour index `i` shows at pixel `p` is within the bound of the wanted one.
    func accepts(_ i: UInt8, at p: Int, _ t: Tolerance) -> Bool {
      let wanted = t.wanted[p]
      if wanted == Tolerance.unchanged { return Int(i) == t.transparentIndex }
      let shown = Int(i) == t.transparentIndex ? t.shown[p] : t.colors[Int(i)]
      let b = Int(shown & 0xFF) - Int(wanted & 0xFF)
      let g = Int((shown >> 8) & 0xFF) - Int((wanted >> 8) & 0xFF)
      let r = Int((shown >> 16) & 0xFF) - Int((wanted >> 16) & 0xFF)
      return max(abs(b), abs(g), abs(r)) <= Int(t.bounds[p])
    }

    reset()
    emit(clear)
    guard !indices.isEmpty else {
      emit(end)
      return out.blocks()
    }
    var current = Int(indices[0])
    for p in 1..<indices.count {
      let index = indices[p]
      let exact = child[current << 8 | Int(index)]
      if exact != 0 {
        current = Int(exact)
        continue
      }
      if let tolerance {
        // The longest string is the one continued: any accepted extension.
        var candidate = firstChild[current]
        while candidate != 0 && !accepts(suffix[Int(candidate)], at: p, tolerance) {
          candidate = sibling[Int(candidate)]
        }
        if candidate != 0 {
          indices[p] = suffix[Int(candidate)]
          current = Int(candidate)
          continue
        }
        // A new string: repeating the previous index, where accepted, makes
        // runs the dictionary learns fast.
        if indices[p - 1] != index && accepts(indices[p - 1], at: p, tolerance) { indices[p] = indices[p - 1] }
      }
      emit(current)
      let first = indices[p]
      if next >= Self.maxCode {
        emit(clear)
        reset()
      } else {
        child[current << 8 | Int(first)] = UInt16(next)
        parent[next] = UInt16(current)
        suffix[next] = first
        sibling[next] = firstChild[current]
        firstChild[current] = UInt16(next)
        next += 1
      }
      current = Int(first)
    }
    emit(current)
    emit(end)
    reset()  // the tables start empty for the next image
    return out.blocks()
  }

  /// The minimum code size GIF stores for a colour table of `entries`
  /// entries (padded to a power of two, at least 2 bits): what giflib writes.
  static func minimumCodeSize(entries: Int) -> Int {
    var bits = 1
    while 1 << bits < entries { bits += 1 }
    return max(2, bits)
  }
}

/// Codes packed least significant bit first into bytes, then cut into GIF
/// sub-blocks.
private struct BitPacker {
  private var bytes: [UInt8] = []
  private var buffer: UInt64 = 0
  private var count = 0

  mutating func put(_ code: Int, bits: Int) {
    buffer |= UInt64(code) << UInt64(count)
    count += bits
    while count >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
    }
  }

  /// The bytes (the last one padded with zero bits) in sub-blocks.
  mutating func blocks() -> [UInt8] {
    if count > 0 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer = 0
      count = 0
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 255 + 1)
    var i = 0
    while i < bytes.count {
      let n = min(255, bytes.count - i)
      out.append(UInt8(n))
      out.append(contentsOf: bytes[i..<(i + n)])
      i += n
    }
    return out
  }
}
