// What a transition step may add besides its transition's parameters:
//
//   gesture: { … }       a finger drives the step (JobDecoder+Gesture.swift)
//   slowmo: 4            the step runs 4× slower, as the Simulator's slow
//                        animations show it (1…20)
//   touch: [x, y]        a touch indicator (a translucent circle, as screen
//   touch: true          recordings show touches) at a point, or where the
//                        transition's own `tap`, `origin` or `element` says,
//                        else where the gesture's finger starts, else at the
//                        tap's or origin's default; either way on the screen
//                        (0…width, 0…height)
//   mirror: true         draw the step mirrored left to right, as UIKit
//                        mirrors its navigation transitions in right-to-left
//                        locales (Localization.swift; `false` keeps a
//                        navigation step unmirrored there; `auto`, the
//                        default, mirrors it as UIKit does)

import Geometry
import Motion
import Transitions

extension JobDecoder {
  /// `step` with its `gesture`, `slowmo` and `touch` from `fields`.
  /// `container` is the card a push or pop inside a sheet runs in
  /// (`hostedContainer(of:canvas:)`), nil for the whole screen: its gesture
  /// and touch are measured in it, as UIKit's navigation controller there
  /// has the card's bounds.
  func withStepOptions(
    _ step: TransitionStep, _ fields: Fields, canvas: CanvasSpec, from: ScreenSpec, container: Size? = nil
  ) throws(Diagnostic) -> TransitionStep {
    let area = container ?? canvas.size
    var step = step
    step.container = container
    // A sheet rests below the safe area: a screen no taller shows none of it.
    if step.transition == "sheet" {
      let sheet = PageSheet(parameters: step.parameters)
      if sheet.cardWidth == 0, sheet.travel(width: canvas.size.width, height: canvas.size.height) <= 0 {
        let top = sheet.safeAreaTop + PageSheet.topOffset(width: canvas.size.width, height: canvas.size.height)
        throw Diagnostic(
          step.location,
          "\(fields.path): a sheet rests \(JobDecoder.format(top)) pt from the top (the safe "
            + "area and its gap), below this \(JobDecoder.format(canvas.size.height))-point screen; give the canvas a "
            + "device or a taller size, or the step a smaller safeAreaTop")
      }
    }
    if let node = fields["gesture"] {
      let sheetWay =
        step.transition == "sheet"
        ? PageSheet(parameters: step.parameters).travel(width: canvas.size.width, height: canvas.size.height) : nil
      step.gesture = try gesture(node, fields.path("gesture"), container: area, sheetWay: sheetWay)
      // The step's own curve, in either spelling (`spring: { … }` is the curve as a mapping).
      let writesCurve = fields["curve"] != nil || fields["spring"] != nil
      if let descriptor = Catalog.descriptor(named: step.transition),
        descriptor.isNavigationController, var gesture = step.gesture
      {
        // UINavigationController's interactive push and pop track the finger
        // linearly (UIKit's curve 3: every property linear in p, UIKIT.md §1),
        // not along the system spring; a curve the step writes, as `curve:`
        // or as `spring:`, still wins.
        if !writesCurve { step.parameters.values["curve"] = .curve(.linear) }
        // And end by its own rules (position, velocity and acceleration; the
        // rest at the finger's speed as it lifts) where the gesture does not say.
        let written = Set(node.pairs?.map(\.key) ?? [])
        let duration = descriptor.make(step.parameters).totalDuration
        let decided = InteractiveTransitionTrack.navigationRelease(
          percentComplete: gesture.progress, interval: gesture.interval, duration: duration, width: area.width)
        if !written.contains("release") {
          gesture.release = decided.release
          gesture.releasedAsNavigation = true
        }
        if !written.contains("completionSpeed") {
          let speed = InteractiveTransitionTrack.navigationCompletionSpeed(
            release: gesture.release ?? decided.release, percentComplete: gesture.progress.last ?? 0,
            velocity: decided.velocity, duration: duration)
          // Within the range `completionSpeed:` takes (a finger at rest at the start: r = 0).
          gesture.completionSpeed = Swift.min(Swift.max(speed, 0.01), 100)
        }
        step.gesture = gesture
      }
      // A sheet is dragged by UIKit's own pan, not a percent-driven
      // transition: its top follows the finger. Linear while tracking (a
      // curve the step writes, `curve:` or `spring:`, still wins), whether the finger is written
      // as `progress:` (the fraction of the way the top has moved) or as a
      // `distance:` along that way (`gesture(_:_:container:sheetWay:)`),
      // percentComplete 1 where the finger has moved the top between rest
      // and the screen's bottom.
      if step.transition == "sheet", (step.gesture?.travel?.width ?? 0) == 0, !writesCurve {
        step.parameters.values["curve"] = .curve(.linear)
      }
    }
    if let node = fields["mirror"] { step.mirror = try mirror(node, fields.path("mirror")) }
    if let node = fields["slowmo"] {
      step.slowmo = try number(node, fields.path("slowmo"), in: 1...20, expected: "a slow-down factor from 1 to 20")
    }
    if let node = fields["touch"] {
      let touch = try touch(node, fields.path("touch"), step: step, from: from, canvas: area)
      step.touch = touch?.point
      step.touchStartsGesture = touch?.startsGesture ?? false
      step.touchParameter = touch?.parameter
      if let point = step.touch, !(0...area.width).contains(point.x) || !(0...area.height).contains(point.y) {
        let size = "\(JobDecoder.format(area.width))x\(JobDecoder.format(area.height))"
        throw Diagnostic(
          node.location,
          "\(fields.path("touch")): the touch at [\(JobDecoder.format(point.x)), \(JobDecoder.format(point.y))] "
            + "is outside the \(size)-point \(container == nil ? "screen" : "card the step runs in")")
      }
    }
    return step
  }

