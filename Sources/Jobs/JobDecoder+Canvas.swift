// `canvas:` — the device's screen: size in points, scale, frame rate, background.
//
//   canvas: { device: iphone-15, fps: 60, background: "#000000" }
//   canvas: { fps: 59.94 }                        # 60000/1001 (FrameRate.swift)
//   canvas: { size: 390x844, scale: 3 }          # or size: [390, 844]
//   canvas: { device: ipad-11, orientation: landscape, statusBar: 24 }
//   canvas: { statusBar: { time: "9:41" }, homeIndicator: true }
//
// A `device` sets size and scale; `size` and `scale` given beside it
// override the preset's, and the device is held as that size is (wider
// than tall: landscape), as a size alone is held: an `orientation` that
// says the other way is an error, since a portrait canvas laid out as a
// phone held sideways (no status bar, a 32 pt nav bar) matches neither.
// With neither device nor size the canvas is an
// iphone-15 (393×852 pt @3x), recorded as its device, so it is held, drawn
// on a stage and given a status bar as `device: iphone-15` would be.
// Without a device the scale defaults to 2. A size that is a device's
// screen is held as that device by what follows the device
// (`CanvasSpec.heldDevice`), without being recorded as `device`.
// `orientation` turns the device (the stage's too): beside a `size` with no
// device, the canvas's or the stage's, it would turn nothing, and is an
// error (a stage device found by the size is held as the size is).
// fps defaults to 60, the background to black. Each side must come to at
// most `limits.maxSide` pixels (points × scale; 8192 unless raised).

import Geometry
import Raster

extension JobDecoder {
  static let canvasKeys = ["device", "size", "scale", "fps", "background", "orientation", "statusBar", "homeIndicator"]
  /// Largest frame side in pixels by default (`JobLimits.maxSide`).
  static let maximumPixels = JobLimits().maxSide

  func canvas(_ node: YAMLNode?) throws(Diagnostic) -> CanvasSpec {
    let standard = DevicePreset.standard
    guard let node else {
      var canvas = CanvasSpec(size: standard.size, scale: standard.scale, fps: 60, background: .black)
      canvas.device = standard.name
      return canvas
    }
    let path = KeyPath.root.appending("canvas")
    let fields = try fields(node, path, keys: JobDecoder.canvasKeys, allowsNull: true)

    var device: DevicePreset?
    if let value = fields["device"] {
      device = try named(
        value, fields.path("device"), what: "device", among: DevicePreset.all.map(\.name), lookup: DevicePreset.named)
    } else if fields["size"] == nil {
      device = standard
    }
    var orientation = try orientation(fields["orientation"], fields.path("orientation"))
    var size = orientation.turn(device?.size ?? standard.size, from: .portrait)
    if let value = fields["size"] {
      size = try canvasSize(value, fields.path("size"))
      if let device, size.width != size.height {
        orientation = try self.orientation(of: device, heldAs: size, written: node.pairs?.first { $0.key == "orientation" })
      }
    }
    var scale = device?.scale ?? 2
    if let value = fields["scale"] { scale = try integer(value, fields.path("scale"), in: 1...3) }
    var fps = 60
    var isFractional = false
    if let value = fields["fps"] {
      // One message for every rate refused, a fraction or a whole number out of range (`fps: 0`, `fps: 240`).
      if let number = value.number, let whole = FrameRate.fractional[number] {
        (fps, isFractional) = (whole, true)
      } else if let number = value.number, number.isFinite, number.rounded() == number, (1...120).contains(number) {
        fps = Int(number)
      } else {
        let accepted = { (n: Double) in FrameRate.fractional[n] != nil || (n.rounded() == n && (1...120).contains(n)) }
        throw mismatch(
          value, fields.path("fps"), expected: "an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88",
          hint: value.quotedNumberHint(accepted: accepted) + JobDecoder.rateHint(value))
      }
    }
    var background = Color.black
    if let value = fields["background"] { background = try color(value, fields.path("background")) }

    let width = size.width * Double(scale), height = size.height * Double(scale)
    if max(width, height) > Double(limits.maxSide) {
      // Blame the size when given, else the device (presets fit at their own scale).
      let key = fields["size"] != nil ? "size" : "device"
      throw Diagnostic(
        fields[key]?.location ?? node.location,
        "\(fields.path(key)): \(JobDecoder.format(size.width))x\(JobDecoder.format(size.height)) points at scale "
          + "\(scale) is \(JobDecoder.format(width))x\(JobDecoder.format(height)) pixels; "
          + "at most \(limits.maxSide) per side (\(limits.maxSideAdvice))")
    }
    var canvas = CanvasSpec(size: size, scale: scale, fps: fps, background: background)
    canvas.device = device?.name
    canvas.orientation = orientation
    if let value = fields["statusBar"] {
      canvas.statusBar = try statusBar(value, fields.path("statusBar"), canvas: canvas)
    }
    if let value = fields["homeIndicator"] {
      canvas.homeIndicator = try homeIndicator(value, fields.path("homeIndicator"))
    }
    canvas.isFractional = isFractional
    return canvas
  }

