import Foundation
import Geometry
import Jobs
import Raster
@testable import Rendering
import Testing

/// The stage as drawn: every device preset around a red canvas on a green
/// background, portrait and landscape; captions that change per step; the
/// status bar that stays still through a push.
@Suite struct StageTests {
  static let background = Pixel(r: 0, g: 160, b: 80, a: 255)

  static func job(device: String, orientation: String = "portrait", stage: String = "") -> String {
    """
    name: s
    canvas: { device: \(device), orientation: \(orientation), scale: 1, fps: 10 }
    stage: { background: "#00A050", padding: 120\(stage) }
    screens:
      red: { background: "#FF0000" }
    timeline:
      - hold: 0.1
    """
  }

  static func isRed(_ p: Pixel) -> Bool { p.r == 255 && p.g == 0 && p.b == 0 }

  /// A black canvas in a drawn device is the device's own black screen:
  /// the frame is the prepared stage pixel for pixel, its rounded corners
  /// too, and so is a transparent canvas, which shows that screen. The
  /// screen's partly covered pixels blended the prepared stage, its black
  /// screen already in them, under the canvas by the share the screen
  /// leaves, darkening the ring where the screen meets the bezel: at an
  /// iPhone 15's corner a #1B1B1B nav bar beside a #212123 bezel showed #161616.
  @Test(arguments: ["iphone-15", "ipad-11", "iphone-14"], ["#000000", "clear"])
  func aBlackCanvasIsTheDevicesOwnBlackScreen(device: String, background: String) throws {
    let canvas = background == "clear" ? "scale: 2, background: transparent" : "scale: 2"
    let job = Self.job(device: device).replacing("red: { background: \"#FF0000\" }", with: "red: { background: \"\(background)\" }")
      .replacing("scale: 1", with: canvas)
    let spec = try JobParser.parse(job, file: "s.cfg")
    let renderer = FrameRenderer(spec: spec)
    let frame = renderer.frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    let base = try #require(renderer.stage?.stage.base)
    let differing = (0..<frame.height).flatMap { y in (0..<frame.width).filter { frame[$0, y] != base[$0, y] }.map { ($0, y) } }
    #expect(differing.isEmpty, "\(device), \(background): \(differing.count) pixels, first \(differing.prefix(3).map { "\($0): \(frame[$0.0, $0.1]) for \(base[$0.0, $0.1])" })")
  }

  @Test(arguments: DevicePreset.all.map(\.name), ["portrait", "landscape"])
  func eachDeviceFramesTheCanvas(device: String, orientation: String) throws {
    let spec = try JobParser.parse(Self.job(device: device, orientation: orientation), file: "s.cfg")
    let preset = try #require(DevicePreset.named(device))
    let stage = try #require(spec.stage)
    let layout = StageLayout(stage: stage, canvas: spec.canvas)
    // The output is the body, its buttons and the padding, grown to even pixels (for 4:2:0 video).
    let body = orientation == "portrait" ? preset.bodySize : Size(width: preset.bodySize.height, height: preset.bodySize.width)
    func even(_ points: Double) -> Int { Int(points.rounded(.up)) + Int(points.rounded(.up)) % 2 }
    #expect(spec.framePixelWidth == even(body.width + 2 * StageLayout.buttonDepth + 240))
    #expect(spec.framePixelHeight == even(body.height + 2 * StageLayout.buttonDepth + 240))
    let renderer = FrameRenderer(spec: spec)
    let frame = renderer.frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    // The background at the four corners.
    for (x, y) in [(0, 0), (frame.width - 1, 0), (0, frame.height - 1), (frame.width - 1, frame.height - 1)] {
      #expect(frame[x, y] == Self.background, "corner \(x),\(y)")
    }
    // The canvas fills the screen: red along the middle row and column from
    // edge to edge (its aspect is the screen's), black glass just outside.
    let screen = layout.screen
    let midX = Int(screen.midX), midY = Int(screen.midY)
    var row = (0..<frame.width).filter { Self.isRed(frame[$0, midY + 90]) }
    var column = (0..<frame.height).filter { Self.isRed(frame[midX + 90, $0]) }
    row.sort(); column.sort()
    #expect(row.first == Int(screen.minX) && row.last == Int(screen.maxX) - 1)
    #expect(column.first == Int(screen.minY) && column.last == Int(screen.maxY) - 1)
    #expect(row.count == Int(screen.width) && column.count == Int(screen.height))
    let canvasAspect = spec.canvas.size.width / spec.canvas.size.height
    #expect(abs(Double(row.count) / Double(column.count) - canvasAspect) < 0.01)
    // Bezel: a dark pixel two points outside the screen on each side.
    for (x, y) in [(Int(screen.minX) - 2, midY), (Int(screen.maxX) + 1, midY)] {
      let p = frame[x, y]
      #expect(p.a == 255 && p.r < 40 && p.g < 40 && p.b < 40, "bezel at \(x),\(y): \(p) \(screen) \(layout.body)")
    }
    // The band in the finish's colour between the bezel and the background.
    let band = frame[Int(layout.body.minX + 2), midY]
    #expect(band != Self.background && !Self.isRed(band))
  }

