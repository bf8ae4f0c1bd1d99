// The job file's top level: `name`, `canvas`, `output`, `screens`, `timeline`.
//
// `screens` and `timeline` are required; the rest have defaults. `name`
// names the outputs (`<dir>/<name>.mp4`), so it must be a safe file name:
// ASCII letters, digits, `-`, `_` and `.`, not starting with `.`. Without
// `name:` the job file's name without its extension is used, and must be
// just as safe.

extension JobDecoder {
  static let documentKeys = ["name", "canvas", "output", "screens", "timeline", "stage", "locales", "strings", "appearances"]

  func job(_ root: YAMLNode) throws(Diagnostic) -> JobSpec {
    let fields = try fields(
      root, .root, expected: "a mapping with name, canvas, output, screens and timeline", keys: JobDecoder.documentKeys)
    let name = try jobName(fields["name"], root: root)
    var canvas = try canvas(fields["canvas"])
    var stage = try fields["stage"].map { (node) throws(Diagnostic) in
      try self.stage(node, canvasNode: fields["canvas"], canvas: &canvas)
    }
    try checkOrientation(fields["canvas"], canvas: canvas, stage: stage, stageNode: fields["stage"])
    let output = try output(fields["output"])
    let screensNode = try required("screens", in: fields, "a mapping of screen names to screens")
    var screens = try screens(screensNode, canvas: canvas)
    let timelineNode = try required("timeline", in: fields, "a list of steps")
    var timeline = try timeline(timelineNode, screens: screens, canvas: canvas)
    // The screens shown in a sheet's card are laid out as the card's: known
    // once the timeline is, with the steps that cancel.
    let sheets = sheetScreens(of: timeline)
    if !sheets.isEmpty {
      screens = try self.screens(screensNode, canvas: canvas, sheets: sheets)
      timeline = try self.timeline(timelineNode, screens: screens, canvas: canvas)
    }
    // A screen shown in a card narrower than the screen is laid out in the
    // card: a navigation bar of UIKit's frame spans the card the sheet
    // writes, and a screenshot fills the card.
    for (name, card) in cardSizes(of: timeline, canvas: canvas) {
      guard let s = screens.firstIndex(where: { $0.name == name }) else { continue }
      screens[s].cardWidth = card.width
      screens[s].cardHeight = card.height
      for v in screens[s].views.indices where screens[s].views[v].kind == .navbar && screens[s].views[v].barHeight != nil {
        screens[s].views[v].frame.size.width = card.width
      }
    }
    var spec = JobSpec(name: name, file: file, canvas: canvas, output: output, screens: screens, timeline: timeline)
    spec.nameLocation = fields["name"]?.location ?? location(line: 1, column: 1)
    let captions = try stepCaptions(fields["timeline"]!, stage: stage)
    stage?.captionChanges = captions
    spec.stage = stage
    if case .image(let asset)? = stage?.background { spec.assets.append(asset) }
    spec.sizeSources = JobDecoder.locations(of: JobSpec.sizeKeys, in: root)
    spec.writtenSettings = Set(JobDecoder.locations(of: JobSpec.targetKeys, in: root).keys)
    if let target = output.target { spec = spec.applying(target) }
    spec.localization = try localization(locales: fields["locales"], strings: fields["strings"])
    try resolveKeys(in: &spec)
    // A job with strings is laid out per locale (`JobSpec.localized(to:)`); one
    // without is its left-to-right layout, its `mirror: true` steps drawn as a
    // left-to-right locale draws them.
    if spec.localization == nil, spec.timeline.contains(where: {
      if case .transition(let step) = $0 { step.mirror == true } else { false }
    }) {
      spec.mirror(rightToLeft: false)
    }
    // An appearance's own decoding (`appearance` set) is of a job that lists them.
    let listed = Set(
      (spec.localization?.locales.isEmpty == false ? ["locales"] : [])
        + (fields["appearances"] != nil || appearance != nil ? ["appearances"] : []))
    try checkPlaceholders(in: spec.assets, listed: listed)
    try appearances(fields["appearances"], root: root, into: &spec)
    try spec.checkOutputSizes(
      formats: formats ?? spec.output.formats, limits: limits,
      frameCount: Timeline(spec: spec, transitions: transitions).frameCount)
    // After the notes `resolveKeys` gave a job without locales (a format
    // string drawn as written, a key drawn as itself), as a locale's job has them.
    spec.notes = notes(on: spec) + spec.notes
    try checkLength(of: spec, at: fields.pairs.first { $0.key == "timeline" }?.keyLocation ?? root.location)
    let pictures = spec.stepPictures(transitions: transitions)
    try checkLayers(of: spec, pictures: pictures)
    try checkDrawing(of: spec, pictures: pictures)
    return spec
  }

