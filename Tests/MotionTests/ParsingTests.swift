import Testing

@testable import Motion

@Suite struct ParsingTests {
  @Test(arguments: [
    ("linear", TimingFunction.linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
    ("easeInEaseOut", .easeInEaseOut), ("default", .default), ("ease-in", .easeIn),
    ("ease-out", .easeOut), ("ease-in-out", .easeInEaseOut), ("easeInOut", .easeInEaseOut),
    // CSS's `ease` is Core Animation's default curve, (0.25, 0.1, 0.25, 1).
    ("ease", .default), ("ease", TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)),
    ("  easeIn\t", .easeIn),
    ("cubic-bezier(0.42, 0, 0.58, 1)", .easeInEaseOut),
    ("cubic-bezier( 0.25 ,0.1,0.25 , 1 )", .default),
    ("cubic-bezier(0.68, -0.55, 0.265, 1.55)", TimingFunction(controlPoints: 0.68, -0.55, 0.265, 1.55)),
  ])
  func timingFunctions(text: String, expected: TimingFunction) throws {
    #expect(try TimingFunction(parsing: text) == expected)
    #expect(try AnimationCurve(parsing: text) == .timing(expected))
  }

  @Test func springForms() throws {
    #expect(try Spring(parsing: "spring") == .system)
    #expect(try Spring(parsing: "spring()") == .system)
    #expect(
      try Spring(parsing: "spring(damping: 0.55, velocity: 1.818, duration: 0.75)")
        == Spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1.818))
    #expect(
      try Spring(parsing: "spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1/0.55)")
        == Spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1 / 0.55))
    #expect(
      try Spring(parsing: "spring(mass: 1, stiffness: 100, damping: 10, velocity: 0)")
        == Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0))
    #expect(try Spring(parsing: "spring(stiffness: 300)") == Spring(stiffness: 300))
    #expect(
      try Spring(parsing: "spring(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true)")
        == Spring(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true))
    #expect(
      try Spring(parsing: "spring(response: 0.5, dampingRatio: 0.8)")
        == Spring(response: 0.5, dampingRatio: 0.8))
    #expect(
      try Spring(parsing: "spring(bounce: 0.2, duration: 0.5, velocity: -1)")
        == Spring(duration: 0.5, bounce: 0.2, initialVelocity: -1))
    #expect(try AnimationCurve(parsing: "spring") == .systemSpring)
  }

  @Test(arguments: [
    // (text, reason, message)
    ("", MotionParseError.Reason.empty,
     "empty curve; expected a name such as easeInEaseOut, cubic-bezier(x1, y1, x2, y2) or spring(...)"),
    ("easyIn", .unknownName, "unknown curve 'easyIn'; did you mean 'easeIn'?"),
    ("EASEOUT", .unknownName, "unknown curve 'EASEOUT'; did you mean 'easeOut'?"),
    ("bouncy", .unknownName,
     "unknown curve 'bouncy'; expected linear, easeIn, easeOut, easeInEaseOut, default, cubic-bezier(x1, y1, x2, y2) or spring(...)"),
    ("linear()", .arguments, "'linear' takes no arguments"),
    ("easeIn x", .syntax, "malformed curve 'easeIn x': expected '(' or the end at column 8"),
    ("0.5", .syntax, "malformed curve '0.5': expected a name at column 1"),
    ("cubic-bezier(0.4, 0", .syntax, "malformed curve 'cubic-bezier(0.4, 0': expected ',' or ')' at column 20"),
    ("cubic-bezier(0.4,, 0)", .syntax, "malformed curve 'cubic-bezier(0.4,, 0)': expected an argument at column 18"),
    ("cubic-bezier(0.4, 0, 1, 1) x", .syntax, "malformed curve 'cubic-bezier(0.4, 0, 1, 1) x': expected the end at column 28"),
    ("spring(mass: )", .syntax, "malformed curve 'spring(mass: )': expected a value after 'mass:' at column 14"),
    ("cubic-bezier", .arguments, "cubic-bezier needs four numbers, as in cubic-bezier(x1, y1, x2, y2); got 0"),
    ("cubic-bezier(0.4, 0, 1)", .arguments, "cubic-bezier needs four numbers, as in cubic-bezier(x1, y1, x2, y2); got 3"),
    ("cubic-bezier(x1: 0.4, 0, 1, 1)", .arguments, "cubic-bezier takes four numbers without labels, as in cubic-bezier(x1, y1, x2, y2)"),
    ("cubic-bezier(0.4, 0, 1.5, 1)", .outOfRange, "cubic-bezier: x2 = 1.5 must be in 0…1"),
    ("cubic-bezier(-0.1, 0, 1, 1)", .outOfRange, "cubic-bezier: x1 = -0.1 must be in 0…1"),
    ("cubic-bezier(0.4, abc, 1, 1)", .notANumber, "cubic-bezier: y1 'abc' is not a number"),
    ("cubic-bezier(0.4, nan, 1, 1)", .notANumber, "cubic-bezier: y1 'nan' is not a number"),
    ("spring(0.55, 1.8)", .arguments, "spring: every argument needs a label, as in spring(damping: 0.55, velocity: 1.818, duration: 0.75)"),
    ("spring(stiff: 100)", .unknownParameter, "spring: unknown parameter 'stiff'; did you mean 'stiffness'?"),
    ("spring(dampingRation: 1)", .unknownParameter, "spring: unknown parameter 'dampingRation'; did you mean 'dampingRatio'?"),
    ("spring(tension: 100)", .unknownParameter, "spring: unknown parameter 'tension'; expected mass, stiffness, damping, dampingRatio, duration, response, bounce, velocity, allowsOverdamping"),
    ("spring(mass: 1, mass: 2)", .duplicateParameter, "spring: parameter 'mass' is given twice"),
    ("spring(velocity: 1, initialVelocity: 2, duration: 1, damping: 1)", .duplicateParameter, "spring: parameter 'velocity' is given twice"),
    ("spring(damping: 0.55, velocity: 1.8)", .incompleteOrMixedForm, "spring: give 'duration' (the UIKit form: spring(damping: 0.55, velocity: 1.818, duration: 0.75)) or 'stiffness' (the CA form: spring(mass: 1, stiffness: 100, damping: 10, velocity: 0))"),
    ("spring(stiffness: 100, duration: 0.5)", .incompleteOrMixedForm, "spring: 'duration' cannot be combined with 'stiffness'; the CA form is spring(mass: 1, stiffness: 100, damping: 10, velocity: 0)"),
    ("spring(duration: 0.5)", .incompleteOrMixedForm, "spring: 'duration' needs 'damping', as in spring(damping: 0.55, velocity: 1.818, duration: 0.75)"),
    ("spring(response: 0.5)", .incompleteOrMixedForm, "spring: 'response' needs 'dampingRatio', as in spring(response: 0.5, dampingRatio: 0.8)"),
    ("spring(bounce: 0.2)", .incompleteOrMixedForm, "spring: 'bounce' needs 'duration', as in spring(duration: 0.5, bounce: 0.2)"),
    ("spring(duration: 0.5, damping: 0.5, dampingRatio: 0.5)", .duplicateParameter, "spring: 'damping' and 'dampingRatio' both give the damping ratio here; give one"),
    ("spring(mass: 0)", .outOfRange, "spring: mass = 0 must be in 0.001…1000"),
    ("spring(stiffness: 100, damping: -1)", .outOfRange, "spring: damping = -1 must be in 0…1000000"),
    ("spring(duration: 0.5, bounce: -1)", .outOfRange, "spring: bounce = -1 must be greater than -1 and at most 1"),
    ("spring(duration: 0, damping: 0.5)", .outOfRange, "spring: duration = 0 must be in 0.001…1000"),
    ("spring(duration: 0.5, damping: 1/0)", .notANumber, "spring: damping '1/0' is not a number"),
    // Issue 20: numbers that used to trap while parsing or make NaN in frames.
    ("spring(response: 1e200, dampingRatio: 1)", .outOfRange, "spring: response = 1e200 must be in 0.001…1000"),
    ("spring(duration: 1e300, bounce: -0.9999999)", .outOfRange, "spring: duration = 1e300 must be in 0.001…1000"),
    ("spring(allowsOverdamping: true, mass: 1, stiffness: 1, damping: 1e300)", .outOfRange,
     "spring: damping = 1e300 must be in 0…1000000"),
    ("spring(mass: 1e-300, stiffness: 100)", .outOfRange, "spring: mass = 1e-300 must be in 0.001…1000"),
    ("spring(duration: 0.5, damping: 0.5, velocity: 1e308)", .outOfRange, "spring: velocity = 1e308 must be in -1000…1000"),
    ("spring(response: 0.5, dampingRatio: 1e9)", .outOfRange, "spring: dampingRatio = 1e9 must be in 0…1000"),
    ("cubic-bezier(0, -1e308, 1, 1e308)", .outOfRange, "cubic-bezier: y1 = -1e308 must be in -100…100"),
    ("spring(stiffness: 100, allowsOverdamping: yes)", .notANumber, "spring: allowsOverdamping must be true or false, not 'yes'"),
  ])
  func errors(text: String, reason: MotionParseError.Reason, message: String) {
    #expect {
      _ = try AnimationCurve(parsing: text)
    } throws: { error in
      guard let error = error as? MotionParseError else { return false }
      #expect(error.message == message)
      #expect(error.description == message)
      #expect(error.reason == reason)
      return error.reason == reason && error.message == message
    }
  }

  /// UIKit's form without a duration of its own, given an animation's it
  /// cannot take, says so: the duration was dropped, and the error asked
  /// for a 'duration' or a 'stiffness'.
  @Test func aDurationTakenOutOfRangeSaysSo() throws {
    for duration in [0, 0.0009, 1001] {
      #expect(throws: MotionParseError(
        .takenDurationOutOfRange,
        "spring: the animation's duration, \(duration == 1001 ? "1001" : duration == 0 ? "0" : "0.0009") s, which the UIKit form "
          + "without a 'duration' of its own takes, must be in 0.001…1000")) {
        try AnimationCurve(parsing: "spring(damping: 0.7, velocity: 0)", duration: duration)
      }
    }
    #expect(try AnimationCurve(parsing: "spring(damping: 0.7, velocity: 0)", duration: 0.001)
      == .spring(Spring(duration: 0.001, dampingRatio: 0.7, initialVelocity: 0)))
  }

  /// Every corner of every spring form's ranges, and Béziers at the extreme
  /// y values, give finite progress and velocity at any time a job can reach.
  @Test func extremesOfTheRangesStayFinite() throws {
    let times = [0, 1e-9, 0.001, 0.5, 1, 10, 1000, 86_400]
    var specs: [String] = []
    for mass in ["0.001", "1000"] {
      for stiffness in ["0.001", "1000000"] {
        for damping in ["0", "0.001", "1000000"] {
          for velocity in ["-1000", "0", "1000"] {
            for overdamping in ["true", "false"] {
              specs.append(
                "spring(mass: \(mass), stiffness: \(stiffness), damping: \(damping), velocity: \(velocity), allowsOverdamping: \(overdamping))")
            }
          }
        }
      }
    }
    for seconds in ["0.001", "1000"] {
      for velocity in ["-1000", "1000"] {
        for ratio in ["0", "1000"] {
          specs.append("spring(response: \(seconds), dampingRatio: \(ratio), velocity: \(velocity), allowsOverdamping: true)")
        }
        for ratio in ["1e-300", "1000"] {
          specs.append("spring(duration: \(seconds), damping: \(ratio), velocity: \(velocity))")
        }
        for bounce in ["-0.9999999999999999", "1"] {
          specs.append("spring(duration: \(seconds), bounce: \(bounce), velocity: \(velocity))")
        }
      }
    }
    for y1 in ["-100", "100"] {
      for y2 in ["-100", "100"] {
        for x in ["0", "1"] { specs.append("cubic-bezier(\(x), \(y1), \(x), \(y2))") }
      }
    }
    for spec in specs {
      let curve = try AnimationCurve(parsing: spec)
      for t in times {
        let progress = curve.progress(atTime: t, duration: 86_400)
        let velocity = curve.velocity(atTime: t, duration: 86_400)
        #expect(progress.isFinite, "\(spec) at \(t): progress \(progress)")
        #expect(!velocity.isNaN, "\(spec) at \(t): velocity \(velocity)")
      }
      #expect(!curve.naturalDuration.isNaN, "\(spec)")
    }
  }

  @Test func kindMismatches() {
    #expect(throws: MotionParseError(.notATimingFunction, "'spring(response: 0.5, dampingRatio: 1)' is a spring, not a timing function")) {
      try TimingFunction(parsing: "spring(response: 0.5, dampingRatio: 1)")
    }
    #expect(throws: MotionParseError(.notASpring, "'easeIn' is a timing function, not a spring")) {
      try Spring(parsing: "easeIn")
    }
    #expect(throws: MotionParseError(.notASpring, "'cubic-bezier(0, 0, 1, 1)' is a timing function, not a spring")) {
      try Spring(parsing: "cubic-bezier(0, 0, 1, 1)")
    }
    #expect(throws: MotionParseError(.unknownName, "unknown timing function 'sprung'; expected linear, easeIn, easeOut, easeInEaseOut, default or cubic-bezier(x1, y1, x2, y2)")) {
      try TimingFunction(parsing: "sprung")
    }
    #expect(throws: MotionParseError(.unknownName, "unknown spring 'sprung'; did you mean 'spring'?")) {
      try Spring(parsing: "sprung")
    }
  }

  @Test func numbers() {
    #expect(CurveExpression.number("1/0.55") == 1 / 0.55)
    #expect(CurveExpression.number("-1e-3") == -0.001)
    #expect(CurveExpression.number("inf") == nil)
    #expect(CurveExpression.number("1/2/3") == nil)
    #expect(CurveExpression.editDistance(Array("kitten"), Array("sitting")) == 3)
  }
}
