import Testing

@testable import Motion

@Suite struct TimingFunctionTests {
  static let presets: [(String, TimingFunction)] = [
    ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
    ("easeInEaseOut", .easeInEaseOut), ("default", .default),
  ]

  @Test(arguments: presets.map(\.0))
  func matchesGoldenVectors(name: String) throws {
    let vectors = try GoldenVectors.get().timingFunctions
    let golden = try #require(vectors.functions[name])
    let function = try #require(Self.presets.first { $0.0 == name }?.1)
    #expect(golden.controlPoints == [function.x1, function.y1, function.x2, function.y2])
    #expect(vectors.x.count == 101 && golden.y.count == 101)
    var worst = 0.0
    for (x, y) in zip(vectors.x, golden.y) {
      let error = abs(function.value(at: x) - y)
      worst = max(worst, error)
      #expect(error <= 1e-6, "\(name)(\(x)) = \(function.value(at: x)), expected \(y)")
    }
    // The solver is far tighter than the spec's 1e-6; catch regressions.
    #expect(worst <= 1e-12, "\(name): max |Δy| = \(worst)")
  }

  @Test func sanityValues() {
    for (_, function) in Self.presets {
      #expect(function.value(at: 0) == 0)
      #expect(function.value(at: 1) == 1)
      #expect(function.value(at: -0.5) == 0)
      #expect(function.value(at: 1.5) == 1)
    }
    #expect(abs(TimingFunction.easeInEaseOut.value(at: 0.5) - 0.5) <= 7e-16)
    #expect(abs(TimingFunction.default.value(at: 0.5) - 0.8024033875848567) <= 1e-12)
  }

  @Test(arguments: presets.map(\.1) + [TimingFunction(controlPoints: 0.68, -0.55, 0.265, 1.55)])
  func monotoneInTime(function: TimingFunction) {
    // x(t) is monotone for every curve; y(x) is monotone for the presets.
    var previousT = -1.0
    for i in 0...10_000 {
      let x = Double(i) / 10_000
      let t = function.solveCurveX(x)
      #expect(t >= previousT, "t(x) decreased at x = \(x)")
      previousT = t
    }
  }

  @Test(arguments: presets.map(\.1))
  func presetsAreMonotone(function: TimingFunction) {
    var previous = 0.0
    for i in 0...10_000 {
      let y = function.value(at: Double(i) / 10_000)
      #expect(y >= previous - 1e-15)
      previous = y
    }
  }

  @Test(arguments: presets.map(\.1) + [TimingFunction(controlPoints: 0.68, -0.55, 0.265, 1.55)])
  func velocityIsTheSlope(function: TimingFunction) {
    let h = 1e-6
    for i in 1..<100 {
      let x = Double(i) / 100
      let slope = (function.value(at: x + h) - function.value(at: x - h)) / (2 * h)
      #expect(abs(function.velocity(at: x) - slope) <= 1e-5, "slope at \(x)")
    }
  }

  @Test func velocityAtTheEnds() {
    #expect(abs(TimingFunction.linear.velocity(at: 0) - 1) < 1e-12)
    #expect(abs(TimingFunction.linear.velocity(at: 1) - 1) < 1e-12)
    #expect(abs(TimingFunction.linear.velocity(at: 0.37) - 1) < 1e-12)
    // easeOut leaves at slope 1/0.58 and arrives flat; easeIn the reverse.
    #expect(abs(TimingFunction.easeOut.velocity(at: 0) - 1 / 0.58) < 1e-12)
    #expect(abs(TimingFunction.easeOut.velocity(at: 1)) < 1e-12)
    #expect(abs(TimingFunction.easeIn.velocity(at: 0)) < 1e-12)
    #expect(abs(TimingFunction.easeIn.velocity(at: 1) - 1 / 0.58) < 1e-12)
    #expect(abs(TimingFunction.default.velocity(at: 0) - 0.4) < 1e-12)
    #expect(TimingFunction.easeInEaseOut.velocity(at: -0.1) == 0)
    #expect(TimingFunction.easeInEaseOut.velocity(at: 1.1) == 0)
    #expect(TimingFunction(controlPoints: 0, 1, 1, 1).velocity(at: 0) == .infinity)
  }

  @Test func controlPointsAreClamped() {
    let function = TimingFunction(controlPoints: -0.5, 0.2, 1.5, 0.8)
    #expect(function.x1 == 0 && function.x2 == 1)
    #expect(function.y1 == 0.2 && function.y2 == 0.8)
  }
}
