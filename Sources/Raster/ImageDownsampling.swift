// ImageDownsampling: images shrunk once, when a screen is built, to the
// pixels they will cover.
//
// The compositor samples bilinearly, which is right for enlarging and for
// small reductions, but a 4032 px phone photo drawn into a 170 pt (510 px)
// image view would skip most of its pixels and shimmer. So a view's image
// that is more than slightly larger than its on-screen size is first reduced
// with an area-average (box) filter in premultiplied space — every source
// pixel counts in proportion to the area it covers — and the compositor then
// maps the result nearly 1:1. This runs once per screen snapshot.

import Dispatch
import Geometry

public enum ImageDownsampling {
  /// The pixel size `image` shows at when drawn with `gravity` into `size`
  /// points at `scale` (nil for `.center`, which never rescales).
  /// The picture's size is its `pictureRect`'s, where it has one.
  static func displayedSize(of image: Bitmap, gravity: ContentsGravity, in size: Size, scale: Double) -> (Double, Double)? {
    displayedSize(
      width: image.pictureRect?.width ?? Double(image.width), height: image.pictureRect?.height ?? Double(image.height),
      gravity: gravity, in: size, scale: scale)
  }

  /// The pixel size an image of `width × height` shows at (see above).
  static func displayedSize(width iw: Double, height ih: Double, gravity: ContentsGravity, in size: Size, scale: Double) -> (Double, Double)? {
    let w = size.width * scale, h = size.height * scale
    switch gravity {
    case .center: return nil
    case .resize: return (w, h)
    case .resizeAspect:
      let s = Swift.min(w / iw, h / ih)
      return (iw * s, ih * s)
    case .resizeAspectFill:
      let s = Swift.max(w / iw, h / ih)
      return (iw * s, ih * s)
    }
  }

  /// `image` reduced to about the pixels it covers when it would otherwise
  /// be shrunk by more than a quarter along either side, or when its
  /// picture does not fill its pixels (`Bitmap.pictureRect`, which only the
  /// average reads); else `image` itself.
  public static func fitted(_ image: Bitmap, gravity: ContentsGravity, in size: Size, scale: Double) -> Bitmap {
    guard let (w, h) = displayedSize(of: image, gravity: gravity, in: size, scale: scale), w >= 1, h >= 1 else {
      return image
    }
    let tw = Swift.max(1, Int(w.rounded())), th = Swift.max(1, Int(h.rounded()))
    guard image.pictureRect != nil || Double(image.width) > 1.25 * Double(tw) || Double(image.height) > 1.25 * Double(th)
    else { return image }
    return downsampled(image, width: Swift.min(tw, image.width), height: Swift.min(th, image.height))
  }

  /// How many times an image of `width × height` may be made smaller along
  /// both sides and still cover the pixels `fitted` reduces it to: the
  /// smaller of its two sides' ratios to that target, at least 1 (1 for
  /// `.center`, which never rescales). A decoder may return the image that
  /// much smaller and leave the last step to `fitted`.
  public static func reduction(width: Int, height: Int, gravity: ContentsGravity, in size: Size, scale: Double) -> Double {
    guard
      let (w, h) = displayedSize(width: Double(width), height: Double(height), gravity: gravity, in: size, scale: scale),
      w >= 1, h >= 1
    else { return 1 }
    let tw = Swift.max(1, w.rounded()), th = Swift.max(1, h.rounded())
    return Swift.max(1, Swift.min(Double(width) / tw, Double(height) / th))
  }

