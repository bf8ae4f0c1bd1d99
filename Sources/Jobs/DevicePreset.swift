// DevicePreset: `canvas.device` names, each a screen size in points and a scale.
//
// Sizes are the portrait window sizes UIKit reports (UIScreen.main.bounds)
// and the native scales, so a demo renders at the device's pixel size.

import Geometry

/// A device whose screen a canvas can copy.
struct DevicePreset: Sendable {
  var name: String
  var size: Size
  var scale: Int

  init(_ name: String, _ width: Double, _ height: Double, scale: Int) {
    self.name = name
    self.size = Size(width: width, height: height)
    self.scale = scale
  }

  /// Every preset, in the order messages list them.
  static let all: [DevicePreset] = [
    DevicePreset("iphone-se", 375, 667, scale: 2),
    DevicePreset("iphone-13-mini", 375, 812, scale: 3),
    DevicePreset("iphone-14", 390, 844, scale: 3),
    DevicePreset("iphone-14-plus", 428, 926, scale: 3),
    DevicePreset("iphone-15", 393, 852, scale: 3),
    DevicePreset("iphone-15-plus", 430, 932, scale: 3),
    DevicePreset("iphone-15-pro", 393, 852, scale: 3),
    DevicePreset("iphone-15-pro-max", 430, 932, scale: 3),
    DevicePreset("iphone-16-pro", 402, 874, scale: 3),
    DevicePreset("iphone-16-pro-max", 440, 956, scale: 3),
    DevicePreset("ipad-mini", 744, 1133, scale: 2),
    DevicePreset("ipad-11", 834, 1194, scale: 2),
    DevicePreset("ipad-13", 1024, 1366, scale: 2),
  ]

  /// The preset named `name`.
  static func named(_ name: String) -> DevicePreset? { all.first { $0.name == name } }

  /// The canvas when a job names no device and no size.
  static let standard = named("iphone-15")!
}
