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
  /// Per image, per pixel of its changed list (increasing pixel order),
  /// the frames that pixel keeps its colour, at most 255.
  private(set) var frames: [[UInt8]] = []
  /// Per pixel, the image that last changed it and its place in that
  /// image's list (-1: none yet).
  private var lastImage: [Int32], lastSlot: [Int32]
  /// The first frame of each image.
  private var starts: [Int] = []

  init(pixels: Int) {
    lastImage = [Int32](repeating: -1, count: pixels)
    lastSlot = [Int32](repeating: 0, count: pixels)
  }

  /// The next image, starting at frame `start`: the pixels of `pixels`
  /// whose colour differs from `previous` (packed BGRA; every pixel without
  /// a previous frame), in the order `GIFImagePlan.changedPixels` lists them.
  mutating func add(_ pixels: [UInt8], changedFrom previous: [UInt8]?, start: Int) {
    let image = frames.count
    let count = lastImage.count
    precondition(pixels.count >= 4 * count && (previous?.count ?? 4 * count) >= 4 * count)
    var list: [UInt8] = []
    starts.withUnsafeBufferPointer { starts in
      frames.withUnsafeMutableBufferPointer { frames in
        lastImage.withUnsafeMutableBufferPointer { lastImage in
          lastSlot.withUnsafeMutableBufferPointer { lastSlot in
            pixels.withUnsafeBytes { a in
              func changed(_ p: Int) {
                let before = Int(lastImage[p])
                if before >= 0 {
                  frames[before][Int(lastSlot[p])] = UInt8(min(255, start - starts[before]))
                }
                lastImage[p] = Int32(image)
                lastSlot[p] = Int32(list.count)
                list.append(255)
              }
              if let previous {
                previous.withUnsafeBytes { b in
                  for p in 0..<count where colorDiffers(a, b, p) { changed(p) }
                }
              } else {
                for p in 0..<count { changed(p) }
              }
            }
          }
        }
      }
    }
    frames.append(list)
    starts.append(start)
  }

  /// Ends the clip at `frameCount` frames: the pixels still showing the
  /// colour an image gave them keep it to the end.
  mutating func finish(frameCount: Int) {
    for p in 0..<lastImage.count where lastImage[p] >= 0 {
      let image = Int(lastImage[p])
      frames[image][Int(lastSlot[p])] = UInt8(min(255, frameCount - starts[image]))
    }
  }
}
