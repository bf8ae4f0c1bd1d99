/// GIF image data: the LZW code stream of one image's palette indices, in
/// length-prefixed sub-blocks, optionally lossy.
///
/// Hand-written because lossy coding decides the indices while it compresses:
/// each code is the longest string the dictionary holds whose indices all
/// show colours close enough to the ones wanted, not only the exact one (the
/// technique of gifsicle's `--lossy` and gifski). giflib's encoder (`EGifPutLine`) only codes the indices it is
/// given, and no maintained library exposes an LZW coder that chooses; giflib
/// still writes everything around this stream (`GIFFile`).
///
/// "Close enough" is a hard bound: an index is accepted for a pixel only when
/// the colour it shows — its palette colour, or for the transparent index the
/// colour already on screen — differs from the pixel's wanted colour by at
/// most the pixel's bound in each of R, G and B. Without a tolerance the
/// output is plain LZW of the given indices, the codes giflib would write.
/// With one, each string's first index is chosen too (the pixel's own, the
/// previous pixel's, or one of a pixel above: `Search.firstIndex`); it
/// completes the decoder's next dictionary entry, so the coder learns that
/// entry only once the choice is made.
///
/// The code stream follows giflib's encoder: a clear code first; code width
/// `minimumCodeSize + 1` growing to 12 bits as the dictionary fills; when it
/// reaches 4095 codes, a clear code and a fresh dictionary; the end code last.
struct GIFLZWEncoder {
  /// What each index shows at each pixel, and what the pixel should show.
  /// The per-pixel arrays hold the image's pixels row by row from `offset`
  /// (a frame's arrays, for an image of whole rows of it); they may be
  /// longer (buffers kept from a larger image), the rest is not read.
  struct Tolerance {
    /// Packed colours (B | G << 8 | R << 16) of the palette's opaque indices.
    var colors: [UInt32]
    /// The index that leaves the screen as it is, if the image may use it.
    var transparentIndex: Int?
    /// Per pixel of the image: the colour on screen under it.
    var shown: [UInt32]
    /// Per pixel of the image: the colour the lossless image would show, or
    /// `Tolerance.unchanged`: the pixel shows what is on screen (the
    /// transparent index is accepted, and an opaque index of exactly the
    /// colour on screen).
    var wanted: [UInt32]
    /// Per pixel of the image: the largest accepted difference per channel.
    var bounds: [UInt8]
    /// The image's width: a string may start with the index of a pixel
    /// coded above its first pixel (0: rows unknown, none tried).
    var width = 0
    /// Where the image's first pixel is in `shown`, `wanted` and `bounds`.
    var offset = 0

    /// The `wanted` mark of a pixel that keeps what is on screen.
    static let unchanged: UInt32 = 1 << 24
  }

  private static let maxCode = 4095

  /// The dictionary's tables, kept from image to image (empty between
  /// them); a copy of the encoder makes its own when it first codes.
  private var dictionary = Dictionary()

  /// Lossy coding: how many dictionary nodes the search for the longest
  /// accepted string may visit after its first, greedy descent (each tries
  /// the exact index first, then the accepted ones in dictionary order).
  /// 0 keeps the greedy string: at every pixel, the exact extension or the
  /// first accepted one.
  var searchBudget: Int
  /// Whether the search passes over a level whose other children all fall
  /// short of the longest string found without walking them (`false`
  /// walks them: the same codes, for tests).
  var skipsShortLevels: Bool

  init(searchBudget: Int = GIFLZWEncoder.defaultSearchBudget, skipsShortLevels: Bool = true) {
    self.searchBudget = searchBudget
    self.skipsShortLevels = skipsShortLevels
  }

  /// Nearly all the bytes a search without a limit saves on photo content
  /// (16 nodes: within 0.2 %), at a third more coding time than greedy
  /// strings; more nodes cost time for almost nothing.
  static let defaultSearchBudget = 16

