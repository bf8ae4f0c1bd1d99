/// How `GIFWriter` quantises, codes, times and loops a GIF.
///
/// The defaults won on `scripts/gif-quality` (390 px, 30 fps, SSIM against
/// the lossless frames) and held on photo screens it was not tuned on: one
/// global palette of all 256 entries (`quality` 100) by libimagequant from
/// the pixels that change (`statistics: .diff`) and the screens at rest
/// (weighed by their rest), an image's own table where that palette fails
/// on pixels that stay (`palette: .auto`), flat colours kept exactly, no
/// dithering, and
/// lossy LZW doing the trade of bytes for fidelity — within 48 levels for a
/// pixel that keeps its colour one frame (less for one that keeps it
/// longer), masked by local contrast (4/9 of it) and the pixel's own
/// quantisation error (4 times it).
/// No dithering scored higher than Bayer and error diffusion on every
/// content: on flat UI the colours are in the palette, and on photos a
/// dither pattern costs SSIM and LZW bytes more than the banding it hides.
/// Lossy coding trades better than fewer colours: a palette cut from 256 to
/// 200 colours costs near-black fades and textures their shades for every
/// frame, where lossy coding spends its error in the frames that move and
/// that change everywhere (a cross-dissolve over textures: 0.76× the bytes
/// of FFmpeg's bayer recipe where 200 colours and twice the error needed
/// 0.82×). The lossy bound itself changes bytes by a few per cent at most
/// (32 → 48: photos −0.6 %, a Mandelbrot zoom −2.9 %), since the masks bind
/// first.
public struct GIFOptions: Hashable, Sendable {
  /// At most this many images refine a frame that rests, one a frame
  /// (`GIFScreen.refinements`).
  static let refinements = 2

  /// How the quantised colours are spread (libavfilter `paletteuse` `dither`).
  public enum Dither: String, Hashable, Sendable, CaseIterable {
    /// 8×8 ordered Bayer dithering: deterministic per pixel, so a static area
    /// dithers the same way in every frame. Strength from `bayerScale`.
    case bayer
    /// Sierra-2-4A ("Sierra Lite") error diffusion.
    case sierra2_4a
    /// Floyd–Steinberg error diffusion.
    case floydSteinberg = "floyd_steinberg"
    /// Nearest palette colour, no dithering (bands on gradients).
    case none
  }

  /// Where the palette comes from.
  public enum Palette: String, Hashable, Sendable, CaseIterable {
    /// One palette for the whole file, from two passes over the frames.
    case global
    /// The global palette, and an image's own palette where the global one
    /// fails on what the image shows for long enough to pay for the table
    /// (`GIFLocalPalettes`).
    case auto
    /// A palette per frame from that frame's changed pixels, stored with the
    /// image (unchanged pixels stay transparent): better colours where
    /// screens of other colours follow each other, more bytes.
    case perFrame = "per-frame"
  }

  /// Which pixels the global palette is built from.
  public enum PaletteStatistics: String, Hashable, Sendable, CaseIterable {
    /// Every pixel of every frame.
    case full
    /// Only pixels that changed from the previous frame (plus the whole first
    /// frame): moving content gets more of the palette than a static backdrop.
    case diff
  }

  /// How often the animation plays.
  public enum Loop: Hashable, Sendable {
    /// Repeats forever (NETSCAPE2.0 loop count 0).
    case forever
    /// Plays once and then repeats `count` more times; 0 plays once and
    /// writes no loop extension.
    case `repeat`(Int)
  }

  /// Output width and height in pixels; nil keeps the source frame size.
  public var width: Int?
  public var height: Int?
  /// Most entries in any table of the file, 4…256, the transparent index of
  /// unchanged pixels included: the global one, an image's own, and at
  /// `lossy: 0` the tables of exactly an image's colours and a rest's
  /// refinements (`GIFWriter`).
  public var maxColors: Int
  public var dither: Dither
  /// Bayer pattern scale, 0…5: higher is a subtler (less visible, more
  /// banded) pattern. Only used with `.bayer`.
  public var bayerScale: Int
  public var palette: Palette
  public var statistics: PaletteStatistics
  public var loop: Loop
  /// The length the file should last, in centiseconds (the timeline's, to
  /// the centisecond): the last image ends there, at least 2 cs after it
  /// starts. Nil: `round(100 · frameCount / fps)`, the frames' own grid,
  /// which a rate below the timeline's rounds by up to half a frame.
  public var duration: Int?
  /// Lossy coding: the most a shown pixel's R, G or B may differ from the
  /// lossless GIF's (0…255, 0 lossless), for an image shown one frame;
  /// divided by the frames of an image shown longer (`lossyBound(frames:)`).
  /// Within it, a pixel keeps what is already on screen (transparent) or
  /// takes the colour that lengthens an LZW string (`GIFLZWEncoder`). At 0
  /// the GIF is as exact as its tables allow: images of few colours and
  /// screens at rest get tables of exactly their colours (`GIFWriter`).
  public var lossy: Int
  /// Palettes of the fewest colours (up to `maxColors`) at which
  /// libimagequant reaches this quality (0…100, its own scale, as
  /// pngquant's `--quality`); nil: `maxColors` colours. Per-frame palettes
  /// use it: each frame gets as many colours as it needs.
  public var targetQuality: Int? = nil
  /// The most pixel lifetimes kept between the passes (`GIFLifetimes`).
  var lifetimeCapacity = GIFLifetimes.defaultCapacity

