// TestSupport: what several test targets need and no product ships — the
// decoders that read back what transvid wrote (`VideoReader`, `GIFReader`,
// built on Media's package-level FFmpeg owners), PSNR, temporary folders.
import Foundation
import Raster

/// Peak signal-to-noise ratio in dB (infinity when identical) over R, G, B,
/// or over all four channels with `alpha`; `including` picks the pixels that
/// count (all by default).
public func psnr(
  _ a: Bitmap, _ b: Bitmap, alpha: Bool = false, including: (Int, Int) -> Bool = { _, _ in true }
) -> Double {
  precondition(a.width == b.width && a.height == b.height)
  let channels = alpha ? 4 : 3
  var sum = 0.0
  var count = 0
  for i in stride(from: 0, to: a.bytes.count, by: 4) {
    guard including((i / 4) % a.width, (i / 4) / a.width) else { continue }
    for c in 0..<channels {
      let d = Double(a.bytes[i + c]) - Double(b.bytes[i + c])
      sum += d * d
      count += 1
    }
  }
  let mse = sum / Double(max(count, 1))
  return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// A fresh folder among the `ScratchFolders`, removed by `cleanUp()` (or
/// with the others when the process exits).
public struct TempDirectory {
  public let url: URL

  public init(prefix: String = "transvid-tests") throws {
    url = URL(fileURLWithPath: try ScratchFolders.make(prefix), isDirectory: true)
  }

  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Names of every entry, hidden ones included, sorted.
  public func entries() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }

  public func cleanUp() { try? FileManager.default.removeItem(at: url) }
}