  @Test func dynamicIslandAndRoundedCornersShowTheDevice() throws {
    let spec = try JobParser.parse(Self.job(device: "iphone-15-pro"), file: "s.cfg")
    let layout = StageLayout(stage: try #require(spec.stage), canvas: spec.canvas)
    let frame = FrameRenderer(spec: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    let s = layout.screen
    // The island's middle (11 pt + half its 37.33 pt below the top) is black; beside it, the canvas.
    #expect(frame[Int(s.midX), Int(s.minY + 11 + 18)] == Pixel(r: 0, g: 0, b: 0, a: 255))
    #expect(Self.isRed(frame[Int(s.minX) + 40, Int(s.minY + 29)]))
    // The screen's corner (55 pt radius) is glass, not canvas.
    #expect(!Self.isRed(frame[Int(s.minX) + 3, Int(s.minY) + 3]))
  }

  /// A canvas that names neither device nor size draws as `device:
  /// iphone-15` does: the phone on the stage at any scale, in landscape
  /// no status bar and a sheet 8 pt from the top, in portrait the bar's
  /// island layout. (It drew no phone at scale 1 or 2, and in landscape
  /// a status bar and a sheet 59 pt down.)
  @Test(arguments: [
    "scale: 1", "scale: 2", "scale: 1, statusBar: { time: \"9:41\", style: dark }",
    "scale: 1, orientation: landscape, statusBar: { time: \"9:41\", style: dark }",
  ])
  func anUnnamedCanvasDrawsAsAnIPhone15(canvas: String) throws {
    func frames(_ canvas: String) throws -> [Bitmap] {
      let spec = try JobParser.parse(
        """
        name: s
        canvas: { \(canvas), fps: 10 }
        stage: { background: "#00A050", padding: 10 }
        screens:
          red: { background: "#FF0000" }
          blue: { background: "#0000FF" }
        timeline:
          - present: { to: blue, transition: sheet }
          - hold: 0.1
        """, file: "s.cfg")
      let renderer = FrameRenderer(spec: spec, fonts: try FontLibrary.system.get())
      return [0, renderer.frameCount - 1].map { renderer.frame($0, width: spec.framePixelWidth, height: spec.framePixelHeight) }
    }
    let unnamed = try frames(canvas), named = try frames("device: iphone-15, " + canvas)
    #expect(unnamed[0].width == named[0].width && unnamed[0].height == named[0].height)
    #expect(unnamed == named)
  }

  /// A canvas given as a device's size in landscape is drawn in that device
  /// held in landscape, filling its screen (it stood upright, letterboxed).
  @Test func aLandscapeCanvasSizeTurnsTheDeviceItFinds() throws {
    func frame(_ canvas: String) throws -> Bitmap {
      let spec = try JobParser.parse(
        """
        name: s
        canvas: { \(canvas), scale: 1, fps: 10 }
        stage: { background: "#00A050", padding: 10 }
        screens:
          red: { background: "#FF0000" }
        timeline:
          - hold: 0.1
        """, file: "s.cfg")
      return FrameRenderer(spec: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    }
    let sized = try frame("size: 852x393"), turned = try frame("device: iphone-15, orientation: landscape")
    #expect(sized.width > sized.height && sized == turned)
  }

  /// A device the stage names beside a canvas of no device wider than tall
  /// is held in landscape, as the canvas is laid out (an iPhone held
  /// sideways: no status bar, a 32 pt nav bar): `800x400` fills the turned
  /// iPhone 15's 852x393 screen to its height, as `orientation: landscape`
  /// draws it. (It stood upright, the canvas a 393x196.5 band across its
  /// middle.) A written `orientation: portrait` keeps it upright.
  @Test func aWideCanvasTurnsTheDeviceTheStageNames() throws {
    func rendered(_ canvas: String) throws -> (Bitmap, StageLayout) {
      let spec = try JobParser.parse(
        """
        name: s
        canvas: { size: 800x400, scale: 1, fps: 10\(canvas) }
        stage: { device: iphone-15, background: "#00A050", padding: 10 }
        screens:
          red: { background: "#FF0000" }
        timeline:
          - hold: 0.1
        """, file: "s.cfg")
      let layout = StageLayout(stage: try #require(spec.stage), canvas: spec.canvas)
      return (FrameRenderer(spec: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight), layout)
    }
    let (frame, layout) = try rendered("")
    let screen = layout.screen
    #expect(frame.width > frame.height && screen.width == 852 && screen.height == 393)
    // Red down the middle column from the screen's top edge to its bottom,
    // and across a row below the island 786 points wide (800 × 393/400), centred.
    let column = (0..<frame.height).filter { Self.isRed(frame[Int(screen.midX), $0]) }
    #expect(column.first == Int(screen.minY) && column.last == Int(screen.maxY) - 1 && column.count == 393)
    let row = (0..<frame.width).filter { Self.isRed(frame[$0, Int(screen.midY) + 90]) }
    #expect(row.first == Int(screen.minX) + 33 && row.count == 786)
    let (written, _) = try rendered(", orientation: landscape")
    let same = frame == written
    #expect(same)
    let (upright, uprightLayout) = try rendered(", orientation: portrait")
    #expect(upright.height > upright.width && uprightLayout.screen.width == 393 && uprightLayout.screen.height == 852)
  }

  /// A canvas of no device's size is laid out as the screen of the device
  /// the stage shows it in, held as the stage holds it: `size: 800x550`
  /// beside `stage: { device: iphone-15 }`, an iPhone held sideways, drew
  /// a 20 pt status bar and its nav bar under it, where iOS shows no status
  /// bar on an iPhone in landscape; it shows none (with a note), its nav bar
  /// at the top and 32 pt tall. An iPad keeps its 24 pt bar beside
  /// `800x400` (laid out as a phone held sideways, it drew none), and an
  /// iPhone held upright (`orientation: portrait`) shows its own, an iPhone
  /// 15's 54 pt bar over a nav bar under its 59 pt safe-area top.
  @Test func aCanvasIsLaidOutAsTheDeviceTheStageHoldsItIn() throws {
    func job(_ canvas: String, _ device: String, statusBar: Bool = true) -> String {
      """
      name: s
      canvas: { size: \(canvas), scale: 1, fps: 10\(statusBar ? ", statusBar: { time: \"9:41\", style: dark }" : "") }
      stage: { device: \(device), background: "#00A050", padding: 10 }
      screens:
        white: { background: "#FFFFFF", views: [ { kind: navbar, text: Title } ] }
      timeline:
        - hold: 0.1
      """
    }
    func frame(_ job: String) throws -> Bitmap {
      let spec = try JobParser.parse(job, file: "s.cfg")
      return FrameRenderer(spec: spec, fonts: try FontLibrary.system.get())
        .frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    }
    for (canvas, device, top, bar, shownBar) in [
      ("800x550", "iphone-15", 0.0, 32.0, nil), ("800x550", "iphone-15-pro-max", 0, 44, nil),
      ("400x800, orientation: landscape", "iphone-15", 0, 32, nil), ("800x400", "ipad-mini", 24, 50, 24),
      ("800x400, orientation: portrait", "iphone-15", 59, 44, 54 as Double?),
    ] {
      let shown = shownBar != nil
      let spec = try JobParser.parse(job(canvas, device), file: "s.cfg")
      let size = spec.canvas.size
      let navbar = spec.screens[0].views[0].frame
      #expect(navbar == Rect(x: 0, y: 0, width: size.width, height: top + bar), "\(canvas) in \(device)")
      #expect(spec.canvas.shownStatusBar?.height == shownBar, "\(canvas) in \(device)")
      let drawn = try frame(job(canvas, device)) != frame(job(canvas, device, statusBar: false))
      #expect(drawn == shown, "\(canvas) in \(device)")
      let said = spec.notes.map(\.message).contains {
        $0 == "canvas.statusBar: iOS shows no status bar on an iPhone in landscape, and the stage holds its \(device) so, "
          + "the canvas laid out as its screen; it is not drawn (hold it upright with canvas.orientation: portrait, "
          + "or use an iPad, to show one)"
      }
      #expect(said == !shown, "\(canvas) in \(device)")
    }
  }

  /// With `device: none` a canvas held in landscape stands on the stage as
  /// it is, wider than tall (the stage was laid out for it turned back
  /// upright: 414x872 points, the canvas drawn across a narrow screen).
  @Test func aLandscapeCanvasWithNoDeviceStandsAsItIs() throws {
    let spec = try JobParser.parse(
      """
      name: s
      canvas: { device: iphone-15, orientation: landscape, scale: 1, fps: 10 }
      stage: { device: none, background: "#00A050", padding: 10 }
      screens:
        red: { background: "#FF0000" }
      timeline:
        - hold: 0.1
      """, file: "s.cfg")
    #expect(spec.framePixelWidth == 872 && spec.framePixelHeight == 414)
    let frame = FrameRenderer(spec: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    // Red across the middle row from the screen's left edge to its right; the background beyond.
    let row = (0..<frame.width).filter { Self.isRed(frame[$0, frame.height / 2]) }
    #expect(row.first == 10 && row.last == 861 && row.count == 852)
    #expect(frame[5, frame.height / 2] == Self.background && frame[866, frame.height / 2] == Self.background)
  }

  /// A canvas that is not opaque goes over what the stage shows under the
  /// screen: a drawn device's black screen, whether the canvas is the
  /// screen's size or scaled to fit it; with `device: none` the stage's
  /// background, and nothing where that is transparent. (A canvas of the
  /// screen's size was written into it as it was: a hole in the phone,
  /// (128, 0, 0, 128) premultiplied, on an opaque stage.)
  @Test(arguments: [
    ("device: iphone-15", "background: \"#FFFFFF\"", Pixel(r: 128, g: 0, b: 0, a: 255)),
    ("size: 393x852", "background: \"#FFFFFF\", device: iphone-14", Pixel(r: 128, g: 0, b: 0, a: 255)),
    ("device: iphone-15", "background: transparent", Pixel(r: 128, g: 0, b: 0, a: 255)),
    ("device: iphone-15", "background: \"#FFFFFF\", device: none", Pixel(r: 255, g: 127, b: 127, a: 255)),
    ("device: iphone-15", "background: transparent, device: none", Pixel(r: 128, g: 0, b: 0, a: 128)),
  ])
  func aSeeThroughCanvasGoesOverTheStageUnderIt(canvas: String, stage: String, expected: Pixel) throws {
    let spec = try JobParser.parse(
      """
      name: s
      canvas: { \(canvas), scale: 1, fps: 10, background: transparent }
      stage: { padding: 10, \(stage) }
      screens:
        a: { background: "#FF000080" }
      timeline:
        - hold: 0.2
      """, file: "s.cfg")
    let screen = StageLayout(stage: try #require(spec.stage), canvas: spec.canvas).screen
    let renderer = FrameRenderer(spec: spec)
    for n in 0..<2 {
      let frame = renderer.frame(n, width: spec.framePixelWidth, height: spec.framePixelHeight)
      #expect(frame[Int(screen.midX), Int(screen.midY)] == expected, "frame \(n)")
      #expect(frame[Int(screen.minX) + 60, Int(screen.maxY) - 60] == expected, "frame \(n)")
    }
  }

  @Test func theCanvasScalesToFitAnotherScreen() throws {
    let job = """
      name: s
      canvas: { size: 393x852, scale: 1, fps: 10 }
      stage: { background: "#00A050", padding: 20, device: ipad-11 }
      screens:
        red: { background: "#FF0000" }
      timeline:
        - hold: 0.1
      """
    let spec = try JobParser.parse(job, file: "s.cfg")
    let layout = StageLayout(stage: try #require(spec.stage), canvas: spec.canvas)
    // 393×852 in 834×1194: the height fits, the width keeps the aspect.
    #expect(abs(layout.canvas.height - 1194) < 1e-9)
    #expect(abs(layout.canvas.width - 393 * 1194 / 852) < 1e-9)
    let frame = FrameRenderer(spec: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    #expect(Self.isRed(frame[Int(layout.canvas.midX), Int(layout.canvas.midY)]))
    // Letterboxed in black beside it, inside the screen.
    #expect(frame[Int(layout.screen.minX) + 20, Int(layout.screen.midY)] == Pixel(r: 0, g: 0, b: 0, a: 255))
  }

  /// A canvas four times the screen's size is averaged down to it, as an
  /// area-average resize (Pillow's BOX) makes it: rows of four, black,
  /// white, white, black, are grey. The compositor's bilinear sample of
  /// each fourth row pair read the two white rows alone, so the screen
  /// showed white (and other canvases moiré stripes).
  @Test func aCanvasShrunkToFitIsAveragedNotSampled() throws {
    let job = """
      name: s
      canvas: { size: 1500x2668, scale: 1, fps: 10 }
      stage: { background: "#00A050", padding: 20, device: iphone-se }
      screens:
        rows: { image: rows.png }
      timeline:
        - hold: 0.1
      """
    let spec = try JobParser.parse(job, file: "jobs/s.cfg")
    var rows = Bitmap(width: 1500, height: 2668, fill: Pixel(r: 255, g: 255, b: 255, a: 255))
    for y in 0..<rows.height where y % 4 == 0 || y % 4 == 3 {
      for x in 0..<rows.width { rows[x, y] = Pixel(r: 0, g: 0, b: 0, a: 255) }
    }
    let layout = StageLayout(stage: try #require(spec.stage), canvas: spec.canvas)
    #expect(layout.canvas.size == Size(width: 375, height: 667))
    let frame = FrameRenderer(spec: spec, assets: ["jobs/rows.png": rows])
      .frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    let (x0, y0) = (Int(layout.canvas.minX), Int(layout.canvas.minY))
    let off = (100..<560).flatMap { y in stride(from: 20, to: 355, by: 15).map { (x0 + $0, y0 + y) } }
      .filter { let p = frame[$0.0, $0.1]; return abs(Int(p.r) - 128) > 1 || p.g != p.r || p.b != p.r }
    #expect(off.isEmpty, "\(off.count) pixels not grey, first \(off.prefix(3).map { "\($0): \(frame[$0.0, $0.1])" })")
  }

  /// `job` parsed, its captions checked to fit, and its renderer with the system's fonts.
  static func captioned(_ job: String) throws -> (JobSpec, FrameRenderer) {
    let spec = try JobParser.parse(job, file: "c.cfg")
    let fonts = try FontLibrary.system.get()
    try CaptionFit.check(spec, fonts: fonts)
    return (spec, FrameRenderer(spec: spec, fonts: fonts))
  }

  @Test func captionChangesPerStepWithACrossFade() throws {
    let job = """
      name: c
      canvas: { device: iphone-se, scale: 1, fps: 10 }
      stage: { background: "#FFFFFF", caption: { text: "Tap", font: 30, textColor: "#000000", lines: 1 } }
      screens:
        a: { background: "#FF0000" }
      timeline:
        - hold: 1
        - hold: 1
          caption: "Swipe back to return"
      """
    let (spec, renderer) = try Self.captioned(job)
    let layout = StageLayout(stage: try #require(spec.stage), canvas: spec.canvas)
    func ink(_ n: Int) -> Int {
      let f = renderer.frame(n, width: spec.framePixelWidth, height: spec.framePixelHeight)
      var dark = 0
      for y in Int(layout.caption.minY)..<Int(layout.caption.maxY) {
        for x in Int(layout.caption.minX)..<Int(layout.caption.maxX) where f[x, y].r < 128 { dark += 1 }
      }
      return dark
    }
    let first = ink(5), fading = ink(11), second = ink(15)
    #expect(first > 0 && second > first)
    #expect(fading != first && fading != second)
    // Frames inside a fade are not repeats; frames of a settled caption are.
    #expect(!renderer.repeatsPreviousFrame(11))
    #expect(renderer.repeatsPreviousFrame(16))
  }

  /// At 59.94 fps a step's caption starts fading in on the step's first
  /// frame, as the steps are timed (frame n at n·1001/60000 s): the stage
  /// took frame n at n/60 s, so after a 20 s hold the caption began a frame
  /// after its step, and 0.1 % later still the longer the video ran (the
  /// timeline sweep: 6 frames late at 100 s).
  @Test func aCaptionFadesInWithItsStepAtAnNTSCRate() throws {
    let job = """
      name: c
      canvas: { size: 200x100, scale: 1, fps: 59.94 }
      stage: { device: none, background: "#FFFFFF", caption: { text: "Tap", font: 30, textColor: "#000000", lines: 1 } }
      screens:
        a: { background: "#FF0000" }
      timeline:
        - hold: 20
        - hold: 1
          caption: "Swipe"
      """
    let (spec, renderer) = try Self.captioned(job)
    // The second hold's first frame: 1199, at 20.0033 s (1198 is at 19.9867 s).
    #expect(renderer.timeline.segmentIndex(ofFrame: 1198) == 0 && renderer.timeline.segmentIndex(ofFrame: 1199) == 1)
    let w = spec.framePixelWidth, h = spec.framePixelHeight
    let before = renderer.frame(1198, width: w, height: h), after = renderer.frame(1200, width: w, height: h)
    #expect(before != after)
    #expect(!renderer.repeatsPreviousFrame(1200))
  }

  @Test func statusBarStripStaysStillThroughAPush() throws {
    func job(statusBar: String) -> String {
      """
      name: p
      canvas: { size: 100x200, scale: 1, fps: 10\(statusBar) }
      screens:
        list:
          background: "#FFFFFF"
          views: [{ frame: [0, 0, 100, 20], color: "#FF0000" }, { frame: [0, 20, 50, 180], color: "#00FF00" }]
        detail:
          background: "#0000FF"
          views: [{ frame: [0, 0, 100, 20], color: "#000000" }]
      timeline:
        - push: { to: detail, transition: push, curve: linear, duration: 1 }
      """
    }
    let spec = try JobParser.parse(job(statusBar: ", statusBar: 20"), file: "p.cfg")
    let renderer = FrameRenderer(spec: spec)
    let mid = renderer.frame(5, width: 100, height: 200)
    // The strip is one colour across the width: red and black cross-fading.
    let strip = (0..<100).map { mid[$0, 10] }
    #expect(Set(strip.map { "\($0)" }).count == 1)
    #expect(strip[0].r > 60 && strip[0].r < 200 && strip[0].g == 0 && strip[0].b == 0)
    // The body slides: the detail's blue has come in from the right, the list still shows at the left.
    #expect(mid[95, 100].b > 200)
    #expect(mid[5, 100].b < 100)
    // Without statusBar the strip slides with the rest.
    let plain = FrameRenderer(spec: try JobParser.parse(job(statusBar: ""), file: "p.cfg"))
    let slid = plain.frame(5, width: 100, height: 200)
    #expect(Set((0..<100).map { "\(slid[$0, 10])" }).count > 1)
  }

  /// An iPad's form sheet holds no status bar: its picture is the card's.
  /// The screenshots' own strip stays the presenting screen's (red) while
  /// the card comes up, rests and pushes inside it, and the card keeps its
  /// own top rows (blue). The strip showed the card screen's top rows, its
  /// blue and the green beyond it, and the card's top 24 pt were its 25th
  /// row repeated (black), as for a screen whose top is a status bar.
  @Test func aFormSheetKeepsThePresentingScreensStrip() throws {
    let job = """
      name: p
      canvas: { device: ipad-mini, scale: 1, fps: 10, statusBar: 24 }
      screens:
        a:
          background: "#FFFFFF"
          views: [{ frame: [0, 0, 744, 24], color: "#FF0000" }]
        s:
          background: "#00FF00"
          views: [{ frame: [0, 0, 580, 24], color: "#0000FF" }, { frame: [0, 24, 580, 6], color: "#000000" }]
        d:
          background: "#FFFF00"
          views: [{ frame: [0, 0, 580, 24], color: "#FF00FF" }]
      timeline:
        - present: { to: s, transition: sheet, duration: 0.5 }
        - hold: 0.3
        - push: { to: d, transition: push, curve: linear, duration: 1 }
        - hold: 0.3
      """
    let spec = try JobParser.parse(job, file: "p.cfg")
    let renderer = FrameRenderer(spec: spec)
    let red = Pixel(r: 255, g: 0, b: 0, a: 255)
    // 0.3 s into the present, resting (0.6 s), mid-push in the card (1.3 s), after it (2.0 s).
    for n in [3, 6, 13, 20] {
      let frame = renderer.frame(n, width: 744, height: 1133)
      let strip = [10, 300, 700].map { frame[$0, 12] }
      #expect(strip.allSatisfy { $0 == red }, "frame \(n): \(strip)")
    }
    // The 580 × 640 card rests centred, 82 pt from the left, 246.5 from the top.
    let resting = renderer.frame(6, width: 744, height: 1133)
    #expect(resting[372, 258] == Pixel(r: 0, g: 0, b: 255, a: 255), "\(resting[372, 258])")
    let pushed = renderer.frame(20, width: 744, height: 1133)
    #expect(pushed[372, 258] == Pixel(r: 255, g: 0, b: 255, a: 255), "\(pushed[372, 258])")
  }

  /// A screenshot's own status bar does not ride on a screen that slides
  /// up, shrinks or turns: on a device the glyphs are the system's. The
  /// strip's colour (red, black) appears nowhere below the fixed strip, the
  /// presented screen's body (blue) does.
  @Test(arguments: ["cover-vertical", "sheet", "elastic-present", "flip-horizontal", "page-flip", "cross-dissolve"])
  func aPresentedScreenCarriesNoStatusBar(transition: String) throws {
    let job = """
      name: p
      canvas: { size: 100x200, scale: 1, fps: 10, statusBar: 20 }
      screens:
        list:
          background: "#FFFFFF"
          views: [{ frame: [0, 0, 100, 20], color: "#FF0000" }]
        detail:
          background: "#0000FF"
          views: [{ frame: [0, 0, 100, 20], color: "#000000" }]
      timeline:
        - present: { to: detail, transition: \(transition), curve: linear, duration: 1, safeAreaTop: 20 }
      """.replacingOccurrences(of: ", safeAreaTop: 20", with: transition == "sheet" ? ", safeAreaTop: 20" : "")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "p.cfg"))
    var blue = 0
    for n in 2..<9 {
      let frame = renderer.frame(n, width: 100, height: 200)
      for y in 20..<200 {
        for x in 0..<100 {
          let p = frame[x, y]
          #expect(!(p.r > 200 && p.g < 40 && p.b < 40), "frame \(n): the list's red strip at \(x), \(y)")
          #expect(!(p.r < 10 && p.g < 10 && p.b < 10 && y > 40 && transition == "cover-vertical"), "frame \(n): the detail's black strip at \(x), \(y)")
          if p.b > 200 && p.r < 60 { blue += 1 }
        }
      }
    }
    #expect(blue > 1000)
  }

  @Test func drawnStatusBarHasGlyphsInBothEars() throws {
    let job = """
      name: d
      canvas: { device: iphone-15, scale: 1, fps: 10, statusBar: { time: "9:41", style: dark } }
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 0.1
      """
    let spec = try JobParser.parse(job, file: "d.cfg")
    let frame = FrameRenderer(spec: spec, fonts: try FontLibrary.system.get()).frame(0, width: 393, height: 852)
    func dark(_ xs: Range<Int>) -> Int {
      var n = 0
      for y in 0..<54 { for x in xs where frame[x, y].r < 128 { n += 1 } }
      return n
    }
    #expect(dark(20..<120) > 30)  // the time
    #expect(dark(270..<380) > 100)  // bars, Wi-Fi, battery
    #expect(dark(150..<240) == 0)  // where the island is
    #expect(frame[200, 400] == Pixel(r: 255, g: 255, b: 255, a: 255))
  }

  /// In a right-to-left locale the drawn bar is laid out mirrored, as iOS
  /// lays it out in Arabic and Hebrew: the time in the right ear, the
  /// icons in the left with the battery at the outer end, each glyph as
  /// drawn left to right (the bars still rise to the right, the battery's
  /// cap still on its right). On a home-button iPhone the time stays in the
  /// middle. A renderer of an Arabic job draws the mirrored bar.
  @Test(arguments: ["iphone-15", "iphone-se", "ipad-mini"])
  func theDrawnBarIsMirroredRightToLeft(device: String) throws {
    let fonts = try FontLibrary.system.get()
    let spec = try JobParser.parse(
      """
      name: d
      canvas: { device: \(device), scale: 1, fps: 10, statusBar: { time: "9:41", style: dark } }
      locales: [en, ar]
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 0.1
      """, file: "d.cfg")
    let canvas = spec.canvas, width = canvas.size.width, height = try #require(canvas.statusBar).height
    let ltr = StatusBar.glyphs(time: "9:41", style: .dark, canvas: canvas, height: height, fonts: fonts)
    let rtl = StatusBar.glyphs(time: "9:41", style: .dark, canvas: canvas, height: height, rightToLeft: true, fonts: fonts)
    try #require(ltr.count == 8 && rtl.count == 8)  // time, four bars, Wi-Fi, battery, its cap
    func mirrored(_ r: Rect) -> Rect { Rect(x: width - r.maxX, y: r.minY, width: r.width, height: r.height) }
    #expect(rtl[0].frame == mirrored(ltr[0].frame))
    #expect(rtl[5].frame == mirrored(ltr[5].frame))
    for i in 1...4 {  // the bars as one 17 pt glyph
      #expect(rtl[i].frame.minX == width - ltr[1].frame.minX - 17 + Double(i - 1) * 4.5)
      #expect(rtl[i].frame.height == ltr[i].frame.height)
    }
    #expect(rtl[6].frame.minX == width - ltr[6].frame.minX - 27)  // the battery and its cap, 27 pt
    #expect(rtl[7].frame.minX == rtl[6].frame.minX + 25.5)
    if device == "iphone-se" { #expect(rtl[0].frame == ltr[0].frame) } else { #expect(rtl[0].frame.midX > width / 2) }
    #expect(rtl[6].frame.midX < width / 2)
    // The renderer of the Arabic job draws it; the English one does not.
    func frame(_ locale: String) -> Bitmap {
      let localized = spec.localized(to: locale)
      return FrameRenderer(spec: localized, fonts: fonts).frame(0, width: localized.framePixelWidth, height: localized.framePixelHeight)
    }
    let battery = rtl[6].frame
    let inBattery = { (b: Bitmap) in b[Int(battery.midX), Int(battery.midY)].r < 128 }
    #expect(inBattery(frame("ar")) && !inBattery(frame("en")))
  }

  /// A drawn status bar on a canvas of no device is an iPad's (the time at
  /// the left edge in 12 pt, a 24 pt bar) where the canvas is laid out as
  /// an iPad, by its short side, as its nav bar and home indicator are;
  /// `800x550` drew an iPad's bar over an iPhone's nav bar.
  @Test(arguments: [("800x550", false), ("550x800", false), ("1000x700", true), ("700x1000", true)])
  func aDrawnBarOnASizeOfNoDeviceIsAnIPadsByItsShortSide(size: String, isPad: Bool) throws {
    let fonts = try FontLibrary.system.get()
    let spec = try JobParser.parse(
      """
      name: d
      canvas: { size: \(size), scale: 1, fps: 10, statusBar: { time: "9:41", style: dark } }
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 0.1
      """, file: "d.cfg")
    let canvas = spec.canvas, height = try #require(canvas.statusBar).height
    #expect(canvas.isLaidOutAsPad == isPad)
    #expect(height == (isPad ? 24 : 20))
    let time = StatusBar.glyphs(time: "9:41", style: .dark, canvas: canvas, height: height, fonts: fonts)[0].frame
    let padTime = time.minX == 20 && time.width == 120
    #expect(padTime == isPad, "\(time)")
  }

  /// A caption draws all of its text's ink: Arabic's tails and the dots
  /// under ي reach further below the baseline than the line box, and were
  /// cut flat (41 of 54 rows), by the line box and, in a one-line caption,
  /// by the caption's own strip. The caption's ink rows are those of the
  /// same text drawn alone in a frame three times its size, to a row.
  @Test(arguments: ["وعر يجي", "ปู่ญู", "gyp jQ"], [1, 2])
  func aCaptionDrawsItsWholeInk(text: String, lines: Int) throws {
    let fonts = try FontLibrary.system.get()
    let job = """
      name: c
      canvas: { device: iphone-se, scale: 2 }
      stage: { background: "#FFFFFF", padding: 20, caption: { text: "\(text)", position: top, font: { size: 28, weight: bold }, lines: \(lines) } }
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 0.1
      """
    let spec = try JobParser.parse(job, file: "c.cfg")
    let renderer = FrameRenderer(spec: spec, fonts: fonts)
    let frame = renderer.frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    func inkRows(_ b: Bitmap, rows: Range<Int>) -> Int {
      rows.filter { y in (0..<b.width).contains { b[$0, y].r < 128 && b[$0, y].a > 0 } }.count
    }
    let alone = Label(text, style: TextStyle(size: 28, weight: .bold, color: Color(red: 0, green: 0, blue: 0, alpha: 1)))
      .render(size: Size(width: 400, height: 84), scale: 2, fonts: fonts)
    // The caption's rows and the gap's on either side (the device starts below them). A row of
    // antialiasing either way: the two baselines sit at different fractions of a pixel.
    let stage = try #require(spec.stage)
    let area = StageLayout(stage: stage, canvas: spec.canvas).caption, gap = StageLayout.captionGap(stage.caption)
    let rows = Int(max(0, area.minY - gap) * 2)..<Int((area.maxY + gap) * 2)
    let (caption, whole) = (inkRows(frame, rows: rows), inkRows(alone, rows: 0..<alone.height))
    #expect(abs(caption - whole) <= 1, "\(caption) ink rows in the caption, \(whole) drawn alone")
  }

  /// A caption's ink reaches past the gap into the padding on the side
  /// away from the device (the text sweep): Tibetan's stacks hang far
  /// below the line, and "ཀྵྨྱཱཾ" in a caption at the bottom was cut flat a
  /// gap (12 pt) below its caption's rows, with 28 pt of white padding
  /// still under the cut. Its ink rows are those of the same text drawn
  /// alone in a frame ten times its size, to a row.
  @Test(arguments: ["བསྒྲུབས་ཀྵྨྱཱཾ"])
  func aCaptionsInkReachesIntoThePadding(text: String) throws {
    let fonts = try FontLibrary.system.get()
    let job = """
      name: c
      canvas: { size: 300x200, scale: 2 }
      stage: { device: none, background: "#FFFFFF", padding: 40, caption: { text: "\(text)", position: bottom, font: 20, lines: 1 } }
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 0.1
      """
    let spec = try JobParser.parse(job, file: "c.cfg")
    let frame = FrameRenderer(spec: spec, fonts: fonts).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    func inkRows(_ b: Bitmap) -> Int {
      (0..<b.height).filter { y in (0..<b.width).contains { b[$0, y].r < 128 && b[$0, y].a > 0 } }.count
    }
    let alone = Label(text, style: TextStyle(size: 20, color: Color(red: 0, green: 0, blue: 0, alpha: 1)))
      .render(size: Size(width: 300, height: 200), scale: 2, fonts: fonts)
    let (caption, whole) = (inkRows(frame), inkRows(alone))
    #expect(abs(caption - whole) <= 1, "\(caption) ink rows in the caption, \(whole) drawn alone")
  }

  /// An Urdu caption draws all of its Nastaliq: a word climbs from its end
  /// up to its start, higher than the font's ascender, and the top of
  /// "دیکھنے"'s first letter was cut flat where its line's label began,
  /// half a line above the line box (in a caption of three lines with two
  /// of text, its د and ی were gone). Each line's label reaches the strip;
  /// the caption's ink rows are those of the line drawn alone, and its
  /// topmost lies above where the label began.
  @Test(arguments: [2, 3])
  func anUrduCaptionDrawsItsWholeInk(lines: Int) throws {
    let fonts = try FontLibrary.system.get()
    let job = """
      name: c
      canvas: { size: 300x200, scale: 2 }
      locales: [ur]
      strings: { ur: { c: "تصاویر دیکھنے" } }
      stage: { device: none, background: "#FFFFFF", padding: 40, caption: { text: { key: c }, position: top, font: { size: 26, weight: bold }, lines: \(lines) } }
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 0.1
      """
    let parsed = try JobParser.parse(job, file: "c.cfg")
    let spec = try #require(parsed.localizedJobs().first)
    let frame = FrameRenderer(spec: spec, fonts: fonts).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    func inkRows(_ b: Bitmap, rows: Range<Int>) -> [Int] {
      rows.filter { y in (0..<b.width).contains { b[$0, y].r < 128 && b[$0, y].a > 0 } }
    }
    let style = TextStyle(size: 26, weight: .bold, color: Color(red: 0, green: 0, blue: 0, alpha: 1), language: "ur")
    let alone = Label("تصاویر دیکھنے", style: style).render(size: Size(width: 400, height: 260), scale: 2, fonts: fonts)
    // The caption's strip, over the white screen's top (no ink there).
    let stage = try #require(spec.stage)
    let area = StageLayout(stage: stage, canvas: spec.canvas).caption, gap = StageLayout.captionGap(stage.caption)
    let caption = inkRows(frame, rows: Int((area.minY - gap) * 2)..<Int((area.maxY + gap) * 2))
    let whole = inkRows(alone, rows: 0..<alone.height)
    #expect(abs(caption.count - whole.count) <= 1, "\(caption.count) ink rows in the caption, \(whole.count) drawn alone")
    // Where the one line's label began: half a line (33 pt) above its line box, centred in the area.
    let cut = Int(((area.midY - 16.5 - 16.5) * 2).rounded())
    #expect(try #require(caption.first) < cut, "\(caption.first ?? -1) \(cut)")
  }

  /// A caption that does not fit is echoed as the parser echoes values:
  /// its newline written `\n` and a reordering mark `\u{202e}`, so the
  /// message stays one line (it printed the text raw, over two lines).
  @Test func aCaptionThatCannotFitIsEchoedOnOneLine() throws {
    let job = """
      name: c
      canvas: { device: iphone-se, scale: 1 }
      stage: { padding: 0, caption: { text: "Line one\\nLine \\u202Etwo", font: 30, lines: 1 } }
      screens:
        a: {}
      timeline:
        - hold: 1
      """
    #expect(throws: Diagnostic(
      SourceLocation(file: "c.cfg", line: 3, column: 22),
      #"stage.caption: 'Line one\nLine \u{202e}two' needs 2 lines in the 440-point-wide caption at 30 pt; "#
        + "it holds 1 line (raise stage.caption.lines, shorten the text or use a smaller font)"
    )) { try CaptionFit.check(try JobParser.parse(job, file: "c.cfg"), fonts: try FontLibrary.system.get()) }
  }

  /// A locale's caption that does not fit names the locale, as an image
  /// path's `{locale}` does: the line was the same for every locale's job.
  @Test func aLocalesCaptionThatCannotFitNamesTheLocale() throws {
    let job = """
      name: c
      locales: [en, de]
      strings: { en: { cap: "Short" }, de: { cap: "Ein viel zu langer Untertitel" } }
      canvas: { device: iphone-se, scale: 1 }
      stage: { padding: 0, caption: { text: { key: cap }, font: 30, lines: 1 } }
      screens:
        a: {}
      timeline:
        - hold: 1
      """
    let fonts = try FontLibrary.system.get()
    let jobs = try JobParser.parse(job, file: "c.cfg").localizedJobs()
    try #require(jobs.map(\.locale) == ["en", "de"])
    try CaptionFit.check(jobs[0], fonts: fonts)
    #expect(throws: Diagnostic(
      SourceLocation(file: "c.cfg", line: 5, column: 22),
      "stage.caption (locale 'de'): 'Ein viel zu langer Untertitel' needs 2 lines in the 440-point-wide caption "
        + "at 30 pt; it holds 1 line (raise stage.caption.lines, shorten the text or use a smaller font)"
    )) { try CaptionFit.check(jobs[1], fonts: fonts) }
  }

  @Test func captionsThatCannotFitAreAnError() throws {
    let job = """
      name: c
      canvas: { device: iphone-se, scale: 1 }
      stage: { padding: 0, caption: { text: "Short", font: 30, lines: 1 } }
      screens:
        a: {}
      timeline:
        - hold: 1
          caption: "A caption far too long to fit on one line of this stage"
        - hold: 1
          caption: "Supercalifragilisticexpialidociously"
      """
    let fonts = try FontLibrary.system.get()
    #expect(throws: Diagnostic(
      SourceLocation(file: "c.cfg", line: 8, column: 5),
      "timeline[0].caption: 'A caption far too long to fit on one lin…' needs 3 lines in the "
        + "440-point-wide caption at 30 pt; it holds 1 line (raise stage.caption.lines, shorten the text or use a smaller font)"
    )) { try CaptionFit.check(try JobParser.parse(job, file: "c.cfg"), fonts: fonts) }
    // At the most lines a caption may have, raising them is no advice.
    let six = job.replacingOccurrences(of: "lines: 1", with: "lines: 6").replacingOccurrences(
      of: "A caption far too long to fit on one line of this stage",
      with: String(repeating: "A caption far too long to fit on one line of this stage ", count: 4))
    let sixError = #expect(throws: Diagnostic.self) {
      try CaptionFit.check(try JobParser.parse(six, file: "c.cfg"), fonts: fonts)
    }
    #expect(
      sixError?.message.hasSuffix("it holds 6 lines (shorten the text or use a smaller font)") == true,
      "\(String(describing: sixError))")
    let wide = job.split(separator: "\n").prefix(7).joined(separator: "\n") + "\n  - hold: 1\n    caption: \"Supercalifragilisticexpialidociously\""
    #expect(throws: Diagnostic(
      SourceLocation(file: "c.cfg", line: 9, column: 5),
      "timeline[1].caption: 'Supercalifragilisticexpialidociously' has a word wider than the 440-point-wide caption "
        + "at 30 pt (shorten the word, use a smaller font or a wider stage)"
    )) { try CaptionFit.check(try JobParser.parse(wide, file: "c.cfg"), fonts: fonts) }
    // A stage `size` narrower than its padding asks for narrows the caption alone: the padding is named.
    let padded = job.replacingOccurrences(of: "padding: 0", with: "size: [470, 1100], padding: 300")
    #expect(throws: Diagnostic(
      SourceLocation(file: "c.cfg", line: 3, column: 43),
      "stage.caption: 'Short' has a word wider than the 0-point-wide caption (the 470-point-wide stage less "
        + "stage.padding 300 on each side) at 30 pt (use less stage.padding, a smaller font or a shorter word)"
    )) { try CaptionFit.check(try JobParser.parse(padded, file: "c.cfg"), fonts: fonts) }
    let narrowed = job.replacingOccurrences(of: "padding: 0", with: "size: [470, 1100], padding: 100")
    #expect(throws: Diagnostic(
      SourceLocation(file: "c.cfg", line: 8, column: 5),
      "timeline[0].caption: 'A caption far too long to fit on one lin…' needs 4 lines in the "
        + "270-point-wide caption (the 470-point-wide stage less stage.padding 100 on each side) at 30 pt; it holds 1 line "
        + "(raise stage.caption.lines, use less stage.padding, shorten the text or use a smaller font)"
    )) { try CaptionFit.check(try JobParser.parse(narrowed, file: "c.cfg"), fonts: fonts) }
  }
}

