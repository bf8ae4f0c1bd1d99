#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Geometry
import Synchronization

/// The software compositor: renders `Layer` trees into `Bitmap`s as Core
/// Animation would, in premultiplied 8-bit sRGB.
///
/// Design (one stage per file):
/// - `DisplayListBuilder` turns the tree into a display list (`DisplayList.swift`):
///   each layer's bounds map to device pixels by one homography, so 2-D and
///   3-D (m34 perspective) layers take the same path; draws carry shapes
///   (exact analytic coverage for boxes, rounded boxes, circles, projected
///   quads; a rasterized mask for other paths), a paint and an opacity;
///   `ShapeIntersection` intersects a draw's shapes so that an edge two of
///   them share (contents and the bounds that clip them) is covered once.
/// - `Executor` runs the list over bands of 32 rows, bands spread over cores
///   with `DispatchQueue.concurrentPerform`; every pixel depends only on its
///   row, so output is identical for any thread count.
/// - `Kernels` blend spans (SIMD, with a scalar reference beside them);
///   `Sampler` maps device pixels back into images (bilinear, per-pixel
///   divide); `Coverage` turns shapes into full and partial runs per row.
///
/// Speed (measured by `scripts/bench compositor`; the figures live in the
/// commit history and `Benchmarks/`) comes from doing less, not from
/// cleverer arithmetic:
/// - what a later opaque draw hides is skipped per band, sampled opaque
///   images included; the hidden columns of an opaque box, rounded box,
///   circle or polygon over a band come from its first and last rows
///   (`RowCoverage.fullColumns`), and a box covering the whole row is skipped;
/// - opaque images are sampled straight into the target (no scratch row);
///   a solid overlay through the same shapes as the image beneath folds into
///   it (`DrawOp.tint`, applied in the sampler's registers); two 1:1
///   snapshots cross-fading are one pass (`Executor.crossfade`);
/// - box and rounded-box shadows are analytic (`Shadow.swift`);
/// - maps that keep columns (a page turning about a vertical axis) are
///   sampled eight columns at a time down the band, each column's horizontal
///   lerps cached and shared by the rows that read them
///   (`Sampler.sampleColumns`), since row by row a sheared page is read
///   diagonally, a new cache line per texel; axis-aligned scales share each
///   image row's horizontal lerps between the device rows that read it
///   (`Sampler.ScaledRows`), in draws that blend (an image with transparent
///   corners, a fading snapshot) as in straight ones;
/// - an opaque snapshot's flat stretches are indexed once (`SolidRuns`), so
///   copies, tinted copies and cross-fades over them are fills of the
///   kernel's own result, nothing read;
/// - bands go to whichever worker is free, so a worker slowed by a busy core
///   takes fewer.
/// Tried and not kept (slower or no change): sampling in 8- to 128-column
/// tiles through the row sampler, huge pages for snapshots, smaller bands.
public struct Compositor: Sendable {
  /// Changes whenever a change to the compositor, or to what the renderer
  /// gives it to draw, moves any pixel of any frame (by a rounding step or
  /// more), so output caches keyed on it (`OutputCache`) do not keep pixels
  /// an earlier build drew.
  public static let revision = 91

  /// Pixels per point.
  public var scale: Double
  /// Threads to use; `nil` uses every core.
  public var threadCount: Int?
  /// The span kernels (SIMD or the scalar reference).
  public var kernels: KernelSet

  /// Folds solid overlays into the image draw beneath them (`DrawOp.tint`);
  /// off only in tests, which check both ways give the same pixels wherever
  /// the draw covers a pixel whole (at its edge the folded draw is the one
  /// flattened layer, the separate draws two).
  var foldsOverlays = true

  /// Skips what later opaque draws hide (`Executor.occludes`); off only in
  /// tests, which check both ways give the same pixels.
  var occludes = true

  /// Rows per band of work: each band's set-up (what later draws hide, each
  /// column group's cached rows in `sampleColumns`) is shared by this many
  /// rows, and 32 rows of a full-width snapshot still fit in L2.
  static let bandHeight = 32

  /// A compositor for a canvas of `scale` pixels per point.
  public init(scale: Double, threadCount: Int? = nil, kernels: KernelSet = .simd) {
    self.scale = scale
    self.threadCount = threadCount
    self.kernels = kernels
  }

  /// Composites `layer` (its superlayer space = the bitmap's space in points)
  /// source-over onto `bitmap`.
  public func render(_ layer: Layer, into bitmap: inout Bitmap) {
    let m = Transform3D.layerToSuperlayer(
      bounds: layer.bounds, anchorPoint: layer.anchorPoint, position: layer.position,
      transform: layer.transform)
    let map = Homography(flattening: m).concatenating(.scale(x: scale, y: scale))
    draw(layer, map: map, into: &bitmap)
  }

