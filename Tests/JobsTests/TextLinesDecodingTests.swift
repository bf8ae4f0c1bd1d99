import Jobs
import Testing

/// `lines:` on a text view: UILabel's numberOfLines, 1 unless given.
@Suite struct TextLinesDecodingTests {
  @Test func linesSetTheLabelsNumberOfLines() throws {
    let spec = try JobParser.parse(
      """
      screens:
        home:
          views:
            - { frame: [0, 0, 100, 100], text: "A long paragraph", lines: 0 }
            - { frame: [0, 0, 100, 100], text: "Three at most", lines: 3 }
            - { frame: [0, 0, 100, 100], text: "One" }
      timeline: [hold: 1]
      """, file: "job.cfg")
    #expect(spec.screens[0].views.map(\.textStyle.lines) == [0, 3, 1])
  }
}
