// FrameRate: whole frame rates, and the NTSC rates video needs exactly.
//
//   canvas: { fps: 60 }       60 frames a second
//   canvas: { fps: 59.94 }    60000/1001 (also 23.976, 29.97, 119.88)
//
// A fractional rate is stored as its whole neighbour (`CanvasSpec.fps`,
// which integer uses such as the GIF's rate keep) and a flag: the rate is
// fps × 1000/1001. Frame n shows the state at n × 1001 / (fps × 1000)
// seconds, and the videos are tagged with that rational rate.

/// An exact frame rate: `frames` frames every `seconds` seconds.
public struct FrameRate: Hashable, Sendable, CustomStringConvertible {
  public var frames: Int
  public var seconds: Int

  public init(frames: Int, seconds: Int = 1) {
    self.frames = frames
    self.seconds = seconds
  }

  /// Frames per second.
  public var value: Double { Double(frames) / Double(seconds) }

  /// When frame `n` shows, in seconds: exactly `n / fps` for whole rates.
  public func time(ofFrame n: Int) -> Double { Double(n) * Double(seconds) / Double(frames) }

  /// `60`, or `59.94` for 60000/1001.
  public var description: String {
    seconds == 1 ? "\(frames)" : JobDecoder.format((value * 1000).rounded() / 1000)
  }

  /// The NTSC rates a job may write, by the number written, and their whole neighbours.
  static let fractional: [Double: Int] = [23.976: 24, 29.97: 30, 59.94: 60, 119.88: 120]
}

extension CanvasSpec {
  /// The exact frame rate: `fps`, or `fps × 1000/1001` when `isFractional`.
  public var frameRate: FrameRate {
    isFractional ? FrameRate(frames: fps * 1000, seconds: 1001) : FrameRate(frames: fps)
  }
}
