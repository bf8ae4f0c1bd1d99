import CFFmpeg
import Dispatch
import Raster
import Synchronization

/// What `GIFWriter.write` produced.
public struct GIFSummary: Hashable, Sendable {
  /// Images stored in the file, as a decoder counts them: identical
  /// consecutive frames are merged into one image with a longer delay, a
  /// delay past 16 bits is stored as copies of the image, and so is a clip
  /// of one image (two halves: a GIF of one image is a still).
  public var frames: Int
  /// Frames of the clip that went in.
  public var sourceFrames: Int
  /// The delay of each stored image, in centiseconds.
  public var delays: [Int]
  /// Size in pixels.
  public var width: Int, height: Int
  /// Size of the file in bytes.
  public var bytes: Int

  /// Length in seconds: the sum of the delays.
  public var duration: Double { Double(delays.reduce(0, +)) / 100 }
}

/// Encodes a clip as an animated GIF: palettes chosen by libimagequant,
/// pixels mapped as libavfilter's `paletteuse` maps them (`PaletteMapper`:
/// `paletteuse` itself to dither), the file written by giflib. transvid
/// decides which pixels each image carries.
///
/// Pipeline, per frame: resize (Lanczos, `Resampler`; none when the frame
/// has the output size) → opaque BGRA (colour bytes as they
/// are, i.e. composited over black, like the MP4 writer) → compare with the
/// previous frame: identical frames are merged into one image.
///
/// Pass 1 gathers the palette statistics (`PaletteQuantizer`): every pixel
/// of the first frame and, with `statistics: .diff`, only the pixels that
/// changed after it (`.full`: every pixel of every distinct frame); and
/// every frame that repeats the one before it (a screen at rest) counts all
/// its pixels once more. So the palette weighs what is shown by how long it
/// is shown: moving content for the frames it moves in, a resting screen
/// for its whole rest — the frames a viewer studies, and that a quality
/// measure over the clip's frames counts. A screen revealed by a transition
/// (a page flip) would otherwise get its colours only from the few frames
/// of its reveal. Its palette is the file's global colour table.
///
/// Pass 2 maps each frame as `paletteuse` does (`dither`, `diff_mode=rectangle`
/// within one palette) and keeps, for every pixel, the colour on screen and
/// the source colour it was drawn from. Lossy coding's bound for a pixel is
/// `lossy` divided by the frames the pixel keeps the colour it takes
/// (`GIFLifetimes`, `GIFOptions.lossyBound(frames:)`): the bytes are paid
/// once, the error is seen in every frame until the pixel changes again, so
/// a screen at rest — and the part of a transition that has settled — is
/// coded (nearly) exactly and motion takes the loss. A pixel is drawn only when
/// its source colour is not the one it was drawn from and its mapped colour
/// differs from the one on screen; every other pixel of the image's
/// rectangle is the transparent index, and the rectangle is the bounding box
/// of the drawn pixels. Because this compares colours, not indices,
/// unchanged areas stay transparent across palette changes.
///
/// Palettes (`palette`): `.global` maps every frame to the global table;
/// `.auto` (the default) too, except an image whose changed pixels the
/// global table fails for long enough that a table of their own pays
/// (`GIFLocalPalettes`); `.perFrame` quantizes a local table (stored with
/// the image) from each frame's changed pixels; with a `targetQuality`,
/// every table has the fewest colours at which libimagequant reaches it.
///
/// Without lossy coding (`lossy: 0`) the GIF is as exact as its tables
/// allow. With `.auto`, an image whose changed pixels have at most
/// `maxColors − 1` colours, not all in the global table, takes a table of
/// exactly them (`GIFLocalPalettes.exactPalette`). And, except with
/// `.global`, whose one table is the file's only one, a frame that rests
/// two frames or more is refined from its second frame on, one image a
/// frame, by up to `GIFOptions.refinements` images of the pixels left off
/// their source colour, each in a table of exactly their colours (at most
/// `maxColors − 1` again), where that makes it exact
/// (`GIFScreen.refinements`): flat UI, whose antialiased edges blend a few
/// hundred colours, rests exactly; a photo lacks too many colours and rests
/// as mapped. No table, then, holds more than `maxColors` entries, the
/// transparent one included.
///
/// Timing: frame `i` is shown from `i / fps` s; delays are whole centiseconds
/// with the rounding carried (`GIFTiming`), so the file lasts
/// `round(100 · frameCount / fps)` cs, or `options.duration` (the last image
/// shortened or lengthened to end there). `fps` must be 1…50 (2 cs
/// minimum). A frame that draws nothing lengthens the previous image.
///
/// Because of the two passes, `frame` is called up to twice per frame (once
/// per distinct frame in pass 2) and must return the same pixels each time;
/// distinct frames are kept in memory between the passes up to
/// `cacheBytes`, the rest are asked for again.
///
/// The file is assembled in memory and written atomically
/// (`Platform.writeAtomically`); on any error `path` is left as it was.
/// Output is deterministic: the filter graph runs on one thread and
/// libimagequant is deterministic for the same input (whatever its OpenMP
/// thread count).
///
/// Threads: in pass 1, each frame is resized, compared and recorded on a
/// queue of its own while the next is drawn (`GIFFirstPass`), and the
/// palette statistics are gathered on another (`GIFStatistics`); to
/// dither, while pass 1 ends and the palette is chosen, `paletteuse`'s graph
/// is built on another (`PaletteMapper.Prepared`); in pass 2
/// with a global palette (`.global`, `.auto`), the runs are mapped
/// ahead on another, where `.auto` chooses an image's own table, and each
/// image is planned there (`GIFImagePlan`: its changed pixels and their
/// lossy bounds), so the screen only draws and codes (`GIFMappingAhead`);
/// all take their frames in order, so the output is that of one thread.
public enum GIFWriter {
  /// A GIF on a page is an animated `<img>`.
  public static let fileType = OutputFileType(fileExtension: "gif", mimeType: "image/gif", presentation: .animation)