  /// Codes `indices` (each below `1 << minimumCodeSize`) as image data:
  /// sub-blocks of at most 255 bytes, each after its length byte, without
  /// the closing empty block. With `tolerance`, indices are replaced by
  /// accepted ones where that makes codes longer; `indices` ends as what the
  /// stream decodes to.
  ///
  /// Lossy coding takes, from each string's first pixel, the longest string
  /// in the dictionary whose every index is accepted at its pixel (the
  /// smallest summed distance among equally long ones), searched depth first
  /// within `searchBudget` and then extended greedily: gifsicle's
  /// `gfc_lookup_lossy`. A string's first index is the pixel's own, or the
  /// previous pixel's where accepted: repeats make runs the dictionary
  /// learns fast; given the image's `width`, an accepted index of a pixel
  /// above it where that begins a longer string (`Search.firstIndex`).
  mutating func encode(_ indices: inout [UInt8], minimumCodeSize: Int, tolerance: Tolerance?) -> [UInt8] {
    let count = indices.count
    if let t = tolerance {
      let end = t.offset + count
      precondition(
        t.offset >= 0 && t.shown.count >= end && t.wanted.count >= end && t.bounds.count >= end,
        "tolerance shorter than the image")
    }
    if !isKnownUniquelyReferenced(&dictionary) { dictionary = Dictionary() }
    var stream = CodeStream(minimumCodeSize: minimumCodeSize, tables: dictionary.tables)
    stream.reset()
    stream.emit(stream.clear)
    let budget = searchBudget, rowWidth = tolerance?.width ?? 0
    indices.withUnsafeMutableBufferPointer { indices in
      guard count > 0 else { return }
      if let tolerance {
        Search.with(tolerance, skipsShortLevels: skipsShortLevels) {
          stream.code(indices, search: $0, budget: budget, rowWidth: rowWidth)
        }
      } else {
        stream.code(indices, search: nil, budget: budget, rowWidth: rowWidth)
      }
    }
    stream.emit(stream.end)
    stream.reset()  // the tables start empty for the next image
    return stream.out.blocks()
  }

  /// One image's code stream: the codes written so far, their width, and
  /// the dictionary's next code. A value of its own (not variables the
  /// coding functions share), so that its accesses are checked when
  /// compiled, not at each code.
  private struct CodeStream {
    var out = BitPacker()
    let clear, end, minimumCodeSize: Int
    var width, limit, next: Int
    let tables: Tables

    init(minimumCodeSize: Int, tables: Tables) {
      self.minimumCodeSize = minimumCodeSize
      clear = 1 << minimumCodeSize
      end = clear + 1
      width = minimumCodeSize + 1
      limit = 1 << width
      next = end + 1
      self.tables = tables
    }

    mutating func emit(_ code: Int) {
      out.put(code, bits: width)
      if next >= limit && code <= GIFLZWEncoder.maxCode {
        width += 1
        limit = 1 << width
      }
    }

    /// Empties the dictionary (the entries learnt and the roots' links).
    mutating func reset() {
      for code in (end + 1)..<next {
        tables.child[Int(tables.parent[code]) << 8 | Int(tables.suffix[code])] = 0
        tables.firstChild[code] = 0
        tables.runChild[code] = 0
        tables.height[code] = 0
        tables.tallest[code] = 0
        tables.otherHeight[code] = 0
      }
      for code in 0..<clear {
        tables.firstChild[code] = 0
        tables.runChild[code] = 0
        tables.height[code] = 0
        tables.tallest[code] = 0
        tables.otherHeight[code] = 0
      }
      next = end + 1
      width = minimumCodeSize + 1
      limit = 1 << width
    }

    /// The first index of string `code` (a root is its own).
    func head(_ code: Int) -> UInt8 {
      code < clear ? UInt8(code) : tables.head[code]
    }

