// FuzzJobParser: job file bytes → `JobParser.parse(bytes:file:)` (YAML reader,
// decoder, validation, limits). Any input must give a spec or a `Diagnostic`:
// a trap, a sanitizer report or a hang is a bug.
//
//   scripts/fuzz SECONDS          builds this with -sanitize=fuzzer,address and
//                                 -DFUZZING and runs libFuzzer on it
//   swift run FuzzJobParser FILE|DIR ...   replays inputs (crash reproducers,
//                                 a corpus) in a plain build: no libFuzzer needed

import FuzzSupport
import Jobs

/// One input; a diagnostic is the expected outcome for junk.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJobParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  _ = try? JobParser.parse(bytes: bytes, file: "fuzz.cfg")
  return 0
}

exit(fuzzMain(fuzzJobParser))
