import Foundation
import Raster
import TestSupport
import TransvidCLI

/// Collects what a command prints.
final class Capture: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var out: [String] = []
  private(set) var err: [String] = []

  var console: Console {
    Console(
      print: { line in self.lock.withLock { self.out.append(line) } },
      error: { line in self.lock.withLock { self.err.append(line) } })
  }
}

/// A fresh temporary folder (one of the `ScratchFolders`, removed when the
/// tests end).
func makeTemporaryDirectory() throws -> String {
  try ScratchFolders.make("transvid-cli")
}

/// Writes `text` to `dir/name` and returns the path.
@discardableResult
func write(_ text: String, to name: String, in dir: String) throws -> String {
  let path = (dir as NSString).appendingPathComponent(name)
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// A small two-screen job: list → detail with circle-spread and back.
func smallJob(name: String = "small", extra: String = "") -> String {
  """
  name: \(name)
  canvas: { size: 120x200, scale: 2, fps: 30, background: "#000000" }
  output: { formats: [mp4], mp4: { crf: 18, preset: veryfast } }
  screens:
    list:
      background: "#F2F2F7"
      views:
        - { id: row, frame: [10, 30, 100, 30], color: "#FFFFFF", corner: 8 }
        - { id: button, frame: [80, 150, 30, 30], color: systemBlue, corner: 15 }
    detail:
      background: "#FFFFFF"
      views:
        - { id: hero, frame: [0, 0, 120, 80], color: "#E5E5EA" }
  timeline:
    - hold: 0.2
    - push: { from: list, to: detail, transition: circle-spread, origin: [80, 150, 30, 30] }
    - hold: 0.2
    - pop: {}
    - hold: 0.1
  \(extra)
  """
}
