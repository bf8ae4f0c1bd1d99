import Testing

@testable import Motion

@Suite struct InteractiveTransitionTrackTests {
  @Test(arguments: 0..<3)
  func percentDrivenVectors(index: Int) throws {
    let golden = try GoldenVectors.get().percentDriven[index]
    let finish = InteractiveTransitionTrack(
      duration: golden.duration, percentComplete: [0, golden.percentComplete],
      release: .finish, completionSpeed: golden.completionSpeed)
    let cancel = InteractiveTransitionTrack(
      duration: golden.duration, percentComplete: [0, golden.percentComplete],
      release: .cancel, completionSpeed: golden.completionSpeed)
    // Exact arithmetic, as the reference computes it.
    #expect(finish.remainingDuration == golden.finishRemainingS)
    #expect(cancel.remainingDuration == golden.cancelRemainingS)
    #expect(finish.timeOffset(atTime: finish.trackingDuration) == golden.timeOffsetDuringInteractionS)
    #expect(finish.totalDuration == finish.trackingDuration + golden.finishRemainingS)
    #expect(!finish.isCancelled && cancel.isCancelled)
  }

  @Test func releaseDecidesByHalfway() {
    #expect(InteractiveTransitionTrack(duration: 0.5, percentComplete: [0, 0.3, 0.45]).release == .cancel)
    #expect(InteractiveTransitionTrack(duration: 0.5, percentComplete: [0, 0.5]).release == .cancel)
    #expect(InteractiveTransitionTrack(duration: 0.5, percentComplete: [0, 0.51]).release == .finish)
    #expect(InteractiveTransitionTrack(duration: 0.5, percentComplete: [0, 0.9], release: .cancel).release == .cancel)
    #expect(InteractiveTransitionTrack(duration: 0.5, percentComplete: []).percentCompleteSamples == [0])
  }

  @Test func trackingFollowsTheFinger() {
    let track = InteractiveTransitionTrack(
      duration: 0.75, percentComplete: [0, 0.3, 0.45], sampleInterval: 0.2, release: .cancel)
    #expect(track.trackingDuration == 0.4)
    #expect(track.percentComplete(atTime: -1) == 0)
    #expect(abs(track.percentComplete(atTime: 0.1) - 0.15) < 1e-12)
    #expect(abs(track.percentComplete(atTime: 0.3) - 0.375) < 1e-12)
    #expect(track.percentComplete(atTime: 0.4) == 0.45)
    #expect(abs(track.timeOffset(atTime: 0.1) - 0.15 * 0.75) < 1e-12)
    // The animation's own curve applies on top of the scrubbed time.
    let curve = AnimationCurve.easeInEaseOut
    #expect(track.progress(atTime: 0.1, curve: curve) == curve.progress(atTime: 0.15 * 0.75, duration: 0.75))
    #expect(track.fraction(atTime: 0.1) == track.percentComplete(atTime: 0.1))
  }

