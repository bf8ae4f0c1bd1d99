#if canImport(Glibc)
import Glibc
#endif
import Geometry
@testable import Raster

/// A layer filling `frame` with a solid colour.
func solidLayer(_ frame: Rect, _ color: Color) -> Layer {
  var l = Layer(frame: frame)
  l.backgroundColor = color
  return l
}

/// A layer showing `image` at 3× over `frame` (a @3x screen snapshot).
func snapshotLayer(_ image: Bitmap, _ frame: Rect) -> Layer {
  var l = Layer(frame: frame)
  l.contents = image
  l.contentsScale = 3
  return l
}

/// A bitmap with a deterministic pseudo-random opaque pattern.
func noiseBitmap(width: Int, height: Int, seed: UInt64 = 1, opaque: Bool = true) -> Bitmap {
  var rng = SplitMix(seed: seed)
  var b = Bitmap(width: width, height: height)
  for i in 0..<(width * height) {
    let a = opaque ? 255 : UInt8(truncatingIfNeeded: rng.next() % 256)
    b.bytes[i * 4 + 3] = a
    for k in 0..<3 { b.bytes[i * 4 + k] = a == 0 ? 0 : UInt8(rng.next() % (UInt64(a) + 1)) }
  }
  return b
}

struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// The largest per-channel difference between two bitmaps of the same size.
func maxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
  precondition(a.width == b.width && a.height == b.height)
  var m = 0
  for i in 0..<a.bytes.count { m = max(m, abs(Int(a.bytes[i]) - Int(b.bytes[i]))) }
  return m
}

/// Writes a bitmap as a PAM (RGB_ALPHA, premultiplied bytes as stored) for
/// eyeballing: `ffmpeg -i /tmp/x.pam /tmp/x.png`.
func dumpPAM(_ b: Bitmap, _ path: String) {
  let header = "P7\nWIDTH \(b.width)\nHEIGHT \(b.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
  guard let f = fopen(path, "wb") else { return }
  defer { fclose(f) }
  _ = header.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, f) }
  _ = b.bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
}

/// The repository root: two levels above this file's directory.
func repositoryRoot(_ file: String = #filePath) -> String {
  var parts = file.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)  // RasterTests/Support.swift → Tests → repo
  return parts.joined(separator: "/")
}

/// Reads a whole file (test support only; the module itself does no I/O).
func readFile(_ path: String) -> [UInt8]? {
  guard let f = fopen(path, "rb") else { return nil }
  defer { fclose(f) }
  var out: [UInt8] = []
  var buf = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = buf.withUnsafeMutableBufferPointer { fread($0.baseAddress, 1, $0.count, f) }
    if n <= 0 { break }
    out += buf[0..<n]
  }
  return out
}
