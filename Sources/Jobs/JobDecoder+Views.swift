// A screen's `views:` — drawn in list order, each a stack of (bottom to top)
// colour, gradient, image and text in its frame (one line unless `lines`).
//
//   - { id: hero, frame: [0, 100, 393, 300], image: assets/photo.png, contentMode: fill, corner: 12 }
//   - { frame: [0, 100, 393, 300], image: assets/logo.png, contentMode: center, clipsToBounds: false }  # draws beyond its frame
//   - { frame: [0, 0, 393, 200], gradient: { colors: [systemBlue, "#00000000"], start: [0, 0], end: [0, 1] } }
//   - { frame: [16, 420, 361, 30], text: "照片", font: { size: 22, weight: bold }, textColor: label, align: center }
//   - { kind: navbar, text: "Settings" }                       # frame defaults to the bar under the status bar
//   - { kind: cell, frame: [16, 120, 361, 44], text: "Wi-Fi" }
//   - { kind: button, frame: [16, 700, 361, 50], text: "Continue" }
//   - { frame: [16, 480, 361, 90], text: { key: intro }, lines: 0 }  # wraps (UILabel's numberOfLines; 1 by default)
//
// `kind` only sets defaults (frame for a navbar, colour, corner, font,
// text colour, alignment, where the text sits); every key still overrides.
// `font`, `textColor`, `align` and `lines` need a `text`; `contentMode` needs an `image`.

import Geometry
import Raster

extension JobDecoder {
  static let viewKeys = [
    "id", "kind", "frame", "color", "corner", "gradient", "image", "contentMode", "clipsToBounds", "text", "font", "textColor", "align",
    "mirror", "lines",
  ]
  static let fontKeys = ["size", "weight", "file", "family"]
  static let gradientKeys = ["colors", "locations", "start", "end"]
  /// Longest label text, in Unicode scalars.
  static let maximumTextLength = 1000
  /// Largest font size in points.
  static let maximumFontSize = 500.0

  func views(_ node: YAMLNode, _ path: KeyPath, screen: String, canvas: CanvasSpec) throws(Diagnostic) -> [ViewSpec] {
    guard let items = node.items else { throw mismatch(node, path, expected: "a list of views") }
    var views: [ViewSpec] = []
    var ids: [String: SourceLocation] = [:]
    for (i, item) in items.enumerated() {
      let itemPath = path.appending(index: i)
      let fields = try fields(
        item, itemPath, expected: "a view: { id, frame, color, corner, image, text, … }", keys: JobDecoder.viewKeys)
      var id: String?
      if let value = fields["id"] {
        let expected = "a view id of at most \(JobDecoder.maximumIDLength) characters"
        let text = try string(value, fields.path("id"), expected: expected)
        guard text.unicodeScalars.count <= JobDecoder.maximumIDLength else {
          throw mismatch(value, fields.path("id"), expected: expected)
        }
        if let first = ids[text] {
          throw Diagnostic(
            value.location,
            "\(fields.path("id")): screen '\(screen)' already has a view '\(text)' "
              + "(at line \(first.line), column \(first.column))")
        }
        ids[text] = value.location
        id = text
      }
      views.append(try view(fields, id: id, canvas: canvas, location: item.location))
    }
    return views
  }

