extension Bitmap {
  /// The bitmap mirrored left to right (column x becomes width − 1 − x),
  /// keeping the opacity hint: the same pixels, moved.
  public func mirroredHorizontally() -> Bitmap {
    var out = [UInt8](repeating: 0, count: bytes.count)
    bytes.withUnsafeBytes { source in
      out.withUnsafeMutableBytes { target in
        let from = source.bindMemory(to: UInt32.self), to = target.bindMemory(to: UInt32.self)
        for y in 0..<height {
          let row = y * width
          for x in 0..<width { to[row + x] = from[row + width - 1 - x] }
        }
      }
    }
    var result = Bitmap(width: width, height: height, bytes: out)!
    if isKnownOpaque { result.updateOpacityHint() }
    return result
  }
}
