// ScreenBuilder.decodeReduction: how much smaller an image may be decoded —
// never smaller than the largest size any screen draws it at.

import Jobs
import Rendering
import Testing

@Suite struct DecodeReductionTests {
  static func spec(_ views: String, screenImage: String = "", stage: String = "") throws -> JobSpec {
    try JobParser.parse(
      """
      canvas: { size: 100x200, scale: 2 }
      \(stage)
      screens:
        home:
          \(screenImage)
          views:
      \(views)
      timeline: [hold: 0.1]
      """, file: "/jobs/r.cfg")
  }

  static let photo = "/jobs/p.jpg"

  func reduction(_ spec: JobSpec, _ width: Int, _ height: Int) -> Double {
    ScreenBuilder.decodeReduction(ofImage: Self.photo, width: width, height: height, in: spec)
  }

  /// 800×600 filling 50×50 pt at 2×: drawn 133×100 px (cropped), so 6 along
  /// the height, 800/133 along the width — the smaller.
  @Test func fillIsTheSmallerSideRatio() throws {
    let spec = try Self.spec("      - { frame: [0, 0, 50, 50], image: p.jpg }")
    #expect(reduction(spec, 800, 600) == 6)
    // Stored sideways (EXIF 5…8 may turn it): the same either way round.
    #expect(reduction(spec, 600, 800) == 6)
  }

  @Test func fitStretchAndCenter() throws {
    let fit = try Self.spec("      - { frame: [0, 0, 50, 50], image: p.jpg, contentMode: fit }")
    // Fit: 100×75 px inside 100×100; sideways 75×100 fits too (600/75 = 8 is not smaller).
    #expect(reduction(fit, 800, 600) == 8)
    let stretch = try Self.spec("      - { frame: [0, 0, 50, 100], image: p.jpg, contentMode: stretch }")
    // Stretched to 100×200 px: 800/100 and 600/200, or sideways 600/100 and 800/200.
    #expect(reduction(stretch, 800, 600) == 3)
    let center = try Self.spec("      - { frame: [0, 0, 50, 50], image: p.jpg, contentMode: center }")
    #expect(reduction(center, 800, 600) == 1)
  }

  /// The largest use wins: a thumbnail and the same photo across the screen.
  @Test func largestUseDecides() throws {
    let spec = try Self.spec(
      """
            - { frame: [0, 0, 25, 25], image: p.jpg }
            - { frame: [0, 0, 100, 75], image: p.jpg }
      """)
    // 100×75 pt at 2× = 200×150 px: 4; but turned upright (600×800) it
    // would fill them at 200×267 px, 800/267.
    #expect(reduction(spec, 800, 600) == 800.0 / 267)
    // The screenshot filling the 200×400 px canvas: 800×600 fills it at 1.5 (600/400).
    let screenshot = try Self.spec("      - { frame: [0, 0, 25, 25], image: p.jpg }", screenImage: "image: p.jpg")
    #expect(reduction(screenshot, 800, 600) == 1.5)
    // Drawn larger than it is: never enlarged by decoding, 1.
    #expect(reduction(spec, 100, 75) == 1)
  }

  /// An image the stage also draws (its background) is decoded whole.
  @Test func stageBackgroundKeepsTheWholeImage() throws {
    let spec = try Self.spec(
      "      - { frame: [0, 0, 25, 25], image: p.jpg }",
      stage: "stage: { background: { image: p.jpg }, padding: 20 }")
    #expect(spec.assets.count == 2)
    #expect(reduction(spec, 800, 600) == 1)
  }
}
