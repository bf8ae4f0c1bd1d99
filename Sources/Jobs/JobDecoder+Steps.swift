// `timeline:` — the steps, in order, replayed on a navigation stack.
//
//   timeline:
//     - hold: 0.4                                   # seconds, 0…600
//     - push: { to: detail, transition: circle-spread, duration: 0.5 }
//     - pop:                                        # back to the screen below
//
// The first screen in `screens` is on display when the timeline starts.
// `push`/`present` need `to` and `transition`; `from`, when given, must name
// the screen on display. They put `to` on the stack. `pop`/`dismiss` take it
// off again and return to the screen below: a pop undoes a push, a dismiss a
// present and the pushes after it (`TimelineStack`). Without `transition` a
// pop reuses its push's; with the same transition (given or not, or by its
// other name: `push` and `pop` are one) it also inherits the push's
// parameters, its own values replacing them (`TransitionParameters.merging`), except a `delay`
// when the pop is a gesture and the linear curve a finger tracks an
// interactive push or sheet along (the animation's curve is the one written,
// or the default), and the push's `mirror:` unless it says its own. Parameters are checked in `JobDecoder+Parameters.swift`.

import Geometry
import Motion
import Raster
import Transitions

extension JobDecoder {
  static let stepKeys = ["hold", "push", "pop", "present", "dismiss"]
  /// Keys of a transition step that are not transition parameters.
  static let stepReservedKeys = ["from", "to", "transition", "gesture", "slowmo", "touch", "mirror"]
  /// Keys a push or present must write.
  static let requiredStepKeys = ["transition", "to"]
  /// Longest hold, in seconds.
  static let maximumHold = 600.0

  /// Whether `key` is written inside a transition step's mapping: one of
  /// its own keys (`slowmo`, `touch`, …), `spring`, or a parameter of a
  /// transition steps may name.
  func isStepOption(_ key: String) -> Bool {
    JobDecoder.stepReservedKeys.contains(key) || key == "spring"
      || transitions.contains { $0.parameters.contains { $0.name == key } }
  }

  /// A screen pushed or presented, waiting for its pop or dismiss.
  private struct Shown {
    var step: TransitionStep
    /// The parameters its pop or dismiss inherits: the step's, less the
    /// linear curve a gesture's tracking gave it (`withStepOptions`), which
    /// is the finger's, not the animation's.
    var parameters: TransitionParameters
    /// The number of the step in the timeline, for messages.
    var index: Int
    /// The card a push runs in while this screen is up (a sheet's, or the
    /// one this push ran in), nil where a push has the whole screen.
    var host: Size? = nil
    /// The card this push ran in, and so its pop runs in.
    var container: Size? = nil
  }