  /// How a named `device` is held when `canvas.size` replaces its screen's
  /// size: as that size is (wider than tall: landscape). Throws at an
  /// `orientation` written that says the other way.
  private func orientation(
    of device: DevicePreset, heldAs size: Size, written: YAMLNode.Pair?
  ) throws(Diagnostic) -> DeviceOrientation {
    let held: DeviceOrientation = size.width > size.height ? .landscape : .portrait
    guard let written, let text = written.value.text, text != held.rawValue else { return held }
    let long = max(size.width, size.height), short = min(size.width, size.height)
    let turned = held == .landscape ? (short, long) : (long, short)
    throw Diagnostic(
      written.keyLocation,
      "canvas.orientation: the \(device.name) is held as canvas.size is written (\(held.rawValue)); "
        + "write \(JobDecoder.format(turned.0))x\(JobDecoder.format(turned.1)) for \(text), or leave orientation out")
  }

  /// Throws at `canvas.orientation` when it turns nothing: the canvas has a
  /// `size` and no device, and `stage` (written at `stageNode`) names none
  /// to turn. A stage device found by the canvas's size is held as the
  /// size is, so an orientation that says the other way is an error too.
  func checkOrientation(_ node: YAMLNode?, canvas: CanvasSpec, stage: StageSpec?, stageNode: YAMLNode?) throws(Diagnostic) {
    guard let pairs = node?.pairs, let pair = pairs.first(where: { $0.key == "orientation" }),
      pairs.contains(where: { $0.key == "size" }), canvas.device == nil
    else { return }
    let namesDevice = stageNode?.pairs?.contains { $0.key == "device" } == true
    if namesDevice, stage?.device != nil { return }
    let size = canvas.size
    let long = max(size.width, size.height), short = min(size.width, size.height)
    let turned = canvas.orientation == .landscape ? (long, short) : (short, long)
    let written = "\(JobDecoder.format(turned.0))x\(JobDecoder.format(turned.1))"
    if let stage, let device = stage.device {
      guard stage.orientation != canvas.orientation else { return }
      throw Diagnostic(
        pair.keyLocation,
        "canvas.orientation: the stage holds its \(device) as canvas.size is written (\(stage.orientation.rawValue)); "
          + "write \(written) for \(canvas.orientation.rawValue), or leave orientation out")
    }
    let advice =
      turned == (size.width, size.height)
      ? "already \(canvas.orientation.rawValue): leave orientation out" : "write \(written) for \(canvas.orientation.rawValue)"
    throw Diagnostic(
      pair.keyLocation,
      "canvas.orientation: there is no 'device' to turn (canvas.size is used as written; \(advice))")
  }

