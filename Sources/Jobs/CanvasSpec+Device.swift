// The device a canvas is the screen of, for everything that follows the
// device: a sheet's safe-area top and iPad card, whether iOS shows a status
// bar and where its glyphs go, the nav bar's layout, a String Catalog's
// device family.
//
// A canvas that names a device is that device, held at `orientation`. A
// canvas given only as a `size` is the preset whose screen that size is in
// points, upright or turned, at any scale, held as the size is
// (`DevicePreset.matching`: `size: 852x393` is an iPhone 15 in landscape,
// `390x844` an iPhone 14), as the stage finds its device. A size that is no
// device's screen has none: each default then keeps its own rule for a
// bare size (`SafeArea`, a parameter's default).

extension CanvasSpec {
  /// The device this canvas shows the screen of, and how it is held.
  public var heldDevice: (preset: DevicePreset, orientation: DeviceOrientation)? {
    if let device { return DevicePreset.named(device).map { ($0, orientation) } }
    return DevicePreset.matching(size: size)
  }

  /// Whether this canvas is an iPhone held in landscape (compact height;
  /// iOS shows no status bar and the safe-area top is 0).
  public var isPhoneInLandscape: Bool {
    guard let (preset, orientation) = heldDevice else { return false }
    return preset.idiom == .phone && orientation == .landscape
  }
}
