// The parser bounds every image before it is drawn (`Jobs/OutputSizes.swift`)
// with its own copy of the contact sheet's geometry, since Jobs cannot see
// Media: these hold the copy equal to what `ContactSheet` lays out.
import Jobs
import Media
import Testing

@Suite struct OutputSizesTests {
  @Test func tallestLabelStripIsTheOneTheParserAssumes() throws {
    // A thumbnail 480+ px wide gets the largest label (40 px).
    let sheet = ContactSheet(width: 1000, columns: 1, gap: OutputSizes.sheetGap)
    let layout = try sheet.layout(count: 3, frameWidth: 1000, frameHeight: 500)
    #expect(layout.labelSize == 40)
    #expect(layout.labelHeight == OutputSizes.sheetLabelHeight)
    // Narrower thumbnails have lower strips, never taller ones.
    for width in stride(from: 40, through: 1000, by: 37) {
      let small = try ContactSheet(width: width, columns: 1).layout(count: 1, frameWidth: 100, frameHeight: 100)
      #expect(small.labelHeight <= OutputSizes.sheetLabelHeight)
    }
  }
}
