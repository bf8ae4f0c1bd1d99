import Geometry
import Jobs
import Raster

/// A job's stage, prepared once: the background and the drawn device as one
/// bitmap, the caption layers, and which pixels of the device's screen show
/// the canvas. Per frame only the screen (and the caption while it changes)
/// is composited; the rest is one copy of the prepared bitmap.
///
/// The screen's pixels come from a coverage mask — the screen's rounded
/// rectangle minus the Dynamic Island or notch — kept as runs per row: the
/// fully covered run of a row is copied from the canvas frame, the few
/// partly covered pixels at the corners and around the housing are blended
/// over the prepared device, as the compositor's own edges would be.
struct Stage: Sendable {
  let layout: StageLayout
  /// Background and device, `frameSize × scale` pixels.
  let base: Bitmap
  /// The screen's top-left pixel on the stage.
  let screenOrigin: (x: Int, y: Int)
  /// Per screen row: (start, end, coverage) runs; coverage nil is a full run.
  let rows: [[Run]]
  /// The canvas inside the screen when it is not the screen's own size.
  let fitsCanvas: Bool
  let screenPixels: (width: Int, height: Int)
  let captions: CaptionTrack?
  let compositor: Compositor

  struct Run: Sendable {
    var start: Int
    var end: Int
    /// Per-pixel coverage (0…255) for a partial run; empty for a full one.
    var coverage: [UInt8]
  }

  init(spec: JobSpec, stage: StageSpec, timeline: Timeline, assets: [String: Bitmap], fonts: FontSet) {
    let scale = Double(spec.canvas.scale)
    let layout = StageLayout(stage: stage, canvas: spec.canvas)
    let compositor = Compositor(scale: scale)
    self.layout = layout
    self.compositor = compositor
    var root = Layer(frame: Rect(origin: .zero, size: stage.size))
    switch stage.background {
    case .color(let color):
      root.backgroundColor = color
    case .gradient(let gradient):
      root.gradient = gradient
    case .image(let asset):
      if let image = assets[asset.resolvedPath] {
        root.contents = ImageDownsampling.fitted(image, gravity: .resizeAspectFill, in: stage.size, scale: scale)
        root.contentsGravity = .resizeAspectFill
        root.contentsScale = scale
        root.masksToBounds = true
      } else {
        root.backgroundColor = ScreenBuilder.placeholder
      }
    }
    if let preset = stage.preset {
      let artwork = DeviceArtwork(preset: preset, finish: stage.finish, orientation: stage.orientation, body: layout.body)
      root.sublayers = artwork.layers()
      // Turned devices: the artwork lays out the portrait screen turned; the
      // housing and corners follow it, so the mask comes from the same layers.
    }
    var base = Bitmap(width: spec.framePixelWidth, height: spec.framePixelHeight, fill: .clear)
    compositor.render(root, into: &base)
    base.updateOpacityHint()
    self.base = base

    screenOrigin = (Int((layout.screen.minX * scale).rounded()), Int((layout.screen.minY * scale).rounded()))
    let screenPixels = (width: Int((layout.screen.width * scale).rounded()), height: Int((layout.screen.height * scale).rounded()))
    self.screenPixels = screenPixels
    fitsCanvas = spec.canvas.pixelWidth != screenPixels.width || spec.canvas.pixelHeight != screenPixels.height
    rows = Self.runs(stage: stage, layout: layout, scale: scale, size: screenPixels, compositor: compositor)
    captions = stage.caption.map { caption in
      CaptionTrack(
        caption: Caption(style: caption.style, frame: layout.caption, scale: scale, fonts: fonts), first: caption.text,
        changes: stage.captionChanges, timeline: timeline, base: base, compositor: compositor)
    }
  }

