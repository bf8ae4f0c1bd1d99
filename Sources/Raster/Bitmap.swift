// Raster: bitmaps and the compositor.
//
// A `Bitmap` is the one pixel store of transvid: premultiplied RGBA8, rows top
// to bottom, no padding (stride == width × 4), bytes in memory R, G, B, A. It
// is a value type (copy on write), so a snapshot taken once can be shared by
// every frame and every thread without locks.

import Geometry
import Glibc

/// A premultiplied RGBA8 image, `width × height` pixels, rows packed.
public struct Bitmap: Hashable, Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width × height × 4` bytes: premultiplied R, G, B, A per pixel, row-major.
  /// Writing through it clears `isKnownOpaque`, `solidRuns` and `contentTag`.
  ///
  /// Written in place from any module (`_modify` yields the storage): a
  /// property observer would make other modules' writes a get and a set,
  /// copying every pixel on each write, as the array is then shared.
  public var bytes: [UInt8] {
    get { storage }
    set {
      storage = newValue
      clearHints()
    }
    _modify {
      defer { clearHints() }
      yield &storage
    }
  }

  private var storage: [UInt8]

  private mutating func clearHints() {
    isKnownOpaque = false
    solidRuns = nil
    contentTag = nil
  }

  /// What the pixels are known to hold, as the code that last drew them
  /// labelled them (a number only that code reads): a stage tags the frames
  /// it draws, so the next frame drawn into the same bitmap rewrites only
  /// what changed. Cleared by any write to `bytes` not followed by a new
  /// tag; nil for a new bitmap. Not part of equality.
  public var contentTag: Int?

  /// True when every pixel is known to have alpha 255 (a hint the compositor
  /// uses to copy rows and to skip what an opaque layer hides). False means
  /// "not known": set by the initialisers that check or know it, kept by the
  /// subscript setter for opaque pixels, cleared by any write to `bytes`.
  /// Not part of equality.
  public private(set) var isKnownOpaque: Bool = false

  /// The rows' runs of one flat colour, indexed by `updateOpacityHint()`
  /// when the bitmap is opaque (`SolidRuns.swift`) — what a snapshot gets,
  /// being drawn in many frames; cleared by any write to `bytes`. Not part
  /// of equality.
  public private(set) var solidRuns: SolidRuns?

  /// The part of the pixels the picture covers, in pixels, where it ends
  /// inside the last column or row (or, turned by EXIF, starts inside the
  /// first): a JPEG decoded at a reduced size that does not divide its
  /// sides (`ImageDecoder.reducedPicture`). `ImageDownsampling` averages
  /// this rectangle; nil: the whole bitmap. Not part of equality.
  public var pictureRect: Rect?

  /// A bitmap filled with `fill` (transparent by default). Sizes must be
  /// positive; callers validate user input before getting here.
  public init(width: Int, height: Int, fill: Pixel = .clear) {
    precondition(width > 0 && height > 0, "Bitmap size must be positive")
    self.width = width
    self.height = height
    isKnownOpaque = fill.a == 255
    if fill == .clear {
      storage = [UInt8](repeating: 0, count: width * height * 4)
    } else {
      // Written once, sixteen bytes a store (not zeroed first).
      let count = width * height
      storage = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
        Kernels.fill(buffer.baseAddress!, fill, count)
        initialized = count * 4
      }
    }
  }

  /// Wraps existing premultiplied RGBA8 bytes; `nil` when the count is wrong.
  public init?(width: Int, height: Int, bytes: [UInt8]) {
    guard width > 0, height > 0, bytes.count == width * height * 4 else { return nil }
    self.width = width
    self.height = height
    storage = bytes
    isKnownOpaque = Bitmap.allOpaque(bytes)
  }

  /// Rescans the pixels and sets `isKnownOpaque` — and, when opaque,
  /// `solidRuns` — (O(n)); call after writing through `bytes` when the
  /// result is likely opaque, as for a snapshot drawn in many frames.
  public mutating func updateOpacityHint() {
    isKnownOpaque = Bitmap.allOpaque(bytes)
    solidRuns =
      isKnownOpaque ? bytes.withUnsafeBufferPointer { SolidRuns($0.baseAddress!, width: width, height: height) } : nil
  }

  /// The same bitmap without its `solidRuns` index: what the compositor
  /// does with content that has no flat stretches (tests hold the two
  /// paths equal; the bench times both).
  public func withoutSolidRuns() -> Bitmap {
    var b = self
    b.solidRuns = nil
    return b
  }

  static func allOpaque(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { Kernels.isOpaque($0.baseAddress!, $0.count / 4, .simd) }
  }

  public static func == (a: Bitmap, b: Bitmap) -> Bool {
    a.width == b.width && a.height == b.height && sameBytes(a.storage, b.storage)
  }

  /// Whether two byte arrays hold the same bytes: `memcmp`, where the
  /// array's own `==` compares element by element (a 12 MB frame: about
  /// ten times as long).
  public static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBufferPointer { p in
      b.withUnsafeBufferPointer { q in
        p.baseAddress == q.baseAddress || p.isEmpty || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0
      }
    }
  }

  public func hash(into h: inout Hasher) {
    h.combine(width)
    h.combine(height)
    h.combine(bytes)
  }

  /// Bytes per row.
  @inlinable public var stride: Int { width * 4 }

  /// The pixel at column `x`, row `y` (0-based, top-left origin).
  public subscript(x: Int, y: Int) -> Pixel {
    get {
      let i = (y * width + x) * 4
      return Pixel(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2], a: bytes[i + 3])
    }
    set {
      let known = isKnownOpaque && newValue.a == 255
      defer { isKnownOpaque = known }
      let i = (y * width + x) * 4
      bytes[i] = newValue.r
      bytes[i + 1] = newValue.g
      bytes[i + 2] = newValue.b
      bytes[i + 3] = newValue.a
    }
  }
}
