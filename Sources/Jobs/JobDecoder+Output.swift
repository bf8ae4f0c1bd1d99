// `output:` — where the job's files go and which ones.
//
//   output:
//     dir: demos                      # relative to the job file; default: the CLI's
//     formats: [mp4, gif]             # mp4 (default), gif, png (poster), sheet
//     mp4: { crf: 18, preset: medium }
//     gif: { width: 360, fps: 30 }    # default: the writer's choice
//
// `formats` may also be one name (`formats: gif`). A format listed twice is
// an error, as is an empty list.

extension JobDecoder {
  static let outputKeys = ["dir", "formats", "mp4", "gif"]
  static let mp4Keys = ["crf", "preset"]
  static let gifKeys = ["width", "fps"]

  func output(_ node: YAMLNode?) throws(Diagnostic) -> OutputSpec {
    var output = OutputSpec()
    guard let node else { return output }
    let fields = try fields(node, KeyPath.root.appending("output"), keys: JobDecoder.outputKeys)
    if let value = fields["dir"] {
      let dir = try string(value, fields.path("dir"), expected: "a directory path")
      if dir.isEmpty { throw mismatch(value, fields.path("dir"), expected: "a directory path") }
      output.directory = dir
    }
    if let value = fields["formats"] { output.formats = try formats(value, fields.path("formats")) }
    if let value = fields["mp4"] { output.mp4 = try mp4(value, fields.path("mp4")) }
    if let value = fields["gif"] { output.gif = try gif(value, fields.path("gif")) }
    return output
  }

  private func formats(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> [OutputFormat] {
    let names = OutputFormat.allCases.map(\.rawValue)
    let expected = "a list of formats (\(names.joined(separator: ", ")))"
    let items: [(YAMLNode, KeyPath)]
    if let list = node.items {
      items = list.enumerated().map { ($1, path.appending(index: $0)) }
    } else if node.text != nil {
      items = [(node, path)]
    } else {
      throw mismatch(node, path, expected: expected)
    }
    if items.isEmpty { throw mismatch(node, path, expected: "at least one format (\(names.joined(separator: ", ")))") }
    var formats: [OutputFormat] = []
    for (item, itemPath) in items {
      let name = try string(item, itemPath, expected: "a format name")
      guard let format = OutputFormat(rawValue: name) else {
        throw Diagnostic(
          item.location, "\(itemPath): unknown format \(YAMLNode.quoted(name))\(Suggestion.hint(for: name, in: names))")
      }
      if formats.contains(format) { throw Diagnostic(item.location, "\(itemPath): '\(name)' is listed twice") }
      formats.append(format)
    }
    return formats
  }

  private func mp4(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> MP4Settings {
    let fields = try fields(node, path, keys: JobDecoder.mp4Keys)
    var settings = MP4Settings()
    if let value = fields["crf"] { settings.crf = try integer(value, fields.path("crf"), in: 1...51) }
    if let value = fields["preset"] {
      let name = try string(value, fields.path("preset"), expected: "an x264 preset name")
      guard MP4Settings.presets.contains(name) else {
        throw Diagnostic(
          value.location,
          "\(fields.path("preset")): unknown x264 preset \(YAMLNode.quoted(name))"
            + Suggestion.hint(for: name, in: MP4Settings.presets))
      }
      settings.preset = name
    }
    return settings
  }

  private func gif(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> GIFSettings {
    let fields = try fields(node, path, keys: JobDecoder.gifKeys)
    var settings = GIFSettings()
    if let value = fields["width"] {
      settings.width = try integer(value, fields.path("width"), in: 16...JobDecoder.maximumPixels)
    }
    if let value = fields["fps"] { settings.fps = try integer(value, fields.path("fps"), in: 1...50) }
    return settings
  }
}