    /// Every string of `indices`, lossy with `search`.
    mutating func code(_ indices: UnsafeMutableBufferPointer<UInt8>, search: Search?, budget: Int, rowWidth: Int) {
      let count = indices.count
      var p = 0
      // The code before `p`'s string, which the dictionary learns extended by
      // that string's first index once it is chosen; the index `p` maps to.
      var previous = -1, previousLength = 0, own = indices[0]
      while true {
        // The string from `p` if the choice of its first index found it.
        var found: (code: Int, after: Int)?
        if let search, rowWidth > 0, p >= rowWidth {
          (indices[p], found) = search.firstIndex(at: p, own: own, width: rowWidth, indices, tables, budget: budget)
        }
        if previous >= 0 {
          // The new entry extends `previous`: a string from `p` can meet it
          // (or a node whose height it raises) only if `previous` starts with
          // `p`'s first index.
          if head(previous) == indices[p] { found = nil }
          learn(previous, indices[p], length: previousLength)
        }
        // The string from `p`: its code and the pixel after it.
        var code = Int(indices[p]), after = p + 1
        if let search, let found {
          (code, after) = found
          search.write(code, from: p, to: after, indices, tables)
        } else if let search {
          (code, after) = search.longest(from: p, indices, tables, budget: budget)
        } else {
          // String `code` ends with `indices[after - 1]`.
          tables.ancestry[0] = UInt16(code)
          while after < count {
            let wanted = indices[after]
            let exact = wanted == indices[after - 1] ? tables.runChild[code] : tables.child[code << 8 | Int(wanted)]
            if exact == 0 { break }
            code = Int(exact)
            tables.ancestry[after - p] = exact
            after += 1
          }
        }
        emit(code)
        if after == count { break }
        own = indices[after]
        if let search, indices[after - 1] != indices[after] && search.distance(indices[after - 1], at: after) >= 0 {
          indices[after] = indices[after - 1]
        }
        if next >= GIFLZWEncoder.maxCode {
          emit(clear)
          reset()
          previous = -1
        } else {
          previous = code
          previousLength = after - p
        }
        p = after
      }
    }

    /// Whether `height`, `tallest` and `otherHeight` hold what they say of
    /// string `code` (checked in debug builds, where they change).
    func heightsHold(_ code: Int) -> Bool {
      let tallest = Int(tables.tallest[code])
      var top = -1, others = 0, tallestIsChild = false
      var c = Int(tables.firstChild[code])
      while c != 0 {
        let h = Int(tables.height[c])
        top = max(top, h)
        if c == tallest { tallestIsChild = true } else { others = max(others, h) }
        c = Int(tables.sibling[c])
      }
      return Int(tables.height[code]) == top + 1 && Int(tables.otherHeight[code]) == others
        && (top < 0 ? tallest == 0 : tallestIsChild && Int(tables.height[tallest]) == top)
    }

    /// The dictionary learns string `code` + `first`: the decoder's next entry.
    /// `code`'s string is `length` indices long, and `ancestry` holds its
    /// prefixes' codes (the last string coded).
    mutating func learn(_ code: Int, _ first: UInt8, length: Int) {
      tables.child[code << 8 | Int(first)] = UInt16(next)
      if (code < clear ? UInt8(code) : tables.suffix[code]) == first { tables.runChild[code] = UInt16(next) }
      tables.parent[next] = UInt16(code)
      tables.suffix[next] = first
      tables.head[next] = head(code)
      tables.sibling[next] = tables.firstChild[code]
      tables.firstChild[code] = UInt16(next)
      // Child `grown` of `ancestor` now reaches `h - 1` further (one more
      // than before): the ancestor's height, tallest child and other
      // children's height follow, up the tree while the height grows. A
      // child that outgrows the tallest was as tall as it, so the other
      // children's height is already the old tallest's. The ancestors come
      // from `ancestry`, not from `parent` in turn: loads that do not wait
      // on each other (on flat UI, the climb is often the whole string).
      assert(Int(tables.ancestry[length - 1]) == code, "ancestry is not string \(code)'s")
      var k = length - 1, ancestor = code, grown = UInt16(next), h: UInt16 = 1
      while true {
        if tables.height[ancestor] < h {
          tables.tallest[ancestor] = grown
          tables.height[ancestor] = h
          assert(heightsHold(ancestor), "string \(ancestor)'s height or tallest child is off")
        } else {
          if tables.tallest[ancestor] != grown { tables.otherHeight[ancestor] = max(tables.otherHeight[ancestor], h - 1) }
          assert(heightsHold(ancestor), "string \(ancestor)'s height or tallest child is off")
          break
        }
        if k == 0 { break }
        grown = UInt16(ancestor)
        k -= 1
        ancestor = Int(tables.ancestry[k])
        assert(ancestor == Int(tables.parent[Int(grown)]), "ancestry is off at \(k)")
        h += 1
      }
      next += 1
    }
  }

