import Jobs
import Raster
import Rendering
import Testing

/// `canvas.homeIndicator`: the capsule iOS draws at the bottom of a screen
/// without a Home button, in its place and size on iPhones and iPads held
/// either way, black over light content and white over dark, still through
/// every transition, absent without the key and on an iPhone SE.
@Suite struct HomeIndicatorTests {
  static let black = Pixel(r: 0, g: 0, b: 0, a: 255), white = Pixel(r: 255, g: 255, b: 255, a: 255)

  /// A job on `canvas` whose `timeline` moves between a white and a black screen, at 10 fps.
  static func job(_ canvas: String, indicator: String = "true", timeline: String = "- hold: 0.2") -> String {
    """
    name: h
    canvas: { \(canvas), fps: 10, homeIndicator: \(indicator) }
    screens:
      white: { background: "#FFFFFF" }
      black: { background: "#000000" }
    timeline:
      \(timeline)
    """
  }

  static func frames(_ job: String) throws -> (FrameRenderer, (Int) -> Bitmap) {
    let spec = try JobParser.parse(job, file: "h.cfg")
    let renderer = FrameRenderer(spec: spec)
    return (renderer, { renderer.frame($0, width: spec.framePixelWidth, height: spec.framePixelHeight) })
  }

  /// The pixels of `bitmap` in `columns` × `rows` that are not `background`.
  static func ink(_ bitmap: Bitmap, columns: Range<Int>, rows: Range<Int>, over background: Pixel) -> [Int: [Int]] {
    var found: [Int: [Int]] = [:]
    for y in rows { for x in columns where bitmap[x, y] != background { found[y, default: []].append(x) } }
    return found
  }

  /// iPhone 15 at 3x: 134 × 5 pt centred, its bottom 8 pt above the edge:
  /// columns 388.5 to 790.5 (half-covered edge pixels), rows 2517 to 2531.
  @Test func anIPhoneInPortraitShows134By5PointsCentred8PointsUp() throws {
    let (_, frame) = try Self.frames(Self.job("device: iphone-15"))
    let image = frame(0)
    let ink = Self.ink(image, columns: 0..<1179, rows: 2400..<2556, over: Self.white)
    #expect(ink.keys.sorted() == Array(2517...2531))
    #expect(ink[2524] == Array(388...790))
    #expect(image[589, 2517] == Self.black && image[589, 2531] == Self.black && image[500, 2524] == Self.black)
    // The edge pixels half covered; the capsule's ends round (its corner pixels uncovered).
    let edge = Int(image[388, 2524].r)
    #expect(abs(edge - 128) <= 2, "\(image[388, 2524])")
    #expect(image[389, 2517] == Self.white && image[789, 2531] == Self.white)
  }