  /// Composites `layer` into the `size`-pixel rectangle of `bitmap` whose
  /// top-left pixel is `origin`, as `render(_:into:)` would into a bitmap of
  /// that size: the rectangle's top-left is the layer's superlayer origin.
  /// Pixels outside the rectangle are not touched; it must lie inside `bitmap`.
  public func render(
    _ layer: Layer, into bitmap: inout Bitmap, at origin: (x: Int, y: Int), size: (width: Int, height: Int)
  ) {
    precondition(
      origin.x >= 0 && origin.y >= 0 && origin.x + size.width <= bitmap.width
        && origin.y + size.height <= bitmap.height, "the rectangle must lie inside the bitmap")
    let m = Transform3D.layerToSuperlayer(
      bounds: layer.bounds, anchorPoint: layer.anchorPoint, position: layer.position,
      transform: layer.transform)
    let map = Homography(flattening: m).concatenating(.scale(x: scale, y: scale))
    let canvas = PixelBox(x0: 0, y0: 0, x1: size.width, y1: size.height)
    let builder = DisplayListBuilder(canvas: canvas, scale: scale, kernels: kernels, foldsOverlays: foldsOverlays)
    let commands = builder.commands(layer, map: map)
    guard !commands.isEmpty else { return }
    execute(commands, canvas: canvas, into: &bitmap, at: origin)
  }

  /// Renders a layer subtree into a new transparent bitmap of bounds.size ×
  /// scale pixels (rounded, at least 1), like `snapshotView(afterScreenUpdates:)`:
  /// the layer's own bounds origin maps to pixel (0, 0); its position and
  /// transform are ignored, its opacity, mask and shadow are not.
  public func snapshot(_ layer: Layer) -> Bitmap {
    let w = max(1, Int((layer.bounds.width * scale).rounded()))
    let h = max(1, Int((layer.bounds.height * scale).rounded()))
    var bitmap = Bitmap(width: w, height: h)
    let map = Homography.translation(x: -layer.bounds.minX, y: -layer.bounds.minY)
      .concatenating(.scale(x: scale, y: scale))
    draw(layer, map: map, into: &bitmap)
    bitmap.updateOpacityHint()
    return bitmap
  }

  /// Draws `layer` whose bounds map to device pixels by `map`.
  func draw(_ layer: Layer, map: Homography, into bitmap: inout Bitmap) {
    let canvas = PixelBox(x0: 0, y0: 0, x1: bitmap.width, y1: bitmap.height)
    let builder = DisplayListBuilder(canvas: canvas, scale: scale, kernels: kernels, foldsOverlays: foldsOverlays)
    let commands = builder.commands(layer, map: map)
    guard !commands.isEmpty else { return }
    execute(commands, canvas: canvas, into: &bitmap)
  }

  /// Runs a display list over `canvas` (the whole bitmap, or a rectangle of
  /// it whose top-left pixel is `origin`), band by band.
  func execute(_ commands: [Command], canvas: PixelBox, into bitmap: inout Bitmap, at origin: (x: Int, y: Int) = (0, 0)) {
    let width = canvas.width, height = canvas.height, stride = bitmap.stride
    let executor = Executor(kernels: kernels, occludes: occludes)
    let bands = (height + Self.bandHeight - 1) / Self.bandHeight
    let threads = max(1, min(threadCount ?? Compositor.processorCount, bands))
    bitmap.bytes.withUnsafeMutableBufferPointer { buf in
      let target = Target(base: buf.baseAddress! + origin.y * stride + origin.x * 4, stride: stride, box: canvas)
      let job = UncheckedSendable(value: (target, commands, executor))
      // Bands are handed out in order to whichever worker is free: a worker
      // slowed by a busy core (or a heavier band) takes fewer of them.
      let next = BandCounter()
      let work: @Sendable (Int) -> Void = { _ in
        let (target, commands, executor) = job.value
        let scratch = Scratch(width: width)
        defer { scratch.deallocate() }
        while true {
          let band = next.take()
          guard band < bands else { break }
          let y0 = band * Self.bandHeight
          executor.run(commands, target: target, rows: y0..<min(height, y0 + Self.bandHeight), scratch: scratch)
        }
      }
      if threads == 1 {
        work(0)
      } else {
        DispatchQueue.concurrentPerform(iterations: threads, execute: work)
      }
    }
  }

  /// Online processors.
  static let processorCount: Int = {
    #if canImport(Glibc)
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #else
    return 1
    #endif
  }()
}

/// The next band to render, shared by the workers of one `execute`.
final class BandCounter: Sendable {
  private let value = Atomic<Int>(0)

  /// Claims the next band.
  func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// Carries pointers into `concurrentPerform`: each worker writes only its own rows.
struct UncheckedSendable<T>: @unchecked Sendable {
  let value: T
}
