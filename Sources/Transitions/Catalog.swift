/// Every transition transvid knows, by job-file name.
public enum Catalog {
  /// All descriptors, in the order `transvid list` shows them: the seeds'
  /// transitions first, then UIKit's built-in ones.
  public static let all: [TransitionDescriptor] = [
    CircleSpread.descriptor,
    TapSpread.descriptor,
    MagicMove.descriptor,
    ElasticPresent.descriptor,
    PageFlip.descriptor,
    CirclePresent.descriptor,
    ZoomExpand.descriptor,
    CornerReveal.descriptor,
    NavigationParallax.descriptor,
    NavigationParallax.popDescriptor,
    CoverVertical.descriptor,
    CrossDissolve.descriptor,
    FlipHorizontal.descriptor,
    PartialCurl.descriptor,
    PageSheet.descriptor,
  ]

  /// The descriptor named `name`, if any.
  public static func descriptor(named name: String) -> TransitionDescriptor? {
    all.first { $0.name == name }
  }
}