  private func view(_ fields: Fields, id: String?, canvas: CanvasSpec, location: SourceLocation) throws(Diagnostic) -> ViewSpec {
    var kind = ViewKind.view
    if let value = fields["kind"] {
      let name = try choice(
        value, fields.path("kind"), among: ViewKind.allCases.map(\.rawValue), what: "view kind", expected: "a view kind")
      kind = ViewKind(rawValue: name)!
    }
    let frame: Rect
    var barHeight: Double? = nil
    if kind == .navbar, fields["frame"] == nil {
      // A screen a sheet presents is the one drawn at the elevated level.
      (frame, barHeight) = SafeArea.navigationBar(on: canvas, inSheet: isElevated)
    } else {
      let node = try required("frame", in: fields, "[x, y, width, height] in points")
      frame = try rect(node, fields.path("frame"))
      // A view's snapshot, label and fitted image are bitmaps of its frame's pixel size.
      let width = frame.width * Double(canvas.scale), height = frame.height * Double(canvas.scale)
      if max(width, height) > Double(limits.maxSide) {
        throw Diagnostic(
          node.location,
          "\(fields.path("frame")): \(JobDecoder.format(frame.width))x\(JobDecoder.format(frame.height)) points "
            + "at scale \(canvas.scale) is \(JobDecoder.format(width))x\(JobDecoder.format(height)) pixels; "
            + "a view is drawn at most \(limits.maxSide) pixels per side (\(limits.maxSideAdvice))")
      }
    }
    let label = isDark ? Color.white : Color.black
    var view = ViewSpec(id: id, kind: kind, frame: frame, color: nil, cornerRadius: 0, location: location)
    view.barHeight = barHeight
    view.textStyle.color = label
    switch kind {
    case .view: break
    case .navbar:
      // UINavigationBar's default (chrome) background: light #F9F9F9F0, dark #1D1D1DF0.
      view.color = isDark ? Color(red8: 29, green8: 29, blue8: 29, alpha8: 240) : Color(red8: 249, green8: 249, blue8: 249, alpha8: 240)
      view.textStyle = TextStyle(size: 17, weight: .semibold, color: label, alignment: .center)
    case .cell:
      view.color = isDark
        ? ColorSyntax.color("secondarySystemGroupedBackground", dark: true, elevated: isElevated) : .white
      view.cornerRadius = 10
    case .button:
      view.color = ColorSyntax.color("systemBlue", dark: isDark)
      view.cornerRadius = 12
      view.textStyle = TextStyle(size: 17, weight: .semibold, color: .white, alignment: .center)
    }
    if let value = fields["color"] { view.color = try color(value, fields.path("color")) }
    if let value = fields["corner"] {
      view.cornerRadius = try number(
        value, fields.path("corner"), in: 0...JobDecoder.maximumCoordinate,
        expected: "a corner radius in points from 0 to 100000")
    }
    if let value = fields["gradient"] { view.gradient = try gradient(value, fields.path("gradient")) }
    view.image = try image(in: fields, modes: ContentMode.allCases)
    view.clipsToBounds = view.image != nil
    if let node = fields["clipsToBounds"] { view.clipsToBounds = try boolean(node, fields.path("clipsToBounds")) }
    try text(in: fields, into: &view)
    if let node = fields["mirror"] { view.mirrors = try boolean(node, fields.path("mirror")) }
    return view
  }

  /// `text`, and the keys that style it.
  private func text(in fields: Fields, into view: inout ViewSpec) throws(Diagnostic) {
    guard let value = fields["text"] else {
      for key in ["font", "textColor", "align", "lines"] {
        if let pair = fields.pairs.first(where: { $0.key == key }) {
          throw Diagnostic(pair.keyLocation, "\(fields.path(key)): there is no 'text' to apply it to")
        }
      }
      return
    }
    let expected = "one line of text (at most \(JobDecoder.maximumTextLength) characters) or { key: KEY }"
    if value.pairs != nil {
      let key = try textKey(value, fields.path("text"))
      view.text = key.key
      view.textKey = key
    } else {
      guard let text = value.text, text.unicodeScalars.count <= JobDecoder.maximumTextLength else {
        throw mismatch(value, fields.path("text"), expected: expected)
      }
      view.text = text
    }
    if let value = fields["font"] {
      view.fontLocation = value.pairs?.first { $0.key == "file" || $0.key == "family" }?.value.location ?? value.location
      try font(value, fields.path("font"), into: &view.textStyle)
    }
    if let value = fields["textColor"] { view.textStyle.color = try color(value, fields.path("textColor")) }
    if let value = fields["align"] {
      let name = try choice(
        value, fields.path("align"), among: TextAlignment.allCases.map(\.rawValue), what: "alignment",
        expected: "an alignment")
      view.textStyle.alignment = TextAlignment(rawValue: name)!
    }
    if let value = fields["lines"] { view.textStyle.lines = try integer(value, fields.path("lines"), in: 0...100) }
  }