/// Captions wrap as the screens' wrapped labels do (ICU's line breaks): Thai,
/// written without spaces, wraps between words found by dictionary instead
/// of counting as one word wider than the caption.
@Suite struct CaptionWrappingTests {
  static func job(_ text: String, lines: Int) -> String {
    """
    name: c
    canvas: { device: iphone-se, scale: 1 }
    stage: { padding: 0, caption: { text: "\(text)", font: 30, lines: \(lines) } }
    screens:
      a: {}
    timeline:
      - hold: 1
    """
  }

  @Test func thaiCaptionsWrapBetweenWords() throws {
    let fonts = try FontLibrary.system.get()
    let thai = "ภาษาไทยเขียนติดกันโดยไม่มีช่องว่างระหว่างคำ"
    try CaptionFit.check(try JobParser.parse(Self.job(thai, lines: 4), file: "c.cfg"), fonts: fonts)
    #expect(throws: Diagnostic.self) { try CaptionFit.check(try JobParser.parse(Self.job(thai, lines: 1), file: "c.cfg"), fonts: fonts) }
    do {
      try CaptionFit.check(try JobParser.parse(Self.job(thai, lines: 1), file: "c.cfg"), fonts: fonts)
    } catch {
      #expect(error.message.contains("needs 2 lines") || error.message.contains("needs 3 lines"), "\(error.message)")
      #expect(!error.message.contains("wider than"))
    }
  }

