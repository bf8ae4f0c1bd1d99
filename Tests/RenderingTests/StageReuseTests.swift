import Jobs
import Raster
import Rendering
import Testing

/// A stage is drawn once per output bitmap: frames drawn one after another
/// into the same bitmap (as the video pipeline draws them) equal frames
/// drawn into new bitmaps, in any order, with captions cross-fading and a
/// canvas scaled to fit; and outside the screen nothing is written again.
@Suite struct StageReuseTests {
  /// A push with a caption per step and a drawn status bar; `canvas` sets the canvas's size.
  static func job(canvas: String) -> String {
    """
    name: r
    canvas: { \(canvas), scale: 1, fps: 10, statusBar: { time: "9:41" } }
    stage: { device: iphone-15-pro, background: "#00A050", padding: 10, caption: { text: "One", font: 20, lines: 1 } }
    screens:
      a: { background: "#FFFFFF", views: [{ frame: [20, 100, 200, 200], color: "#FF0000" }] }
      b: { background: "#000000", views: [{ frame: [40, 300, 100, 100], color: "#0000FF" }] }
    timeline:
      - hold: 0.3
      - push: { to: b, transition: push, duration: 0.6 }
        caption: "Two"
      - hold: 0.4
        caption: "Three"
    """
  }

  @Test(arguments: ["device: iphone-15", "size: 300x500"])
  func framesDrawnIntoOneBitmapEqualNewOnes(canvas: String) throws {
    let spec = try JobParser.parse(Self.job(canvas: canvas), file: "r.cfg")
    let renderer = FrameRenderer(spec: spec, fonts: try FontLibrary.system.get())
    let (w, h) = (spec.framePixelWidth, spec.framePixelHeight)
    var reused = Bitmap(width: w, height: h)
    // Forwards, then a jump back into the caption's fade and to the start.
    let order = Array(0..<renderer.frameCount) + [4, 0, renderer.frameCount - 1, 5]
    for n in order {
      renderer.render(n, into: &reused)
      #expect(reused == renderer.frame(n, width: w, height: h), "frame \(n)")
    }
  }

  @Test func theStageOutsideTheScreenIsWrittenOnce() throws {
    let spec = try JobParser.parse(Self.job(canvas: "device: iphone-15"), file: "r.cfg")
    let renderer = FrameRenderer(spec: spec, fonts: try FontLibrary.system.get())
    let (w, h) = (spec.framePixelWidth, spec.framePixelHeight)
    let magenta = Pixel(r: 255, g: 0, b: 255, a: 255)
    var bitmap = renderer.frame(0, width: w, height: h)
    #expect(bitmap.contentTag != nil)
    // A mark on the background, the tag kept: the next frame leaves it there.
    let tag = bitmap.contentTag
    bitmap[0, 0] = magenta
    bitmap.contentTag = tag
    renderer.render(1, into: &bitmap)
    #expect(bitmap[0, 0] == magenta)
    // Without the tag (any write clears it) the stage is drawn again.
    bitmap[0, 0] = magenta
    #expect(bitmap.contentTag == nil)
    renderer.render(1, into: &bitmap)
    #expect(bitmap == renderer.frame(1, width: w, height: h))
  }

  /// Nothing is allocated or copied per frame: the frame's pixels stay where they are.
  @Test(arguments: ["device: iphone-15", "size: 300x500"])
  func framesAreDrawnInPlace(canvas: String) throws {
    let spec = try JobParser.parse(Self.job(canvas: canvas), file: "r.cfg")
    let renderer = FrameRenderer(spec: spec, fonts: try FontLibrary.system.get())
    var bitmap = Bitmap(width: spec.framePixelWidth, height: spec.framePixelHeight)
    func address() -> UnsafePointer<UInt8>? { bitmap.bytes.withUnsafeBufferPointer { $0.baseAddress } }
    let first = address()
    for n in 0..<renderer.frameCount {
      renderer.render(n, into: &bitmap)
      #expect(address() == first, "frame \(n)")
    }
  }
}