  func timeline(_ node: YAMLNode, screens: [ScreenSpec], canvas: CanvasSpec) throws(Diagnostic) -> [TimelineStep] {
    let path = KeyPath.root.appending("timeline")
    guard let items = node.items else {
      throw mismatch(node, path, expected: "a list of steps (hold, push, pop, present, dismiss)")
    }
    if items.isEmpty { throw mismatch(node, path, expected: "at least one step") }
    var steps: [TimelineStep] = []
    var stack: [Shown] = []
    var current = screens[0].name
    // The latest push and latest present a gesture cancelled, with their step numbers.
    var cancelled: [TransitionOperation: (index: Int, step: TransitionStep)] = [:]
    for (i, item) in items.enumerated() {
      let itemPath = path.appending(index: i)
      // `caption:` beside a step belongs to the stage (`stepCaptions`).
      guard let pairs = item.pairs?.filter({ $0.key != "caption" }), let pair = pairs.first else {
        throw mismatch(
          item, itemPath, expected: "a step: hold, push, pop, present or dismiss",
          hint: JobDecoder.colonlessStepHint(item))
      }
      if pairs.count > 1 {
        // `capton:` beside a step is a near miss of the one key that sits there, not a second step.
        if let near = pairs.first(where: {
          !JobDecoder.stepKeys.contains($0.key) && Suggestion.closest(to: $0.key, in: ["caption"]) != nil
        }) {
          throw unknownKey(near, in: itemPath, keys: ["caption"])
        }
        let second = pairs[1].key
        // A step's own option (`slowmo`, a parameter) written beside it, as `caption:` is: it goes inside.
        if pair.key != "hold", isStepOption(second) {
          throw Diagnostic(
            pairs[1].keyLocation,
            "\(itemPath): \(YAMLNode.singleQuoted(second)) goes inside the step's mapping, "
              + "\(pair.key): { …, \(second): … }; only caption: sits beside a step")
        }
        throw Diagnostic(
          pairs[1].keyLocation,
          "\(itemPath): a step has one key, found \(YAMLNode.singleQuoted(pair.key)) and \(YAMLNode.singleQuoted(second)) "
            + "(start each step with '-')")
      }
      let stepPath = itemPath.appending(pair.key)
      switch pair.key {
      case "hold":
        let seconds = try number(
          pair.value, stepPath, in: 0...JobDecoder.maximumHold, expected: "a number of seconds from 0 to 600")
        steps.append(.hold(seconds: seconds, location: pair.keyLocation))
      case "push", "present":
        let operation = TransitionOperation(rawValue: pair.key)!
        // A push while a sheet is up runs inside its card (as the renderer hosts it).
        let container = operation == .push ? stack.last?.host : nil
        let (step, written) = try forwardStep(
          operation, pair, stepPath, current: current, initial: stack.isEmpty, screens: screens, canvas: canvas,
          container: container)
        // A cancelled push never happened, as far as the stack is concerned.
        if !step.isCancelled {
          let host = container ?? hostedContainer(of: step, canvas: canvas)
          stack.append(Shown(step: step, parameters: written, index: i, host: host, container: container))
        } else {
          cancelled[operation] = (i, step)
        }
        steps.append(.transition(step))
        current = step.finalScreen
      case "pop", "dismiss":
        let operation = TransitionOperation(rawValue: pair.key)!
        // A dismiss from a screen pushed after the present dismisses the
        // presented navigation controller, its pushed screens with it.
        let undone = operation == .dismiss ? TimelineStack.dismissed(by: stack.map(\.step.operation)) : 1
        let remaining = Array(stack.dropLast(undone - 1))
        // A push or present the finger cancelled since the screen this step would undo: what it meant to undo.
        let undid = cancelled[operation == .pop ? .push : .present].flatMap { c in
          c.index > (remaining.last?.index ?? -1) ? JobDecoder.cancelledHint(c.step, index: c.index) : nil
        }
        let step = try reverseStep(
          operation, pair, stepPath, itemPath: itemPath, stack: remaining, current: current,
          screens: screens, canvas: canvas, container: operation == .pop ? stack.last?.container : nil,
          cancelledHint: undid ?? "")
        if !step.isCancelled { stack.removeLast(undone) }
        steps.append(.transition(step))
        current = step.finalScreen
      default:
        throw unknownKey(pair, in: itemPath, keys: JobDecoder.stepKeys)
      }
    }
    return steps
  }

  /// What to write for a step's value that is one key of the step glued
  /// to its value (`push: to:b`, `pop: duration:1`): YAML reads it as one
  /// text; else nothing.
  func gluedStepHint(_ node: YAMLNode) -> String {
    guard let text = node.text, let colon = text.firstIndex(of: ":"), isStepOption(String(text[..<colon])) else { return "" }
    return Suggestion.gluedColon(text, in: [String(text[..<colon])], readAs: "value") ?? ""
  }

  /// `- pop` or `- hold 1` (or `"pop"`, as a job written as JSON has it):
  /// a step's name without its colon, which YAML reads as one text, not a
  /// step. The hint writes it as a step (`; a step is its name, a colon and
  /// a value: pop: {}`); empty for any other node.
  static func colonlessStepHint(_ node: YAMLNode) -> String {
    guard case .scalar(let text, _) = node.content else { return "" }
    // `- hold:1`: the colon is there, with no space after it.
    if let glued = Suggestion.gluedColon(text, in: stepKeys, readAs: "value") { return glued }
    let name = String(text.prefix { $0 != " " && $0 != "\t" && $0 != "{" })
    guard stepKeys.contains(name) else { return "" }
    let rest = String(text.dropFirst(name.count)).trimmingSpaces
    let step =
      switch name {
      case _ where !rest.isEmpty: "\(name): \(rest)"
      case "hold": "hold: 1"
      case "push", "present": "\(name): { to: SCREEN, transition: NAME }"
      default: "\(name): {}"
      }
    return "; a step is its name, a colon and a value: \(step)"
  }