  /// `; did you mean 23.976 (24000/1001)?` for a rate written as the
  /// quotient it is (`24000/1001`, or `30/1` for 30) or rounded otherwise
  /// (`23.98`, `59.9`: within 0.05 of the rate README names), else nothing.
  static func rateHint(_ node: YAMLNode) -> String {
    if let number = node.number, number.isFinite, number.rounded() != number,
      let near = FrameRate.fractional.first(where: { abs($0.key - number) < 0.05 })
    {
      return "; did you mean \(JobDecoder.format(near.key)) (\(near.value * 1000)/1001)?"
    }
    guard let rate = node.quotient ?? node.quotedQuotient, rate.isFinite else { return "" }
    if let match = FrameRate.fractional.first(where: { abs(Double($0.value) * 1000 / 1001 - rate) < 1e-9 }) {
      return "; did you mean \(JobDecoder.format(match.key)) (\(match.value * 1000)/1001)?"
    }
    guard rate.rounded() == rate, (1...120).contains(rate) else { return "" }
    return "; did you mean \(JobDecoder.format(rate))?"
  }

  /// `WIDTHxHEIGHT` (text) or `[WIDTH, HEIGHT]`, each from 1 to 8192 points
  /// (or a raised `limits.maxSide`; a lowered one is checked in pixels, naming the cap).
  private func canvasSize(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Size {
    let largest = max(limits.maxSide, JobDecoder.maximumPixels)
    let expected = "a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT], each from 1 to \(largest)"
    let limit = Double(largest)
    var sides: [Double?] = []
    if let items = node.items {
      sides = items.map { $0.number }
      // A side in quotes is text: said at it, as a number in quotes is anywhere.
      if items.count == 2, let (i, item) = items.enumerated().first(where: { $0.element.number == nil }) {
        let hint = item.quotedNumberHint { (1...limit).contains($0) }
        if !hint.isEmpty {
          throw mismatch(item, path.appending(index: i), expected: "a number of points from 1 to \(largest)", hint: hint)
        }
      }
    } else if let text = node.text {
      sides = JobDecoder.sides(ofSize: text)
    }
    guard sides.count == 2, let width = sides[0], let height = sides[1],
      (1...limit).contains(width), (1...limit).contains(height)
    else { throw mismatch(node, path, expected: expected, hint: JobDecoder.sizeHint(node)) }
    return Size(width: width, height: height)
  }

  /// `; did you mean '390x844'?` for a size written with a capital `X`, a
  /// multiplication sign or a comma (`390X844`, `390×844`, `390, 844`, as
  /// a list without its brackets), or with its unit, points (`390x844pt`),
  /// that reads as a size with `x`; else nothing. Pixels (`px`) are no
  /// points, and get nothing.
  static func sizeHint(_ node: YAMLNode) -> String {
    guard let text = node.text else { return "" }
    var separated = text.replacingAll("X", with: "x").replacingAll("×", with: "x")
    if !separated.contains("x") { separated = separated.replacingAll(",", with: "x") }
    let sides = separated.split(separator: "x", omittingEmptySubsequences: false).map { side in
      let trimmed = String(side).trimmingSpaces
      return trimmed.hasSuffix("pt") ? String(trimmed.dropLast(2)).trimmingSpaces : trimmed
    }
    guard sides.count == 2, sides.allSatisfy({ YAMLNode.number(fromPlain: $0).map { $0.isFinite && $0 > 0 } ?? false }) else {
      return ""
    }
    let written = sides.joined(separator: "x")
    // Spaces around the `x` are a size's own (`390 x 844` is one): no hint for them.
    guard written != text.filter({ $0 != " " }) else { return "" }
    return "; did you mean \(YAMLNode.singleQuoted(written))?"
  }

  /// The two numbers of a size written as text, `390x844` (nil for a side
  /// that is no number; not two when there is no single `x`).
  static func sides(ofSize text: String) -> [Double?] {
    text.split(separator: "x", omittingEmptySubsequences: false)
      .map { YAMLNode.number(fromPlain: String($0).trimmingSpaces) }
  }
}
