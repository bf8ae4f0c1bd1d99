// JobLimits: how big one job may get before it is refused.
//
// A job file is edited by many people and rendered unattended, so a slip such
// as `hold: 600` at 120 fps, or a 2732-point canvas at scale 3, must fail at
// once, naming the cap, instead of tying up the nightly machine for hours.
// The caps are checked while parsing (`JobParser.parse(bytes:file:limits:)`),
// before any pixel is drawn; the command line can raise or lower each one
// (`--max-side`, `--max-frames`, `--max-pixels`, `--max-layer-pixels`,
// `--max-draw-pixels`).

/// The caps on one job's size.
public struct JobLimits: Hashable, Sendable {
  /// Largest frame width or height in pixels (points × scale); H.264 and GIF
  /// both top out at 16384.
  public var maxSide: Int
  /// Most frames in one output (the timeline's length × fps).
  public var maxFrames: Int
  /// Most pixels rendered for one output: frames × width × height.
  public var maxPixels: Int

  /// Most pixels the job holds at once for its screens and text: a canvas
  /// per screen and every text view's frame, at the canvas scale
  /// (`JobDecoder.checkLayers`).
  public var maxLayerPixels: Int

  /// Most pixels drawing the job's screens writes, once, before its first
  /// frame: each screen's canvas and every view's frame within it, at the
  /// canvas scale, for each time the screen is drawn (`JobSpec.drawing`,
  /// `JobDecoder.checkDrawing`).
  public var maxDrawPixels: Int

  /// Largest value `maxSide` may be raised to.
  public static let largestSide = 16384

  /// What an error at `maxSide` tells the user: to raise it with
  /// `--max-side`, unless it is already the most that option takes.
  public var maxSideAdvice: String {
    maxSide < Self.largestSide ? "raise the limit with --max-side" : "\(Self.largestSide) is the most --max-side allows"
  }

  /// Defaults: 8192 pixels per side, 20 000 frames (5½ minutes at 60 fps),
  /// 20 Gpx (about 110 s of iPhone 15 frames at 3×, 60 fps), 500 Mpx held
  /// (2 GB; 160 screens of an iPhone 15 at 3×), and 5 Gpx drawn (about
  /// 9 s of full-canvas gradients; 1600 full-screen views on an iPhone 15).
  public init(
    maxSide: Int = 8192, maxFrames: Int = 20_000, maxPixels: Int = 20_000_000_000, maxLayerPixels: Int = 500_000_000,
    maxDrawPixels: Int = 5_000_000_000
  ) {
    self.maxSide = maxSide
    self.maxFrames = maxFrames
    self.maxPixels = maxPixels
    self.maxLayerPixels = maxLayerPixels
    self.maxDrawPixels = maxDrawPixels
  }
}
