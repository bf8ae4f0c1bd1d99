/// How many frames each pixel an image changes keeps that colour: from the
/// image's first frame until a later image changes the pixel again, or the
/// clip ends (a looping GIF starts again from its first image, which draws
/// every pixel).
///
/// Lossy coding spends a pixel's error once and the eye (and a quality
/// measure over the clip's frames) sees it in every frame the pixel keeps
/// its colour, not only in the frames of the image that drew it: the last
/// frames of a transition draw the screen that then rests. So a pixel's
/// bound is the lossy setting divided by its lifetime
/// (`GIFOptions.lossyBound(frames:)`), known after pass 1.
struct GIFLifetimes {
  /// Per image in order, per pixel of its changed list (increasing pixel
  /// order), the frames that pixel keeps its colour, at most 255; image
  /// `k`'s are `lifetimes[offsets[k]..<offsets[k + 1]]`.
  private var lifetimes: [UInt8] = []
  private var offsets = [0]
  /// Per pixel, where its last change's lifetime is in `lifetimes` (-1: not
  /// drawn yet) and the frame that change starts.
  private var position: [Int], since: [Int]

  init(pixels: Int) {
    position = [Int](repeating: -1, count: pixels)
    since = [Int](repeating: 0, count: pixels)
  }

  /// The images added.
  var count: Int { offsets.count - 1 }

  /// The lifetimes of image `k`'s changed pixels, in increasing pixel order.
  func frames(of k: Int) -> ArraySlice<UInt8> { lifetimes[offsets[k]..<offsets[k + 1]] }

  /// The next image, starting at frame `start`: the pixels of `pixels`
  /// whose colour differs from `previous` (packed BGRA; every pixel without
  /// a previous frame), in the order `GIFImagePlan.changedPixels` lists them.
  mutating func add(_ pixels: [UInt8], changedFrom previous: [UInt8]?, start: Int) {
    let count = position.count
    precondition(pixels.count >= 4 * count && (previous?.count ?? 4 * count) >= 4 * count)
    var n = lifetimes.count
    lifetimes.append(contentsOf: repeatElement(255, count: count))
    lifetimes.withUnsafeMutableBufferPointer { lifetimes in
      position.withUnsafeMutableBufferPointer { position in
        since.withUnsafeMutableBufferPointer { since in
          pixels.withUnsafeBytes { a in
            (previous ?? pixels).withUnsafeBytes { b in
              let every = previous == nil
              for p in 0..<count where every || colorDiffers(a, b, p) {
                let before = position[p]
                if before >= 0 { lifetimes[before] = UInt8(min(255, start - since[p])) }
                position[p] = n
                since[p] = start
                n += 1
              }
            }
          }
        }
      }
    }
    lifetimes.removeLast(lifetimes.count - n)
    offsets.append(n)
  }

  /// Ends the clip at `frameCount` frames: the pixels still showing the
  /// colour an image gave them keep it to the end.
  mutating func finish(frameCount: Int) {
    for p in position.indices where position[p] >= 0 {
      lifetimes[position[p]] = UInt8(min(255, frameCount - since[p]))
    }
  }
}
