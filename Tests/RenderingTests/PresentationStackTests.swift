import Jobs
import Raster
import Rendering
import Testing

/// A screen a presentation over the old screen shows (a sheet, an
/// elastic card, a curl) stays inside that composite while it is up: the
/// next step starts from the composite, the step back ends on it, and the
/// holds between show it — no frame jumps to the screen alone.
@Suite struct PresentationStackTests {
  static func job(first: String, second: String, back: String) -> String {
    """
    name: stack
    canvas: { size: 200x400, scale: 1, fps: 30, background: "#000000" }
    screens:
      a: { background: "#FF0000" }
      b: { background: "#0000FF" }
      c: { background: "#FF00FF" }
    timeline:
      - present: { to: b, transition: \(first), duration: 0.3 }
      - hold: 0.2
      - \(second): { to: c, duration: 0.3 }
      - hold: 0.2
      - \(back): {}
      - hold: 0.2
      - dismiss: {}
      - hold: 0.2
    """
  }

  /// Each segment's first and last frame, in order.
  static func bounds(_ renderer: FrameRenderer) -> [(first: Int, last: Int)] {
    var result: [(first: Int, last: Int)] = []
    var segment = -1
    for n in 0..<renderer.frameCount {
      let s = renderer.timeline.segmentIndex(ofFrame: n)
      if s != segment {
        result.append((n, n))
        segment = s
      } else {
        result[result.count - 1].last = n
      }
    }
    return result
  }

