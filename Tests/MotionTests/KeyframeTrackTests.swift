import Geometry
import Testing

@testable import Motion

@Suite struct KeyframeTrackTests {
  static let duration = 0.9
  static let third = duration / 3

  /// Seed 003 (zoom-expand): scale to 1.1, back to 1.0, then fade, each a
  /// third, chained by completion blocks with UIView's default curve.
  static let scale = KeyframeTrack(initialValue: 1.0)
    .appending(to: 1.1, duration: third)
    .appending(to: 1.0, duration: third)
  static let alpha = KeyframeTrack(
    initialValue: 1.0, keyframes: [Keyframe(value: 0, beginTime: 2 * third, duration: third)])
  /// The circular hole beside them: radius 0.1 → ¾ of 852 pt, easeOut, whole duration.
  static let hole = KeyframeTrack(
    initialValue: 0.1, keyframes: [Keyframe(value: 639, duration: duration, curve: .easeOut)])

  @Test func seed003Chain() {
    let ease = TimingFunction.easeInEaseOut
    #expect(Self.scale.value(atTime: 0) == 1)
    #expect(abs(Self.scale.value(atTime: Self.third / 2) - (1 + 0.1 * ease.value(at: 0.5))) < 1e-12)
    #expect(abs(Self.scale.value(atTime: Self.third) - 1.1) < 1e-12)
    #expect(abs(Self.scale.value(atTime: Self.third * 1.25) - (1.1 - 0.1 * ease.value(at: 0.25))) < 1e-12)
    #expect(abs(Self.scale.value(atTime: 2 * Self.third) - 1.0) < 1e-12)
    #expect(Self.scale.value(atTime: 5) == 1.0)
    #expect(abs(Self.scale.endTime - 2 * Self.third) < 1e-15)

    #expect(Self.alpha.value(atTime: 0) == 1)
    #expect(Self.alpha.value(atTime: 2 * Self.third - 1e-9) == 1)
    #expect(abs(Self.alpha.value(atTime: 2.5 * Self.third) - (1 - ease.value(at: 0.5))) < 1e-12)
    #expect(Self.alpha.value(atTime: Self.duration) == 0)

    // The hole runs beside the chain, on its own curve.
    let t = 0.4
    #expect(abs(Self.hole.value(atTime: t) - (0.1 + 638.9 * TimingFunction.easeOut.value(at: t / Self.duration))) < 1e-9)
    #expect(Self.hole.value(atTime: Self.duration) == 639)
  }

  @Test func delayAndBeginTime() {
    var track = KeyframeTrack(initialValue: 0.0)
    track.append(to: 10, duration: 1, delay: 0.5, curve: .linear)
    #expect(track.keyframes[0].startTime == 0.5)
    #expect(track.value(atTime: 0.5) == 0)
    #expect(abs(track.value(atTime: 1) - 5) < 1e-12)
    #expect(track.endTime == 1.5)
    track.append(to: 20, duration: 1, delay: 0.25, curve: .linear)
    #expect(track.keyframes[1].beginTime == 1.5 && track.keyframes[1].startTime == 1.75)
    #expect(track.value(atTime: 1.6) == 10)
    #expect(abs(track.value(atTime: 2.25) - 15) < 1e-12)
  }

  @Test func overlappingKeyframesBeginFromTheCurrentValue() {
    // A moves 0 → 10 over 0…1; B starts at 0.5 toward −10 and takes over.
    let track = KeyframeTrack(
      initialValue: 0.0,
      keyframes: [
        Keyframe(value: -10, beginTime: 0.5, duration: 1, curve: .linear),
        Keyframe(value: 10, duration: 1, curve: .linear),
      ])
    #expect(track.keyframes.map(\.value) == [10, -10])
    #expect(abs(track.value(atTime: 0.25) - 2.5) < 1e-12)
    #expect(abs(track.value(atTime: 0.5) - 5) < 1e-12)
    #expect(abs(track.value(atTime: 1) - (5 + (-15) * 0.5)) < 1e-12)
    #expect(track.value(atTime: 1.5) == -10)
    #expect(track.value(atTime: 9) == -10)
  }

  @Test func springKeyframeOvershootsThenLands() {
    let spring = Spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1 / 0.55)
    let frame = KeyframeTrack(
      initialValue: Rect(x: 16, y: 120, width: 170, height: 170),
      keyframes: [Keyframe(value: Rect(x: 0, y: 0, width: 393, height: 393), duration: 0.75, curve: .spring(spring))])
    let mid = frame.value(atTime: 0.3)
    let p = spring.position(at: 0.3)
    #expect(abs(mid.width - (170 + 223 * p)) < 1e-9)
    #expect(abs(mid.minX - (16 - 16 * p)) < 1e-9)
    #expect(frame.value(atTime: 0.75) == Rect(x: 0, y: 0, width: 393, height: 393))
    let point = Point(x: 0, y: 10).interpolated(to: Point(x: 10, y: 30), fraction: 0.25)
    #expect(point == Point(x: 2.5, y: 15))
  }
}
