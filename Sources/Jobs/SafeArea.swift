import Geometry

/// Where UIKit's bars sit on the devices of `DevicePreset`, for views laid
/// out under them (`kind: navbar`).
enum SafeArea {
  /// The status bar's height on a canvas of `size` that is no device's
  /// screen and in no device: an iPad's bar (`isPad`), else a plain one,
  /// taller on tall phones.
  static func top(for size: Size, isPad: Bool) -> Double {
    if !isPad, size.height / size.width > 2 { return 59 }
    return isPad ? 24 : 20
  }

  /// The safe-area top on `canvas` held upright: its device's (UIKit's
  /// portrait `safeAreaInsets.top`: 20 pt on an iPhone SE, 47 on an iPhone
  /// 14, 59 on an iPhone 15, 24 on an iPad), the device it names, the one
  /// whose screen its size is, or the one a stage shows a canvas of no
  /// device's size in (`CanvasSpec.layoutDevice`), whatever the canvas's
  /// shape, as a sheet there rests below it; else by its size (`top(for:isPad:)`).
  static func top(of canvas: CanvasSpec) -> Double {
    if let (preset, _) = canvas.layoutDevice { return preset.safeAreaTop }
    return top(for: canvas.size, isPad: isPad(canvas))
  }

  /// Whether `canvas` is an iPhone held sideways (compact height): a phone
  /// in landscape (`CanvasSpec.layoutDevice`: its own, or the one a stage
  /// shows it in), or a canvas of no device wider than tall and under 500
  /// pt high (every iPhone's short side is, no iPad's is).
  static func isCompactHeight(_ canvas: CanvasSpec) -> Bool {
    if canvas.layoutDevice != nil { return canvas.isPhoneInLandscape }
    return canvas.size.width > canvas.size.height && canvas.size.height < 500
  }

  /// Whether `canvas` is an iPad's: a pad (`CanvasSpec.layoutDevice`), or a
  /// canvas of no device whose short side is 600 pt or more.
  static func isPad(_ canvas: CanvasSpec) -> Bool {
    if let (preset, _) = canvas.layoutDevice { return preset.idiom == .pad }
    return Swift.min(canvas.size.width, canvas.size.height) >= 600
  }

  /// Whether a nav bar on `canvas` held sideways is a Plus or Max phone's,
  /// 414 pt or wider upright: the canvas's height, or where a stage shows a
  /// canvas of no device's size in a phone, that phone's width.
  static func isWidePhone(_ canvas: CanvasSpec) -> Bool {
    let upright = canvas.heldDevice == nil ? canvas.layoutDevice?.preset.size.width : nil
    return (upright ?? canvas.size.height) >= 414
  }

  /// The width of the centred card a sheet presents on an iPad (UIKit's
  /// form-sheet widths by the screen's longest side: 540 up to 1024 pt, 580
  /// up to 1590, 620 above); nil where a sheet spans the screen. The iPad
  /// is the canvas's device, or the one a stage shows a canvas of no
  /// device's size in (`CanvasSpec.layoutDevice`), whose regular width
  /// presents a form sheet as it lays out the bars.
  static func formSheetWidth(_ canvas: CanvasSpec) -> Double? {
    guard canvas.layoutDevice?.preset.idiom == .pad else { return nil }
    let longest = Swift.max(canvas.size.width, canvas.size.height)
    return longest <= 1024 ? 540 : longest <= 1590 ? 580 : 620
  }

  /// A navigation bar's default frame on a screen of `canvas`, as
  /// UINavigationController lays it out: under the status bar, across the
  /// screen, 44 pt tall; 50 pt on an iPad (iPadOS 12 on); on an iPhone held
  /// sideways, which shows no status bar, at the top and 32 pt tall (44 on
  /// the Plus and Max phones, 414 pt or wider upright); and on a screen a
  /// sheet presents, at the card's top with no status bar above it, 56 pt
  /// tall (iOS 13's page and form sheets) and as wide as the card (the
  /// screen's width here, a page sheet's or a sheet's as wide as the
  /// screen, `cardWidth: 0` on an iPad too; `JobDecoder.job` narrows it to
  /// a card narrower than the screen, an iPad's form sheet or a sheet's
  /// `cardWidth:`). With the bar's own height, below the status bar.
  static func navigationBar(on canvas: CanvasSpec, inSheet: Bool) -> (frame: Rect, barHeight: Double) {
    let width = canvas.size.width
    let (top, bar): (Double, Double) =
      inSheet
      ? (0, 56) : isCompactHeight(canvas) ? (0, isWidePhone(canvas) ? 44 : 32) : (top(of: canvas), isPad(canvas) ? 50 : 44)
    return (Rect(x: 0, y: 0, width: width, height: top + bar), bar)
  }
}
