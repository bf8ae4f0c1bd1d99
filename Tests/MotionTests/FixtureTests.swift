// The reference vectors are data made by a script (Tests/Fixtures/README.md):
// the script, run again, must write the fixture byte for byte, so neither can
// be edited without the other.
import Foundation
import Testing

@Suite struct FixtureTests {
  static let python = ["/usr/bin/python3", "/usr/local/bin/python3"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func generatorReproducesTheFixture() throws {
    let fixture = GoldenVectors.locate()
    let script = fixture.deletingLastPathComponent().appendingPathComponent("timing_vectors.py")
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("timing_vectors-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.python))
    process.arguments = [script.path, output.path]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let made = try Data(contentsOf: output)
    let kept = try Data(contentsOf: fixture)
    #expect(made == kept, "timing_vectors.py no longer writes Tests/Fixtures/timing_vectors.json")
  }
}