  private func forwardStep(
    _ operation: TransitionOperation, _ pair: YAMLNode.Pair, _ path: KeyPath, current: String, initial: Bool,
    screens: [ScreenSpec], canvas: CanvasSpec, container: Size?
  ) throws(Diagnostic) -> (step: TransitionStep, written: TransitionParameters) {
    guard let pairs = pair.value.pairs else {
      throw mismatch(
        pair.value, path, expected: "a mapping: { to: SCREEN, transition: NAME, … }", hint: gluedStepHint(pair.value))
    }
    let fields = Fields(node: pair.value, path: path, pairs: pairs)
    let transitionNode = try requiredStepKey("transition", in: fields, "a transition from the catalog")
    let descriptor = try self.descriptor(transitionNode, fields.path("transition"), operation: operation)
    let toNode = try requiredStepKey("to", in: fields, "the screen to show")
    let to = try screen(toNode, fields.path("to"), in: screens)
    if let fromNode = fields["from"] {
      let from = try screen(fromNode, fields.path("from"), in: screens)
      if from.name != current {
        let why = initial ? ", the first screen in screens," : ""
        throw Diagnostic(
          fromNode.location, "\(fields.path("from")): '\(from.name)' is not on display; '\(current)'\(why) is")
      }
    }
    if to.name == current {
      throw Diagnostic(toNode.location, "\(fields.path("to")): '\(to.name)' is already on display")
    }
    let from = screens.first { $0.name == current }!
    let parameters = withDeviceDefaults(
      try self.parameters(fields, for: descriptor, from: from, to: to), transition: descriptor.name, canvas: canvas)
    let step = TransitionStep(
      operation: operation, from: current, to: to.name, transition: descriptor.name, parameters: parameters,
      location: pair.keyLocation)
    return (try withStepOptions(step, fields, canvas: canvas, from: from, container: container), parameters)
  }

  /// The card a push runs in while `step`'s screen is up: the container a
  /// presentation over the old screen gives the steps inside it
  /// (`Transition.hostedContainerSize`: an iPad's form-sheet card, an
  /// iPhone's sheet as tall as it shows, an elastic card), nil where it is
  /// the whole screen. Only sizes enter it, so the screens are blank.
  private func hostedContainer(of step: TransitionStep, canvas: CanvasSpec) -> Size? {
    guard let transition = transitions.first(where: { $0.name == step.transition })?.make(step.parameters) else { return nil }
    let blank = ScreenSnapshot(name: "", image: Bitmap(width: 1, height: 1))
    let context = TransitionContext(
      containerSize: canvas.size, scale: Double(canvas.scale), operation: step.operation, fromScreen: blank, toScreen: blank)
    let size = transition.hostedContainerSize(in: context)
    return size == canvas.size ? nil : size
  }

  /// The card narrower than the screen that each screen shown in one is
  /// laid out in (`ScreenSpec.cardWidth`, `cardHeight`): the screen a
  /// presentation over the old screen shows in its card (an iPad's form
  /// sheet), and the screens a push inside the card, and its pop, show there.
  /// A screen has one layout: one the job also shows on the whole screen
  /// (its first, or one a step outside a card brings) keeps the whole
  /// screen's and has none here, and the card shows its part from the
  /// screen's left edge, rather than the whole screen showing a card's
  /// layout.
  func cardSizes(of timeline: [TimelineStep], canvas: CanvasSpec) -> [String: Size] {
    var sizes: [String: Size] = [:]
    var whole: Set<String> = []
    for case .transition(let step) in timeline {
      if whole.isEmpty { whole.insert(step.from) }
      let card = step.container ?? (step.operation.isReverse ? nil : hostedContainer(of: step, canvas: canvas))
      guard let card, card.width < canvas.size.width else {
        if !step.operation.isReverse { whole.insert(step.to) }
        continue
      }
      if step.container != nil { sizes[step.from] = card }
      sizes[step.to] = card
    }
    return sizes.filter { !whole.contains($0.key) }
  }

