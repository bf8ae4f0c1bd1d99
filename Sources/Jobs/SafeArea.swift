import Geometry

/// The status bar's height on the devices of `DevicePreset`, for views that
/// sit under it (`kind: navbar`): UIKit's `safeAreaInsets.top` in portrait.
enum SafeArea {
  /// The top inset in points for a canvas of `size` points.
  static func top(for size: Size) -> Double {
    switch (size.width, size.height) {
    case (375, 667): return 20  // iPhone SE (home button)
    case (375, 812): return 50  // iPhone 13 mini
    case (390, 844), (428, 926): return 47  // notch
    case (393, 852), (430, 932): return 59  // Dynamic Island
    case (402, 874), (440, 956): return 62  // iPhone 16 Pro
    default:
      // iPads and custom sizes: a plain status bar, taller on tall phones.
      if size.width < 600, size.height / size.width > 2 { return 59 }
      return size.width >= 600 ? 24 : 20
    }
  }
}
