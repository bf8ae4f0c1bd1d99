import Testing

@testable import Motion

@Suite struct SpringTests {
  static let caseIDs: [String] = (try? GoldenVectors.get().springs.cases.map(\.id)) ?? ["missing vectors"]

  static func springCase(_ id: String) throws -> GoldenVectors.Springs.Case {
    try #require(try GoldenVectors.get().springs.cases.first { $0.id == id })
  }

  /// CA's default: ζ > 1 runs as critical damping (`position_ca_default`).
  @Test(arguments: caseIDs)
  func matchesCoreAnimationDefault(id: String) throws {
    let golden = try Self.springCase(id)
    let times = try GoldenVectors.get().springs.t
    let spring = Spring(
      mass: golden.mass, stiffness: golden.stiffness, damping: golden.damping,
      initialVelocity: golden.initialVelocity)
    let positions = golden.positionCaDefault ?? golden.position
    let velocities = golden.velocityCaDefault ?? golden.velocity
    #expect(times.count == 61 && positions.count == 61)
    for (i, t) in times.enumerated() {
      #expect(abs(spring.position(at: t) - positions[i]) <= 1e-9, "\(id) p(\(t))")
      #expect(abs(spring.velocity(at: t) - velocities[i]) <= 1e-7, "\(id) v(\(t))")
    }
  }

  /// `allowsOverdamping` gives the true physics (`position`) for every case.
  @Test(arguments: caseIDs)
  func matchesTruePhysics(id: String) throws {
    let golden = try Self.springCase(id)
    let times = try GoldenVectors.get().springs.t
    let spring = Spring(
      mass: golden.mass, stiffness: golden.stiffness, damping: golden.damping,
      initialVelocity: golden.initialVelocity, allowsOverdamping: true)
    for (i, t) in times.enumerated() {
      #expect(abs(spring.position(at: t) - golden.position[i]) <= 1e-9, "\(id) p(\(t))")
      #expect(abs(spring.velocity(at: t) - golden.velocity[i]) <= 1e-7, "\(id) v(\(t))")
    }
    #expect(abs(spring.naturalFrequency - golden.omega0) <= 1e-12 * golden.omega0)
    #expect(abs(spring.dampingRatio - golden.dampingRatio) <= 1e-12)
  }

  @Test func overdampingClampIsNotThePhysics() throws {
    // The two overdamped curves differ visibly, so the clamp matters.
    let golden = try Self.springCase("overdamped_zeta2")
    let clamped = try #require(golden.positionCaDefault)
    let gap = zip(golden.position, clamped).map { abs($0 - $1) }.max() ?? 0
    #expect(gap > 0.1)
    let spring = Spring(stiffness: 100, damping: 40)
    #expect(spring.regime == .critical)
    #expect(Spring(stiffness: 100, damping: 40, allowsOverdamping: true).regime == .overdamped)
  }

  @Test func systemSpringIsCurve7() throws {
    let golden = try Self.springCase("uikit_system_default_spring")
    #expect(Spring.system.mass == 3 && Spring.system.stiffness == 1000 && Spring.system.damping == 500)
    #expect(!Spring.system.allowsOverdamping)
    let times = try GoldenVectors.get().springs.t
    let expected = try #require(golden.positionCaDefault)
    for (i, t) in times.enumerated() {
      #expect(abs(Spring.system.position(at: t) - expected[i]) <= 1e-9)
    }
    // "Reproduces precisely in 0.5 s" with the clamp.
    #expect(Spring.system.position(at: 0.4) > 0.994)
    #expect(Spring.system.position(at: 0.5) > 0.998)
    #expect(abs(Spring.system.settlingDuration - 0.5) <= 0.05)
  }

  @Test func startsAtRestWithItsVelocity() {
    let spring = Spring(stiffness: 300, damping: 20, initialVelocity: 5)
    #expect(spring.position(at: 0) == 0)
    #expect(spring.velocity(at: 0) == 5)
    #expect(spring.position(at: -1) == 0 && spring.velocity(at: -1) == 0)
    #expect(abs(spring.position(at: 20) - 1) < 1e-12)
  }

  /// The closed form is continuous through ζ = 1: no band, no cancellation.
  @Test(arguments: [-1e-9, -1e-13, 1e-13, 1e-9], [0.0, 5.0, -3.0])
  func continuousAcrossCriticalDamping(offset: Double, velocity: Double) {
    let critical = Spring(stiffness: 100, damping: 20, initialVelocity: velocity)
    let near = Spring(
      stiffness: 100, damping: 20 * (1 + offset), initialVelocity: velocity,
      allowsOverdamping: true)
    for i in 0...60 {
      let t = Double(i) / 30
      #expect(abs(near.position(at: t) - critical.position(at: t)) <= 1e-7)
      #expect(abs(near.velocity(at: t) - critical.velocity(at: t)) <= 1e-6)
    }
  }

  @Test func velocityIsTheDerivative() {
    let springs = [
      Spring(stiffness: 100, damping: 10, initialVelocity: -5),
      Spring(stiffness: 100, damping: 20, initialVelocity: 5),
      Spring(stiffness: 100, damping: 40, initialVelocity: 5, allowsOverdamping: true),
      Spring.system,
    ]
    let h = 1e-6
    for spring in springs {
      for i in 1..<40 {
        let t = Double(i) / 40
        let slope = (spring.position(at: t + h) - spring.position(at: t - h)) / (2 * h)
        #expect(abs(spring.velocity(at: t) - slope) <= 1e-4 * max(1, abs(slope)))
      }
    }
  }

  @Test func settlingDurationMatchesApplesExamples() {
    // CASpringAnimation doc: damping 5 ≈ 2.85 s, damping 15 "just over 1 s".
    let loose = Spring(stiffness: 100, damping: 5).settlingDuration
    let firm = Spring(stiffness: 100, damping: 15).settlingDuration
    #expect(abs(loose - 2.85) <= 0.05 * 2.85)
    #expect(firm > 1 && firm <= 1.05)
    #expect(Spring(stiffness: 100, damping: 0).settlingDuration == .infinity)
    // Stiffer settles faster; more damping (toward critical) settles faster.
    #expect(Spring(stiffness: 400, damping: 20).settlingDuration < Spring(stiffness: 100, damping: 10).settlingDuration)
    let overdamped = Spring(stiffness: 100, damping: 40, allowsOverdamping: true)
    #expect(overdamped.settlingDuration > Spring(stiffness: 100, damping: 20).settlingDuration)
    // At the settling time the spring is within ~1e-3 of rest.
    for spring in [Spring(stiffness: 100, damping: 15), overdamped, Spring.system] {
      let t = spring.settlingDuration
      #expect(abs(1 - spring.position(at: t)) < 2e-3)
    }
  }
}