  private func reverseStep(
    _ operation: TransitionOperation, _ pair: YAMLNode.Pair, _ path: KeyPath, itemPath: KeyPath, stack: [Shown],
    current: String, screens: [ScreenSpec], canvas: CanvasSpec, container: Size?, cancelledHint: String = ""
  ) throws(Diagnostic) -> TransitionStep {
    let forward: TransitionOperation = operation == .pop ? .push : .present
    guard let shown = stack.last else {
      let verb = forward == .push ? "pushed" : "presented"
      throw Diagnostic(pair.keyLocation, "\(itemPath): \(operation.rawValue) with nothing \(verb)\(cancelledHint)")
    }
    var push = shown.step
    push.parameters = shown.parameters
    if push.operation != forward {
      let verb = push.operation == .push ? "pushed" : "presented"
      let fix = push.operation == .push ? "pop" : "dismiss"
      throw Diagnostic(
        pair.keyLocation,
        "\(itemPath): \(operation.rawValue), but '\(push.to)' was \(verb) (timeline[\(shown.index)]); use \(fix)\(cancelledHint)")
    }
    let fields: Fields
    if pair.value.isNull {
      fields = Fields(node: pair.value, path: path, pairs: [])
    } else if let pairs = pair.value.pairs {
      fields = Fields(node: pair.value, path: path, pairs: pairs)
    } else {
      throw mismatch(pair.value, path, expected: "a mapping of parameters, or nothing", hint: gluedStepHint(pair.value))
    }
    var descriptor: TransitionDescriptor
    if let node = fields["transition"] {
      descriptor = try self.descriptor(node, fields.path("transition"), operation: operation)
      // The push's transition by its other name (`pop: { transition: pop }`
      // after `transition: push`) is the push's, and inherits as it does.
      if let pushed = transitions.first(where: { $0.name == push.transition }), descriptor.name != pushed.name,
        descriptor.isSameTransition(as: pushed)
      {
        descriptor = pushed
      }
    } else {
      descriptor = transitions.first { $0.name == push.transition }!
      if !descriptor.operations.contains(operation) {
        throw Diagnostic(
          pair.keyLocation,
          "\(path): '\(descriptor.name)' (from timeline[\(shown.index)]) does not support \(operation.rawValue); "
            + "name a transition that does")
      }
    }
    // `from` and `to` are implied; when given they must agree.
    for (key, expected) in [("from", current), ("to", push.from)] {
      guard let node = fields[key] else { continue }
      let screen = try screen(node, fields.path(key), in: screens)
      if screen.name != expected {
        let role = key == "from" ? "leaves '\(expected)', the screen on display" : "returns to '\(expected)', the screen below"
        throw Diagnostic(node.location, "\(fields.path(key)): \(operation.rawValue) \(role), not '\(screen.name)'")
      }
    }
    let from = screens.first { $0.name == current }!
    let to = screens.first { $0.name == push.from }!
    // With the push's transition the pop inherits its duration: a spring the pop writes takes that.
    let inherits = descriptor.name == push.transition
    let pushDuration = push.parameters.values["duration"].flatMap { value -> Double? in
      if case .number(let d) = value { return d } else { return nil }
    } ?? descriptor.parameters.first { $0.name == "duration" }.flatMap { Double($0.defaultValue) }
    var parameters = try self.parameters(
      fields, for: descriptor, from: from, to: to, inheritedDuration: inherits ? pushDuration : nil)
    if inherits {
      let written = parameters
      parameters = push.parameters.reversedElements.merging(parameters)
      // A UIKit spring the push timed by its own duration (`spring: { damping, velocity }`) is timed by
      // the duration the pop writes: the spring is the animation's, whatever its length.
      if written.values["curve"] == nil, case .number(let own)? = written.values["duration"],
        case .curve(.spring(let spring))? = parameters.values["curve"], spring.mass == 1, !spring.allowsOverdamping,
        let timed = spring.duration, timed == pushDuration
      {
        parameters.values["curve"] = .curve(
          .spring(
            Spring(
              duration: own, dampingRatio: spring.damping / (2 * spring.stiffness.squareRoot()),
              initialVelocity: spring.initialVelocity)))
      }
    }
    // A finger drags an interactive pop from its first instant: a `delay`
    // the push had is not the pop's unless the pop writes one.
    if fields["gesture"] != nil, fields["delay"] == nil { parameters.values["delay"] = nil }
    let step = TransitionStep(
      operation: operation, from: current, to: push.from, transition: descriptor.name, parameters: parameters,
      location: pair.keyLocation)
    var reverse = try withStepOptions(step, fields, canvas: canvas, from: from, container: container)
    // With the push's transition, its `mirror:` too, so a right-to-left job undoes the push on the side it was made.
    if fields["mirror"] == nil, descriptor.name == push.transition { reverse.mirror = push.mirror }
    if inherits, descriptor.name == PartialCurl.descriptor.name { reverse.uncurl(push) }
    return reverse
  }

