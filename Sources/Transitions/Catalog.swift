/// Every transition transvid knows, by job-file name.
public enum Catalog {
  /// All descriptors, in the order `transvid list` shows them.
  public static let all: [TransitionDescriptor] = [
    CircleSpread.descriptor
  ]

  /// The descriptor named `name`, if any.
  public static func descriptor(named name: String) -> TransitionDescriptor? {
    all.first { $0.name == name }
  }
}
