#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Jobs
import Raster
import Synchronization

/// A job's stage, prepared once: the background and the drawn device as one
/// bitmap, the caption layers, and which pixels of the device's screen show
/// the canvas.
///
/// Per frame only the screen is drawn: the canvas is rendered straight into
/// the screen's rectangle of the output, and the few pixels of that
/// rectangle the screen does not fully cover (its rounded corners, the
/// Dynamic Island or notch) are put back from the prepared stage by their
/// coverage, so each edge pixel is shared between the screen and what
/// borders it, the bezel or the housing, by the share each covers, not
/// darkened by the black screen under both (`restoreEdges`). A canvas that is
/// not opaque goes over what the stage shows there: a drawn device's black
/// screen, or with `device: none` the stage's background (see-through
/// only where that is too), as a canvas scaled to fit goes over black. The rest of the
/// stage is written once per output bitmap: a frame tags the bitmap it drew
/// (`Bitmap.contentTag`) with this stage and the caption it shows, so the
/// next frame drawn into the same bitmap finds the stage there and redraws
/// the caption's strip only while captions change.
struct Stage: Sendable {
  let layout: StageLayout
  /// Background and device, `frameSize × scale` pixels.
  let base: Bitmap
  /// The screen's pixels on the stage.
  let screen: PixelArea
  /// Per screen row: the runs the screen does not fully cover, left to right.
  let edges: [[Run]]
  /// The canvas inside the screen when it is not the screen's own size.
  let fitsCanvas: Bool
  /// Whether `base` draws a device's black screen and housing: where they
  /// partly cover a pixel it holds the stage beyond the screen already
  /// scaled by the share they leave (their black adds nothing), so the
  /// screen's contents are added there, not blended over it again, which
  /// would darken the screen's edge by the share twice.
  let baseShowsScreen: Bool
  /// Whether every canvas pixel is opaque (its background is), so none shows the stage under it.
  let canvasIsOpaque: Bool
  let captions: CaptionTrack?
  let compositor: Compositor
  /// This stage's mark in the bitmaps it draws (unique among stages).
  let token: Int
  /// Canvas-sized bitmaps for a canvas scaled to fit, reused frame after frame.
  let canvases: BitmapPool

  /// Pixels of a screen row that show the stage, or the stage and the canvas blended.
  struct Run: Sendable {
    var start: Int
    var end: Int
    /// Per-pixel coverage of the screen (1…254); empty where the screen does not reach (the stage shows).
    var coverage: [UInt8]
  }

  private static let tokens = Atomic<Int>(1)

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

