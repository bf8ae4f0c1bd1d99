// The fuzz targets' regression inputs (`Tests/Corpus/fuzz/transitions` and
// `Tests/Corpus/fuzz/cli`: the seeds and any crash `scripts/fuzz` found)
// replayed through the plain-built fuzz executables, which trap on a bad
// input: every one must run to the end.

import Foundation
import Testing

@Suite struct FuzzRegressionTests {
  /// The fuzz target `name`, built beside the tests by `swift build --build-tests`.
  static func executable(_ name: String) -> URL? { builtProduct(name) }

  @Test(arguments: [("FuzzTransitions", "transitions"), ("FuzzCommandLine", "cli")])
  func corpusReplaysWithoutACrash(target: String, folder: String) throws {
    let binary = try #require(Self.executable(target), "build the fuzz targets first (swift build --build-tests)")
    let corpus = path(path(corpusDirectory, "fuzz"), folder)
    let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { !$0.hasPrefix(".") }
    #expect(inputs.count >= 9)
    let process = Process()
    process.executableURL = binary
    process.arguments = [corpus]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    #expect(text == "replayed \(inputs.count) inputs without a crash\n")
  }
}
