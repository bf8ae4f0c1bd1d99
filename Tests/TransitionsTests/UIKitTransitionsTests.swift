#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Motion
import Raster
import Testing
import Transitions

/// Geometry of the UIKit built-ins against UIKIT.md (393×852).
@Suite struct UIKitTransitionsTests {
  static let fractions = [0.1, 0.2, 0.5, 0.8]

  @Test func parallaxOffsetsMatchTheReference() {
    // UIKIT.md's table: 113 @375, where 0.7 × 375 is exactly 262.5 in
    // double and the half goes to even (C's round would give 112).
    #expect(NavigationParallax.parallaxOffset(width: 375) == 113)
    #expect(NavigationParallax.parallaxOffset(width: 393) == 118)
    #expect(NavigationParallax.parallaxOffset(width: 402) == 121)
    #expect(NavigationParallax.parallaxOffset(width: 430) == 129)
  }

  @Test func edgeShadowProfileMatchesTheReference() {
    let expected: [(Double, Double)] = [(0, 0.32), (1, 0.27), (2, 0.22), (3, 0.17), (4.5, 0.11), (6, 0.06), (9, 0.015)]
    for (d, alpha) in expected {
      #expect(abs(NavigationParallax.shadowAlpha(atDistance: d) - alpha) < 0.006, "d = \(d)")
    }
  }

  @Test(arguments: fractions)
  func pushAndPopFollowCurve7(fraction: Double) {
    let t = NavigationParallax(parameters: TransitionParameters())
    let time = fraction * 0.5
    let c = Spring.system.position(at: time)
    for op in [TransitionOperation.push, .pop] {
      let amount = op.isReverse ? 1 - c : c
      let layer = t.layers(in: Fixture.context(op), at: time)
      #expect(layer.sublayers.count == 3)
      let (under, dim, top) = (layer.sublayers[0], layer.sublayers[1], layer.sublayers[2])
      #expect(close(under.transform.m41, -118 * amount, 1e-9))
      #expect(close(top.transform.m41, 393 * (1 - amount), 1e-9))
      #expect(close(dim.opacity, amount) && dim.backgroundColor == Color(red: 0, green: 0, blue: 0, alpha: 0.1))
      #expect(dim.frame == Rect(x: 0, y: 0, width: 393, height: 852))
      // The edge shadow rides on the top screen's left edge and fades out both ways.
      let shadow = top.sublayers[0]
      #expect(shadow.frame == Rect(x: -9, y: 0, width: 9, height: 852) && shadow.gradient != nil)
      #expect(close(shadow.opacity, 1 - c))
      // Push: the list under, the detail on top; pop: the list under again.
      #expect(under.contents == Fixture.a.image && top.contents == Fixture.b.image)
    }
  }

  @Test func pushAndPopAreTheSameTransitionUnderTwoNames() {
    #expect(Catalog.descriptor(named: "push")?.parameters.map(\.name) == Catalog.descriptor(named: "pop")?.parameters.map(\.name))
    let push = Catalog.descriptor(named: "pop")!.make(TransitionParameters())
    #expect(push.duration == 0.5)
  }

  @Test(arguments: fractions)
  func coverVerticalSlidesOnCurve7(fraction: Double) {
    let t = CoverVertical(parameters: TransitionParameters())
    let c = Spring.system.position(at: fraction * 0.5)
    let present = t.layers(in: Fixture.context(.present), at: fraction * 0.5)
    #expect(close(present.sublayers[1].transform.m42, 852 * (1 - c), 1e-9))
    #expect(present.sublayers[1].contents == Fixture.b.image && present.sublayers[0].transform.isIdentity)
    let dismiss = t.layers(in: Fixture.context(.dismiss), at: fraction * 0.5)
    #expect(close(dismiss.sublayers[1].transform.m42, 852 * c, 1e-9))
    #expect(dismiss.sublayers[1].contents == Fixture.b.image)
  }

  @Test(arguments: fractions)
  func crossDissolveFadesBoth(fraction: Double) {
    let t = CrossDissolve(parameters: TransitionParameters(["curve": .curve(.linear)]))
    let layer = t.layers(in: Fixture.context(.present), at: fraction * 0.5)
    #expect(close(layer.sublayers[0].opacity, 1 - fraction, 1e-9) && close(layer.sublayers[1].opacity, fraction, 1e-9))
    #expect(layer.sublayers[1].contents == Fixture.b.image)
  }

  @Test(arguments: fractions)
  func flipTurnsHalfAroundWithTheCameraBack(fraction: Double) {
    let t = FlipHorizontal(parameters: TransitionParameters())
    let p = TimingFunction.easeInEaseOut.value(at: fraction)
    for op in [TransitionOperation.present, .dismiss] {
      let ctx = Fixture.context(op)
      let theta = t.angle(in: ctx, progress: p)
      #expect(close(abs(theta), Double.pi * p))
      #expect((theta <= 0) == !op.isReverse)  // present turns the right edge toward the viewer
      let layer = t.layers(in: ctx, at: fraction * 0.5)
      #expect(close(layer.sublayerTransform.m34, -1 / (2 * 852)))
      let card = layer.sublayers[0]
      #expect(card.contents == (p < 0.5 ? ctx.fromScreen.image : ctx.toScreen.image))
      let s = 1 - 393 / (4 * 852) * abs(sin(theta))
      #expect(close(t.cardScale(in: ctx, angle: theta), s))
      #expect(close(card.sublayers[0].opacity, 0.3 * abs(sin(theta)), 1e-12))
    }
  }