  /// Distinct resized frames kept between the passes (bytes).
  public static let cacheBytes = 256 << 20

  /// The writer's own stages, for benchmarks (`measure`): resizing the
  /// frames, choosing the palette (waiting for pass 1's statistics, then
  /// libimagequant's k-means), and in pass 2 deciding what each image draws
  /// and coding it (the LZW).
  public enum Phase: Sendable, CaseIterable {
    case resize, palette, code
  }

  /// Runs a phase's work (`body`), timing it; see `write`'s `measure`.
  public typealias Measure = (Phase, () throws(MediaError) -> Void) throws(MediaError) -> Void

  /// `body` as phase `phase` of `measure`, or directly.
  static func timed<T>(_ phase: Phase, _ measure: Measure?, _ body: () throws(MediaError) -> T) throws(MediaError) -> T {
    guard let measure else { return try body() }
    var result: T?
    try measure(phase) { () throws(MediaError) in result = try body() }
    return result!
  }

  /// Renders the clip and writes the GIF. See the type's documentation.
  ///
  /// - Parameters:
  ///   - frameCount: frames in the clip (at least 1).
  ///   - fps: frames per second, 1…50.
  ///   - frame: frame `i` of the clip, any size (the same for every frame);
  ///     resized to `options.width × options.height` when those are set. Or
  ///     nil: frame `i` is known to show the pixels of frame `i − 1` (a
  ///     screen at rest), which it then lengthens without being drawn,
  ///     resized or compared (never for frame 0; a frame that starts an
  ///     image, asked for again in pass 2, is drawn). While it draws a
  ///     frame, the writer may still hold the two frames given before (it
  ///     resizes the last while the next is drawn, and compares it with the
  ///     one before): a caller that reuses bitmaps draws into three in turn.
  ///   - measure: given, runs each phase's work (to time it; resizing on
  ///     pass 1's own queue, the rest on the writer's thread); the frames'
  ///     own drawing is `frame`'s.
  ///
  /// The write runs without the heap filled (`HeapFill.notNeeded`): nothing
  /// in it reads memory it has not written.
  @discardableResult
  public static func write(
    to path: String, frameCount: Int, fps: Int, options: GIFOptions = GIFOptions(), measure: Measure? = nil,
    frame: (Int) throws -> Bitmap?
  ) throws -> GIFSummary {
    try HeapFill.notNeeded {
      try written(to: path, frameCount: frameCount, fps: fps, options: options, measure: measure, frame: frame)
    }
  }

