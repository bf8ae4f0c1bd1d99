import Geometry
import Motion
import Transitions

// JobNote: something a valid job will do that its author may not expect,
// said once when the job renders (`FILE:LINE:COL: note: …`), as compilers
// print notes beside errors. Notes never stop a job.
//
// The decoder notes:
// - a gesture without `release:` whose last sample is not past 0.5: UIKit's
//   UIPercentDrivenInteractiveTransition then cancels, the step plays back
//   and the screens after it are not the ones the step names (on a
//   navigation push or pop, UINavigationController's own rule cancels it);
// - an odd canvas written to mp4, webm or mov at its own size: the video
//   repeats the last column or row (`VideoSize.swift`);
// - a zoom-expand without `element`: nothing to zoom, so it cuts;
// - a partial curl's step back that writes another `reveal`, `radius` or
//   `mirror:` than its forward: it uncurls the forward's page (`uncurl`);
// - a gesture whose finger moves across or against the page it drags, as
//   each locale draws the step (`JobSpec.localized(to:)` notes it there);
// - a step's spring that is still more than 1 % of its travel from its end
//   when the step ends: it jumps there in one frame, as Core Animation ends
//   a CASpringAnimation at its duration (TIMING.md §2);
// - a written canvas or stage `size` whose points at the canvas scale are
//   no whole number of pixels (390.5 at 3x is 1171.5): the frame is
//   rounded to the nearest pixel (1172), as `pixelWidth` rounds it.

/// A remark on a valid job, at a place in its file.
public struct JobNote: Hashable, Sendable, CustomStringConvertible {
  public var location: SourceLocation
  public var message: String

  public init(_ location: SourceLocation, _ message: String) {
    self.location = location
    self.message = message
  }

  /// `FILE:LINE:COL: note: MESSAGE`.
  public var description: String { "\(location): note: \(message)" }
}

extension JobDecoder {
  /// The notes on `spec` (see the file's comment).
  func notes(on spec: JobSpec) -> [JobNote] {
    var notes: [JobNote] = []
    for case (let i, .transition(let step)) in spec.timeline.enumerated() {
      guard let gesture = step.gesture, gesture.release == nil || gesture.releasedAsNavigation, gesture.isCancelled
      else { continue }
      // Three decimals: 520 of 1194 points is 0.436.
      let last = ((gesture.progress.last ?? 0) * 1000).rounded() / 1000
      // UIKit's rule by position and speed takes three velocities (four samples); with fewer, the speed alone.
      let why =
        gesture.progress.count >= 4
        ? "its speed does not carry it past min(187.5 pt, half the screen) within the step's duration"
        : "with fewer than four samples UIKit goes by the finger's speed alone, and it is not moving on"
      let rule =
        gesture.releasedAsNavigation
        ? "and \(why), so UINavigationController cancels the \(step.operation.rawValue) and '\(step.from)' stays on screen"
        : "not past 0.5, so the \(step.operation.rawValue) is cancelled and '\(step.from)' stays on screen "
          + "(UIPercentDrivenInteractiveTransition)"
      notes.append(
        JobNote(
          step.location,
          "timeline[\(i)].\(step.operation.rawValue): the gesture ends at progress \(JobDecoder.format(last)), "
            + rule + "; say release: cancel to keep this, or move the finger further"))
    }
    for case (let i, .transition(let step)) in spec.timeline.enumerated()
    where step.transition == "zoom-expand" && step.parameters.element() == nil {
      notes.append(
        JobNote(
          step.location,
          "timeline[\(i)].\(step.operation.rawValue): zoom-expand without element cuts to '\(step.to)': it zooms the "
            + "tapped control into the new screen; give element: { from: VIEW ID, to: VIEW ID }"))
    }
    for case (let i, .transition(let step)) in spec.timeline.enumerated() where !step.unusedKeys.isEmpty {
      let verb = step.operation.rawValue, forward = step.operation == .pop ? "push" : "present"
      let keys = step.unusedKeys.joined(separator: ", ")
      notes.append(
        JobNote(
          step.location,
          "timeline[\(i)].\(verb): \(keys) \(step.unusedKeys.count == 1 ? "is" : "are") not used: a partial-curl's \(verb) "
            + "uncurls the page its \(forward) curled, as UIKit runs that curl back, with the \(forward)'s reveal, radius and mirror"))
    }
    // A job with locales gets them per locale, as each draws its steps (`localized(to:)`).
    if spec.locale == nil, spec.localization?.locales.isEmpty ?? true { notes += spec.gestureAgainstMotionNotes() }
    notes += unsettledSpringNotes(on: spec)
    notes += spec.fractionalPixelNotes()
    if let note = spec.oddCanvasNote(formats: spec.output.formats) { notes.append(note) }
    if let note = statusBarNote(on: spec) { notes.append(note) }
    if let note = homeIndicatorNote(on: spec) { notes.append(note) }
    return notes
  }

