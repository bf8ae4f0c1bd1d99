import Transitions

/// `transvid list`: every transition, where it comes from, its parameters
/// and their defaults.
enum ListCommand {
  static func text() -> String {
    var lines: [String] = []
    for d in Catalog.all {
      lines.append("\(d.name) — \(d.summary)")
      lines.append("  from: \(d.origin)")
      lines.append("  operations: \(d.operations.map(\.rawValue).joined(separator: ", "))")
      for p in d.parameters {
        lines.append("  \(p.name) (\(p.kind.rawValue), default \(p.defaultValue)): \(p.summary)")
      }
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }
}
