/// The colour of a GIF palette nearest to each pixel, found exactly as
/// libavfilter's `paletteuse` (FFmpeg 5.1, Debian 12's) finds it without
/// dithering: the same 3-d tree over the palette's colours, built and
/// searched in the same order, so among colours equally near a pixel the
/// same one wins and a GIF's bytes are those `paletteuse` gives.
///
/// Hand-written, not called: a GIF without dithering needs nothing else of
/// libavfilter, whose dependencies (about 130 shared libraries) take about
/// 50 ms of CPU to load, about a tenth of a short clip's GIF, and whose
/// filter graph copies each frame in and each index out. Dithering still
/// goes through `paletteuse` (`PaletteMapper`). `PaletteTreeTests` holds
/// the two equal, index for index, on palettes built to tie.
///
/// `paletteuse`'s distance is the squared RGB difference between opaque
/// colours; its tree splits at the median colour (by its own quicksort,
/// `AV_QSORT`, which is not stable: ported as it is, since which of equal
/// colours is the median shapes the tree) along the axis of the widest
/// range, and its search descends to the nearer side first and returns
/// the first colour at the least distance it meets.
struct PaletteTree {
  private struct Node {
    var color: SIMD4<Int32>  // R, G, B, 0
    var split: Int  // 0 R, 1 G, 2 B
    var left = -1, right = -1
    /// The index into the palette's colours this node gives.
    var index: UInt8
  }

  private var nodes: [Node] = []
  /// Colours looked up (24-bit, `empty` where none) and their indices:
  /// a cache of the search, direct-mapped.
  private var cachedColors: [UInt32]
  private var cachedIndices: [UInt8]
  private static let cacheBits = 16
  private static let empty = UInt32.max

  /// The tree of `palette`'s colours (at most 255), as `paletteuse` builds
  /// it from the 256-entry table `PaletteMapper` gives it: the colours, the
  /// first repeated up to entry 254, entry 255 transparent.
  init(_ palette: GIFPalette) {
    cachedColors = [UInt32](repeating: Self.empty, count: 1 << Self.cacheBits)
    cachedIndices = [UInt8](repeating: 0, count: 1 << Self.cacheBits)
    let packed = palette.packed
    guard !packed.isEmpty else { return }
    // The first index of each colour: what a found colour maps back to.
    var first: [UInt32: UInt8] = [:]
    for (i, c) in packed.enumerated().reversed() { first[c] = UInt8(i) }
    // `load_colormap`: the opaque entries sorted by colour (entry 255, the
    // transparent one, stays last), repeats set aside.
    let table = (0..<255).map { i in i < packed.count ? packed[i] : packed[0] }.sorted()
    var used = [Bool](repeating: false, count: 255)
    for i in 1..<255 where table[i] == table[i - 1] { used[i] = true }
    var box = (low: SIMD4<Int32>(repeating: 0), high: SIMD4<Int32>(255, 255, 255, 0))
    _ = insert(table, &used, &box, first)
  }

  /// `colormap_insert`: the node of the median colour of those in `box`
  /// not yet in the tree, and below it the trees of the two halves.
  private mutating func insert(
    _ table: [UInt32], _ used: inout [Bool], _ box: inout (low: SIMD4<Int32>, high: SIMD4<Int32>), _ first: [UInt32: UInt8]
  ) -> Int {
    guard let (entry, axis) = Self.median(table, used, box) else { return -1 }
    let color = Self.channels(table[entry])
    let id = nodes.count
    nodes.append(Node(color: color, split: axis, index: first[table[entry]]!))
    used[entry] = true
    let outer = box
    box.high[axis] = color[axis]
    let left = insert(table, &used, &box, first)
    box = outer
    box.low[axis] = min(color[axis] + 1, 255)
    let right = box.low[axis] <= box.high[axis] ? insert(table, &used, &box, first) : -1
    box = outer
    nodes[id].left = left
    nodes[id].right = right
    return id
  }

  /// R, G, B of a packed colour (B | G << 8 | R << 16).
  private static func channels(_ c: UInt32) -> SIMD4<Int32> {
    SIMD4(Int32(c >> 16 & 0xFF), Int32(c >> 8 & 0xFF), Int32(c & 0xFF), 0)
  }

  /// `get_next_color`: of the unused colours inside `box`, the entry of the
  /// median along the axis of their widest range (blue, then green, over
  /// red where ranges tie), and that axis; nil if there are none.
  private static func median(
    _ table: [UInt32], _ used: [Bool], _ box: (low: SIMD4<Int32>, high: SIMD4<Int32>)
  ) -> (entry: Int, axis: Int)? {
    var inside: [(color: UInt32, entry: Int)] = []
    var low = SIMD4<Int32>(repeating: 255), high = SIMD4<Int32>(repeating: 0)
    for (i, c) in table.enumerated() where !used[i] {
      let v = channels(c)
      guard all(v .>= box.low) && all(v .<= box.high) else { continue }
      low = pointwiseMin(low, v)
      high = pointwiseMax(high, v)
      inside.append((c, i))
    }
    guard !inside.isEmpty else { return nil }
    let range = high &- low
    var axis = 0
    if range[0] >= range[1] && range[0] >= range[2] { axis = 0 }
    if range[1] >= range[0] && range[1] >= range[2] { axis = 1 }
    if range[2] >= range[0] && range[2] >= range[1] { axis = 2 }
    let shift = UInt32(16 - 8 * axis)
    quicksort(&inside) { Int($0.color >> shift & 0xFF) - Int($1.color >> shift & 0xFF) }
    return (inside[inside.count >> 1].entry, axis)
  }

