import Geometry
import Motion
import Raster
import Testing
import Transitions

/// Geometry of the seeds' transitions against their formulas (393×852).
@Suite struct SeedTransitionsTests {
  static let w = 393.0, h = 852.0
  static let fractions = [0.1, 0.25, 0.5, 0.75, 0.9]

  // MARK: tap-spread (seed 001)

  @Test func tapSpreadMeasuresToTheFarthestCorner() {
    // A tap at (300, 300): the seed compares y with W/2 and takes the
    // top-left corner (424 pt); the farthest corner is the bottom-left.
    let t = TapSpread(parameters: TransitionParameters(["tap": .point(Point(x: 300, y: 300))]))
    let r = t.spreadRadius(in: Fixture.context(.push))
    #expect(close(r, (300.0 * 300 + 552 * 552).squareRoot()))
    #expect(t.tapRect(in: Fixture.context(.push)) == Rect(x: 285, y: 285, width: 30, height: 30))
    // Default tap: the centre.
    let c = TapSpread(parameters: TransitionParameters())
    #expect(close(c.spreadRadius(in: Fixture.context(.push)), (196.5 * 196.5 + 426 * 426).squareRoot()))
  }

  @Test(arguments: fractions)
  func tapSpreadRadiusFollowsEaseInEaseOut(fraction: Double) throws {
    let tap = Point(x: 60, y: 700)
    let t = TapSpread(parameters: TransitionParameters(["tap": .point(tap)]))
    let big = ((393.0 - 60) * (393 - 60) + 700 * 700).squareRoot()
    let p = TimingFunction.easeInEaseOut.value(at: fraction)
    for op in [TransitionOperation.push, .pop] {
      let layer = t.layers(in: Fixture.context(op), at: fraction * 0.7)
      let circle = try #require(layer.sublayers[1].mask?.path?.circle)
      let expected = op.isReverse ? lerp(15 + big, 15, p) : lerp(15, 15 + big, p)
      #expect(close(circle.radius, expected, 1e-9))
      #expect(close(circle.center.x, tap.x) && close(circle.center.y, tap.y))
      // Push masks the arriving screen, pop the leaving one: with a → b
      // pushed and b → a popped, that is "b" on top over "a" both ways.
      #expect(layer.sublayers[1].contents == Fixture.b.image)
      #expect(layer.sublayers[0].contents == Fixture.a.image)
    }
  }

  // MARK: corner-reveal (seed 004)

  @Test(arguments: fractions)
  func cornerRevealGrowsLinearly(fraction: Double) throws {
    let t = CornerReveal(parameters: TransitionParameters())
    let r = (50.0 * 50 + (852 - 50) * (852 - 50)).squareRoot()
    for op in [TransitionOperation.push, .pop] {
      let layer = t.layers(in: Fixture.context(op), at: fraction * 0.5)
      let circle = try #require(layer.sublayers[1].mask?.path?.circle)
      #expect(close(circle.radius, 50 + r * fraction, 1e-9))
      #expect(close(circle.center.x, 50) && close(circle.center.y, 50))
      // Every operation reveals the destination on top (the seed's one animator).
      #expect(layer.sublayers[1].contents == Fixture.context(op).toScreen.image)
    }
  }

  /// From a rect of the job's own (the seed has none) the circle covers the
  /// farthest corner at its end: from the bottom right, the top-left corner.
  @Test func cornerRevealFromAnotherOriginCoversTheScreen() throws {
    let origin = Rect(x: 293, y: 752, width: 50, height: 50)
    let t = CornerReveal(parameters: TransitionParameters(["origin": .rect(origin)]))
    let end = t.maskOval(in: Fixture.context(.push), progress: 1)
    // The top-left corner (0, 0), 318 and 777 pt from the oval's centre, lies on its edge.
    let radius = end.width / 2
    #expect(close(radius, (318.0 * 318 + 777 * 777).squareRoot(), 1e-9) && close(end.midX, 318) && close(end.midY, 777))
  }

  // MARK: circle-present (seed 002 demo 4)

