// Transparency: a canvas whose background is not opaque (`background:
// transparent`, `"#00000000"`) makes frames with alpha. Screens are drawn
// over the canvas background, so a screen's own transparent background
// shows through only where the canvas is transparent too.
//
// Formats that carry alpha (webm, mov, apng, webp, png) keep it. The others
// (mp4, gif) show the frames composited over `output.matte` (default
// black). Compositing is associative and the canvas background is the
// bottom of every frame, so "frame over matte" is the job rendered with its
// background replaced by "background over matte": `JobSpec.overMatte`, an
// opaque job, rendered by the usual path at no extra cost per frame.

import Raster

extension CanvasSpec {
  /// Whether every frame is opaque (the background is).
  public var isOpaque: Bool { background.alpha >= 1 }
}

extension Color {
  /// This colour composited over the opaque `matte` (straight alpha).
  public func over(_ matte: Color) -> Color {
    let a = Swift.min(Swift.max(alpha, 0), 1)
    return Color(
      red: red * a + matte.red * (1 - a), green: green * a + matte.green * (1 - a),
      blue: blue * a + matte.blue * (1 - a))
  }
}

extension JobSpec {
  /// The job as its frames look over `output.matte`: the canvas background
  /// composited over the matte. An opaque job is returned as it is.
  public var overMatte: JobSpec {
    guard !canvas.isOpaque else { return self }
    var matted = self
    matted.canvas.background = canvas.background.over(output.matte)
    return matted
  }
}
