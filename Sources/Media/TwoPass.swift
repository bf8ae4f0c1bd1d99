/// One pass of a two-pass encode at an average bit rate: the first pass
/// measures every frame's cost, the second spends `bitRate` where the first
/// found it is needed, so the file lands close to `bitRate × duration`.
/// What the first pass leaves for the second depends on the encoder:
/// x264 writes a stats file (`stats` is its path, both passes); libvpx
/// returns its stats in memory (`VideoWriter.passStats` after pass 1,
/// passed back as `stats` to pass 2).
public struct TwoPass: Sendable, Hashable {
  /// 1 or 2.
  public var pass: Int
  /// Target average, bits per second.
  public var bitRate: Int
  /// x264: the stats file's path. libvpx: nil in pass 1, pass 1's stats in pass 2.
  public var stats: String?

  public init(pass: Int, bitRate: Int, stats: String? = nil) {
    self.pass = pass
    self.bitRate = bitRate
    self.stats = stats
  }
}