  /// The dictionary and the search path, for the inner loops.
  private struct Tables {
    /// `child[code << 8 | index]`: the code of string `code` + `index`, 0 if
    /// none (0 is never a string of two or more indices).
    var child: UnsafeMutablePointer<UInt16>
    /// The first extension of a code and the next extension of the same
    /// prefix: the dictionary as a tree, walked for near matches.
    var firstChild, sibling, parent: UnsafeMutablePointer<UInt16>
    /// `runChild[code]`: the code of string `code` + its own last index, 0 if
    /// none — `child`'s entry for the next string of a run, in a table small
    /// enough to stay in the nearest cache. Flat UI's long strings are mostly
    /// runs of one index, and an exact walk down them waits on each load.
    var runChild: UnsafeMutablePointer<UInt16>
    /// The last index of a code's string; the first (of codes past the roots).
    var suffix, head: UnsafeMutablePointer<UInt8>
    /// The length of a code's longest extension in the dictionary: the search
    /// skips subtrees that cannot beat the longest string found.
    var height: UnsafeMutablePointer<UInt16>
    /// A code's child of the greatest height (0: none), and the greatest
    /// height of its other children (0 if none): with the exact child known,
    /// how far any other child can reach, so the search skips a level whose
    /// other children all fall short without walking them.
    var tallest, otherHeight: UnsafeMutablePointer<UInt16>
    /// The depth-first search's path: per depth, the node, the next sibling
    /// to try (`untried`: the exact child first), how many pixels from the
    /// string's first its children other than the exact one can reach at
    /// most (`Search.reach`), and the summed distance.
    var pathNode, pathNext, pathReach: UnsafeMutablePointer<UInt16>
    var pathCost: UnsafeMutablePointer<Int32>
    /// `ancestry[k]`: the code of the first `k + 1` indices of the last
    /// string coded (written as it is found): the ancestors `learn` updates.
    var ancestry: UnsafeMutablePointer<UInt16>
  }

  /// The tables' memory, allocated zeroed once per encoder.
  private final class Dictionary {
    let tables: Tables
    private let wide: UnsafeMutablePointer<UInt16>, narrow: UnsafeMutablePointer<UInt8>
    private let costs: UnsafeMutablePointer<Int32>

    init() {
      // child, then firstChild, sibling, parent, runChild, height, tallest,
      // otherHeight (4096 each), then pathNode, pathNext, pathReach,
      // ancestry (4097 each).
      let wideCount = 4096 * 256 + 7 * 4096 + 4 * 4097
      wide = .allocate(capacity: wideCount)
      wide.initialize(repeating: 0, count: wideCount)
      narrow = .allocate(capacity: 2 * 4096)
      narrow.initialize(repeating: 0, count: 2 * 4096)
      costs = .allocate(capacity: 4097)
      costs.initialize(repeating: 0, count: 4097)
      let small = wide + 4096 * 256
      tables = Tables(
        child: wide, firstChild: small, sibling: small + 4096, parent: small + 2 * 4096,
        runChild: small + 3 * 4096, suffix: narrow, head: narrow + 4096, height: small + 4 * 4096,
        tallest: small + 5 * 4096, otherHeight: small + 6 * 4096, pathNode: small + 7 * 4096,
        pathNext: small + 7 * 4096 + 4097, pathReach: small + 7 * 4096 + 2 * 4097, pathCost: costs,
        ancestry: small + 7 * 4096 + 3 * 4097)
    }

    deinit {
      wide.deallocate()
      narrow.deallocate()
      costs.deallocate()
    }
  }

