// The broken-image corpus (`Tests/Corpus/images`): truncated and corrupt PNG,
// JPEG, GIF, BMP and WebP files, empty sizes, decompression bombs, files that
// are not images. Each must fail with exactly the message in its `.expected`
// file, and bombs must be refused from the header alone, before any pixel
// memory is allocated.

import Foundation
import Media
import Raster
import Testing
import TestSupport

/// One corpus image and the error it must give.
struct CorpusImage: Sendable, CustomTestStringConvertible {
  var path: String
  var expected: String
  var name: String { (path as NSString).lastPathComponent }
  var testDescription: String { name }

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus/images").path

  static let all: [CorpusImage] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { !$0.hasSuffix(".expected") }.sorted().map { name in
      let path = (directory as NSString).appendingPathComponent(name)
      let expected = (try? String(contentsOfFile: path + ".expected", encoding: .utf8)) ?? "(no .expected file)"
      return CorpusImage(path: path, expected: expected.trimmingCharacters(in: .newlines))
    }
  }()
}

@Suite struct BrokenImageTests {
  @Test func corpusIsBigEnough() {
    #expect(CorpusImage.all.count >= 10)
  }

  @Test(arguments: CorpusImage.all)
  func decodeFails(_ image: CorpusImage) throws {
    let data = Array(try #require(FileManager.default.contents(atPath: image.path)))
    let error = #expect(throws: MediaError.self) { try ImageDecoder.decode(data: data, name: image.name) }
    #expect(error?.description == image.expected)
    // Through the file API too (the name is then the path).
    let viaPath = #expect(throws: MediaError.self) { try ImageDecoder.decode(path: image.path) }
    #expect(viaPath?.message == error?.message)
  }

  /// A bomb is refused from its header: quickly, whatever size it declares.
  @Test(arguments: ["png-bomb-side.png", "png-bomb-area.png", "jpeg-bomb.jpg", "gif-bomb.gif", "webp-bomb.webp"])
  func bombsAreRefusedBeforeDecoding(_ name: String) throws {
    let path = (CorpusImage.directory as NSString).appendingPathComponent(name)
    let data = Array(try #require(FileManager.default.contents(atPath: path)))
    let info = try ImageDecoder.info(data: data, name: name)
    #expect(info.width * info.height > ImageDecoder.Limits().maxPixels || info.width > ImageDecoder.Limits().maxSide)
    let elapsed = ContinuousClock().measure { _ = try? ImageDecoder.decode(data: data, name: name) }
    #expect(elapsed < .milliseconds(100), "took \(elapsed)")
  }

  /// A JPEG's scans are counted from its markers, every one: jpegtran
  /// rewrites a picture as 13 scans (a script of ours, spectral selection
  /// only, the same coefficients), which a limit of 12 refuses from the
  /// header and a limit of 13 decodes to the picture it was.
  @Test func scanLimitCountsEveryScan() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let original = try ReducedDecodeTests.generated("testsrc2=s=320x240", "t.jpg", ["-pix_fmt", "yuvj444p", "-q:v", "3"])
    try Data(original).write(to: URL(fileURLWithPath: dir.path("t.jpg")))
    let bands = [(1, 2), (3, 5), (6, 9), (10, 14), (15, 20), (21, 27), (28, 35), (36, 44), (45, 54), (55, 63)]
    let script = (["0,1,2: 0-0, 0, 0;"] + bands.map { "0: \($0.0)-\($0.1), 0, 0;" } + ["1: 1-63, 0, 0;", "2: 1-63, 0, 0;"])
    try script.joined(separator: "\n").write(toFile: dir.path("scans.txt"), atomically: true, encoding: .utf8)
    let progressive = [UInt8](
      try runData("jpegtran", ["-copy", "none", "-scans", dir.path("scans.txt"), dir.path("t.jpg")]))
    let refused = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: progressive, name: "p.jpg", limits: .init(maxScans: 12))
    }
    #expect(refused?.description == "decode image 'p.jpg': JPEG has 13 scans, over the limit of 12 (each is a pass over the whole image)")
    let decoded = try ImageDecoder.decode(data: progressive, name: "p.jpg", limits: .init(maxScans: 13))
    let reference = try ImageDecoder.decode(data: original, name: "t.jpg")
    #expect(decoded.width == 320 && decoded.height == 240)
    #expect(zip(decoded.bytes, reference.bytes).filter { $0 != $1 }.count == 0)
    // The default limit takes the file.
    _ = try ImageDecoder.decode(data: progressive, name: "p.jpg")
  }

  /// A JPEG of 1000 scans (15 KB: one empty scan repeated) is refused by
  /// the default limit; under a limit of 1000 the same bytes decode:
  /// nothing else is wrong with them.
  @Test func manyScansAreRefusedBeforeDecoding() throws {
    let path = (CorpusImage.directory as NSString).appendingPathComponent("jpeg-many-scans.jpg")
    let data = Array(try #require(FileManager.default.contents(atPath: path)))
    #expect(data.count < 20_000)
    #expect(throws: MediaError.self) { try ImageDecoder.decode(data: data, name: "m.jpg") }
    // Under a higher limit the same bytes decode (1024 × 768 of flat grey).
    let image = try ImageDecoder.decode(data: data, name: "m.jpg", limits: .init(maxScans: 1000))
    #expect(image.width == 1024 && image.height == 768)
  }

  /// Inputs the image fuzzer once stumbled on (`Tests/Corpus/fuzz/images`):
  /// each must decode or throw, quickly, under the fuzzer's 4 Mpx limit.
  @Test func fuzzRegressions() throws {
    let dir = URL(fileURLWithPath: CorpusImage.directory).deletingLastPathComponent().appendingPathComponent("fuzz/images").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    #expect(!names.isEmpty)
    for name in names.sorted() {
      let data = Array(try #require(FileManager.default.contents(atPath: (dir as NSString).appendingPathComponent(name))))
      let elapsed = ContinuousClock().measure {
        _ = try? ImageDecoder.decode(data: data, name: name, limits: .init(maxSide: 4096, maxPixels: 1 << 22))
      }
      #expect(elapsed < .seconds(2), "\(name) took \(elapsed)")
    }
  }

  /// Found by the fuzzer: 349 bytes of lossy WebP that declare 8530×10094
  /// pixels, under the default 100 Mpx cap, so they decode (slowly, to about
  /// 350 MB of pixels). A lower limit refuses them from the header.
  @Test func tinyFileDeclaringAHugeImage() throws {
    let dir = URL(fileURLWithPath: CorpusImage.directory).deletingLastPathComponent().appendingPathComponent("fuzz/images").path
    let data = Array(try #require(FileManager.default.contents(atPath: dir + "/webp-86mpx-from-349-bytes.webp")))
    #expect(data.count == 349)
    let info = try ImageDecoder.info(data: data, name: "w.webp")
    #expect(info.format == "WebP" && info.width == 8530 && info.height == 10094)
    let error = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: data, name: "w.webp", limits: .init(maxSide: 4096, maxPixels: 1 << 22))
    }
    #expect(error?.message == "WebP declares 8530×10094 = 86101820 pixels, over the limits of 4096 per side and 4194304 in all")
  }

  /// An image of exactly the pixel limit decodes: libavcodec checks its
  /// buffers with the width rounded up to its stride alignment (a 10000 ×
  /// 10000 PNG, exactly the default 100 Mpx, was "corrupt PNG data
  /// (get_buffer() failed)"), so it is given that room beyond the limit the
  /// header check enforces. Here at a smaller scale: 1000 × 100 pixels (1000
  /// is no multiple of 64) under a limit of 100 000.
  @Test func imageOfExactlyThePixelLimitDecodes() throws {
    var bitmap = Bitmap(width: 1000, height: 100, fill: Pixel(r: 10, g: 200, b: 30, a: 255))
    bitmap[999, 99] = Pixel(r: 255, g: 0, b: 0, a: 255)
    let png = try PNGWriter.encode(bitmap)
    let decoded = try ImageDecoder.decode(data: png, name: "exact.png", limits: .init(maxSide: 1000, maxPixels: 100_000))
    #expect(decoded == bitmap)
    let error = #expect(throws: MediaError.self) {
      try ImageDecoder.decode(data: png, name: "exact.png", limits: .init(maxSide: 1000, maxPixels: 99_999))
    }
    #expect(error?.message == "PNG declares 1000×100 = 100000 pixels, over the limit of 99999 in all")
  }
}