  /// Each line of a caption keeps its paragraph's direction, as a wrapped
  /// label's lines do: an English caption's second line "العربية and
  /// English" reads left to right (the Arabic word first, at the left) and
  /// an Arabic caption's "Apple Photos جدا" right to left. Each line of the
  /// caption is the same ink as that line of the text drawn as one label
  /// of `lines: 0` in the caption's width (on whole pixels here, where
  /// the canvas stands alone). (Each line
  /// took its own first strong character's direction: "and English
  /// العربية", "Apple Photos جدا".)
  @Test(arguments: [
    "Now in two new languages: العربية and English", "مرحبا بكم في التطبيق الجديد الرائع Apple Photos جدا",
  ])
  func eachCaptionLineKeepsItsParagraphsDirection(text: String) throws {
    let fonts = try FontLibrary.system.get()
    let spec = try JobParser.parse(
      """
      name: c
      canvas: { size: 460x301, scale: 1, fps: 10 }
      stage: { device: none, padding: 10, background: "#FFFFFF", caption: { text: "\(text)", lines: 2 } }
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 0.1
      """, file: "c.cfg")
    let stage = try #require(spec.stage)
    let area = StageLayout(stage: stage, canvas: spec.canvas).caption
    let frame = FrameRenderer(spec: spec, fonts: fonts).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    let block = Label(text, style: TextStyle(size: 28, weight: .bold, alignment: .center, lines: 0))
      .render(size: Size(width: area.width, height: 200), scale: 1, fonts: fonts)
    let drawn = Self.inkLines(width: frame.width, height: Int(area.maxY) + 4) { 255 - Int(frame[$0, $1].r) }
    let expected = Self.inkLines(width: block.width, height: block.height) { Int(block[$0, $1].a) }
    try #require(drawn.count == 2 && expected.count == 2, "\(drawn.count) and \(expected.count) lines of ink")
    for (i, (a, b)) in zip(drawn, expected).enumerated() {
      #expect(a.count == b.count && a.first?.count == b.first?.count, "line \(i + 1): \(a.first?.count ?? 0) and \(b.first?.count ?? 0) wide")
      let most = zip(a.joined(), b.joined()).map { abs($0 - $1) }.max() ?? 0
      #expect(most <= 2, "line \(i + 1): ink differs by up to \(most)")
    }
  }