  /// The accepted indices of a lossy image and the search for the longest
  /// accepted string.
  private struct Search {
    let colors, shown, wanted: UnsafePointer<UInt32>
    let bounds: UnsafePointer<UInt8>
    let transparent: Int
    /// `GIFLZWEncoder.skipsShortLevels`.
    let skipsShortLevels: Bool

    /// `body` with a search over `t`'s arrays.
    static func with(_ t: Tolerance, skipsShortLevels: Bool, _ body: (Search) -> Void) {
      t.colors.withUnsafeBufferPointer { colors in
        t.shown.withUnsafeBufferPointer { shown in
          t.wanted.withUnsafeBufferPointer { wanted in
            t.bounds.withUnsafeBufferPointer { bounds in
              body(
                Search(
                  colors: colors.baseAddress!, shown: shown.baseAddress! + t.offset,
                  wanted: wanted.baseAddress! + t.offset, bounds: bounds.baseAddress! + t.offset,
                  transparent: t.transparentIndex ?? -1,
                  skipsShortLevels: skipsShortLevels))
            }
          }
        }
      }
    }

    /// The largest channel difference between what index `i` shows at pixel
    /// `p` and the wanted colour, or -1 when that is beyond the pixel's bound.
    @inline(__always)
    func distance(_ i: UInt8, at p: Int) -> Int {
      let wanted = self.wanted[p]
      let isTransparent = Int(i) == transparent
      if wanted == Tolerance.unchanged { return isTransparent || colors[Int(i)] == shown[p] ? 0 : -1 }
      let d = channelDistance(isTransparent ? shown[p] : colors[Int(i)], wanted)
      return d <= Int(bounds[p]) ? d : -1
    }

    private static let untried = UInt16.max

    /// The first index of the string from pixel `p` (whose own index is
    /// `own`; `indices[p]` holds the default, `own` or the previous pixel's):
    /// the default, or an accepted index of a pixel coded above `p` — up,
    /// up-left, up-right, two up, up and two right — or `own`, whichever
    /// begins the longest string (the earlier of equals). Rows of photos and
    /// gradients repeat the row above within the bound, so strings the
    /// dictionary learnt there continue. Returns the index and, if any was
    /// tried, the longest string it begins (`longest`'s, not written).
    func firstIndex(
      at p: Int, own: UInt8, width: Int, _ indices: UnsafeMutableBufferPointer<UInt8>, _ tables: Tables, budget: Int
    ) -> (index: UInt8, string: (code: Int, after: Int)?) {
      let chosen = indices[p], x = p % width
      var candidates = SIMD8<UInt8>(repeating: 0), n = 0
      func offer(_ i: UInt8) {
        guard i != chosen, distance(i, at: p) >= 0 else { return }
        for k in 0..<n where candidates[k] == i { return }
        candidates[n] = i
        n += 1
      }
      offer(indices[p - width])
      if x > 0 { offer(indices[p - width - 1]) }
      if x + 1 < width { offer(indices[p - width + 1]) }
      offer(own)
      if p >= 2 * width { offer(indices[p - 2 * width]) }
      if x + 2 < width { offer(indices[p - width + 2]) }
      guard n > 0 else { return (chosen, nil) }
      var best = chosen
      var string = longest(from: p, indices, tables, budget: budget, writes: false)
      for k in 0..<n {
        // A string from `p` is at most its first index's height longer than
        // it: one that cannot outrun the best is not searched.
        if p + 1 + Int(tables.height[Int(candidates[k])]) <= string.after { continue }
        indices[p] = candidates[k]
        let tried = longest(from: p, indices, tables, budget: budget, writes: false)
        if tried.after > string.after {
          best = candidates[k]
          string = tried
        }
      }
      return (best, string)
    }

    /// How many pixels from its string's first the children of `node`, at
    /// `depth`, other than `exact` (0: none) reach at most: the child that
    /// covers pixel `depth + 1` and its longest extension.
    @inline(__always)
    func reach(_ node: Int, exact: UInt16, depth: Int, _ tables: Tables) -> UInt16 {
      let other = tables.tallest[node] == exact ? tables.otherHeight[node] : tables.height[node] &- 1
      return UInt16(truncatingIfNeeded: depth + 2) &+ other
    }

