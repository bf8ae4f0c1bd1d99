/// Why a curve specification (`easeIn`, `cubic-bezier(…)`, `spring(…)`)
/// could not be read; `description` is a sentence for the user.
///
/// `reason` is for code that reacts to the kind of mistake; `message` is the
/// same sentence as `description`. Callers that know where the text came from
/// (a job file's line and column) prefix their own location.
public struct MotionParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of mistake.
  public enum Reason: Hashable, Sendable {
    /// Nothing but whitespace.
    case empty
    /// The text is not `name` or `name(arguments)`.
    case syntax
    /// The name is not a known curve.
    case unknownName
    /// A function got the wrong number of arguments, or labels where none belong.
    case arguments
    /// An argument is not a (finite) number or a boolean where one is needed.
    case notANumber
    /// A number is outside its parameter's range.
    case outOfRange
    /// A spring parameter label that no spring form knows.
    case unknownParameter
    /// A spring parameter given twice.
    case duplicateParameter
    /// A spring form is incomplete, or mixes two forms.
    case incompleteOrMixedForm
    /// UIKit's spring form without a duration of its own, given an
    /// animation's duration outside the range a spring's duration takes.
    case takenDurationOutOfRange
    /// A spring where a timing function is required.
    case notATimingFunction
    /// A timing function where a spring is required.
    case notASpring
  }

  /// The kind of mistake.
  public let reason: Reason
  /// The sentence shown to the user.
  public let message: String

  /// An error of the given kind with the given message.
  public init(_ reason: Reason, _ message: String) {
    self.reason = reason
    self.message = message
  }

  public var description: String { message }
}