  /// Area-average reduction of `image` (its `pictureRect`, where it has
  /// one) to `width × height` (each ≤ the source's).
  ///
  /// Two passes in floats: across (each source row to `width` pixels), then
  /// down (each output row the weighted sum of the across rows it covers),
  /// rounded back to bytes. `KernelSet.simd` does a pixel's four channels in
  /// one `SIMD4<Float>` and keeps only the across rows the current output
  /// row needs (a ring), in bands of output rows over threads; every channel
  /// sees the same multiplies and adds in the same order as in the scalar
  /// `KernelSet.reference` (no fused multiply-add), so the bytes are equal.
  static func downsampled(_ image: Bitmap, width: Int, height: Int, kernels: KernelSet = .simd) -> Bitmap {
    guard kernels == .simd else { return downsampledReference(image, width: width, height: height) }
    let (across, down) = taps(image, width: width, height: height)
    var out = [UInt8](repeating: 0, count: width * height * 4)
    // Bands of output rows, each reading about a band's worth of source
    // rows; a row on a band's edge is summed across by both neighbours.
    let bandRows = 32
    let bands = (height + bandRows - 1) / bandRows
    image.bytes.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        let job = DownsampleJob(
          src: src.baseAddress!, srcWidth: image.width, dst: dst.baseAddress!, width: width, across: across,
          down: down)
        if bands == 1 {
          job.rows(0..<height)
        } else {
          DispatchQueue.concurrentPerform(iterations: bands) { band in
            job.rows(band * bandRows..<Swift.min(height, (band + 1) * bandRows))
          }
        }
      }
    }
    // The sizes are positive and the count matches.
    return Bitmap(width: width, height: height, bytes: out)!
  }

  /// The scalar reference of `downsampled`: both passes over the whole
  /// image, one channel at a time.
  static func downsampledReference(_ image: Bitmap, width: Int, height: Int) -> Bitmap {
    let sw = image.width, sh = image.height
    // Horizontal pass: sw × sh → width × sh, in floats.
    let (across, down) = taps(image, width: width, height: height)
    var rows = [Float](repeating: 0, count: width * sh * 4)
    image.bytes.withUnsafeBufferPointer { srcBuffer in
      rows.withUnsafeMutableBufferPointer { dstBuffer in
        across.weights.withUnsafeBufferPointer { weightBuffer in
          let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!, weight = weightBuffer.baseAddress!
          for y in 0..<sh {
            let srow = src + y * sw * 4
            var d = dst + y * width * 4
            for x in 0..<width {
              var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
              var p = srow + across.first[x] * 4
              var w = weight + across.offset[x]
              for _ in 0..<across.count[x] {
                r += Float(p[0]) * w.pointee
                g += Float(p[1]) * w.pointee
                b += Float(p[2]) * w.pointee
                a += Float(p[3]) * w.pointee
                p += 4
                w += 1
              }
              d[0] = r
              d[1] = g
              d[2] = b
              d[3] = a
              d += 4
            }
          }
        }
      }
    }
    // Vertical pass: width × sh → width × height, rounded back to bytes.
    let stride = width * 4
    var out = [UInt8](repeating: 0, count: width * height * 4)
    var line = [Float](repeating: 0, count: stride)
    rows.withUnsafeBufferPointer { srcBuffer in
      out.withUnsafeMutableBufferPointer { dstBuffer in
        line.withUnsafeMutableBufferPointer { lineBuffer in
          let src = srcBuffer.baseAddress!, acc = lineBuffer.baseAddress!
          for y in 0..<height {
            acc.update(repeating: 0, count: stride)
            for k in 0..<down.count[y] {
              let wt = down.weights[down.offset[y] + k]
              let row = src + (down.first[y] + k) * stride
              for i in 0..<stride { acc[i] += row[i] * wt }
            }
            let d = dstBuffer.baseAddress! + y * stride
            for i in 0..<stride { d[i] = UInt8(Swift.min(255, Swift.max(0, acc[i] + 0.5))) }
          }
        }
      }
    }
    // The sizes are positive and the count matches.
    return Bitmap(width: width, height: height, bytes: out)!
  }

  /// The taps reducing `image`'s picture (its `pictureRect`, else all of
  /// it) to `width × height`, across and down.
  static func taps(_ image: Bitmap, width: Int, height: Int) -> (across: Taps, down: Taps) {
    let picture = image.pictureRect ?? Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
    return (
      Taps(from: picture.minX, picture.maxX, of: image.width, to: width),
      Taps(from: picture.minY, picture.maxY, of: image.height, to: height)
    )
  }

  /// For each of `count` output pixels along one axis, the run of source
  /// pixels it covers (`first`, `count`) and their weights (each pixel's
  /// covered fraction, normalised to sum to 1) at `offset` in `weights`.
  struct Taps {
    var first: [Int] = [], count: [Int] = [], offset: [Int] = []
    var weights: [Float] = []

    /// All `source` pixels to `outputs`.
    init(from source: Int, to outputs: Int) {
      self.init(from: 0, Double(source), of: source, to: outputs)
    }

    /// The span `lower…upper` of `source` pixels (within 0…source) to
    /// `outputs`: a pixel the span covers in part weighs that part.
    init(from lower: Double, _ upper: Double, of source: Int, to outputs: Int) {
      let ratio = (upper - lower) / Double(outputs)
      for i in 0..<outputs {
        let start = lower + Double(i) * ratio, end = Swift.min(upper, lower + Double(i + 1) * ratio)
        var j = Swift.min(Int(start), source - 1)
        first.append(j)
        offset.append(weights.count)
        var n = 0
        while Double(j) < end, j < source {
          let covered = Swift.min(end, Double(j + 1)) - Swift.max(start, Double(j))
          weights.append(Float(Swift.max(0, covered) / (end - start)))
          n += 1
          j += 1
        }
        count.append(n)
      }
    }

    /// Output pixel `i`'s (source index, weight) pairs.
    func taps(_ i: Int) -> [(Int, Float)] {
      (0..<count[i]).map { (first[i] + $0, weights[offset[i] + $0]) }
    }
  }
}