    /// The code of the longest accepted string from pixel `start` (its first
    /// index as it is) and the pixel after it; the string's indices are
    /// written into `indices` if `writes`.
    func longest(
      from start: Int, _ indices: UnsafeMutableBufferPointer<UInt8>, _ tables: Tables, budget: Int, writes: Bool = true
    ) -> (code: Int, after: Int) {
      let count = indices.count
      let root = Int(indices[start])
      var best = root, bestAfter = start + 1, bestCost: Int32 = 0, intact = 0
      if bestAfter < count {
        var depth = 0, visits = 0, stop = Int.max
        tables.pathNode[0] = UInt16(root)
        tables.pathCost[0] = 0
        // The search's first descent, in a loop of its own: the exact
        // extension at every pixel while the dictionary has one. Each is
        // longer than the best before it and no height falls short, so
        // there is nothing to compare; the search below goes on from the
        // last node as if it had come down itself. String `node` ends with
        // `indices[q - 1]`: where `q` repeats it, a run goes on.
        // `reachAbove`: the most any level of the descent can reach.
        var node = root, q = start + 1, cost: Int32 = 0, reachAbove: UInt16 = 0
        while q < count {
          let wanted = indices[q]
          let exact = wanted == indices[q - 1] ? tables.runChild[node] : tables.child[node << 8 | Int(wanted)]
          if exact == 0 { break }
          tables.pathNext[depth] = tables.firstChild[node]
          let reach = reach(node, exact: exact, depth: depth, tables)
          tables.pathReach[depth] = reach
          reachAbove = max(reachAbove, reach)
          cost += Int32(max(0, distance(wanted, at: q)))
          depth += 1
          node = Int(exact)
          tables.pathNode[depth] = exact
          tables.pathCost[depth] = cost
          q += 1
        }
        tables.pathNext[depth] = Self.untried
        let descent = depth
        // `pathNode[..<intact]` still holds the descent's path.
        intact = descent + 1
        visits = depth
        if depth > 0 { (best, bestAfter, bestCost) = (node, q, cost) }
        while depth >= 0 && visits < stop && bestAfter < count {
          // Node `pathNode[depth]` ends at pixel `start + depth`; its next
          // accepted extension covers pixel `q`.
          let q = start + depth + 1
          let node = Int(tables.pathNode[depth])
          var found = 0, cost = 0
          if q < count {
            let wanted = indices[q]
            if tables.pathNext[depth] == Self.untried {
              tables.pathNext[depth] = tables.firstChild[node]
              let exact = Int(tables.child[node << 8 | Int(wanted)])
              tables.pathReach[depth] = reach(node, exact: UInt16(exact), depth: depth, tables)
              if exact != 0 && q + 1 + Int(tables.height[exact]) >= bestAfter {
                found = exact
                cost = max(0, distance(wanted, at: q))
              }
            }
            // No other child reaches as far as the best: none is tried.
            if found == 0 && skipsShortLevels && start + Int(tables.pathReach[depth]) < bestAfter {
              tables.pathNext[depth] = 0
            }
            while found == 0 && tables.pathNext[depth] != 0 {
              let s = Int(tables.pathNext[depth])
              tables.pathNext[depth] = tables.sibling[s]
              if tables.suffix[s] == wanted || q + 1 + Int(tables.height[s]) < bestAfter { continue }
              let d = distance(tables.suffix[s], at: q)
              if d >= 0 {
                found = s
                cost = d
              }
            }
          }
          if found == 0 {
            // Backtrack, past the levels whose other children all fall short
            // of the best; the budget counts from the first backtrack on.
            depth -= 1
            if stop == Int.max {
              stop = visits + budget
              // The first backtrack is from the descent's last level or below
              // it. From its last level (flat UI's strings are long), when no
              // level of the descent can reach past the best, none is walked.
              if skipsShortLevels && depth == descent - 1 && start + Int(reachAbove) < bestAfter { depth = -1 }
            }
            while skipsShortLevels && depth >= 0 && start + Int(tables.pathReach[depth]) < bestAfter { depth -= 1 }
            continue
          }
          visits += 1
          depth += 1
          tables.pathNode[depth] = UInt16(found)
          intact = min(intact, depth)
          tables.pathCost[depth] = tables.pathCost[depth - 1] + Int32(cost)
          tables.pathNext[depth] = Self.untried
          let after = q + 1
          if after > bestAfter || (after == bestAfter && tables.pathCost[depth] < bestCost) {
            best = found
            bestAfter = after
            bestCost = tables.pathCost[depth]
            if after == count { break }
          }
        }
        // A search cut short may leave the best string extensible.
        while bestAfter < count {
          let wanted = indices[bestAfter]
          var found = Int(tables.child[best << 8 | Int(wanted)])
          if found == 0 {
            var s = Int(tables.firstChild[best])
            while s != 0 && distance(tables.suffix[s], at: bestAfter) < 0 { s = Int(tables.sibling[s]) }
            found = s
          }
          if found == 0 { break }
          best = found
          bestAfter += 1
        }
      }
      if writes { write(best, from: start, to: bestAfter, indices, tables, descended: intact) }
      return (best, bestAfter)
    }