  private static func written(
    to path: String, frameCount: Int, fps: Int, options: GIFOptions, measure: Measure?,
    frame: (Int) throws -> Bitmap?
  ) throws -> GIFSummary {
    MediaLog.setUp()
    func timed<T>(_ phase: Phase, _ body: () throws(MediaError) -> T) throws(MediaError) -> T {
      try Self.timed(phase, measure, body)
    }
    let what = "GIF '\(path)'"
    guard frameCount > 0 else { throw MediaError("write \(what)", "no frames") }
    guard (1...GIFTiming.maximumFPS).contains(fps) else {
      throw MediaError("write \(what)", "fps \(fps) is not in 1…50 (GIF delays are at least 2 cs)")
    }
    guard (4...256).contains(options.maxColors) else {
      throw MediaError("write \(what)", "max colors \(options.maxColors) is not in 4…256")
    }
    guard (0...5).contains(options.bayerScale) else {
      throw MediaError("write \(what)", "bayer scale \(options.bayerScale) is not in 0…5")
    }
    guard (0...255).contains(options.lossy) else {
      throw MediaError("write \(what)", "lossy \(options.lossy) is not in 0…255")
    }
    if case .repeat(let n) = options.loop, !(0...65535).contains(n) {
      throw MediaError("write \(what)", "loop count \(n) is not in 0…65535")
    }

    // Pass 1: resize, merge identical frames, gather palette statistics.
    // Frame 0 is let go once given: the caller may draw the next frames
    // into its pixels.
    var first = try frame(0)
    guard let (sourceWidth, sourceHeight) = first.map({ ($0.width, $0.height) }) else {
      throw MediaError("write \(what)", "frame 0 repeats no frame")
    }
    let width = options.width ?? sourceWidth, height = options.height ?? sourceHeight
    guard (1...65535).contains(width), (1...65535).contains(height) else {
      throw MediaError("write \(what)", "size \(width)×\(height) is not in 1…65535")
    }
    let frames = try GIFFrames(
      sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height)
    let statistics = GIFStatistics(
      try PaletteQuantizer(maxColors: options.maxColors, width: width, height: height, targetQuality: options.targetQuality))
    // Drawing frame i + 1 here overlaps resizing frame i and the rest of
    // its pass-1 work there (`GIFFirstPass`).
    let firstPass = GIFFirstPass(frames: frames, statistics: statistics, options: options, measure: measure)
    firstPass.add(0, first)
    first = nil
    do {
      for i in 1..<frameCount where !firstPass.hasFailed {
        firstPass.add(i, try frame(i))
      }
    } catch {
      firstPass.cancel()
      statistics.cancel()
      throw error
    }
    // paletteuse's graph (to dither), built while pass 1 ends and the
    // palette is chosen.
    let prepared = PaletteMapper.needsGraph(options) ? PaletteMapper.Prepared(frames: frames, options: options) : nil
    let pass1: GIFFirstPass.Result
    do throws(MediaError) {
      pass1 = try firstPass.finish(frameCount: frameCount)
    } catch {
      statistics.cancel()
      throw error
    }
    let (runs, lifetimes, cache) = (pass1.runs, pass1.lifetimes, pass1.cache)
    let global = try timed(.palette) { () throws(MediaError) in try statistics.finish().palette() }

    // Pass 2: map, choose the drawn pixels, write.
    let file = try GIFFile(width: width, height: height, palette: global.rgb, loop: options.fileLoop, what: what)
    var images: [(image: GIFFile.Image, data: [UInt8])] = []
    var delays: [Int] = []
    var screen = GIFScreen(width: width, height: height)
    var coder = GIFLZWEncoder()
    var current = global
    var isGlobal = true
    var mapper =
      try prepared.map { prepared throws(MediaError) in
        try PaletteMapper(palette: global, frames: frames, graph: prepared.graph())
      } ?? PaletteMapper(palette: global, frames: frames)
    func resized(_ k: Int) throws -> [UInt8] {
      if k < cache.count { return cache[k] }
      guard let bitmap = try frame(runs[k].lowerBound) else {
        throw MediaError("write \(what)", "frame \(runs[k].lowerBound) repeats the frame before only in pass 2")
      }
      return try timed(.resize) { () throws(MediaError) in try frames.resize(bitmap) }
    }
    func pts(_ k: Int) -> Int { GIFTiming.centiseconds(beforeFrame: runs[k].lowerBound, fps: fps) }
    func bound(_ k: Int) -> Int { options.lossyBound(frames: runs[k].count) }
    let boundOfLifetime = (0...255).map { UInt8(options.lossyBound(frames: $0)) }
    /// The lossy bounds of run `k`'s changed pixels: each one's share of
    /// `lossy` over the frames it keeps its colour (nil past the lifetimes
    /// kept: `bound(k)` for every one).
    func bounds(_ k: Int) -> [UInt8]? { lifetimes.frames(of: k).map { GIFLifetimes.bounds($0, through: boundOfLifetime).bounds } }
    // A global palette: every run is mapped (each differs from the one before in
    // colour; alpha is always opaque), in order, so the mapping and the plan
    // of each image run ahead on their own thread while the screen draws and
    // codes the run before.
    let ahead =
      options.palette == .perFrame
      ? nil
      : GIFMappingAhead(
        mapper, local: options.palette == .auto ? GIFLocalPalettes(options: options, frames: frames) : nil,
        width: width, height: height)
    defer { ahead?.cancel() }
    var last: [UInt8]?
    /// Hands run `k` to the thread ahead, after the runs before it.
    func planAhead(_ ahead: GIFMappingAhead, _ k: Int) throws {
      guard k < runs.count else { return }
      let pixels = try resized(k)
      ahead.plan(
        pixels, after: last, pts: pts(k), lifetimes: lifetimes.frames(of: k), boundOfLifetime: boundOfLifetime,
        bound: bound(k), frames: Double(runs[k].count))
      last = pixels
    }
    if let ahead {
      for k in 0..<GIFMappingAhead.depth { try planAhead(ahead, k) }
    }
    for (k, run) in runs.enumerated() {
      let plan: GIFImagePlan
      if let ahead {
        try planAhead(ahead, k + GIFMappingAhead.depth)
        let local: GIFPalette?
        (plan, local) = try ahead.next()
        current = local ?? global
        isGlobal = local == nil
      } else {
        let pixels = try resized(k)
        let changed = GIFImagePlan.changedPixels(pixels, from: last, count: width * height)
        if !changed.isEmpty { last = pixels }
        if options.palette == .perFrame && k > 0 && !changed.isEmpty {
          // A palette of the frame's own changed pixels.
          let quantizer = try PaletteQuantizer(
            maxColors: options.maxColors, width: width, height: height, targetQuality: options.targetQuality)
          var counts = [Bool](repeating: false, count: width * height)
          for p in changed { counts[p] = true }
          try quantizer.add(pixels) { counts[$0] }
          let fresh = try quantizer.palette()
          if fresh != current {
            current = fresh
            isGlobal = false
            mapper = try PaletteMapper(palette: fresh, frames: frames, options: options)
          }
        }
        let indices = changed.isEmpty ? [] : try mapper.map(pixels, pts: pts(k))
        plan = GIFImagePlan(
          pixels, changed: changed, indices: indices, colors: current.packed,
          bounds: bounds(k), bound: bound(k), width: width,
          height: height)
      }
      let delay = GIFTiming.delay(of: run, fps: fps)
      if plan.changed.isEmpty {
        images[images.count - 1].image.delay += delay
        delays[delays.count - 1] += delay
        continue
      }
      let codeSize = isGlobal ? file.globalCodeSize : GIFLZWEncoder.minimumCodeSize(entries: current.colors.count + 1)
      var (image, data) = try timed(.code) {
        screen.draw(plan, palette: current, coder: &coder, codeSize: codeSize)
      }
      image.palette = isGlobal ? nil : current.rgb
      // Without lossy coding, a run of two frames or more: from its second
      // frame on, one a frame, the images that make the screen exact where
      // `GIFOptions.refinements` of them can (`GIFScreen.refinements`), each
      // in a table of its own, so none with the one table of `.global`.
      var shownFrom = run.lowerBound
      let starts = GIFTiming.laterStarts(in: run, fps: fps, atMost: GIFOptions.refinements)
      if options.lossy == 0 && options.palette != .global && !starts.isEmpty {
        let truth = try resized(k)
        let refinements = try timed(.code) {
          screen.refinements(toward: truth, limit: starts.count, colors: options.maxColors - 1, coder: &coder)
        }
        for (refinement, start) in zip(refinements, starts) {
          image.delay = GIFTiming.delay(of: shownFrom..<start, fps: fps)
          images.append((image, data))
          delays.append(image.delay)
          (image, data) = refinement
          shownFrom = start
        }
      }
      let rest = GIFTiming.delay(of: shownFrom..<run.upperBound, fps: fps)
      image.delay = rest
      images.append((image, data))
      delays.append(rest)
    }
    // The last image ends where the file should (see `GIFOptions.duration`).
    if let duration = options.duration, let last = images.indices.last {
      let end = Swift.max(duration - (delays.reduce(0, +) - delays[last]), 2)
      images[last].image.delay = end
      delays[last] = end
    }
    // A clip that is one image of several frames is two copies of it, each
    // half its delay (both at least 2 cs), as an APNG's and a WebP's are:
    // a GIF of one image is a still to browsers and tools, its length and
    // loop count unused.
    let halves = images.count == 1 && frameCount > 1 && images[0].image.delay >= 4
    var stored: [Int] = []
    for (image, data) in images {
      // A delay past 16 bits (a hold over 655.35 s) goes on in copies of the
      // image: drawn again over what it left, it changes nothing.
      var part = image, rest = image.delay
      let first = halves ? min(rest / 2, GIFTiming.longestDelay) : GIFTiming.longestDelay
      repeat {
        part.delay = min(rest, stored.isEmpty ? first : GIFTiming.longestDelay)
        try file.append(part, data: data)
        stored.append(part.delay)
        rest -= part.delay
      } while rest > 0
    }
    try file.finish()
    try Platform.writeAtomically(file.bytes, to: path)
    return GIFSummary(
      frames: stored.count, sourceFrames: frameCount, delays: stored, width: width, height: height,
      bytes: file.bytes.count)
  }
}

