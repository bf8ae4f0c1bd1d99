// The text form of curves, shared by job files (`curve:`, `spring:`) and
// `transvid curve NAME|SPEC`:
//
//   linear | easeIn | easeOut | easeInEaseOut | default
//     (aliases: CSS's ease-in, ease-out, ease-in-out and ease, which is
//     Core Animation's default, (0.25, 0.1, 0.25, 1); easeInOut)
//   cubic-bezier(x1, y1, x2, y2)            x1 and x2 in 0…1, y1 and y2 in -100…100
//   spring | spring()                       UIKit's system spring, "curve 7"
//   spring(damping: 0.55, velocity: 1.818, duration: 0.75)
//       UIView.animate(withDuration:usingSpringWithDamping:initialSpringVelocity:);
//       here `damping` is UIKit's ratio (`dampingRatio:` is accepted too);
//       without `duration`, the one the caller gives (a step's), if any
//   spring(mass: 1, stiffness: 100, damping: 10, velocity: 0)
//       CASpringAnimation; any of the four may be left at CA's default,
//       but `mass` or `stiffness` must appear; `damping` is the coefficient
//   spring(response: 0.5, dampingRatio: 0.8)
//       UISpringTimingParameters(dampingRatio:response:)
//   spring(duration: 0.5, bounce: 0.2)      iOS 17 UISpringTimingParameters(duration:bounce:)
//
// Spring labels may come in any order. `velocity` (or `initialVelocity`) is
// optional everywhere and is in from→to distances per second;
// `allowsOverdamping: true|false` is accepted by the CA and response forms.
// Numbers are decimals or a quotient such as `1/0.55`; each must lie in its
// range (`ParameterRange.swift`).

extension AnimationCurve {
  /// The curve a specification names; see the file's comment for the forms.
  /// `duration`, when given, is what UIKit's spring form takes when it
  /// writes none (`spring(damping: 0.7, velocity: 0)` on a step of
  /// `duration: 0.8`), as UIView's spring animation takes the animation's.
  ///
  /// - Throws: `MotionParseError` with a message for the user.
  public init(parsing text: String, duration: Double? = nil) throws(MotionParseError) {
    self = try AnimationCurve.parse(CurveExpression(parsing: text), as: .curve, duration: duration)
  }

  /// What the caller asked for, which shapes the error messages.
  enum Expectation {
    case curve, timingFunction, spring

    var noun: String {
      switch self {
      case .curve: "curve"
      case .timingFunction: "timing function"
      case .spring: "spring"
      }
    }
  }

  /// The named presets and their aliases.
  static let timingFunctionNames: [(String, TimingFunction)] = [
    ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
    ("easeInEaseOut", .easeInEaseOut), ("default", .default),
    ("ease-in", .easeIn), ("ease-out", .easeOut), ("ease-in-out", .easeInEaseOut),
    ("ease", .default), ("easeInOut", .easeInEaseOut),
  ]

  static func parse(
    _ expression: CurveExpression, as expectation: Expectation, duration: Double? = nil
  ) throws(MotionParseError) -> AnimationCurve {
    let name = expression.name
    if let preset = timingFunctionNames.first(where: { $0.0 == name })?.1 {
      guard expression.arguments == nil else {
        throw MotionParseError(.arguments, "'\(name)' takes no arguments")
      }
      if expectation == .spring {
        throw MotionParseError(.notASpring, "'\(expression.text)' is a timing function, not a spring")
      }
      return .timing(preset)
    }
    switch name {
    case "cubic-bezier":
      if expectation == .spring {
        throw MotionParseError(.notASpring, "'\(expression.text)' is a timing function, not a spring")
      }
      return .timing(try TimingFunction.parseCubicBezier(expression.arguments))
    case "spring":
      if expectation == .timingFunction {
        throw MotionParseError(
          .notATimingFunction, "'\(expression.text)' is a spring, not a timing function")
      }
      return .spring(try Spring.parseArguments(expression.arguments, duration: duration))
    default:
      var candidates = timingFunctionNames.map(\.0) + ["cubic-bezier"]
      var expected = "linear, easeIn, easeOut, easeInEaseOut, default or cubic-bezier(x1, y1, x2, y2)"
      switch expectation {
      case .curve:
        candidates.append("spring")
        expected = "linear, easeIn, easeOut, easeInEaseOut, default, cubic-bezier(x1, y1, x2, y2) or spring(...)"
      case .timingFunction:
        break
      case .spring:
        candidates = ["spring"]
        expected = "spring or spring(...)"
      }
      if let suggestion = CurveExpression.suggestion(for: name, among: candidates) {
        throw MotionParseError(
          .unknownName, "unknown \(expectation.noun) '\(name)'; did you mean '\(suggestion)'?")
      }
      throw MotionParseError(.unknownName, "unknown \(expectation.noun) '\(name)'; expected \(expected)")
    }
  }
}

extension TimingFunction {
  /// The timing function a specification names: a preset (`easeInEaseOut`,
  /// `ease-in-out`, …) or `cubic-bezier(x1, y1, x2, y2)` with x1, x2 in 0…1.
  ///
  /// - Throws: `MotionParseError`, also for a `spring(…)`.
  public init(parsing text: String) throws(MotionParseError) {
    switch try AnimationCurve.parse(CurveExpression(parsing: text), as: .timingFunction) {
    case .timing(let function): self = function
    case .spring: preconditionFailure("springs are rejected while parsing")
    }
  }

  static func parseCubicBezier(
    _ arguments: [CurveExpression.Argument]?
  ) throws(MotionParseError) -> TimingFunction {
    let usage = "cubic-bezier(x1, y1, x2, y2)"
    guard let arguments, arguments.count == 4 else {
      throw MotionParseError(
        .arguments, "cubic-bezier needs four numbers, as in \(usage); got \(arguments?.count ?? 0)")
    }
    guard arguments.allSatisfy({ $0.label == nil }) else {
      throw MotionParseError(.arguments, "cubic-bezier takes four numbers without labels, as in \(usage)")
    }
    let names = ["x1", "y1", "x2", "y2"]
    var values: [Double] = []
    for (name, argument) in zip(names, arguments) {
      guard let value = CurveExpression.number(argument.value) else {
        throw MotionParseError(.notANumber, "cubic-bezier: \(name) '\(argument.value)' is not a number")
      }
      let range: ParameterRange = name.hasPrefix("x") ? .bezierX : .bezierY
      guard range.contains(value) else {
        throw MotionParseError(.outOfRange, "cubic-bezier: \(name) = \(argument.value) \(range.requirement)")
      }
      values.append(value)
    }
    return TimingFunction(controlPoints: values[0], values[1], values[2], values[3])
  }
}
