import Testing

@testable import Media

/// How long each changed pixel keeps its colour (`GIFLifetimes`), against
/// lifetimes counted by hand and against a brute-force count over random
/// clips.
@Suite struct GIFLifetimesTests {
  /// Packed BGRA frames of one grey per pixel.
  static func frame(_ greys: [UInt8]) -> [UInt8] { greys.flatMap { [$0, $0, $0, 255] } }

  /// Every image's lifetimes.
  static func all(_ lifetimes: GIFLifetimes) -> [[UInt8]] { (0..<lifetimes.count).map { Array(lifetimes.frames(of: $0)!) } }

  /// Three pixels over images starting at frames 0, 1, 2 and 5 of an
  /// 8-frame clip: pixel 0 changes at 0 and 2, pixel 1 only at 0, pixel 2
  /// at 0, 1 and 5. A change of alpha alone is no change.
  @Test static func countsFramesUntilThePixelChangesAgain() {
    var lifetimes = GIFLifetimes(pixels: 3)
    let frames = [
      (0, frame([10, 20, 30])), (1, frame([10, 20, 31])), (2, frame([11, 20, 31])), (5, frame([11, 20, 32])),
    ]
    var previous: [UInt8]?
    for (start, pixels) in frames {
      var alphaOnly = previous
      if alphaOnly != nil { alphaOnly![7] = 0 }
      lifetimes.add(pixels, changedFrom: alphaOnly, start: start)
      previous = pixels
    }
    lifetimes.finish(frameCount: 8)
    #expect(all(lifetimes) == [[2, 8, 1], [4], [6], [3]])
  }

  /// An image's bounds are its lifetimes through the table, their mean
  /// the lifetimes' average; a slice that does not start at 0 (the second
  /// image) reads its own lifetimes, and an image without any has mean 0.
  @Test static func boundsLookTheLifetimesUpInTheTable() {
    var lifetimes = GIFLifetimes(pixels: 3)
    lifetimes.add(frame([10, 20, 30]), changedFrom: nil, start: 0)
    lifetimes.add(frame([10, 21, 31]), changedFrom: frame([10, 20, 30]), start: 3)
    lifetimes.add(frame([10, 21, 31]), changedFrom: frame([10, 21, 31]), start: 4)
    lifetimes.finish(frameCount: 10)
    let table = (0...255).map { UInt8(255 - $0) }
    let second = GIFLifetimes.bounds(lifetimes.frames(of: 1)!, through: table)
    #expect(second.bounds == [248, 248])
    #expect(second.meanFrames == 7)
    let first = GIFLifetimes.bounds(lifetimes.frames(of: 0)!, through: table)
    #expect(first.bounds == [245, 252, 252])
    #expect(first.meanFrames == 16.0 / 3)
    let none = GIFLifetimes.bounds(lifetimes.frames(of: 2)!, through: table)
    #expect(none.bounds.isEmpty && none.meanFrames == 0)
  }

  /// A pixel that keeps its colour for more than 255 frames counts 255.
  @Test static func saturatesAt255Frames() {
    var lifetimes = GIFLifetimes(pixels: 2)
    lifetimes.add(frame([0, 0]), changedFrom: nil, start: 0)
    lifetimes.add(frame([0, 9]), changedFrom: frame([0, 0]), start: 300)
    lifetimes.finish(frameCount: 301)
    #expect(all(lifetimes) == [[255, 255], [1]])
  }

  /// Random clips of runs (each a frame count) where a few pixels change at
  /// every image: every listed pixel's lifetime is the frames from its
  /// image's start to the next image that changes it, or the clip's end.
  /// With a capacity of 200 lifetimes, images are recorded while one that
  /// changed every pixel would still fit, their lifetimes as exact; the
  /// later ones have none.
  @Test(arguments: [(1, nil), (2, nil), (3, nil), (1, 200), (2, 200)] as [(UInt64, Int?)])
  static func matchesABruteForceCount(_ seed: UInt64, capacity: Int?) {
    var state = seed
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % n
    }
    let count = 64
    var greys = [UInt8](repeating: 0, count: count)
    var clip: [(start: Int, greys: [UInt8])] = []
    var start = 0
    for _ in 0..<40 {
      clip.append((start, greys))
      for _ in 0..<(1 + next(8)) { greys[next(count)] &+= 1 }
      start += 1 + next(4)
    }
    var lifetimes = capacity.map { GIFLifetimes(pixels: count, capacity: $0) } ?? GIFLifetimes(pixels: count)
    for (k, image) in clip.enumerated() {
      lifetimes.add(frame(image.greys), changedFrom: k == 0 ? nil : frame(clip[k - 1].greys), start: image.start)
    }
    lifetimes.finish(frameCount: start)
    var recorded = clip.count, stored = 0
    for (k, image) in clip.enumerated() {
      if let capacity, stored + count > capacity {
        recorded = k
        break
      }
      stored += (0..<count).filter { k == 0 || image.greys[$0] != clip[k - 1].greys[$0] }.count
    }
    if capacity != nil { #expect(recorded > 1 && recorded < clip.count) }
    #expect(lifetimes.count == recorded)
    for (k, image) in clip.enumerated() {
      let changed = (0..<count).filter { k == 0 || image.greys[$0] != clip[k - 1].greys[$0] }
      let expected = changed.map { p in
        let end = clip[(k + 1)...].first { $0.greys[p] != image.greys[p] }?.start ?? start
        return UInt8(end - image.start)
      }
      if k >= recorded {
        #expect(lifetimes.frames(of: k) == nil, "image \(k)")
      } else {
        #expect(lifetimes.frames(of: k).map(Array.init) == expected, "image \(k)")
      }
    }
  }
}
