import Testing

@testable import Motion

@Suite struct AnimationCurveTests {
  @Test func timingCurveScalesToTheDuration() {
    let curve = AnimationCurve.easeInEaseOut
    #expect(curve.progress(atTime: 0.35, duration: 0.7) == TimingFunction.easeInEaseOut.value(at: 0.5))
    #expect(curve.progress(atTime: 0.1, duration: 0.7) == TimingFunction.easeInEaseOut.value(at: 0.1 / 0.7))
    #expect(curve.progress(atTime: -1, duration: 0.7) == 0)
    #expect(curve.progress(atTime: 0.7, duration: 0.7) == 1)
    #expect(curve.progress(atTime: 2, duration: 0.7) == 1)
    #expect(AnimationCurve.linear.progress(atTime: 0, duration: 0) == 1)
    #expect(abs(AnimationCurve.linear.velocity(atTime: 0.3, duration: 0.5) - 2) < 1e-12)
    #expect(AnimationCurve.linear.velocity(atTime: 0.6, duration: 0.5) == 0)
  }

  @Test func springRunsInRealTimeAndSnaps() {
    let spring = Spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1 / 0.55)
    let curve = AnimationCurve.spring(spring)
    // Not rescaled: the same instant gives the same value for any duration.
    #expect(curve.progress(atTime: 0.2, duration: 0.75) == spring.position(at: 0.2))
    #expect(curve.progress(atTime: 0.2, duration: 3) == spring.position(at: 0.2))
    #expect(curve.progress(atTime: 0.749, duration: 0.75) != 1)
    #expect(curve.progress(atTime: 0.75, duration: 0.75) == 1)
    #expect(curve.velocity(atTime: 0, duration: 0.75) == 1 / 0.55)
    #expect(curve.velocity(atTime: 0.75, duration: 0.75) == 0)
    #expect(curve.naturalDuration == 0.75)
    // Overshoot is preserved before the end.
    let peak = (0..<75).map { curve.progress(atTime: Double($0) / 100, duration: 0.75) }.max() ?? 0
    #expect(peak > 1.05)
  }

  @Test func naturalDurations() {
    #expect(AnimationCurve.easeIn.naturalDuration == 1)
    #expect(AnimationCurve.systemSpring.naturalDuration == Spring.system.settlingDuration)
  }
}
