import Foundation
import Jobs

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
    let mirror = Mirror(reflecting: value)
    let type = String(reflecting: Swift.type(of: value))
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first else { return "nil" }
      return render(wrapped.value)
    case .enum:
      guard let payload = mirror.children.first else { return "\(type).\(value)" }
      return "\(type).\(payload.label ?? "?")(\(render(payload.value)))"
    case .struct, .class, .tuple:
      let fields = mirror.children.compactMap { child -> String? in
        if child.value is SourceLocation || (child.label == "resolvedPath" && value is AssetReference)
          || (child.label == "file" && value is JobSpec)
        { return nil }
        return "\(child.label ?? "_"): \(render(child.value))"
      }
      return "\(mirror.displayStyle == .tuple ? "" : type)(\(fields.joined(separator: ", ")))"
    case .collection:
      return "[" + mirror.children.map { render($0.value) }.joined(separator: ", ") + "]"
    case .dictionary, .set:
      return "{" + mirror.children.map { render($0.value) }.sorted().joined(separator: ", ") + "}"
    default:
      // A font file's resolved path depends on where the job was run from: its name stays, `OutputCache` adds its bytes.
      if let text = value as? String, let path = FontName.path(of: text) {
        return String(reflecting: FontName.file((path as NSString).lastPathComponent))
      }
      if let text = value as? String { return String(reflecting: text) }
      return "\(value)"
    }
  }
}
