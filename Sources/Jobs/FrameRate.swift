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

  /// The frame a player shows at `time` seconds: the last one to have
  /// started, ⌊time · fps⌋ (at 30 fps, 0.35 s is frame 10, on screen from
  /// 0.3333 s to 0.3667). The product is first taken to a millionth of a
  /// frame, as `Timeline.frameCount` takes a length, so a time written as a
  /// frame's (0.7 s at 10 fps, 6.9999… in binary) is that frame. A Double:
  /// `time · fps` may be beyond any Int; never below 0.
  public func frame(at time: Double) -> Double {
    let frames = time * Double(self.frames) / Double(seconds)
    return Swift.max(0, ((frames * 1_000_000).rounded() / 1_000_000).rounded(.down))
  }

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