  @Test(arguments: fractions)
  func circlePresentGrowsFromTheButtonAndShrinksBack(fraction: Double) {
    let button = Rect(x: 150, y: 760, width: 93, height: 44)
    let t = CirclePresent(parameters: TransitionParameters(["origin": .rect(button)]))
    let p = TimingFunction.easeInEaseOut.value(at: fraction)
    // Present: radius from the button's origin, √(max(150, 243)² + max(760, 92)²).
    let big = (243.0 * 243 + 760 * 760).squareRoot()
    #expect(close(t.bigRadius(in: Fixture.context(.present)), big))
    let grow = t.maskOval(in: Fixture.context(.present), progress: p)
    let circle = Rect(x: 196.5 - big, y: 426 - big, width: 2 * big, height: 2 * big)
    #expect(close(grow, button.interpolated(circle, p), 1e-9))
    let layer = t.layers(in: Fixture.context(.present), at: fraction * 0.5)
    let mask = layer.sublayers[1].mask?.path
    #expect(mask == Path(ovalIn: grow))
    // Dismiss: half the diagonal, onto the button.
    let half = (393.0 * 393 + 852 * 852).squareRoot() / 2
    #expect(close(t.bigRadius(in: Fixture.context(.dismiss)), half))
    let shrink = t.maskOval(in: Fixture.context(.dismiss), progress: p)
    let start = Rect(x: 196.5 - half, y: 426 - half, width: 2 * half, height: 2 * half)
    #expect(close(shrink, start.interpolated(button, p), 1e-9))
    #expect(t.maskOval(in: Fixture.context(.dismiss), progress: 1) == button)
  }

  // MARK: magic-move (seed 002 demo 1)

