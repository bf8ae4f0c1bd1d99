// How long a job runs: its frame count and the pixels it renders, checked
// against `limits` once the timeline is known (the canvas side is checked in
// `JobDecoder+Canvas.swift`). Both are blamed on the `timeline` key: its
// length (with fps and the canvas) is what makes the job big.
//
// How much a job holds at once: every screen is kept as a canvas-sized
// snapshot, and a text view is drawn into a bitmap of its whole frame, for
// the whole run. Twelve 8192-point text frames in a 64-point canvas held
// 3.3 GB; so their pixels, with a canvas per screen, are capped too
// (`maxLayerPixels`), blamed on the view or screen that goes over. A view a
// transition flies (`element`) is held twice more: its own image, a bitmap
// of its whole frame, and its screen without it, a canvas.
//
// How much a job draws before its first frame: its screens' snapshots,
// every view's frame within the canvas each time (`JobSpec+Drawing.swift`),
// capped by `maxDrawPixels` and blamed on the view or screen that goes over.
//
// The pictures a job's steps leave on display and its caption strips
// (`JobSpec+StepPictures.swift`) are drawn and held too, as many as its
// steps: they count towards both caps, after the screens, blamed on the
// step, hold or caption that goes over.

extension JobDecoder {
  /// Throws when `spec` has more frames or pixels than `limits` allow.
  func checkLength(of spec: JobSpec, at location: SourceLocation) throws(Diagnostic) {
    let timeline = Timeline(spec: spec, transitions: transitions)
    let frames = timeline.frameCount
    if frames < 1 {
      // Half a frame exactly: 1/48 s at 24 fps, 1001/48000 s at 23.976.
      let rate = spec.canvas.frameRate
      throw Diagnostic(
        location,
        "timeline: \(JobDecoder.format(seconds: timeline.duration)) s at \(rate) fps is less than one frame; "
          + "a job needs at least half a frame (\(rate.seconds)/\(2 * rate.frames) s)")
    }
    if frames > limits.maxFrames {
      throw Diagnostic(
        location,
        "timeline: \(frames) frames (\(JobDecoder.format(seconds: timeline.duration)) s at \(spec.canvas.frameRate) fps); "
          + "at most \(limits.maxFrames) frames per job (raise the limit with --max-frames)")
    }
    let width = spec.framePixelWidth, height = spec.framePixelHeight
    let (perFrame, o1) = width.multipliedReportingOverflow(by: height)
    let (pixels, o2) = perFrame.multipliedReportingOverflow(by: frames)
    if o1 || o2 || pixels > limits.maxPixels {
      throw Diagnostic(
        location,
        "timeline: \(frames) frames of \(width)x\(height) pixels is \(o1 || o2 ? "too many" : String(pixels)) pixels; "
          + "at most \(limits.maxPixels) per job (raise the limit with --max-pixels)")
    }
  }

  /// Throws at the first screen or text view at which the job's screens (a
  /// canvas each) and text frames, in pixels at the canvas scale, come to
  /// more than `limits.maxLayerPixels`, then at the first of the steps'
  /// `pictures` (`JobSpec.stepPictures`) held with them that does.
  func checkLayers(of spec: JobSpec, pictures: [JobSpec.StepPictures]) throws(Diagnostic) {
    let scale = Double(spec.canvas.scale)
    let canvas = Double(spec.canvas.pixelWidth) * Double(spec.canvas.pixelHeight)
    var total = 0.0
    func add(_ pixels: Double, at location: SourceLocation, _ what: String) throws(Diagnostic) {
      total += pixels
      guard total > Double(limits.maxLayerPixels) else { return }
      throw Diagnostic(
        location,
        "\(what): the job's screens (a canvas each), text frames and flown views come to more than \(limits.maxLayerPixels) pixels, "
          + "all held while it renders (raise the limit with --max-layer-pixels)")
    }
    let flown = spec.flownViews
    for screen in spec.screens {
      try add(canvas, at: screen.location, "screens.\(screen.name)")
      for (i, view) in screen.views.enumerated() {
        let pixels = max((view.frame.width * scale).rounded() * (view.frame.height * scale).rounded(), 0)
        if view.text != nil || view.textKey != nil { try add(pixels, at: view.location, "screens.\(screen.name).views[\(i)]") }
        if let id = view.id, flown.contains("\(screen.name)/\(id)") {
          try add(pixels + canvas, at: view.location, "screens.\(screen.name).views[\(i)]")
        }
      }
    }
    if let picture = JobSpec.StepPictures.first(of: pictures, \.held, after: total, over: limits.maxLayerPixels) {
      throw Diagnostic(
        picture.location,
        "\(picture.path): the pictures the job's steps leave on display (a canvas a step), its screens' flipped and "
          + "strip-less copies and its caption strips, with its screens, text frames and flown views, come to more than "
          + "\(limits.maxLayerPixels) pixels, all held while it renders "
          + "(raise the limit with --max-layer-pixels)")
    }
  }

  /// Throws at the first screen or view at which drawing the job's screens
  /// (`JobSpec.drawing`) comes to more than `limits.maxDrawPixels` pixels,
  /// then at the first of the steps' `pictures` drawn with them that does.
  func checkDrawing(of spec: JobSpec, pictures: [JobSpec.StepPictures]) throws(Diagnostic) {
    var total = 0.0
    try spec.drawing { (pixels, location, path) throws(Diagnostic) in
      total += pixels
      guard total > Double(limits.maxDrawPixels) else { return }
      throw Diagnostic(
        location,
        "\(path): drawing the job's screens comes to more than \(limits.maxDrawPixels) pixels (each screen's canvas and "
          + "every view's frame within it, at the canvas scale, each time the screen is drawn; raise the limit with "
          + "--max-draw-pixels)")
    }
    if let picture = JobSpec.StepPictures.first(of: pictures, \.drawn, after: total, over: limits.maxDrawPixels) {
      throw Diagnostic(
        picture.location,
        "\(picture.path): drawing the job's screens, the pictures its steps leave on display (a canvas a step) and its "
          + "caption strips comes to more than \(limits.maxDrawPixels) pixels as it renders (raise the limit with "
          + "--max-draw-pixels)")
    }
  }
}
