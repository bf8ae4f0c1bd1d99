import Geometry

extension Layer {
  /// Where `contents` of `image`'s size lies in bounds coordinates, by
  /// `contentsGravity`: the bounds for `resize`, centred in them otherwise
  /// (scaled to fit or fill, or at its own size for `center`). It may reach
  /// past the bounds; the layer shows that part unless it `masksToBounds`.
  public func contentsRect(of image: Bitmap) -> Rect {
    let b = bounds
    let cs = contentsScale > 0 ? contentsScale : 1
    let iw = Double(image.width) / cs, ih = Double(image.height) / cs
    switch contentsGravity {
    case .resize:
      return b
    case .resizeAspect, .resizeAspectFill:
      let sx = b.width / iw, sy = b.height / ih
      let s = contentsGravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
      return Rect(x: b.midX - iw * s / 2, y: b.midY - ih * s / 2, width: iw * s, height: ih * s)
    case .center:
      return Rect(x: b.midX - iw / 2, y: b.midY - ih / 2, width: iw, height: ih)
    }
  }

  /// The part of its own coordinates an untransformed layer draws in: its
  /// bounds and, unless it `masksToBounds`, its contents' rect and its
  /// untransformed sublayers' drawn parts beyond them, as
  /// `snapshotView(afterScreenUpdates:)` of an unclipped view carries what
  /// it draws outside its bounds. (Shadows are not counted.)
  public var drawnBounds: Rect {
    var drawn = bounds
    guard !masksToBounds else { return drawn }
    if let contents { drawn = drawn.union(contentsRect(of: contents)) }
    for sublayer in sublayers where !sublayer.isHidden && sublayer.transform == .identity {
      let inner = sublayer.drawnBounds, frame = sublayer.frame
      let dx = frame.minX - sublayer.bounds.minX, dy = frame.minY - sublayer.bounds.minY
      drawn = drawn.union(Rect(x: inner.minX + dx, y: inner.minY + dy, width: inner.width, height: inner.height))
    }
    return drawn
  }
}
