import Geometry
import Jobs
import Raster
import Rendering
import Testing

/// The screen on a stage without a drawn device keeps the device's rounded
/// corners; a dark appearance darkens the stage's defaults and lightens the
/// status bar.
@Suite struct StageScreenTests {
  static let red = Pixel(r: 255, g: 0, b: 0, a: 255)
  static let green = Pixel(r: 0, g: 160, b: 80, a: 255)

  static func frame(_ job: String) throws -> (Bitmap, StageLayout) {
    let spec = try JobParser.parse(job, file: "n.cfg")
    let layout = StageLayout(stage: try #require(spec.stage), canvas: spec.canvas)
    return (FrameRenderer(spec: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight), layout)
  }

  static func job(device: String, stage: String = "") -> String {
    """
    name: n
    canvas: { device: \(device), scale: 1, fps: 10 }
    stage: { device: none, background: "#00A050", padding: 20\(stage) }
    screens:
      red: { background: "#FF0000" }
    timeline:
      - hold: 0.1
    """
  }

  @Test func noDeviceKeepsTheScreensRoundedCorners() throws {
    let (frame, layout) = try Self.frame(Self.job(device: "iphone-15"))
    let s = layout.screen
    #expect(layout.screenCornerRadius == 55)
    // The corner (55 pt radius) shows the background; a little inside, the canvas.
    for (x, y) in [(s.minX + 3, s.minY + 3), (s.maxX - 4, s.minY + 3), (s.minX + 3, s.maxY - 4), (s.maxX - 4, s.maxY - 4)] {
      #expect(frame[Int(x), Int(y)] == Self.green, "\(x), \(y)")
    }
    #expect(frame[Int(s.minX + 20), Int(s.minY + 20)] == Self.red)
    #expect(frame[Int(s.midX), Int(s.minY)] == Self.red)
    // Partly covered pixels along the curve blend the two.
    var blended = 0
    for y in 0..<55 { for x in 0..<55 where ![Self.red, Self.green].contains(frame[Int(s.minX) + x, Int(s.minY) + y]) { blended += 1 } }
    #expect(blended > 55)
  }

  @Test func cornerRadiusZeroSquaresThem() throws {
    let (frame, layout) = try Self.frame(Self.job(device: "iphone-15", stage: ", cornerRadius: 0"))
    #expect(frame[Int(layout.screen.minX), Int(layout.screen.minY)] == Self.red)
    // iPhone SE's screen is square.
    let (se, seLayout) = try Self.frame(Self.job(device: "iphone-se"))
    #expect(se[Int(seLayout.screen.minX), Int(seLayout.screen.minY)] == Self.red)
  }

  @Test func cornerRadiusBesideADrawnDeviceIsAnError() {
    let job = Self.job(device: "iphone-15", stage: ", cornerRadius: 0").replacing("device: none", with: "device: iphone-15")
    #expect(throws: Diagnostic(
      SourceLocation(file: "n.cfg", line: 3, column: 79),
      "stage.cornerRadius: only with device: none (a drawn device has its own screen corners)")) {
      try JobParser.parse(job, file: "n.cfg")
    }
  }

  @Test func aDarkAppearanceDarkensTheStageAndLightensTheBar() throws {
    let job = """
      name: a
      appearances: [light, dark]
      canvas: { device: iphone-15, scale: 1, fps: 10, statusBar: { time: "9:41" } }
      stage: { padding: 20, caption: { text: "Hello", font: 20, lines: 1 } }
      screens:
        home: { background: systemBackground }
      timeline:
        - hold: 0.1
      """
    let jobs = try JobParser.parse(job, file: "a.cfg").localizedJobs()
    #expect(jobs.map(\.name) == ["a.light", "a.dark"])
    let fonts = try FontLibrary.system.get()
    var frames: [Bitmap] = []
    var layouts: [StageLayout] = []
    for spec in jobs {
      frames.append(FrameRenderer(spec: spec, fonts: fonts).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight))
      layouts.append(StageLayout(stage: try #require(spec.stage), canvas: spec.canvas))
    }
    // The stage's background: #F2F2F7 in light, black in dark.
    #expect(frames[0][0, 0] == Pixel(r: 242, g: 242, b: 247, a: 255))
    #expect(frames[1][0, 0] == Pixel(r: 0, g: 0, b: 0, a: 255))
    // The caption's default ink: black on light, white on dark.
    func ink(_ f: Bitmap, _ l: StageLayout) -> (min: UInt8, max: UInt8) {
      var values: [UInt8] = []
      for y in Int(l.caption.minY)..<Int(l.caption.maxY) { for x in Int(l.caption.minX)..<Int(l.caption.maxX) { values.append(f[x, y].r) } }
      return (values.min() ?? 0, values.max() ?? 0)
    }
    #expect(ink(frames[0], layouts[0]).min < 40)
    #expect(ink(frames[1], layouts[1]).max > 215)
    // The status bar's battery: dark glyphs on the light screen, light on the dark.
    let (bx, by) = (Int(layouts[0].screen.minX) + 350, Int(layouts[0].screen.minY) + 29)
    #expect(frames[0][bx, by] == Pixel(r: 0, g: 0, b: 0, a: 255))
    #expect(frames[1][bx, by] == Pixel(r: 255, g: 255, b: 255, a: 255))
  }
}
