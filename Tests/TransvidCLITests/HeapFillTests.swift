// The heap is filled only while codecs work (`HeapFill`): a GIF is written
// without the fill, so its bytes must not depend on what stale memory holds;
// a video's encoder keeps it, so neither may its bytes. Each run of the
// built executable fills the memory the GIF writer allocates with another
// byte (`TRANSVID_HEAP_GARBAGE`), as if other work had left it there.

import Foundation
import Media
import Testing
import TestSupport

@Suite(.serialized) struct HeapFillTests {
  /// A small job of a JPEG photo, text and flat views: a circle spread, a
  /// page flip and a pop, at 2x, as a GIF and an MP4.
  static func job(in dir: TempDirectory) throws -> String {
    _ = try ReducedPhotoDecodeTests.photo(ReducedPhotoDecodeTests.sources[0], in: dir.url.path)
    let text = """
      name: heap
      canvas: { size: 120x200, scale: 2, fps: 30, background: "#000000" }
      output: { formats: [gif, mp4], gif: { width: 100 } }
      screens:
        list:
          background: systemGroupedBackground
          views:
            - { frame: [8, 30, 104, 30], color: "#FFFFFF", corner: 10 }
            - { frame: [8, 70, 104, 20], text: "Library", font: 14 }
        photo:
          background: "#DDEBD5"
          views:
            - { frame: [0, 40, 120, 90], image: photo.jpg }
            - { frame: [48, 150, 24, 24], color: systemRed, corner: 12 }
      timeline:
        - hold: 0.1
        - push: { from: list, to: photo, transition: circle-spread, duration: 0.3 }
        - push: { to: list, transition: page-flip, duration: 0.3 }
        - pop: {}

      """
    let path = dir.path("heap.cfg")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func theBytesDoNotDependOnWhatTheHeapHeld() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let job = try Self.job(in: dir)
    var outputs: [[String: Data]] = []
    for garbage in [nil, "17", "238"] {
      let out = dir.path("out-\(garbage ?? "none")")
      let run = try runTransvid(
        ["-q", "--progress", "none", "-o", out, job], in: dir.url.path,
        environment: garbage.map { ["TRANSVID_HEAP_GARBAGE": $0] } ?? [:])
      #expect(run.status == 0, "\(run.stderr)")
      var files: [String: Data] = [:]
      for name in ["heap.gif", "heap.mp4"] {
        files[name] = try #require(FileManager.default.contents(atPath: out + "/" + name), "\(name) not written")
      }
      outputs.append(files)
    }
    #expect(outputs[0]["heap.gif"]!.count > 1000)
    #expect(outputs[1] == outputs[0])
    #expect(outputs[2] == outputs[0])
  }

  /// Blocks allocated while a codec works are filled, even while a GIF is
  /// written beside it (another job of the batch).
  @Test func aCodecsBlocksAreFilledWhileAGIFIsWritten() {
    func filled() -> Bool {
      let count = 200_000
      let fill = [UInt8](repeating: 0xA5, count: count)  // glibc fills with ~0x5A
      guard let block = malloc(count) else { return false }
      defer { free(block) }
      // By memcmp: an optimised build may take bytes read from a block
      // nothing wrote as anything at all.
      return memcmp(block, fill, count) == 0
    }
    #expect(HeapFill.needed { filled() })
    #expect(HeapFill.needed { HeapFill.notNeeded { filled() } })
    #expect(HeapFill.notNeeded { HeapFill.needed { filled() } })
  }
}
