import Media
import Raster
import Rendering

/// Draws a job's frames at a video's pixel size (`JobSpec.videoSize`): the
/// canvas itself, the canvas with its last column and/or row repeated when
/// a side is odd (4:2:0 video has even sides), or the canvas scaled with
/// swscale's Lanczos (`Resampler`) for a `width:`/`height:`.
///
/// Not thread-safe: one per thread (it keeps the canvas-sized frame it
/// draws into before padding or scaling); handed to the worker that uses it.
final class FrameFitter: @unchecked Sendable {
  let renderer: FrameRenderer
  let width: Int, height: Int
  private var canvas: Bitmap?
  private let resampler: Resampler?

  init(_ renderer: FrameRenderer, width: Int, height: Int) throws {
    self.renderer = renderer
    self.width = width
    self.height = height
    let w = renderer.spec.framePixelWidth, h = renderer.spec.framePixelHeight
    if w == width, h == height {
      canvas = nil
      resampler = nil
    } else {
      canvas = Bitmap(width: w, height: h)
      let pads = (0...1).contains(width - w) && (0...1).contains(height - h)
      resampler = pads ? nil : try Resampler(resizing: w, h, to: width, height)
    }
  }

  /// Draws frame `n` into `bitmap` (`width × height`).
  func render(_ n: Int, into bitmap: inout Bitmap) throws {
    guard var frame = canvas else {
      renderer.render(n, into: &bitmap)
      return
    }
    canvas = nil  // `frame` is then the only owner of its pixels, drawn in place.
    defer { canvas = frame }
    renderer.render(n, into: &frame)
    if let resampler {
      try bitmap.bytes.withUnsafeMutableBufferPointer { (p) throws(MediaError) in
        try resampler.resize(frame, into: p.baseAddress!, stride: width * 4)
      }
    } else {
      Self.pad(frame, into: &bitmap)
    }
  }

  /// Copies `source` into the top left of the larger `bitmap`, repeating its
  /// last column and row into what is left.
  static func pad(_ source: Bitmap, into bitmap: inout Bitmap) {
    let (w, h, stride, width, height) = (source.width, source.height, bitmap.stride, bitmap.width, bitmap.height)
    source.bytes.withUnsafeBufferPointer { src in
      bitmap.bytes.withUnsafeMutableBufferPointer { dst in
        for y in 0..<height {
          let from = src.baseAddress! + min(y, h - 1) * source.stride
          let to = dst.baseAddress! + y * stride
          to.update(from: from, count: w * 4)
          for x in w..<width { (to + x * 4).update(from: from + (w - 1) * 4, count: 4) }
        }
      }
    }
  }
}
