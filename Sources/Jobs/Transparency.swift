// Transparency: a canvas whose background is not opaque (`background:
// transparent`, `"#00000000"`) makes frames with alpha. Screens are drawn
// over the canvas background, so a screen's own transparent background
// shows through only where the canvas is transparent too.
//
// Formats that carry alpha (webm, mov, apng, webp, png) keep it. The others
// (mp4, gif) show the frames composited over `output.matte` (default
// black): each frame drawn as the alpha formats draw it, then laid over the
// matte (`FrameRenderer.overMatte`). Not the job drawn over a background of
// the matte's colour: a screen with a transparent background is snapshotted
// over the canvas's, so over an opaque one it would hide the screen beneath
// it in a transition, and a transparent stage would stay black.

import Raster

extension CanvasSpec {
  /// Whether every frame is opaque (the background is).
  public var isOpaque: Bool { background.alpha >= 1 }

  /// What a screen's snapshot and a step's resting composite are drawn
  /// over: an opaque background, or nothing, so that a see-through one
  /// (`"#FF000080"`) lies under each frame once, put there after the
  /// frame is drawn, rather than once in every snapshot composed into it.
  public var snapshotFill: Pixel { isOpaque ? background.premultipliedPixel : .clear }
}

extension JobSpec {
  /// Whether every frame is opaque: the canvas and the stage around it.
  /// A stage image may have alpha, so it counts as not opaque.
  public var isOpaque: Bool {
    guard canvas.isOpaque else { return false }
    switch stage?.background {
    case nil: return true
    case .color(let color)?: return color.alpha >= 1
    case .gradient(let gradient)?: return gradient.colors.allSatisfy { $0.alpha >= 1 }
    case .image?: return false
    }
  }
}
