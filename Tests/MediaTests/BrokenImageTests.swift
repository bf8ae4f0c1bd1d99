// The broken-image corpus (`Tests/Corpus/images`): truncated and corrupt PNG,
// JPEG, GIF, BMP and WebP files, empty sizes, decompression bombs, files that
// are not images. Each must fail with exactly the message in its `.expected`
// file, and bombs must be refused from the header alone, before any pixel
// memory is allocated.

import Foundation
import Media
import Testing

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
    #expect(error?.message == "WebP declares 8530×10094 pixels, over the limit of 4096 per side and 4194304 in all")
  }
}
