// `gesture:` — a finger driving a transition step, as
// UIPercentDrivenInteractiveTransition does (TIMING.md §5).
//
//   pop: { gesture: { progress: [0, 0.2, 0.35], release: cancel } }
//   pop: { gesture: { direction: right, distance: [0, 80, 160, 240] } }
//
//   progress         percentComplete samples, 0…1 (or `direction` + `distance`)
//   direction        left | right | up | down: the finger's travel; leading |
//                    trailing: left | right in a left-to-right locale,
//                    right | left in a right-to-left one
//   distance         points travelled, one per sample; progress = distance /
//                    the container's width (left, right) or height (up, down):
//                    the screen's, or the card's for a push inside a sheet;
//                    up or down on a `sheet`, the sheet's way between its
//                    rest and the screen's bottom, as far as its top can go
//   interval         seconds between samples (default 1/6)
//   release          finish | cancel (default: finish when the last sample > 0.5)
//   completionSpeed  UIKit's completionSpeed (default 1)
//   completionCurve  the curve of the rest (default easeInEaseOut); UIKit's spring
//                    form without a duration settles within the rest

import Geometry
import Motion

extension JobDecoder {
  static let gestureKeys = ["progress", "direction", "distance", "interval", "release", "completionSpeed", "completionCurve"]

  /// The gesture `node` writes for a step whose container is `container`
  /// points (the screen, or the card a push inside a sheet runs in).
  /// `sheetWay`, for a `sheet` step, is how far its top moves between rest
  /// and the screen's bottom: a finger dragging it up or down, on its top,
  /// travels at most that far.
  func gesture(_ node: YAMLNode, _ path: KeyPath, container: Size, sheetWay: Double? = nil) throws(Diagnostic) -> GestureSpec {
    // An unquoted `cubic-bezier(0.42, 0, …)` in { … } ends at its first comma
    // and YAML reads the rest as keys (`0`, `0.58`, `1)`): the curve is the
    // problem, not an unknown key '0'.
    if let curve = node.pairs?.first(where: { $0.key == "completionCurve" })?.value, let text = curve.text,
      text.contains("("), !text.contains(")")
    {
      _ = try completionCurve(curve, path.appending("completionCurve"))
    }
    let fields = try self.fields(node, path, keys: JobDecoder.gestureKeys)
    var gesture = GestureSpec(progress: [])
    // The direction, if given: which way the finger travels, and how far is percentComplete 1.
    var extent = 0.0
    if let directionNode = fields["direction"] {
      var direction = try string(directionNode, fields.path("direction"), expected: "left, right, up, down, leading or trailing")
      if direction == "leading" || direction == "trailing" {
        gesture.isLayoutRelative = true
        direction = direction == "leading" ? "left" : "right"
      }
      switch direction {
      case "left", "right": extent = container.width
      case "up", "down": extent = sheetWay ?? container.height
      default:
        throw mismatch(
          directionNode, fields.path("direction"), expected: "left, right, up, down, leading or trailing",
          hint: Suggestion.hint(for: direction, in: ["left", "right", "up", "down", "leading", "trailing"], listing: false))
      }
      switch direction {
      case "left": gesture.travel = Size(width: -extent, height: 0)
      case "right": gesture.travel = Size(width: extent, height: 0)
      case "up": gesture.travel = Size(width: 0, height: -extent)
      default: gesture.travel = Size(width: 0, height: extent)
      }
    }
    if let progress = fields["progress"] {
      // `direction` may say which way a progress gesture goes (DESIGN.md's example); `distance` is the other form.
      if fields["distance"] != nil {
        throw Diagnostic(progress.location, "\(fields.path("progress")): give either progress or distance, not both")
      }
      gesture.progress = try samples(progress, fields.path("progress"), in: 0...1, expected: "a number from 0 to 1")
    } else if let distance = fields["distance"] {
      _ = try required("direction", in: fields, "left, right, up, down, leading or trailing")
      let way = sheetWay != nil && gesture.travel?.width == 0 ? " (the sheet's way, from its rest to the screen's bottom)" : ""
      let points = try samples(
        distance, fields.path("distance"), in: 0...extent, expected: "a distance in points from 0 to \(JobDecoder.format(extent))\(way)")
      gesture.progress = points.map { $0 / extent }
    } else {
      throw Diagnostic(fields.node.location, "\(path): missing 'progress' (percentComplete samples, 0…1) or 'direction' and 'distance'")
    }
    if let node = fields["interval"] {
      // A quotient too (`1/6`, `1/60`), as README writes the default: a frame's length is one.
      let expected = "a number of seconds from 0.001 to 10 (or a quotient such as 1/60)"
      let range = 0.001...10.0
      guard let seconds = node.number ?? node.quotient, seconds.isFinite, range.contains(seconds) else {
        throw mismatch(
          node, fields.path("interval"), expected: expected, hint: node.quotedNumberHint(quotients: true) { range.contains($0) })
      }
      gesture.interval = seconds
    }
    if let node = fields["release"] {
      let release = try string(node, fields.path("release"), expected: "finish or cancel")
      switch release {
      case "finish": gesture.release = .finish
      case "cancel": gesture.release = .cancel
      default:
        throw mismatch(
          node, fields.path("release"), expected: "finish or cancel",
          hint: Suggestion.hint(for: release, in: ["finish", "cancel"], listing: false))
      }
    }
    if let node = fields["completionSpeed"] {
      gesture.completionSpeed = try number(node, fields.path("completionSpeed"), in: 0.01...100, expected: "a number from 0.01 to 100")
    }
    if let node = fields["completionCurve"] {
      gesture.completionCurve = try completionCurve(node, fields.path("completionCurve"))
    }
    return gesture
  }

  /// `completionCurve:`, a curve as `curve:` writes one; UIKit's spring
  /// form without a `duration` takes the rest's (`CompletionCurve`).
  private func completionCurve(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> CompletionCurve {
    let text = try string(node, path, expected: "a curve")
    do {
      return try CompletionCurve(parsing: text)
    } catch {
      throw Diagnostic(node.location, "\(path): \(error.message)\(JobDecoder.cutCallHint(node))")
    }
  }

  /// A non-empty list of numbers in `range`.
  private func samples(
    _ node: YAMLNode, _ path: KeyPath, in range: ClosedRange<Double>, expected: String
  ) throws(Diagnostic) -> [Double] {
    guard let items = node.items, !items.isEmpty, items.count <= 10_000 else {
      throw mismatch(node, path, expected: "a list of 1 to 10000 samples")
    }
    var values: [Double] = []
    for (i, item) in items.enumerated() {
      values.append(try number(item, path.appending(index: i), in: range, expected: expected))
    }
    return values
  }
}
