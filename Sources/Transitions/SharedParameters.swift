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
