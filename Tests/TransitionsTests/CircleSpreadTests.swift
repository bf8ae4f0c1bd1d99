import Geometry
import Motion
import Raster
import Testing
import Transitions

/// Seed 000's geometry: the mask is an oval lerped between the origin rect
/// and the big circle by the easeInEaseOut value.
@Suite struct CircleSpreadTests {
  static let size = Size(width: 390, height: 844)

  static func context(_ operation: TransitionOperation) -> TransitionContext {
    let a = ScreenSnapshot(name: "a", image: Bitmap(width: 39, height: 84, fill: Pixel(r: 255, g: 0, b: 0, a: 255)))
    let b = ScreenSnapshot(name: "b", image: Bitmap(width: 39, height: 84, fill: Pixel(r: 0, g: 0, b: 255, a: 255)))
    return TransitionContext(containerSize: size, scale: 0.1, operation: operation, fromScreen: a, toScreen: b)
  }

  @Test func pushEndsOnTheSeedRadius() {
    let t = CircleSpread(parameters: TransitionParameters())
    let oval = t.maskOval(in: Self.context(.push), progress: 1)
    // √(max(100, 390−100)² + max(100, 844−100)²) = √(290² + 744²)
    let r = (290.0 * 290 + 744 * 744).squareRoot()
    #expect(abs(oval.width / 2 - r) < 1e-9)
    #expect(abs(oval.midX - 195) < 1e-9 && abs(oval.midY - 422) < 1e-9)
    #expect(t.maskOval(in: Self.context(.push), progress: 0) == .zero)
  }

  @Test func popShrinksHalfDiagonalOntoOrigin() {
    let origin = Rect(x: 300, y: 50, width: 40, height: 40)
    let t = CircleSpread(parameters: TransitionParameters(["origin": .rect(origin)]))
    let start = t.maskOval(in: Self.context(.pop), progress: 0)
    let halfDiagonal = (390.0 * 390 + 844 * 844).squareRoot() / 2
    #expect(abs(start.width / 2 - halfDiagonal) < 1e-9)
    #expect(t.maskOval(in: Self.context(.pop), progress: 1) == origin)
  }

  @Test(arguments: [0.1, 0.25, 0.5, 0.7, 0.9])
  func radiusFollowsEaseInEaseOut(fraction: Double) {
    let t = CircleSpread(parameters: TransitionParameters())
    let ctx = Self.context(.push)
    let layer = t.layers(in: ctx, at: fraction * 0.7)
    let mask = layer.sublayers[1].mask
    let r = (290.0 * 290 + 744 * 744).squareRoot()
    let expected = TimingFunction.easeInEaseOut.value(at: fraction) * r
    let circle = mask?.path?.circle
    #expect(circle != nil)
    #expect(abs((circle?.radius ?? 0) - expected) < 1e-9)
    // The centre travels from the origin rect's centre (0, 0) to the container's.
    let p = TimingFunction.easeInEaseOut.value(at: fraction)
    #expect(abs((circle?.center.x ?? 0) - 195 * p) < 1e-9)
  }

  @Test func layerOrderFollowsTheSeed() {
    let t = CircleSpread(parameters: TransitionParameters())
    // Push: from below, to on top and masked.
    let push = t.layers(in: Self.context(.push), at: 0.35)
    #expect(push.sublayers.count == 2)
    #expect(push.sublayers[0].contents?[0, 0] == Pixel(r: 255, g: 0, b: 0, a: 255))
    #expect(push.sublayers[1].contents?[0, 0] == Pixel(r: 0, g: 0, b: 255, a: 255))
    #expect(push.sublayers[1].mask != nil)
    // Pop: to-view inserted at index 0; the from-view is masked.
    let pop = t.layers(in: Self.context(.pop), at: 0.35)
    #expect(pop.sublayers[0].contents?[0, 0] == Pixel(r: 0, g: 0, b: 255, a: 255))
    #expect(pop.sublayers[1].contents?[0, 0] == Pixel(r: 255, g: 0, b: 0, a: 255))
    #expect(pop.sublayers[1].mask != nil)
    // Completion removes the mask: only the destination remains.
    let end = t.layers(in: Self.context(.push), at: 0.7)
    #expect(end.sublayers.count == 1 && end.sublayers[0].mask == nil)
  }

  @Test func delayHoldsTheStart() {
    let t = CircleSpread(parameters: TransitionParameters(["delay": .number(0.2)]))
    // During the delay: the old screen alone; just after it, a tiny circle.
    let held = t.layers(in: Self.context(.push), at: 0.1)
    #expect(held.sublayers.count == 1 && held.sublayers[0].contents?[0, 0] == Pixel(r: 255, g: 0, b: 0, a: 255))
    let started = t.layers(in: Self.context(.push), at: 0.2 + 1e-6)
    #expect((started.sublayers[1].mask?.path?.circle?.radius ?? 1) < 1e-3)
  }
}