  public init(
    width: Int? = nil, height: Int? = nil, maxColors: Int = GIFOptions.colors(quality: GIFOptions.defaultQuality), dither: Dither = .none,
    bayerScale: Int = 5, palette: Palette = .auto, statistics: PaletteStatistics = .diff,
    loop: Loop = .forever, lossy: Int = GIFOptions.defaultLossy
  ) {
    self.width = width
    self.height = height
    self.maxColors = maxColors
    self.dither = dither
    self.bayerScale = bayerScale
    self.palette = palette
    self.statistics = statistics
    self.loop = loop
    self.lossy = lossy
  }

  /// The default `lossy` bound.
  public static let defaultLossy = 48

  /// The lossy bound of a pixel that keeps its colour for `frames` frames
  /// (`GIFLifetimes`): `lossy` for one, `lossy / frames` for more (0 from
  /// `lossy + 1` frames on). A pixel's bytes are paid once and its error is
  /// seen in every frame until it changes again, so a screen at rest, and
  /// what a transition has already settled, is coded (nearly) exactly. On
  /// scripts/gif-quality, counting the pixel's frames rather than its
  /// image's raised SSIM by 0.0007–0.0031 for 0.3–5.5 % more bytes; `lossy`
  /// 48 instead of 32 then took back part of the bytes (0.4–4.9 % more than
  /// before on six contents, SSIM 0.0004–0.0028 higher; the seventh, a
  /// Mandelbrot zoom, 2.6 % smaller at 0.0004 lower).
  public func lossyBound(frames: Int) -> Int { lossy / max(1, frames) }

  /// The palette size for a `quality` of 1…100: 2.56 colours per point,
  /// at least 4.
  public static func colors(quality: Int) -> Int { max(4, min(256, (256 * quality + 50) / 100)) }

  /// The `quality` without a setting (all 256 palette entries).
  public static let defaultQuality = 100

  /// The `quality` of per-frame palettes without a setting: libimagequant's
  /// target for each frame's palette (`targetQuality`). At 75 a page flip
  /// of photos (scripts/gif-quality) is 0.72× the bytes of FFmpeg's bayer
  /// recipe at SSIM 0.944 (FFmpeg's 0.929), the whole demo 0.82× at 0.955
  /// (0.906); a target beats fixed palettes of 102 colours per frame, which
  /// gave the page flip 4.03 MB at 0.9465 where the target gave 3.78 MB at
  /// 0.9457 (both with lossy coding at twice the quantisation error).
  public static let defaultPerFrameQuality = 75

  /// The NETSCAPE2.0 repeat count: 0 forever, nil (no block) to play once.
  var fileLoop: Int? {
    switch loop {
    case .forever: 0
    case .repeat(let n): n == 0 ? nil : n
    }
  }
}

/// GIF frame timing: delays in whole centiseconds.
///
/// Frame `i` of a clip at `fps` is on screen from `i / fps` to `(i + 1) / fps`
/// seconds. Each boundary is rounded to the nearest centisecond and a frame's
/// delay is the difference of its rounded boundaries, so the rounding error is
/// carried rather than summed: the delays always add up to
/// `round(100 · frames / fps)`, within ½ cs of the true length. At `fps ≤ 50`
/// every delay is at least 2 cs (browsers play anything shorter at 10 cs).
public enum GIFTiming {
  /// The highest frame rate a GIF can show: 2 cs per frame.
  public static let maximumFPS = 50

  /// The longest delay one image can carry (16 bits of centiseconds); a
  /// longer one is written as the image again (`GIFWriter`).
  public static let longestDelay = 65535

  /// The boundary before frame `index`, in centiseconds (half up).
  public static func centiseconds(beforeFrame index: Int, fps: Int) -> Int {
    (200 * index + fps) / (2 * fps)
  }

  /// The delay of a run of identical frames `range` shown as one GIF frame.
  public static func delay(of range: Range<Int>, fps: Int) -> Int {
    centiseconds(beforeFrame: range.upperBound, fps: fps)
      - centiseconds(beforeFrame: range.lowerBound, fps: fps)
  }

  /// The frames after the first of `run`, one after another, at which up to
  /// `count` more images can start while every image of the run, the first
  /// included, still shows for 2 cs at least.
  static func laterStarts(in run: Range<Int>, fps: Int, atMost count: Int) -> [Int] {
    var starts: [Int] = []
    var last = run.lowerBound
    while starts.count < count, last + 1 < run.upperBound, delay(of: last..<(last + 1), fps: fps) >= 2,
      delay(of: (last + 1)..<run.upperBound, fps: fps) >= 2
    {
      last += 1
      starts.append(last)
    }
    return starts
  }
}
