// The parser bounds every image before it is drawn (`Jobs/OutputSizes.swift`)
// with its own copy of the contact sheet's geometry, since Jobs cannot see
// Media: these hold the copy equal to what `ContactSheet` lays out.
import Jobs
import Media
import Testing

@Suite struct OutputSizesTests {
  @Test func labelStripsAreTheOnesTheParserComputes() throws {
    for thumbnail in 8...700 {
      let sheet = ContactSheet(width: thumbnail + 2 * OutputSizes.sheetGap, columns: 1, gap: OutputSizes.sheetGap)
      let layout = try sheet.layout(count: 1, frameWidth: 100, frameHeight: 100)
      #expect(layout.thumbnailWidth == thumbnail)
      #expect(layout.labelHeight == OutputSizes.sheetLabelHeight(thumbnailWidth: thumbnail), "thumbnail \(thumbnail) px")
    }
  }
}
