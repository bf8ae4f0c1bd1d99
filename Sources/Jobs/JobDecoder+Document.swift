// The job file's top level: `name`, `canvas`, `output`, `screens`, `timeline`.
//
// `screens` and `timeline` are required; the rest have defaults. `name`
// names the outputs (`<dir>/<name>.mp4`), so it must be a safe file name:
// ASCII letters, digits, `-`, `_` and `.`, not starting with `.`. Without
// `name:` the job file's name without its extension is used, and must be
// just as safe.

extension JobDecoder {
  static let documentKeys = ["name", "canvas", "output", "screens", "timeline"]

  func job(_ root: YAMLNode) throws(Diagnostic) -> JobSpec {
    let fields = try fields(
      root, .root, expected: "a mapping with name, canvas, output, screens and timeline", keys: JobDecoder.documentKeys)
    let name = try jobName(fields["name"], root: root)
    let canvas = try canvas(fields["canvas"])
    let output = try output(fields["output"])
    let screens = try screens(try required("screens", in: fields, "a mapping of screen names to screens"), canvas: canvas)
    let timeline = try timeline(try required("timeline", in: fields, "a list of steps"), screens: screens, canvas: canvas)
    let spec = JobSpec(name: name, file: file, canvas: canvas, output: output, screens: screens, timeline: timeline)
    try checkLength(of: spec, at: fields.pairs.first { $0.key == "timeline" }?.keyLocation ?? root.location)
    return spec
  }

  static let nameRule = "letters, digits, '-', '_' and '.', not starting with '.'"

  private func jobName(_ node: YAMLNode?, root: YAMLNode) throws(Diagnostic) -> String {
    guard let node else {
      let name = JobDecoder.defaultName(file: file)
      guard JobDecoder.isSafeName(name) else {
        throw Diagnostic(
          location(line: 1, column: 1),
          "the job has no 'name' and its file name \(YAMLNode.quoted(name)) is not a safe output name; "
            + "add name: using \(JobDecoder.nameRule)")
      }
      return name
    }
    let path = KeyPath.root.appending("name")
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

  /// ASCII letters, digits, `-`, `_`, `.`; 1…255 of them; no leading `.`.
  static func isSafeName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix(".") else { return false }
    return name.unicodeScalars.allSatisfy { c in
      ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "-" || c == "_" || c == "."
    }
  }
}
