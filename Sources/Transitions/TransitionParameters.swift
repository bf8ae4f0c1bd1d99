import Geometry
import Motion
import Raster

/// The kind of value a transition parameter takes in a job file.
public enum ParameterKind: String, Sendable {
  /// Seconds, ≥ 0.
  case duration
  /// Any finite number.
  case number
  /// `[x, y, width, height]` in points.
  case rect
  /// `[x, y]` in points.
  case point
  /// A timing-function name, `cubic-bezier(x1, y1, x2, y2)` or a spring
  /// (`AnimationCurve(parsing:)`).
  case curve
  /// `{from: ID, to: ID}`: a view on each screen.
  case element
  /// A colour.
  case color
  /// A colour, or `blur`: what fills a place a view left.
  case fill
}

/// One parameter a transition accepts.
public struct ParameterDescriptor: Sendable {
  public var name: String
  public var kind: ParameterKind
  /// The default, as shown by `transvid list`.
  public var defaultValue: String
  public var summary: String
  /// The values a `.number` takes (nil: any of the job file's numbers,
  /// ±100 000): those that draw something sensible.
  public var range: ClosedRange<Double>?
  /// The default as a value, where it is one place on every screen (a
  /// seed's `origin` rect): a value written as it is the default, kept
  /// where an unwritten one is (`JobSpec.mirror(rightToLeft:)`).
  public var value: ParameterValue?

  public init(
    _ name: String, _ kind: ParameterKind, default defaultValue: String, _ summary: String, range: ClosedRange<Double>? = nil,
    value: ParameterValue? = nil
  ) {
    self.name = name
    self.kind = kind
    self.defaultValue = defaultValue
    self.summary = summary
    self.range = range
    self.value = value
  }
}

/// A parameter value parsed from a job file.
public enum ParameterValue: Sendable, Hashable {
  case number(Double)
  case rect(Rect)
  case point(Point)
  case curve(AnimationCurve)
  case element(from: String, to: String)
  case color(Color)
  /// `blur` for a `.fill` parameter.
  case blur
}

/// The parameters given for one transition step, already checked against the
/// transition's descriptor (names and kinds); values not given use defaults.
public struct TransitionParameters: Sendable, Hashable {
  public var values: [String: ParameterValue]

  public init(_ values: [String: ParameterValue] = [:]) {
    self.values = values
  }

  /// `self` with every value of `overrides` replacing ours (a pop reusing its push's parameters).
  public func merging(_ overrides: TransitionParameters) -> TransitionParameters {
    TransitionParameters(values.merging(overrides.values) { _, new in new })
  }

  public func number(_ name: String, default value: Double) -> Double {
    if case .number(let v)? = values[name] { return v }
    return value
  }

  public func rect(_ name: String, default value: Rect) -> Rect {
    if case .rect(let v)? = values[name] { return v }
    return value
  }

  public func point(_ name: String, default value: Point) -> Point {
    if case .point(let v)? = values[name] { return v }
    return value
  }

  public func curve(_ name: String = "curve", default value: AnimationCurve) -> AnimationCurve {
    if case .curve(let v)? = values[name] { return v }
    return value
  }

  public func element(_ name: String = "element") -> (from: String, to: String)? {
    if case .element(let f, let t)? = values[name] { return (f, t) }
    return nil
  }

  public func color(_ name: String, default value: Color) -> Color {
    if case .color(let v)? = values[name] { return v }
    return value
  }

  /// Whether the `.fill` parameter `name` is `blur`.
  public func isBlur(_ name: String) -> Bool { values[name] == .blur }
}

/// A transition's entry in the catalog.
public struct TransitionDescriptor: Sendable {
  /// The name used in job files (`circle-spread`).
  public var name: String
  /// Where it comes from: a seed article or UIKit.
  public var origin: String
  /// Whether it is UINavigationController's own push and pop, whose
  /// gestures and mirroring follow that controller's rules.
  public var isNavigationController: Bool { origin.contains("UINavigationController") }
  /// Whether `other` is this transition, perhaps under its other name
  /// (`push` and `pop` are one transition the catalog lists twice): each
  /// transition has an origin of its own.
  public func isSameTransition(as other: TransitionDescriptor) -> Bool { origin == other.origin }
  public var summary: String
  /// The operations it supports.
  public var operations: [TransitionOperation]
  /// Every parameter it accepts, the shared ones (`duration`, `delay`, `curve`) included.
  public var parameters: [ParameterDescriptor]
  /// Builds the configured transition.
  public var make: @Sendable (TransitionParameters) -> any Transition

  public init(
    name: String, origin: String, summary: String, operations: [TransitionOperation],
    parameters: [ParameterDescriptor], make: @escaping @Sendable (TransitionParameters) -> any Transition
  ) {
    self.name = name
    self.origin = origin
    self.summary = summary
    self.operations = operations
    self.parameters = parameters
    self.make = make
  }
}
