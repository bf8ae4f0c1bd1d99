// `screens:` — the app's screens, by name, in file order.
//
//   screens:
//     gallery:
//       background: systemGroupedBackground
//       views:
//         - { id: photo3, frame: [16, 120, 170, 170], color: systemBlue, corner: 8 }
//
// A screen with nothing after its name is blank. Views are drawn in list
// order; an `id` (unique on its screen) lets transitions refer to the view.
// `image:` and `text:` are in the contract but not implemented yet.

extension JobDecoder {
  static let screenKeys = ["background", "views"]
  static let viewKeys = ["id", "frame", "color", "corner"]

  func screens(_ node: YAMLNode) throws(Diagnostic) -> [ScreenSpec] {
    let path = KeyPath.root.appending("screens")
    let expected = "a mapping of screen names to screens"
    guard let pairs = node.pairs else { throw mismatch(node, path, expected: expected) }
    if pairs.isEmpty { throw mismatch(node, path, expected: "at least one screen") }
    var screens: [ScreenSpec] = []
    for pair in pairs {
      let location = pair.keyLocation
      guard !pair.key.isEmpty else { throw Diagnostic(location, "\(path): a screen needs a name") }
      let screenPath = path.appending(pair.key)
      let fields = try fields(
        pair.value, screenPath, keys: JobDecoder.screenKeys, notYetSupported: ["image"], allowsNull: true)
      var screen = ScreenSpec(name: pair.key, background: nil, views: [], location: location)
      if let value = fields["background"] { screen.background = try color(value, fields.path("background")) }
      if let value = fields["views"] { screen.views = try views(value, fields.path("views"), screen: pair.key) }
      screens.append(screen)
    }
    return screens
  }

  private func views(_ node: YAMLNode, _ path: KeyPath, screen: String) throws(Diagnostic) -> [ViewSpec] {
    guard let items = node.items else { throw mismatch(node, path, expected: "a list of views") }
    var views: [ViewSpec] = []
    var ids: [String: SourceLocation] = [:]
    for (i, item) in items.enumerated() {
      let itemPath = path.appending(index: i)
      let fields = try fields(
        item, itemPath, expected: "a view: { id, frame, color, corner }", keys: JobDecoder.viewKeys,
        notYetSupported: ["image", "text"])
      var id: String?
      if let value = fields["id"] {
        let text = try string(value, fields.path("id"), expected: "a view id")
        if let first = ids[text] {
          throw Diagnostic(
            value.location,
            "\(fields.path("id")): screen '\(screen)' already has a view '\(text)' "
              + "(at line \(first.line), column \(first.column))")
        }
        ids[text] = value.location
        id = text
      }
      let frame = try rect(try required("frame", in: fields, "[x, y, width, height] in points"), fields.path("frame"))
      var view = ViewSpec(id: id, frame: frame, color: nil, cornerRadius: 0, location: item.location)
      if let value = fields["color"] { view.color = try color(value, fields.path("color")) }
      if let value = fields["corner"] {
        view.cornerRadius = try number(
          value, fields.path("corner"), in: 0...JobDecoder.maximumCoordinate,
          expected: "a corner radius in points from 0 to 100000")
      }
      views.append(view)
    }
    return views
  }
}