/// Pass 1's palette statistics, gathered on a thread of their own while the
/// next frame is drawn and resized: frames are added in order (the palette is
/// that of adding them one after the other), at most `inFlight` waiting.
final class GIFStatistics: @unchecked Sendable {
  static let inFlight = 2
  private let quantizer: PaletteQuantizer
  private let queue = DispatchQueue(label: "transvid.gif-statistics")
  private let group = DispatchGroup()
  private let slots = DispatchSemaphore(value: inFlight)
  /// The first error; frames after it are not added. Written on `queue`.
  private var failure: MediaError?

  init(_ quantizer: PaletteQuantizer) { self.quantizer = quantizer }

  /// Adds every pixel of `pixels` or, given `previous`, those whose colour
  /// differs from it (see `GIFWriter`).
  func add(_ pixels: [UInt8], changedFrom previous: [UInt8]?) {
    enqueue { quantizer throws(MediaError) in
      guard let previous else { return try quantizer.add(pixels) { _ in true } }
      precondition(previous.count == pixels.count)
      try quantizer.add(pixels, changedFrom: previous)
    }
  }

  /// Adds every pixel of `pixels` `times` more times (a frame held on screen).
  func add(_ pixels: [UInt8], times: Int) {
    enqueue { quantizer throws(MediaError) in try quantizer.add(pixels, times: times) }
  }

