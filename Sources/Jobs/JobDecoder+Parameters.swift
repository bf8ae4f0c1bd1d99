// Transition parameters: a step's keys beyond from/to/transition, checked
// against the transition's `TransitionDescriptor`.
//
//   duration, delay  seconds, 0…60          rect   [x, y, width, height], w, h ≥ 0
//   number           any finite number      point  [x, y]
//   curve            AnimationCurve(parsing:)        color  see ColorSyntax
//   element          {from: ID, to: ID}: `from` a view of the screen being
//                    left, `to` a view of the screen being shown
//
// Only what the step writes is stored; the transition applies its defaults.

import Motion
import Transitions

extension JobDecoder {
  /// Longest `duration`-kind value, in seconds.
  static let maximumDuration = 60.0

  /// The parameters `fields` writes for `descriptor`. `inheritedDuration` is
  /// the duration a pop or dismiss inherits with its push's transition: its
  /// length unless it writes its own, and so what a spring it writes takes.
  func parameters(
    _ fields: Fields, for descriptor: TransitionDescriptor, from: ScreenSpec, to: ScreenSpec,
    inheritedDuration: Double? = nil
  ) throws(Diagnostic) -> TransitionParameters {
    var values: [String: ParameterValue] = [:]
    let takesCurve = descriptor.parameters.contains { $0.name == "curve" }
    // UIKit's spring form without its own duration takes the step's, written
    // either way (DESIGN.md: `spring: { damping, velocity }`), as UIView's
    // spring animation takes the animation's.
    let stepDuration = fields["duration"]?.number ?? inheritedDuration
      ?? descriptor.parameters.first { $0.name == "duration" }.flatMap { Double($0.defaultValue) }
    let durationField = fields["duration"].map { (node: $0, path: fields.path("duration")) }
    // Where the step's curve is written, for an error at its duration.
    var curveNode: (node: YAMLNode, path: KeyPath)?
    for pair in fields.pairs where !JobDecoder.stepReservedKeys.contains(pair.key) {
      if pair.key == "spring", takesCurve {
        if fields["curve"] != nil {
          throw Diagnostic(pair.keyLocation, "\(fields.path("spring")): give either curve or spring, not both")
        }
        values["curve"] = .curve(
          try spring(pair.value, fields.path("spring"), stepDuration: stepDuration, durationField: durationField))
        let own = pair.value.pairs?.first { $0.key == "duration" }
        curveNode = own.map { ($0.value, fields.path("spring").appending("duration")) } ?? (pair.value, fields.path("spring"))
        continue
      }
      if pair.key == "caption" {
        throw Diagnostic(
          pair.keyLocation,
          "\(fields.path("caption")): a caption sits beside the step, not inside its mapping: "
            + "write caption: on the line after the step, indented as the step's key")
      }
      guard let parameter = descriptor.parameters.first(where: { $0.name == pair.key }) else {
        let names = descriptor.parameters.map(\.name)
        var message = "unknown parameter \(YAMLNode.singleQuoted(pair.key)) in \(fields.path)"
        let known = names + (takesCurve ? ["spring"] : []) + JobDecoder.stepReservedKeys
        if let glued = Suggestion.gluedColon(pair.key, in: known) {
          message += glued
        } else if let match = Suggestion.closest(to: pair.key, in: known) {
          message += "; did you mean '\(match)'?"
        } else {
          // Its own parameters and the keys every step takes (`StepOption`): all it would accept.
          let shared = StepOption.names.filter { $0 != "spring" || takesCurve }
          message += "; '\(descriptor.name)' takes: \((names + shared).joined(separator: ", "))"
        }
        throw Diagnostic(pair.keyLocation, message)
      }
      values[pair.key] = try value(
        pair.value, fields.path(pair.key), kind: parameter.kind, range: parameter.range, from: from, to: to,
        stepDuration: stepDuration, durationField: durationField)
      if parameter.kind == .curve { curveNode = (pair.value, fields.path(pair.key)) }
    }
    // UIKit's spring form with a duration of its own is the animation's
    // length (UIView's spring animation is a CASpringAnimation of that
    // duration, TIMING.md §3): a step that writes no `duration` lasts it,
    // where the transition's default would cut the spring short or hold it
    // still at its end.
    if fields["duration"] == nil, let curveNode, case .curve(.spring(let spring))? = values["curve"],
      let own = spring.duration, own != stepDuration
    {
      guard own <= JobDecoder.maximumDuration else {
        throw Diagnostic(
          curveNode.node.location,
          "\(curveNode.path.subject): the spring's duration, \(JobDecoder.format(own)) s, is the step's, at most "
            + "\(JobDecoder.format(JobDecoder.maximumDuration)) s")
      }
      values["duration"] = .number(own)
    }
    // The iOS 17 form's `duration` is its pace, which Apple gives as about
    // its settling duration, and UIKit runs such a spring until it settles:
    // a step that writes no `duration` lasts that, as `transvid curve`
    // samples it. One that settles in no step's length (an undamped one,
    // `bounce: 1`) keeps the transition's, with a note.
    if fields["duration"] == nil, case .curve(.spring(let spring))? = values["curve"], spring.perceptualDuration != nil,
      spring.settlingDuration <= JobDecoder.maximumDuration
    {
      values["duration"] = .number(spring.settlingDuration)
    }
    return TransitionParameters(values)
  }

