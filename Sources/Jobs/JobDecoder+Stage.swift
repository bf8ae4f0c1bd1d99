// `stage:` — a device, a background and a caption around the canvas — and
// `canvas.statusBar`, `caption:` on timeline steps.
//
//   stage:
//     size: [600, 1000]             # points; default: fits the device, padding and caption (even in pixels)
//     device: iphone-15-pro         # default: the canvas's device; none for the canvas alone
//     color: natural-titanium       # the finish (DeviceFinish.all)
//     background: "#F2F2F7"         # a colour, { colors: [...], start: [x, y], end: [x, y] } or { image: PATH }
//     padding: 40
//     caption: { text: "Open any photo", position: top, font: { size: 36, weight: bold }, textColor: "#000000", lines: 2 }
//   timeline:
//     - hold: 1
//       caption: "Swipe back"      # from this step on, cross-fading in
//
//   canvas: { statusBar: 54 }                           # the screenshots' own top 54 pt stay put
//   canvas: { statusBar: { time: "9:41", style: dark } } # transvid draws one
//
// A stage without a device given takes the canvas's (`canvas.device`, or
// the preset whose screen is the canvas's size in points, upright or
// turned, at any scale, held as that size is); a canvas with neither device
// nor size takes the stage's device, and with it its status bar's height.
// The device is held as `canvas.orientation` says where it is written, else
// as the canvas is: a size that is a device's screen turned (`852x393`) is
// held in landscape, whether the stage names a device or not, and a device
// the stage names is held in landscape beside any canvas wider than tall.
// A canvas of no device's size is laid out as the screen of the device the
// stage names, held so (`CanvasSpec.layoutDevice`): in an iPhone held
// sideways it shows no status bar, as on `852x393`.

import Geometry
import Raster
import Transitions

extension JobDecoder {
  static let stageKeys = ["size", "device", "color", "background", "padding", "cornerRadius", "caption"]
  static let captionKeys = ["text", "position", "font", "textColor", "lines"]
  static let statusBarKeys = ["height", "time", "style"]
  static let backgroundImageKeys = ["image"]

