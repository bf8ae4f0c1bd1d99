// DevicePreset: `canvas.device` names — each device's screen and its body,
// as transvid draws it on a stage.
//
// What is true, and why:
// - `size` is the portrait window size UIKit reports (UIScreen.main.bounds)
//   and `scale` the native scale (UIScreen.scale), so a demo renders at the
//   device's pixel size. Both are Apple's published resolutions (Human
//   Interface Guidelines, "Layout › Specifications") divided by the scale.
// - `screenCornerRadius` is the value iOS itself reports
//   (`UIScreen._displayCornerRadius`, a private property read on the devices
//   and published by Kyle Bashour's ScreenCorners, kylebashour.com, for X…12
//   and iPads; the 13…16 figures are the same property as app developers
//   list it). iPhone SE has a square display.
// - `statusBarHeight` is the status bar's frame height; `safeArea` the
//   portrait `safeAreaInsets` (top and bottom) UIKit gives a full-screen
//   window. On Dynamic Island phones the status bar (54 pt) is shorter than
//   the top inset (59 / 62 pt).
// - The body: Apple's Technical Specifications give the height and width in
//   millimetres and the display's pixels per inch; one point is
//   `25.4 / (ppi / nativeScale)` mm, so the body in points is
//   `millimetres × ppi / 25.4 / nativeScale` (nativeScale is the scale but on
//   iPhone 13 mini, whose panel has fewer pixels than its rendering). The screen sits centred in it (the
//   front of every preset is symmetric to within a millimetre).
// - The body's corner radius is not published. Apple draws concentric
//   corners: the screen's radius plus the border around it, which is what is
//   used for the all-screen devices. iPhone SE's (square screen) is taken
//   from product photographs: about 9.5 mm.
// - The sensor housing (Dynamic Island or notch) and the side buttons are
//   not published either. The Dynamic Island is 126 × 37.33 pt, 11 pt below
//   the top of the screen on iPhone 14 Pro and 15 (measured on screenshots
//   of the expanded-island API; `SafeArea` 59 pt = 11 + 37.33 + ~10.67);
//   iPhone 16 Pro's top inset is 3 pt taller and its island sits 3 pt lower.
//   The notch is about 26.8 × 5.3 mm on iPhone 13 and 14 (photographs), so
//   its size in points follows the density like the body. Buttons are
//   placed in millimetres from the body's top (or, on the top edge, from
//   its right), estimated from product photographs; they are drawn to read
//   as the device, not for measuring.

import Geometry

/// A device whose screen a canvas can copy and whose body a stage draws.
public struct DevicePreset: Sendable {
  /// A phone or a tablet: decides how a `sheet` presents (`DevicePreset.idiom`).
  public enum Idiom: String, Sendable { case phone, pad }

  /// What cuts into the top of the screen, in portrait screen points.
  public enum SensorHousing: Sendable, Equatable {
    /// A front camera in the bezel above the screen (iPhone SE, iPads).
    case none
    /// A notch hanging from the top edge, `width × height` points.
    case notch(width: Double, height: Double)
    /// A pill `width × height` points, `top` points below the screen's top edge.
    case dynamicIsland(width: Double, height: Double, top: Double)
  }

  /// A button on the side of the body, in portrait body points.
  public struct Button: Sendable, Equatable {
    public enum Edge: String, Sendable { case left, right, top }
    public var edge: Edge
    /// From the body's top (left and right edges) or left (top edge), in points.
    public var offset: Double
    public var length: Double
  }

  public var name: String
  /// The product the figures are for.
  public var product: String
  public var idiom: Idiom
  /// The screen in points (portrait).
  public var size: Size
  public var scale: Int
  public var screenCornerRadius: Double
  public var statusBarHeight: Double
  /// Portrait safe-area insets, top and bottom (points).
  public var safeAreaTop: Double
  public var safeAreaBottom: Double
  public var sensorHousing: SensorHousing
  /// Whether the front has a Home button (below the screen).
  public var hasHomeButton: Bool
  /// Published body size in millimetres (width, height) and display density.
  public var bodyMillimetres: Size
  public var pixelsPerInch: Double
  /// The body's corner radius in points.
  public var bodyCornerRadius: Double
  public var buttons: [Button]

  /// Physical pixels per point (`UIScreen.nativeScale`): the scale, except
  /// on iPhone 13 mini, whose 1080 × 2340 panel shows the 1125 × 2436 @3x
  /// rendering downsampled (2.88).
  public var nativeScale: Double

