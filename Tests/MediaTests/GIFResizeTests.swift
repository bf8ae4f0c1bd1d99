import Raster
import Testing

@testable import Media
import TestSupport

/// The GIF writer's Lanczos resize on planar RGB: exactly the pixels of
/// swscale's packed RGBA resize with the same filter, opaque, in BGRA order.
@Suite struct GIFResizeTests {
  /// A photo-like opaque frame: smooth gradients, a hard edge and noise.
  static func frame(width: Int, height: Int) -> Bitmap {
    var bitmap = Bitmap(width: width, height: height)
    var seed: UInt32 = 12345
    for y in 0..<height {
      for x in 0..<width {
        seed = seed &* 1_103_515_245 &+ 12345
        let noise = Int(seed >> 27) - 16
        let r = min(255, max(0, 255 * x / width + noise))
        let g = x > width / 2 ? 220 : 40
        let b = min(255, max(0, 255 * y / height - noise))
        let i = 4 * (y * width + x)
        bitmap.bytes[i] = UInt8(r)
        bitmap.bytes[i + 1] = UInt8(g)
        bitmap.bytes[i + 2] = UInt8(b)
        bitmap.bytes[i + 3] = 255
      }
    }
    return bitmap
  }

  @Test func planarLanczosMatchesPackedLanczos() throws {
    let source = Self.frame(width: 195, height: 422)
    let (w, h) = (180, 390)
    let resize = try GIFResize(from: 195, 422, to: w, h)
    var planar = [UInt8](repeating: 0, count: 4 * w * h)
    try planar.withUnsafeMutableBytes { try resize.resize(source, into: $0) }
    let packed = try Resampler(resizing: 195, 422, to: w, h).resized(source)
    var mismatched = 0
    for p in 0..<(w * h) {
      let i = 4 * p
      // BGRA against RGBA.
      #expect(planar[i + 3] == 255)
      let deltas = [
        Int(planar[i + 2]) - Int(packed.bytes[i]), Int(planar[i + 1]) - Int(packed.bytes[i + 1]),
        Int(planar[i]) - Int(packed.bytes[i + 2]),
      ]
      if deltas.contains(where: { $0 != 0 }) { mismatched += 1 }
    }
    #expect(mismatched == 0, "\(mismatched) of \(w * h) pixels differ")
  }

  @Test func aWrongSizedFrameIsAnError() throws {
    let resize = try GIFResize(from: 20, 20, to: 10, 10)
    var out = [UInt8](repeating: 0, count: 400)
    #expect(throws: MediaError("resize frame", "frame is 21×20, expected 20×20")) {
      try out.withUnsafeMutableBytes { try resize.resize(Bitmap(width: 21, height: 20), into: $0) }
    }
  }
}