  /// The screen's coverage, row by row, from the same shapes the device draws.
  static func runs(
    stage: StageSpec, layout: StageLayout, scale: Double, size: (width: Int, height: Int), compositor: Compositor
  ) -> [[Run]] {
    var mask = Layer(frame: Rect(origin: .zero, size: layout.screen.size))
    var screen = Layer(frame: mask.bounds)
    screen.backgroundColor = .white
    screen.cornerRadius = layout.screenCornerRadius
    mask.sublayers = [screen]
    if let preset = stage.preset {
      // The housing, placed as the artwork places it, relative to the screen.
      let artwork = DeviceArtwork(preset: preset, finish: stage.finish, orientation: stage.orientation, body: layout.body)
      let portraitScreen = Rect(
        x: (preset.bodySize.width - preset.size.width) / 2, y: (preset.bodySize.height - preset.size.height) / 2,
        width: preset.size.width, height: preset.size.height)
      for var layer in artwork.frontDetails(screen: portraitScreen) {
        layer.position = Point(x: layer.position.x - layout.screen.minX, y: layer.position.y - layout.screen.minY)
        layer.backgroundColor = layer.backgroundColor.map { _ in .black }
        layer.gradient = nil
        layer.borderWidth = 0
        mask.sublayers.append(layer)
      }
    }
    var bitmap = Bitmap(width: size.width, height: size.height)
    compositor.render(mask, into: &bitmap)
    var rows: [[Run]] = []
    rows.reserveCapacity(size.height)
    bitmap.bytes.withUnsafeBufferPointer { p in
      for y in 0..<size.height {
        var runs: [Run] = []
        var x = 0
        while x < size.width {
          // The red channel: white (the screen) 255, black (housing) or clear 0.
          let c = p[(y * size.width + x) * 4]
          var end = x + 1
          if c == 255 {
            while end < size.width, p[(y * size.width + end) * 4] == 255 { end += 1 }
            runs.append(Run(start: x, end: end, coverage: []))
          } else if c > 0 {
            while end < size.width, case let v = p[(y * size.width + end) * 4], v > 0, v < 255 { end += 1 }
            runs.append(Run(start: x, end: end, coverage: (x..<end).map { p[(y * size.width + $0) * 4] }))
          }
          x = end
        }
        rows.append(runs)
      }
    }
    return rows
  }

  /// The stage at `time` seconds with `canvasFrame` (the canvas's pixels) in the screen.
  func compose(_ canvasFrame: Bitmap, time: Double, into bitmap: inout Bitmap) {
    bitmap.copy(from: base)
    var screen = canvasFrame
    if fitsCanvas {
      // Scaled to fit, letterboxed in black.
      var fitted = Bitmap(width: screenPixels.width, height: screenPixels.height, fill: Color.black.premultipliedPixel)
      var layer = Layer(
        frame: Rect(
          x: layout.canvas.minX - layout.screen.minX, y: layout.canvas.minY - layout.screen.minY,
          width: layout.canvas.width, height: layout.canvas.height))
      layer.contents = canvasFrame
      layer.contentsScale = Double(canvasFrame.width) / layout.canvas.width
      compositor.render(layer, into: &fitted)
      screen = fitted
    }
    blit(screen, into: &bitmap)
    captions?.draw(at: time, into: &bitmap)
  }

  /// Copies the screen's covered pixels of `screen` onto `bitmap`, blending the edges.
  private func blit(_ screen: Bitmap, into bitmap: inout Bitmap) {
    let width = bitmap.width, height = bitmap.height
    let (ox, oy) = screenOrigin
    let sw = screen.width
    bitmap.bytes.withUnsafeMutableBufferPointer { out in
      screen.bytes.withUnsafeBufferPointer { src in
        for (y, runs) in rows.enumerated() where y < screen.height && oy + y < height && oy + y >= 0 {
          let dstRow = (oy + y) * width
          for run in runs {
            let start = Swift.max(run.start, -ox), end = Swift.min(run.end, width - ox, sw)
            guard start < end else { continue }
            if run.coverage.isEmpty {
              let d = UnsafeMutableRawPointer(out.baseAddress! + (dstRow + ox + start) * 4)
              d.copyMemory(from: src.baseAddress! + (y * sw + start) * 4, byteCount: (end - start) * 4)
              continue
            }
            for x in start..<end {
              let c = UInt32(run.coverage[x - run.start])
              let s = (y * sw + x) * 4, d = (dstRow + ox + x) * 4
              for k in 0..<4 {
                out[d + k] = UInt8((UInt32(src[s + k]) * c + UInt32(out[d + k]) * (255 - c) + 127) / 255)
              }
            }
          }
        }
      }
    }
  }

  /// Whether frames at `a` and `b` seconds show the same caption, fully.
  func showsSameCaption(_ a: Double, _ b: Double) -> Bool {
    guard let captions else { return true }
    return !captions.isFading(at: a) && !captions.isFading(at: b) && captions.index(at: a) == captions.index(at: b)
  }
}

/// Which caption shows when: the stage's first, then each step's from the
/// start of its step, cross-fading in over `fade` seconds (or the step, if
/// shorter) — short, so two lines of text overlap only briefly.
///
/// Each caption is drawn once onto its strip of the stage (the rows of the
/// caption area, background included); a frame copies its strip, or blends
/// two while they cross-fade.
struct CaptionTrack: Sendable {
  struct Entry: Sendable {
    var start: Double
    var fade: Double
    var strip: Bitmap
  }

  let entries: [Entry]
  /// The strips' first row on the stage.
  let top: Int