/// One `ImageDownsampling.downsampled` run: its pointers and taps, shared by
/// the bands (each writes only its own output rows).
private struct DownsampleJob: @unchecked Sendable {
  let src: UnsafePointer<UInt8>, srcWidth: Int
  let dst: UnsafeMutablePointer<UInt8>, width: Int
  let across: ImageDownsampling.Taps, down: ImageDownsampling.Taps

  /// Output rows `rows`: each source row they cover summed across once into
  /// a ring of rows (slot `row % ring`; an output row covers at most `ring`
  /// consecutive source rows, and the next starts no earlier than the last
  /// of them), then summed down.
  func rows(_ rows: Range<Int>) {
    guard !rows.isEmpty else { return }
    let ring = rows.map { down.count[$0] }.max()!
    let floats = width * 4
    let storage = UnsafeMutablePointer<Float>.allocate(capacity: (ring + 1) * floats)
    defer { storage.deallocate() }
    let acc = storage + ring * floats
    var next = down.first[rows.lowerBound]
    across.first.withUnsafeBufferPointer { first in
      across.count.withUnsafeBufferPointer { count in
        across.offset.withUnsafeBufferPointer { offset in
          across.weights.withUnsafeBufferPointer { weights in
            for y in rows {
              let top = down.first[y], n = down.count[y]
              while next < top + n {
                acrossRow(next, into: storage + (next % ring) * floats, first, count, offset, weights.baseAddress!)
                next += 1
              }
              for i in 0..<floats { acc[i] = 0 }
              for k in 0..<n {
                let wt = down.weights[down.offset[y] + k]
                let row = storage + ((top + k) % ring) * floats
                for i in 0..<floats { acc[i] += row[i] * wt }
              }
              let d = dst + y * floats
              for i in 0..<floats { d[i] = UInt8(Swift.min(255, Swift.max(0, acc[i] + 0.5))) }
            }
          }
        }
      }
    }
  }

  /// Source row `y` summed across to `width` pixels of four floats.
  @inline(__always)
  private func acrossRow(
    _ y: Int, into out: UnsafeMutablePointer<Float>, _ first: UnsafeBufferPointer<Int>,
    _ count: UnsafeBufferPointer<Int>, _ offset: UnsafeBufferPointer<Int>, _ weights: UnsafePointer<Float>
  ) {
    let row = src + y * srcWidth * 4
    for x in 0..<width {
      var sum = SIMD4<Float>.zero
      var p = row + first[x] * 4
      var w = weights + offset[x]
      for _ in 0..<count[x] {
        let bytes = UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt8>.self)
        sum += SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: bytes)) * w.pointee
        p += 4
        w += 1
      }
      UnsafeMutableRawPointer(out + 4 * x).storeBytes(of: sum, as: SIMD4<Float>.self)
    }
  }
}
