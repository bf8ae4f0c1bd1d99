/// Where a value sits in a job file, as messages name it: `canvas.fps`,
/// `screens.home.views[0].frame`, `timeline[2].push.duration` (indices from 0).
struct KeyPath: Sendable, CustomStringConvertible {
  /// The path as written; empty for the document itself.
  var description: String
  /// What the document is called when a message is about all of it.
  var document = "the job file"

  /// The whole document.
  static let root = KeyPath(description: "")
  /// The whole of a String Catalog.
  static let catalog = KeyPath(description: "", document: "the String Catalog")

  var isRoot: Bool { description.isEmpty }

  /// The value of `key` in the mapping at `self`. A key of more than 40
  /// characters, or with one messages escape, is shown in double quotes,
  /// shortened and escaped (`YAMLNode.quoted`): a String Catalog's keys are
  /// its source texts, sentences long.
  func appending(_ key: String) -> KeyPath {
    let quoted = YAMLNode.quoted(key)
    let shown = key.unicodeScalars.count > 40 || quoted.unicodeScalars.count != key.unicodeScalars.count + 2 ? quoted : key
    return KeyPath(description: isRoot ? shown : "\(description).\(shown)", document: document)
  }

  /// Item `index` of the sequence at `self`.
  func appending(index: Int) -> KeyPath {
    KeyPath(description: "\(description)[\(index)]", document: document)
  }

  /// Where a key of the mapping at `self` is: `in canvas`, or `at the top level`.
  var keyPlace: String { isRoot ? "at the top level" : "in \(description)" }

  /// How a message starts when it is about the value at `self`: `canvas.fps`,
  /// or `the job file` (`the String Catalog`) for the document itself.
  var subject: String { isRoot ? document : description }
}
