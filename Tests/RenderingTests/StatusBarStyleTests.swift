import Jobs
import Raster
import Rendering
import Testing

/// The drawn status bar as iOS shows it: its glyphs dark over light screens
/// and light over dark ones unless a style is given, cross-fading through a
/// push between the two; hidden on an iPhone in landscape; following a dark
/// appearance.
@Suite struct StatusBarStyleTests {
  /// A linear push at 10 fps over 1 s from a white screen to a black one.
  static func pushJob(canvas: String = "device: iphone-15", style: String = "") -> String {
    """
    name: b
    canvas: { \(canvas), scale: 1, fps: 10, statusBar: { time: "9:41"\(style) } }
    screens:
      white: { background: "#FFFFFF" }
      black: { background: "#000000" }
    timeline:
      - push: { to: black, transition: push, curve: linear, duration: 1 }
      - hold: 0.2
    """
  }

  /// A pixel inside the battery's level bar (20.5 × 8 pt at x 342.75, y 25.67
  /// on an iPhone 15): the glyphs' ink itself.
  static let battery = (x: 350, y: 29)

  static func frames(_ job: String) throws -> (FrameRenderer, (Int) -> Bitmap) {
    let spec = try JobParser.parse(job, file: "b.cfg")
    let renderer = FrameRenderer(spec: spec, fonts: try FontLibrary.system.get())
    return (renderer, { renderer.frame($0, width: spec.framePixelWidth, height: spec.framePixelHeight) })
  }

  @Test func autoStyleFollowsTheScreenAndCrossFadesThroughAPush() throws {
    let (renderer, frame) = try Self.frames(Self.pushJob())
    let (x, y) = Self.battery
    // Dark glyphs over the white screen, light over the black one.
    #expect(frame(0)[x, y] == Pixel(r: 0, g: 0, b: 0, a: 255))
    #expect(frame(renderer.frameCount - 1)[x, y] == Pixel(r: 255, g: 255, b: 255, a: 255))
    // Half way through the push the ink is half way between.
    let mid = frame(5)[x, y]
    #expect(abs(Int(mid.r) - 128) <= 2 && mid.r == mid.g && mid.g == mid.b, "\(mid)")
  }

  /// A back-swipe the finger cancels between a black screen and the white
  /// one below: the ink goes the way the screens go, toward the white
  /// screen's dark glyphs as the finger drags it into view and back as it
  /// returns, on the step's clock as the screenshots' strips cross-fade,
  /// and the bar ends in the black screen's style. It stayed white through
  /// the gesture, white glyphs over the white screen the drag uncovered.
  @Test func aCancelledSwipeBackFadesTheInkTowardTheScreenBelowAndBack() throws {
    let job = Self.pushJob().replacing("\"9:41\" }", with: "\"9:41\" }, homeIndicator: true") + """

        - pop: { gesture: { direction: right, distance: [0, 118, 236], interval: 0.1, release: cancel } }
        - hold: 0.2
      """
    let (renderer, frame) = try Self.frames(job)
    let (x, y) = Self.battery
    let indicator = (x: 196, y: 841)
    // The pop starts at frame 12; the finger is 0.3 and 0.6 of the way at
    // frames 13 and 14, lifts, and the screens are back by frame 16.
    #expect(renderer.frameCount == 18)
    for (n, share) in [(12, 0.0), (13, 0.3), (14, 0.6), (16, 0.0), (17, 0.0)] {
      let ink = 255 * (1 - share)
      let bar = frame(n)[x, y], bottom = frame(n)[indicator.x, indicator.y]
      let near = abs(Double(bar.r) - ink) <= 2 && abs(Double(bottom.r) - ink) <= 2
      #expect(near, "frame \(n): \(bar), \(bottom), expected \(ink)")
    }
    #expect(frame(17)[x, y] == Pixel(r: 255, g: 255, b: 255, a: 255))
  }

