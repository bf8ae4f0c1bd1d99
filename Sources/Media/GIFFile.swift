import CGIF

/// An animated GIF assembled in memory by giflib's encoder (`EGif…`): the
/// screen with an optional global colour table, the NETSCAPE2.0 loop block,
/// then per image a graphic control extension (delay, transparent index,
/// disposal "leave in place") and the image (its rectangle, an optional
/// local colour table, the LZW-coded indices). giflib owns the format;
/// `GIFLZWEncoder` codes the indices (lossy coding chooses them while it
/// codes, which giflib's encoder cannot); `GIFWriter` decides every index,
/// rectangle and palette.
final class GIFFile {
  /// One image of the animation.
  struct Image {
    /// Where the image lies on the screen.
    var x: Int, y: Int, width: Int, height: Int
    /// The local colour table (packed RGB triples), nil for the global one.
    var palette: [UInt8]?
    /// The index that shows what is already on screen, if any.
    var transparentIndex: Int?
    /// How long it shows, in centiseconds.
    var delay: Int
  }

  private(set) var bytes: [UInt8] = []
  private var file: UnsafeMutablePointer<GifFileType>?
  private let what: String
  /// The LZW minimum code size of images on the global colour table.
  let globalCodeSize: Int

  /// Starts a file of `width × height` with the global colour table
  /// `palette` (RGB triples) and `loop`: nil writes no loop block (plays
  /// once), else the NETSCAPE2.0 repeat count (0 forever).
  init(width: Int, height: Int, palette: [UInt8], loop: Int?, what: String) throws(MediaError) {
    self.what = what
    globalCodeSize = GIFLZWEncoder.minimumCodeSize(entries: palette.count / 3)
    var error: Int32 = 0
    let output: OutputFunc = { file, data, count in
      guard let file, let data, count > 0 else { return 0 }
      let me = Unmanaged<GIFFile>.fromOpaque(file.pointee.UserData).takeUnretainedValue()
      me.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
      return count
    }
    file = EGifOpen(Unmanaged.passUnretained(self).toOpaque(), output, &error)
    guard let file else { throw MediaError("write \(what)", "giflib: \(Self.message(error))") }
    EGifSetGifVersion(file, true)
    let map = try Self.colorMap(palette, what: what)
    defer { GifFreeMapObject(map) }
    try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, map), "write the screen")
    if let loop {
      try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), "write the loop block")
      let name = Array("NETSCAPE2.0".utf8)
      try check(EGifPutExtensionBlock(file, Int32(name.count), name), "write the loop block")
      let count: [UInt8] = [1, UInt8(loop & 0xFF), UInt8(loop >> 8)]
      try check(EGifPutExtensionBlock(file, 3, count), "write the loop block")
      try check(EGifPutExtensionTrailer(file), "write the loop block")
    }
  }

  deinit { close() }

  /// The LZW minimum code size of `image`'s indices: the one giflib writes
  /// for its colour table.
  func codeSize(of image: Image) -> Int {
    image.palette.map { GIFLZWEncoder.minimumCodeSize(entries: $0.count / 3) } ?? globalCodeSize
  }

  /// Appends one image whose indices `data` codes: GIF image data
  /// sub-blocks (`GIFLZWEncoder`) at `codeSize(of: image)`.
  func append(_ image: Image, data: [UInt8]) throws(MediaError) {
    guard let file else { throw MediaError("write \(what)", "the file is closed") }
    var control = GraphicsControlBlock(
      DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false, DelayTime: Int32(image.delay),
      TransparentColor: Int32(image.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
    var extensionBytes = [GifByteType](repeating: 0, count: 4)
    let length = EGifGCBToExtension(&control, &extensionBytes)
    try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes), "write a frame's delay")
    var map: UnsafeMutablePointer<ColorMapObject>? = nil
    if let palette = image.palette { map = try Self.colorMap(palette, what: what) }
    defer { if map != nil { GifFreeMapObject(map) } }
    // giflib writes the code size of the table; the data must use the same.
    let tableBits = Int(map?.pointee.BitsPerPixel ?? file.pointee.SColorMap.pointee.BitsPerPixel)
    guard max(2, tableBits) == codeSize(of: image) else {
      throw MediaError("write \(what)", "LZW code size \(codeSize(of: image)) does not match the colour table")
    }
    try check(
      EGifPutImageDesc(file, Int32(image.x), Int32(image.y), Int32(image.width), Int32(image.height), false, map),
      "write a frame")
    try data.withUnsafeBufferPointer { (blocks) throws(MediaError) in
      var i = 0
      while i < blocks.count {
        try check(EGifPutCodeNext(file, blocks.baseAddress! + i), "write a frame")
        i += Int(blocks[i]) + 1
      }
    }
    try check(EGifPutCodeNext(file, nil), "write a frame")
  }

  /// Writes the trailer; `bytes` is then the whole file.
  func finish() throws(MediaError) {
    guard let file else { return }
    var error: Int32 = 0
    self.file = nil
    if EGifCloseFile(file, &error) != GIF_OK {
      throw MediaError("write \(what)", "giflib: \(Self.message(error))")
    }
  }

  private func close() {
    guard let file else { return }
    self.file = nil
    var error: Int32 = 0
    _ = EGifCloseFile(file, &error)
  }

  private func check(_ result: Int32, _ operation: String) throws(MediaError) {
    guard result == GIF_OK else {
      throw MediaError("write \(what)", "giflib: \(operation): \(Self.message(file?.pointee.Error ?? 0))")
    }
  }

  /// A colour map of RGB triples, padded to a power of two (2…256 entries).
  private static func colorMap(_ palette: [UInt8], what: String) throws(MediaError) -> UnsafeMutablePointer<
    ColorMapObject
  > {
    let count = max(1, palette.count / 3)
    var size = 2
    while size < count { size *= 2 }
    var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
    for i in 0..<count {
      colors[i] = GifColorType(Red: palette[3 * i], Green: palette[3 * i + 1], Blue: palette[3 * i + 2])
    }
    guard let map = GifMakeMapObject(Int32(size), colors) else {
      throw MediaError("write \(what)", "giflib: no memory for a colour map")
    }
    return map
  }

  private static func message(_ error: Int32) -> String {
    if let text = GifErrorString(error) { return String(cString: text) }
    return "error \(error)"
  }
}
