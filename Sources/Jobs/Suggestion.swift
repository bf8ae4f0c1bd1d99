// Suggestion: "did you mean …?" for near misses.
//
// The distance is Damerau–Levenshtein in its optimal-string-alignment form
// (insert, delete, substitute, swap two neighbours; each costs 1), compared
// case-insensitively so `easeineaseout` finds `easeInEaseOut`. A candidate is
// close when it is at most 2 edits away (1 for words of up to 4 characters,
// so `to` does not suggest `id`) and changes at most half of the longer
// word; the closest wins, the earlier on a tie.
//
// Only distances up to that limit matter, so a comparison costs the length
// of the shorter word times five, not the product of the two lengths: a
// candidate whose length differs by more than the limit is passed over
// unread, and the table is filled only within the limit of its diagonal.
// The words compared are the job's own (an unknown key, a view id it
// names), of any length.
//
// The names a hint echoes are cut as every echoed value is
// (`YAMLNode.singleQuoted`), and a list of names stops after `maximumListed`.

public enum Suggestion {
  /// The candidate closest to `word`, if any is close enough.
  public static func closest(to word: String, in candidates: [String]) -> String? {
    let target = Array(word.lowercased().unicodeScalars)
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let other = Array(candidate.lowercased().unicodeScalars)
      let limit = min(target.count, other.count) <= 4 ? 1 : 2
      let d = distance(target, other, atMost: limit)
      // Replacing half the word or more is no near miss (`x` is not `a`).
      if d <= limit, 2 * d <= max(target.count, other.count), d < (best?.distance ?? .max) {
        best = (candidate, d)
      }
    }
    return best?.name
  }

  /// Most names `hint` lists: more than any fixed vocabulary has (the
  /// longest, the device finishes, has 16); a job's own names (a catalog's
  /// keys, a screen's view ids) may be any number.
  static let maximumListed = 20

  /// `; did you mean 'x'?` for a close candidate, else `; expected one of: a, b, c`
  /// (the first `maximumListed`, then how many more), or nothing when
  /// `listing` is false and nothing is close.
  static func hint(for word: String, in candidates: [String], listing: Bool = true) -> String {
    if let match = closest(to: word, in: candidates) { return "; did you mean \(YAMLNode.singleQuoted(match))?" }
    guard listing, !candidates.isEmpty else { return "" }
    let shown = candidates.prefix(maximumListed).map { YAMLNode.singleQuoted($0).dropFirst().dropLast() }
    let more = candidates.count > maximumListed ? " and \(candidates.count - maximumListed) more" : ""
    return "; expected one of: \(shown.joined(separator: ", "))\(more)"
  }

  /// `; YAML reads 'to:b' as one key, as its ':' has no space after it:
  /// write 'to: b'` for a key that is a name among `candidates` glued to
  /// its value by a colon (YAML ends a key only at a colon followed by a
  /// space), else nil. `what` is what YAML read it as: a key, or, where
  /// it stands alone (`canvas:` above `fps:10`, `- hold:1`), a value.
  /// A colon followed by a blank YAML reads as text (`hold:\u{a0}1`,
  /// `LookalikeBlank`) is glued so too, and said so.
  static func gluedColon(_ key: String, in candidates: [String], readAs what: String = "key") -> String? {
    guard let colon = key.unicodeScalars.firstIndex(of: ":") else { return nil }
    let name = String(key.unicodeScalars[..<colon])
    var rest = key.unicodeScalars[key.unicodeScalars.index(after: colon)...]
    let blank = rest.first.flatMap { LookalikeBlank.contains($0) ? $0 : nil }
    if blank != nil { rest = rest.drop(while: LookalikeBlank.contains) }
    let value = String(rest)
    guard let first = value.first, !first.isWhitespace, candidates.contains(name) else { return nil }
    // Lines YAML folded into one value (`fps:10` above `scale:2`) are not one key's value.
    if what == "value", value.contains(where: \.isWhitespace) { return nil }
    let why = blank.map { "its ':' is followed by a \(LookalikeBlank.name(of: $0)), which YAML does not read as a space" }
    return "; YAML reads \(YAMLNode.singleQuoted(key)) as one \(what), as \(why ?? "its ':' has no space after it"): "
      + "write \(YAMLNode.singleQuoted("\(name): \(value)"))"
  }

  /// Optimal string alignment distance between `a` and `b`, or `limit + 1`
  /// when it is more than `limit`.
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int = .max) -> Int {
    let limit = min(limit, max(a.count, b.count))
    let beyond = limit + 1
    // Each edit changes the length by at most one.
    if abs(a.count - b.count) > limit { return beyond }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    // Three rows: two back (for swaps), one back, current. Row i is filled
    // from column i − limit to i + limit; the cell on each side of that band
    // holds `beyond`, so the next row reads nothing stale.
    var before = [Int](repeating: beyond, count: b.count + 1)
    var previous = (0...b.count).map { Swift.min($0, beyond) }
    var current = [Int](repeating: beyond, count: b.count + 1)
    for i in 1...a.count {
      let low = Swift.max(1, i - limit), high = Swift.min(b.count, i + limit)
      current[low - 1] = low == 1 ? Swift.min(i, beyond) : beyond
      if high < b.count { current[high + 1] = beyond }
      var smallest = current[low - 1]
      for j in low...high {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var d = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d = Swift.min(d, before[j - 2] + 1)
        }
        current[j] = Swift.min(d, beyond)
        smallest = Swift.min(smallest, current[j])
      }
      // A swap reaches back two rows, but only from a cell that the row
      // between also reaches at no more cost: past the limit here, past it for good.
      if smallest > limit { return beyond }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
