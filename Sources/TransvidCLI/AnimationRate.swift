import Foundation
import Rendering

/// The frame rate of an animated image (APNG, WebP) on a page. Browsers
/// show a frame of 10 ms or less for 100 ms (as they do a GIF's shortest
/// delays; Chromium lengthens anything under 11 ms), so a 100 or 120 fps
/// canvas would play about ten times too slowly: such a canvas is written
/// at `reduced(_:)` frames a second, with a note, where video formats keep
/// every frame.
enum AnimationRate {
  /// The most frames a second an animated image is written at: 16.7 ms frames.
  static let maximumFPS = 60

  /// For a canvas above `maximumFPS`: the largest whole divisor of `fps`
  /// from 30 to 60 (120 → 60, 100 → 50, 90 → 45), so its frames are canvas
  /// frames; else 60 (each frame shows the time it stands for).
  static func reduced(_ fps: Int) -> Int {
    (30...maximumFPS).reversed().first { fps % $0 == 0 } ?? maximumFPS
  }

  /// `renderer` at the rate its `format` is written at, and the note that
  /// says so when that is not the canvas's (nil: every frame is written).
  static func renderer(_ renderer: FrameRenderer, format: String) -> (FrameRenderer, note: String?) {
    let canvas = renderer.spec.canvas
    guard canvas.fps > maximumFPS else { return (renderer, nil) }
    let fps = reduced(canvas.fps)
    let text = { (rate: Int) in canvas.isFractional ? String(format: "%.2f", Double(rate) * 1000 / 1001) : "\(rate)" }
    return (
      renderer.retimed(fps: fps),
      "\(format): \(text(canvas.fps)) fps reduced to \(text(fps)) fps (browsers show frames of 10 ms or less for 100 ms)"
    )
  }
}