  /// iPad Pro 11-inch at 2x: 320 × 5 pt, in portrait and in landscape; an
  /// iPhone in landscape 209 × 5 pt (at 1x).
  @Test func anIPadAndAnIPhoneInLandscapeShowWiderCapsules() throws {
    func span(_ canvas: String) throws -> (columns: [Int], rows: [Int]) {
      let spec = try JobParser.parse(Self.job(canvas), file: "h.cfg")
      let image = FrameRenderer(spec: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
      let ink = Self.ink(
        image, columns: 0..<image.width, rows: (image.height - 60)..<image.height, over: Self.white)
      let middle = ink.keys.sorted()[ink.count / 2]
      return (ink[middle] ?? [], ink.keys.sorted())
    }
    let portrait = try span("device: ipad-11")
    #expect(portrait.columns == Array(514..<1154) && portrait.rows == Array(2362..<2372))
    let landscape = try span("device: ipad-11, orientation: landscape")
    #expect(landscape.columns == Array(874..<1514) && landscape.rows == Array(1642..<1652))
    // 852 × 393 pt: 209 pt from 321.5, rows 380 to 384.
    let phone = try span("device: iphone-15, orientation: landscape, scale: 1")
    #expect(phone.columns == Array(321...530) && phone.rows == Array(380...384))
  }

  /// `auto` (the default): black over a light bottom strip, white over a
  /// dark one, the ink cross-fading over a push between the two; `dark`
  /// and `light` keep one ink.
  @Test func theInkFollowsTheScreenUnlessAStyleIsGiven() throws {
    let push = "- push: { from: white, to: black, transition: push, curve: linear, duration: 1 }\n  - hold: 0.2"
    let (renderer, frame) = try Self.frames(Self.job("device: iphone-15, scale: 1", timeline: push))
    let (x, y) = (196, 841)
    #expect(frame(0)[x, y] == Self.black)
    #expect(frame(renderer.frameCount - 1)[x, y] == Self.white)
    let mid = frame(5)[x, y]
    #expect(abs(Int(mid.r) - 128) <= 2 && mid.r == mid.g && mid.g == mid.b, "\(mid)")
    let (_, light) = try Self.frames(Self.job("device: iphone-15, scale: 1", indicator: "light", timeline: push))
    #expect(light(0)[x, y] == Self.white && light(5)[x, y] == Self.white)
    let (_, dark) = try Self.frames(Self.job("device: iphone-15, scale: 1", indicator: "dark", timeline: push))
    #expect(dark(10)[x, y] == Self.black)
  }

  /// The capsule is the system's: a sheet rising over it, a cover sliding
  /// up, a page turning and a push all pass under it, so the pixels it
  /// covers are the same on every frame (a `dark` one over white screens).
  @Test func itStaysStillThroughEveryTransition() throws {
    for transition in ["sheet", "cover-vertical", "page-flip", "push", "zoom-expand"] {
      let job = Self.job(
        "device: iphone-15, scale: 1", indicator: "dark",
        timeline: "- present: { from: white, to: other, transition: \(transition), duration: 0.6 }")
        .replacing("black: { background: \"#000000\" }", with: "other: { background: \"#FFFFFF\" }")
      let (renderer, frame) = try Self.frames(job)
      let first = frame(0)
      #expect(first[196, 841] == Self.black)
      var moved: [Int] = []
      for n in 1..<renderer.frameCount {
        let image = frame(n)
        var same = true
        for y in 839..<844 { for x in 135..<258 where image[x, y] != first[x, y] { same = false } }
        if !same { moved.append(n) }
      }
      #expect(moved.isEmpty, "\(transition): frames \(moved) differ")
    }
  }

  /// Without the key, or with `false`, nothing is drawn.
  @Test func noKeyNoIndicator() throws {
    for job in [Self.job("device: iphone-15, scale: 1").replacing(", homeIndicator: true", with: ""),
                Self.job("device: iphone-15, scale: 1", indicator: "false")] {
      let (_, frame) = try Self.frames(job)
      #expect(Self.ink(frame(0), columns: 0..<393, rows: 800..<852, over: Self.white).isEmpty)
    }
  }

  /// An iPhone SE has a Home button: iOS shows no indicator, so none is drawn, with a note.
  @Test func anIPhoneSEShowsNoneAndSaysSo() throws {
    let job = Self.job("device: iphone-se, scale: 1")
    let notes = try JobParser.parse(job, file: "h.cfg").notes.map(\.description).filter { $0.contains("homeIndicator") }
    #expect(
      notes == [
        "h.cfg:2:64: note: canvas.homeIndicator: the iphone-se has a Home button and iOS shows no home indicator on "
          + "it; it is not drawn (use a device without a Home button, such as iphone-15, to show one)"
      ])
    let (_, frame) = try Self.frames(job)
    #expect(Self.ink(frame(0), columns: 0..<375, rows: 600..<667, over: Self.white).isEmpty)
  }

  /// A see-through canvas: the ink follows what shows through it at the
  /// bottom, black over a white stage with `device: none`, white over one
  /// whose gradient ends black there and over a drawn device's black screen
  /// (not the clear pixels, which would read as black).
  @Test func overASeeThroughCanvasTheInkFollowsWhatShowsThrough() throws {
    func ink(_ stage: String) throws -> Pixel {
      let job = """
        name: h
        canvas: { device: iphone-15, scale: 1, fps: 10, background: transparent, homeIndicator: true }
        stage: { \(stage), padding: 0 }
        screens:
          a: { views: [ { frame: [0, 300, 393, 100], color: "#FF0000" } ] }
        timeline:
          - hold: 0.2
        """
      let spec = try JobParser.parse(job, file: "h.cfg")
      let frame = FrameRenderer(spec: spec).frame(0, width: spec.framePixelWidth, height: spec.framePixelHeight)
      let layout = StageLayout(stage: spec.stage!, canvas: spec.canvas)
      return frame[Int(layout.screen.minX) + 196, Int(layout.screen.minY) + 841]
    }
    #expect(try ink("device: none, background: \"#FFFFFF\"") == Self.black)
    let gradient = "background: { colors: [\"#FFFFFF\", \"#000000\"], start: [0, 0], end: [0, 1] }"
    #expect(try ink("device: none, " + gradient) == Self.white)
    #expect(try ink("background: \"#FFFFFF\"") == Self.white)
  }

  /// Values other than true, false and the three styles are errors at the key's value.
  @Test func otherValuesAreErrors() {
    func error(_ value: String) -> String {
      do {
        _ = try JobParser.parse(Self.job("device: iphone-15", indicator: value), file: "h.cfg")
        return ""
      } catch { return "\(error)" }
    }
    #expect(error("yes") == "h.cfg:2:54: error: canvas.homeIndicator: unknown home indicator style \"yes\"; expected one of: true, false, auto, dark, light")
    #expect(error("\"true\"") == "h.cfg:2:54: error: canvas.homeIndicator: expected true, false or a style (auto, dark, light), got \"true\" (in quotes, so text: write true without them)")
    #expect(error("drak") == "h.cfg:2:54: error: canvas.homeIndicator: unknown home indicator style \"drak\"; did you mean 'dark'?")
    #expect(error("{ style: dark }") == "h.cfg:2:54: error: canvas.homeIndicator: expected one of: true, false, auto, dark, light, got a mapping")
  }
}
