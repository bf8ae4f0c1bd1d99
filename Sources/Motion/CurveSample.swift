/// One row of a sampled curve: time, progress and its rate of change.
///
/// `transvid curve NAME|SPEC --samples N` prints
/// `CurveSample.csv(for: curve.samples(count: N))`; the command does the I/O.
public struct CurveSample: Hashable, Sendable {
  /// Seconds from the start (for a timing function sampled over its natural
  /// duration of 1, the elapsed fraction).
  public var time: Double
  /// Progress, as `AnimationCurve.progress(atTime:duration:)`.
  public var value: Double
  /// Progress per second, as `AnimationCurve.velocity(atTime:duration:)`.
  public var velocity: Double

  /// A row.
  public init(time: Double, value: Double, velocity: Double) {
    self.time = time
    self.value = value
    self.velocity = velocity
  }

  /// The rows as CSV: a `t,value,velocity` header, then one line per sample,
  /// each number in Swift's shortest round-trip form (`0.25`, `1e-05`,
  /// `inf`), with −0 written as 0. Lines end with "\n".
  public static func csv(for samples: [CurveSample]) -> String {
    var text = "t,value,velocity\n"
    for sample in samples {
      text += "\(format(sample.time)),\(format(sample.value)),\(format(sample.velocity))\n"
    }
    return text
  }

  static func format(_ number: Double) -> String {
    number == 0 ? "0.0" : "\(number)"
  }
}

extension AnimationCurve {
  /// `count` samples evenly spaced over 0…`duration`, both ends included
  /// (one sample is t = 0; none is an empty list).
  ///
  /// - Parameter duration: The animation's duration; nil uses
  ///   `naturalDuration` (1 for a timing function, a UIKit-form spring's own
  ///   duration, else the spring's settling duration).
  public func samples(count: Int, duration: Double? = nil) -> [CurveSample] {
    guard count > 0 else { return [] }
    let span = duration ?? naturalDuration
    return (0..<count).map { i in
      let t = count == 1 ? 0 : span * Double(i) / Double(count - 1)
      return CurveSample(
        time: t, value: progress(atTime: t, duration: span),
        velocity: velocity(atTime: t, duration: span))
    }
  }
}
