/// One animation of a property: to `value`, starting `beginTime + delay`
/// seconds into the track, over `duration` seconds, along `curve`.
///
/// The `beginTime`/`delay` split mirrors UIKit: `beginTime` is where the
/// animation is placed (a completion block's time), `delay` is the
/// `animate(withDuration:delay:…)` argument on top of it.
public struct Keyframe<Value: Interpolatable> {
  /// The value the property reaches at the end.
  public var value: Value
  /// When the animation is added, in seconds from the track's start.
  public var beginTime: Double
  /// How long after `beginTime` the animation starts moving.
  public var delay: Double
  /// The animation's duration in seconds.
  public var duration: Double
  /// How progress follows time within the duration.
  public var curve: AnimationCurve

  /// An animation to `value` starting at `beginTime + delay`.
  public init(
    value: Value, beginTime: Double = 0, delay: Double = 0, duration: Double,
    curve: AnimationCurve = .easeInEaseOut
  ) {
    self.value = value
    self.beginTime = beginTime
    self.delay = delay
    self.duration = duration
    self.curve = curve
  }

  /// When the value starts to move.
  @inlinable public var startTime: Double { beginTime + delay }
  /// When the value arrives.
  @inlinable public var endTime: Double { beginTime + delay + duration }
}

extension Keyframe: Sendable where Value: Sendable {}
extension Keyframe: Equatable where Value: Equatable {}
extension Keyframe: Hashable where Value: Hashable {}

/// One animated property over time: a start value and the animations that
/// move it, sequential (a chain of completion blocks) or overlapping.
///
/// Each keyframe animates from whatever value the property shows when it
/// starts (`UIView.AnimationOptions.beginFromCurrentState`) to its own value,
/// and takes over from any keyframe still running: with keyframes A then B,
/// once B starts A no longer contributes. Sequential chains, the usual case,
/// behave identically under UIKit's additive animations. Separate properties
/// animating side by side (seed 003's scale chain, fade and circular hole)
/// are separate tracks evaluated at the same time.
///
/// Evaluation is a binary search over the keyframes plus one curve
/// evaluation; it does not allocate. The start value of every keyframe is
/// computed when keyframes are added.
public struct KeyframeTrack<Value: Interpolatable> {
  /// The value before any keyframe starts.
  public let initialValue: Value
  /// The keyframes, ordered by `startTime` (stable for equal times).
  public private(set) var keyframes: [Keyframe<Value>]
  /// The value each keyframe starts from, parallel to `keyframes`.
  @usableFromInline var startValues: [Value]

  /// A track holding `initialValue`, moved by `keyframes` (any order).
  public init(initialValue: Value, keyframes: [Keyframe<Value>] = []) {
    self.initialValue = initialValue
    self.keyframes = []
    self.startValues = []
    for keyframe in keyframes { add(keyframe) }
  }

  /// Adds an animation at its `startTime`.
  public mutating func add(_ keyframe: Keyframe<Value>) {
    let index = keyframes.lastIndex { $0.startTime <= keyframe.startTime }.map { $0 + 1 } ?? 0
    keyframes.insert(keyframe, at: index)
    // Start values from `index` on depend on the new keyframe.
    startValues.removeSubrange(Swift.min(index, startValues.count)...)
    for i in index..<keyframes.count {
      startValues.append(i == 0 ? initialValue : value(of: i - 1, atTime: keyframes[i].startTime))
    }
  }

  /// Adds an animation to `value` that starts `delay` seconds after the last
  /// one ends (at `delay` for an empty track): a completion-block chain.
  public mutating func append(
    to value: Value, duration: Double, delay: Double = 0, curve: AnimationCurve = .easeInEaseOut
  ) {
    add(Keyframe(value: value, beginTime: endTime, delay: delay, duration: duration, curve: curve))
  }

  /// A copy with `append(to:duration:delay:curve:)` applied, for chaining.
  public func appending(
    to value: Value, duration: Double, delay: Double = 0, curve: AnimationCurve = .easeInEaseOut
  ) -> KeyframeTrack {
    var track = self
    track.append(to: value, duration: duration, delay: delay, curve: curve)
    return track
  }

  /// When the last keyframe to finish arrives (0 for an empty track).
  public var endTime: Double {
    keyframes.reduce(0) { Swift.max($0, $1.endTime) }
  }

  /// The value keyframe `index` gives at time `t` (it must have started).
  @usableFromInline func value(of index: Int, atTime t: Double) -> Value {
    let keyframe = keyframes[index]
    let fraction = keyframe.curve.progress(atTime: t - keyframe.startTime, duration: keyframe.duration)
    return startValues[index].interpolated(to: keyframe.value, fraction: fraction)
  }

  /// The property's value at `t` seconds from the track's start.
  public func value(atTime t: Double) -> Value {
    // The last keyframe that has started owns the value.
    var lo = 0, hi = keyframes.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if keyframes[mid].startTime <= t { lo = mid + 1 } else { hi = mid }
    }
    return lo == 0 ? initialValue : value(of: lo - 1, atTime: t)
  }
}

extension KeyframeTrack: Sendable where Value: Sendable {}
extension KeyframeTrack: Equatable where Value: Equatable {}
extension KeyframeTrack: Hashable where Value: Hashable {}
