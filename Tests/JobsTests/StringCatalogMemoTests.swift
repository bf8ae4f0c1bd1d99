import Foundation
import Testing

@testable import Jobs

/// Job files that name one String Catalog decode it once (the batch sweep:
/// a batch of 100 jobs naming one 2 MB catalog of 400 strings in 30
/// languages spent 16 s of CPU planning, each job decoding it again, before
/// anything rendered), and a catalog saved since is decoded again.
@Suite struct StringCatalogMemoTests {
  @Test func jobsSharingACatalogDecodeItOnce() throws {
    let dir = NSTemporaryDirectory() + "transvid-catalog-memo-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let catalog = dir + "/Localizable.xcstrings"
    func save(_ greeting: String) throws {
      let text = #"{"sourceLanguage": "en", "strings": {"hi": {"localizations": {"de": {"stringUnit": "#
        + #"{"state": "translated", "value": "\#(greeting)"}}}}}, "version": "1.0"}"#
      try text.write(toFile: catalog, atomically: true, encoding: .utf8)
    }
    try save("Hallo")
    let jobs = try (0..<3).map { i in
      let path = dir + "/j\(i).cfg"
      try """
      name: j\(i)
      locales: [de]
      strings: Localizable.xcstrings
      screens:
        home: { views: [ { frame: [0, 0, 100, 20], text: { key: hi } } ] }
      timeline: [ { hold: 1 } ]

      """.write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    let resolved = JobDecoder.resolve("Localizable.xcstrings", relativeTo: jobs[0])
    func decodings() -> Int { StringCatalogMemo.decodings.withLock { $0[resolved] ?? 0 } }
    let greetings = try jobs.map { try JobParser.load(path: $0).localization?.tables["de"]?["hi"] }
    #expect(greetings == Array(repeating: .text("Hallo"), count: 3))
    #expect(decodings() == 1)
    try save("Servus")
    #expect(try JobParser.load(path: jobs[1]).localization?.tables["de"]?["hi"] == .text("Servus"))
    #expect(decodings() == 2)
  }
}
