// `screens:` — the app's screens, by name, in file order.
//
//   screens:
//     gallery:
//       background: systemGroupedBackground
//       views:
//         - { kind: navbar, text: "Photos" }
//         - { id: photo3, frame: [16, 120, 170, 170], image: assets/cat.png, corner: 8 }
//     detail:
//       image: assets/detail.png      # a screenshot filling the screen
//       contentMode: fit              # fill (default) or fit
//
// A screen with nothing after its name is blank. A screenshot sits over the
// background and under the views. Views are drawn in list order (see
// `JobDecoder+Views.swift`); an `id` (unique on its screen) lets transitions
// refer to the view. Image paths are relative to the job file; the runner
// decides which paths a job may reach, checks the files and decodes them.
//
// Screen names and view ids are words the job chooses, at most
// `maximumIDLength` characters: steps name them, messages echo them, and a
// name that matches none is compared with each for "did you mean".

import Transitions

extension JobDecoder {
  static let screenKeys = ["background", "image", "contentMode", "views"]

  /// Longest screen name or view id, in Unicode scalars (as the longest
  /// font family name).
  static let maximumIDLength = 100

  /// The screens shown in a sheet's card: the one a `sheet` step presents
  /// and those pushed while it is up, which UIKit lays out in the same card
  /// (the renderer's hosted steps), as the timeline's stack has them (a
  /// cancelled step leaves it as it was). They are laid out as the card's (a
  /// navigation bar at its top, no status bar above it) and, in a dark
  /// appearance, drawn at UIKit's elevated level. A screen has one layout:
  /// one the job also shows on the whole screen (its first, or one a step
  /// outside a sheet brings) keeps the whole screen's, as `cardSizes` has it.
  func sheetScreens(of timeline: [TimelineStep]) -> Set<String> {
    var names: Set<String> = []
    var whole: Set<String> = []
    // Per screen shown and not yet undone, whether it is in a sheet's card.
    var inSheet: [(inCard: Bool, operation: TransitionOperation)] = []
    for case .transition(let step) in timeline {
      if whole.isEmpty { whole.insert(step.from) }
      if step.operation.isReverse {
        let undone = step.operation == .dismiss ? TimelineStack.dismissed(by: inSheet.map(\.operation)) : 1
        if !step.isCancelled { inSheet.removeLast(undone) }
        continue
      }
      let inCard = step.transition == "sheet" || (step.operation == .push && inSheet.last?.inCard == true)
      if inCard { names.insert(step.to) } else { whole.insert(step.to) }
      if !step.isCancelled { inSheet.append((inCard, step.operation)) }
    }
    return names.subtracting(whole)
  }

  func screens(_ node: YAMLNode, canvas: CanvasSpec, sheets: Set<String> = []) throws(Diagnostic) -> [ScreenSpec] {
    let path = KeyPath.root.appending("screens")
    let expected = "a mapping of screen names to screens"
    guard let pairs = node.pairs else { throw mismatch(node, path, expected: expected) }
    if pairs.isEmpty { throw mismatch(node, path, expected: "at least one screen") }
    var screens: [ScreenSpec] = []
    for pair in pairs {
      let location = pair.keyLocation
      guard !pair.key.isEmpty else { throw Diagnostic(location, "\(path): a screen needs a name") }
      guard pair.key.unicodeScalars.count <= JobDecoder.maximumIDLength else {
        throw Diagnostic(
          location,
          "\(path): expected a screen name of at most \(JobDecoder.maximumIDLength) characters, got \(YAMLNode.quoted(pair.key))")
      }
      let screenPath = path.appending(pair.key)
      var decoder = self
      decoder.isElevated = sheets.contains(pair.key)
      let fields = try decoder.fields(pair.value, screenPath, keys: JobDecoder.screenKeys, allowsNull: true)
      var screen = ScreenSpec(name: pair.key, background: nil, views: [], location: location)
      if let value = fields["background"] { screen.background = try decoder.color(value, fields.path("background")) }
      screen.image = try decoder.image(in: fields, modes: [.fill, .fit])
      if let value = fields["views"] {
        screen.views = try decoder.views(value, fields.path("views"), screen: pair.key, canvas: canvas)
      }
      screens.append(screen)
    }
    return screens
  }

  /// `image:` and `contentMode:` of a screen or view (fill by default); a
  /// `contentMode` without an image is an error.
  func image(in fields: Fields, modes: [ContentMode]) throws(Diagnostic) -> ImageSpec? {
    guard let pair = fields.pairs.first(where: { $0.key == "image" }) else {
      if let mode = fields.pairs.first(where: { $0.key == "contentMode" }) {
        throw Diagnostic(mode.keyLocation, "\(fields.path("contentMode")): there is no 'image' to apply it to")
      }
      return nil
    }
    let key = fields.path("image")
    let path = try filePath(pair.value, key, expected: "the path of an image file (PNG, JPEG, WebP, GIF or BMP)")
    let asset = AssetReference(
      path: path, resolvedPath: JobDecoder.resolve(path, relativeTo: file), key: key.description,
      location: pair.keyLocation)
    var spec = ImageSpec(asset: asset)
    if let value = fields["contentMode"] {
      if let text = value.text, ContentMode(rawValue: text) == nil, let mode = ContentMode(uikitName: text),
        modes.contains(mode)
      {
        throw Diagnostic(
          value.location,
          "\(fields.path("contentMode")): unknown content mode \(YAMLNode.quoted(text)); "
            + "did you mean '\(mode.rawValue)' (UIKit's \(mode.uikitName))?")
      }
      let name = try choice(
        value, fields.path("contentMode"), among: modes.map(\.rawValue), what: "content mode",
        expected: "a content mode")
      spec.contentMode = ContentMode(rawValue: name)!
    }
    return spec
  }

  /// One of `names`, or `PATH: unknown WHAT "x"; did you mean 'y'?` (or the list).
  func choice(
    _ node: YAMLNode, _ path: KeyPath, among names: [String], what: String, expected: String
  ) throws(Diagnostic) -> String {
    guard let text = node.text, node.pairs == nil, node.items == nil else {
      throw mismatch(node, path, expected: "\(expected): \(names.joined(separator: ", "))")
    }
    guard names.contains(text) else {
      throw Diagnostic(
        node.location, "\(path): unknown \(what) \(YAMLNode.quoted(text))\(Suggestion.hint(for: text, in: names))")
    }
    return text
  }

  /// `path` relative to the folder of the job file `file` (absolute paths as they are).
  static func resolve(_ path: String, relativeTo file: String) -> String {
    if path.hasPrefix("/") { return path }
    guard let slash = file.lastIndex(of: "/") else { return path }
    let folder = file[...slash]
    return folder + path
  }
}