  /// Runs `work` on the queue after the work given before, once a slot is
  /// free; skipped after an error, the first of which is kept.
  private func enqueue(_ work: @escaping @Sendable (PaletteQuantizer) throws(MediaError) -> Void) {
    slots.wait()
    queue.async(group: group) { [self] in
      defer { slots.signal() }
      guard failure == nil else { return }
      do throws(MediaError) { try work(quantizer) } catch { failure = error }
    }
  }

  /// Waits for the frames added and returns the quantizer, or the first error.
  func finish() throws(MediaError) -> PaletteQuantizer {
    group.wait()
    if let failure { throw failure }
    return quantizer
  }

  /// Waits for the frames added (the writer is failing for another reason).
  func cancel() { group.wait() }
}

/// Pass 2's mapping with one palette and each image's plan, on a thread of
/// their own: frames are planned in the order given, at most `depth` ahead of
/// the one drawn.
private final class GIFMappingAhead: @unchecked Sendable {
  static let depth = 2
  private let mapper: PaletteMapper
  /// With `palette: .auto`, the choice of an image's own palette.
  private let local: GIFLocalPalettes?
  private let width: Int, height: Int
  private let queue = DispatchQueue(label: "transvid.gif-mapping")
  private let group = DispatchGroup()
  /// Signalled once per frame planned (or failed).
  private let done = DispatchSemaphore(value: 0)
  /// The results not yet taken, oldest first.
  private let results = Mutex<[Result<(GIFImagePlan, GIFPalette?), MediaError>]>([])

  init(_ mapper: PaletteMapper, local: GIFLocalPalettes?, width: Int, height: Int) {
    self.mapper = mapper
    self.local = local
    self.width = width
    self.height = height
  }

  /// Maps and plans `pixels` after the frames given before, the last of
  /// which was `previous` (nil: `pixels` is the first image). Its changed
  /// pixels keep their colours for their `lifetimes` (nil: past the
  /// lifetimes kept, the image's `frames`), each within its lifetime's
  /// lossy bound (`boundOfLifetime`; without lifetimes, `bound` for all).
  /// The first image too may take a table of its own: the global one is
  /// chosen from every frame, and a clip's later colours may crowd its out
  /// (a cross-dissolve's flat shades filling 16 colours).
  func plan(
    _ pixels: [UInt8], after previous: [UInt8]?, pts: Int, lifetimes: ArraySlice<UInt8>?, boundOfLifetime: [UInt8],
    bound: Int, frames: Double
  ) {
    queue.async(group: group) { [self] in
      let result = Result { () throws(MediaError) -> (GIFImagePlan, GIFPalette?) in
        let lasting = lifetimes.map { GIFLifetimes.bounds($0, through: boundOfLifetime) }
        let bounds = lasting?.bounds, frames = lasting?.meanFrames ?? frames
        // Every frame is mapped: paletteuse's `diff_mode` follows them all.
        var indices = try mapper.map(pixels, pts: pts)
        let changed = GIFImagePlan.changedPixels(pixels, from: previous, count: width * height)
        var palette = mapper.palette, own: GIFPalette?
        if let local, frames > 0,
          let choice = try local.palette(
            for: pixels, changed: changed, globalIndices: indices, global: palette, frames: frames, pts: pts)
        {
          (palette, indices, own) = (choice.palette, choice.indices, choice.palette)
        }
        let plan = GIFImagePlan(
          pixels, changed: changed, indices: indices, colors: palette.packed,
          bounds: bounds, bound: bound, width: width,
          height: height)
        return (plan, own)
      }
      results.withLock { $0.append(result) }
      done.signal()
    }
  }

  /// The plan of the oldest frame not yet taken and its own palette, if it
  /// has one (waits for it).
  func next() throws(MediaError) -> (GIFImagePlan, GIFPalette?) {
    done.wait()
    return try results.withLock { $0.removeFirst() }.get()
  }

  /// Waits for the frames given (the writer is done or failing).
  func cancel() { group.wait() }
}

