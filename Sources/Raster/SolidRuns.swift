// SolidRuns: where an opaque snapshot is one flat colour.
//
// App screens are mostly flat: backgrounds, bars, separators, the space
// between labels (the bench's screens: 86% of pixels in runs of 32 or
// more). A snapshot is taken once and drawn in every frame of a
// transition, so it is indexed once — each row's runs of one repeated
// pixel at least `minimumLength` long — and the memory-bound span loops
// that read it (the cross-fade of two snapshots, the dimmed copy under a
// turning page, the plain copy of a snapshot) write a run's result as a
// fill instead of reading the run: on a flat stretch of both screens the
// cross-fade reads nothing. Content with no flat colour costs the scan
// once and nothing per frame (`ms.*_unindexed` in the bench).
// The fill's colour is the span kernel's own result on the run's pixel,
// so the output is byte for byte what the kernel would have written.
// The same scan notes the rows that repeat the row above (a screen's flat
// bands: 80 % of rows or more), so that a snapshot drawn scaled
// (`Sampler.ScaledRows`) does not compare them again every frame.

import Glibc

/// One run of a row: image columns [x0, x1), every pixel `pixel`.
struct SolidRun: Sendable {
  var x0: Int32
  var x1: Int32
  var pixel: Pixel
}

/// The runs of one repeated pixel, at least `minimumLength` long, of every
/// row of an opaque bitmap, left to right.
public final class SolidRuns: @unchecked Sendable {
  /// Shorter runs are not worth a piece of their own (two cache lines).
  static let minimumLength = 32

  /// Row y's runs are `runs[rowStart[y] ..< rowStart[y + 1]]`. Owned,
  /// written once in `init` (hence Sendable), so a view of them needs no
  /// reference counting in the span loops.
  private let rowStart: UnsafeMutableBufferPointer<Int32>
  private let runs: UnsafeMutableBufferPointer<SolidRun>
  /// Whether row y holds the bytes of row y − 1 (false for row 0).
  private let repeatsAbove: UnsafeMutableBufferPointer<Bool>

  /// Scans `bytes` (`width × height` RGBA8 pixels), once.
  init(_ bytes: UnsafePointer<UInt8>, width: Int, height: Int) {
    var rowStart: [Int32] = [0]
    rowStart.reserveCapacity(height + 1)
    var runs: [SolidRun] = []
    let raw = UnsafeRawPointer(bytes)
    repeatsAbove = .allocate(capacity: height)
    repeatsAbove[0] = false
    let rowBytes = width * 4
    for y in 1..<height {
      let row = raw + y * rowBytes
      repeatsAbove[y] = memcmp(row - rowBytes, row, rowBytes) == 0
    }
    for y in 0..<height {
      let row = raw + y * width * 4
      var x = 0
      while x < width {
        let p = row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
        var e = x &+ 1
        let four = SIMD4<UInt32>(repeating: p)
        while e &+ 4 <= width && row.loadUnaligned(fromByteOffset: e &* 4, as: SIMD4<UInt32>.self) == four {
          e &+= 4
        }
        while e < width && row.loadUnaligned(fromByteOffset: e &* 4, as: UInt32.self) == p { e &+= 1 }
        if e - x >= Self.minimumLength {
          runs.append(SolidRun(x0: Int32(x), x1: Int32(e), pixel: unsafeBitCast(p, to: Pixel.self)))
        }
        x = e
      }
      rowStart.append(Int32(runs.count))
    }
    self.rowStart = .allocate(capacity: rowStart.count)
    _ = self.rowStart.initialize(from: rowStart)
    self.runs = .allocate(capacity: max(runs.count, 1))
    _ = self.runs.initialize(from: runs)
  }

  deinit {
    rowStart.deallocate()
    runs.deallocate()
    repeatsAbove.deallocate()
  }

  /// The index by pointer, valid while `self` is alive.
  var view: SolidRunsView {
    SolidRunsView(
      runs: UnsafePointer(runs.baseAddress!), rowStart: UnsafePointer(rowStart.baseAddress!),
      repeatsAbove: UnsafePointer(repeatsAbove.baseAddress!))
  }
}

/// `SolidRuns` by pointer, for the span loops (valid while the index lives).
struct SolidRunsView {
  let runs: UnsafePointer<SolidRun>
  let rowStart: UnsafePointer<Int32>
  /// Per image row: whether it holds the bytes of the row above.
  let repeatsAbove: UnsafePointer<Bool>

  /// The runs of image row `y`.
  @inline(__always) func row(_ y: Int) -> Range<Int> { Int(rowStart[y])..<Int(rowStart[y &+ 1]) }

  /// Splits device columns [s, e) of one row into pieces, left to right:
  /// `solid(x0, x1, a, b)` where image row `ya` of `self` (device x +
  /// `shiftA` is its column) and image row `yb` of `b` (likewise) are both
  /// one repeated pixel for at least `minimumLength` columns, `mixed(x0,
  /// x1)` elsewhere.
  @inline(__always) func pieces(
    row ya: Int, shift shiftA: Int, _ b: SolidRunsView, row yb: Int, shift shiftB: Int,
    from s: Int, to e: Int, solid: (Int, Int, Pixel, Pixel) -> Void, mixed: (Int, Int) -> Void
  ) {
    let ra = runs, rb = b.runs
    let rangeA = row(ya), rangeB = b.row(yb)
    var ia = rangeA.lowerBound, ib = rangeB.lowerBound
    var x = s
    while x < e {
      while ia < rangeA.upperBound && Int(ra[ia].x1) &- shiftA <= x { ia &+= 1 }
      while ib < rangeB.upperBound && Int(rb[ib].x1) &- shiftB <= x { ib &+= 1 }
      guard ia < rangeA.upperBound, ib < rangeB.upperBound else { break }
      let ra0 = Int(ra[ia].x0) &- shiftA, ra1 = Int(ra[ia].x1) &- shiftA
      let rb0 = Int(rb[ib].x0) &- shiftB, rb1 = Int(rb[ib].x1) &- shiftB
      let start = max(ra0, rb0, x)
      if start >= e { break }
      if start < ra1 && start < rb1 && min(ra1, rb1, e) &- start >= SolidRuns.minimumLength {
        let end = min(ra1, rb1, e)
        if start > x { mixed(x, start) }
        solid(start, end, ra[ia].pixel, rb[ib].pixel)
        x = end
      } else if ra1 <= rb1 {
        ia &+= 1
      } else {
        ib &+= 1
      }
    }
    if x < e { mixed(x, e) }
  }
}
