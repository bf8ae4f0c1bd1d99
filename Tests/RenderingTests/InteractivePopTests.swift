// UINavigationController's interactive pop tracks the finger linearly
// (UIKIT.md §1, "while finger-tracking: curve 3 (linear): every property is
// linear in p", p = translation.x / W): the popped screen's left edge is
// under the finger, not ahead of it along the system spring.

import Jobs
import Raster
import Rendering
import Testing

@Suite struct InteractivePopTests {
  @Test func thePoppedScreensEdgeFollowsTheFinger() throws {
    let job = """
      name: g
      canvas: { size: 300x200, scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#FF0000" }
        b: { background: "#0000FF" }
      timeline:
        - push: { to: b, transition: push }
        - hold: 0.1
        - pop: { gesture: { direction: right, distance: [0, 60, 120, 180], interval: 0.2 } }
        - hold: 0.1
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "g.cfg"))
    // The push ends at 0.5 s, the hold at 0.6 s; the finger then moves 300 pt/s for 0.6 s.
    for n in stride(from: 20, through: 36, by: 2) {
      let finger = 300 * (Double(n) / 30 - 0.6)
      let frame = renderer.frame(n, width: 300, height: 200)
      // The popped (blue) screen covers [edge, 300): its blue coverage along a row is 300 − edge.
      let blue = (0..<300).reduce(0.0) { $0 + Double(frame[$1, 100].b) / 255 }
      #expect(abs((300 - blue) - finger) < 0.6, "frame \(n): edge at \(300 - blue) pt, finger at \(finger) pt")
    }
    // An explicit curve on the step still wins: the spring runs ahead of the finger.
    let sprung = FrameRenderer(
      spec: try JobParser.parse(
        job.replacingOccurrences(of: "interval: 0.2 } }", with: "interval: 0.2 }, curve: spring }"), file: "g.cfg"))
    let frame = sprung.frame(24, width: 300, height: 200)
    let blue = (0..<300).reduce(0.0) { $0 + Double(frame[$1, 100].b) / 255 }
    #expect(300 - blue > 100)
  }
}
