import CFFmpeg

/// Freed memory stays in the process for the next frame: glibc keeps blocks
/// of up to 32 MiB in its heaps (`M_MMAP_THRESHOLD`) and gives the heaps'
/// free tops back to the kernel only above 1 GiB (`M_TRIM_THRESHOLD`).
///
/// glibc's defaults adapt to the program: a block of 128 KiB or more is
/// mapped on its own and unmapped when freed, the threshold rising to the
/// size of the largest block freed so far, and a heap's free top is trimmed
/// above twice that. A renderer allocates and frees a frame's worth of
/// memory on every frame, on several threads, in blocks of changing sizes
/// (a shadow's planes grow with the view that casts it), and each block
/// that went back to the kernel comes back as fresh pages it faults in and
/// zeroes — how many depends on which threads' heaps the blocks fall in, so
/// a job's time varied from run to run. With the thresholds fixed, a frame
/// reuses the memory the frame before freed (the measurements are in the
/// commit that set them, d0d586e, and the README).
///
/// Process-wide: the command line sets it up once, before any job.
public enum HeapReuse {
  /// Blocks up to this size come from the heaps (glibc's ceiling for the
  /// threshold: a 3x frame of an iPhone screen is 12 MB).
  static let mappedAbove: Int32 = 32 << 20
  /// A heap's free top is given back above this.
  static let trimmedAbove: Int32 = 1 << 30

  /// Applies the thresholds; false if glibc refused them.
  @discardableResult
  public static func setUp() -> Bool {
    cff_keep_freed_blocks(mappedAbove, trimmedAbove) == 1
  }
}
