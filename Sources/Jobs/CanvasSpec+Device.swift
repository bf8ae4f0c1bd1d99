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
// bare size (`SafeArea`, a parameter's default). Shown in a device the stage
// names, such a canvas is laid out as that device's screen is held: an
// iPhone the stage holds sideways shows no status bar, whatever the size
// (`layoutDevice`).

extension CanvasSpec {
  /// The device this canvas shows the screen of, and how it is held.
  public var heldDevice: (preset: DevicePreset, orientation: DeviceOrientation)? {
    if let device { return DevicePreset.named(device).map { ($0, orientation) } }
    return DevicePreset.matching(size: size)
  }

  /// The device whose system bars this canvas is laid out for: its own
  /// (`heldDevice`), else the one a stage draws it in, held as the stage
  /// holds it (`stage: { device: iphone-15 }` beside `size: 800x550` is an
  /// iPhone held sideways); nil for a canvas of no device on its own.
  public var layoutDevice: (preset: DevicePreset, orientation: DeviceOrientation)? {
    heldDevice ?? stageDevice.flatMap(DevicePreset.named).map { ($0, stageOrientation) }
  }

  /// Whether this canvas is laid out as an iPhone held in landscape
  /// (`layoutDevice`; compact height: iOS shows no status bar and the
  /// safe-area top is 0).
  public var isPhoneInLandscape: Bool {
    guard let (preset, orientation) = layoutDevice else { return false }
    return preset.idiom == .phone && orientation == .landscape
  }
}
