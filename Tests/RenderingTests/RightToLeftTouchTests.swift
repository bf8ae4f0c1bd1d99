// A touch in a right-to-left locale lands on the view the user taps, where
// the mirrored layout put it: at W − x for a view that mirrors, at x for a
// `mirror: false` one — the same on a seed step whose geometry stays
// left-to-right and on a navigation step drawn mirrored; and a seed step's
// tap point or origin button with it, so the circle grows under the finger.

import Geometry
import Jobs
import Raster
import Testing

@testable import Rendering

@Suite struct RightToLeftTouchTests {
  static let job = """
    name: t
    canvas: { size: 200x100, scale: 1, fps: 30 }
    locales: [en, ar]
    strings: { en: { k: "x" }, ar: { k: "x" } }
    screens:
      a:
        background: "#FFFFFF"
        views:
          - { id: b1, frame: [10, 40, 40, 20], color: "#FF0000" }
          - { id: logo, frame: [140, 40, 40, 20], color: "#00FF00", mirror: false }
      b:
        background: "#FFFFFF"
        views: [ { id: logo, frame: [140, 40, 40, 20], color: "#00FF00", mirror: false } ]
    timeline:
      - push: { to: b, transition: circle-spread, origin: [20, 40, 20, 20], touch: true }
      - pop: { transition: pop, touch: [20, 50] }
      - push: { to: b, transition: push, touch: [160, 50] }
      - pop: { transition: circle-spread, origin: [150, 40, 20, 20], touch: true }
    """

  /// The centre of the pixels frame `n` changes when its touch is drawn.
  static func discCenterX(_ with: FrameRenderer, _ without: FrameRenderer, frame n: Int) -> Double? {
    let a = with.frame(n, width: 200, height: 100), b = without.frame(n, width: 200, height: 100)
    var sum = 0, count = 0
    for y in 0..<100 {
      for x in 0..<200 where a[x, y] != b[x, y] {
        sum += x
        count += 1
      }
    }
    return count > 50 ? Double(sum) / Double(count) + 0.5 : nil
  }

  @Test func touchesFollowTheViewsTheyAreOn() throws {
    let spec = try JobParser.parse(Self.job, file: "t.cfg")
    let jobs = spec.localizedJobs()
    let touches = jobs.map { job in
      job.timeline.compactMap { item -> Point? in
        if case .transition(let step) = item { return step.touch }
        return nil
      }
    }
    // Left to right, as written.
    #expect(touches[0].map(\.x) == [30, 20, 160, 160])
    // Right to left: the seed step (unmirrored) has b1's tap at 200 − 30;
    // the navigation pop and push are drawn flipped, so the touch is given
    // as written on b1 (drawn at 180) and pre-flipped on the logo, which
    // stays at 160; the last seed step's touch is on b's logo: unmoved.
    #expect(touches[1].map(\.x) == [170, 20, 40, 160])
    // A seed step's origin button is where the user taps too: on b1, at
    // 200 − 40 with its touch; on the logo, unmoved (tap-spread's `tap` alike).
    let origins = jobs.map { job in
      job.timeline.compactMap { item -> Double? in
        guard case .transition(let step) = item, case .rect(let r)? = step.parameters.values["origin"] else { return nil }
        return r.minX
      }
    }
    #expect(origins == [[20, 150], [160, 150]])

    // Where the discs are drawn: early in each step, when the touch shows.
    var untouched = jobs[1]
    for i in untouched.timeline.indices {
      if case .transition(var step) = untouched.timeline[i] {
        step.touch = nil
        untouched.timeline[i] = .transition(step)
      }
    }
    let renderer = FrameRenderer(spec: jobs[1]), plain = FrameRenderer(spec: untouched)
    let timeline = Timeline(spec: jobs[1])
    var expected: [Double] = [170, 180, 160, 160]
    for (i, segment) in timeline.segments.enumerated() {
      guard case .transition = segment.content else { continue }
      let frame = Int((segment.start * 30).rounded(.up)) + 1
      let x = try #require(Self.discCenterX(renderer, plain, frame: frame), "no touch in segment \(i)")
      let want = expected.removeFirst()
      #expect(abs(x - want) < 2, "segment \(i): the touch is at x \(x), not \(want)")
    }
    #expect(expected.isEmpty)
  }
}
