// FuzzImageDecoder: encoded image bytes → `ImageDecoder.info` and
// `ImageDecoder.decode(data:name:)` (header checks, size limits, FFmpeg's
// decoders, swscale, premultiplication). Any input must give a bitmap or a
// `MediaError`: a trap, a sanitizer report or a hang is a bug.
//
//   scripts/fuzz SECONDS          builds this with libFuzzer and runs it
//   swift run FuzzImageDecoder FILE|DIR ...   replays inputs in a plain build

import FuzzSupport
import Media

/// Decoding limits for fuzzing: 4 Mpx. With the default 100 Mpx a 349-byte
/// WebP declaring 8530×10094 pixels legitimately decodes for seconds (see
/// `Tests/Corpus/fuzz/images`), and libFuzzer would spend its time there.
/// The limit checks themselves run either way.
let limits = ImageDecoder.Limits(maxSide: 4096, maxPixels: 1 << 22)

/// One input; a `MediaError` is the expected outcome for junk.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  _ = try? ImageDecoder.info(data: bytes, name: "fuzz")
  if let bitmap = try? ImageDecoder.decode(data: bytes, name: "fuzz", limits: limits) {
    // The decoder's promise: a premultiplied bitmap of the size it says.
    precondition(bitmap.bytes.count == bitmap.width * bitmap.height * 4, "bitmap size mismatch")
  }
  return 0
}

exit(fuzzMain(fuzzImageDecoder))
