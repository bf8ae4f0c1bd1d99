import CWebP
import Foundation

/// What a lossy animated WebP shows after each picture, as libwebp decodes
/// it, and the pixels at rest that it shows wrongly because they were
/// encoded beside content that has changed since.
///
/// Lossy WebP is VP8: 4:2:0 chroma, 16×16 macroblocks quantised together,
/// a loop filter across block edges. A pixel's decoded colour depends on its
/// neighbourhood within a macroblock or so, not on the pixel alone. A
/// picture is the rectangle that changed, so a pixel at its edge that stays
/// put is encoded once beside a neighbour still moving, and keeps the
/// colour it bled from it for as long as it rests: after a push, columns of
/// the old screen's colour would stay on the new one. A pixel is *stale*
/// when something within one 16-pixel tile of its own (the 3×3 tiles
/// around it) changed after it was last encoded, and no tile there changes
/// in the present frame; a stale pixel shown more than `tolerance` levels
/// off (in premultiplied colour or alpha) is encoded again with the present
/// frame's picture. It is then encoded in the neighbourhood it rests in, so
/// it is stale no longer until something near it moves again.
struct WebPDisplay {
  /// The tiles' side, a VP8 macroblock's.
  static let tile = 16
  /// Levels a stale pixel may be off before it is encoded again: more
  /// than lossy coding leaves on a flat colour, less than it leaves on
  /// colour edges (up to 60–90 at quality 80).
  static let tolerance = 6

  let width: Int, height: Int
  /// The decoded canvas, straight RGBA.
  private(set) var shown: [UInt8]
  /// The frame each pixel was last encoded in.
  private var encodedAt: [Int32]
  /// The last frame in which a pixel of each tile changed.
  private var changedAt: [Int32]
  /// For each tile, the latest change around it already checked for stale pixels.
  private var checkedAt: [Int32]
  private let across: Int, down: Int

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    across = (width + Self.tile - 1) / Self.tile
    down = (height + Self.tile - 1) / Self.tile
    shown = [UInt8](repeating: 0, count: width * height * 4)
    encodedAt = [Int32](repeating: 0, count: width * height)
    changedAt = [Int32](repeating: 0, count: across * down)
    checkedAt = changedAt
  }

  /// Notes the tiles in which `current` differs from `previous` at `frame`.
  mutating func noteChanges(from previous: [UInt8], to current: [UInt8], frame: Int) {
    let rowBytes = width * 4, tileBytes = Self.tile * 4
    previous.withUnsafeBytes { a in
      current.withUnsafeBytes { b in
        for y in 0..<height {
          let row = y / Self.tile * across
          for tx in 0..<across where changedAt[row + tx] != Int32(frame) {
            let start = y * rowBytes + tx * tileBytes, count = min(tileBytes, rowBytes - tx * tileBytes)
            if memcmp(a.baseAddress! + start, b.baseAddress! + start, count) != 0 { changedAt[row + tx] = Int32(frame) }
          }
        }
      }
    }
  }

  /// The bounding rectangle of the stale pixels of `current` shown more
  /// than `tolerance` off, at `frame` (after `noteChanges`), or nil.
  mutating func staleRectangle(of current: [UInt8], frame: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
    var left = width, right = -1, top = height, bottom = -1
    for ty in 0..<down {
      for tx in 0..<across {
        var latest: Int32 = 0
        for ny in max(0, ty - 1)...min(down - 1, ty + 1) {
          for nx in max(0, tx - 1)...min(across - 1, tx + 1) { latest = max(latest, changedAt[ny * across + nx]) }
        }
        let t = ty * across + tx
        guard latest < Int32(frame), latest > checkedAt[t] else { continue }
        checkedAt[t] = latest
        for y in (ty * Self.tile)..<min(height, (ty + 1) * Self.tile) {
          for x in (tx * Self.tile)..<min(width, (tx + 1) * Self.tile) {
            let p = y * width + x
            guard encodedAt[p] < latest, error(at: p, current) > Self.tolerance else { continue }
            left = min(left, x)
            right = max(right, x)
            top = min(top, y)
            bottom = max(bottom, y)
          }
        }
      }
    }
    return right < 0 ? nil : (left, top, right - left + 1, bottom - top + 1)
  }

  /// The most a channel of pixel `p` is off: alpha, or a colour
  /// premultiplied by its alpha, in levels.
  private func error(at p: Int, _ current: [UInt8]) -> Int {
    let i = p * 4
    let a = Int(shown[i + 3]), b = Int(current[i + 3])
    var worst = abs(a - b)
    for c in 0..<3 { worst = max(worst, (abs(Int(shown[i + c]) * a - Int(current[i + c]) * b) + 127) / 255) }
    return worst
  }

  /// Decodes `picture` (a WebP bitstream) into its rectangle of the canvas,
  /// encoded at `frame`.
  mutating func show(_ picture: [UInt8], x: Int, y: Int, width w: Int, height h: Int, frame: Int) throws(MediaError) {
    let offset = (y * width + x) * 4
    let decoded = picture.withUnsafeBufferPointer { data in
      shown.withUnsafeMutableBufferPointer { canvas in
        WebPDecodeRGBAInto(data.baseAddress, data.count, canvas.baseAddress! + offset, canvas.count - offset, Int32(width * 4))
      }
    }
    guard decoded != nil else { throw MediaError("encode WebP", "libwebp could not decode its own \(w)×\(h) picture") }
    for row in y..<(y + h) {
      for column in x..<(x + w) { encodedAt[row * width + column] = Int32(frame) }
    }
  }
}