  /// The turning card is one layer with its dimming overlay: its
  /// anti-aliased edge over the black behind it is the dimmed card through
  /// the edge's coverage, never brighter than both. (A white card dimmed all
  /// the way, `dim: 1`, at 0.45 s of a linear 1 s flip reads 3 inside; its
  /// edge pixels read 50–61, as the card and then its overlay each blended
  /// through the coverage.)
  @Test func flipCardEdgeIsNoBrighterThanTheDimmedCard() {
    let white = ScreenSnapshot(
      name: "a", image: Bitmap(width: 400, height: 800, fill: Pixel(r: 255, g: 255, b: 255, a: 255)))
    let ctx = TransitionContext(
      containerSize: Size(width: 400, height: 800), scale: 1, operation: .push, fromScreen: white, toScreen: white)
    for dim in [1.0, 0.3] {
      let t = FlipHorizontal(
        parameters: TransitionParameters(["curve": .curve(.linear), "duration": .number(1), "dim": .number(dim)]))
      var frame = Bitmap(width: 400, height: 800, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
      Compositor(scale: 1).render(t.layers(in: ctx, at: 0.45), into: &frame)
      let inside = frame[200, 400]
      // The card's row through the middle: black, the edge, the card, the edge, black.
      let row = (0..<400).map { frame[$0, 400] }
      let edge = row.filter { $0 != inside && $0.r != 0 }
      let brightest = row.map { Int($0.r) }.max() ?? 0
      let grey = row.allSatisfy { $0.r == $0.g && $0.g == $0.b && $0.a == 255 }
      let ok = grey && inside.r < 255 && brightest <= Int(inside.r) + 1
      #expect(ok, "dim \(dim): inside \(inside.r), edge \(edge.map(\.r)), brightest \(brightest)")
    }
  }

  /// An eye nearer than half the screen's width is taken at half of it: the
  /// card's dolly stays at or above zero, so the card never turns upside
  /// down (at distance 50 on a 393 pt screen it reached −2.9).
  @Test func flipWithTheEyeCloseKeepsTheCardUpright() {
    let t = FlipHorizontal(parameters: TransitionParameters(["distance": .number(50)]))
    let ctx = Fixture.context(.present)
    #expect(t.eyeDistance(in: ctx) == 196.5)
    for fraction in stride(from: 0.0, through: 1, by: 0.05) {
      let theta = t.angle(in: ctx, progress: fraction)
      #expect(t.cardScale(in: ctx, angle: theta) >= -1e-12, "\(fraction)")
    }
    #expect(FlipHorizontal(parameters: TransitionParameters(["distance": .number(300)])).eyeDistance(in: ctx) == 300)
  }

  @Test func sheetRestsBelowTheSafeAreaWithThePresenterReceded() throws {
    let t = PageSheet(parameters: TransitionParameters())
    let ctx = Fixture.context(.present)
    let rest = t.restingLayers(in: ctx)
    let (black, receding, dim, card) = (rest.sublayers[0], rest.sublayers[1], rest.sublayers[2], rest.sublayers[3])
    #expect(black.backgroundColor == .black)
    // The receded screen: scale 1 − 20/W about its centre, top edge at the safe-area top.
    let s = 1 - 20 / 393.0
    #expect(close(receding.transform.m11, s) && close(receding.transform.m22, s))
    let top = 426 - s * 426 + receding.transform.m42
    #expect(close(top, 59, 1e-9))
    #expect(receding.cornerRadius == 10 && receding.masksToBounds)
    #expect(close(dim.opacity, 1) && dim.backgroundColor == Color(red: 0, green: 0, blue: 0, alpha: 0.2))
    // The card: 10 pt under the safe-area top, radius 10.
    #expect(card.frame.minY == 69 && card.transform.m42 == 0 && card.cornerRadius == 10)
    #expect(card.sublayers[0].contents == Fixture.b.image)
  }

  @Test(arguments: fractions)
  func sheetRisesOnTheCriticallyDampedSpring(fraction: Double) {
    let t = PageSheet(parameters: TransitionParameters())
    let spring = Spring(response: 0.344144233, dampingRatio: 1)
    let time = fraction * 0.5
    let c = spring.position(at: time)
    let layer = t.layers(in: Fixture.context(.present), at: time)
    let card = layer.sublayers[3]
    #expect(close(card.frame.minY + card.transform.m42, lerp(852, 69, c), 1e-9))
    #expect(close(layer.sublayers[2].opacity, c, 1e-12))
    let back = t.layers(in: Fixture.context(.dismiss), at: time).sublayers[3]
    #expect(close(back.frame.minY + back.transform.m42, lerp(69, 852, c), 1e-9))
  }

  @Test func partialCurlRevealsTheRequestedHeight() {
    let t = PartialCurl(parameters: TransitionParameters(["reveal": .number(300)]))
    let ctx = Fixture.context(.present)
    let n = PartialCurl.normal
    #expect(close(n.x * n.x + n.y * n.y, 1))
    // Flat: the fold touches the bottom-right corner; at rest its lowest point, at the left edge, is 300 pt up.
    #expect(close(t.foldOffset(in: ctx, presented: ctx.toScreen, amount: 0), 393 * n.x + 852 * n.y))
    #expect(close(t.foldOffset(in: ctx, presented: ctx.toScreen, amount: 1), 552 * n.y))
    // Default h: H − max(40, the topmost view's minY) — the hero at y = 100.
    let d = PartialCurl(parameters: TransitionParameters())
    #expect(d.revealHeight(in: ctx, presented: Fixture.b) == 752)
    // Every view counts, with an id or without (a screen's snapshot knows the highest).
    var unnamed = Fixture.b
    unnamed.viewsTop = 300
    #expect(d.revealHeight(in: ctx, presented: unnamed) == 552)
    unnamed.viewsTop = nil
    #expect(d.revealHeight(in: ctx, presented: unnamed) == 426)
    // The presented screen is below, the curled page above, masked.
    let layer = t.layers(in: ctx, at: 0.25)
    #expect(layer.sublayers[0].contents == Fixture.b.image && layer.sublayers[2].contents == Fixture.a.image)
    #expect(layer.sublayers[2].mask?.path != nil)
  }

  /// `reveal: 0` uncovers nothing: the page stays flat through the present
  /// and at rest (it lifted a 69-pt wedge at the bottom right, the roll
  /// over it), as does a default h of 0, the topmost view at the bottom.
  @Test func partialCurlWithNothingToRevealStaysFlat() {
    let ctx = Fixture.context(.present)
    let t = PartialCurl(parameters: TransitionParameters(["reveal": .number(0)]))
    for time in [0.1, 0.25, 0.5] {
      let picture = Compositor(scale: 0.1).snapshot(t.layers(in: ctx, at: time))
      var red = 0
      for y in 0..<picture.height { for x in 0..<picture.width where picture[x, y] == Fixture.red { red += 1 } }
      #expect(red == picture.width * picture.height, "at \(time) s: \(red) of \(picture.width * picture.height)")
    }
    var low = Fixture.b
    low.viewsTop = 852
    let d = PartialCurl(parameters: TransitionParameters())
    #expect(d.revealHeight(in: ctx, presented: low) == 0)
    let flat = 393 * PartialCurl.normal.x + 852 * PartialCurl.normal.y
    #expect(close(d.foldOffset(in: ctx, presented: low, amount: 1), flat))
  }

  /// No pixel along the fold shows the curled page (red) together with the
  /// screen below (blue): the roll's grey and its shadow lie between them.
  /// The page was cut along the roll's lower edge, two anti-aliased edges
  /// on one line, and a hairline of the page's red ran along the fold.
  @Test func partialCurlShowsNoHairlineOfThePageAlongTheFold() {
    let ctx = Fixture.context(.present)
    let t = PartialCurl(parameters: TransitionParameters(["reveal": .number(300)]))
    for time in [0.2, 0.35, 0.5] {
      let picture = Compositor(scale: 1).snapshot(t.layers(in: ctx, at: time))
      var seam = 0
      for y in 0..<picture.height {
        for x in 0..<picture.width {
          let p = picture[x, y]
          let pageAndBelow = Int(p.r) > Int(p.g) + 2 && Int(p.b) > Int(p.g) + 2
          if pageAndBelow { seam += 1 }
        }
      }
      #expect(seam == 0, "at \(time) s: \(seam) pixels mix the page with the screen below")
    }
  }

  /// Between the roll's grey and the white screen below, its shadow darkens
  /// the line where they meet as it does the row beneath: no pixel down a
  /// column is lighter than both its neighbours there. The shadow ended on
  /// the roll's lower edge, and that line was drawn light, a dashed seam.
  @Test func partialCurlShowsNoLightLineAlongTheFold() {
    let white = Pixel(r: 255, g: 255, b: 255, a: 255)
    var ctx = Fixture.context(.present)
    ctx.fromScreen = ScreenSnapshot(name: "a", image: Bitmap(width: 39, height: 85, fill: white))
    ctx.toScreen = ScreenSnapshot(name: "b", image: Bitmap(width: 39, height: 85, fill: white))
    let t = PartialCurl(parameters: TransitionParameters(["reveal": .number(300)]))
    for time in [0.2, 0.5] {
      let picture = Compositor(scale: 1).snapshot(t.layers(in: ctx, at: time))
      var light = 0
      for x in 0..<picture.width {
        for y in 1..<(picture.height - 1) {
          let above = Int(picture[x, y - 1].g), here = Int(picture[x, y].g), below = Int(picture[x, y + 1].g)
          if here > max(above, below) + 2 { light += 1 }
        }
      }
      #expect(light == 0, "at \(time) s: \(light) pixels lighter than the rows above and below")
    }
  }
}