  @Test func cancelPlaysBackAlongTheCompletionCurve() {
    let track = InteractiveTransitionTrack(
      duration: 0.75, percentComplete: [0, 0.3, 0.45], sampleInterval: 0.2)
    #expect(track.release == .cancel)
    let remaining = 0.45 * 0.75
    #expect(abs(track.remainingDuration - remaining) < 1e-15)
    #expect(abs(track.totalDuration - (0.4 + remaining)) < 1e-15)
    let curve = AnimationCurve.spring(Spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1 / 0.55))
    let now = curve.progress(atTime: 0.45 * 0.75, duration: 0.75)
    let tau = remaining / 4
    let c = TimingFunction.easeInEaseOut.value(at: 0.25)
    #expect(abs(track.progress(atTime: 0.4 + tau, curve: curve) - (now - now * c)) < 1e-12)
    #expect(abs(track.fraction(atTime: 0.4 + tau) - (0.45 - 0.45 * c)) < 1e-12)
    #expect(track.progress(atTime: track.totalDuration, curve: curve) == 0)
    #expect(track.fraction(atTime: track.totalDuration + 1) == 0)
  }

  /// UIKit's spring form without a duration, as a completion curve, is
  /// UIView's spring made for the rest, (1 − p)·duration or p·duration of
  /// the animation's time, and runs at the completion's speed; a spring
  /// with its own duration, or a timing function, stays as written.
  @Test func aUIKitSpringWithoutADurationTakesTheRests() throws {
    let spring = try CompletionCurve(parsing: "spring(damping: 0.6, velocity: 1/2)")
    let finish = InteractiveTransitionTrack(
      duration: 0.8, percentComplete: [0, 0.75], sampleInterval: 0.25, completionSpeed: 2, completionCurve: spring)
    #expect(finish.completionCurve == .spring(Spring(duration: 0.2, dampingRatio: 0.6, initialVelocity: 0.5)))
    #expect(abs(finish.remainingDuration - 0.1) < 1e-15)
    let c = Spring(duration: 0.2, dampingRatio: 0.6, initialVelocity: 0.5).position(at: 0.1)
    #expect(abs(finish.completionProgress(atTime: 0.25 + 0.05) - c) < 1e-15)
    let cancel = InteractiveTransitionTrack(
      duration: 0.8, percentComplete: [0, 0.25], sampleInterval: 0.25, completionCurve: spring)
    #expect(cancel.completionCurve == .spring(Spring(duration: 0.2, dampingRatio: 0.6, initialVelocity: 0.5)))
    let own = try CompletionCurve(parsing: "spring(damping: 0.6, velocity: 0, duration: 0.5)")
    let fixed = InteractiveTransitionTrack(duration: 0.8, percentComplete: [0, 0.75], completionCurve: own)
    #expect(fixed.completionCurve == .spring(Spring(duration: 0.5, dampingRatio: 0.6)))
    #expect(try CompletionCurve(parsing: "easeOut").curve(restDuration: 3) == .timing(.easeOut))
    // A spring that cannot be made says what is wrong with it, not that it lacks a duration.
    #expect(throws: MotionParseError(.outOfRange, "spring: damping = 0 must be greater than 0 and at most 1000")) {
      try CompletionCurve(parsing: "spring(damping: 0, velocity: 0)")
    }
  }

  @Test func finishWithSpeedAndSystemSpring() {
    let track = InteractiveTransitionTrack(
      duration: 0.5, percentComplete: [0.2, 0.8], sampleInterval: 0.25, completionSpeed: 2,
      completionCurve: .systemSpring)
    #expect(track.release == .finish)
    #expect(abs(track.remainingDuration - 0.05) < 1e-15)
    // The spring runs in the layer's time, twice as fast (layer.speed = 2):
    // 0.02 s after release it shows its value at 0.04 s, not at 0.02 s.
    let tau = 0.02
    let c = Spring.system.position(at: 2 * tau)
    #expect(abs(track.completionProgress(atTime: 0.25 + tau) - c) < 1e-15)
    #expect(abs(track.fraction(atTime: 0.25 + tau) - (0.8 + 0.2 * c)) < 1e-12)
    #expect(track.fraction(atTime: 0.3) == 1)
    #expect(track.progress(atTime: 0.3, curve: .easeIn) == 1)
  }

  /// A timing function is re-timed by τ/T_rem alone: the layer's speed
  /// scales both, so the completion is the same curve whatever the speed.
  @Test func aTimingFunctionCompletionIgnoresTheLayerTime() {
    let track = InteractiveTransitionTrack(
      duration: 0.5, percentComplete: [0, 0.6], sampleInterval: 0.1, completionSpeed: 4)
    let rest = track.remainingDuration
    #expect(abs(track.completionProgress(atTime: 0.1 + rest / 4) - TimingFunction.easeInEaseOut.value(at: 0.25)) < 1e-12)
  }

  /// UIKit limits each acceleration's jump from the one before to ±5 (UIKIT.md
  /// §1), not the acceleration itself: a finger thrown back at 3 widths a
  /// second and braking at 20 W/s² for three samples counts 5, 10, 15 (mean
  /// 10), so 0.3 − 1 × 0.5 + ½ × 10 × 0.25 = 1.05 passes 187.5/390 and the
  /// pop finishes; capped at 5 it would be 0.425 and cancel.
  @Test func theAccelerationsJumpIsClampedNotItsValue() {
    let samples = [234, 175.5, 136.5, 117, 117].map { $0 / 390 }
    let decided = InteractiveTransitionTrack.navigationRelease(
      percentComplete: samples, interval: 0.05, duration: 0.5, width: 390)
    #expect(decided.release == .finish)
    // A finger stopped at 0.3 with no speed or acceleration left cancels.
    #expect(InteractiveTransitionTrack.navigationRelease(
      percentComplete: [0.3, 0.3, 0.3, 0.3], interval: 0.05, duration: 0.5, width: 390).release == .cancel)
  }
}
