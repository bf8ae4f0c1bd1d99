import Foundation
import Jobs
import Synchronization

/// A canonical text rendering of a parsed job: every stored property of the
/// spec, recursively, in declaration order, with dictionary and set entries
/// sorted and source locations left out (moving a key to another line, or
/// adding a comment, changes no pixel).
///
/// It walks `Mirror`s rather than listing fields by hand, so a field the job
/// format gains later is part of the cache key without anyone remembering to
/// add it: the failure mode of forgetting is a stale video, which is worse
/// than a needless re-render. Numbers print as Swift's shortest round-trip
/// text, the same on every machine.
///
/// The text is the whole cost of a cached job's key, so it is built for a
/// batch of a thousand jobs: each type's name and display style is looked up
/// once per process (`TypeInfo`), leaves (strings, numbers, flags) are
/// printed without a `Mirror`, and everything is appended to one string.
/// The text is the same as printing each value's `Mirror` naively would give.
enum CanonicalText {
  /// The canonical text of `spec` (and of its appearance variants) without
  /// their file paths, without the directories of its font files, and without the
  /// paths its images resolve to (`AssetReference.resolvedPath`, which is the
  /// job file's path as typed joined to the image's): the same job run from
  /// another folder, by another path or on another machine renders the same
  /// frames. Each image's path as the job writes it stays, and
  /// `OutputCache` adds the bytes it names.
  static func of(_ spec: JobSpec) -> String {
    render(spec)
  }

  static func render(_ value: Any) -> String {
    var text = ""
    text.reserveCapacity(4096)
    render(value, into: &text)
    return text
  }

  /// What the text needs of a type, the same for all its values.
  private struct TypeInfo: Sendable {
    /// `String(reflecting:)` of the type: its module-qualified name.
    var name: String
    var style: Mirror.DisplayStyle?
    var kind: Kind

    enum Kind: Sendable { case string, double, integer, bool, spec, asset, location, optionalLocation, other }
  }

  private static let types = Mutex<[ObjectIdentifier: TypeInfo]>([:])

  private static func info(of value: Any) -> TypeInfo {
    let type = Swift.type(of: value)
    let id = ObjectIdentifier(type)
    if let known = types.withLock({ $0[id] }) { return known }
    let kinds: [(Any.Type, TypeInfo.Kind)] = [
      (String.self, .string), (Double.self, .double), (Int.self, .integer), (Bool.self, .bool),
      (JobSpec.self, .spec), (AssetReference.self, .asset), (SourceLocation.self, .location),
      (SourceLocation?.self, .optionalLocation),
    ]
    let kind = kinds.first { $0.0 == type }?.1 ?? .other
    let info = TypeInfo(name: _typeName(type, qualified: true), style: Mirror(reflecting: value).displayStyle, kind: kind)
    types.withLock { $0[id] = info }
    return info
  }

  private static func render(_ value: Any, into text: inout String) {
    render(value, info(of: value), into: &text)
  }

  private static func render(_ value: Any, _ info: TypeInfo, into text: inout String) {
    switch info.kind {
    case .string:
      let string = value as! String
      // A font file's resolved path depends on where the job was run from: its name stays, `OutputCache` adds its bytes.
      if let path = FontName.path(of: string) {
        text += String(reflecting: FontName.file(PathText.fileName(of: path)))
      } else {
        text += String(reflecting: string)
      }
      return
    case .double:
      text += (value as! Double).description
      return
    case .integer:
      text += (value as! Int).description
      return
    case .bool:
      text += (value as! Bool) ? "true" : "false"
      return
    default:
      break
    }
    switch info.style {
    case .optional:
      guard let wrapped = Mirror(reflecting: value).children.first else {
        text += "nil"
        return
      }
      render(wrapped.value, into: &text)
    case .enum:
      guard let payload = Mirror(reflecting: value).children.first else {
        text += "\(info.name).\(value)"
        return
      }
      text += "\(info.name).\(payload.label ?? "?")("
      render(payload.value, into: &text)
      text += ")"
    case .struct, .class, .tuple:
      if info.style != .tuple { text += info.name }
      text += "("
      var first = true
      for child in Mirror(reflecting: value).children {
        let childInfo = Self.info(of: child.value)
        if isLeftOut(child, childInfo, of: info) { continue }
        if !first { text += ", " }
        first = false
        text += child.label ?? "_"
        text += ": "
        render(child.value, childInfo, into: &text)
      }
      text += ")"
    case .collection:
      text += "["
      var first = true
      for child in Mirror(reflecting: value).children {
        if !first { text += ", " }
        first = false
        render(child.value, into: &text)
      }
      text += "]"
    case .dictionary, .set:
      text += "{" + Mirror(reflecting: value).children.map { render($0.value) }.sorted().joined(separator: ", ") + "}"
    default:
      if let string = value as? String {
        text += String(reflecting: string)
      } else {
        text += "\(value)"
      }
    }
  }

  /// Source locations, an image's resolved path and the job file's path
  /// do not enter the text.
  private static func isLeftOut(_ child: Mirror.Child, _ info: TypeInfo, of parent: TypeInfo) -> Bool {
    switch (parent.kind, child.label) {
    case (.asset, "resolvedPath"), (.spec, "file"): return true
    default: break
    }
    switch info.kind {
    case .location: return true
    case .optionalLocation: return child.value is SourceLocation
    default: return false
    }
  }
}