  /// `font: { size: 17, weight: semibold }`, or just `font: 17`.
  func font(_ node: YAMLNode, _ path: KeyPath, into style: inout TextStyle) throws(Diagnostic) {
    let sizeExpected = "a font size in points from 1 to \(JobDecoder.format(JobDecoder.maximumFontSize))"
    if node.number != nil {
      style.size = try number(node, path, in: 1...JobDecoder.maximumFontSize, expected: sizeExpected)
      return
    }
    let fields = try fields(
      node, path, expected: "{ size: POINTS, weight: regular|medium|semibold|bold, file: PATH, family: NAME }",
      keys: JobDecoder.fontKeys)
    if fields["file"] != nil, let family = fields["family"] {
      throw Diagnostic(family.location, "\(fields.path("family")): a font has a 'file' or a 'family', not both")
    }
    if let value = fields["file"] {
      let file = try filePath(value, fields.path("file"), expected: "the path of a font file (TrueType, OpenType or a collection)")
      style.font = FontName.file(JobDecoder.resolve(file, relativeTo: self.file))
    }
    if let value = fields["family"] {
      // Family names are short (fontconfig's longest here: 30 characters); a long one is no name.
      guard let family = value.text, !family.isEmpty, family.count <= 100 else {
        throw mismatch(
          value, fields.path("family"), expected: "a font family name of at most 100 characters, as fontconfig knows it")
      }
      style.font = FontName.family(family)
    }
    if let value = fields["size"] {
      style.size = try number(value, fields.path("size"), in: 1...JobDecoder.maximumFontSize, expected: sizeExpected)
    }
    if let value = fields["weight"] {
      let name = try choice(
        value, fields.path("weight"), among: FontWeight.allCases.map(\.rawValue), what: "font weight",
        expected: "a font weight")
      style.weight = FontWeight(rawValue: name)!
    }
  }

  /// `gradient: { colors: [a, b, …], locations: [0, …, 1], start: [x, y], end: [x, y] }`
  /// in the view's unit coordinates, top to bottom by default (CAGradientLayer).
  func gradient(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Gradient {
    let fields = try fields(node, path, expected: "{ colors: [...], start: [x, y], end: [x, y] }", keys: JobDecoder.gradientKeys)
    let list = try required("colors", in: fields, "a list of 2 to 16 colours")
    guard let items = list.items, (2...16).contains(items.count) else {
      throw mismatch(list, fields.path("colors"), expected: "a list of 2 to 16 colours")
    }
    var colors: [Color] = []
    for (i, item) in items.enumerated() { colors.append(try color(item, fields.path("colors").appending(index: i))) }
    var gradient = Gradient(colors: colors)
    if let value = fields["locations"] {
      let expected = "\(colors.count) ascending numbers from 0 to 1, one per colour"
      guard let stops = value.items, stops.count == colors.count else {
        throw mismatch(value, fields.path("locations"), expected: expected)
      }
      var locations: [Double] = []
      for (i, stop) in stops.enumerated() {
        let v = try number(stop, fields.path("locations").appending(index: i), in: 0...1, expected: "a number from 0 to 1")
        if let last = locations.last, v < last {
          throw mismatch(stop, fields.path("locations").appending(index: i), expected: "a number ≥ \(JobDecoder.format(last)) (locations ascend)")
        }
        locations.append(v)
      }
      gradient.locations = locations
    }
    if let value = fields["start"] { gradient.startPoint = try unitPoint(value, fields.path("start")) }
    if let value = fields["end"] { gradient.endPoint = try unitPoint(value, fields.path("end")) }
    return gradient
  }

  private func unitPoint(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Point {
    let v = try numbers(node, path, count: 2, expected: "[x, y] in unit coordinates of the view (0 to 1)")
    return Point(x: v[0], y: v[1])
  }
}