  static let spring = Spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1 / 0.55)

  @Test(arguments: fractions)
  func magicMoveFliesOnTheUIKitSpring(fraction: Double) throws {
    let t = MagicMove(parameters: Fixture.element)
    let time = fraction * 0.75
    let p = Self.spring.position(at: time)
    for op in [TransitionOperation.push, .pop] {
      let layer = t.layers(in: Fixture.context(op), at: time)
      #expect(layer.sublayers.count == 3)
      let flying = layer.sublayers[2]
      let (start, end) = op.isReverse ? (Fixture.hero, Fixture.cell) : (Fixture.cell, Fixture.hero)
      #expect(close(flying.frame, start.interpolated(end, p), 1e-9))
      #expect(flying.contents == Fixture.a.viewImages["cell"])
      // The new screen fades in above the old (push); the old fades out above the new (pop).
      let fading = layer.sublayers[1]
      #expect(close(fading.opacity, op.isReverse ? min(max(1 - p, 0), 1) : min(max(p, 0), 1)))
    }
  }

  @Test func magicMoveOvershootsTheTarget() throws {
    // Damping 0.55 overshoots: some frame flies past the hero's size.
    let t = MagicMove(parameters: Fixture.element)
    let widths = stride(from: 0.0, to: 0.75, by: 0.01).compactMap {
      t.snapshotFrame(in: Fixture.context(.push), progress: Self.spring.position(at: $0))?.width
    }
    #expect(widths.max()! > Fixture.hero.width + 1)
  }

  @Test func magicMoveHidesTheElementWhenTheSnapshotsAllowIt() {
    var a = Fixture.a, b = Fixture.b
    let hiddenA = Bitmap(width: 39, height: 85, fill: Fixture.green), hiddenB = Bitmap(width: 39, height: 85, fill: Fixture.yellow)
    a.imagesWithViewHidden = ["cell": hiddenA]
    b.imagesWithViewHidden = ["hero": hiddenB]
    let ctx = TransitionContext(containerSize: Fixture.size, scale: 0.1, operation: .push, fromScreen: a, toScreen: b)
    let layer = MagicMove(parameters: Fixture.element).layers(in: ctx, at: 0.3)
    #expect(layer.sublayers[0].contents == hiddenA && layer.sublayers[1].contents == hiddenB)
    // A pop given the push's parameters finds the same views.
    let pop = TransitionContext(containerSize: Fixture.size, scale: 0.1, operation: .pop, fromScreen: b, toScreen: a)
    let back = MagicMove(parameters: Fixture.element).layers(in: pop, at: 0.3)
    #expect(back.sublayers[0].contents == hiddenA && back.sublayers[1].contents == hiddenB)
  }

  @Test func magicMoveAcceptsTheElementWrittenForThePop() {
    let reversed = TransitionParameters(["element": .element(from: "hero", to: "cell")])
    let t = MagicMove(parameters: reversed)
    #expect(t.snapshotFrame(in: Fixture.context(.pop), progress: 0) == Fixture.hero)
    #expect(t.snapshotFrame(in: Fixture.context(.pop), progress: 1) == Fixture.cell)
  }

  // MARK: elastic-present (seed 002 demo 2)

  @Test(arguments: fractions)
  func elasticSheetRisesOnTheSpring(fraction: Double) {
    let t = ElasticPresent(parameters: TransitionParameters())
    let spring = Spring(duration: 0.5, dampingRatio: 0.55, initialVelocity: 1 / 0.55)
    let time = fraction * 0.5
    let p = spring.position(at: time)
    for op in [TransitionOperation.present, .dismiss] {
      let amount = op.isReverse ? 1 - p : p
      let layer = t.layers(in: Fixture.context(op), at: time)
      let background = layer.sublayers[0], sheet = layer.sublayers[1]
      // The seed's to-view frame: (0, H, W, 500), moved by translation(0, −500·amount).
      #expect(sheet.frame == Rect(x: 0, y: 852, width: 393, height: 500))
      #expect(close(sheet.transform.m42, -500 * amount))
      #expect(close(852 + sheet.transform.m42, t.sheetTop(in: Fixture.context(op), progress: p)))
      #expect(close(background.transform.m11, 1 - 0.15 * amount) && close(background.transform.m22, 1 - 0.15 * amount))
      #expect(sheet.masksToBounds && sheet.sublayers.first?.contents == Fixture.b.image)
      #expect(background.contents == Fixture.a.image)
    }
  }

  @Test func elasticPresentRestsOnTheComposite() {
    let t = ElasticPresent(parameters: TransitionParameters(["height": .number(400), "scale": .number(0.9)]))
    let rest = t.restingLayers(in: Fixture.context(.present))
    #expect(rest.sublayers.count == 2)
    #expect(close(rest.sublayers[1].transform.m42, -400) && close(rest.sublayers[0].transform.m11, 0.9))
    let end = t.layers(in: Fixture.context(.present), at: 0.5)
    #expect(sameTree(end, rest))
    #expect(sameTree(t.layers(in: Fixture.context(.dismiss), at: 0), rest))
  }

  // MARK: page-flip (seed 002 demo 3)

  @Test(arguments: fractions)
  func pageFlipTurnsAboutTheLeftEdge(fraction: Double) {
    let t = PageFlip(parameters: TransitionParameters())
    let p = TimingFunction.easeInEaseOut.value(at: fraction)
    for op in [TransitionOperation.push, .pop] {
      let turned = op.isReverse ? 1 - p : p
      let layer = t.layers(in: Fixture.context(op), at: fraction * 0.5)
      #expect(close(layer.sublayerTransform.m34, -0.002))
      let under = layer.sublayers[0], page = layer.sublayers[1]
      #expect(page.anchorPoint == Point(x: 0, y: 0.5) && page.position == Point(x: 0, y: 426))
      #expect(page.frame == Rect(x: 0, y: 0, width: 393, height: 852))
      let angle = -Double.pi / 2 * turned
      #expect(close(t.angle(in: Fixture.context(op), progress: p), angle))
      let expected = Transform3D.rotation(y: angle)
      #expect(close(page.transform.m11, expected.m11) && close(page.transform.m13, expected.m13)
        && close(page.transform.m31, expected.m31) && close(page.transform.m33, expected.m33))
      // The page is the list (push's old screen); the overlays fade against each other.
      #expect(page.contents == Fixture.a.image && under.contents == Fixture.b.image)
      #expect(close(page.sublayers[0].opacity, turned) && close(under.sublayers[0].opacity, 1 - turned))
      #expect(page.sublayers[0].backgroundColor == .black)
    }
  }

  // MARK: zoom-expand (seed 003)

  @Test func zoomExpandRunsThreeThirds() throws {
    let t = ZoomExpand(parameters: Fixture.element)
    let third = 0.9 / 3
    let end = Fixture.hero
    func state(_ time: Double) -> ZoomExpand.State {
      t.pushState(at: time, from: Fixture.cell, to: end, screenHeight: 852)
    }
    // ⅓: moved and swollen to 1.1, no hole yet.
    #expect(close(state(third).frame, end) && close(state(third).scale, 1.1) && state(third).holeRadius == nil)
    let mid = state(third / 2), q = TimingFunction.easeInEaseOut.value(at: 0.5)
    #expect(close(mid.frame, Fixture.cell.interpolated(end, q)) && close(mid.scale, lerp(1, 1.1, q)))
    // ⅔: settled at 1.0, fully opaque; the hole starts at 0.1.
    #expect(close(state(2 * third).scale, 1) && close(state(2 * third).opacity, 1))
    #expect(close(state(2 * third).holeRadius ?? -1, 0.1))
    // The last third: fade (easeInEaseOut) and hole (easeOut to ¾ H).
    for f in [0.25, 0.5, 0.75] {
      let s = state(2 * third + f * third)
      #expect(close(s.opacity, 1 - TimingFunction.easeInEaseOut.value(at: f), 1e-9))
      #expect(close(s.holeRadius ?? -1, lerp(0.1, 852 * 0.75, TimingFunction.easeOut.value(at: f)), 1e-9))
    }
  }

  @Test func zoomExpandLayersFollowTheSeedsOrder() throws {
    let t = ZoomExpand(parameters: Fixture.element)
    let layer = t.layers(in: Fixture.context(.push), at: 0.75)
    #expect(layer.sublayers.count == 3)
    let (screen, backdrop, snapshot) = (layer.sublayers[0], layer.sublayers[1], layer.sublayers[2])
    #expect(screen.contents == Fixture.b.image)
    #expect(backdrop.backgroundColor == ZoomExpand.lightGray)
    // The white part starts at the target's centre line.
    #expect(backdrop.sublayers[0].frame.minY == Fixture.hero.midY && backdrop.sublayers[0].backgroundColor == .white)
    let mask = try #require(backdrop.mask)
    #expect(mask.fillRule == .evenOdd)
    #expect(mask.path?.elements.count == 5 + 5)  // rect (move, 3 lines, close) + reversed arc (move, 4 cubics)
    #expect(snapshot.shadowRadius == 5 && snapshot.shadowOpacity == 0.4 && snapshot.shadowOffset == .zero)
    #expect(snapshot.contents == Fixture.a.viewImages["cell"])
    // Before the last third: no mask on the backdrop.
    #expect(t.layers(in: Fixture.context(.push), at: 0.4).sublayers[1].mask == nil)
  }

  @Test func zoomExpandPopPlaysThePushBackwards() throws {
    let t = ZoomExpand(parameters: Fixture.element)
    for time in [0.1, 0.35, 0.5, 0.8] {
      let pop = try #require(t.state(in: Fixture.context(.pop), at: time))
      let push = try #require(t.state(in: Fixture.context(.push), at: 0.9 - time))
      #expect(close(pop.frame, push.frame, 1e-9) && close(pop.scale, push.scale, 1e-9))
      #expect(close(pop.opacity, push.opacity, 1e-9))
    }
  }
}

extension Rect {
  /// Test-side linear blend (matches the transitions' frame animation).
  func interpolated(_ other: Rect, _ t: Double) -> Rect {
    Rect(
      x: lerp(minX, other.minX, t), y: lerp(minY, other.minY, t),
      width: lerp(width, other.width, t), height: lerp(height, other.height, t))
  }
}

func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { (1 - t) * a + t * b }
