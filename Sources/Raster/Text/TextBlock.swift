/// A label's text in lines, as `UILabel` draws it when `numberOfLines` is
/// not 1: each paragraph (text between line breaks) filled greedily, a line
/// ending at the last break opportunity (`LineBreaks`) that fits the width,
/// its trailing spaces hanging outside it, except that a last line of one
/// word takes the word before it along (`pushOut`); a word wider than the
/// line is cut between clusters; a line that ends at a soft hyphen (U+00AD)
/// shows a hyphen there, as TextKit does. The bidirectional algorithm resolves
/// levels on the whole paragraph (UAX #9); each line is shaped and
/// reordered on its own by them (rules L1–L2) in its paragraph's
/// direction, and drawn whole: a line the breaker chose never ends in "…".
///
/// A line is as tall as its fonts ask (the primary font's and every font
/// it draws with: ascender, descender and line gap, the gap split above and
/// below as CSS does with `line-height: normal`). As many lines show as
/// `maxLines` allows (0: no limit) and the height holds (at least one); when
/// text is left over, the last shown line takes the rest of its paragraph
/// and ends in "…" (tail truncation), the only line that may.
struct TextBlock {
  struct Line {
    /// The scalars the line shows, in logical order (before any "…").
    var scalars: [UInt32]
    var layout: TextLayout
    /// Above and below the baseline, and the gap around the line, in pixels.
    var ascent: Double, descent: Double, gap: Double
    var height: Double { ascent + descent + gap }
  }

  var lines: [Line] = []
  /// The lines' heights together, in pixels.
  var height: Double { lines.reduce(0) { $0 + $1.height } }

  init(
    _ text: String, fonts: FontSet, weight: FontWeight, language: String?, pixelSize: Double, maxWidth: Double,
    maxLines: Int, maxHeight: Double
  ) {
    let primary = fonts.cascade(for: weight).first
    func layout(_ scalars: [UInt32], rightToLeft: Bool, levels: ArraySlice<Int8>, ellipsis: Bool = false) -> Line {
      // Only the line that says text is left over is cut to the width.
      let layout = TextLayout(
        scalars, fonts: fonts, weight: weight, language: language, pixelSize: pixelSize,
        maxWidth: ellipsis ? maxWidth : .infinity, rightToLeft: rightToLeft, levels: Array(levels.prefix(scalars.count)),
        ellipsis: ellipsis)
      let box = TextBlock.lineBox(layout, primary: primary, pixelSize: pixelSize)
      return Line(scalars: scalars, layout: layout, ascent: box.ascent, descent: box.descent, gap: box.gap)
    }

    let paragraphs = TextBlock.paragraphs(text)
    let wrapped = TextBlock.wrapped(
      paragraphs, fonts: fonts, weight: weight, language: language, pixelSize: pixelSize, maxWidth: maxWidth)
    var total = 0.0
    for w in wrapped {
      if maxLines > 0, lines.count == maxLines { break }
      let line = layout(
        TextBlock.shown(paragraphs[w.paragraph], w.range, hyphen: w.hyphen), rightToLeft: w.rightToLeft,
        levels: w.levels[w.range.lowerBound...])
      if !lines.isEmpty, total + line.height > maxHeight + 1e-6 { break }
      lines.append(line)
      total += line.height
    }
    if lines.count < wrapped.count, let last = lines.indices.last {
      // Text is left over: the last line shown takes the rest of its paragraph, cut with "…".
      let w = wrapped[last]
      let rest = paragraphs[w.paragraph][w.range.lowerBound...]
      lines[last] = layout(
        TextBlock.trimmed(rest), rightToLeft: w.rightToLeft, levels: w.levels[w.range.lowerBound...], ellipsis: true)
    }
  }

  /// The box of a line laid out as `layout`, in pixels: the largest
  /// ascender, descender and line gap of the `primary` font and every font
  /// it draws with, as a CoreText line is as tall as its tallest run.
  static func lineBox(_ layout: TextLayout, primary: Font?, pixelSize: Double) -> (
    ascent: Double, descent: Double, gap: Double
  ) {
    var faces = Set(layout.glyphs.map(\.font)).sorted().map { layout.faces[$0] }
    if let primary { faces.append(primary) }
    return (
      (faces.map(\.ascender).max() ?? 0) * pixelSize, (faces.map(\.descender).max() ?? 0) * pixelSize,
      (faces.map(\.lineGap).max() ?? 0) * pixelSize
    )
  }

