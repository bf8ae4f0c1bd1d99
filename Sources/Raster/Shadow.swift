#if canImport(Glibc)
import Glibc
#endif
import Geometry

// Shadows (UIKIT.md §3): the layer's composited alpha — or its `shadowPath`
// filled — blurred by a Gaussian of σ = shadowRadius · scale device pixels
// (separable, truncated at ±⌈3σ⌉, weights normalised), moved by
// `shadowOffset` (a local vector mapped through the layer's transform,
// rounded to whole device pixels), tinted with shadowColor × shadowOpacity,
// and drawn beneath the layer. The mask is built once per frame in the scene
// builder; the executor then draws it like any coverage mask.

extension SceneBuilder {
  /// The shadow draw of `layer`, whose content (without opacity) is `cmds`.
  func shadow(_ layer: Layer, map: Homography, content cmds: [Command]) -> Command? {
    let opacity = min(max(layer.shadowOpacity, 0), 1)
    var color = layer.shadowColor
    color.alpha *= opacity
    guard color.alpha > 0 else { return nil }
    let sigma = max(layer.shadowRadius, 0) * scale
    let reach = sigma > 0.05 ? Int((3 * sigma).rounded(.up)) : 0

    let b = layer.bounds
    let c = Point(x: b.midX, y: b.midY)
    let p0 = map.apply(c)
    let p1 = map.apply(Point(x: c.x + layer.shadowOffset.width, y: c.y + layer.shadowOffset.height))
    guard p0.x.isFinite, p1.x.isFinite, p0.y.isFinite, p1.y.isFinite else { return nil }
    let dx = Int(max(-1e6, min(1e6, p1.x - p0.x)).rounded())
    let dy = Int(max(-1e6, min(1e6, p1.y - p0.y)).rounded())

    var source = cmds
    if let path = layer.shadowPath {
      let shapes = pathShapes(path, rule: .nonZero, map)
      source = []
      append(&source, shapes, .solid(Pixel(r: 255, g: 255, b: 255, a: 255)))
    }
    let sourceBox = bounds(of: source)
    guard !sourceBox.isEmpty else { return nil }
    // Only what can reach the canvas: the canvas moved back by the offset, grown by the blur reach.
    let limit = PixelBox(
      x0: canvas.x0 - dx - reach, y0: canvas.y0 - dy - reach, x1: canvas.x1 - dx + reach,
      y1: canvas.y1 - dy + reach)
    let region = PixelBox(
      x0: sourceBox.x0 - reach, y0: sourceBox.y0 - reach, x1: sourceBox.x1 + reach, y1: sourceBox.y1 + reach
    ).intersection(limit)
    guard !region.isEmpty else { return nil }

    let alpha = Shadows.alpha(of: source, region: region, kernels: kernels)
    let blurred = reach > 0 ? Shadows.blur(alpha, width: region.width, height: region.height, sigma: sigma, reach: reach) : alpha
    var bytes = [UInt8](repeating: 0, count: blurred.count)
    for i in 0..<blurred.count { bytes[i] = UInt8(clamp01(blurred[i]) * 255 + 0.5) }
    let mask = CoverageMask(
      x0: region.x0 + dx, y0: region.y0 + dy, width: region.width, height: region.height, alpha: bytes)
    let box = mask.box.intersection(canvas)
    guard !box.isEmpty else { return nil }
    return .draw(DrawOp(shapes: [.mask(mask)], paint: .solid(color.premultipliedPixel), opacity: 1, bounds: box))
  }
}

enum Shadows {
  /// The alpha (0…1) that `cmds` composite to over `region`.
  static func alpha(of cmds: [Command], region: PixelBox, kernels: KernelSet) -> [Float] {
    let w = region.width, h = region.height
    let rgba = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * 4)
    rgba.initialize(repeating: 0, count: w * h * 4)
    defer { rgba.deallocate() }
    let scratch = Scratch(width: w)
    defer { scratch.deallocate() }
    Executor(kernels: kernels).run(
      cmds, target: Target(base: rgba, stride: w * 4, box: region), rows: region.y0..<region.y1,
      scratch: scratch)
    var out = [Float](repeating: 0, count: w * h)
    for i in 0..<(w * h) { out[i] = Float(rgba[i * 4 + 3]) * (1 / 255) }
    return out
  }

  /// Normalised Gaussian weights for offsets −reach…reach.
  static func kernel(sigma: Double, reach: Int) -> [Float] {
    var k = (-reach...reach).map { i -> Double in exp(-Double(i * i) / (2 * sigma * sigma)) }
    let sum = k.reduce(0, +)
    k = k.map { $0 / sum }
    return k.map(Float.init)
  }

  /// Separable Gaussian blur (zero outside), horizontal then vertical. The
  /// inner loops run over contiguous x for each tap, which LLVM vectorises.
  static func blur(_ input: [Float], width w: Int, height h: Int, sigma: Double, reach r: Int) -> [Float] {
    let k = kernel(sigma: sigma, reach: r)
    let taps = 2 * r + 1
    var horizontal = [Float](repeating: 0, count: w * h)
    let padded = UnsafeMutablePointer<Float>.allocate(capacity: w + 2 * r)
    defer { padded.deallocate() }
    input.withUnsafeBufferPointer { src in
      horizontal.withUnsafeMutableBufferPointer { dst in
        k.withUnsafeBufferPointer { kw in
          for y in 0..<h {
            padded.initialize(repeating: 0, count: w + 2 * r)
            (padded + r).update(from: src.baseAddress! + y * w, count: w)
            let o = dst.baseAddress! + y * w
            for t in 0..<taps {
              let wt = kw[t]
              let s = padded + t
              for x in 0..<w { o[x] += wt * s[x] }
            }
          }
        }
      }
    }
    var out = [Float](repeating: 0, count: w * h)
    horizontal.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        k.withUnsafeBufferPointer { kw in
          for y in 0..<h {
            let o = dst.baseAddress! + y * w
            for t in 0..<taps {
              let sy = y + t - r
              if sy < 0 || sy >= h { continue }
              let wt = kw[t]
              let s = src.baseAddress! + sy * w
              for x in 0..<w { o[x] += wt * s[x] }
            }
          }
        }
      }
    }
    return out
  }
}
