import Transitions

extension TransitionStep {
  /// The shape a `partial-curl` rests in: how much it uncovers, its roll's
  /// radius (and, beside them, the side it lifts from, `mirror:`).
  static let curlShape = ["reveal", "radius"]

  /// A partial curl's step back uncurls the page `forward`, the curl it
  /// undoes, curled: UIKit runs that curl's time back to 0 (UIKIT.md §2),
  /// so the page goes down from the corner it lifted from, by the height
  /// it uncovered, on its roll. The step's own `reveal`, `radius` and
  /// `mirror:` where they differ are not used (`unusedKeys`, noted): one
  /// page uncurls, where another page brought down over the curl would
  /// show two rolls.
  mutating func uncurl(_ forward: TransitionStep) {
    for key in Self.curlShape where parameters.values[key] != forward.parameters.values[key] {
      parameters.values[key] = forward.parameters.values[key]
      unusedKeys.append(key)
    }
    // A curl lifts the same corner in either direction of a locale: nil is unmirrored.
    if (mirror ?? false) != (forward.mirror ?? false) { unusedKeys.append("mirror") }
    mirror = forward.mirror
  }
}
