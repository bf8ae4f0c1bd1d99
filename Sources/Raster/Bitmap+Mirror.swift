extension Bitmap {
  /// The bitmap mirrored left to right (column x becomes width − 1 − x),
  /// keeping the opacity hint: the same pixels, moved.
  public func mirroredHorizontally() -> Bitmap { mirroredHorizontally(columns: width) }

  /// The bitmap with its first `columns` columns mirrored left to right
  /// (column x becomes columns − 1 − x) and the columns after them as they
  /// are, keeping the opacity hint: a screen laid out in a card narrower
  /// than the screen (its left part) mirrored in the card.
  public func mirroredHorizontally(columns: Int) -> Bitmap {
    let n = Swift.min(Swift.max(columns, 0), width)
    var out = bytes
    bytes.withUnsafeBytes { source in
      out.withUnsafeMutableBytes { target in
        let from = source.bindMemory(to: UInt32.self), to = target.bindMemory(to: UInt32.self)
        for y in 0..<height {
          let row = y * width
          for x in 0..<n { to[row + x] = from[row + n - 1 - x] }
        }
      }
    }
    var result = Bitmap(width: width, height: height, bytes: out)!
    if isKnownOpaque { result.updateOpacityHint() }
    return result
  }
}