  /// Every line `paragraphs` wrap into: its paragraph, its scalars there,
  /// the paragraph's direction and embedding levels (of all its scalars),
  /// whether it ends at a break opportunity (not where a word wider than
  /// the line was cut) and whether that is a soft hyphen it shows.
  static func wrapped(
    _ paragraphs: [[UInt32]], fonts: FontSet, weight: FontWeight, language: String?, pixelSize: Double, maxWidth: Double
  ) -> [(paragraph: Int, range: Range<Int>, rightToLeft: Bool, levels: [Int8], endsAtBreak: Bool, hyphen: Bool)] {
    var wrapped: [(paragraph: Int, range: Range<Int>, rightToLeft: Bool, levels: [Int8], endsAtBreak: Bool, hyphen: Bool)] = []
    for (p, scalars) in paragraphs.enumerated() {
      let (levels, rightToLeft) = ShapedLine.paragraphLevels(scalars)
      let shaped = ShapedLine(
        scalars, fonts: fonts, weight: weight, language: language, pixelSize: pixelSize, rightToLeft: rightToLeft,
        levels: levels)
      let breaks = LineBreaks.opportunities(scalars, language: language)
      let hyphen = scalars.contains(softHyphen)
        ? ShapedLine([hyphen], fonts: fonts, weight: weight, language: language, pixelSize: pixelSize).width : 0
      func drawnWidth(_ range: Range<Int>, hyphen: Bool) -> Double {
        let line = TextBlock.shown(scalars, range, hyphen: hyphen)
        return ShapedLine(
          line, fonts: fonts, weight: weight, language: language, pixelSize: pixelSize, rightToLeft: rightToLeft,
          levels: Array(levels[range.lowerBound..<range.lowerBound + line.count])
        ).width
      }
      let ranges = TextBlock.wrap(
        scalars, shaped: shaped, breaks: breaks, maxWidth: maxWidth, hyphenWidth: hyphen, drawnWidth: drawnWidth)
      wrapped += ranges.map {
        (p, $0.range, rightToLeft, levels, scalars.isEmpty || breaks.contains($0.range.upperBound), $0.hyphen)
      }
    }
    return wrapped
  }

