import Jobs
import Raster
import Rendering
import Testing

/// A see-through canvas background (`"#FF000080"`) lies under each frame
/// once: a transparent screen on it shows the background as it is, half
/// red, at rest before a step, all through it and at rest after it, and a
/// view drawn on the screen covers it.
@Suite struct SeeThroughCanvasTests {
  static func job(_ transition: String) -> String {
    """
    name: s
    canvas: { size: 40x40, scale: 1, fps: 10, background: "#FF000080" }
    screens:
      a: { background: transparent }
      b: { background: transparent, views: [ { frame: [10, 10, 10, 10], color: "#0000FF" } ] }
    timeline:
      - hold: 0.3
      - push: { from: a, to: b, transition: \(transition) }
      - hold: 0.3
    """
  }

  /// Before the step, while it runs (a cross-dissolve leaves both screens
  /// see-through at the corner), and after it, the corner is the
  /// background alone; the view is opaque blue at rest. Snapshots and the
  /// step's resting composite held the background too, so after the step
  /// it lay there twice (alpha 192 at rest, 224 on a screen without a
  /// background), and under a push's frames once more.
  @Test(arguments: ["push", "cross-dissolve"])
  func aTransparentScreenShowsTheBackgroundOnce(transition: String) throws {
    let renderer = FrameRenderer(spec: try JobParser.parse(Self.job(transition), file: "s.cfg"))
    let background = Pixel(r: 128, g: 0, b: 0, a: 128)
    let last = renderer.frameCount - 1
    let before = renderer.frame(0, width: 40, height: 40), after = renderer.frame(last, width: 40, height: 40)
    #expect(before[2, 30] == background && before[15, 15] == background)
    #expect(after[2, 30] == background, "\(after[2, 30])")
    #expect(after[15, 15] == Pixel(r: 0, g: 0, b: 255, a: 255))
    if transition == "cross-dissolve" {
      let corners = (3..<last).map { renderer.frame($0, width: 40, height: 40)[2, 30] }
      #expect(corners.allSatisfy { $0 == background }, "\(corners)")
    }
  }
}
