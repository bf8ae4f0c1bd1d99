import Geometry
import Raster
import Transitions

/// Renders any frame of a job: a pure function of the frame number, so
/// frames can be made in any order and on any thread.
public struct FrameRenderer: Sendable {
  public let spec: JobSpec
  public let timeline: Timeline
  let snapshots: [String: ScreenSnapshot]
  /// One configured transition per timeline segment (nil for stills).
  let transitions: [(any Transition)?]
  /// For still segments after a transition that leaves a composite on
  /// display (a sheet over the shrunken old screen), that composite; nil
  /// where the plain screen snapshot is what shows.
  let restingImages: [Bitmap?]
  let compositor: Compositor

  /// Prepares a job: snapshots its screens and configures its transitions.
  /// The spec must be valid (as `JobParser` returns it).
  public init(spec: JobSpec) {
    self.spec = spec
    snapshots = SceneBuilder(spec: spec).snapshots()
    func make(_ step: TransitionStep) -> any Transition {
      // The parser has checked the name against the catalog.
      Catalog.descriptor(named: step.transition)!.make(step.parameters)
    }
    timeline = Timeline(spec: spec) { make($0).totalDuration }
    transitions = timeline.segments.map { segment in
      if case .transition(_, let step) = segment.content { return make(step) }
      return nil
    }
    compositor = Compositor(scale: Double(spec.canvas.scale))
    restingImages = Self.restingImages(
      timeline: timeline, transitions: transitions, snapshots: snapshots, spec: spec, compositor: compositor)
  }

  /// What each still segment shows when it is not a plain screen: the end
  /// state of the last transition that completed before it.
  private static func restingImages(
    timeline: Timeline, transitions: [(any Transition)?], snapshots: [String: ScreenSnapshot], spec: JobSpec,
    compositor: Compositor
  ) -> [Bitmap?] {
    var display: Bitmap? = nil
    var images: [Bitmap?] = []
    for (index, segment) in timeline.segments.enumerated() {
      switch segment.content {
      case .still:
        images.append(display)
      case .transition(_, let step):
        images.append(nil)
        // A cancelled step leaves the display as it was.
        guard !step.isCancelled, let transition = transitions[index],
          let from = snapshots[step.from], let to = snapshots[step.to]
        else { continue }
        let context = TransitionContext(
          containerSize: spec.canvas.size, scale: Double(spec.canvas.scale), operation: step.operation,
          fromScreen: from, toScreen: to)
        var image = Bitmap(
          width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight, fill: spec.canvas.background.premultipliedPixel)
        // What the step leaves on display: its own last frame.
        compositor.render(transition.layers(in: context, at: transition.totalDuration), into: &image)
        display = image == to.image ? nil : image
      }
    }
    return images
  }

  /// The number of frames in the video.
  public var frameCount: Int { timeline.frameCount }

  /// The snapshot of a screen.
  public func snapshot(of screen: String) -> Bitmap? { snapshots[screen]?.image }

  /// The layer tree frame `n` shows, or the still screen's name.
  public func layers(ofFrame n: Int) -> Layer? {
    guard case .transition(let index, let time) = timeline.content(ofFrame: n),
      case .transition(_, let step) = timeline.segments[index].content,
      let transition = transitions[index],
      let from = snapshots[step.from], let to = snapshots[step.to]
    else { return nil }
    let context = TransitionContext(
      containerSize: spec.canvas.size, scale: Double(spec.canvas.scale), operation: step.operation,
      fromScreen: from, toScreen: to)
    return transition.layers(in: context, at: time)
  }

  /// The still segment frame `n` falls in, and its screen.
  private func stillSegment(ofFrame n: Int) -> (Int, String)? {
    let index = timeline.segmentIndex(ofFrame: n)
    if case .still(let screen) = timeline.segments[index].content { return (index, screen) }
    return nil
  }

  /// True when frame `n` is known to show exactly the pixels of frame
  /// `n − 1`, so an encoder can send the previous picture again without
  /// rendering or converting anything: both frames in the same still segment
  /// (or in still segments showing the same image), or both at the same time
  /// of the same transition (a transition is a pure function of its time;
  /// a paused gesture holds it). False means "not known", not "different".
  public func repeatsPreviousFrame(_ n: Int) -> Bool {
    guard n > 0, n < frameCount else { return false }
    switch (timeline.content(ofFrame: n - 1), timeline.content(ofFrame: n)) {
    case (.transition(let a, let t), .transition(let b, let u)):
      return a == b && t == u
    case (.still, .still):
      let a = timeline.segmentIndex(ofFrame: n - 1), b = timeline.segmentIndex(ofFrame: n)
      if a == b { return true }
      guard let first = stillImage(segment: a), let second = stillImage(segment: b) else { return false }
      // The same stored pixels (snapshots are shared, not copied).
      return first.bytes.withUnsafeBufferPointer { p in
        second.bytes.withUnsafeBufferPointer { q in p.baseAddress == q.baseAddress }
      }
    default:
      return false
    }
  }

  /// The image a still segment shows.
  private func stillImage(segment: Int) -> Bitmap? {
    guard case .still(let screen) = timeline.segments[segment].content else { return nil }
    return restingImages[segment] ?? snapshots[screen]?.image
  }

  /// Frame `n`, `width × height` pixels (the canvas, possibly cropped to an
  /// even size for video).
  public func frame(_ n: Int, width: Int, height: Int) -> Bitmap {
    var bitmap = Bitmap(width: width, height: height, fill: spec.canvas.background.premultipliedPixel)
    render(n, into: &bitmap)
    return bitmap
  }

  /// Draws frame `n` into `bitmap` (whose pixels are all overwritten).
  public func render(_ n: Int, into bitmap: inout Bitmap) {
    if let layer = layers(ofFrame: n) {
      bitmap.fill(spec.canvas.background.premultipliedPixel)
      compositor.render(layer, into: &bitmap)
    } else if let (segment, screen) = stillSegment(ofFrame: n) {
      if let image = restingImages[segment] ?? snapshots[screen]?.image { bitmap.copy(from: image) }
    }
  }
}
