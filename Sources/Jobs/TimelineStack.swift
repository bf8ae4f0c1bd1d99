import Transitions

/// What a timeline's `dismiss` takes off the stack of screens shown.
///
/// A dismiss undoes the latest present and every push after it: UIKit's
/// `dismiss(animated:)` from a screen pushed in a presented navigation
/// controller dismisses that controller, the screens pushed in it going
/// with it. Everything that replays the timeline's stack (the decoder, the
/// sheets' screens, the pictures a step keeps, the renderer's composites)
/// takes off as many.
public enum TimelineStack {
  /// How many of the steps not yet undone (their operations, the latest
  /// last) a dismiss takes off: the latest present and the pushes after
  /// it; 1 without a present (a dismiss there is an error).
  public static func dismissed(by shown: [TransitionOperation]) -> Int {
    guard let present = shown.lastIndex(of: .present) else { return 1 }
    return shown.count - present
  }
}