  /// Points per millimetre on this device's display.
  public var pointsPerMillimetre: Double { pixelsPerInch / 25.4 / nativeScale }

  /// The body's outer size in points (portrait).
  public var bodySize: Size {
    Size(width: bodyMillimetres.width * pointsPerMillimetre, height: bodyMillimetres.height * pointsPerMillimetre)
  }

  /// The border around the screen, in points (sides, top and bottom).
  public var bezel: Size {
    Size(width: (bodySize.width - size.width) / 2, height: (bodySize.height - size.height) / 2)
  }

  init(
    _ name: String, _ product: String, _ idiom: Idiom, points width: Double, _ height: Double, scale: Int,
    ppi: Double, millimetres mmWidth: Double, _ mmHeight: Double, corner: Double, statusBar: Double,
    safeArea: (top: Double, bottom: Double), housing: SensorHousing, homeButton: Bool = false,
    bodyCorner: Double? = nil, nativeScale: Double? = nil, buttons: [(Button.Edge, Double, Double)]
  ) {
    self.name = name
    self.product = product
    self.idiom = idiom
    self.size = Size(width: width, height: height)
    self.scale = scale
    self.screenCornerRadius = corner
    self.statusBarHeight = statusBar
    self.safeAreaTop = safeArea.top
    self.safeAreaBottom = safeArea.bottom
    self.sensorHousing = housing
    self.hasHomeButton = homeButton
    self.bodyMillimetres = Size(width: mmWidth, height: mmHeight)
    self.pixelsPerInch = ppi
    self.nativeScale = nativeScale ?? Double(scale)
    // A notch is 26.8 × 5.3 mm on every notched preset; its points follow the density.
    let k = ppi / 25.4 / self.nativeScale
    if case .notch = housing { self.sensorHousing = .notch(width: 26.8 * k, height: 5.3 * k) }
    self.bodyCornerRadius = 0
    self.buttons = []
    let perMillimetre = pointsPerMillimetre
    // Concentric with the screen unless given (in millimetres).
    bodyCornerRadius = bodyCorner.map { $0 * perMillimetre } ?? corner + bezel.width
    let bodyWidth = bodySize.width
    self.buttons = buttons.map { edge, from, length in
      // Top-edge buttons are measured from the right corner.
      let offset = edge == .top ? bodyWidth - (from + length) * perMillimetre : from * perMillimetre
      return Button(edge: edge, offset: offset, length: length * perMillimetre)
    }
  }

  /// An iPhone's buttons: the ring/silent switch or Action button and the
  /// volume buttons on the left, the side button on the right (mm from the top).
  static let phoneButtons: [(Button.Edge, Double, Double)] = [
    (.left, 23, 7), (.left, 35, 10), (.left, 48, 10), (.right, 36, 16),
  ]
  /// iPhone 16 Pro adds the Camera Control low on the right side.
  static let cameraControlButtons = phoneButtons + [(.right, 96, 19)]
  /// iPads: the top button near the top-right corner, volume on the right edge.
  static let padButtons: [(Button.Edge, Double, Double)] = [(.top, 14, 20), (.right, 18, 11), (.right, 32, 11)]
  /// iPad mini (6th generation) has its volume buttons on the top edge, beside the top button.
  static let miniPadButtons: [(Button.Edge, Double, Double)] = [(.top, 14, 18), (.top, 38, 10), (.top, 51, 10)]

  /// A notched preset's housing; its size comes from the density (`init`).
  static let notched = SensorHousing.notch(width: 0, height: 0)
  static let island = SensorHousing.dynamicIsland(width: 126, height: 37.33, top: 11)