  /// The runs of rows `ink` (0: none, to 255) marks, each as its rows cut
  /// to the run's inked columns.
  static func inkLines(width: Int, height: Int, _ ink: (Int, Int) -> Int) -> [[[Int]]] {
    func inked(_ x: Int, _ y: Int) -> Bool { ink(x, y) > 0 }
    var runs: [Range<Int>] = []
    var start: Int?
    for y in 0...height {
      let inked = y < height && (0..<width).contains { inked($0, y) }
      if inked, start == nil { start = y }
      if !inked, let first = start {
        runs.append(first..<y)
        start = nil
      }
    }
    return runs.map { rows in
      let columns = (0..<width).filter { x in rows.contains { inked(x, $0) } }
      return rows.map { y in (columns.first!...columns.last!).map { ink($0, y) } }
    }
  }
}

/// A caption's default ink reads on what is drawn under it: white at the
/// black end of a gradient, black at its white end and on a light colour,
/// whatever the appearance.
@Suite struct CaptionInkTests {
  /// The lightest and darkest luma in the caption's strip of the first frame.
  static func inkRange(stage: String, appearance: String = "light") throws -> (min: Int, max: Int) {
    let job = """
      name: c
      canvas: { size: 200x200, scale: 1, fps: 10 }
      appearances: [\(appearance)]
      stage: \(stage)
      screens: { a: { background: "#808080" } }
      timeline: [{ hold: 0.2 }]
      """
    let spec = try #require(try JobParser.parse(job, file: "c.cfg").localizedJobs().first)
    let renderer = FrameRenderer(spec: spec)
    let frame = renderer.frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
    let bottom = spec.stage?.caption?.position == .bottom
    let rows = bottom ? (frame.height - 40)..<(frame.height - 8) : 8..<40
    var (low, high) = (255, 0)
    for y in rows {
      for x in 0..<frame.width {
        let p = frame[x, y]
        let luma = (54 * Int(p.r) + 183 * Int(p.g) + 19 * Int(p.b)) >> 8
        (low, high) = (Swift.min(low, luma), Swift.max(high, luma))
      }
    }
    return (low, high)
  }