    /// Writes the indices of string `code`, from pixel `start` to before
    /// `after`, into `indices` (last to first; the first is there already),
    /// and its prefixes' codes into `ancestry`. `pathNode[..<descended]`
    /// holds a path of exact extensions from `start` (the search's first
    /// descent): where the string meets it, the indices before are as they
    /// are and the rest of the prefixes are the path's — the walk up the
    /// parents, one load waiting on another, stops there.
    func write(
      _ code: Int, from start: Int, to after: Int, _ indices: UnsafeMutableBufferPointer<UInt8>, _ tables: Tables,
      descended: Int = 0
    ) {
      var code = code, p = after - 1
      while p > start {
        let depth = p - start
        if depth < descended && Int(tables.pathNode[depth]) == code {
          tables.ancestry.update(from: tables.pathNode, count: depth + 1)
          assert(ancestryHolds(depth, start: start, indices, tables), "the descent's path is not string \(code)'s")
          return
        }
        indices[p] = tables.suffix[code]
        tables.ancestry[depth] = UInt16(code)
        code = Int(tables.parent[code])
        p -= 1
      }
      tables.ancestry[0] = UInt16(code)
    }

    /// Whether `ancestry[...depth]` is the path from the root to a string
    /// whose indices are `indices[start...]` (checked in debug builds).
    func ancestryHolds(_ depth: Int, start: Int, _ indices: UnsafeMutableBufferPointer<UInt8>, _ tables: Tables) -> Bool {
      guard Int(tables.ancestry[0]) == Int(indices[start]) else { return false }
      for k in stride(from: 1, through: depth, by: 1) {
        let code = Int(tables.ancestry[k])
        guard Int(tables.parent[code]) == Int(tables.ancestry[k - 1]), tables.suffix[code] == indices[start + k] else {
          return false
        }
      }
      return true
    }
  }

  /// The minimum code size GIF stores for a colour table of `entries`
  /// entries (padded to a power of two, at least 2 bits): what giflib writes.
  static func minimumCodeSize(entries: Int) -> Int {
    var bits = 1
    while 1 << bits < entries { bits += 1 }
    return max(2, bits)
  }
}

/// Codes packed least significant bit first into bytes, then cut into GIF
/// sub-blocks.
private struct BitPacker {
  private var bytes: [UInt8] = []
  private var buffer: UInt64 = 0
  private var count = 0

  mutating func put(_ code: Int, bits: Int) {
    buffer |= UInt64(code) << UInt64(count)
    count += bits
    while count >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
    }
  }

  /// The bytes (the last one padded with zero bits) in sub-blocks.
  mutating func blocks() -> [UInt8] {
    if count > 0 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer = 0
      count = 0
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 255 + 1)
    var i = 0
    while i < bytes.count {
      let n = min(255, bytes.count - i)
      out.append(UInt8(n))
      out.append(contentsOf: bytes[i..<(i + n)])
      i += n
    }
    return out
  }
}