  /// Every preset, in the order messages list them. Millimetres and ppi:
  /// Apple's Technical Specifications page of each product (support.apple.com/specs).
  public static let all: [DevicePreset] = [
    DevicePreset(
      "iphone-se", "iPhone SE (3rd generation)", .phone, points: 375, 667, scale: 2, ppi: 326,
      millimetres: 67.3, 138.4, corner: 0, statusBar: 20, safeArea: (20, 0), housing: .none, homeButton: true,
      bodyCorner: 9.5, buttons: [(.left, 17, 6), (.left, 29, 9), (.left, 41, 9), (.right, 29, 12)]),
    DevicePreset(
      "iphone-13-mini", "iPhone 13 mini", .phone, points: 375, 812, scale: 3, ppi: 476, millimetres: 64.2, 131.5,
      corner: 44, statusBar: 50, safeArea: (50, 34), housing: notched, nativeScale: 2.88,
      buttons: phoneButtons),
    DevicePreset(
      "iphone-14", "iPhone 14", .phone, points: 390, 844, scale: 3, ppi: 460, millimetres: 71.5, 146.7,
      corner: 47.33, statusBar: 47, safeArea: (47, 34), housing: notched,
      buttons: phoneButtons),
    DevicePreset(
      "iphone-14-plus", "iPhone 14 Plus", .phone, points: 428, 926, scale: 3, ppi: 458, millimetres: 78.1, 160.8,
      corner: 53.33, statusBar: 47, safeArea: (47, 34), housing: notched,
      buttons: phoneButtons),
    DevicePreset(
      "iphone-15", "iPhone 15", .phone, points: 393, 852, scale: 3, ppi: 460, millimetres: 71.6, 147.6,
      corner: 55, statusBar: 54, safeArea: (59, 34), housing: island, buttons: phoneButtons),
    DevicePreset(
      "iphone-15-plus", "iPhone 15 Plus", .phone, points: 430, 932, scale: 3, ppi: 460, millimetres: 77.8, 160.9,
      corner: 55, statusBar: 54, safeArea: (59, 34), housing: island, buttons: phoneButtons),
    DevicePreset(
      "iphone-15-pro", "iPhone 15 Pro", .phone, points: 393, 852, scale: 3, ppi: 460, millimetres: 70.6, 146.6,
      corner: 55, statusBar: 54, safeArea: (59, 34), housing: island, buttons: phoneButtons),
    DevicePreset(
      "iphone-15-pro-max", "iPhone 15 Pro Max", .phone, points: 430, 932, scale: 3, ppi: 460,
      millimetres: 76.7, 159.9, corner: 55, statusBar: 54, safeArea: (59, 34), housing: island,
      buttons: phoneButtons),
    DevicePreset(
      "iphone-16-pro", "iPhone 16 Pro", .phone, points: 402, 874, scale: 3, ppi: 460, millimetres: 71.5, 149.6,
      corner: 62, statusBar: 54, safeArea: (62, 34), housing: .dynamicIsland(width: 126, height: 37.33, top: 14),
      buttons: cameraControlButtons),
    DevicePreset(
      "iphone-16-pro-max", "iPhone 16 Pro Max", .phone, points: 440, 956, scale: 3, ppi: 460,
      millimetres: 77.6, 163.0, corner: 62, statusBar: 54, safeArea: (62, 34),
      housing: .dynamicIsland(width: 126, height: 37.33, top: 14), buttons: cameraControlButtons),
    DevicePreset(
      "ipad-mini", "iPad mini (6th generation)", .pad, points: 744, 1133, scale: 2, ppi: 326,
      millimetres: 134.8, 195.4, corner: 21.5, statusBar: 24, safeArea: (24, 20), housing: .none,
      buttons: miniPadButtons),
    DevicePreset(
      "ipad-11", "iPad Pro 11-inch (4th generation)", .pad, points: 834, 1194, scale: 2, ppi: 264,
      millimetres: 178.5, 247.6, corner: 18, statusBar: 24, safeArea: (24, 20), housing: .none,
      buttons: padButtons),
    DevicePreset(
      "ipad-13", "iPad Pro 12.9-inch (6th generation)", .pad, points: 1024, 1366, scale: 2, ppi: 264,
      millimetres: 214.9, 280.6, corner: 18, statusBar: 24, safeArea: (24, 20), housing: .none,
      buttons: padButtons),
  ]

  /// The preset named `name`.
  public static func named(_ name: String) -> DevicePreset? { all.first { $0.name == name } }

  /// The canvas when a job names no device and no size.
  public static let standard = named("iphone-15")!

  /// The preset whose screen is `size` points, upright or turned, the
  /// first in `all` order, and how it is held to show that size (landscape
  /// when `size` is the wider way): a canvas without a device still gets a
  /// body on a stage when its size is a device's. The scale is the
  /// canvas's own and decides nothing: `size: 393x852, scale: 2` is an
  /// iPhone 15's screen drawn at fewer pixels.
  public static func matching(size: Size) -> (preset: DevicePreset, orientation: DeviceOrientation)? {
    for preset in all {
      if preset.size == size { return (preset, .portrait) }
      if preset.size == DeviceOrientation.landscape.turn(size, from: .portrait) { return (preset, .landscape) }
    }
    return nil
  }
}