  /// Why a pop or dismiss finds nothing to undo where the timeline has a
  /// push or present (`step`, at `index`) that its gesture cancelled, as
  /// the note on it would say once the job renders: ` (timeline[0]'s push
  /// is cancelled: …; give it release: finish)`.
  static func cancelledHint(_ step: TransitionStep, index: Int) -> String {
    guard let gesture = step.gesture else { return "" }
    let why: String
    if gesture.releasedAsNavigation {
      why = "UINavigationController cancels it by the finger's place and speed as it lifts"
    } else if gesture.release == .cancel {
      why = "its gesture says release: cancel"
    } else {
      let last = ((gesture.progress.last ?? 0) * 1000).rounded() / 1000
      why = "its gesture ends at progress \(format(last)), not past 0.5"
    }
    let written = gesture.release == .cancel && !gesture.releasedAsNavigation
    let fix = written ? "release: finish" : "release: finish, or move the finger further"
    return " (timeline[\(index)]'s \(step.operation.rawValue) is cancelled: \(why); give it \(fix))"
  }

  /// `key`'s value; when it is missing but a key is a near miss of it, that
  /// key is the problem (`tranistion:`), so say so. A key glued to its value
  /// (`to:b`) that names a required key the step lacks is the problem
  /// before any missing one: it is what the user wrote for it.
  private func requiredStepKey(_ key: String, in fields: Fields, _ what: String) throws(Diagnostic) -> YAMLNode {
    let missing = JobDecoder.requiredStepKeys.filter { fields[$0] == nil }
    if fields[key] == nil, let glued = fields.pairs.first(where: { Suggestion.gluedColon($0.key, in: missing) != nil }) {
      throw unknownKey(glued, in: fields.path, keys: missing)
    }
    if fields[key] == nil, let near = fields.pairs.first(where: { Suggestion.closest(to: $0.key, in: [key]) != nil }) {
      throw unknownKey(near, in: fields.path, keys: [key])
    }
    return try required(key, in: fields, what)
  }

  /// The screen `node` names.
  private func screen(_ node: YAMLNode, _ path: KeyPath, in screens: [ScreenSpec]) throws(Diagnostic) -> ScreenSpec {
    let name = try string(node, path, expected: "a screen name")
    guard let screen = screens.first(where: { $0.name == name }) else {
      throw Diagnostic(
        node.location, "\(path): unknown screen \(YAMLNode.quoted(name))\(Suggestion.hint(for: name, in: screens.map(\.name)))")
    }
    return screen
  }

  /// The catalog entry `node` names, which must support `operation`.
  private func descriptor(
    _ node: YAMLNode, _ path: KeyPath, operation: TransitionOperation
  ) throws(Diagnostic) -> TransitionDescriptor {
    let name = try string(node, path, expected: "a transition name")
    guard let descriptor = transitions.first(where: { $0.name == name }) else {
      let hint = Suggestion.hint(for: name, in: transitions.map(\.name))
      throw Diagnostic(node.location, "\(path): unknown transition \(YAMLNode.quoted(name))\(hint)")
    }
    guard descriptor.operations.contains(operation) else {
      let supported = descriptor.operations.map(\.rawValue).joined(separator: ", ")
      throw Diagnostic(
        node.location, "\(path): '\(name)' does not support \(operation.rawValue) (it supports \(supported))")
    }
    return descriptor
  }
}

extension TransitionParameters {
  /// The parameters with every `element`'s ends swapped: a pop inheriting its
  /// push's `element: {from: photo, to: hero}` leaves `hero` for `photo`.
  var reversedElements: TransitionParameters {
    TransitionParameters(
      values.mapValues { value in
        if case .element(let from, let to) = value { return .element(from: to, to: from) }
        return value
      })
  }
}