    let screen = PixelArea(
      x: Int((layout.screen.minX * scale).rounded()), y: Int((layout.screen.minY * scale).rounded()),
      width: Int((layout.screen.width * scale).rounded()), height: Int((layout.screen.height * scale).rounded()))
    self.screen = screen
    fitsCanvas = spec.canvas.pixelWidth != screen.width || spec.canvas.pixelHeight != screen.height
    baseShowsScreen = stage.preset != nil
    canvasIsOpaque = spec.canvas.isOpaque
    canvases = BitmapPool(width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight)
    edges = Self.edges(stage: stage, layout: layout, size: screen, compositor: compositor)
    captions = stage.caption.map { caption in
      var style = caption.style
      if caption.inkFollowsBackground {
        style.color = Self.ink(over: base, in: layout.caption, scale: scale, matte: spec.output.matte)
      }
      return CaptionTrack(
        caption: Caption(style: style, frame: layout.caption, scale: scale, fonts: fonts), first: caption.text,
        changes: stage.captionChanges, timeline: timeline, base: base, compositor: compositor,
        reach: CaptionTrack.reach(caption, area: layout.caption, stageHeight: Double(base.height) / scale))
    }
    token = Self.tokens.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// A caption's ink over `base` (the stage drawn without it) in `frame`
  /// (stage points): the one of black and white that contrasts more with
  /// the mean colour there (WCAG 2's contrast ratio: black where the mean
  /// relative luminance is above 0.179, so black on #7F7F7F and on red);
  /// what shows through a transparent stage counts as `matte`, what MP4 and
  /// GIF show there (and what a job that sets it expects behind the others).
  static func ink(over base: Bitmap, in frame: Rect, scale: Double, matte: Color = .black) -> Color {
    let x0 = max(0, Int((frame.minX * scale).rounded())), x1 = min(base.width, Int((frame.maxX * scale).rounded()))
    let y0 = max(0, Int((frame.minY * scale).rounded())), y1 = min(base.height, Int((frame.maxY * scale).rounded()))
    guard x1 > x0, y1 > y0 else { return .black }
    // sRGB's transfer curve undone, per byte.
    let linear = (0..<256).map { v -> Double in
      let c = Double(v) / 255
      return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    // Premultiplied pixels over the matte, in bytes.
    let behind = [matte.red, matte.green, matte.blue].map { $0 * 255 }
    func over(_ c: UInt8, _ a: UInt8, _ m: Double) -> Int {
      min(255, Int((Double(c) + m * Double(255 - Int(a)) / 255).rounded()))
    }
    var total = 0.0
    base.bytes.withUnsafeBufferPointer { p in
      for y in y0..<y1 {
        for x in x0..<x1 {
          let i = y * base.stride + x * 4, a = p[i + 3]
          let r = linear[over(p[i], a, behind[0])], g = linear[over(p[i + 1], a, behind[1])]
          let b = linear[over(p[i + 2], a, behind[2])]
          total += 0.2126 * r + 0.7152 * g + 0.0722 * b
        }
      }
    }
    return total / Double((x1 - x0) * (y1 - y0)) > 0.179 ? .black : .white
  }

  /// The screen's coverage, row by row, from the same shapes the device
  /// draws: the runs of each row that are not fully covered.
  static func edges(stage: StageSpec, layout: StageLayout, size: PixelArea, compositor: Compositor) -> [[Run]] {
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
    let width = size.width
    var rows: [[Run]] = []
    rows.reserveCapacity(size.height)
    bitmap.bytes.withUnsafeBufferPointer { p in
      // The red channel: white (the screen) 255, black (housing) or clear 0.
      func coverage(_ x: Int, _ y: Int) -> UInt8 { p[(y * width + x) * 4] }
      for y in 0..<size.height {
        var runs: [Run] = []
        var x = 0
        while x < width {
          let c = coverage(x, y)
          var end = x + 1
          if c == 255 {
            while end < width, coverage(end, y) == 255 { end += 1 }
          } else if c == 0 {
            while end < width, coverage(end, y) == 0 { end += 1 }
            runs.append(Run(start: x, end: end, coverage: []))
          } else {
            while end < width, case let v = coverage(end, y), v > 0, v < 255 { end += 1 }
            runs.append(Run(start: x, end: end, coverage: (x..<end).map { coverage($0, y) }))
          }
          x = end
        }
        rows.append(runs)
      }
    }
    return rows
  }

  /// The stage at `time` seconds into `bitmap` (the stage's size), with the
  /// canvas drawn by `drawCanvas` into the pixels it is given: the screen's
  /// rectangle of `bitmap` itself, or a canvas-sized bitmap when the canvas
  /// is scaled to fit. `drawCanvas` must write every pixel it is given.
  func compose(time: Double, into bitmap: inout Bitmap, canvas drawCanvas: (inout Bitmap, PixelArea) -> Void) {
    // What the bitmap holds: this stage, with the caption in `state` (0: unknown).
    let tag = bitmap.contentTag
    let holdsStage = tag.map { $0 >> 32 == token } ?? false
    let state = captions.map { $0.isFading(at: time) ? 0 : $0.index(at: time) + 1 } ?? 0
    if !holdsStage { bitmap.copy(from: base) }
    if fitsCanvas {
      var canvas = canvases.take()
      drawCanvas(&canvas, PixelArea(x: 0, y: 0, width: canvas.width, height: canvas.height))
      drawFitted(canvas, into: &bitmap)
      canvases.give(canvas)
      restoreEdges(of: &bitmap)
    } else {
      drawCanvas(&bitmap, screen)
      // A see-through canvas goes over the device's black screen, which
      // the added edges already hold, or over the stage, blended at the edges.
      if baseShowsScreen { restoreEdges(of: &bitmap) }
      if !canvasIsOpaque { drawBase(under: &bitmap) }
      if !baseShowsScreen { restoreEdges(of: &bitmap) }
    }
    if let captions, !holdsStage || state == 0 || tag.map({ $0 & 0xFFFF_FFFF }) != state {
      captions.draw(at: time, into: &bitmap)
    }
    bitmap.contentTag = token << 32 | state
  }

  /// `canvas` scaled to fit the screen, letterboxed in black. A canvas
  /// shrunk by more than a quarter is first reduced to about the pixels it
  /// covers by area average, as a screen's images are
  /// (`ImageDownsampling.fitted`): the compositor samples bilinearly, which
  /// past a halving skips rows and columns, so fine lines and text shimmered.
  private func drawFitted(_ canvas: Bitmap, into bitmap: inout Bitmap) {
    RowBlend.fill(Color.black.premultipliedPixel, into: &bitmap, area: screen)
    var layer = Layer(
      frame: Rect(
        x: layout.canvas.minX - layout.screen.minX, y: layout.canvas.minY - layout.screen.minY,
        width: layout.canvas.width, height: layout.canvas.height))
    let shown = ImageDownsampling.fitted(canvas, gravity: .resize, in: layout.canvas.size, scale: compositor.scale)
    layer.contents = shown
    layer.contentsScale = Double(shown.width) / layout.canvas.width
    compositor.render(layer, into: &bitmap, at: (screen.x, screen.y), size: (screen.width, screen.height))
  }

  /// The stage under the canvas drawn into the screen (source-over, in
  /// premultiplied bytes): what the canvas leaves see-through shows the
  /// device's black screen, or the stage's background without a device.
  private func drawBase(under bitmap: inout Bitmap) {
    let stride = bitmap.stride
    bitmap.bytes.withUnsafeMutableBufferPointer { out in
      base.bytes.withUnsafeBufferPointer { stage in
        for y in screen.y..<(screen.y + screen.height) {
          for d in Swift.stride(from: y * stride + screen.x * 4, to: y * stride + (screen.x + screen.width) * 4, by: 4) {
            let alpha = UInt32(out[d + 3])
            if alpha == 255 { continue }
            for k in d..<(d + 4) {
              out[k] = UInt8(Swift.min(255, UInt32(out[k]) + (UInt32(stage[k]) * (255 - alpha) + 127) / 255))
            }
          }
        }
      }
    }
  }

  /// Puts the stage back where the screen does not reach, and under the
  /// screen's partly covered pixels: added to them under a drawn device
  /// (`baseShowsScreen`), else blended by the share the screen leaves.
  private func restoreEdges(of bitmap: inout Bitmap) {
    let stride = bitmap.stride
    let added = baseShowsScreen
    bitmap.bytes.withUnsafeMutableBufferPointer { out in
      base.bytes.withUnsafeBufferPointer { stage in
        for (y, runs) in edges.enumerated() {
          let row = (screen.y + y) * stride + screen.x * 4
          for run in runs {
            let d = row + run.start * 4
            if run.coverage.isEmpty {
              UnsafeMutableRawPointer(out.baseAddress! + d).copyMemory(
                from: stage.baseAddress! + d, byteCount: (run.end - run.start) * 4)
              continue
            }
            for (i, c) in run.coverage.enumerated() {
              let c = UInt32(c), under = added ? 255 : 255 - c
              for k in (d + i * 4)..<(d + i * 4 + 4) {
                out[k] = UInt8(Swift.min(255, (UInt32(out[k]) * c + UInt32(stage[k]) * under + 127) / 255))
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

/// A rectangle of a bitmap's pixels: where a canvas is drawn.
struct PixelArea: Sendable, Equatable {
  var x: Int, y: Int, width: Int, height: Int
}

/// Which caption shows when: the stage's first, then each step's from the
/// start of its step, cross-fading in over `fade` seconds (or the step, if
/// shorter) — short, so two lines of text overlap only briefly.
///
/// Each caption is drawn once onto its strip of the stage (the rows of the
/// caption area, the gap's worth of rows on the device's side and every
/// row to the stage's edge on the other, where marks and tails that pass
/// the line box go — Arabic's dots below, Thai's tone marks above,
/// Tibetan's stacks far below — background included; the gap keeps the
/// strip off the screen); a frame copies its strip, or blends two while
/// they cross-fade.
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

  /// How far a caption's strip reaches past its `area` (stage points):
  /// the gap toward the device, and to the stage's edge away from it,
  /// where the padding has room for ink. A Tibetan stack under a caption
  /// at the bottom was cut flat a gap below the line, padding to spare.
  static func reach(_ caption: CaptionSpec, area: Rect, stageHeight: Double) -> (above: Double, below: Double) {
    let gap = StageLayout.captionGap(caption)
    switch caption.position {
    case .top: return (Swift.max(gap, area.minY), gap)
    case .bottom: return (gap, Swift.max(gap, stageHeight - area.maxY))
    }
  }

  init(
    caption: Caption, first: String, changes: [CaptionChange], timeline: Timeline, base: Bitmap, compositor: Compositor,
    reach: (above: Double, below: Double)
  ) {
    let scale = caption.scale
    let top = Swift.max(0, Swift.min(base.height - 1, Int(((caption.frame.minY - reach.above) * scale).rounded(.up))))
    let bottom = Swift.max(
      top + 1, Swift.min(base.height, Int(((caption.frame.maxY + reach.below) * scale).rounded(.down))))
    let rows = Array(base.bytes[(top * base.stride)..<(bottom * base.stride)])
    var cache: [String: Bitmap] = [:]
    func strip(_ text: String) -> Bitmap {
      if let cached = cache[text] { return cached }
      var strip = Bitmap(width: base.width, height: bottom - top, bytes: rows)!
      var layer = caption.layer(text, reach: Swift.max(reach.above, reach.below))
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
    RowBlend.crossfade(
      from: from, to: entry.strip, progress: Swift.min(1, progress), into: &bitmap,
      area: PixelArea(x: 0, y: top, width: bitmap.width, height: bitmap.height - top))
  }

  func index(at time: Double) -> Int { entries.lastIndex { $0.start <= time } ?? 0 }

  func isFading(at time: Double) -> Bool {
    let index = self.index(at: time)
    guard index > 0 else { return false }
    let entry = entries[index]
    return time - entry.start < entry.fade
  }
}

