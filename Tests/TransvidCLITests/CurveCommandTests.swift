import Motion
import Testing
import TransvidCLI

/// `transvid curve NAME|SPEC`: the sampled curve as CSV.
@Suite struct CurveCommandTests {
  @Test func timingFunctionAsCSV() {
    let capture = Capture()
    #expect(TransvidCommand.run(["curve", "easeInEaseOut", "--samples", "5"], console: capture.console) == 0)
    let lines = capture.out.joined(separator: "\n").split(separator: "\n").map(String.init)
    #expect(lines.count == 6)
    #expect(lines[0] == "t,value,velocity")
    #expect(lines[3].hasPrefix("0.5,0.5,"))
    let quarter = lines[2].split(separator: ",")
    #expect(Double(quarter[1]) == TimingFunction.easeInEaseOut.value(at: 0.25))
  }

  @Test func uikitSpringSnapsAtItsDuration() {
    let capture = Capture()
    #expect(
      TransvidCommand.run(
        ["curve", "spring(damping: 0.55, velocity: 1/0.55, duration: 0.75)", "-n", "4"], console: capture.console) == 0)
    let rows = capture.out[0].split(separator: "\n").dropFirst().map { $0.split(separator: ",").compactMap { Double($0) } }
    #expect(rows.first == [0, 0, 1 / 0.55])
    #expect(rows.last == [0.75, 1, 0])
    // Damping 0.55 overshoots the target on the way.
    #expect(rows.contains { $0[1] > 1.05 })
  }

  /// UIKit's form without its own duration takes `--duration`'s, as it
  /// takes a step's: the command exited 2 ("give 'duration' …").
  @Test func uikitSpringTakesTheDurationOption() {
    let capture = Capture()
    #expect(
      TransvidCommand.run(
        ["curve", "spring(damping: 0.7, velocity: 0)", "--duration", "2", "-n", "3"], console: capture.console) == 0)
    let rows = capture.out[0].split(separator: "\n").dropFirst().map { $0.split(separator: ",").compactMap { Double($0) } }
    #expect(rows.map { $0[0] } == [0, 1, 2])
    #expect(rows.last?[1] == 1)
    let spring = Spring(duration: 2, dampingRatio: 0.7, initialVelocity: 0)
    #expect(rows[1][1] == AnimationCurve.spring(spring).progress(atTime: 1, duration: 2))
    let without = Capture()
    #expect(TransvidCommand.run(["curve", "spring(damping: 0.7, velocity: 0)"], console: without.console) == 2)
  }

  @Test func badSpecIsAUsageError() {
    let capture = Capture()
    #expect(TransvidCommand.run(["curve", "easeInOt"], console: capture.console) == 2)
    #expect(capture.err == ["transvid: unknown curve 'easeInOt'; did you mean 'easeInOut'?\nRun 'transvid --help' for usage."])
  }

  /// Over less than a millisecond a velocity per second overflows (a
  /// subnormal duration printed `inf` for easeIn's middle).
  @Test func aDurationUnderAMillisecondIsAUsageError() {
    for duration in ["1e-320", "0.0009", "0"] {
      let capture = Capture()
      #expect(TransvidCommand.run(["curve", "easeIn", "--duration", duration], console: capture.console) == 2)
      #expect(capture.err == ["transvid: --duration needs a number of seconds from 0.001 to 600\nRun 'transvid --help' for usage."])
    }
    let capture = Capture()
    #expect(TransvidCommand.run(["curve", "easeIn", "--duration", "0.001", "-n", "3"], console: capture.console) == 0)
    #expect(!capture.out.joined().contains("inf"))
  }
}