  @Test func theInkReadsOnWhatIsUnderIt() throws {
    let gradient = "background: { colors: [\"#000000\", \"#FFFFFF\"] }, padding: 10, device: none"
    // Top: over the black end, white ink (the mean over the whole gradient is a half: it was black).
    let top = try Self.inkRange(stage: "{ \(gradient), caption: { text: WWWW, font: 24 } }")
    #expect(top.max > 200, "\(top)")
    let bottom = try Self.inkRange(stage: "{ \(gradient), caption: { text: WWWW, font: 24, position: bottom } }")
    #expect(bottom.min < 60, "\(bottom)")
    // A light colour in a dark appearance: black ink.
    let light = try Self.inkRange(
      stage: "{ background: \"#DDE3EE\", padding: 10, device: none, caption: { text: WWWW, font: 24 } }", appearance: "dark")
    #expect(light.min < 60, "\(light)")
    // Pure red contrasts more with black (WCAG: 5.3 against 4.0): no white ink over it.
    let red = try Self.inkRange(stage: "{ background: \"#FF0000\", padding: 10, device: none, caption: { text: WWWW, font: 24 } }")
    #expect(red.max < 100, "\(red)")
  }
}

extension CaptionInkTests {
  /// Through a transparent stage shows what MP4 and GIF put there,
  /// `output.matte`: white ink over the default black, black over white.
  @Test func overATransparentStageTheInkReadsOnTheMatte() throws {
    func inkLuma(matte: String) throws -> Int {
      let job = """
        name: c
        canvas: { size: 200x200, scale: 1, fps: 10 }
        output: { formats: [png]\(matte) }
        stage: { background: transparent, padding: 10, device: none, caption: { text: WWWW, font: 24 } }
        screens: { a: { background: "#808080" } }
        timeline: [{ hold: 0.2 }]
        """
      let spec = try JobParser.parse(job, file: "c.cfg")
      let frame = FrameRenderer(spec: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
      // The mean luma of the caption's opaque pixels: its ink.
      var (sum, count) = (0, 0)
      for y in 8..<40 {
        for x in 0..<frame.width where frame[x, y].a == 255 {
          let p = frame[x, y]
          sum += (54 * Int(p.r) + 183 * Int(p.g) + 19 * Int(p.b)) >> 8
          count += 1
        }
      }
      try #require(count > 20)
      return sum / count
    }
    #expect(try inkLuma(matte: "") > 200)
    #expect(try inkLuma(matte: ", matte: \"#FFFFFF\"") < 60)
  }
}

/// Built-ins that follow the device: an iPad sheet is a centred card; a
/// magic move's vacated slot shows its placeholder.
@Suite struct DeviceTransitionTests {
  @Test func aSheetOnIPadIsACentredCard() throws {
    func job(_ device: String) -> String {
      """
      name: p
      canvas: { device: \(device), scale: 1, fps: 10 }
      screens:
        a: { background: "#FFFFFF" }
        b: { background: "#FF0000" }
      timeline:
        - present: { to: b, transition: sheet }
        - hold: 0.2
      """
    }
    // UIKit's form-sheet size for the screen's longest side (UIKIT.md §2):
    // 580 × 640 from 1024 to 1590 pt, the three presets'.
    for (device, w, h) in [("ipad-11", 834, 1194), ("ipad-13", 1024, 1366), ("ipad-mini", 744, 1133)] {
      let spec = try JobParser.parse(job(device), file: "p.cfg")
      let renderer = FrameRenderer(spec: spec)
      let last = renderer.frame(renderer.frameCount - 1, width: w, height: h)
      // The card in the middle; around it the presenting screen, dimmed in place (not receded).
      let (left, top) = ((w - 580) / 2, (h - 640) / 2)
      #expect(last[w / 2, h / 2] == Pixel(r: 255, g: 0, b: 0, a: 255), "\(device)")
      #expect(last[left + 5, top + 5] == Pixel(r: 255, g: 0, b: 0, a: 255), "\(device)")
      #expect(last[left + 575, top + 635] == Pixel(r: 255, g: 0, b: 0, a: 255), "\(device)")
      #expect(last[left - 3, h / 2].r == last[0, 0].r && last[0, 0].r < 255 && last[0, 0].r > 180, "\(device)")
      #expect(last[left + 583, h / 2].r == last[0, 0].r, "\(device)")
      #expect(last[w / 2, top - 3].g == last[0, 0].g && last[w / 2, top + 643].g == last[0, 0].g, "\(device)")
    }
    // On an iPhone the same step is a full-width page sheet.
    let phone = try JobParser.parse(job("iphone-15"), file: "p.cfg")
    let sheet = FrameRenderer(spec: phone).frame(FrameRenderer(spec: phone).frameCount - 1, width: 393, height: 852)
    #expect(sheet[5, 600] == Pixel(r: 255, g: 0, b: 0, a: 255))
  }

  /// In a right-to-left locale an iPad's form-sheet card lays its screen
  /// out right to left in its own width: a view at the screen's leading
  /// edge shows at the card's right edge (it was mirrored about the whole
  /// screen's width, out of the card, which stayed blank).
  @Test func anIPadSheetShowsItsScreensLeadingPartRightToLeft() throws {
    let job = """
      name: p
      canvas: { device: ipad-11, scale: 1, fps: 10 }
      locales: [he]
      screens:
        a: { background: "#FFFFFF" }
        b:
          background: "#FFFFFF"
          views: [{ frame: [0, 0, 200, 100], color: "#FF0000" }]
      timeline:
        - present: { to: b, transition: sheet }
        - hold: 0.2
      """
    let spec = try #require(try JobParser.parse(job, file: "p.cfg").localizedJobs().first)
    let renderer = FrameRenderer(spec: spec)
    let last = renderer.frame(renderer.frameCount - 1, width: 834, height: 1194)
    let (left, top) = ((834 - 580) / 2, (1194 - 640) / 2)
    #expect(last[left + 575, top + 50] == Pixel(r: 255, g: 0, b: 0, a: 255), "\(last[left + 575, top + 50])")
    #expect(last[left + 385, top + 50] == Pixel(r: 255, g: 0, b: 0, a: 255), "\(last[left + 385, top + 50])")
    #expect(last[left + 370, top + 50] == Pixel(r: 255, g: 255, b: 255, a: 255), "\(last[left + 370, top + 50])")
  }

  /// A sheet step presenting a blue screen over a red one on `canvas`, at 1x and 10 fps.
  static func sheetJob(canvas: String, appearances: String = "", then steps: String = "") -> String {
    """
    name: p
    canvas: { \(canvas), scale: 1, fps: 10 }\(appearances)
    screens:
      a: { background: "#FF0000" }
      b: { background: "#0000FF" }
    timeline:
      - present: { to: b, transition: sheet }
      - hold: 0.2\(steps)
    """
  }