  /// `mirror:`: `true` or `false`, or `auto`, the default `transvid list`
  /// shows (nil: mirrored as UIKit mirrors the step in the job's locale).
  private func mirror(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Bool? {
    if node.text == "auto" { return nil }
    if let value = node.plainBoolean { return value }
    let text = node.text ?? ""
    let hint = ["true", "false"].contains(text.lowercased()) ? "" : Suggestion.hint(for: text, in: ["true", "false", "auto"], listing: false)
    throw mismatch(node, path, expected: "true, false or auto", hint: hint)
  }

  /// `touch: [x, y]`, or `true` for the point the transition starts from:
  /// its tap, origin or element, else where its gesture's finger starts
  /// (`startsGesture`), else its tap's or origin's default.
  private func touch(
    _ node: YAMLNode, _ path: KeyPath, step: TransitionStep, from: ScreenSpec, canvas: Size
  ) throws(Diagnostic) -> (point: Point, startsGesture: Bool, parameter: String?)? {
    if node.plainBoolean == false { return nil }
    if node.plainBoolean == true {
      let p = step.parameters
      if case .point(let tap)? = p.values["tap"] { return (tap, false, "tap") }
      if case .rect(let origin)? = p.values["origin"] { return (origin.center, false, "origin") }
      if let element = p.element(), let view = from.views.first(where: { $0.id == element.from }) {
        return (view.frame.center, false, nil)
      }
      if let gesture = step.gesture, let start = Self.fingerStart(of: gesture, sheet: step.transition == "sheet", canvas: canvas) {
        return (start, true, nil)
      }
      // A tap or origin left unwritten is the transition's default, where
      // the transition starts as it does from one written out: tap-spread's
      // screen centre, a circle's [0, 0, 0, 0], corner-reveal's [0, 0, 100, 100].
      let defaults = Catalog.descriptor(named: step.transition)?.parameters ?? []
      if defaults.contains(where: { $0.name == "tap" }) {
        return (Point(x: canvas.width / 2, y: canvas.height / 2), false, "tap")
      }
      if case .rect(let origin)? = defaults.first(where: { $0.name == "origin" })?.value {
        return (origin.center, false, "origin")
      }
      if step.gesture != nil {
        throw Diagnostic(
          node.location,
          "\(path): '\(step.transition)' has no tap, origin or element here to put the touch on, and its gesture "
            + "no direction for the finger to move in; give the gesture direction and distance, or touch: [x, y]")
      }
      throw Diagnostic(
        node.location,
        "\(path): '\(step.transition)' has no tap, origin or element here to put the touch on; give touch: [x, y]")
    }
    let xy = try numbers(node, path, count: 2, expected: "[x, y] in points, or true")
    return (Point(x: xy[0], y: xy[1]), false, nil)
  }

  /// Where a gesture's finger is at percentComplete 0 on a `canvas`-sized
  /// screen: on the edge its `direction` drags from, halfway along (a
  /// back-swipe `right` at the left edge, an interactive push `left` at the
  /// right one, `up` at the bottom, `down` at the top), so that moving by
  /// `travel` × percentComplete it stays on the edge of the page it drags; on
  /// a `sheet` dragged up or down, at the sheet's top (the screen's bottom
  /// when presented, its resting top when dismissed), which follows the
  /// finger. Nil for a gesture of `progress` alone, whose finger does not move.
  static func fingerStart(of gesture: GestureSpec, sheet: Bool, canvas: Size) -> Point? {
    guard let travel = gesture.travel, travel.width != 0 || travel.height != 0 else { return nil }
    let w = canvas.width, h = canvas.height
    if travel.width != 0 { return Point(x: travel.width > 0 ? 0 : w, y: h / 2) }
    if travel.height < 0 { return Point(x: w / 2, y: h) }
    // The sheet's travel runs from its resting top to the screen's bottom.
    return Point(x: w / 2, y: sheet ? h - travel.height : 0)
  }
}
