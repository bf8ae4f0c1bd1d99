/// How many frames each pixel an image changes keeps that colour: from the
/// image's first frame until a later image changes the pixel again, or the
/// clip ends (a looping GIF starts again from its first image, which draws
/// every pixel). A GIF that stops, after one play or a count of them, shows
/// its last frame for good: the pixels showing then keep their colour as
/// long as any rest does.
///
/// Lossy coding spends a pixel's error once and the eye (and a quality
/// measure over the clip's frames) sees it in every frame the pixel keeps
/// its colour, not only in the frames of the image that drew it: the last
/// frames of a transition draw the screen that then rests. So a pixel's
/// bound is the lossy setting divided by its lifetime
/// (`GIFOptions.lossyBound(frames:)`), known after pass 1.
///
/// One byte per changed pixel of every image, held until pass 2: at most
/// `capacity` of them, so a long clip that changes everywhere cannot take
/// the machine's memory. The images after that have no lifetimes (the
/// writer bounds them by their own frames); the choice depends only on the
/// clip, so the output does too.
struct GIFLifetimes {
  /// The most lifetimes kept (bytes): 128 MiB, a clip of 390 × 844 pixels
  /// that changes everywhere for 400 frames.
  static let defaultCapacity = 128 << 20

  /// Per image in order, per pixel of its changed list (increasing pixel
  /// order), the frames that pixel keeps its colour, at most 255; image
  /// `k`'s are `lifetimes[offsets[k]..<offsets[k + 1]]`.
  private var lifetimes: [UInt8] = []
  private var offsets = [0]
  private let capacity: Int
  /// Whether images are still recorded (else only the lifetimes already
  /// recorded are completed).
  private var isRecording = true
  /// Per pixel, where its last recorded change's lifetime is in `lifetimes`
  /// (-1: none open) and the frame that change starts.
  private var position: [Int32], since: [Int32]

  init(pixels: Int, capacity: Int = GIFLifetimes.defaultCapacity) {
    precondition(capacity <= Int(Int32.max))
    self.capacity = capacity
    position = [Int32](repeating: -1, count: pixels)
    since = [Int32](repeating: 0, count: pixels)
  }

  /// The images recorded.
  var count: Int { offsets.count - 1 }

  /// The lifetimes of image `k`'s changed pixels, in increasing pixel
  /// order; nil for an image after the capacity was reached.
  func frames(of k: Int) -> ArraySlice<UInt8>? { k < count ? lifetimes[offsets[k]..<offsets[k + 1]] : nil }

  /// Per lifetime of `frames` (an image's, `frames(of:)`), its entry of
  /// `table` (256 entries), and the lifetimes' mean (0 for none): an
  /// image's lossy bounds and how long its changed pixels last. A pass over
  /// every changed pixel of every image, made on the mapping thread.
  static func bounds(_ frames: ArraySlice<UInt8>, through table: [UInt8]) -> (bounds: [UInt8], meanFrames: Double) {
    precondition(table.count == 256)
    var sum = 0
    let bounds = [UInt8](unsafeUninitializedCapacity: frames.count) { out, n in
      frames.withUnsafeBufferPointer { frames in
        table.withUnsafeBufferPointer { table in
          for i in 0..<frames.count {
            let f = frames[i]
            out[i] = table[Int(f)]
            sum &+= Int(f)
          }
        }
      }
      n = frames.count
    }
    return (bounds, Double(sum) / Double(max(1, frames.count)))
  }

  /// The next image, starting at frame `start`: the pixels of `pixels`
  /// whose colour differs from `previous` (packed BGRA; every pixel without
  /// a previous frame), in the order `GIFImagePlan.changedPixels` lists them.
  /// Recorded while its every pixel still fits the capacity.
  mutating func add(_ pixels: [UInt8], changedFrom previous: [UInt8]?, start: Int) {
    let count = position.count
    precondition(pixels.count >= 4 * count && (previous?.count ?? 4 * count) >= 4 * count)
    precondition(start <= Int(Int32.max))
    if isRecording && lifetimes.count + count > capacity { isRecording = false }
    let recording = isRecording
    var n = lifetimes.count
    if recording { lifetimes.append(contentsOf: repeatElement(255, count: count)) }
    lifetimes.withUnsafeMutableBufferPointer { lifetimes in
      position.withUnsafeMutableBufferPointer { position in
        since.withUnsafeMutableBufferPointer { since in
          pixels.withUnsafeBytes { a in
            (previous ?? pixels).withUnsafeBytes { b in
              func changed(_ p: Int) {
                let before = Int(position[p])
                if before >= 0 { lifetimes[before] = UInt8(min(255, start - Int(since[p]))) }
                if recording {
                  position[p] = Int32(n)
                  since[p] = Int32(start)
                  n += 1
                } else {
                  position[p] = -1
                }
              }
              if previous == nil {
                for p in 0..<count { changed(p) }
              } else {
                forEachColorChange(a, b, count: count, changed)
              }
            }
          }
        }
      }
    }
    if recording {
      lifetimes.removeLast(lifetimes.count - n)
      offsets.append(n)
    }
  }

  /// Ends the clip at `frameCount` frames: the pixels still showing the
  /// colour an image gave them keep it to the end, and for good when the
  /// GIF `stops` there (it does not loop forever).
  mutating func finish(frameCount: Int, stops: Bool = false) {
    for p in position.indices where position[p] >= 0 {
      lifetimes[Int(position[p])] = stops ? 255 : UInt8(min(255, frameCount - Int(since[p])))
    }
  }
}