  /// An iPhone held in landscape shows no status bar (safe-area top 0) and
  /// is compact in height, where the gap is 8 pt: the sheet rests at 8 pt,
  /// the presenting screen's top at 0.
  @Test func aSheetInLandscapeRestsEightPointsBelowTheTop() throws {
    let job = Self.sheetJob(canvas: "device: iphone-15, orientation: landscape")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "p.cfg"))
    let last = renderer.frame(renderer.frameCount - 1, width: 852, height: 393)
    #expect(last[426, 10].b == 255 && last[426, 10].r == 0, "the sheet from 8 pt: \(last[426, 10])")
    #expect(last[426, 6].b == 0 && last[426, 6].r > 150, "the receding screen above it: \(last[426, 6])")
    #expect(last[426, 1].r > 150, "the receding screen's top at 0: \(last[426, 1])")
  }

  /// A size that is no device rests the sheet 10 pt below the
  /// `safeAreaTop` parameter's 59, but one laid out as an iPhone held
  /// sideways (wider than tall, under 500 pt high), which draws no status
  /// bar and its nav bar at the top, 8 pt below the top with the receding
  /// screen's top at 0, as on `852x393`, not 67 pt down under a 59 pt black
  /// band; as README says.
  @Test(arguments: [(800, 400, 8), (600, 499, 8), (400, 800, 69), (600, 500, 69)])
  func aSheetOnASizeThatIsNoDeviceRestsBelowItsSafeArea(width: Int, height: Int, top: Int) throws {
    let job = Self.sheetJob(canvas: "size: \(width)x\(height)")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "p.cfg"))
    let last = renderer.frame(renderer.frameCount - 1, width: width, height: height)
    #expect(last[width / 2, top].b == 255 && last[width / 2, top].r == 0, "the sheet from \(top) pt: \(last[width / 2, top])")
    #expect(last[width / 2, top - 2].b == 0 && last[width / 2, top - 2].r > 150, "the receding screen above it")
    let receding = top == 8 ? 0 : 59
    #expect(last[width / 2, receding + 1].r > 150, "the receding screen's top at \(receding): \(last[width / 2, receding + 1])")
    // README says so.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let prose = readme.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(prose.contains("laid out as an iPhone held sideways (no status bar), 8 pt below the top, as on `852x393`: at 8 on `800x400`"))
  }

  /// A canvas given only as a device's screen size is that device, held
  /// as the size is: a sheet on `852x393` rests 8 pt below the top with the
  /// receding screen's top at 0, as an iPhone 15 in landscape (not 67 pt
  /// under a black band), on `390x844` 10 pt under iPhone 14's 47, and
  /// `744x1133` presents iPad mini's form-sheet card: every frame is the
  /// one of the job that names the device.
  @Test(arguments: [
    ("size: 852x393", "device: iphone-15, orientation: landscape"), ("size: 390x844", "device: iphone-14"),
    ("size: 744x1133", "device: ipad-mini"),
  ])
  func aSheetOnADevicesSizeRestsAsOnTheDevice(size: String, device: String) throws {
    let bySize = FrameRenderer(spec: try JobParser.parse(Self.sheetJob(canvas: size), file: "p.cfg"))
    let byDevice = FrameRenderer(spec: try JobParser.parse(Self.sheetJob(canvas: device), file: "p.cfg"))
    let canvas = bySize.spec.canvas
    let (w, h) = (canvas.pixelWidth, canvas.pixelHeight)
    #expect(bySize.frameCount == byDevice.frameCount)
    let differing = (0..<bySize.frameCount).filter { bySize.frame($0, width: w, height: h) != byDevice.frame($0, width: w, height: h) }
    #expect(differing.isEmpty, "\(size): frames \(differing) differ from \(device)'s")
    let last = bySize.frame(bySize.frameCount - 1, width: w, height: h)
    if size == "size: 852x393" {
      #expect(last[426, 10].b == 255 && last[426, 10].r == 0, "the sheet from 8 pt: \(last[426, 10])")
      #expect(last[426, 1].r > 150, "the receding screen's top at 0: \(last[426, 1])")
    } else if size == "size: 390x844" {
      #expect(last[195, 59].b == 255 && last[195, 55].b == 0, "the sheet from 57 pt")
    } else {
      // A centred 580 × 640 card (x 82…662); the screen beside it is red, dimmed.
      #expect(last[372, 566].b == 255 && last[50, 566].r > 150 && last[50, 566].b == 0, "\(last[372, 566]) \(last[50, 566])")
    }
  }

  /// A canvas of no device's size that a stage shows in an iPad is laid
  /// out as the iPad's screen, so a sheet presents as its centred
  /// form-sheet card, UIKit's size for the canvas's longest side:
  /// `size: 1000x700` beside `stage: { device: ipad-11 }` rested full
  /// width 69 pt down (the parameter's 59 and 10), as on a phone. Every
  /// frame of the canvas is the one of the job that names the iPad.
  @Test(arguments: [
    ("1000x700", "ipad-11", 540, 600), ("700x1100", "ipad-mini", 580, 640), ("1600x1000", "ipad-13", 620, 680),
  ])
  func aSheetInAStageIPadIsItsFormSheet(size: String, device: String, cardWidth: Int, cardHeight: Int) throws {
    func canvasFrames(_ canvas: String, stage: String) throws -> [Bitmap] {
      var spec = try JobParser.parse(Self.sheetJob(canvas: canvas, appearances: stage), file: "p.cfg")
      spec.stage = nil
      let renderer = FrameRenderer(spec: spec)
      return (0..<renderer.frameCount).map { renderer.frame($0, width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight) }
    }
    let staged = try canvasFrames("size: \(size)", stage: "\nstage: { device: \(device) }")
    let named = try canvasFrames("device: \(device), size: \(size)", stage: "")
    let same = staged == named
    #expect(same, "\(size) in \(device)")
    let last = try #require(staged.last)
    let (w, h) = (last.width, last.height)
    let (left, top) = ((w - cardWidth) / 2, (h - cardHeight) / 2)
    for (x, y) in [(left + 3, top + 3), (left + cardWidth - 4, top + cardHeight - 4), (w / 2, h / 2)] {
      #expect(last[x, y] == Pixel(r: 0, g: 0, b: 255, a: 255), "the card at (\(x), \(y)): \(last[x, y])")
    }
    for (x, y) in [(left - 3, h / 2), (left + cardWidth + 2, h / 2), (w / 2, top - 3), (w / 2, top + cardHeight + 2)] {
      #expect(last[x, y].b == 0 && last[x, y].r > 150, "the screen dimmed in place at (\(x), \(y)): \(last[x, y])")
    }
  }

  /// An iPad's form sheet on a screen too low for it stays inside the
  /// safe area, shortened, as iPadOS keeps it below the status bar: on
  /// `900x560` in an iPad (a stage's or the canvas's own) the 540 × 600
  /// card is 512 pt high, 24 pt from the top and from the bottom. It was
  /// 560 pt high from the very top, under the status bar.
  @Test(arguments: [("size: 900x560", "\nstage: { device: ipad-11 }"), ("device: ipad-11, size: 900x560", "")])
  func anIPadFormSheetTooTallForTheScreenStaysBelowTheStatusBar(canvas: String, stage: String) throws {
    var spec = try JobParser.parse(Self.sheetJob(canvas: canvas, appearances: stage), file: "p.cfg")
    spec.stage = nil
    let renderer = FrameRenderer(spec: spec)
    let last = renderer.frame(renderer.frameCount - 1, width: 900, height: 560)
    // The card spans x 180…720, y 24…536.
    for (x, y) in [(450, 24), (450, 535), (180, 280), (719, 280)] {
      #expect(last[x, y] == Pixel(r: 0, g: 0, b: 255, a: 255), "\(canvas): the card at (\(x), \(y)): \(last[x, y])")
    }
    for (x, y) in [(450, 23), (450, 536), (179, 280), (720, 280)] {
      #expect(last[x, y].b == 0 && last[x, y].r > 150, "\(canvas): the screen dimmed at (\(x), \(y)): \(last[x, y])")
    }
  }

  /// A card's edge at a fractional row is covered once, not by the card's
  /// clip times its screen's own edge: through the sheet's middle column
  /// the blue adds up to the rows below its top (852 − 825.9 pt a thirtieth
  /// of the way up, its first row 26 of 255, not 3), and an iPad's
  /// 580 × 640 form-sheet card, its top and bottom at half rows, to 640.
  @Test func aSheetsEdgesAreCoveredOnce() throws {
    let job = Self.sheetJob(canvas: "device: iphone-15").replacingOccurrences(
      of: "transition: sheet }", with: "transition: sheet, duration: 3, curve: linear }")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "p.cfg"))
    let rising = renderer.frame(1, width: 393, height: 852)
    let top = 852 + (69 - 852) / 30.0
    let blue = (0..<852).map { Double(rising[196, $0].b) / 255 }.reduce(0, +)
    #expect(abs(blue - (852 - top)) < 0.01, "sheet: \(blue) rows of blue, \(852 - top) below its top")
    #expect(rising[196, 825].b == UInt8((0.1 * 255).rounded()), "\(rising[196, 825])")

    let pad = FrameRenderer(spec: try JobParser.parse(Self.sheetJob(canvas: "device: ipad-mini"), file: "p.cfg"))
    let rest = pad.frame(pad.frameCount - 1, width: 744, height: 1133)
    let card = (0..<1133).map { Double(rest[372, $0].b) / 255 }.reduce(0, +)
    #expect(abs(card - 640) < 0.01, "the form-sheet card: \(card) rows of blue")
  }

  /// A sheet dragged down follows the finger, as UIKit's own sheet pan
  /// moves it (not along the spring, which left the finger 200 pt behind):
  /// at every frame of the tracking, its top is as far below its rest as the
  /// finger has travelled; percentComplete 1 is the top at the screen's bottom.
  @Test func aDraggedSheetFollowsTheFinger() throws {
    let job = Self.sheetJob(
      canvas: "device: iphone-15", then: "\n  - dismiss: { gesture: { direction: down, distance: [0, 100, 250, 500], interval: 0.2 } }")
    let spec = try JobParser.parse(job, file: "p.cfg")
    guard case .transition(let step) = spec.timeline[2], let gesture = step.gesture else {
      Issue.record("no gesture step")
      return
    }
    // 852 − (59 + 10) = 783 pt from rest to the bottom.
    #expect(gesture.travel == Size(width: 0, height: 783) && gesture.progress == [0, 100, 250, 500].map { $0 / 783 })
    let renderer = FrameRenderer(spec: spec)
    let start = 5 + 2  // the present (0.5 s) and the hold (0.2 s) at 10 fps
    for k in 0...6 {
      let frame = renderer.frame(start + k, width: 393, height: 852)
      let finger = k < 6 ? [0.0, 100, 250, 500][k / 2] + ([0.0, 100, 250, 500][k / 2 + 1] - [0.0, 100, 250, 500][k / 2]) * Double(k % 2) / 2 : 500
      let top = (0..<852).first { frame[196, $0].b > 200 && frame[196, $0].r < 60 }
      #expect(top.map { abs(Double($0) - (69 + finger)) <= 1 } == true, "frame \(k): sheet top \(top ?? -1), finger \(finger)")
    }
  }

  /// A finger dragging a sheet starts on its top and goes at most to the
  /// screen's bottom: its `distance` is at most the sheet's way (783 pt on
  /// an iPhone 15, 886.5 on an iPad mini's card), an error at the sample
  /// past it. The screen's height (852, 1133) was the limit, and a sample
  /// past the way was cut to percentComplete 1 before the frames between
  /// samples were worked out, so the sheet fell behind the finger there.
  @Test func aSheetDragGoesNoFurtherThanTheSheetsWay() throws {
    func parse(_ device: String, _ distance: String) throws(Diagnostic) -> JobSpec {
      let drag = "\n  - dismiss: { gesture: { direction: down, distance: [0, 100, \(distance)] } }"
      return try JobParser.parse(Self.sheetJob(canvas: "device: \(device)", then: drag), file: "p.cfg")
    }
    guard case .transition(let step) = try parse("iphone-15", "783").timeline[2] else {
      Issue.record("no gesture step")
      return
    }
    #expect(step.gesture?.progress == [0, 100.0 / 783, 1])
    for (device, way, past) in [("iphone-15", "783", "784"), ("ipad-mini", "886.5", "887")] {
      do {
        _ = try parse(device, past)
        Issue.record("\(device): parsed a drag \(past) pt down")
      } catch {
        #expect(
          error.description
            == "p.cfg:9:63: error: timeline[2].dismiss.gesture.distance[2]: expected a distance in points from 0 to \(way) "
            + "(the sheet's way, from its rest to the screen's bottom), got \(past)")
      }
    }
  }

  /// A sheet drag written as `progress:` follows the finger as its
  /// `distance:` form does: linear while tracking, the top the sample's
  /// fraction of the way from rest to the screen's bottom (not along the
  /// sheet's spring, which had it 92 % of the way down at 0.45).
  @Test func aSheetDraggedByProgressFollowsTheFinger() throws {
    let samples = [0, 0.3, 0.45]
    let job = Self.sheetJob(
      canvas: "device: iphone-15",
      then: "\n  - dismiss: { gesture: { progress: [0, 0.3, 0.45], release: cancel, interval: 0.2 } }")
    let spec = try JobParser.parse(job, file: "p.cfg")
    let renderer = FrameRenderer(spec: spec)
    let start = 5 + 2  // the present (0.5 s) and the hold (0.2 s) at 10 fps
    for k in 0...4 {
      let frame = renderer.frame(start + k, width: 393, height: 852)
      let p = samples[k / 2] + (k < 4 ? (samples[k / 2 + 1] - samples[k / 2]) * Double(k % 2) / 2 : 0)
      let top = (0..<852).first { frame[196, $0].b > 200 && frame[196, $0].r < 60 }
      // 852 − (59 + 10) = 783 pt from rest to the bottom.
      #expect(top.map { abs(Double($0) - (69 + 783 * p)) <= 1 } == true, "frame \(k): sheet top \(top ?? -1), p \(p)")
    }
  }

  /// A sheet rests 10 pt below the device's own safe-area top (UIKIT.md
  /// §2; the presets' insets as `transvid list devices` gives them), the
  /// presenting screen's top at the safe-area top; in the dark the screen
  /// below is dimmed by 0.48, not 0.2.
  @Test(arguments: [("iphone-se", 20.0), ("iphone-14", 47.0), ("iphone-15", 59.0), ("iphone-16-pro", 62.0)])
  func aSheetRestsBelowItsDevicesSafeArea(device: String, safeAreaTop: Double) throws {
    #expect(DevicePreset.named(device)?.safeAreaTop == safeAreaTop)
    let job = Self.sheetJob(canvas: "device: \(device)", appearances: "\nappearances: [light, dark]")
    for look in try JobParser.parse(job, file: "p.cfg").localizedJobs() {
      let renderer = FrameRenderer(spec: look)
      let preset = try #require(DevicePreset.named(device))
      let (w, h) = (Int(preset.size.width), Int(preset.size.height))
      let last = renderer.frame(renderer.frameCount - 1, width: w, height: h)
      let top = Int(safeAreaTop) + 10
      #expect(last[w / 2, top + 2].b == 255 && last[w / 2, top + 2].r == 0, "\(device): the sheet at \(top) pt")
      #expect(last[w / 2, top - 2].b == 0, "\(device): the sheet not above \(top) pt")
      // The presenting screen behind, dimmed: red 255 × (1 − dimming).
      let dimming = look.appearance == "dark" ? 0.48 : 0.2
      let behind = last[w / 2, top - 5]
      #expect(abs(Double(behind.r) - 255 * (1 - dimming)) <= 1.5, "\(device) \(look.appearance ?? ""): \(behind)")
    }
  }

  /// A magic move at 10 fps over 1 s, linear: `listViews` (flow YAML
  /// items, the element `thumb` among them) to a detail screen's `hero`.
  static func magicMoveJob(listViews: String, placeholder: String) -> String {
    """
    name: m
    canvas: { size: 100x200, scale: 1, fps: 10 }
    screens:
      list:
        background: "#FFFFFF"
        views: [\(listViews)]
      detail:
        background: "#FFFFFF"
        views: [{ id: hero, frame: [0, 100, 100, 100], color: "#0000FF" }]
    timeline:
      - push: { to: detail, transition: magic-move, element: { from: thumb, to: hero }, curve: linear, duration: 1\(placeholder) }
    """
  }

  @Test func magicMoveFillsTheVacatedSlot() throws {
    func job(_ placeholder: String) -> String {
      Self.magicMoveJob(listViews: "{ id: thumb, frame: [10, 10, 30, 30], color: \"#0000FF\" }", placeholder: placeholder)
    }
    // A placeholder that is neither names both choices, and the colour it may have meant.
    #expect(throws: Diagnostic(
      SourceLocation(file: "m.cfg", line: 11, column: 126),
      "timeline[0].push.placeholder: expected blur or a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, "
        + "got \"sytemBlue\"; did you mean 'systemBlue'?")) {
      try JobParser.parse(job(", placeholder: sytemBlue"), file: "m.cfg")
    }
    let with = FrameRenderer(spec: try JobParser.parse(job(", placeholder: \"#00FF00\""), file: "m.cfg"))
    let without = FrameRenderer(spec: try JobParser.parse(job(""), file: "m.cfg"))
    let a = with.frame(3, width: 100, height: 200), b = without.frame(3, width: 100, height: 200)
    // At 30 % the copy has left the slot: green under the fading-in detail, else the list's hidden view (white).
    #expect(a[12, 12].g > 150 && a[12, 12].r < 200)
    #expect(b[12, 12] == Pixel(r: 255, g: 255, b: 255, a: 255))
  }

  /// `placeholder: blur`: the slot shows what the list has there (here a
  /// sharp red|blue edge under the hidden element, as a screenshot's own
  /// thumbnail would be) smoothed, and nothing outside the slot changes.
  @Test func magicMoveBlursTheVacatedSlot() throws {
    func job(_ placeholder: String) -> String {
      Self.magicMoveJob(
        listViews: """
          { frame: [10, 10, 15, 30], color: "#FF0000" }, { frame: [25, 10, 15, 30], color: "#0000FF" },
          { id: thumb, frame: [10, 10, 30, 30], color: "#00FF00" }
          """, placeholder: placeholder)
    }
    let blurred = FrameRenderer(spec: try JobParser.parse(job(", placeholder: blur"), file: "m.cfg"))
    let sharp = FrameRenderer(spec: try JobParser.parse(job(""), file: "m.cfg"))
    let a = blurred.frame(3, width: 100, height: 200), b = sharp.frame(3, width: 100, height: 200)
    // Without: the list's own red beside the edge, under the detail fading in (30 %).
    #expect(b[23, 25].r > 200 && b[23, 25].b < 100, "\(b[23, 25])")
    // With blur: blue reaches across the edge, red across the other way.
    #expect(Int(a[23, 25].b) > Int(b[23, 25].b) + 30 && Int(a[23, 25].r) < Int(b[23, 25].r) - 30, "\(a[23, 25])")
    #expect(Int(a[26, 25].r) > Int(b[26, 25].r) + 30, "\(a[26, 25]) vs \(b[26, 25])")
    // Far inside each half the colour stays its own; outside the slot nothing changes.
    #expect(a[11, 25].r > a[11, 25].b && a[38, 25].b > a[38, 25].r)
    #expect(a[60, 25] == b[60, 25] && a[25, 50] == b[25, 50])
  }
}