  @Test(arguments: [
    ("sheet", "present", "transition: sheet"), ("sheet", "present", "transition: cover-vertical"),
    ("sheet", "push", "transition: push"), ("elastic-present, height: 300", "present", "transition: cross-dissolve"),
    ("partial-curl", "push", "transition: circle-spread"),
    ("elastic-present, height: 300", "present", "transition: elastic-present, height: 300"),
  ])
  func stepsFromAndBackToACompositeDoNotJump(first: String, operation: String, second: String) throws {
    let back = operation == "push" ? "pop" : "dismiss"
    let job = Self.job(first: first, second: operation, back: back)
      .replacingOccurrences(of: "to: c, duration", with: "to: c, \(second), duration")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "stack.cfg"))
    let segments = Self.bounds(renderer)
    #expect(segments.count == 8)
    func frame(_ n: Int) -> Bitmap { renderer.frame(n, width: 200, height: 400) }
    let resting = frame(segments[1].last)
    #expect(resting != renderer.snapshot(of: "b"), "the hold shows the composite, not b alone")
    // The second step starts where the hold left off (a navigation push's
    // first frame adds its edge shadow at the card's right edge, 9 pt), and
    // the step back returns there.
    let first = frame(segments[2].first)
    let shadowed = second == "transition: push" ? 191 : 200
    let starts = (0..<400).allSatisfy { y in (0..<shadowed).allSatisfy { first[$0, y] == resting[$0, y] } }
    #expect(starts, "\(first) then \(second): the step from the composite jumps")
    let holdsBack = frame(segments[5].first) == resting && frame(segments[5].last) == resting
    #expect(holdsBack, "\(first) then \(second): the step back does not return to the composite")
    // And the composite's own dismiss starts from it and ends on a.
    let dismisses = frame(segments[6].first) == resting
    #expect(dismisses)
    let ends = frame(segments[7].last) == renderer.snapshot(of: "a")
    #expect(ends)
  }

  /// `job(first: "partial-curl", second: "push", back:)` with c pushed by
  /// a cross-dissolve, b's topmost view 40 pt down and c's 160 pt, so a
  /// curl at c's height shows apart from one at b's.
  static func curlOverAPush(back: String) -> String {
    job(first: "partial-curl", second: "push", back: back)
      .replacingOccurrences(of: "to: c, duration", with: "to: c, transition: cross-dissolve, duration")
      .replacingOccurrences(
        of: "b: { background: \"#0000FF\" }",
        with: "b: { background: \"#0000FF\", views: [ { frame: [20, 40, 40, 20], color: \"#FFFF00\" } ] }")
      .replacingOccurrences(
        of: "c: { background: \"#FF00FF\" }",
        with: "c: { background: \"#FF00FF\", views: [ { frame: [20, 160, 40, 20], color: \"#00FF00\" } ] }")
  }

  /// A curl keeps the height it uncovered for the screen it presented
  /// while screens are pushed under its page (UIKIT.md §2: h comes from the
  /// presented screen's topmost view): c, whose topmost view is lower than
  /// b's, showed the curl lower on the page (240 pt uncovered, not 360)
  /// from the pop's first frame, the hold after it, and back up to b's
  /// curl on the dismiss's first frame.
  @Test func aScreenPushedUnderACurlKeepsTheCurlOfTheScreenItPresented() throws {
    let job = Self.curlOverAPush(back: "pop")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "curl.cfg"))
    let segments = Self.bounds(renderer)
    #expect(segments.count == 8)
    func frame(_ n: Int) -> Bitmap { renderer.frame(n, width: 200, height: 400) }
    // The curl's fold rests at 40 pt on the left edge, over b and over c.
    let overB = frame(segments[1].last), overC = frame(segments[3].last)
    #expect(overB[2, 80] == Pixel(r: 0, g: 0, b: 255, a: 255), "\(overB[2, 80])")
    #expect(overC[2, 80] == Pixel(r: 255, g: 0, b: 255, a: 255), "\(overC[2, 80])")
    let popStarts = frame(segments[4].first) == overC
    #expect(popStarts, "the pop's first frame moves the curl")
    let backToB = frame(segments[5].first) == overB && frame(segments[5].last) == overB
    #expect(backToB, "the hold after the pop shows another curl than the present left")
    let dismissStarts = frame(segments[6].first) == overB
    #expect(dismissStarts)
  }

  /// A dismiss from a screen pushed under a curl uncurls the page from
  /// where it rests, at the height the screen it presented gave it: it
  /// curled the page to c's height (its topmost view 160 pt down, not
  /// b's 40) on its first frame, a jump from the hold.
  @Test func aDismissFromAScreenPushedUnderACurlStartsFromItsCurl() throws {
    let job = Self.curlOverAPush(back: "dismiss")
      .replacingOccurrences(of: "  - dismiss: {}\n  - hold: 0.2\n  - dismiss: {}\n", with: "  - dismiss: {}\n")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "curl.cfg"))
    let segments = Self.bounds(renderer)
    #expect(segments.count == 6)
    func frame(_ n: Int) -> Bitmap { renderer.frame(n, width: 200, height: 400) }
    let overC = frame(segments[3].last)
    #expect(overC[2, 80] == Pixel(r: 255, g: 0, b: 255, a: 255), "\(overC[2, 80])")
    let starts = frame(segments[4].first) == overC
    #expect(starts, "the dismiss's first frame moves the curl")
    let ends = frame(segments[5].last) == renderer.snapshot(of: "a")
    #expect(ends)
  }

  /// A push and a pop while a sheet is up run inside its card, as a
  /// navigation controller presented as a sheet pushes: what is above the
  /// card (the screen behind, moved back) stays as it rests in every frame,
  /// and the pushed screen shows inside the card, moved down with it.
  @Test(arguments: [false, true]) func aPushWhileASheetIsUpRunsInsideItsCard(rightToLeft: Bool) throws {
    var job = Self.job(first: "sheet", second: "push", back: "pop")
      .replacingOccurrences(of: "to: c, duration", with: "to: c, transition: push, duration")
    if rightToLeft { job = job.replacingOccurrences(of: "transition: push,", with: "transition: push, mirror: true,") }
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "stack.cfg"))
    let segments = Self.bounds(renderer)
    let resting = renderer.frame(segments[1].last, width: 200, height: 400)
    // The card's top rests 59 + 10 pt down; the rows above it are the screen behind.
    func above(_ bitmap: Bitmap) -> [Pixel] { (0..<68).flatMap { y in (0..<200).map { bitmap[$0, y] } } }
    for n in segments[2].first...segments[5].last {
      let frame = renderer.frame(n, width: 200, height: 400)
      let same = above(frame) == above(resting)
      #expect(same, "frame \(n): what is above the card moved")
    }
    // Halfway through the push, b and c share the card's rows: both colours on row 200.
    let middle = renderer.frame((segments[2].first + segments[2].last) / 2, width: 200, height: 400)
    let row = (0..<200).map { middle[$0, 200] }
    #expect(row.contains { $0.b > 100 && $0.r == 0 } && row.contains { $0.r > 200 && $0.b > 200 && $0.g == 0 }, "\(row)")
    // At rest after the push, c fills the card below its top, not the screen.
    let pushed = renderer.frame(segments[3].last, width: 200, height: 400)
    #expect(pushed[100, 200] == Pixel(r: 255, g: 0, b: 255, a: 255) && above(pushed) == above(resting))
  }

  /// A push inside an iPad's form-sheet card slides across the card, as a
  /// navigation controller presented there pushes: the new screen enters at
  /// the card's right edge and travels the card's width, the screen under
  /// it moves by the card's parallax (100 − round(70) = 30 pt). It ran on
  /// the whole screen's width (200 pt), so for its first third the new
  /// screen was off to the right of the card, out of sight.
  @Test func aPushInsideAnIPadCardTravelsTheCardsWidth() throws {
    let job = """
      name: card
      canvas: { size: 200x400, scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#FF0000" }
        b: { background: "#0000FF", views: [ { frame: [40, 0, 10, 400], color: "#FFFF00" } ] }
        c: { background: "#FF00FF", views: [ { frame: [0, 0, 4, 400], color: "#00FF00" } ] }
      timeline:
        - present: { to: b, transition: sheet, cardWidth: 100, cardHeight: 160, duration: 0.3 }
        - hold: 0.2
        - push: { to: c, transition: push, duration: 0.3, curve: linear }
        - hold: 0.2
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "card.cfg"))
    let segments = Self.bounds(renderer)
    // A third of the way (0.1 s of 0.3, linear): c's green edge at 50 + 100 · 2/3 = 116.7,
    // b's yellow band (card x 40…50) 10 pt to the left, at 80…90; the card spans 50…150.
    let third = renderer.frame(segments[2].first + 3, width: 200, height: 400)
    let green = (0..<200).filter { third[$0, 200].g == 255 && third[$0, 200].r == 0 }
    #expect(green == [117, 118, 119], "\(green)")
    let yellow = (0..<200).filter { third[$0, 200].r > 200 && third[$0, 200].g > 200 && third[$0, 200].b < 60 }
    #expect(yellow == Array(80..<90), "\(yellow)")
    // Outside the card the screen behind is as it rests.
    let resting = renderer.frame(segments[1].last, width: 200, height: 400)
    #expect((0..<50).allSatisfy { third[$0, 200] == resting[$0, 200] } && (150..<200).allSatisfy { third[$0, 200] == resting[$0, 200] })
  }

  /// A back-swipe inside an iPad's form-sheet card is measured in the card,
  /// as UIKit's p = translation / the width of the navigation controller's
  /// view, the card (UIKIT.md §1): 60 pt across a 100 pt card is 0.6, so
  /// the popped screen's edge is under the finger, 60 pt into the card, and
  /// the touch there, at the card's middle height. It was measured against
  /// the 200 pt screen (0.3: the page 30 pt behind the finger) and the
  /// touch put at the screen's middle height in the card's space, below
  /// the card, where it was not drawn at all.
  @Test func aSwipeInsideAnIPadCardIsMeasuredInTheCard() throws {
    func job(touch: Bool) -> String {
      """
      name: card
      canvas: { size: 200x400, scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#FF0000" }
        b: { background: "#0000FF" }
        c: { background: "#FF00FF", views: [ { frame: [0, 0, 4, 400], color: "#00FF00" } ] }
      timeline:
        - present: { to: b, transition: sheet, cardWidth: 100, cardHeight: 160, duration: 0.3 }
        - push: { to: c, transition: push, duration: 0.3 }
        - pop: { gesture: { direction: right, interval: 0.1, distance: [0, 30, 60, 60, 60], release: cancel }\(touch ? ", touch: true" : "") }
      """
    }
    let spec = try JobParser.parse(job(touch: true), file: "card.cfg")
    guard case .transition(let pop) = spec.timeline[2] else {
      Issue.record("no pop")
      return
    }
    #expect(pop.gesture?.progress == [0, 0.3, 0.6, 0.6, 0.6])
    let renderer = FrameRenderer(spec: spec)
    let plain = FrameRenderer(spec: try JobParser.parse(job(touch: false), file: "card.cfg"))
    let segments = Self.bounds(renderer)
    // 0.2 s into the pop the finger is 60 pt into the card (x 50…150, y 120…280).
    let n = segments[2].first + 6
    let frame = renderer.frame(n, width: 200, height: 400), bare = plain.frame(n, width: 200, height: 400)
    let green = (0..<200).filter { bare[$0, 150].g > 250 && bare[$0, 150].r < 5 }
    #expect(green == [110, 111, 112, 113], "\(green)")
    // The touch, a 44 pt disc about the finger at (110, 200), and nowhere else.
    #expect(frame[110, 200] != bare[110, 200] && frame[110, 140] == bare[110, 140] && frame[60, 200] == bare[60, 200])
    // A distance is at most the card's width.
    #expect(throws: Diagnostic.self) {
      try JobParser.parse(job(touch: false).replacingOccurrences(of: "60, 60, 60]", with: "60, 101]"), file: "card.cfg")
    }
  }

  /// A card-sized job whose screens and tap are laid out the other way in
  /// the 100 pt card (x → 100 − x − width) when `flippedLayout`: a sheet
  /// `sheetMirror`, a push `step` of c inside its card with `mirror` (and
  /// the pop undoing it, which inherits it), with holds between.
  static func cardJob(step: String, tap: Double? = nil, sheetMirror: Bool, mirror: Bool, flippedLayout: Bool) -> String {
    func x(_ x: Double, _ width: Double) -> Int { Int(flippedLayout ? 100 - x - width : x) }
    let tapped = tap.map { ", tap: [\(x($0, 0)), 50], touch: true" } ?? ""
    return """
      name: card
      canvas: { size: 200x400, scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#FF0000" }
        b: { background: "#0000FF", views: [ { frame: [\(x(20, 10)), 10, 10, 140], color: "#FFFF00" } ] }
        c:
          background: "#FF00FF"
          views:
            - { frame: [\(x(0, 4)), 20, 4, 100], color: "#00FF00" }
            - { frame: [\(x(60, 30)), 40, 30, 30], color: "#00FFFF", corner: 8 }
      timeline:
        - present: { to: b, transition: sheet, cardWidth: 100, cardHeight: 160, duration: 0.3, mirror: \(sheetMirror) }
        - hold: 0.1
        - push: { to: c, \(step), duration: 0.3, curve: linear, mirror: \(mirror)\(tapped) }
        - hold: 0.1
        - pop: { duration: 0.3, curve: linear }
        - hold: 0.1
      """
  }

  /// Every frame of a renderer, 200 × 400.
  static func frames(_ text: String) throws -> [Bitmap] {
    let renderer = FrameRenderer(spec: try JobParser.parse(text, file: "card.cfg"))
    return (0..<renderer.frameCount).map { renderer.frame($0, width: 200, height: 400) }
  }

  /// A step drawn mirrored inside a sheet's card narrower than the screen
  /// (an iPad's form sheet) mirrors in the card: a push with `mirror: true`
  /// (and the pop that undoes it, mirrored as it is) is exactly the
  /// unmirrored push of the screens laid out the other way in the card,
  /// the whole frame flipped (the card is centred), its tap still on the
  /// view tapped; a sheet presented with `mirror: true` draws its card as
  /// it is. Each flipped about the screen's 200 pt: the pushed screen's
  /// views were drawn off the card, the mirrored pop moved c in the
  /// screen's space (still over the whole card a third of the way) and the
  /// mirrored sheet's card lost its views.
  @Test(arguments: [
    ("transition: push", nil, false, true), ("transition: push", nil, true, true), ("transition: push", nil, true, false),
    ("transition: tap-spread", 30.0, false, true), ("transition: page-flip", nil, true, true),
  ] as [(String, Double?, Bool, Bool)])
  func aMirroredStepInsideACardMirrorsInTheCard(step: String, tap: Double?, sheetMirror: Bool, mirror: Bool) throws {
    let drawn = try Self.frames(
      Self.cardJob(step: step, tap: tap, sheetMirror: sheetMirror, mirror: mirror, flippedLayout: false))
    let expected = try Self.frames(
      Self.cardJob(step: step, tap: tap, sheetMirror: false, mirror: false, flippedLayout: mirror))
    #expect(drawn.count == expected.count && drawn.count > 30)
    for n in drawn.indices {
      let wanted = mirror ? expected[n].mirroredHorizontally() : expected[n]
      #expect(drawn[n] == wanted, "frame \(n)")
    }
    // The pushed screen's views show in the card once it is in: the green band at its left edge.
    let segments = Self.bounds(FrameRenderer(spec: try JobParser.parse(
      Self.cardJob(step: step, tap: tap, sheetMirror: sheetMirror, mirror: mirror, flippedLayout: false), file: "card.cfg")))
    let pushed = drawn[segments[3].first]
    #expect((50..<54).allSatisfy { pushed[$0, 200] == Pixel(r: 0, g: 255, b: 0, a: 255) })
  }

  /// A right-to-left layout mirrors the screens a card shows in the card
  /// (a view at x is at 100 − x − width, not at 200 − x − width, off the
  /// card), so an Arabic push in the card drawn unmirrored (`mirror:
  /// false`) is the English push of the screens laid out the other way,
  /// and one mirrored as Arabic mirrors it the English push flipped.
  @Test func aRightToLeftLayoutMirrorsACardsScreensInTheCard() throws {
    func arabic(_ text: String) throws -> [Bitmap] {
      let text = text.replacingOccurrences(of: "fps: 30, background: \"#000000\" }", with: "fps: 30, background: \"#000000\" }\nlocales: [ar]")
      let spec = try #require(JobParser.parse(text, file: "card.cfg").localizedJobs().first)
      #expect(spec.screens.first { $0.name == "c" }?.views.map(\.frame.minX) == [96, 10])
      let renderer = FrameRenderer(spec: spec)
      return (0..<renderer.frameCount).map { renderer.frame($0, width: 200, height: 400) }
    }
    let written = Self.cardJob(step: "transition: push", sheetMirror: false, mirror: false, flippedLayout: false)
    let unmirrored = try arabic(written)
    let flippedLayout = try Self.frames(
      Self.cardJob(step: "transition: push", sheetMirror: false, mirror: false, flippedLayout: true))
    for n in unmirrored.indices { #expect(unmirrored[n] == flippedLayout[n], "frame \(n)") }
    let mirrored = try arabic(written.replacingOccurrences(of: ", mirror: false", with: ""))
    let english = try Self.frames(written)
    #expect(mirrored.count == english.count)
    for n in mirrored.indices { #expect(mirrored[n] == english[n].mirroredHorizontally(), "frame \(n)") }
  }

  /// In a sheet's card a step draws what it draws on a screen of the card's
  /// size: the card is its container and its screens are the card's part
  /// of them. flip-horizontal turned the whole screen about the screen's
  /// centre line (in a 100 pt card, about its right edge, a card-sized dim
  /// over part of it), page-flip's page was the screen's width (half way
  /// it still covered the card) and elastic-present shrank the old screen
  /// about the screen's middle, not the card's.
  @Test(arguments: ["flip-horizontal", "page-flip", "elastic-present, height: 100", "push", "zoom-expand"])
  func aStepInACardDrawsWhatItDrawsOnAScreenOfTheCardsSize(transition: String) throws {
    func job(size: String, first: String) -> String {
      """
      name: card
      canvas: { size: \(size), scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#000000" }
        b: { background: "#0000FF", views: [ { frame: [20, 10, 10, 140], color: "#FFFF00" } ] }
        c: { background: "#FF00FF", views: [ { frame: [0, 20, 4, 100], color: "#00FF00" }, { frame: [60, 40, 30, 30], color: "#00FFFF" } ] }
      timeline:
        - \(first)
        - push: { to: c, transition: \(transition), duration: 0.3, curve: linear }
        - hold: 0.1
      """
    }
    let inCard = try Self.frames(
      job(size: "200x400", first: "present: { to: b, transition: sheet, cardWidth: 100, cardHeight: 160, duration: 0.1 }"))
    let small = FrameRenderer(spec: try JobParser.parse(
      job(size: "100x160", first: "hold: 0.1").replacingOccurrences(of: "  a: { background: \"#000000\" }\n", with: ""),
      file: "card.cfg"))
    #expect(inCard.count == small.frameCount && inCard.count == 15)
    // The card spans x 50…150, y 120…280; its 10 pt corners are rounded.
    for n in 3..<inCard.count {
      let alone = small.frame(n, width: 100, height: 160)
      let differing = (0..<160).flatMap { y in
        (0..<100).filter { x in
          let corner = (x < 10 || x >= 90) && (y < 10 || y >= 150)
          return !corner && inCard[n][50 + x, 120 + y] != alone[x, y]
        }.map { (x: $0, y: y) }
      }
      #expect(differing.isEmpty, "frame \(n): \(differing.count) pixels differ, first \(differing.prefix(3))")
    }
  }

  /// A step pushed inside an iPhone's sheet (or an elastic card) has the
  /// sheet for its container, as tall as the sheet shows: a cover slides up
  /// from the sheet's bottom edge, the screen's, across the sheet's 331
  /// points (400 − 59 − 10), as UIKit's navigation controller there has the
  /// sheet's bounds. It slid across the whole screen's 400, from 69 pt
  /// below the screen, so it lagged behind where it should have been.
  @Test(arguments: [("sheet", 69.0), ("elastic-present, height: 300", 100.0)])
  func aStepInsideAnIPhoneSheetHasTheSheetForItsContainer(sheet: String, top: Double) throws {
    let job = """
      name: sheet
      canvas: { size: 200x400, scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#FF0000" }
        b: { background: "#0000FF" }
        c: { background: "#FF00FF" }
      timeline:
        - present: { to: b, transition: \(sheet), duration: 0.3 }
        - hold: 0.2
        - push: { to: c, transition: cover-vertical, duration: 0.3, curve: linear }
        - hold: 0.2
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "sheet.cfg"))
    let segments = Self.bounds(renderer)
    // A third of the way (0.1 s of 0.3, linear) c's top is two thirds of the sheet's height below the sheet's top.
    let third = renderer.frame(segments[2].first + 3, width: 200, height: 400)
    let magenta = (0..<400).filter { third[100, $0] == Pixel(r: 255, g: 0, b: 255, a: 255) }
    let expected = Int((top + (400 - top) * 2 / 3).rounded(.up))
    #expect(magenta.first == expected, "c's top at \(magenta.first ?? -1), not \(expected)")
  }

  /// A pop undoing a push that brought a sheet (or elastic card, or curl)
  /// up undoes that presentation: it starts from its composite and leaves
  /// the screen below, rather than running inside its own card.
  @Test(arguments: ["sheet", "elastic-present, height: 300", "partial-curl"])
  func aPopOfAPushThatBroughtASheetUpUndoesIt(transition: String) throws {
    let renderer = try Self.forwardAndBack("push: { to: b, transition: \(transition) }", "pop: {}")
    #expect(Self.frame(renderer, Self.bounds(renderer)[1].last) != renderer.snapshot(of: "b"), "the hold shows the composite")
    try Self.expectStartsFromTheHoldAndEndsOnA(renderer, "\(transition), then pop")
  }

  /// Screens a (white) and b (red, a green band on top) on a 200x400 black
  /// canvas, and the timeline `forward`, a hold, `back`, a hold.
  static func forwardAndBack(_ forward: String, _ back: String) throws -> FrameRenderer {
    let job = """
      name: there-and-back
      canvas: { size: 200x400, scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#FFFFFF" }
        b: { background: "#FF0000", views: [ { frame: [0, 0, 200, 100], color: "#00FF00" } ] }
      timeline:
        - \(forward)
        - hold: 0.1
        - \(back)
        - hold: 0.1
      """
    return FrameRenderer(spec: try JobParser.parse(job, file: "there-and-back.cfg"))
  }

  static func frame(_ renderer: FrameRenderer, _ n: Int) -> Bitmap { renderer.frame(n, width: 200, height: 400) }

  /// The way back's first frame is the hold's before it, and it ends on a.
  static func expectStartsFromTheHoldAndEndsOnA(_ renderer: FrameRenderer, _ what: String) throws {
    let segments = bounds(renderer)
    let starts = frame(renderer, segments[2].first) == frame(renderer, segments[1].last)
    #expect(starts, "\(what): the first frame back is not the hold's")
    let ends = frame(renderer, segments[3].first) == renderer.snapshot(of: "a")
    #expect(ends, "\(what): it does not end on a")
  }

  /// A sheet presented from a sheet moves the first card back as a card
  /// (UIKIT.md §2): its top shows just above the new card, dimmed, where a
  /// full-screen root moved back would show the black behind it.
  @Test func aSheetOverASheetLeavesTheFirstCardShowingAboveIt() throws {
    let job = Self.job(first: "sheet", second: "present", back: "dismiss")
      .replacingOccurrences(of: "to: c, duration: 0.3", with: "to: c, transition: sheet, duration: 2")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "stack.cfg"))
    let segments = Self.bounds(renderer)
    let stacked = renderer.frame(segments[3].last, width: 200, height: 400)
    // The new card's top rests at 59 + 10 pt; the first card, scaled by
    // 1 − 20/200 about the centre and moved up 10·400/200 pt, has its top at 62.1.
    let new = stacked[100, 75], first = stacked[100, 66], above = stacked[100, 55]
    #expect(new == Pixel(r: 255, g: 0, b: 255, a: 255), "\(new)")
    #expect(first.b > 190 && first.b < 215 && first.r == 0, "the first card is not there, dimmed: \(first)")
    #expect(above.b == 0, "\(above)")
  }

  /// A dismiss from a screen pushed while a sheet is up dismisses the sheet,
  /// the pushed screen with it, as UIKit's `dismiss(animated:)` from a
  /// screen pushed in a presented navigation controller does: it was an
  /// error ("dismiss, but 'c' was pushed; use pop"), though a pop only goes
  /// back to b in the card. The dismiss starts from the card showing c, c
  /// goes down with the card and it ends on a; the stack is empty after it.
  @Test func aDismissFromAScreenPushedInASheetDismissesTheSheet() throws {
    let job = Self.job(first: "sheet", second: "push", back: "dismiss")
      .replacingOccurrences(of: "to: c, duration", with: "to: c, transition: push, duration")
      .replacingOccurrences(of: "  - dismiss: {}\n  - hold: 0.2\n  - dismiss: {}\n", with: "  - dismiss: {}\n")
    let spec = try JobParser.parse(job, file: "stack.cfg")
    let steps = spec.timeline.compactMap { if case .transition(let step) = $0 { step } else { nil } }
    #expect(steps.map(\.operation) == [.present, .push, .dismiss])
    #expect(steps.last.map { [$0.from, $0.to, $0.transition] } == ["c", "a", "sheet"])
    let renderer = FrameRenderer(spec: spec)
    let segments = Self.bounds(renderer)
    #expect(segments.count == 6)
    func frame(_ n: Int) -> Bitmap { renderer.frame(n, width: 200, height: 400) }
    let resting = frame(segments[3].last)
    #expect(resting[100, 200] == Pixel(r: 255, g: 0, b: 255, a: 255), "c in the card: \(resting[100, 200])")
    let starts = frame(segments[4].first) == resting
    #expect(starts, "the dismiss jumps from the card showing c")
    // Part way, the card still shows c (not b) as it goes down.
    let during = frame(segments[4].first + 3)
    let low = during[100, 390], top = during[100, 75]
    #expect(low == Pixel(r: 255, g: 0, b: 255, a: 255) && top != low, "\(top) \(low)")
    let ends = frame(segments[5].last) == renderer.snapshot(of: "a")
    #expect(ends)
    // The stack is empty again: a pop has nothing to pop.
    let more = job + "\n  - pop: {}\n"
    #expect(throws: Diagnostic.self) { try JobParser.parse(more, file: "stack.cfg") }
  }

  /// A dismiss naming another transition than the present it undoes starts
  /// from the picture on display: the composite a sheet, an elastic card
  /// or a curl left, or the screen a full-screen present left, which a
  /// presentation over the old screen then takes off whole. Its first frame
  /// is the hold's, and it ends on the screen below.
  @Test(arguments: [
    ("sheet", "cross-dissolve"), ("sheet", "cover-vertical"), ("sheet", "elastic-present"),
    ("elastic-present, height: 300", "push"), ("partial-curl", "flip-horizontal"), ("partial-curl", "sheet"),
    ("cross-dissolve", "sheet"), ("cover-vertical", "elastic-present"), ("push", "partial-curl"),
  ])
  func aDismissWithAnotherTransitionStartsFromThePictureOnDisplay(present: String, dismiss: String) throws {
    let renderer = try Self.forwardAndBack(
      "present: { to: b, transition: \(present) }", "dismiss: { transition: \(dismiss) }")
    try Self.expectStartsFromTheHoldAndEndsOnA(renderer, "\(present) then \(dismiss)")
  }

  /// A step back with its forward's transition but another shape of rest
  /// starts from the picture on display, as one naming another transition
  /// does: an elastic card of another height; a sheet dimmed otherwise, or
  /// resting elsewhere. Each drew its own rest as its first frame, a jump
  /// from the hold. (A curl's step back uncurls its forward's page whatever
  /// it writes: `aCurlsStepBackUncurlsThePageItsForwardCurled`.)
  @Test(arguments: [
    ("present: { to: b, transition: elastic-present, height: 300 }", "dismiss: { height: 200 }"),
    ("present: { to: b, transition: sheet }", "dismiss: { dimming: 0.8 }"),
    ("present: { to: b, transition: sheet }", "dismiss: { safeAreaTop: 0 }"),
    ("present: { to: b, transition: sheet }", "dismiss: { cardWidth: 150 }"),
  ])
  func aStepBackOfAnotherShapeStartsFromThePictureOnDisplay(forward: String, back: String) throws {
    let renderer = try Self.forwardAndBack(forward, back)
    try Self.expectStartsFromTheHoldAndEndsOnA(renderer, "\(forward) then \(back)")
  }

  /// A partial curl's step back uncurls the page its forward curled, as
  /// UIKit runs that curl back, whatever `mirror:`, `reveal` or `radius`
  /// it writes: every frame is the plain step back's, from the hold to the
  /// screen below. With another one it brought a second page down over the
  /// curl, from clear of the screen, so two rolls showed at once.
  @Test(arguments: [
    ("present: { to: b, transition: partial-curl }", "dismiss: { mirror: true }", "dismiss: {}"),
    ("present: { to: b, transition: partial-curl, mirror: true }", "dismiss: { mirror: false }", "dismiss: {}"),
    ("push: { to: b, transition: partial-curl }", "pop: { mirror: true, duration: 0.3 }", "pop: { duration: 0.3 }"),
    ("present: { to: b, transition: partial-curl }", "dismiss: { reveal: 100 }", "dismiss: {}"),
    ("present: { to: b, transition: partial-curl, reveal: 250 }", "dismiss: { radius: 30, reveal: 250 }", "dismiss: {}"),
  ])
  func aCurlsStepBackUncurlsThePageItsForwardCurled(forward: String, back: String, plain: String) throws {
    let written = try Self.forwardAndBack(forward, back), own = try Self.forwardAndBack(forward, plain)
    #expect(written.frameCount == own.frameCount)
    let segments = Self.bounds(own)
    let differing = (segments[2].first...segments[2].last).filter { Self.frame(written, $0) != Self.frame(own, $0) }
    #expect(differing.isEmpty, "\(forward) then \(back): frames \(differing) are not the plain step back's")
    try Self.expectStartsFromTheHoldAndEndsOnA(written, "\(forward) then \(back)")
  }

  /// A step back of its forward's shape still draws the forward's rest
  /// itself: mirrored, a sheet or an elastic card rests as it does
  /// unmirrored, so its dismiss lowers the card as the present raised it.
  @Test(arguments: ["sheet", "elastic-present, height: 300"])
  func aMirroredDismissOfASymmetricRestDrawsItsOwn(present: String) throws {
    let mirrored = try Self.forwardAndBack("present: { to: b, transition: \(present) }", "dismiss: { mirror: true }")
    let plain = try Self.forwardAndBack("present: { to: b, transition: \(present) }", "dismiss: {}")
    let segments = Self.bounds(plain)
    let same = (segments[2].first...segments[2].last).allSatisfy { Self.frame(mirrored, $0) == Self.frame(plain, $0) }
    #expect(same, "\(present): the mirrored dismiss is not the plain one")
  }

  /// A curl, a sheet or a card pushed inside a sheet's card rests there,
  /// as on the whole screen, and the steps after it start from the card
  /// showing it: a present over it, a push in the card, a pop naming
  /// another transition (or a curl mirrored the other way), a dismiss
  /// taking the card down. Each drew the pushed screen alone in the card
  /// as its first frame (the curl gone from the card), a jump from the hold.
  @Test(arguments: [
    "present: { to: b, transition: sheet } | push: { to: c, transition: partial-curl } | present: { to: d, transition: cross-dissolve }",
    "present: { to: b, transition: sheet } | push: { to: c, transition: partial-curl } | dismiss: {}",
    "present: { to: b, transition: sheet } | push: { to: c, transition: partial-curl } | push: { to: d, transition: cross-dissolve } | pop: {} | dismiss: {}",
    "present: { to: b, transition: partial-curl } | push: { to: c, transition: partial-curl } | pop: { transition: cross-dissolve }",
    "present: { to: b, transition: sheet } | push: { to: c, transition: sheet } | pop: { transition: cross-dissolve }",
    "present: { to: b, transition: partial-curl } | push: { to: c, transition: partial-curl } | pop: { mirror: true }",
    "present: { to: b, transition: sheet } | push: { to: c, transition: partial-curl } | pop: { mirror: true }",
  ])
  func stepsFromACardShowingARestDoNotJump(steps: String) throws {
    let timeline = steps.split(separator: "|").map { "  - \($0.trimmingCharacters(in: .whitespaces))\n  - hold: 0.1\n" }.joined()
    let job = """
      name: card-rest
      canvas: { size: 200x400, scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#FFFFFF" }
        b: { background: "#0000FF", views: [ { frame: [20, 40, 40, 20], color: "#FFFF00" } ] }
        c: { background: "#FF00FF", views: [ { frame: [20, 160, 40, 20], color: "#00FF00" } ] }
        d: { background: "#00FFFF" }
      timeline:

      """ + timeline
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "card-rest.cfg"))
    let segments = Self.bounds(renderer)
    for s in stride(from: 1, to: segments.count - 1, by: 2) {
      let starts = Self.frame(renderer, segments[s + 1].first) == Self.frame(renderer, segments[s].last)
      #expect(starts, "\(steps): step \(s / 2 + 2) jumps from the hold before it")
    }
  }

  /// A pop inside a sheet's card that names a presentation over the old
  /// screen (a sheet, a curl) other than the push's starts from what the card
  /// shows, as a dismiss naming another transition does on the whole
  /// screen: it drew that presentation's own rest as its first frame (c as
  /// a second card inside the first, or b's page curled over it), and
  /// jumped there from the hold.
  @Test(arguments: ["sheet", "partial-curl"])
  func aPopInACardNamingAnotherPresentationStartsFromTheCard(transition: String) throws {
    let job = Self.job(first: "sheet", second: "push", back: "pop")
      .replacingOccurrences(of: "to: c, duration", with: "to: c, transition: push, duration")
      .replacingOccurrences(of: "  - pop: {}", with: "  - pop: { transition: \(transition), duration: 0.3 }")
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "stack.cfg"))
    let segments = Self.bounds(renderer)
    #expect(segments.count == 8)
    func frame(_ n: Int) -> Bitmap { renderer.frame(n, width: 200, height: 400) }
    let starts = frame(segments[4].first) == frame(segments[3].last)
    #expect(starts, "\(transition): the pop's first frame is not the hold's")
    let ends = frame(segments[5].first) == frame(segments[1].last)
    #expect(ends, "\(transition): the pop does not end on b in the card")
  }

  /// A cross-dissolve dismissing a sheet blends the sheet's composite (the
  /// black above the receded screen, the card's green top 69 pt down) into
  /// the screen below, not the presented screen alone.
  @Test func aCrossDissolveDismissingASheetFadesItsComposite() throws {
    let job = """
      name: fade
      canvas: { size: 200x400, scale: 1, fps: 30, background: "#000000" }
      screens:
        a: { background: "#FFFFFF" }
        b: { background: "#FF0000", views: [ { frame: [0, 0, 200, 100], color: "#00FF00" } ] }
      timeline:
        - present: { to: b, transition: sheet }
        - hold: 0.1
        - dismiss: { transition: cross-dissolve, curve: linear, duration: 0.4 }
      """
    let renderer = FrameRenderer(spec: try JobParser.parse(job, file: "fade.cfg"))
    let segments = Self.bounds(renderer)
    // Frame 3 of 12: the composite at opacity ¾ over the black, white at ¼ over it.
    let quarter = renderer.frame(segments[2].first + 3, width: 200, height: 400)
    let above = quarter[100, 30], card = quarter[100, 80]
    #expect(above.r == above.g && above.g == above.b && (60...68).contains(Int(above.r)), "\(above)")
    #expect((60...68).contains(Int(card.r)) && (203...211).contains(Int(card.g)) && card.b == card.r, "\(card)")
  }
}
