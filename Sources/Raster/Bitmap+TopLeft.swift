extension Bitmap {
  /// The bitmap's top-left `columns × rows` pixels (at most its own),
  /// keeping the opacity hint: a screen cut to the card it shows in.
  public func topLeft(columns: Int, rows: Int) -> Bitmap {
    let w = Swift.min(Swift.max(columns, 1), width), h = Swift.min(Swift.max(rows, 1), height)
    guard w != width || h != height else { return self }
    var out = [UInt8](repeating: 0, count: w * h * 4)
    bytes.withUnsafeBytes { source in
      out.withUnsafeMutableBytes { target in
        for y in 0..<h {
          (target.baseAddress! + y * w * 4).copyMemory(from: source.baseAddress! + y * stride, byteCount: w * 4)
        }
      }
    }
    var result = Bitmap(width: w, height: h, bytes: out)!
    if isKnownOpaque { result.updateOpacityHint() }
    return result
  }
}