  /// Where each key path of `paths` and its enclosing keys are written in
  /// `root` (where its value starts), by dotted path: `output`, `output.gif`, ….
  static func locations(of paths: [[String]], in root: YAMLNode) -> [String: SourceLocation] {
    var result: [String: SourceLocation] = [:]
    for path in paths {
      var node = root
      for depth in path.indices {
        guard let pair = node.pairs?.first(where: { $0.key == path[depth] }) else { break }
        result[path[...depth].joined(separator: ".")] = pair.value.location
        node = pair.value
      }
    }
    return result
  }

  static let nameRule = "ASCII letters, digits, '-', '_' and '.', not starting with '.'"

  private func jobName(_ node: YAMLNode?, root: YAMLNode) throws(Diagnostic) -> String {
    guard let node else {
      let name = JobDecoder.defaultName(file: file)
      // A long name of safe characters is told its length, not its characters.
      if name.utf8.count > JobDecoder.maximumNameLength,
        JobDecoder.isSafeName(String(name.prefix(JobDecoder.maximumNameLength)))
      {
        throw Diagnostic(
          location(line: 1, column: 1),
          "the job has no 'name' and its file name \(YAMLNode.quoted(name)) has \(name.utf8.count) characters; "
            + "an output name has at most \(JobDecoder.maximumNameLength): add a shorter name:")
      }
      guard JobDecoder.isSafeName(name) else {
        throw Diagnostic(
          location(line: 1, column: 1),
          "the job has no 'name' and its file name \(YAMLNode.quoted(name)) is not a safe output name; "
            + "add name: using \(JobDecoder.nameRule)")
      }
      return name
    }
    let path = KeyPath.root.appending("name")
    if let name = node.text, name.utf8.count > JobDecoder.maximumNameLength,
      JobDecoder.isSafeName(String(name.prefix(JobDecoder.maximumNameLength)))
    {
      throw Diagnostic(
        node.location,
        "\(path): a name of \(name.utf8.count) characters; at most \(JobDecoder.maximumNameLength) "
          + "(output files add an extension and a temporary suffix to it)")
    }
    guard let name = node.text, JobDecoder.isSafeName(name) else {
      throw mismatch(node, path, expected: "a file name of \(JobDecoder.nameRule)")
    }
    return name
  }

  /// The last path component of `file` without its extension.
  static func defaultName(file: String) -> String {
    let base = file.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? file
    guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
    return String(base[..<dot])
  }

  /// Longest name: outputs are `<name>.<ext>` (up to 5 more characters)
  /// written through `<name>.<ext>.tmp-<pid>` (up to 12 more), and file
  /// names end at 255 bytes.
  static let maximumNameLength = 200

  /// ASCII letters, digits, `-`, `_`, `.`; 1…`maximumNameLength` of them; no leading `.`.
  static func isSafeName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= maximumNameLength, !name.hasPrefix(".") else { return false }
    return name.unicodeScalars.allSatisfy { c in
      ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "-" || c == "_" || c == "."
    }
  }
}