  /// The transitions whose screen rises from the bottom as a card and goes back down.
  static let risingCards: Set<String> = ["sheet", "cover-vertical", "elastic-present"]
}

extension JobSpec {
  /// A gesture whose finger moves across or against what it drags: a
  /// navigation push or pop (the page slides left or right with the
  /// finger), or a card that rises from the bottom, a sheet, a cover
  /// (`cover-vertical`) or an elastic sheet (up to present, down to
  /// dismiss). The finger is drawn where the direction says, so it would
  /// move against the page. Directions are named as the step is drawn in
  /// the job's locale (a step drawn mirrored, an Arabic pop, turns finger
  /// and page alike), and the one to give is the one to write there:
  /// `leading` and `trailing` are a mirrored step's left-to-right self's,
  /// an unmirrored one's the locale's.
  func gestureAgainstMotionNotes() -> [JobNote] {
    let rightToLeft = locale.map(Localization.isRightToLeft) ?? false
    var notes: [JobNote] = []
    for case (let i, .transition(let step)) in timeline.enumerated() {
      guard var travel = step.gesture?.travel else { continue }
      let forward = step.operation == .push || step.operation == .present
      // The page's motion in the step's left-to-right self.
      var axis: Size
      var direction: String
      if JobDecoder.risingCards.contains(step.transition) {
        (axis, direction) = forward ? (Size(width: 0, height: -1), "up") : (Size(width: 0, height: 1), "down")
      } else if Catalog.descriptor(named: step.transition)?.isNavigationController == true {
        (axis, direction) = forward ? (Size(width: -1, height: 0), "leading") : (Size(width: 1, height: 0), "trailing")
        // An unmirrored step in a right-to-left locale turns leading and trailing (`mirror(rightToLeft:)`).
        if rightToLeft, step.mirror != true { direction = direction == "leading" ? "trailing" : "leading" }
      } else {
        continue
      }
      guard travel.width * axis.width + travel.height * axis.height <= 0 else { continue }
      // As drawn: a mirrored step flips the finger and the page.
      if step.mirror == true {
        travel.width = -travel.width
        axis.width = -axis.width
      }
      let moves = travel.width > 0 ? "right" : travel.width < 0 ? "left" : travel.height < 0 ? "up" : "down"
      let page = axis.width < 0 ? "left (\(direction))" : axis.width > 0 ? "right (\(direction))" : direction
      notes.append(
        JobNote(
          step.location,
          "timeline[\(i)].\(step.operation.rawValue): its gesture moves the finger \(moves), but '\(step.transition)' "
            + "moves \(forward ? "its screen" : "the screen it takes away") \(page): the finger is drawn moving "
            + "against it; give direction: \(direction)"))
    }
    return notes
  }
}