  static let fade = 0.35

  init(caption: Caption, first: String, changes: [CaptionChange], timeline: Timeline, base: Bitmap, compositor: Compositor) {
    let scale = caption.scale
    let top = Swift.max(0, Swift.min(base.height - 1, Int((caption.frame.minY * scale).rounded(.down))))
    let bottom = Swift.max(top + 1, Swift.min(base.height, Int((caption.frame.maxY * scale).rounded(.up))))
    let rows = Array(base.bytes[(top * base.stride)..<(bottom * base.stride)])
    var cache: [String: Bitmap] = [:]
    func strip(_ text: String) -> Bitmap {
      if let cached = cache[text] { return cached }
      var strip = Bitmap(width: base.width, height: bottom - top, bytes: rows)!
      var layer = caption.layer(text)
      layer.position.y -= Double(top) / scale
      compositor.render(layer, into: &strip)
      cache[text] = strip
      return strip
    }
    var entries = [Entry(start: 0, fade: 0, strip: strip(first))]
    for change in changes where change.step < timeline.segments.count {
      let segment = timeline.segments[change.step]
      entries.append(Entry(start: segment.start, fade: Swift.min(Self.fade, segment.duration), strip: strip(change.text)))
    }
    self.entries = entries
    self.top = top
  }

  /// The caption at `time` onto the stage `bitmap`: one strip, or two cross-fading.
  func draw(at time: Double, into bitmap: inout Bitmap) {
    let index = self.index(at: time)
    let entry = entries[index]
    let progress = entry.fade > 0 ? (time - entry.start) / entry.fade : 1
    let from = index > 0 && progress < 1 ? entries[index - 1].strip : entry.strip
    RowBlend.crossfade(from: from, to: entry.strip, progress: Swift.min(1, progress), into: &bitmap, at: top)
  }

  func index(at time: Double) -> Int { entries.lastIndex { $0.start <= time } ?? 0 }

  func isFading(at time: Double) -> Bool {
    let index = self.index(at: time)
    guard index > 0 else { return false }
    let entry = entries[index]
    return time - entry.start < entry.fade
  }
}

/// Row-wise blends of bitmaps of the same width into a larger one.
enum RowBlend {
  /// Rows `top…` of `out` become `a` and `b` mixed at `progress` (0: `a`, 1: `b`), in
  /// premultiplied bytes, each rounded; columns and rows past `out`'s edges are left out.
  static func crossfade(from a: Bitmap, to b: Bitmap, progress: Double, into out: inout Bitmap, at top: Int, rows: Int? = nil) {
    let weight = UInt32((Swift.min(1, Swift.max(0, progress)) * 256).rounded())
    let width = Swift.min(out.width, a.width, b.width)
    let height = Swift.min(rows ?? a.height, a.height, b.height, out.height - top)
    guard height > 0 else { return }
    let stride = out.width * 4, aStride = a.width * 4, bStride = b.width * 4
    out.bytes.withUnsafeMutableBufferPointer { o in
      a.bytes.withUnsafeBufferPointer { p in
        b.bytes.withUnsafeBufferPointer { q in
          for y in 0..<height {
            let orow = (top + y) * stride, prow = y * aStride, qrow = y * bStride
            if weight == 256 || weight == 0 {
              let source = weight == 0 ? p.baseAddress! + prow : q.baseAddress! + qrow
              UnsafeMutableRawPointer(o.baseAddress! + orow).copyMemory(from: source, byteCount: width * 4)
              continue
            }
            for i in 0..<(width * 4) {
              o[orow + i] = UInt8((UInt32(p[prow + i]) * (256 - weight) + UInt32(q[qrow + i]) * weight + 128) >> 8)
            }
          }
        }
      }
    }
  }

  /// `source` (premultiplied) drawn source-over onto `out` at its top-left.
  static func sourceOver(_ source: Bitmap, into out: inout Bitmap) {
    let width = Swift.min(out.width, source.width), height = Swift.min(out.height, source.height)
    let stride = out.width * 4, sourceStride = source.width * 4
    out.bytes.withUnsafeMutableBufferPointer { o in
      source.bytes.withUnsafeBufferPointer { s in
        for y in 0..<height {
          for x in 0..<width {
            let i = y * sourceStride + x * 4
            let alpha = UInt32(s[i + 3])
            if alpha == 0 { continue }
            let j = y * stride + x * 4
            for k in 0..<4 {
              o[j + k] = UInt8(UInt32(s[i + k]) + (UInt32(o[j + k]) * (255 - alpha) + 127) / 255)
            }
          }
        }
      }
    }
  }
}
