import Motion

/// The parameters every timed transition shares.
public enum SharedParameters {
  /// `duration`, `delay` and `curve` with the given defaults.
  public static func timed(duration: Double, curve: String) -> [ParameterDescriptor] {
    [
      ParameterDescriptor("duration", .duration, default: "\(duration)", "the animation's length in seconds"),
      ParameterDescriptor("delay", .duration, default: "0", "seconds before the animation starts"),
      ParameterDescriptor("curve", .curve, default: curve, "timing: a curve name, cubic-bezier(x1, y1, x2, y2) or spring(…)"),
    ]
  }
}

/// The defaults of a timed transition's `duration` and `curve`, stated once
/// for both its descriptor (what `transvid list` shows) and its init.
public struct TimingDefaults: Sendable {
  public var duration: Double
  public var curve: AnimationCurve
  /// The curve as a job file writes it (`easeInEaseOut`, `spring`).
  public var curveText: String

  public init(duration: Double, curve: AnimationCurve, curveText: String) {
    self.duration = duration
    self.curve = curve
    self.curveText = curveText
  }

  /// `duration`, `delay` and `curve` for the descriptor.
  public var parameters: [ParameterDescriptor] { SharedParameters.timed(duration: duration, curve: curveText) }

  /// A step's `duration`, `delay` and `curve`, defaults filled in.
  public func resolve(_ parameters: TransitionParameters) -> (duration: Double, delay: Double, curve: AnimationCurve) {
    (parameters.number("duration", default: duration), parameters.number("delay", default: 0),
     parameters.curve(default: curve))
  }
}