/// `palette: .auto`: an image takes a palette of its own, stored with it,
/// where the global one fails on what it shows for long enough to pay.
///
/// Candidates are images whose changed pixels' mean squared error under the
/// global palette (R, G and B summed), times the frames those pixels keep
/// their colours on average, exceeds `gain`, and that change at least
/// 1/`minimumShare` of the frame; each gets a palette of its changed pixels
/// (libimagequant, `maxColors`), and takes it when the error it saves, times
/// those frames, still exceeds `gain`. The error is paid in every frame the
/// pixels show, the table's 768 bytes once: so a screen of other colours
/// that comes to rest (textures after a cross-dissolve) gets its own
/// colours, and motion (a Mandelbrot zoom whose every frame fails the
/// global palette but is seen for one frame) keeps the global one.
/// Unchanged pixels stay transparent across the change (`GIFWriter`
/// compares colours). Measured on scripts/gif-quality: a gain of 1000
/// chose no local palette on flat UI, photos, the page flip, the whole demo
/// and `labs` (same bytes); `textures` SSIM 0.9693 → 0.9742 for 0.5 % more
/// bytes, `synthetic` 0.9105 → 0.9133 for 0.9 %; a gain of 400 took more
/// (`synthetic` 3.3 % more bytes for 0.0051), of 30 without the frames
/// every frame of `synthetic` (1.26× the bytes of FFmpeg's bayer recipe).
final class GIFLocalPalettes {
  static let gain = 1000.0
  static let minimumShare = 64
  private let options: GIFOptions
  private let frames: GIFFrames

  fileprivate init(options: GIFOptions, frames: GIFFrames) {
    self.options = options
    self.frames = frames
  }

  /// The palette of `pixels`' `changed` pixels and their indices into it,
  /// if it saves enough over `global` (`globalIndices`); nil keeps the
  /// global one.
  fileprivate func palette(
    for pixels: [UInt8], changed: [Int], globalIndices: [UInt8], global: GIFPalette, frames shown: Double, pts: Int
  ) throws(MediaError) -> (palette: GIFPalette, indices: [UInt8])? {
    let isLarge = changed.count * Self.minimumShare >= frames.width * frames.height
    guard isLarge || options.lossy == 0 else { return nil }
    let globalError = Self.meanSquaredError(pixels, changed: changed, indices: globalIndices, colors: global.packed)
    if options.lossy == 0, globalError > 0,
      let exact = Self.exactPalette(
        pixels, changed: changed, globalIndices: globalIndices, global: global, colors: options.maxColors - 1)
    {
      return exact
    }
    guard isLarge, globalError * shown > Self.gain else { return nil }
    let quantizer = try PaletteQuantizer(
      maxColors: options.maxColors, width: frames.width, height: frames.height, targetQuality: nil)
    var counts = [Bool](repeating: false, count: frames.width * frames.height)
    for p in changed { counts[p] = true }
    try quantizer.add(pixels) { counts[$0] }
    let own = try quantizer.palette()
    let indices = try PaletteMapper(palette: own, frames: frames, options: options).map(pixels, pts: pts)
    let ownError = Self.meanSquaredError(pixels, changed: changed, indices: indices, colors: own.packed)
    return (globalError - ownError) * shown > Self.gain ? (own, indices) : nil
  }

  /// At most this share of an image's changed pixels may lack their colour
  /// in the global table for a table of exactly their colours.
  static let exactShare = 1.0 / 16

  /// A table of exactly the colours of `pixels`' `changed` pixels (packed
  /// BGRA) and their indices into it, or nil: they have more than `colors`
  /// (at most 255: `maxColors` less the transparent entry, as every table
  /// the writer makes), or more than `exactShare` of them are off their
  /// colour in `global`
  /// (`globalIndices`). Exactness is cheap where it fixes few pixels: the
  /// antialiased edges of flat UI (1–3 % of an image's changed pixels), not
  /// a cross-dissolve of grey photos, whose 256 shades fit a table but
  /// half of whose pixels would take new indices (`scripts/gif-quality
  /// --contents textures`: 1.20× the bytes of FFmpeg's Bayer recipe where
  /// it was 0.97×, for 0.0002 of SSIM).
  static func exactPalette(
    _ pixels: [UInt8], changed: [Int], globalIndices: [UInt8], global: GIFPalette, colors limit: Int
  ) -> (palette: GIFPalette, indices: [UInt8])? {
    let globalColors = global.packed
    var off = 0
    pixels.withUnsafeBytes { bytes in
      for p in changed
      where bytes.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self) & 0x00FF_FFFF != globalColors[Int(globalIndices[p])] {
        off += 1
      }
    }
    guard Double(off) <= Double(changed.count) * exactShare else { return nil }
    var table: [UInt32: UInt8] = [:]
    var colors: [UInt32] = []
    var indices = [UInt8](repeating: 0, count: pixels.count / 4)
    let fits = pixels.withUnsafeBytes { bytes in
      for p in changed {
        let color = bytes.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self) & 0x00FF_FFFF
        if let index = table[color] {
          indices[p] = index
          continue
        }
        guard colors.count < limit else { return false }
        table[color] = UInt8(colors.count)
        indices[p] = UInt8(colors.count)
        colors.append(color)
      }
      return true
    }
    return fits && !colors.isEmpty ? (GIFPalette(packed: colors), indices) : nil
  }

  /// The mean over `changed` pixels of `pixels` (packed BGRA) of the
  /// squared differences of R, G and B, summed, from their indices' colours.
  static func meanSquaredError(_ pixels: [UInt8], changed: [Int], indices: [UInt8], colors: [UInt32]) -> Double {
    guard !changed.isEmpty else { return 0 }
    precondition(pixels.count >= 4 * indices.count && changed.last! < indices.count)
    // A pass over every changed pixel, on pass 2's mapping thread: buffer
    // pointers, and the palette padded to 256 colours so that no index
    // needs a check.
    let table = GIFPalette.table(colors)
    var sum = 0
    pixels.withUnsafeBytes { bytes in
      changed.withUnsafeBufferPointer { changed in
        indices.withUnsafeBufferPointer { indices in
          table.withUnsafeBufferPointer { table in
            let (bytes, indices, table) = (bytes.baseAddress!, indices.baseAddress!, table.baseAddress!)
            for p in changed {
              let a = unsafeBitCast(
                bytes.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self) & 0x00FF_FFFF, to: SIMD4<UInt8>.self)
              let b = unsafeBitCast(table[Int(indices[p])] & 0x00FF_FFFF, to: SIMD4<UInt8>.self)
              let d = SIMD4<Int32>(truncatingIfNeeded: a) &- SIMD4<Int32>(truncatingIfNeeded: b)
              sum &+= Int((d &* d).wrappedSum())
            }
          }
        }
      }
    }
    return Double(sum) / Double(changed.count)
  }
}