  private func value(
    _ node: YAMLNode, _ path: KeyPath, kind: ParameterKind, range: ClosedRange<Double>?, from: ScreenSpec, to: ScreenSpec,
    stepDuration: Double?, durationField: (node: YAMLNode, path: KeyPath)?
  ) throws(Diagnostic) -> ParameterValue {
    switch kind {
    case .duration:
      return .number(
        try number(node, path, in: 0...JobDecoder.maximumDuration, expected: "a number of seconds from 0 to 60"))
    case .number:
      let range = range ?? -JobDecoder.maximumCoordinate...JobDecoder.maximumCoordinate
      return .number(
        try number(
          node, path, in: range, expected: "a number from \(JobDecoder.format(range.lowerBound)) to \(JobDecoder.format(range.upperBound))"))
    case .rect:
      return .rect(try rect(node, path))
    case .point:
      return .point(try point(node, path))
    case .color:
      return .color(try color(node, path))
    case .fill:
      if node.text == "blur" { return .blur }
      do {
        return .color(try color(node, path))
      } catch {
        // The colour's error, hints and all, naming the other choice too, and
        // suggesting it for a near miss (`blurr`) no colour name is.
        var message = error.message.replacingAll("expected a colour", with: "expected blur or a colour")
        if !message.contains("; did you mean"), let text = node.text { message += Suggestion.hint(for: text, in: ["blur"], listing: false) }
        throw Diagnostic(error.location, message)
      }
    case .curve:
      let expected = "a curve name, cubic-bezier(x1, y1, x2, y2) or spring(…)"
      guard let text = node.text else { throw mismatch(node, path, expected: expected) }
      do {
        return .curve(try AnimationCurve(parsing: text, duration: stepDuration))
      } catch {
        if let problem = durationProblem(error, durationField) { throw problem }
        throw Diagnostic(node.location, "\(path.subject): \(error.message)\(JobDecoder.cutCallHint(node))")
      }
    case .element:
      let fields = try fields(node, path, expected: "{ from: VIEW ID, to: VIEW ID }", keys: ["from", "to"])
      let fromID = try viewID(try required("from", in: fields, "a view id on '\(from.name)'"), fields.path("from"), on: from)
      let toID = try viewID(try required("to", in: fields, "a view id on '\(to.name)'"), fields.path("to"), on: to)
      return .element(from: fromID, to: toID)
    }
  }