  /// Through a step's `delay` the old screen shows alone, and so does its
  /// style: the glyphs' ink and the screenshots' strips start to change
  /// when the animation does. Both had gone half way by the end of a 1 s
  /// delay before a 1 s push, over the white screen still alone.
  @Test func theStyleWaitsThroughAStepsDelay() throws {
    let delayed = Self.pushJob().replacing("duration: 1 }", with: "duration: 1, delay: 1 }")
    let (renderer, frame) = try Self.frames(delayed)
    let (x, y) = Self.battery
    #expect(renderer.frameCount == 22)
    for n in [0, 5, 9, 10] { #expect(frame(n)[x, y] == Pixel(r: 0, g: 0, b: 0, a: 255), "frame \(n)") }
    let mid = frame(15)[x, y]
    #expect(abs(Int(mid.r) - 128) <= 2, "\(mid)")
    #expect(frame(21)[x, y] == Pixel(r: 255, g: 255, b: 255, a: 255))
    // The screenshots' own strip alike.
    let (_, strip) = try Self.frames(delayed.replacing("statusBar: { time: \"9:41\" }", with: "statusBar: 54"))
    for n in [0, 5, 9, 10] { #expect(strip(n)[100, 20] == Pixel(r: 255, g: 255, b: 255, a: 255), "frame \(n)") }
    let half = strip(15)[100, 20]
    #expect(abs(Int(half.r) - 128) <= 2, "\(half)")
  }

  @Test func aGivenStyleStays() throws {
    let (renderer, dark) = try Self.frames(Self.pushJob(style: ", style: dark"))
    let (x, y) = Self.battery
    #expect(dark(0)[x, y] == Pixel(r: 0, g: 0, b: 0, a: 255))
    #expect(dark(renderer.frameCount - 1)[x, y] == Pixel(r: 0, g: 0, b: 0, a: 255))
    let (_, light) = try Self.frames(Self.pushJob(style: ", style: light"))
    #expect(light(0)[x, y] == Pixel(r: 255, g: 255, b: 255, a: 255))
  }

  /// Pixels of the top 24 points that are not the screen's own white.
  static func inkInTheTopStrip(_ bitmap: Bitmap) -> Int {
    var n = 0
    for y in 0..<24 { for x in 0..<bitmap.width where bitmap[x, y] != Pixel(r: 255, g: 255, b: 255, a: 255) { n += 1 } }
    return n
  }

  /// The job's notes on its status bar.
  static func statusBarNotes(_ job: String) throws -> [String] {
    try JobParser.parse(job, file: "b.cfg").notes.map(\.description).filter { $0.contains("statusBar") }
  }

  /// `pushJob` after a hold of 0.1 s: frame 0 is the white screen alone
  /// (the push's own first frame has its edge shadow at the right edge).
  static func heldPushJob(canvas: String) -> String {
    pushJob(canvas: canvas).replacing("  - push:", with: "  - hold: 0.1\n  - push:")
  }

  @Test func anIPhoneInLandscapeHidesTheBarAndSaysSo() throws {
    let job = Self.heldPushJob(canvas: "device: iphone-15, orientation: landscape")
    #expect(
      try Self.statusBarNotes(job) == [
        "b.cfg:2:84: note: canvas.statusBar: iOS shows no status bar on an iPhone in landscape; it is not drawn "
          + "(hold the device in portrait, or use an iPad, to show one)"
      ])
    let (_, phone) = try Self.frames(job)
    #expect(Self.inkInTheTopStrip(phone(0)) == 0)
    // An iPad keeps its status bar in landscape.
    let (_, pad) = try Self.frames(job.replacing("device: iphone-15", with: "device: ipad-11"))
    #expect(Self.inkInTheTopStrip(pad(0)) > 50)
  }

  /// A canvas of no device laid out as an iPhone held sideways (wider
  /// than tall, under 500 pt high: its nav bar at the top, 32 pt tall)
  /// shows no status bar either: `size: 800x400` drew an iPad's bar over
  /// its nav bar's title. One 500 pt high keeps it.
  @Test func aCanvasLaidOutAsAnIPhoneInLandscapeHidesTheBar() throws {
    let job = Self.heldPushJob(canvas: "size: 800x400")
    #expect(
      try Self.statusBarNotes(job) == [
        "b.cfg:2:56: note: canvas.statusBar: iOS shows no status bar on an iPhone in landscape, as which a canvas "
          + "wider than tall and under 500 points high is laid out (its nav bar at the top); it is not drawn "
          + "(make the canvas 500 points high or more, or name a device, to show one)"
      ])
    let (_, wide) = try Self.frames(job)
    #expect(Self.inkInTheTopStrip(wide(0)) == 0)
    let (_, tall) = try Self.frames(job.replacing("size: 800x400", with: "size: 800x500"))
    #expect(Self.inkInTheTopStrip(tall(0)) > 50)
    #expect(try Self.statusBarNotes(job.replacing("size: 800x400", with: "size: 800x500")).isEmpty)
  }

