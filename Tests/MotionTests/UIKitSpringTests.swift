import Testing

@testable import Motion

@Suite struct UIKitSpringTests {
  static let cases: [Int] = Array(0..<((try? GoldenVectors.get().uikitSpringMapping.cases.count) ?? 1))

  @Test(arguments: cases)
  func durationDampingMapping(index: Int) throws {
    let golden = try GoldenVectors.get().uikitSpringMapping.cases[index]
    let spring = Spring(
      duration: golden.duration, dampingRatio: golden.dampingRatio,
      initialVelocity: golden.initialVelocity)
    let label = "T=\(golden.duration) ζ=\(golden.dampingRatio) v=\(golden.initialVelocity)"
    #expect(spring.mass == 1)
    #expect(relativeError(spring.stiffness, golden.stiffness) <= 1e-6, "\(label) k")
    #expect(relativeError(spring.damping, golden.damping) <= 1e-6, "\(label) c")
    #expect(relativeError(spring.stiffness, golden.stiffnessUikitFloatExpf) <= 1e-6, "\(label) k expf")
    #expect(relativeError(spring.damping, golden.dampingUikitFloatExpf) <= 1e-6, "\(label) c expf")
    #expect(spring.duration == golden.duration)
    // Sampled over [0, T] with the CA-default clamp, from the golden k and c.
    let reference = Spring(
      mass: 1, stiffness: golden.stiffness, damping: golden.damping,
      initialVelocity: golden.initialVelocity)
    for (t, p) in zip(golden.t, golden.position) {
      #expect(abs(reference.position(at: t) - p) <= 1e-9, "\(label) p(\(t))")
      #expect(abs(spring.position(at: t) - p) <= 1e-6, "\(label) p(\(t)) mapped")
    }
    // The envelope rule leaves a gap at T; the animation then snaps to 1.
    #expect(abs((1 - reference.position(at: golden.duration)) - golden.gapAtEndBeforeSnap) <= 1e-9)
    let curve = AnimationCurve.spring(spring)
    #expect(curve.progress(atTime: golden.duration, duration: golden.duration) == 1)
    #expect(curve.progress(atTime: golden.duration + 1, duration: golden.duration) == 1)
    #expect(curve.progress(atTime: golden.duration * 0.999, duration: golden.duration) != 1)
  }

  @Test func framerReferenceCase() {
    // TIMING.md §3: T = 3, ζ = 0.25 → stiffness 54.83363359078326, damping 3.702486785620688.
    let spring = Spring(duration: 3, dampingRatio: 0.25)
    #expect(relativeError(spring.stiffness, 54.83363359078326) <= 1e-6)
    #expect(relativeError(spring.damping, 3.702486785620688) <= 1e-6)
    #expect(abs(spring.dampingRatio - 0.25) <= 1e-12)
  }

  @Test func inputsAreClamped() {
    // Ratios above 1 act as 1; durations beyond 0.01…10 s act as the bound.
    #expect(Spring(duration: 0.5, dampingRatio: 1.7).stiffness == Spring(duration: 0.5, dampingRatio: 1).stiffness)
    #expect(Spring(duration: 0.5, dampingRatio: 1.7).damping == Spring(duration: 0.5, dampingRatio: 1).damping)
    #expect(Spring(duration: 25, dampingRatio: 0.5).stiffness == Spring(duration: 10, dampingRatio: 0.5).stiffness)
    #expect(Spring(duration: 25, dampingRatio: 0.5).duration == 25)
    #expect(Spring(duration: 0.001, dampingRatio: 0.5).stiffness == Spring(duration: 0.01, dampingRatio: 0.5).stiffness)
    // Ratios too small for UIKit's envelope rule still give a finite spring.
    for ratio in [0, 1e-3, 0.01, 0.05] {
      for velocity in [0.0, 5] {
        let spring = Spring(duration: 0.01, dampingRatio: ratio, initialVelocity: velocity)
        #expect(spring.stiffness.isFinite && spring.stiffness > 0)
        #expect(spring.damping.isFinite && spring.damping > 0)
        #expect(spring.position(at: 0.005).isFinite)
      }
    }
  }

  @Test(arguments: 0..<4)
  func responseMapping(index: Int) throws {
    let golden = try GoldenVectors.get().responseMapping.dampingRatioResponse[index]
    let spring = Spring(response: golden.response, dampingRatio: golden.dampingRatio)
    #expect(spring.mass == golden.mass)
    #expect(relativeError(spring.stiffness, golden.stiffness) <= 1e-12)
    #expect(relativeError(spring.damping, golden.damping) <= 1e-12)
    #expect(relativeError(spring.response, golden.response) <= 1e-12)
    #expect(!spring.allowsOverdamping && spring.duration == nil)
  }

  @Test(arguments: 0..<4)
  func durationBounceMapping(index: Int) throws {
    let golden = try GoldenVectors.get().responseMapping.durationBounce[index]
    let spring = Spring(duration: golden.duration, bounce: golden.bounce)
    #expect(spring.mass == golden.mass)
    #expect(relativeError(spring.stiffness, golden.stiffness) <= 1e-12)
    #expect(relativeError(spring.damping, golden.damping) <= 1e-12)
    #expect(abs(spring.dampingRatio - golden.dampingRatio) <= 1e-12)
    #expect(abs(spring.bounce - golden.bounce) <= 1e-12)
    #expect(spring.allowsOverdamping == golden.allowsOverdamping)
  }

  @Test func bounceBelowZeroIsTrulyOverdamped() {
    let spring = Spring(duration: 0.5, bounce: -0.5)
    #expect(spring.regime == .overdamped)
    let clamped = Spring(response: 0.5, dampingRatio: 2)
    #expect(clamped.regime == .critical)
    #expect(spring.position(at: 0.2) < clamped.position(at: 0.2))
  }
}
