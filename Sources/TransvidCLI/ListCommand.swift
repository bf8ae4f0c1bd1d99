import Jobs
import Transitions

/// `transvid list`: every transition, where it comes from, its parameters
/// and their defaults, then the keys every step takes (`StepOption`:
/// `spring`, `gesture`, …), so each transition shows all a step may write.
enum ListCommand {
  static func text() -> String {
    var lines: [String] = []
    for d in Catalog.all {
      lines.append("\(d.name) — \(d.summary)")
      lines.append("  from: \(d.origin)")
      lines.append("  operations: \(d.operations.map(\.rawValue).joined(separator: ", "))")
      for p in d.parameters {
        func text(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
        let range = p.range.map { ", \(text($0.lowerBound))…\(text($0.upperBound))" } ?? ""
        lines.append("  \(p.name) (\(p.kind.rawValue)\(range), default \(p.defaultValue)): \(p.summary)")
      }
      for option in StepOption.all {
        lines.append("  \(option.name) (\(option.kind), default \(option.defaultValue)): \(option.summary)")
      }
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }

  /// `transvid list devices`: one line per preset — name, points, scale,
  /// pixels, screen corner radius, status bar and safe area, the product.
  static func devices() -> String {
    func f(_ v: Double) -> String {
      v.rounded() == v ? String(Int(v)) : String((v * 100).rounded() / 100)
    }
    var lines = ["device              points     scale  pixels      corner  status bar  safe area  product"]
    for d in DevicePreset.all {
      let points = "\(f(d.size.width))x\(f(d.size.height))"
      let pixels = "\(Int(d.size.width) * d.scale)x\(Int(d.size.height) * d.scale)"
      let columns = [
        d.name.padding(20), points.padding(11), "@\(d.scale)x".padding(7), pixels.padding(12),
        f(d.screenCornerRadius).padding(8), f(d.statusBarHeight).padding(12),
        "\(f(d.safeAreaTop))/\(f(d.safeAreaBottom))".padding(11), d.product,
      ]
      lines.append(columns.joined())
    }
    return lines.joined(separator: "\n")
  }
}

extension String {
  /// The string padded with spaces to `width` characters.
  fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: Swift.max(1, width - count)) }
}