/// `paletteuse`'s mapping with one fixed palette: BGRA frames in, indices
/// into `palette.colors` out. Without dithering, `PaletteTree` maps as
/// `paletteuse` does; with it, libavfilter's `paletteuse` itself (which
/// orders its output palette its own way; the indices are translated back
/// by colour).
final class PaletteMapper {
  /// nil when `tree` maps.
  private let graph: FilterGraph?
  private var tree: PaletteTree?
  private let frames: GIFFrames
  let palette: GIFPalette
  private let output = try? Frame()
  /// Output palette index → index into `palette.colors`.
  private var translation: [UInt8] = []

  /// Whether `options` need `paletteuse` itself (a graph) to map.
  static func needsGraph(_ options: GIFOptions) -> Bool { options.dither != .none }

  convenience init(palette: GIFPalette, frames: GIFFrames, options: GIFOptions) throws(MediaError) {
    if Self.needsGraph(options) {
      try self.init(palette: palette, frames: frames, graph: Self.graph(frames.input, options: options))
    } else {
      self.init(palette: palette, frames: frames)
    }
  }

  /// A mapper without dithering, by `PaletteTree`.
  init(palette: GIFPalette, frames: GIFFrames) {
    self.frames = frames
    self.palette = palette
    graph = nil
    tree = PaletteTree(palette)
  }

  /// A mapper over `graph`, a graph of `graph(_:options:)` no frame has
  /// been pushed into.
  init(palette: GIFPalette, frames: GIFFrames, graph: FilterGraph) throws(MediaError) {
    self.frames = frames
    self.palette = palette
    self.graph = graph
    let table = try Frame(width: 16, height: 16, format: AV_PIX_FMT_BGRA)
    try frames.fill(table, with: palette.bgra256, width: 16, height: 16)
    table.pointer.pointee.pts = 0
    try graph.push(table, to: "palette")
    try graph.push(nil, to: "palette")
  }

  /// `paletteuse` with `options`, frames from `input`, its palette still to
  /// be given. Building it takes about 10 ms whatever the frames: most of it
  /// is libavfilter parsing the description (`paletteuse`'s own set-up).
  static func graph(_ input: FilterGraph.Input, options: GIFOptions) throws(MediaError) -> FilterGraph {
    try FilterGraph(
      "[in][palette]paletteuse=dither=\(options.dither.rawValue):bayer_scale=\(options.bayerScale)"
        + ":diff_mode=rectangle[out]",
      inputs: [input, FilterGraph.Input(name: "palette", width: 16, height: 16, format: AV_PIX_FMT_BGRA)])
  }

  /// A graph of `graph(_:options:)` built on a thread of its own from when
  /// it is made, for the writer to take once it has the palette: the
  /// writer's thread chooses the palette (libimagequant's k-means, one
  /// core) while the other core would idle, so the graph costs the writer
  /// nothing when the palette takes longer.
  final class Prepared: @unchecked Sendable {
    private let group = DispatchGroup()
    /// Written on the build's thread before `group` is left; read after.
    private var built: Result<FilterGraph, MediaError>?

    init(frames: GIFFrames, options: GIFOptions) {
      let input = frames.input
      DispatchQueue.global().async(group: group) { [self] in
        built = Result { () throws(MediaError) in try PaletteMapper.graph(input, options: options) }
      }
    }

    /// The graph, once built (waits for it), or the error building it.
    func graph() throws(MediaError) -> FilterGraph {
      group.wait()
      return try built!.get()
    }
  }

