import Foundation
import Testing

/// The README opens with the release-notes example as transvid's own GIF:
/// the image it names is there, a GIF of the job's width, under 10 MB.
@Suite struct ReadmeDemoTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func theReleaseNotesGIFIsShownAndSmall() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let firstScreen = readme.split(separator: "\n").prefix(12).joined(separator: "\n")
    #expect(firstScreen.contains("](docs/release-notes.gif)"))
    let gif = try Data(contentsOf: Self.root.appendingPathComponent("docs/release-notes.gif"))
    #expect(gif.count < 10_000_000)
    #expect(gif.prefix(6) == Data("GIF89a".utf8))
    // The logical screen: jobs/release-notes.cfg asks for 360 pixels wide.
    #expect(Int(gif[6]) | Int(gif[7]) << 8 == 360)
  }
}
