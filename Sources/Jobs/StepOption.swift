// The keys every transition step takes besides its transition's own
// parameters (a descriptor lists `duration`, `delay`, `curve` and its own
// ones): DESIGN.md's shared `spring` and `gesture`, and the step's
// `slowmo`, `touch` and `mirror` (JobDecoder+StepOptions.swift). Named
// once here for what tells a user a step's keys: `transvid list` and the
// unknown-parameter error.

/// A key any transition step may write, whatever its transition.
public struct StepOption: Sendable {
  public var name: String
  /// What it takes, shown where `transvid list` shows a parameter's kind.
  public var kind: String
  /// The value when the step does not write it, as `transvid list` shows it.
  public var defaultValue: String
  public var summary: String

  /// Every such key, in the order `transvid list` shows them.
  public static let all: [StepOption] = [
    StepOption(
      name: "spring", kind: "spring", defaultValue: "none",
      summary: "the curve as a spring, instead of curve: { damping, velocity } (UIView's, over the step's duration) "
        + "or { mass, stiffness, damping, velocity } (CASpringAnimation), or response/dampingRatio, duration/bounce"),
    StepOption(
      name: "gesture", kind: "gesture", defaultValue: "none",
      summary: "a finger drives the step: { progress: [0…1, …] } or { direction, distance: [points, …] }, "
        + "interval, release (finish|cancel), completionSpeed, completionCurve"),
    StepOption(
      name: "slowmo", kind: "number, 1…20", defaultValue: "1",
      summary: "the step plays this many times slower, as the Simulator's slow animations"),
    StepOption(
      name: "touch", kind: "touch", defaultValue: "none",
      summary: "a touch indicator: [x, y] in points, or true (at the tap, origin or element, else where the finger starts)"),
    StepOption(
      name: "mirror", kind: "true, false or auto", defaultValue: "auto",
      summary: "draw the step mirrored left to right (auto: as UIKit mirrors it in a right-to-left locale)"),
  ]

  /// The names of `all`.
  public static var names: [String] { all.map(\.name) }
}
