// Suggestion: "did you mean …?" for near misses.
//
// The distance is Damerau–Levenshtein in its optimal-string-alignment form
// (insert, delete, substitute, swap two neighbours; each costs 1), compared
// case-insensitively so `easeineaseout` finds `easeInEaseOut`. A candidate is
// close when it is at most 2 edits away (1 for words of up to 4 characters,
// so `to` does not suggest `id`) and changes at most half of the longer
// word; the closest wins, the earlier on a tie.

public enum Suggestion {
  /// The candidate closest to `word`, if any is close enough.
  public static func closest(to word: String, in candidates: [String]) -> String? {
    let target = Array(word.lowercased().unicodeScalars)
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let other = Array(candidate.lowercased().unicodeScalars)
      let limit = min(target.count, other.count) <= 4 ? 1 : 2
      let d = distance(target, other)
      // Replacing half the word or more is no near miss (`x` is not `a`).
      if d <= limit, 2 * d <= max(target.count, other.count), d < (best?.distance ?? .max) {
        best = (candidate, d)
      }
    }
    return best?.name
  }

  /// `; did you mean 'x'?` for a close candidate, else `; expected one of: a, b, c`
  /// (or nothing when `listing` is false and nothing is close).
  static func hint(for word: String, in candidates: [String], listing: Bool = true) -> String {
    if let match = closest(to: word, in: candidates) { return "; did you mean '\(match)'?" }
    if listing, !candidates.isEmpty { return "; expected one of: \(candidates.joined(separator: ", "))" }
    return ""
  }

  /// Optimal string alignment distance between `a` and `b`.
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    // Three rows: two back (for swaps), one back, current.
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d = min(d, before[j - 2] + 1)
        }
        current[j] = d
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
