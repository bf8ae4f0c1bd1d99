import Foundation
import Jobs
import Media
import Raster
import Rendering

/// `gif`: an animated GIF by `GIFWriter`, at a GIF frame rate and width, made
/// to fit `maxBytes` when asked.
struct GIFOutput: FormatWriter {
  var fileType: OutputFileType { GIFWriter.fileType }
  /// The GIF writer needs no filled heap (`GIFWriter.write`).
  var fillsHeap: Bool { false }
  var cacheKey: String { "gif lone-image-twice libimagequant paletteuse lossy-lzw giflib scale-3x per-frame-target rest-weighted lossy-per-frame error-4x q100 budget-most-colours lossy-lifetime-48 palette-auto-1000 lossless-exact budget-widest width-per-point first-own-table global-one-table exact-within-max-colours budget-down-to-16 last-frame-stays" }

  /// `maxBytes` settles the colour count within this many colours.
  static let colourStep = 8

  /// The GIF frame rate for a canvas rate above 50 (GIF delays are whole
  /// centiseconds, at least 2): the largest whole divisor of `fps` from 24
  /// to 50 (60 → 30, 120 → 40), so GIF frames are video frames; else 50.
  static func reducedRate(_ fps: Int) -> Int {
    (24...GIFTiming.maximumFPS).reversed().first { fps % $0 == 0 } ?? GIFTiming.maximumFPS
  }

  /// The job as its renderer is loaded for `formats`: a job whose only
  /// format is the GIF at the GIF's scale (`JobSpec.gifRenderScale`), so its
  /// images are decoded and its screens snapshotted no larger than the GIF
  /// draws them; any other job as it is (its other formats need every pixel).
  static func loaded(_ spec: JobSpec, formats: [OutputFormat]) -> JobSpec {
    guard formats == [.gif] else { return spec }
    return spec.rescaled(spec.gifRenderScale(width: spec.gifSize.width))
  }