extension JobSpec {
  /// A written `canvas.size` or `stage.size` whose sides at the canvas
  /// scale are no whole number of pixels, each said at its size with the
  /// pixels it is drawn in.
  func fractionalPixelNotes() -> [JobNote] {
    let scale = Double(canvas.scale)
    var sizes: [(key: String, what: String, size: Size)] = [("canvas.size", "the canvas", canvas.size)]
    if let stage { sizes.append(("stage.size", "the stage", stage.size)) }
    var notes: [JobNote] = []
    for (key, what, size) in sizes {
      guard let location = sizeSources[key] else { continue }
      let width = size.width * scale, height = size.height * scale
      func whole(_ x: Double) -> Bool { abs(x - x.rounded()) < 1e-6 }
      guard !whole(width) || !whole(height) else { continue }
      // To the thousandth: 390.2 at 3x is 1170.6, not 1170.6000000000001.
      func f(_ x: Double) -> String { JobDecoder.format((x * 1000).rounded() / 1000) }
      notes.append(
        JobNote(
          location,
          "\(key): \(f(size.width))x\(f(size.height)) points at scale \(canvas.scale) are \(f(width))x\(f(height)) pixels; "
            + "\(what) is \(f(width.rounded()))x\(f(height.rounded())) pixels, each side rounded to the nearest whole pixel"))
    }
    return notes
  }
}

extension JobDecoder {
  /// A step whose written spring has not come within 1 % of its end when
  /// the step's duration ends (an interactive step's completion is re-timed,
  /// and so left out), and a gesture whose completion spring never settles.
  func unsettledSpringNotes(on spec: JobSpec) -> [JobNote] {
    var notes: [JobNote] = []
    for case (let i, .transition(let step)) in spec.timeline.enumerated() where step.gesture == nil {
      guard case .curve(.spring(let spring))? = step.parameters.values["curve"],
        let transition = Catalog.descriptor(named: step.transition)?.make(step.parameters)
      else { continue }
      let duration = transition.duration
      let short = 1 - spring.position(at: duration)
      guard abs(short) > 0.01 else { continue }
      let percent = Int((abs(short) * 100).rounded())
      // The bounce form is damped by a bounce below 1, the others by damping.
      let bounces = spring.perceptualDuration != nil
      let settling = spring.settlingDuration
      let advice: String
      if !settling.isFinite {
        // An undamped spring oscillates for ever: no duration is long enough.
        advice =
          "with no damping it never settles (it oscillates for ever, whatever the step's duration): give it "
          + (bounces ? "a bounce below 1" : "damping above 0")
      } else if settling > JobDecoder.maximumDuration {
        // No step is that long: the spring itself must settle sooner.
        advice =
          "it settles in about \(JobDecoder.format(settling.rounded())) s, longer than a step lasts (at most "
          + "\(JobDecoder.format(JobDecoder.maximumDuration)) s): give it "
          + (bounces ? "a smaller bounce or a shorter duration" : "more damping or a stiffer spring")
      } else {
        advice =
          "it settles in about \(JobDecoder.format((settling * 100).rounded() / 100)) s: give the step that duration, "
          + "or a stiffer spring"
      }
      notes.append(
        JobNote(
          step.location,
          "timeline[\(i)].\(step.operation.rawValue): its spring is still \(percent) % of its travel "
            + (short > 0 ? "short of" : "past") + " its end when the step's \(JobDecoder.format(duration)) s end, "
            + "and jumps there in one frame (Core Animation ends a spring at its duration); " + advice))
    }
    // A gesture's rest is as long as the finger leaves it, but an undamped
    // completion spring settles in none: the rest swings about its end and
    // jumps there when it is over.
    for case (let i, .transition(let step)) in spec.timeline.enumerated() {
      guard let gesture = step.gesture, case .spring(let spring) = gesture.completionCurve.curve(restDuration: 1),
        !spring.settlingDuration.isFinite
      else { continue }
      notes.append(
        JobNote(
          step.location,
          "timeline[\(i)].\(step.operation.rawValue).gesture.completionCurve: its spring has no damping, so it never "
            + "settles: the rest of the step swings about its end and jumps there in one frame when it is over "
            + "(Core Animation ends a spring at its duration); give it "
            + (spring.perceptualDuration != nil ? "a bounce below 1" : "damping above 0")))
    }
    return notes
  }
}
