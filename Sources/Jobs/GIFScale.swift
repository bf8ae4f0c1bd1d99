// GIFScale: the canvas scale a GIF's frames are rendered at.
//
// A GIF is often a fraction of the canvas's pixel size (a 120 px preview of
// an @3x canvas is a tenth of its width): rendering it at the canvas scale
// and resizing would make many times the pixels it shows. The GIF is drawn
// instead at the smallest whole scale whose frame is at least three times
// as wide as the GIF (never above the canvas scale) and resized from there.
// A job is laid out in points, so the same job at another scale is the same
// picture with finer or coarser pixels.
//
// Three times, not less: resized from three or more pixels per GIF pixel,
// edges are Lanczos's average of fine coverage whatever the scale; from
// fewer, the compositor's own coverage at the coarser scale shows. Measured
// by scripts/gif-quality (default GIF, one pixel per point, SSIM against
// frames rendered at the canvas scale and resized): drawn at 1x, flat UI
// (an @3x canvas) 0.99995 → 0.99976, photos and page flip (@2x canvases)
// 0.9683 → 0.9619 and 0.9296 → 0.9290; drawn at 2x, flat UI 0.99993, and
// jobs/partial-curl.gif 13 % larger. So a GIF of one pixel per point (the
// default) keeps the canvas scale of an @2x or @3x canvas.
//
// The scale is lowered only when the frame's sides are whole pixels at it
// (whole points, or points that are whole at that scale): the frame then
// has exactly the canvas's aspect ratio and the GIF keeps the height
// `gifSize` gives. A job with an image in `contentMode: center` keeps its
// scale: such an image is as many points as its pixels ÷ the canvas scale,
// so another scale would draw it at another size.

extension JobSpec {
  /// The canvas scale for a GIF `width` pixels wide: the smallest whole
  /// scale `k` with `frameSize.width · k ≥ 3 · width`, at most
  /// `canvas.scale`, at which the frame's sides are whole pixels (else
  /// `canvas.scale`, as for a job with a centred image).
  public func gifRenderScale(width: Int) -> Int {
    let centred = screens.contains { screen in
      screen.image?.contentMode == .center || screen.views.contains { $0.image?.contentMode == .center }
    }
    if centred { return canvas.scale }
    let size = frameSize
    let needed = Swift.max(1, Int((3 * Double(width) / size.width).rounded(.up)))
    for k in needed..<Swift.max(needed, canvas.scale) {
      let w = size.width * Double(k), h = size.height * Double(k)
      if w.rounded() == w && h.rounded() == h { return k }
    }
    return canvas.scale
  }

  /// The job at canvas scale `scale`: the same layout in points, `scale`
  /// pixels per point.
  public func rescaled(_ scale: Int) -> JobSpec {
    var job = self
    job.canvas.scale = scale
    return job
  }
}