  /// `stage:`; `canvas` takes the stage's device when `canvasNode` names neither device nor size.
  func stage(_ node: YAMLNode, canvasNode: YAMLNode?, canvas: inout CanvasSpec) throws(Diagnostic) -> StageSpec {
    let path = KeyPath.root.appending("stage")
    let fields = try fields(node, path, keys: JobDecoder.stageKeys, allowsNull: true)
    // The canvas's device, else the preset whose screen the canvas's size
    // is, held the way that size is.
    let held = canvas.heldDevice
    var device = held?.preset.name
    var orientation = held?.orientation ?? canvas.orientation
    // Without a drawn device the screen keeps the device's corners (frameit's frameless look).
    var cornerRadius = device.flatMap(DevicePreset.named)?.screenCornerRadius ?? 0
    if let value = fields["device"] {
      // A written orientation turns the stage's device; else it is held as
      // the canvas is laid out: wider than tall, in landscape (`852x393`,
      // `800x400`, which has no status bar and a 32 pt nav bar, as a phone
      // held sideways), else upright.
      if canvasNode?.pairs?.contains(where: { $0.key == "orientation" }) == true {
        orientation = canvas.orientation
      } else {
        orientation = canvas.size.width > canvas.size.height ? .landscape : .portrait
      }
      if value.text == "none" {
        device = nil
      } else {
        let preset = try named(
          value, fields.path("device"), what: "device", among: DevicePreset.all.map(\.name) + ["none"],
          lookup: DevicePreset.named)
        device = preset.name
        let canvasFields = canvasNode?.pairs ?? []
        if !canvasFields.contains(where: { $0.key == "device" || $0.key == "size" }) {
          canvas.size = canvas.orientation.turn(preset.size, from: .portrait)
          canvas.device = preset.name
          if !canvasFields.contains(where: { $0.key == "scale" }) { canvas.scale = preset.scale }
          // The status bar was read for the iPhone 15 the canvas was until
          // now: a drawn one takes this device's height, and a written one
          // is checked against this screen.
          if let bar = canvasFields.first(where: { $0.key == "statusBar" }) {
            canvas.statusBar = try statusBar(
              bar.value, KeyPath.root.appending("canvas").appending("statusBar"), canvas: canvas)
          }
        } else if canvas.heldDevice == nil {
          // A canvas of no device's size is laid out as the screen of the
          // device it is shown in, held as the stage holds it: an iPhone
          // held sideways shows no status bar, an iPad its own 24 pt one.
          canvas.stageDevice = preset.name
          canvas.stageOrientation = orientation
          if let bar = canvasFields.first(where: { $0.key == "statusBar" }) {
            canvas.statusBar = try statusBar(
              bar.value, KeyPath.root.appending("canvas").appending("statusBar"), canvas: canvas)
          }
        }
      }
    }
    var finish = DeviceFinish.all[0]
    if let value = fields["color"] {
      finish = try named(
        value, fields.path("color"), what: "finish", among: DeviceFinish.all.map(\.name), lookup: DeviceFinish.named)
      // A finish colours a drawn device's band; without one it would be
      // ignored unseen, as a corner radius beside a device is refused.
      guard device != nil else {
        throw Diagnostic(
          value.location,
          "\(fields.path("color")): only with a drawn device (the stage draws none: name one with stage.device)")
      }
    }
    // systemGroupedBackground: #F2F2F7, black in a dark appearance.
    var background = StageBackground.color(isDark ? .black : Color(red8: 242, green8: 242, blue8: 247))
    if let value = fields["background"] { background = try stageBackground(value, fields.path("background")) }
    if let value = fields["cornerRadius"] {
      guard device == nil else {
        throw Diagnostic(
          value.location,
          "\(fields.path("cornerRadius")): only with device: none (a drawn device has its own screen corners)")
      }
      let limit = (min(canvas.size.width, canvas.size.height) / 2).rounded(.down)
      cornerRadius = try number(
        value, fields.path("cornerRadius"), in: 0...limit,
        expected: "a radius in points from 0 to \(JobDecoder.format(limit))")
    }
    var padding = 40.0
    if let value = fields["padding"] {
      padding = try number(value, fields.path("padding"), in: 0...1000, expected: "a number of points from 0 to 1000")
    }
    var caption: CaptionSpec?
    if let pair = fields.pairs.first(where: { $0.key == "caption" }) {
      caption = try self.caption(pair, fields.path("caption"))
    }
    var stage = StageSpec(
      size: .zero, device: device, orientation: orientation, finish: finish, background: background,
      padding: padding, caption: caption, location: node.location)
    if device == nil { stage.cornerRadius = cornerRadius }
    let fitting = StageLayout.evenInPixels(StageLayout.fittingSize(stage, canvas: canvas), scale: canvas.scale)
    stage.size = fitting
    if let value = fields["size"] {
      let size = try stageSize(value, fields.path("size"))
      // The device and caption must fit; the padding may shrink.
      let least = StageLayout.fittingSize(
        { var s = stage; s.padding = 0; return s }(), canvas: canvas)
      if size.width < least.width || size.height < least.height {
        let what = device.map { "the \($0) (\(stage.orientation.rawValue))" } ?? "the canvas"
        throw Diagnostic(
          value.location,
          "\(fields.path("size")): a \(JobDecoder.format(size.width))x\(JobDecoder.format(size.height))-point stage "
            + "is smaller than \(what)\(caption == nil ? "" : " with its caption"), "
            + "\(JobDecoder.format(least.width))x\(JobDecoder.format(least.height)) points; "
            + "make it at least that, or leave size out (\(JobDecoder.format(fitting.width))x"
            + "\(JobDecoder.format(fitting.height))\(stage.padding > 0 ? " with the padding" : ""))")
      }
      stage.size = size
    }
    let scale = Double(canvas.scale)
    let width = stage.size.width * scale, height = stage.size.height * scale
    if max(width, height) > Double(limits.maxSide) {
      throw Diagnostic(
        fields["size"]?.location ?? node.location,
        "\(fields["size"] == nil ? path : fields.path("size")): the stage is "
          + "\(JobDecoder.format(width.rounded()))x\(JobDecoder.format(height.rounded())) pixels at scale "
          + "\(canvas.scale); at most \(limits.maxSide) per side (\(limits.maxSideAdvice))")
    }
    return stage
  }