  /// The text's paragraphs (split at line and paragraph separators), each
  /// cleaned as `TextLayout.clean` cleans a line. A break that ends the
  /// text starts no line, as NSString drawing lays out none after it (a
  /// label's "Done\n" is one line tall; "Done\n\n" two).
  static func paragraphs(_ text: String) -> [[UInt32]] {
    var result: [[UInt32]] = [[]]
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      defer { previous = scalar }
      if scalar == "\n", previous == "\r" { continue }
      if ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) {
        result.append([])
      } else {
        result[result.count - 1] += TextLayout.clean(String(scalar))
      }
    }
    if result.count > 1, result[result.count - 1].isEmpty { result.removeLast() }
    return result
  }

  /// U+00AD, a break opportunity that shows `hyphen` where a line ends at it.
  static let softHyphen: UInt32 = 0xAD
  /// U+2010 HYPHEN, what a line broken at a soft hyphen ends in.
  static let hyphen: UInt32 = 0x2010

  /// The scalars of `paragraph` in `range` as their line shows them:
  /// trailing white space left out, and with `hyphen` the soft hyphen the
  /// line breaks at shown.
  static func shown(_ paragraph: [UInt32], _ range: Range<Int>, hyphen: Bool) -> [UInt32] {
    var line = trimmed(paragraph[range])
    if hyphen, line.last == softHyphen { line[line.count - 1] = Self.hyphen }
    return line
  }

  /// `scalars` without its trailing white space, which hangs past the line's end.
  static func trimmed(_ scalars: ArraySlice<UInt32>) -> [UInt32] {
    var end = scalars.endIndex
    while end > scalars.startIndex, TextBlock.isWhitespace(scalars[end - 1]) { end -= 1 }
    return Array(scalars[scalars.startIndex..<end])
  }

  static func isWhitespace(_ value: UInt32) -> Bool { Unicode.Scalar(value)?.properties.isWhitespace ?? false }

  /// The lines `scalars` fills, greedily (then `pushOut`): each ends at the last break
  /// opportunity whose text (less trailing spaces) fits `maxWidth` pixels,
  /// or, when not even the first word fits, after as many whole clusters as
  /// fit (at least one). Breaks are found with the paragraph's shaped
  /// cluster advances, and `hyphenWidth` for a line that ends at a soft
  /// hyphen and shows it (`hyphen`): one right before the break, inside a
  /// word (a soft hyphen after a space or at the paragraph's start splits
  /// no word, and is no break); a line cut inside a word takes the soft
  /// hyphens after it, unseen.
  ///
  /// Each line is then measured as it is drawn (`drawnWidth`: shaped
  /// alone), which can be wider: kerning across the break is gone, and
  /// where a word is cut, Arabic letters take their final and initial
  /// forms. A line that does not fit so ends at an earlier break that does,
  /// or is cut where its clusters fit as drawn; only a line of whole words
  /// with no earlier break is kept as the paragraph measures it (a pixel
  /// or two wider, drawn whole, as a browser draws a word that overflows).
  static func wrap(
    _ scalars: [UInt32], shaped: ShapedLine, breaks: [Int], maxWidth: Double, hyphenWidth: Double = 0,
    drawnWidth: (Range<Int>, _ hyphen: Bool) -> Double
  ) -> [(range: Range<Int>, hyphen: Bool)] {
    let n = scalars.count
    guard n > 0 else { return [(0..<0, false)] }
    /// Whether a line ending at `end` ends at a soft hyphen inside a word.
    func endsHyphenated(_ end: Int) -> Bool { end >= 2 && end < n && scalars[end - 1] == softHyphen && !isWhitespace(scalars[end - 2]) }
    let breaks = breaks.filter { $0 < 1 || scalars[$0 - 1] != softHyphen || endsHyphenated($0) || $0 == n }
    let startsWord = Set(breaks + [0])
    var advance = [Double](repeating: 0, count: n)
    var isClusterStart = [Bool](repeating: false, count: n + 1)
    isClusterStart[0] = true
    isClusterStart[n] = true
    for g in shaped.glyphs {
      advance[g.cluster] += g.advance
      isClusterStart[g.cluster] = true
    }
    var before = [0.0]  // before[i]: the advances of scalars 0..<i
    for a in advance { before.append(before[before.count - 1] + a) }
    func width(_ start: Int, _ end: Int) -> Double {
      var e = end
      while e > start, isWhitespace(scalars[e - 1]) { e -= 1 }
      return before[e] - before[start] + (hyphenated(start, end) ? hyphenWidth : 0)
    }
    func hyphenated(_ start: Int, _ end: Int) -> Bool { end - 1 > start && endsHyphenated(end) }
    func fits(_ start: Int, _ end: Int) -> Bool { width(start, end) <= maxWidth + 1e-6 }
    func fitsDrawn(_ start: Int, _ end: Int) -> Bool {
      drawnWidth(start..<end, hyphenated(start, end)) <= maxWidth + 1e-6
    }
    /// The end of the cluster after `i`, and the start of the one before it.
    func clusterEnd(after i: Int) -> Int {
      var next = i + 1
      while !isClusterStart[next] { next += 1 }
      return next
    }
    func clusterStart(before i: Int) -> Int {
      var previous = i - 1
      while !isClusterStart[previous] { previous -= 1 }
      return previous
    }

    var result: [(range: Range<Int>, hyphen: Bool)] = []
    var start = 0, k = 0
    while start < n {
      while k < breaks.count, breaks[k] <= start { k += 1 }
      var candidates: [Int] = []
      var j = k
      while j < breaks.count, fits(start, breaks[j]) {
        candidates.append(breaks[j])
        j += 1
      }
      var end = candidates.last
      if let last = end, !fitsDrawn(start, last) {
        end = candidates.dropLast().last { fitsDrawn(start, $0) } ?? (startsWord.contains(start) ? last : nil)
      }
      var hyphen = false
      if let e = end {
        hyphen = hyphenated(start, e)
      } else {
        var cut = clusterEnd(after: start)
        while cut < n, fits(start, clusterEnd(after: cut)) { cut = clusterEnd(after: cut) }
        let first = clusterEnd(after: start)
        while cut > first, !fitsDrawn(start, cut) { cut = clusterStart(before: cut) }
        while cut < n, fitsDrawn(start, clusterEnd(after: cut)) { cut = clusterEnd(after: cut) }
        // The soft hyphens right after the cut (of no width) stay on its line.
        while cut < n, scalars[cut] == softHyphen { cut += 1 }
        end = cut
      }
      result.append((start..<end!, hyphen))
      start = end!
    }
    pushOut(&result, scalars, breaks: breaks, fits: { fits($0, $1) && fitsDrawn($0, $1) })
    return result
  }

  /// UILabel's standard line-break strategy (`NSLineBreakStrategy.pushOut`,
  /// in every label since iOS 11): a paragraph whose last line would hold
  /// one word alone pushes the word before it down from the line above,
  /// where the two fit, so no word is left an orphan. A word is what
  /// follows a space up to the next break; text broken between characters
  /// (Chinese, Japanese) or inside a word has none to push, and a line that
  /// would be emptied or is a word's cut piece keeps its words.
  static func pushOut(
    _ lines: inout [(range: Range<Int>, hyphen: Bool)], _ scalars: [UInt32], breaks: [Int],
    fits: (Int, Int) -> Bool
  ) {
    guard lines.count >= 2 else { return }
    let last = lines[lines.count - 1].range, above = lines[lines.count - 2].range
    let n = scalars.count
    func followsSpace(_ i: Int) -> Bool { i > 0 && isWhitespace(scalars[i - 1]) }
    guard followsSpace(last.lowerBound), above.upperBound == last.lowerBound,
      !breaks.contains(where: { $0 > last.lowerBound && $0 < n }),
      let word = breaks.last(where: { $0 > above.lowerBound && $0 < above.upperBound }), followsSpace(word),
      fits(above.lowerBound, word), fits(word, n)
    else { return }
    lines[lines.count - 2] = (above.lowerBound..<word, false)
    lines[lines.count - 1] = (word..<n, false)
  }
}