  /// Renders the job at the GIF's frame rate (its own `FrameRenderer`, so
  /// frame `i` shows `i / fps` s) and writes it with `GIFWriter`. Frames are
  /// rendered at the smallest canvas scale at least three times `width`
  /// pixels wide (`JobSpec.gifRenderScale`; default width: the canvas width
  /// in points, drawn at an @2x or @3x canvas's own scale) and resized to
  /// `width`. The renderer given may already be at that scale (a GIF-only
  /// job is loaded there, `loaded(_:formats:)`). With `maxBytes`, a file that
  /// is too big is written again, keeping the most quality that fits: the
  /// most colours down to 128 that fit (`mostColours`), else down to 64;
  /// else at 20 fps, the most colours down to 64; else narrower, at 64
  /// colours, the widest that fits (within 2 px) down to the narrowest
  /// `width:` a job may write (`GIFSettings.narrowestWidth`, 16 px). The
  /// summary says what changed.
  func write(_ renderer: FrameRenderer, to path: String, onFrame: (Int) throws -> Void) throws -> OutputSummary {
    let spec = renderer.spec
    let settings = spec.output.gif
    let canvasWidth = spec.framePixelWidth, canvasHeight = spec.framePixelHeight
    var notes: [String] = []
    var width = spec.gifSize.width
    var fps = settings.fps ?? spec.canvas.fps
    if fps > GIFTiming.maximumFPS {
      let reduced = Self.reducedRate(fps)
      // The canvas's rate as the job writes it (119.88, not 120); the GIF's is whole.
      let asked = settings.fps == nil && spec.canvas.isFractional ? String(format: "%.2f", Double(fps) * 1000 / 1001) : "\(fps)"
      notes.append("gif: \(asked) fps reduced to \(reduced) fps (GIF delays are whole centiseconds, at least 2)")
      fps = reduced
    }
    // One palette: `quality` is its colours. A palette per frame: each has
    // the fewest colours at which libimagequant reaches `quality`.
    let perFrame = settings.palette == .perFrame
    var colors = settings.maxColors
      ?? (perFrame ? 256 : GIFOptions.colors(quality: settings.quality ?? GIFOptions.defaultQuality))
    // One renderer per rate and scale tried: frames reach the GIF writer
    // opaque (a transparent canvas over the job's matte), at a whole rate
    // (a 59.94 canvas is rendered again at 60).
    var renderers: [[Int]: FrameRenderer] = [:]
    var options = GIFOptions()
    if let dither = settings.dither { options.dither = GIFOptions.Dither(rawValue: dither.rawValue)! }
    if let scale = settings.bayerScale { options.bayerScale = scale }
    switch settings.palette {
    case .perFrame:
      options.palette = .perFrame
      options.targetQuality = settings.quality ?? GIFOptions.defaultPerFrameQuality
    case .global: options.palette = .global
    case .auto, nil: options.palette = .auto
    }
    if let lossy = settings.lossy { options.lossy = lossy }
    switch settings.loop {
    case .repeat(let n): options.loop = .repeat(n)
    case .forever, nil: options.loop = .forever
    }

    func attempt(to path: String) throws -> GIFSummary {
      let scale = spec.gifRenderScale(width: width)
      let clip: FrameRenderer
      if let cached = renderers[[fps, scale]] {
        clip = cached
      } else {
        clip = StageTimings.measure(.snapshot) { renderer.opaque(scale: scale, fps: fps) }
        renderers[[fps, scale]] = clip
      }
      options.width = width
      options.height = max(1, Int((Double(canvasHeight) * Double(width) / Double(canvasWidth)).rounded()))
      // As long as the timeline, whatever the GIF's rate rounds its frames to.
      options.duration = Int((clip.timeline.duration * 100).rounded())
      options.maxColors = colors
      let clipSpec = clip.spec
      // Three frames drawn in turn: while one is drawn the writer still
      // holds the two before it (see `GIFWriter.write`), so drawing into
      // either would copy it. Each is made when first drawn into (the
      // second and third while pass 1 works on the first).
      var frames: [Bitmap] = []
      var drawn = 0
      // Timings (bench switch): `encode` is the whole GIF writer, the
      // frames' `compose` and the writer's own phases inside it. The screens
      // and resting composites are made ahead of the frames, on the core
      // pass 1 leaves idle while a frame waits for them.
      return try StageTimings.measure(.encode) {
        try clip.preparingAhead {
          try GIFWriter.write(
            to: path, frameCount: max(clip.frameCount, 1), fps: fps, options: options,
            measure: StageTimings.gifMeasure
          ) { i in
            try onFrame(i)
            // A screen at rest is drawn once (the writer lengthens its image).
            if clip.repeatsPreviousFrame(i) { return nil }
            let k = drawn % 3
            drawn += 1
            if k == frames.count {
              frames.append(
                Bitmap(
                  width: clipSpec.framePixelWidth, height: clipSpec.framePixelHeight,
                  fill: clipSpec.canvas.background.premultipliedPixel))
            }
            StageTimings.measure(.compose) { clip.render(i, into: &frames[k]) }
            return frames[k]
          }
        }
      }
    }

    var summary = try attempt(to: path)
    if let maxBytes = settings.maxBytes, summary.bytes > maxBytes {
      let (firstBytes, firstColors, firstFPS, firstWidth) = (summary.bytes, colors, fps, width)
      // Each try is written beside the output and replaces it when it fits.
      let trial = path + ".budget"
      defer { try? FileManager.default.removeItem(atPath: trial) }
      var kept: (colors: Int, fps: Int, width: Int)?
      var lastBytes = summary.bytes
      func fits() throws -> Bool {
        let tried = try attempt(to: trial)
        lastBytes = tried.bytes
        guard tried.bytes <= maxBytes else { return false }
        try Platform.move(trial, to: path)
        summary = tried
        kept = (colors, fps, width)
        return true
      }
      /// The most colours from `low` up to `high` that fit (within
      /// `colourStep`), `low` tried first; false when even `low` does not.
      /// Fewer colours make fewer bytes, roughly in proportion: the next try
      /// is where the line through the two nearest tries meets the budget
      /// (kept within the middle half of the range, so the range shrinks by
      /// a quarter at least), or the middle while one end's size is unknown.
      /// `highBytes`: the size at `high + 1` colours, if known.
      func mostColours(from low: Int, upTo high: Int, highBytes: Int? = nil) throws -> Bool {
        colors = low
        guard try fits() else { return false }
        var fitting = (colors: low, bytes: lastBytes), tooMany = (colors: high + 1, bytes: highBytes)
        while tooMany.colors - fitting.colors > Self.colourStep {
          let span = tooMany.colors - fitting.colors
          var next = fitting.colors + span / 2
          if let bytes = tooMany.bytes, bytes > fitting.bytes {
            let share = Double(maxBytes - fitting.bytes) / Double(bytes - fitting.bytes)
            next = fitting.colors + Int(share * Double(span))
            next = min(max(next, fitting.colors + span / 4), tooMany.colors - span / 4)
          }
          colors = next
          if try fits() { fitting = (next, lastBytes) } else { tooMany = (next, lastBytes) }
        }
        return true
      }
      search: do {
        if firstColors > 128, try mostColours(from: 128, upTo: firstColors - 1, highBytes: firstBytes) {
          break search
        }
        // Colours down to 64 before frames: a dropped frame shows the one
        // before it, which costs more than a coarser palette on every frame
        // a viewer sees (SSIM over the job's frames).
        if firstColors > 64, try mostColours(from: 64, upTo: min(127, firstColors - 1), highBytes: lastBytes) {
          break search
        }
        if fps > 20 {
          fps = 20
          if try mostColours(from: min(64, firstColors), upTo: firstColors) { break search }
        }
        colors = min(64, firstColors)
        var over = width
        while width > GIFSettings.narrowestWidth {
          // File size goes roughly with the area: aim a little under.
          let ratio = (Double(maxBytes) / Double(lastBytes)).squareRoot() * 0.97
          width = max(GIFSettings.narrowestWidth, min(width - 1, Int(Double(width) * ratio)))
          if try fits() {
            // Then the widest that fits between it and the narrowest width over
            // (halving the gap to within 2 px): the aim may fall well under.
            var fitting = width
            while over - fitting > 2 {
              width = (fitting + over) / 2
              if try fits() { fitting = width } else { over = width }
            }
            width = fitting
            break search
          }
          over = width
        }
        throw JobFailure(
          spec.diagnostic(
            at: "output.gif.maxBytes",
            "even at \(width) px, \(fps) fps and \(colors) colours the GIF is \(lastBytes) bytes, over \(maxBytes)"))
      }
      guard let kept else { preconditionFailure("a search that ends has kept a file") }
      var changes: [String] = []
      if kept.colors != firstColors { changes.append("colours \(firstColors) → \(kept.colors)") }
      if kept.fps != firstFPS { changes.append("fps \(firstFPS) → \(kept.fps)") }
      if kept.width != firstWidth { changes.append("width \(firstWidth) → \(kept.width)") }
      notes.append("gif: \(firstBytes) bytes > maxBytes \(maxBytes): \(changes.joined(separator: ", "))")
    }
    return OutputSummary(
      path: path, frames: summary.frames, duration: summary.duration, bytes: summary.bytes, notes: notes)
  }
}