  /// The value `lookup` finds for the name at `node`, or `PATH: unknown WHAT "x"; did you mean 'y'?`
  /// (or the list of `names`).
  func named<T>(
    _ node: YAMLNode, _ path: KeyPath, what: String, among names: [String], lookup: (String) -> T?
  ) throws(Diagnostic) -> T {
    let name = try string(node, path, expected: "a \(what) name")
    guard let found = lookup(name) else {
      throw Diagnostic(node.location, "\(path): unknown \(what) \(YAMLNode.quoted(name))\(Suggestion.hint(for: name, in: names))")
    }
    return found
  }

  /// `WIDTHxHEIGHT` (text) or `[WIDTH, HEIGHT]` in points, as a canvas's
  /// size is written; whether the device fits is checked by the caller.
  private func stageSize(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Size {
    let expected = "a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT]"
    if let text = node.text {
      let sides = JobDecoder.sides(ofSize: text)
      guard sides.count == 2, let width = sides[0], let height = sides[1],
        [width, height].allSatisfy({ $0.isFinite && abs($0) <= JobDecoder.maximumCoordinate })
      else { throw mismatch(node, path, expected: expected, hint: JobDecoder.sizeHint(node)) }
      return Size(width: width, height: height)
    }
    let v = try numbers(node, path, count: 2, expected: expected)
    return Size(width: v[0], height: v[1])
  }

  /// A colour, a gradient mapping, or `{ image: PATH }`.
  private func stageBackground(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> StageBackground {
    guard let pairs = node.pairs else { return .color(try color(node, path)) }
    if pairs.contains(where: { $0.key == "image" }) {
      let fields = try fields(node, path, keys: JobDecoder.backgroundImageKeys)
      guard let image = try image(in: fields, modes: [.fill]) else { throw mismatch(node, path, expected: "{ image: PATH }") }
      return .image(image.asset)
    }
    return .gradient(try gradient(node, path))
  }

  /// `caption: TEXT` or `{ text, position, font, textColor, lines }`.
  private func caption(_ pair: YAMLNode.Pair, _ path: KeyPath) throws(Diagnostic) -> CaptionSpec {
    var caption = CaptionSpec(
      text: "", position: .top, style: TextStyle(size: 28, weight: .bold, color: isDark ? .white : .black, alignment: .center),
      lines: 2, location: pair.keyLocation)
    caption.inkFollowsBackground = true
    guard pair.value.pairs != nil else {
      caption.text = try captionText(pair.value, path)
      return caption
    }
    let fields = try fields(pair.value, path, keys: JobDecoder.captionKeys)
    if let value = fields["text"] {
      if value.pairs != nil {
        caption.textKey = try textKey(value, fields.path("text"))
        caption.text = caption.textKey!.key
      } else {
        caption.text = try captionText(value, fields.path("text"))
      }
    }
    if let value = fields["position"] {
      let name = try choice(
        value, fields.path("position"), among: CaptionSpec.Position.allCases.map(\.rawValue), what: "position",
        expected: "a position")
      caption.position = CaptionSpec.Position(rawValue: name)!
    }
    if let value = fields["font"] {
      try font(value, fields.path("font"), into: &caption.style)
      caption.fontLocation = value.pairs?.first { $0.key == "file" || $0.key == "family" }?.value.location
    }
    if let value = fields["textColor"] {
      caption.style.color = try color(value, fields.path("textColor"))
      caption.inkFollowsBackground = false
    }
    if let value = fields["lines"] {
      caption.lines = try integer(value, fields.path("lines"), in: 1...CaptionSpec.maximumLines)
    }
    return caption
  }

  private func captionText(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> String {
    let expected = "a caption (at most \(JobDecoder.maximumTextLength) characters)"
    guard let text = node.text, node.pairs == nil, text.unicodeScalars.count <= JobDecoder.maximumTextLength else {
      throw mismatch(node, path, expected: expected)
    }
    return text
  }

  /// `{ key: K }` or `{ key: K, args: […] }`: text from the job's strings
  /// (a view's `text:`, a caption's).
  func textKey(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> TextKey {
    let keyFields = try self.fields(
      node, path, expected: "{ key: KEY } or { key: KEY, args: [ARGUMENT, …] }", keys: ["key", "args"])
    let keyNode = try required("key", in: keyFields, "a key of the job's strings")
    let key = try string(keyNode, keyFields.path("key"), expected: "a key of the job's strings")
    var textKey = TextKey(key: key, location: keyNode.location, path: keyFields.path("key").description)
    if let args = keyFields["args"] {
      textKey.args = try formatArguments(args, keyFields.path("args"))
      textKey.argsLocation = args.location
      textKey.argsPath = keyFields.path("args").description
    }
    return textKey
  }

  /// The `caption:` keys beside timeline steps (TEXT or `{ key: K, args }`),
  /// in step order. A step's caption needs a stage caption to replace.
  func stepCaptions(_ timeline: YAMLNode, stage: StageSpec?) throws(Diagnostic) -> [CaptionChange] {
    var changes: [CaptionChange] = []
    for (i, item) in (timeline.items ?? []).enumerated() {
      guard let pair = item.pairs?.first(where: { $0.key == "caption" }) else { continue }
      let path = KeyPath.root.appending("timeline").appending(index: i).appending("caption")
      guard stage?.caption != nil else {
        throw Diagnostic(
          pair.keyLocation, "\(path): there is no stage caption to replace; add stage: { caption: … } first")
      }
      if pair.value.pairs != nil {
        let key = try textKey(pair.value, path)
        var change = CaptionChange(step: i, text: key.key, location: pair.keyLocation)
        change.textKey = key
        changes.append(change)
      } else {
        changes.append(CaptionChange(step: i, text: try captionText(pair.value, path), location: pair.keyLocation))
      }
    }
    return changes
  }

  /// `statusBar: HEIGHT` (the screenshots' own) or `{ height, time, style }` (drawn).
  func statusBar(_ node: YAMLNode, _ path: KeyPath, canvas: CanvasSpec) throws(Diagnostic) -> StatusBarSpec {
    let limit = (canvas.size.height / 2).rounded(.down)
    let expected = "a height in points from 1 to \(JobDecoder.format(limit))"
    if node.pairs == nil {
      // A value that is no number at all (`true`, a list) may mean the drawn bar: both forms are named.
      let forms = node.number == nil ? expected + ", or { time: \"9:41\", style: auto } to draw one" : expected
      return StatusBarSpec(height: try number(node, path, in: 1...limit, expected: forms), location: node.location)
    }
    let fields = try fields(node, path, keys: JobDecoder.statusBarKeys)
    var bar = StatusBarSpec(
      height: canvas.layoutDevice?.preset.statusBarHeight ?? SafeArea.top(of: canvas), time: "9:41",
      location: node.location)
    if let value = fields["height"] { bar.height = try number(value, fields.path("height"), in: 1...limit, expected: expected) }
    if let value = fields["time"] {
      let text = try string(value, fields.path("time"), expected: "the time shown, such as \"9:41\"")
      guard !text.isEmpty, text.count <= 8 else { throw mismatch(value, fields.path("time"), expected: "1 to 8 characters") }
      bar.time = text
    }
    if let value = fields["style"] {
      let name = try choice(
        value, fields.path("style"), among: StatusBarSpec.Style.allCases.map(\.rawValue), what: "status bar style",
        expected: "a style")
      bar.style = StatusBarSpec.Style(rawValue: name)!
    }
    return bar
  }

  /// `homeIndicator: true | false | auto | dark | light` (`true` is `auto`; `false` draws none).
  func homeIndicator(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> HomeIndicatorSpec? {
    if let shown = node.plainBoolean { return shown ? HomeIndicatorSpec(location: node.location) : nil }
    let name = try choice(
      node, path, among: ["true", "false"] + StatusBarSpec.Style.allCases.map(\.rawValue), what: "home indicator style",
      expected: "one of")
    guard let style = StatusBarSpec.Style(rawValue: name) else {
      // A quoted "true" is text, as a flag's is (`boolean`).
      throw mismatch(
        node, path, expected: "true, false or a style (auto, dark, light)",
        hint: node.textHint(writing: name))
    }
    return HomeIndicatorSpec(style: style, location: node.location)
  }

  /// A home indicator on a device with a Home button: iOS shows none, so none is drawn.
  func homeIndicatorNote(on spec: JobSpec) -> JobNote? {
    guard let indicator = spec.canvas.homeIndicator, spec.canvas.hidesHomeIndicator,
      let location = indicator.location, let preset = spec.canvas.layoutDevice?.preset
    else { return nil }
    return JobNote(
      location,
      "canvas.homeIndicator: the \(preset.name) has a Home button and iOS shows no home indicator on it; "
        + "it is not drawn (use a device without a Home button, such as iphone-15, to show one)")
  }

  /// A status bar on an iPhone in landscape, or on a canvas of no device
  /// laid out as one: iOS shows none, so none is drawn and no strip of the
  /// screenshots is held still.
  func statusBarNote(on spec: JobSpec) -> JobNote? {
    guard let bar = spec.canvas.statusBar, spec.canvas.hidesStatusBar, let location = bar.location else { return nil }
    let what = bar.isDrawn ? "it is not drawn" : "the screens' top \(JobDecoder.format(bar.height)) points move with them"
    if spec.canvas.heldDevice == nil, let (preset, _) = spec.canvas.layoutDevice {
      return JobNote(
        location,
        "canvas.statusBar: iOS shows no status bar on an iPhone in landscape, and the stage holds its "
          + "\(preset.name) so, the canvas laid out as its screen; \(what) "
          + "(hold it upright with canvas.orientation: portrait, or use an iPad, to show one)")
    }
    guard spec.canvas.heldDevice != nil else {
      return JobNote(
        location,
        "canvas.statusBar: iOS shows no status bar on an iPhone in landscape, as which a canvas wider than tall and "
          + "under 500 points high is laid out (its nav bar at the top); \(what) "
          + "(make the canvas 500 points high or more, or name a device, to show one)")
    }
    return JobNote(
      location,
      "canvas.statusBar: iOS shows no status bar on an iPhone in landscape; \(what) "
        + "(hold the device in portrait, or use an iPad, to show one)")
  }

  /// `orientation: portrait | landscape` (portrait when absent).
  func orientation(_ node: YAMLNode?, _ path: KeyPath) throws(Diagnostic) -> DeviceOrientation {
    guard let node else { return .portrait }
    let name = try choice(
      node, path, among: DeviceOrientation.allCases.map(\.rawValue), what: "orientation", expected: "an orientation")
    return DeviceOrientation(rawValue: name)!
  }
}

extension JobDecoder {
  /// Built-ins that follow the canvas's device (`CanvasSpec.layoutDevice`:
  /// the one named, the one whose screen its size is, or the one a stage
  /// shows a canvas of no device's size in) and the
  /// appearance, unless the step says otherwise: a `sheet` rests 10 pt below the device's own
  /// safe-area top (20 pt on an iPhone SE, 47 on an iPhone 14, 62 on a 16
  /// Pro; the parameter's 59 is the iPhone 15's; 0 on an iPhone held in
  /// landscape, which shows no status bar, and on a size of no device laid
  /// out as one, `SafeArea.isCompactHeight`, which draws none either), presents on an iPad as a
  /// centred form-sheet card of UIKit's size for its longest side (540 ×
  /// 600 up to 1024 pt, 580 × 640 up to 1590, 620 × 680 above) under its
  /// status bar, and dims the screen below by UIDimmingView's 0.48 in the
  /// dark (0.2 in the light).
  func withDeviceDefaults(_ parameters: TransitionParameters, transition: String, canvas: CanvasSpec)
    -> TransitionParameters
  {
    guard transition == "sheet" else { return parameters }
    var result = parameters
    if isDark, result.values["dimming"] == nil { result.values["dimming"] = .number(0.48) }
    if result.values["safeAreaTop"] == nil, SafeArea.isCompactHeight(canvas) { result.values["safeAreaTop"] = .number(0) }
    guard let (preset, _) = canvas.layoutDevice else { return result }
    if let width = SafeArea.formSheetWidth(canvas), result.values["cardWidth"] == nil {
      result.values["cardWidth"] = .number(width)
    }
    if result.values["safeAreaTop"] == nil {
      result.values["safeAreaTop"] = .number(preset.safeAreaTop)
    }
    return result
  }
}
