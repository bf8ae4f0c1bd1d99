import CFFmpeg
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Whether glibc fills every block it hands out with one fixed byte
/// (`mallopt(M_PERTURB)`), process-wide.
///
/// libx264 (Debian's 0.164) reads heap memory it has not written: the same
/// frames gave other files depending on what the allocator had last held
/// there — in a batch, on the other jobs and on thread timing; with MB-tree
/// off, or with every new block filled with one byte, the files are
/// identical run after run. So while libavcodec works (an encoder open, an
/// image decoded, a PNG encoded, a whole non-GIF output written), every block
/// is filled: what a codec finds there is the same on every run.
///
/// The fill costs a memset per allocation and per free. The GIF writer does
/// not need it — its libraries (libimagequant, swscale, `paletteuse`,
/// giflib) and its own code read only what they wrote, which
/// `GIFWriterTests` checks by writing under two different fill bytes — and
/// it allocates a frame's worth of memory many times a frame: it runs
/// unfilled (`notNeeded`), about 4 % faster. Fill is on unless such a write
/// runs and no work that needs it does; work marked neither way (any other
/// Media call) keeps it on, as everything did before.
public enum HeapFill {
  /// The byte blocks are filled with while a codec may read them.
  static let byte: Int32 = 0x5A

  /// What glibc is told while no filled work runs: 0, no fill. The
  /// environment's `TRANSVID_HEAP_GARBAGE` (a byte, for tests) fills those
  /// blocks with that byte instead: what stale memory would hold.
  static let unfilled: Int32 = {
    guard let text = getenv("TRANSVID_HEAP_GARBAGE").map({ String(cString: $0) }), let value = Int32(text),
      (1...255).contains(value)
    else { return 0 }
    return value
  }()

  private struct State {
    var needing = 0
    var notNeeding = 0
    var applied: Int32?
  }

  private static let state = Mutex(State())

  /// `body` with the heap filled.
  public static func needed<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    change(needing: 1)
    defer { change(needing: -1) }
    return try body()
  }

  /// `body` without the fill, unless work that needs it runs meanwhile.
  public static func notNeeded<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    change(notNeeding: 1)
    defer { change(notNeeding: -1) }
    return try body()
  }

  /// The fill held for an object's life (an open encoder: what it allocates
  /// while it encodes is filled too).
  final class Hold: Sendable {
    init() { HeapFill.change(needing: 1) }
    deinit { HeapFill.change(needing: -1) }
  }

  /// Tells glibc the current state (the first Media call: the fill is on).
  static func setUp() { change() }

  private static func change(needing: Int = 0, notNeeding: Int = 0) {
    state.withLock { s in
      s.needing += needing
      s.notNeeding += notNeeding
      let wanted = s.needing > 0 || s.notNeeding == 0 ? byte : unfilled
      if s.applied != wanted {
        _ = cff_fill_allocations(wanted)
        s.applied = wanted
      }
    }
  }
}
