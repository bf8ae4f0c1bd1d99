// The four labelled spring forms of `AnimationCurve+Parsing.swift`:
// which labels pick which form, which labels each form accepts, and the
// ranges of their values.

extension Spring {
  /// The spring a specification names: `spring` (the system spring) or one
  /// of the labelled forms listed in `AnimationCurve+Parsing.swift`.
  ///
  /// - Throws: `MotionParseError`, also for a timing function.
  public init(parsing text: String) throws(MotionParseError) {
    switch try AnimationCurve.parse(CurveExpression(parsing: text), as: .spring) {
    case .spring(let spring): self = spring
    case .timing: preconditionFailure("timing functions are rejected while parsing")
    }
  }

  /// The forms, each with its example, its labels and the label that selects it.
  enum Form: CaseIterable {
    case coreAnimation, response, bounce, uikit

    var name: String {
      switch self {
      case .coreAnimation: "the CA form"
      case .response: "the response form"
      case .bounce: "the bounce form"
      case .uikit: "the UIKit form"
      }
    }

    var example: String {
      switch self {
      case .coreAnimation: "spring(mass: 1, stiffness: 100, damping: 10, velocity: 0)"
      case .response: "spring(response: 0.5, dampingRatio: 0.8)"
      case .bounce: "spring(duration: 0.5, bounce: 0.2)"
      case .uikit: "spring(damping: 0.55, velocity: 1.818, duration: 0.75)"
      }
    }

    var labels: Set<String> {
      switch self {
      case .coreAnimation: ["mass", "stiffness", "damping", "velocity", "allowsOverdamping"]
      case .response: ["response", "dampingRatio", "velocity", "allowsOverdamping"]
      case .bounce: ["duration", "bounce", "velocity"]
      case .uikit: ["duration", "damping", "dampingRatio", "velocity"]
      }
    }
  }

  /// Every label a spring form takes (`initialVelocity` is `velocity`'s other name).
  public static let parameterLabels = [
    "mass", "stiffness", "damping", "dampingRatio", "duration", "response", "bounce", "velocity",
    "allowsOverdamping",
  ]

  /// The spring `arguments` give; `duration` is UIKit's form's when they
  /// write none (its damping, and perhaps its velocity, alone).
  static func parseArguments(
    _ arguments: [CurveExpression.Argument]?, duration: Double? = nil
  ) throws(MotionParseError) -> Spring {
    guard let arguments, !arguments.isEmpty else { return .system }

    // Labels: all present, known, once each (`initialVelocity` is `velocity`).
    var values: [String: String] = [:]
    var order: [String] = []
    for argument in arguments {
      guard var label = argument.label else {
        throw MotionParseError(
          .arguments,
          "spring: every argument needs a label, as in \(Form.uikit.example)")
      }
      if label == "initialVelocity" { label = "velocity" }
      guard parameterLabels.contains(label) else {
        if let suggestion = CurveExpression.suggestion(
          for: label, among: parameterLabels + ["initialVelocity"])
        {
          throw MotionParseError(
            .unknownParameter, "spring: unknown parameter '\(label)'; did you mean '\(suggestion)'?")
        }
        throw MotionParseError(
          .unknownParameter,
          "spring: unknown parameter '\(label)'; expected \(parameterLabels.joined(separator: ", "))")
      }
      guard values[label] == nil else {
        throw MotionParseError(.duplicateParameter, "spring: parameter '\(label)' is given twice")
      }
      values[label] = argument.value
      order.append(label)
    }

    // UIKit's form without its own duration: the caller's, which must be in range.
    if values["duration"] == nil, let duration,
      values["damping"] != nil || values["dampingRatio"] != nil, order.allSatisfy(Form.uikit.labels.contains)
    {
      guard ParameterRange.seconds.contains(duration) else {
        throw MotionParseError(
          .takenDurationOutOfRange,
          "spring: the animation's duration, \(ParameterRange.format(duration)) s, which \(Form.uikit.name) without a "
            + "'duration' of its own takes, \(ParameterRange.seconds.requirement)")
      }
      values["duration"] = "\(duration)"
    }

    // The form: the first selecting label wins; the rest must belong to it.
    let selector: (label: String, form: Form)? =
      [("stiffness", .coreAnimation), ("mass", .coreAnimation), ("bounce", .bounce),
       ("response", .response), ("duration", .uikit)]
      .first { values[$0.0] != nil }
    guard let (selectingLabel, form) = selector else {
      throw MotionParseError(
        .incompleteOrMixedForm,
        "spring: give 'duration' (\(Form.uikit.name): \(Form.uikit.example)) or 'stiffness' (\(Form.coreAnimation.name): \(Form.coreAnimation.example))"
      )
    }
    if let stray = order.first(where: { !form.labels.contains($0) }) {
      throw MotionParseError(
        .incompleteOrMixedForm,
        "spring: '\(stray)' cannot be combined with '\(selectingLabel)'; \(form.name) is \(form.example)")
    }

    func number(_ label: String, default fallback: Double? = nil) throws(MotionParseError) -> Double {
      guard let text = values[label] else {
        if let fallback { return fallback }
        throw MotionParseError(
          .incompleteOrMixedForm,
          "spring: '\(selectingLabel)' needs '\(label)', as in \(form.example)")
      }
      guard let value = CurveExpression.number(text) else {
        throw MotionParseError(.notANumber, "spring: \(label) '\(text)' is not a number")
      }
      return value
    }
    /// The number for `label`, which must lie in `range` (`ParameterRange`).
    func number(
      _ label: String, in range: ParameterRange, default fallback: Double? = nil
    ) throws(MotionParseError) -> Double {
      let value = try number(label, default: fallback)
      guard range.contains(value) else {
        throw MotionParseError(.outOfRange, "spring: \(label) = \(values[label] ?? "\(value)") \(range.requirement)")
      }
      return value
    }
    func flag(_ label: String) throws(MotionParseError) -> Bool {
      switch values[label] {
      case nil, "false": return false
      case "true": return true
      case let text?:
        throw MotionParseError(.notANumber, "spring: \(label) must be true or false, not '\(text)'")
      }
    }

    let velocity = try number("velocity", in: .velocity, default: 0)
    switch form {
    case .coreAnimation:
      let mass = try number("mass", in: .mass, default: 1)
      let stiffness = try number("stiffness", in: .stiffness, default: 100)
      let damping = try number("damping", in: .dampingCoefficient, default: 10)
      return Spring(
        mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity,
        allowsOverdamping: try flag("allowsOverdamping"))
    case .response:
      let response = try number("response", in: .seconds)
      let ratio = try number("dampingRatio", in: .dampingRatio)
      return Spring(
        response: response, dampingRatio: ratio, initialVelocity: velocity,
        allowsOverdamping: try flag("allowsOverdamping"))
    case .bounce:
      let duration = try number("duration", in: .seconds)
      let bounce = try number("bounce", in: .bounce)
      return Spring(duration: duration, bounce: bounce, initialVelocity: velocity)
    case .uikit:
      if values["damping"] != nil, values["dampingRatio"] != nil {
        throw MotionParseError(
          .duplicateParameter,
          "spring: 'damping' and 'dampingRatio' both give the damping ratio here; give one")
      }
      let ratioLabel = values["dampingRatio"] != nil ? "dampingRatio" : "damping"
      let duration = try number("duration", in: .seconds)
      let ratio = try number(ratioLabel, in: .uikitDampingRatio)
      return Spring(duration: duration, dampingRatio: ratio, initialVelocity: velocity)
    }
  }
}
