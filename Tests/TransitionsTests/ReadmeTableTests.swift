import Foundation
import Testing
import Transitions

/// README's table of transitions gives each one's defaults as `transvid
/// list` does (the README sweep: elastic-present's row named its spring's
/// damping and not its initial velocity, 1/0.55, which magic-move's names).
@Suite struct ReadmeTransitionTableTests {
  @Test func everyRowNamesItsDurationAndItsSpringsDampingAndVelocity() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "\n## Transitions\n"))
    let table = readme[section.upperBound...]
    for descriptor in Catalog.all {
      guard let row = table.split(separator: "\n").first(where: { $0.hasPrefix("| `\(descriptor.name)` |") }) else { continue }
      let defaults = try #require(row.split(separator: "|").last).trimmingCharacters(in: .whitespaces)
      let duration = try #require(descriptor.parameters.first { $0.name == "duration" }).defaultValue
      #expect(defaults.hasPrefix("\(duration) s"), "\(descriptor.name): \(defaults)")
      let curve = try #require(descriptor.parameters.first { $0.name == "curve" }).defaultValue
      if let spring = curve.wholeMatch(of: /spring\(damping: ([^,]+), velocity: ([^,]+), duration: <duration>\)/) {
        #expect(defaults.contains("damping \(spring.1), velocity \(spring.2)"), "\(descriptor.name): \(defaults)")
      }
    }
  }
}