  /// The palette index of every pixel of `pixels`, row by row.
  func map(_ pixels: [UInt8], pts: Int) throws(MediaError) -> [UInt8] {
    if tree != nil { return tree!.map(pixels) }
    guard let graph, let output else { throw MediaError("map a GIF frame", "no memory for a frame") }
    try graph.push(frames.frame(pixels, pts: Int64(pts)), to: "in")
    guard try graph.pull(into: output) else {
      throw MediaError("map a GIF frame", "paletteuse returned no frame")
    }
    let width = frames.width, height = frames.height
    let stride = Int(output.pointer.pointee.linesize.0)
    guard let rows = output.pointer.pointee.data.0 else {
      throw MediaError("map a GIF frame", "paletteuse returned no pixels")
    }
    if translation.isEmpty {
      guard let table = output.pointer.pointee.data.1 else {
        throw MediaError("map a GIF frame", "paletteuse returned no palette")
      }
      var index: [UInt32: UInt8] = [:]
      for (i, c) in palette.colors.enumerated().reversed() {
        index[UInt32(c.b) | UInt32(c.g) << 8 | UInt32(c.r) << 16] = UInt8(i)
      }
      translation = (0..<256).map { j in
        let k = 4 * j
        return index[UInt32(table[k]) | UInt32(table[k + 1]) << 8 | UInt32(table[k + 2]) << 16] ?? 0
      }
    }
    var indices = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
      let row = rows + y * stride
      for x in 0..<width { indices[y * width + x] = translation[Int(row[x])] }
    }
    return indices
  }
}

/// Turns `Bitmap`s into the opaque BGRA frames the palette filters take.
final class GIFFrames {
  let input: FilterGraph.Input
  /// nil when frames come at the output size: they are only reordered.
  private let resampler: Resampler?
  private let frame: Frame
  let width: Int, height: Int

  init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws(MediaError) {
    self.width = width
    self.height = height
    // paletteuse takes AV_PIX_FMT_RGB32, which is BGRA in memory on
    // little-endian machines (transvid's targets); the resizer writes it
    // opaque through planar RGB (see `Resampler`).
    resampler =
      sourceWidth == width && sourceHeight == height
      ? nil : try Resampler(from: sourceWidth, sourceHeight, to: width, height, format: AV_PIX_FMT_GBRP)
    frame = try Frame(width: width, height: height, format: AV_PIX_FMT_BGRA)
    input = FilterGraph.Input(name: "in", width: width, height: height, format: AV_PIX_FMT_BGRA)
  }

  /// `bitmap` resized to packed opaque BGRA bytes.
  func resize(_ bitmap: Bitmap) throws(MediaError) -> [UInt8] {
    guard let resampler else { return try reordered(bitmap) }
    var failure: MediaError?
    // Composited over black: premultiplied colour as it is, alpha opaque.
    // (paletteuse maps alpha < 128 to the transparent entry otherwise.)
    let bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
      do throws(MediaError) {
        try resampler.resizeToOpaqueBGRA(bitmap, into: out.baseAddress!)
      } catch {
        failure = error
        out.initialize(repeating: 0)
      }
      count = width * height * 4
    }
    if let failure { throw failure }
    return bytes
  }

  /// `bitmap` (at the output size) as packed opaque BGRA bytes: what
  /// swscale's same-size RGBA → BGRA conversion gives, the colour bytes as
  /// they are with alpha set opaque.
  private func reordered(_ bitmap: Bitmap) throws(MediaError) -> [UInt8] {
    guard bitmap.width == width, bitmap.height == height else {
      throw MediaError("resize frame", "frame is \(bitmap.width)×\(bitmap.height), expected \(width)×\(height)")
    }
    let (width, stride) = (width, bitmap.stride)
    return [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
      bitmap.bytes.withUnsafeBytes { source in
        let target = UnsafeMutableRawBufferPointer(out)
        for y in 0..<height {
          for x in 0..<width {
            let rgba = source.loadUnaligned(fromByteOffset: y * stride + 4 * x, as: UInt32.self)
            let bgra = (rgba & 0xFF) << 16 | (rgba & 0xFF00) | (rgba >> 16) & 0xFF | 0xFF00_0000
            target.storeBytes(of: bgra, toByteOffset: 4 * (y * width + x), as: UInt32.self)
          }
        }
      }
      count = width * height * 4
    }
  }

  /// The shared frame, holding `pixels`, stamped `pts` centiseconds.
  func frame(_ pixels: [UInt8], pts: Int64) throws(MediaError) -> Frame {
    try fill(frame, with: pixels, width: width, height: height)
    frame.pointer.pointee.pts = pts
    return frame
  }

  /// Copies packed BGRA `pixels` into the `width × height` frame `target`.
  func fill(_ target: Frame, with pixels: [UInt8], width: Int, height: Int) throws(MediaError) {
    try check(av_frame_make_writable(target.pointer), "make frame writable")
    let stride = Int(target.pointer.pointee.linesize.0)
    guard let rows = target.pointer.pointee.data.0 else {
      throw MediaError("fill GIF frame", "frame has no pixel buffer")
    }
    pixels.withUnsafeBufferPointer { p in
      for y in 0..<height {
        (rows + y * stride).update(from: p.baseAddress! + y * width * 4, count: width * 4)
      }
    }
  }
}
