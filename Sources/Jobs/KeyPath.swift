/// Where a value sits in a job file, as messages name it: `canvas.fps`,
/// `screens.home.views[0].frame`, `timeline[2].push.duration` (indices from 0).
///
/// A path is made for every value read, millions of them in a large String
/// Catalog, and shown only in a message: appending keeps the key or index
/// beside the path it extends, and the text is made when a message asks.
struct KeyPath: Sendable, CustomStringConvertible {
  /// A key or an index, after the path it extends (nil: the document).
  private final class Step: Sendable {
    enum Component: Sendable {
      case key(String)
      case index(Int)
    }

    let parent: Step?
    let component: Component

    init(parent: Step?, component: Component) {
      self.parent = parent
      self.component = component
    }
  }

  /// The last key or index; nil for the document itself.
  private let last: Step?
  /// What the document is called when a message is about all of it.
  let document: String

  private init(last: Step?, document: String) {
    self.last = last
    self.document = document
  }

  /// The whole document.
  static let root = KeyPath(last: nil, document: "the job file")
  /// The whole of a String Catalog.
  static let catalog = KeyPath(last: nil, document: "the String Catalog")

  /// The path as written; empty for the document itself. A key of more
  /// than 40 characters, or with one messages escape, is shown in double
  /// quotes, shortened and escaped (`YAMLNode.quoted`): a String Catalog's
  /// keys are its source texts, sentences long.
  var description: String {
    var components: [Step.Component] = []
    var step = last
    while let current = step {
      components.append(current.component)
      step = current.parent
    }
    var text = ""
    for component in components.reversed() {
      switch component {
      case .key(let key):
        let quoted = YAMLNode.quoted(key)
        let shown = key.unicodeScalars.count > 40 || quoted.unicodeScalars.count != key.unicodeScalars.count + 2 ? quoted : key
        text = text.isEmpty ? shown : "\(text).\(shown)"
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text
  }

  var isRoot: Bool { last == nil }

  /// The value of `key` in the mapping at `self`.
  func appending(_ key: String) -> KeyPath {
    KeyPath(last: Step(parent: last, component: .key(key)), document: document)
  }

  /// Item `index` of the sequence at `self`.
  func appending(index: Int) -> KeyPath {
    KeyPath(last: Step(parent: last, component: .index(index)), document: document)
  }

  /// Where a key of the mapping at `self` is: `in canvas`, or `at the top level`.
  var keyPlace: String { isRoot ? "at the top level" : "in \(description)" }

  /// How a message starts when it is about the value at `self`: `canvas.fps`,
  /// or `the job file` (`the String Catalog`) for the document itself.
  var subject: String { isRoot ? document : description }
}
