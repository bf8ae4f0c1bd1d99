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

  @Test func anIPhoneInLandscapeHidesTheBarAndSaysSo() throws {
    let job = Self.pushJob(canvas: "device: iphone-15, orientation: landscape")
    let spec = try JobParser.parse(job, file: "b.cfg")
    #expect(
      spec.notes.map(\.description).filter { $0.contains("statusBar") } == [
        "b.cfg:2:84: note: canvas.statusBar: iOS shows no status bar on an iPhone in landscape; it is not drawn "
          + "(hold the device in portrait, or use an iPad, to show one)"
      ])
    let (_, phone) = try Self.frames(job)
    #expect(Self.inkInTheTopStrip(phone(0)) == 0)
    // An iPad keeps its status bar in landscape.
    let (_, pad) = try Self.frames(job.replacing("device: iphone-15", with: "device: ipad-11"))
    #expect(Self.inkInTheTopStrip(pad(0)) > 50)
  }
}