  /// `; inside { … } quote the whole value: "cubic-bezier(…)"` for a curve
  /// a comma cut: in a flow mapping an unquoted `cubic-bezier(0.4, 0, …)`
  /// ends at its first comma, leaving a plain value with a `(` it does not
  /// close and no comma. A quoted value, or a plain one with a comma (read
  /// whole, in a block mapping), was not cut: nothing for them.
  static func cutCallHint(_ node: YAMLNode) -> String {
    guard case .scalar(let text, .plain) = node.content, text.contains("("), !text.contains(")"), !text.contains(",") else {
      return ""
    }
    return "; inside { … } quote the whole value: \"\(text.prefix { $0 != "(" })(…)\""
  }

  /// The id `node` names, which must be a view's on `screen`, with a size
  /// (a view of no width or height leaves nothing to fly: the other end
  /// would pop in at the end).
  private func viewID(_ node: YAMLNode, _ path: KeyPath, on screen: ScreenSpec) throws(Diagnostic) -> String {
    let id = try string(node, path, expected: "a view id")
    let ids = screen.views.compactMap(\.id)
    guard let view = screen.views.first(where: { $0.id == id }) else {
      let hint = ids.isEmpty ? "; it has no views with an id" : Suggestion.hint(for: id, in: ids)
      throw Diagnostic(node.location, "\(path): screen '\(screen.name)' has no view \(YAMLNode.singleQuoted(id))\(hint)")
    }
    guard view.frame.width > 0, view.frame.height > 0 else {
      throw Diagnostic(
        node.location,
        "\(path): view '\(id)' on '\(screen.name)' has no size (\(JobDecoder.format(view.frame.width))×"
          + "\(JobDecoder.format(view.frame.height)) pt), so nothing would fly; give it a frame with a width and height")
    }
    return id
  }
}

extension JobDecoder {
  /// `spring: { damping: 0.55, velocity: 1.8, duration: 0.75 }` — any of the
  /// spring forms `AnimationCurve(parsing:)` takes, written as a mapping:
  /// UIKit's `{damping, velocity, duration}`, CA's `{mass, stiffness,
  /// damping, velocity}`, `{response, dampingRatio}` or `{duration, bounce}`;
  /// a number may be a quotient (`velocity: 1/0.55`), as in `spring(…)`.
  func spring(
    _ node: YAMLNode, _ path: KeyPath, stepDuration: Double? = nil, durationField: (node: YAMLNode, path: KeyPath)? = nil
  ) throws(Diagnostic) -> AnimationCurve {
    guard let pairs = node.pairs, !pairs.isEmpty else {
      throw mismatch(node, path, expected: "a mapping such as { damping: 0.55, velocity: 1.8, duration: 0.75 }")
    }
    var arguments: [String] = []
    for pair in pairs {
      // `allowsOverdamping` is true or false; every other parameter a spring knows, a finite number
      // (`.nan`, `.inf` and `1e400` are numbers to YAML); a label it does not know is its error, at the label.
      let value = pair.value
      let labels = Spring.parameterLabels + ["initialVelocity"]
      if !labels.contains(pair.key), let glued = Suggestion.gluedColon(pair.key, in: labels) {
        throw Diagnostic(pair.keyLocation, "unknown parameter \(YAMLNode.singleQuoted(pair.key)) in \(path)\(glued)")
      }
      if pair.key == "allowsOverdamping" {
        guard value.plainBoolean != nil else { throw mismatch(value, path.appending(pair.key), expected: "true or false") }
      } else if Spring.parameterLabels.contains(pair.key) || pair.key == "initialVelocity" {
        guard let number = value.number ?? value.quotient else {
          throw mismatch(value, path.appending(pair.key), expected: "a number", hint: value.quotedNumberHint(quotients: true) { _ in true })
        }
        guard number.isFinite else { throw mismatch(value, path.appending(pair.key), expected: "a finite number") }
      } else if value.number == nil, value.plainBoolean == nil {
        throw mismatch(value, path.appending(pair.key), expected: "a number")
      }
      // As written, which messages echo; a number the spring's text does not read so (`0o144`), as its value.
      let text = value.text ?? ""
      let readable = text.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { Double($0) != nil }
      let number = (value.number ?? value.quotient).map { JobDecoder.format($0) }
      let written = value.plainBoolean.map { "\($0)" } ?? (readable ? text : number ?? text)
      arguments.append("\(pair.key): \(written)")
    }
    do {
      return try AnimationCurve(parsing: "spring(\(arguments.joined(separator: ", ")))", duration: stepDuration)
    } catch {
      if let problem = durationProblem(error, durationField) { throw problem }
      // At the label the message names (`velocity = 5000 must be…`, `unknown parameter 'stifness'`), if one.
      let named = pairs.first { error.message.contains("'\($0.key)'") }.map(\.keyLocation)
        ?? pairs.first { error.message.contains("\($0.key) =") }.map(\.value.location)
      // The key is `spring:`, so the parser's own "spring: " is not said again after it.
      let message = error.message.hasPrefix("spring: ") ? String(error.message.dropFirst("spring: ".count)) : error.message
      throw Diagnostic(named ?? node.location, "\(path.subject): \(message)")
    }
  }

  /// A step's `duration` (`field`) that its spring, UIKit's form without a
  /// duration of its own, cannot take (`error`), as an error at it; else nil.
  /// It was "give 'duration' … or 'stiffness'", though the step gives one.
  private func durationProblem(_ error: MotionParseError, _ field: (node: YAMLNode, path: KeyPath)?) -> Diagnostic? {
    guard error.reason == .takenDurationOutOfRange, let field else { return nil }
    return mismatch(
      field.node, field.path,
      expected: "at least 0.001 s (the spring takes the step's duration as its own)")
  }
}