  /// libavutil's `AV_QSORT`, step for step: its order of equal elements is
  /// part of the tree.
  static func quicksort<T>(_ a: inout [T], _ compare: (T, T) -> Int) {
    guard a.count > 1 else { return }
    var stack = [(0, a.count - 1)]
    while let (low, high) = stack.popLast() {
      var start = low, end = high
      while start < end {
        guard start < end - 1 else {
          if compare(a[start], a[end]) > 0 { a.swapAt(start, end) }
          break
        }
        var sorted = false
        var right = end - 2, left = start + 1
        var mid = start + ((end - start) >> 1)
        if compare(a[start], a[end]) > 0 {
          if compare(a[end], a[mid]) > 0 { a.swapAt(start, mid) } else { a.swapAt(start, end) }
        } else {
          if compare(a[start], a[mid]) > 0 { a.swapAt(start, mid) } else { sorted = true }
        }
        if compare(a[mid], a[end]) > 0 {
          a.swapAt(mid, end)
          sorted = false
        }
        if start == end - 2 { break }
        a.swapAt(end - 1, mid)
        while left <= right {
          while left <= right && compare(a[left], a[end - 1]) < 0 { left += 1 }
          while left <= right && compare(a[right], a[end - 1]) > 0 { right -= 1 }
          if left <= right {
            a.swapAt(left, right)
            left += 1
            right -= 1
          }
        }
        a.swapAt(end - 1, left)
        if sorted && (mid == left - 1 || mid == left) {
          mid = start
          while mid < end && compare(a[mid], a[mid + 1]) <= 0 { mid += 1 }
          if mid == end { break }
        }
        if end - left < left - start {
          stack.append((start, right))
          start = left + 1
        } else {
          stack.append((left + 1, end))
          end = right
        }
      }
    }
  }

  /// `colormap_nearest_iterative`: the palette index of the colour nearest
  /// to `target` (R, G, B, 0).
  private func nearest(_ target: SIMD4<Int32>) -> UInt8 {
    // The farther sides still to look at, and their axis distances squared:
    // at most one per node.
    withUnsafeTemporaryAllocation(of: (node: Int, dx2: Int32).self, capacity: nodes.count) { pending in
      nodes.withUnsafeBufferPointer { nodes in
        var node = 0, best = 0, bestDistance = Int32.max, count = 0
        search: while true {
          let kd = nodes[node]
          let d = target &- kd.color
          let distance = (d &* d).wrappedSum()
          if distance < bestDistance {
            best = node
            if distance == 0 { break }
            bestDistance = distance
          }
          if kd.left != -1 || kd.right != -1 {
            let dx = target[kd.split] - kd.color[kd.split]
            let (nearer, farther) = dx <= 0 ? (kd.left, kd.right) : (kd.right, kd.left)
            if nearer != -1 {
              if farther != -1 {
                pending[count] = (farther, dx * dx)
                count += 1
              }
              node = nearer
              continue
            } else if dx * dx < bestDistance {
              node = farther
              continue
            }
          }
          while count > 0 {
            count -= 1
            if pending[count].dx2 < bestDistance {
              node = pending[count].node
              continue search
            }
          }
          break
        }
        return nodes[best].index
      }
    }
  }

  /// The palette index of each pixel of packed opaque BGRA `pixels`.
  mutating func map(_ pixels: [UInt8]) -> [UInt8] {
    let count = pixels.count / 4
    guard !nodes.isEmpty else { return [UInt8](repeating: 0, count: count) }
    let mask = (1 << Self.cacheBits) - 1
    var cachedColors = self.cachedColors, cachedIndices = self.cachedIndices
    self.cachedColors = []
    self.cachedIndices = []
    defer { (self.cachedColors, self.cachedIndices) = (cachedColors, cachedIndices) }
    return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
      pixels.withUnsafeBytes { bytes in
        cachedColors.withUnsafeMutableBufferPointer { colors in
          cachedIndices.withUnsafeMutableBufferPointer { indices in
            // A run of one colour (flat UI) is looked up once.
            var last = Self.empty, lastIndex: UInt8 = 0
            for p in 0..<count {
              let color = bytes.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self) & 0xFF_FFFF
              if color != last {
                let slot = Int((color &* 0x9E37_79B1) >> 16) & mask
                if colors[slot] == color {
                  lastIndex = indices[slot]
                } else {
                  lastIndex = nearest(Self.channels(color))
                  colors[slot] = color
                  indices[slot] = lastIndex
                }
                last = color
              }
              out[p] = lastIndex
            }
          }
        }
      }
      initialized = count
    }
  }
}
