import Geometry
import Motion
import Raster
import Testing
import Transitions

/// Every transition in the catalog starts on the from-screen (through its
/// delay; from its begin time on, the animation shows its start values) and
/// ends on the to-screen, in every operation it supports, with and without
/// a delay.
@Suite struct CatalogTests {
  static let names = Catalog.all.map(\.name)

  @Test func namesAreUniqueAndLookupsWork() {
    #expect(Set(Self.names).count == Self.names.count)
    for name in Self.names { #expect(Catalog.descriptor(named: name)?.name == name) }
    #expect(Catalog.descriptor(named: "no-such-transition") == nil)
  }

  @Test(arguments: Catalog.all.map(\.name))
  func everyDescriptorListsTheSharedParameters(name: String) throws {
    let d = try #require(Catalog.descriptor(named: name))
    let params = d.parameters.map(\.name)
    #expect(Array(params.prefix(3)) == ["duration", "delay", "curve"])
    #expect(Set(params).count == params.count)
    #expect(!d.operations.isEmpty && !d.summary.isEmpty && !d.origin.isEmpty)
  }

  @Test(arguments: Catalog.all.map(\.name))
  func startsOnFromAndEndsOnTo(name: String) throws {
    let d = try #require(Catalog.descriptor(named: name))
    for delay in [0.0, 0.3] {
      let t = d.make(Fixture.element.merging(TransitionParameters(["delay": .number(delay)])))
      for op in d.operations {
        let ctx = Fixture.context(op)
        let start = t.layers(in: ctx, at: delay / 2)
        let end = t.layers(in: ctx, at: t.duration + delay)
        if op.isReverse {
          // A dismiss starts where its present came to rest.
          let rest = t.restingLayers(in: ctx.reversed)
          let startOK = delay == 0 || showsExactly(start, ctx.fromScreen) || sameTree(start, rest)
          let endOK = showsExactly(end, ctx.toScreen)
          #expect(startOK, "\(name) \(op) start")
          #expect(endOK, "\(name) \(op) end")
        } else {
          let startOK = delay == 0 || showsExactly(start, ctx.fromScreen)
          let endOK = sameTree(end, t.restingLayers(in: ctx))
          #expect(startOK, "\(name) \(op) start")
          #expect(endOK, "\(name) \(op) end = resting state")
        }
        // Well past the end, still the end.
        let laterOK = sameTree(t.layers(in: ctx, at: t.duration + delay + 5), end)
        #expect(laterOK, "\(name) \(op) after the end")
      }
    }
  }

  @Test(arguments: Catalog.all.map(\.name))
  func midwayFramesAreBuilt(name: String) throws {
    let d = try #require(Catalog.descriptor(named: name))
    let t = d.make(Fixture.element)
    for op in d.operations {
      for f in [0.1, 0.5, 0.9] {
        let layer = t.layers(in: Fixture.context(op), at: f * t.duration)
        let ok = !layer.sublayers.isEmpty && layer.frame == Rect(origin: .zero, size: Fixture.size)
        #expect(ok, "\(name) \(op) at \(f)")
      }
    }
  }
}

/// Structural equality of the parts of two trees the tests care about.
func sameTree(_ a: Layer, _ b: Layer) -> Bool {
  a.bounds == b.bounds && a.position == b.position && a.anchorPoint == b.anchorPoint
    && a.transform == b.transform && a.sublayerTransform == b.sublayerTransform && a.opacity == b.opacity
    && a.contents == b.contents && a.backgroundColor == b.backgroundColor && a.path == b.path
    && a.masksToBounds == b.masksToBounds && a.cornerRadius == b.cornerRadius
    && (a.mask == nil) == (b.mask == nil) && a.sublayers.count == b.sublayers.count
    && zip(a.sublayers, b.sublayers).allSatisfy { sameTree($0, $1) }
}
