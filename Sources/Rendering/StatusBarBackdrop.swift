import Jobs
import Raster

/// What shows under the status bar's strip (or the home indicator's) where
/// a see-through canvas leaves it so, for the drawn bar's `auto` style to
/// follow what is seen there: the canvas background, over what lies behind the canvas — a
/// drawn device's black screen (and the black around a canvas scaled to
/// fit it), the stage's background with `device: none`, else
/// `output.matte`, what MP4 and GIF show there (as a caption's ink counts
/// a transparent stage). Opaque, as wide as the canvas in pixels.
enum StatusBarBackdrop {
  /// The backdrop's `rows` rows from the canvas's row `top` down.
  static func strip(spec: JobSpec, rows: Int, from top: Int = 0, stage: Stage?) -> Bitmap {
    let width = spec.canvas.pixelWidth
    let matte = spec.output.matte.premultipliedPixel
    var strip = Bitmap(width: width, height: rows, fill: matte)
    if let stage {
      if stage.fitsCanvas {
        strip = Bitmap(width: width, height: rows, fill: Color.black.premultipliedPixel)
      } else {
        // The stage under the screen's rows (the canvas is drawn 1:1 there), over the matte.
        let base = stage.base, screen = stage.screen
        strip.bytes.withUnsafeMutableBufferPointer { out in
          base.bytes.withUnsafeBufferPointer { p in
            for y in 0..<Swift.max(0, Swift.min(rows, screen.height - top)) {
              for x in 0..<Swift.min(width, screen.width) {
                let s = (screen.y + top + y) * base.stride + (screen.x + x) * 4, d = y * width * 4 + x * 4
                let a = UInt32(p[s + 3])
                for k in 0..<4 {
                  out[d + k] = UInt8(Swift.min(255, UInt32(p[s + k]) + (UInt32(out[d + k]) * (255 - a) + 127) / 255))
                }
              }
            }
          }
        }
      }
    }
    // The canvas background lies under the screens (`FrameRenderer.underlay`).
    let background = spec.canvas.background.premultipliedPixel
    let a = UInt32(background.a)
    guard a > 0 else { return strip }
    let top = [background.r, background.g, background.b, background.a].map(UInt32.init)
    strip.bytes.withUnsafeMutableBufferPointer { out in
      for d in Swift.stride(from: 0, to: out.count, by: 4) {
        for k in 0..<4 { out[d + k] = UInt8(Swift.min(255, top[k] + (UInt32(out[d + k]) * (255 - a) + 127) / 255)) }
      }
    }
    return strip
  }
}