  /// The screenshots' own strip alike: not held still in landscape on an
  /// iPhone (a sheet's card top went under the first screen's strip).
  @Test func anIPhoneInLandscapeHoldsNoStripOfTheScreenshots() throws {
    let job = """
      name: b
      canvas: { device: iphone-15, orientation: landscape, scale: 1, fps: 10, statusBar: 54 }
      screens:
        a: { background: "#FFFFFF", views: [ { frame: [20, 10, 100, 30], color: "#34C759" } ] }
        b: { background: "#FF3B30", views: [ { frame: [0, 0, 852, 20], color: "#0000FF" } ] }
      timeline:
        - present: { to: b, transition: sheet }
        - hold: 0.2
      """
    #expect(
      try Self.statusBarNotes(job) == [
        "b.cfg:2:84: note: canvas.statusBar: iOS shows no status bar on an iPhone in landscape; the screens' top 54 "
          + "points move with them (hold the device in portrait, or use an iPad, to show one)"
      ])
    let (renderer, strip) = try Self.frames(job)
    let (_, none) = try Self.frames(job.replacing(", statusBar: 54", with: ""))
    for i in [2, 5, renderer.frameCount - 1] {
      let same = strip(i) == none(i)
      #expect(same, "frame \(i)")
    }
  }

  /// The columns of `bitmap`'s top `rows` rows that hold ink (not white),
  /// as runs at least `gap` pixels apart: the glyph groups, left to right.
  static func inkGroups(_ bitmap: Bitmap, rows: Int, gap: Int = 12) -> [ClosedRange<Int>] {
    let columns = (0..<bitmap.width).filter { x in
      (0..<rows).contains { bitmap[x, $0] != Pixel(r: 255, g: 255, b: 255, a: 255) }
    }
    var groups: [ClosedRange<Int>] = []
    for x in columns {
      if let last = groups.last, x - last.upperBound <= gap {
        groups[groups.count - 1] = last.lowerBound...x
      } else {
        groups.append(x...x)
      }
    }
    return groups
  }

  /// A home-button iPhone's 20 pt bar has no ears: the time in the middle,
  /// cellular and Wi-Fi at the left edge, the battery at the right.
  @Test func aHomeButtonIPhoneCentresTheTime() throws {
    let job = Self.heldPushJob(canvas: "device: iphone-se").replacing("scale: 1", with: "scale: 2")
    let (_, frame) = try Self.frames(job)
    let groups = Self.inkGroups(frame(0), rows: 40)
    // Cellular, Wi-Fi, the time, the battery (375 pt at 2x: 750 px).
    guard groups.count == 4 else {
      Issue.record("cellular, Wi-Fi, the time and the battery as four groups: \(groups)")
      return
    }
    #expect(groups[0].lowerBound == 12, "cellular at 6 pt: \(groups)")
    let timeCentre = Double(groups[2].lowerBound + groups[2].upperBound) / 2
    #expect(abs(timeCentre - 375) <= 2, "the time centred: \(groups)")
    #expect(groups[2].count < 64, "12 pt digits: \(groups)")
    #expect(groups[3].upperBound == 737, "the battery's cap ends 6 pt from the edge: \(groups)")
  }

  /// A canvas of no device's size that a stage shows in an upright iPhone
  /// SE is laid out as the SE's screen, so its drawn bar is the SE's: 20 pt
  /// tall, the time centred at 12 pt, cellular and Wi-Fi at the left edge
  /// and the battery at the right, as on `device: iphone-se`. `size:
  /// 400x700` drew the notched phones' bar (a 17 pt time in the left ear,
  /// the icons in the right), and `300x700`, over twice as tall as wide,
  /// a 59 pt bar with its nav bar under it. Upright by `orientation:
  /// portrait` beside a wide canvas too.
  @Test(arguments: [("400x700", ""), ("300x700", ""), ("800x400", ", orientation: portrait")])
  func aCanvasInAStageIPhoneSEDrawsTheSEsBar(size: String, orientation: String) throws {
    let job = Self.heldPushJob(canvas: "size: \(size)\(orientation)")
      .replacing("scale: 1", with: "scale: 2")
      .replacing("screens:", with: "stage: { device: iphone-se }\nscreens:")
    var spec = try JobParser.parse(job, file: "b.cfg")
    let barred = try JobParser.parse(
      job.replacing("white: { background: \"#FFFFFF\" }", with: "white: { views: [ { kind: navbar } ] }"), file: "b.cfg")
    #expect(spec.canvas.statusBar?.height == 20 && barred.screens[0].views[0].frame.height == 64, "\(size)")
    spec.stage = nil
    let frame = FrameRenderer(spec: spec, fonts: try FontLibrary.system.get())
      .frame(0, width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight)
    let groups = Self.inkGroups(frame, rows: 40)
    guard groups.count == 4 else {
      Issue.record("\(size): cellular, Wi-Fi, the time and the battery as four groups: \(groups)")
      return
    }
    let width = spec.canvas.pixelWidth
    #expect(groups[0].lowerBound == 12, "\(size): cellular at 6 pt: \(groups)")
    let timeCentre = Double(groups[2].lowerBound + groups[2].upperBound) / 2
    #expect(abs(timeCentre - Double(width) / 2) <= 2, "\(size): the time centred: \(groups)")
    #expect(groups[2].count < 64, "\(size): 12 pt digits: \(groups)")
    #expect(groups[3].upperBound == width - 13, "\(size): the battery's cap ends 6 pt from the edge: \(groups)")
  }

  /// A canvas of no device's size that a stage shows in an upright
  /// notched or Dynamic Island iPhone is laid out as that phone's screen,
  /// as one that names the phone beside the size is: the phone's own bar
  /// (its height, the glyphs in the ears on the housing's centre line)
  /// and a nav bar under its safe-area top, where a sheet there rests 10
  /// pt below. `size: 400x800` beside an iPhone 15 drew a plain 20 pt bar
  /// (its ink from row 3) over a nav bar 20 pt down, 49 pt above
  /// the sheet's rest; `device: iphone-15, size: 400x800` the phone's
  /// bar over a nav bar 20 pt down.
  @Test(arguments: [
    ("iphone-15", 54.0, 59.0), ("iphone-14", 47, 47), ("iphone-16-pro", 54, 62), ("iphone-13-mini", 50, 50),
  ])
  func aCanvasInAStageNotchedIPhoneDrawsThatPhonesBar(device: String, bar: Double, safeAreaTop: Double) throws {
    let staged = Self.heldPushJob(canvas: "size: 400x800")
      .replacing("screens:", with: "stage: { device: \(device) }\nscreens:")
    let named = Self.heldPushJob(canvas: "device: \(device), size: 400x800")
    var frames: [Bitmap] = []
    for job in [staged, named] {
      let barred = try JobParser.parse(
        job.replacing("white: { background: \"#FFFFFF\" }", with: "white: { views: [ { kind: navbar } ] }"),
        file: "b.cfg")
      let heights = (barred.canvas.statusBar?.height ?? 0, barred.screens[0].views[0].frame.height)
      let laidOut = heights.0 == bar && heights.1 == safeAreaTop + 44
      #expect(laidOut, "\(device): the bar and the nav bar's bottom \(heights)")
      var spec = try JobParser.parse(job, file: "b.cfg")
      spec.stage = nil
      frames.append(
        FrameRenderer(spec: spec, fonts: try FontLibrary.system.get()).frame(0, width: 400, height: 800))
    }
    let same = frames[0] == frames[1]
    #expect(same, "\(device): the staged canvas draws the bar the named device draws")
    let ink = (0..<Int(bar)).filter { y in (0..<400).contains { frames[0][$0, y] != Pixel(r: 255, g: 255, b: 255, a: 255) } }
    let low = (ink.first ?? 0) >= 8
    #expect(low, "\(device): the glyphs on the housing's centre line, rows \(ink)")
  }

  /// A drawn bar written shorter than its glyphs reach draws them whole:
  /// `height: 30` on an iPhone 15 (glyphs on the island's line, 29.7 pt)
  /// cut the battery's level bar and the time through their middle.
  @Test func aShortDrawnBarDrawsItsGlyphsWhole() throws {
    let job = Self.pushJob(style: ", style: dark, height: 30")
    let short = try Self.frames(job).1(0)
    let (x, _) = Self.battery
    // The level bar spans 25.67…33.67 pt: black below the 30-pt line too.
    #expect(short[x, 32] == Pixel(r: 0, g: 0, b: 0, a: 255))
    #expect(short[x, 29] == Pixel(r: 0, g: 0, b: 0, a: 255))
    // As the 54-pt bar draws it.
    let full = try Self.frames(Self.pushJob(style: ", style: dark")).1(0)
    for y in 0..<54 {
      for x in 0..<393 where short[x, y] != full[x, y] {
        Issue.record("(\(x), \(y)): \(short[x, y]) against \(full[x, y])")
        return
      }
    }
  }
  /// The style follows what shows through a see-through canvas under the
  /// bar, not its clear pixels: a screen without a background on a
  /// transparent canvas drew white glyphs over the white an MP4's
  /// `matte: "#FFFFFF"` shows there, and over the white stage of
  /// `device: none`. Dark glyphs over white, light over a drawn device's
  /// black screen and over a background three quarters black.
  @Test func theStyleFollowsWhatShowsThroughASeeThroughCanvas() throws {
    func ink(_ canvas: String, _ rest: String) throws -> Pixel {
      let job = """
        name: b
        canvas: { device: iphone-15, scale: 1, fps: 10, \(canvas), statusBar: { time: "9:41" } }
        \(rest)
        screens:
          a: { views: [ { frame: [0, 300, 393, 100], color: "#FF0000" } ] }
        timeline:
          - hold: 0.2
        """
      let spec = try JobParser.parse(job, file: "b.cfg")
      let renderer = FrameRenderer(spec: spec, fonts: try FontLibrary.system.get()).overMatte()
      let frame = renderer.frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
      // The battery's level bar, on the stage where there is one.
      guard spec.stage != nil else { return frame[Self.battery.x, Self.battery.y] }
      let layout = StageLayout(stage: spec.stage!, canvas: spec.canvas)
      return frame[Int(layout.screen.minX) + Self.battery.x, Int(layout.screen.minY) + Self.battery.y]
    }
    let black = Pixel(r: 0, g: 0, b: 0, a: 255), white = Pixel(r: 255, g: 255, b: 255, a: 255)
    #expect(try ink("background: transparent", "output: { matte: \"#FFFFFF\" }") == black)
    #expect(try ink("background: transparent", "stage: { device: none, background: \"#FFFFFF\", padding: 0 }") == black)
    #expect(try ink("background: transparent", "stage: { background: \"#FFFFFF\", padding: 0 }") == white)
    #expect(try ink("background: \"#00000040\"", "output: { matte: \"#FFFFFF\" }") == black)
    #expect(try ink("background: \"#000000C0\"", "output: { matte: \"#FFFFFF\" }") == white)
    #expect(try ink("background: transparent", "") == white)
  }
}
