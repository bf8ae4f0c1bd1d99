// How much drawing a job does before its first frame: every screen is drawn
// once into a canvas-sized snapshot (its background, then each view over
// its frame), and again without each view a transition flies, whose own
// frame is drawn on its own too (`ScreenBuilder.snapshot`). The views are
// not bounded by what the job holds: a hundred full-canvas gradients at
// 8192² took 11.6 s, and a 1 MiB job file holds 9 700 of them. So their
// pixels are counted, at the canvas scale, each view's frame within the
// canvas (what the compositor fills): `JobDecoder.checkDrawing` holds them
// to `JobLimits.maxDrawPixels`, and a batch's plan adds them to a job's cost.

extension JobSpec {
  /// The views some step's `element` flies, as `screen/id`: each end on both
  /// screens of its step, as a pop may name the ends either way round
  /// (`ScreenBuilder.sharedElements`).
  var flownViews: Set<String> {
    var flown = Set<String>()
    for case .transition(let step) in timeline {
      for case .element(let from, let to) in step.parameters.values.values {
        for screen in [step.from, step.to] { for id in [from, to] { flown.insert("\(screen)/\(id)") } }
      }
    }
    return flown
  }

  /// Calls `visit` with the pixels drawn for each screen's background (a
  /// canvas each time the screen is drawn) and for each view (its frame
  /// within the canvas each time, and its whole frame on its own when it
  /// is flown), with where the screen or view is written and its key path,
  /// in file order.
  func drawing<E: Error>(_ visit: (_ pixels: Double, _ location: SourceLocation, _ path: String) throws(E) -> Void) throws(E) {
    let scale = Double(canvas.scale)
    let size = canvas.size
    let flown = flownViews
    for screen in screens {
      // The screen drawn whole, then once more without each view it flies.
      let renders = 1 + Double(screen.views.count { $0.id.map { flown.contains("\(screen.name)/\($0)") } ?? false })
      try visit(renders * Double(canvas.pixelWidth) * Double(canvas.pixelHeight), screen.location, "screens.\(screen.name)")
      for (i, view) in screen.views.enumerated() {
        let f = view.frame
        let width = max(0, min(f.maxX, size.width) - max(f.minX, 0)) * scale
        let height = max(0, min(f.maxY, size.height) - max(f.minY, 0)) * scale
        var pixels = renders * width * height
        if let id = view.id, flown.contains("\(screen.name)/\(id)") {
          pixels += max(0, (f.width * scale).rounded() * (f.height * scale).rounded())
        }
        try visit(pixels, view.location, "screens.\(screen.name).views[\(i)]")
      }
    }
  }

  /// The pixels drawing the job's screens writes (`drawing`), with what its
  /// steps and captions draw (`stepPictures`), at most `Int.max`.
  public var drawnPixels: Int {
    var total = 0.0
    drawing { pixels, _, _ in total += pixels }
    for picture in stepPictures() { total += picture.drawn }
    return total < 0x1p62 ? Int(total) : Int.max
  }
}
