/// How `GIFWriter` quantises, times and loops a GIF.
///
/// The defaults are the ones that won on transvid's demos (`scripts/gif-quality`,
/// circle-spread at 390 px, 30 fps, against the same frames): one global
/// palette from every distinct frame's pixels (`stats_mode=full`), Sierra-2-4A
/// error diffusion, 256 colours, looping forever. On flat UI colours, error
/// diffusion leaves a colour that is in the palette exactly as it is, where
/// Bayer dithering patterns it: Bayer at scale 5 scored SSIM 0.9955 at
/// 97 KB, Sierra-2-4A 0.99999 at 85 KB. `diff_mode=rectangle` keeps static
/// areas from crawling whatever the dither.
public struct GIFOptions: Hashable, Sendable {
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
    /// One palette for the whole file, from two passes over the frames
    /// (`palettegen` on every frame, then `paletteuse`).
    case global
    /// A new palette per frame (`palettegen=stats_mode=single` +
    /// `paletteuse=new=1`): better colours on frames that differ a lot, but
    /// each frame carries a 768-byte local palette and the encoder cannot
    /// leave unchanged pixels transparent, so files are larger.
    case perFrame = "per-frame"
  }

  /// Which pixels the global palette is built from (`palettegen` `stats_mode`).
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
  /// Most colours in a palette, 4…256 (one more entry is reserved for the
  /// transparent index of unchanged pixels).
  public var maxColors: Int
  public var dither: Dither
  /// Bayer pattern scale, 0…5: higher is a subtler (less visible, more
  /// banded) pattern. Only used with `.bayer`.
  public var bayerScale: Int
  public var palette: Palette
  public var statistics: PaletteStatistics
  public var loop: Loop

  public init(
    width: Int? = nil, height: Int? = nil, maxColors: Int = 256, dither: Dither = .sierra2_4a,
    bayerScale: Int = 5, palette: Palette = .global, statistics: PaletteStatistics = .full,
    loop: Loop = .forever
  ) {
    self.width = width
    self.height = height
    self.maxColors = maxColors
    self.dither = dither
    self.bayerScale = bayerScale
    self.palette = palette
    self.statistics = statistics
    self.loop = loop
  }

  /// The gif muxer's `loop` option: 0 forever, -1 once, N repeats.
  var muxerLoop: Int {
    switch loop {
    case .forever: 0
    case .repeat(let n): n == 0 ? -1 : n
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

  /// The boundary before frame `index`, in centiseconds (half up).
  public static func centiseconds(beforeFrame index: Int, fps: Int) -> Int {
    (200 * index + fps) / (2 * fps)
  }

  /// The delay of a run of identical frames `range` shown as one GIF frame.
  public static func delay(of range: Range<Int>, fps: Int) -> Int {
    centiseconds(beforeFrame: range.upperBound, fps: fps)
      - centiseconds(beforeFrame: range.lowerBound, fps: fps)
  }
}
