import CFFmpeg
import Foundation
import Raster
import Testing

@testable import Media
import TestSupport

/// The converter (Raster's `YUV420Converter`, bands over threads) and
/// pre-converted frames must give exactly what swscale gives in
/// `MP4Writer.append(Bitmap)`.
@Suite struct YUVConverterTests {
  /// The Y, U and V planes of `frame`, without line padding.
  func planes(_ frame: Frame) -> [[UInt8]] {
    let f = frame.pointer.pointee
    let width = Int(f.width), height = Int(f.height)
    return frame.withPlanes { data, lines in
      (0..<3).map { p in
        let w = p == 0 ? width : width / 2, h = p == 0 ? height : height / 2
        var out: [UInt8] = []
        out.reserveCapacity(w * h)
        for y in 0..<h {
          let row = data[p]! + y * Int(lines[p])
          out.append(contentsOf: UnsafeBufferPointer(start: row, count: w))
        }
        return out
      }
    }
  }

  /// The single-threaded `Scaler` path of `MP4Writer.append(Bitmap)`.
  func reference(_ bitmap: Bitmap) throws -> [[UInt8]] {
    let frame = try Frame(width: bitmap.width, height: bitmap.height, format: AV_PIX_FMT_YUV420P)
    try Scaler().yuv(from: bitmap, into: frame)
    return planes(frame)
  }

  /// Odd band splits (1170×2532 is the bench size; 646×362 has a chroma
  /// height that no thread count divides evenly).
  @Test(arguments: [(1170, 2532), (646, 362), (128, 96)])
  func everyThreadCountMatchesTheSingleThreadedScaler(size: (Int, Int)) throws {
    let (width, height) = size
    let frames = [0, 7].map { syntheticFrame($0, width: width, height: height, edge: $0 == 0 ? 0 : 3) }
    for bitmap in frames {
      let expected = try reference(bitmap)
      for threads in [1, 2, 3, 4, 7] {
        let converter = try YUVConverter(width: width, height: height, threads: threads)
        let yuv = try YUVFrame(width: width, height: height)
        try converter.convert(bitmap, into: yuv)
        #expect(planes(yuv.frame) == expected, "\(width)×\(height), \(threads) threads")
        // Converting again into the same frame (a pooled frame) gives the same.
        try converter.convert(bitmap, into: yuv)
        #expect(planes(yuv.frame) == expected)
      }
    }
  }

  /// Real pictures — a photo and two screenshots of UI (text, flat fills,
  /// hard edges), converted at their own sizes — and random bytes at tiny
  /// and odd-tailed sizes: the same bytes as swscale, not one value apart.
  @Test func realFramesAndNoiseMatchSwscaleExactly() throws {
    let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("jobs/assets")
    var bitmaps = try ["photo.jpg", "cover.png", "settings.png"].map {
      try ImageDecoder.decode(path: assets.appendingPathComponent($0).path)
    }
    var state: UInt64 = 12345
    for (w, h) in [(2, 2), (4, 4), (6, 8), (18, 10), (34, 14), (46, 22), (1170, 40)] {
      let bytes = (0..<w * h * 4).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
      }
      bitmaps.append(Bitmap(width: w, height: h, bytes: bytes)!)
    }
    for bitmap in bitmaps {
      #expect(bitmap.width % 2 == 0 && bitmap.height % 2 == 0)
      let expected = try reference(bitmap)
      let converter = try YUVConverter(width: bitmap.width, height: bitmap.height, threads: 2)
      let yuv = try YUVFrame(width: bitmap.width, height: bitmap.height)
      try converter.convert(bitmap, into: yuv)
      let got = planes(yuv.frame)
      let differing = zip(got.joined(), expected.joined()).filter { $0 != $1 }.count
      #expect(differing == 0, "\(bitmap.width)×\(bitmap.height): \(differing) samples differ from swscale")
    }
  }

  /// `planarBytes()` is raw yuv420p: the three planes without line padding.
  @Test func planarBytesAreThePlanesWithoutPadding() throws {
    let bitmap = syntheticFrame(3, width: 646, height: 362, edge: 3)
    let converter = try YUVConverter(width: 646, height: 362)
    let yuv = try YUVFrame(width: 646, height: 362)
    try converter.convert(bitmap, into: yuv)
    let bytes = yuv.planarBytes()
    #expect(bytes.count == 646 * 362 * 3 / 2)
    #expect(bytes == Array(planes(yuv.frame).joined()))
    #expect(Int32(646) < yuv.frame.pointer.pointee.linesize.0, "the frame has row padding to leave out")
  }

  /// Frames appended pre-converted, reusing two pooled frames and repeating
  /// held ones by appending the same frame again, give the bytes of
  /// appending bitmaps.
  @Test func preconvertedFramesGiveTheBitmapPathsBytes() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let (width, height) = (320, 240)
    // Frames 3…5 and 9…11 are holds.
    let indices = [0, 1, 2, 3, 3, 3, 4, 5, 6, 7, 7, 7, 8]
    let source = indices.map { syntheticFrame($0, width: width, height: height, edge: 2) }
    try writeClip(source, to: dir.path("bitmaps.mp4"), threads: 2)

    let writer = try MP4Writer(path: dir.path("yuv.mp4"), width: width, height: height, fps: 30, threads: 2)
    let converter = try YUVConverter(width: width, height: height, threads: 3)
    let pool = [try YUVFrame(width: width, height: height), try YUVFrame(width: width, height: height)]
    var next = 0
    var last: YUVFrame? = nil
    for (i, bitmap) in source.enumerated() {
      if i > 0 && indices[i] == indices[i - 1] {
        try writer.append(last!)
      } else {
        let yuv = pool[next % 2]
        next += 1
        try converter.convert(bitmap, into: yuv)
        try writer.append(yuv)
        last = yuv
      }
    }
    try writer.finish()
    let a = try Data(contentsOf: URL(fileURLWithPath: dir.path("bitmaps.mp4")))
    let b = try Data(contentsOf: URL(fileURLWithPath: dir.path("yuv.mp4")))
    #expect(a == b)
  }

  @Test func wrongSizesThrow() throws {
    let converter = try YUVConverter(width: 64, height: 48, threads: 2)
    #expect(throws: MediaError.self) { try converter.convert(Bitmap(width: 64, height: 50), into: YUVFrame(width: 64, height: 48)) }
    #expect(throws: MediaError.self) { try converter.convert(Bitmap(width: 64, height: 48), into: YUVFrame(width: 64, height: 46)) }
    #expect(throws: MediaError.self) { try YUVFrame(width: 63, height: 48) }
    #expect(throws: MediaError.self) { try YUVConverter(width: 64, height: 48, threads: 0) }
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let writer = try MP4Writer(path: dir.path("x.mp4"), width: 64, height: 48, fps: 30)
    #expect(throws: MediaError.self) { try writer.append(YUVFrame(width: 64, height: 46)) }
    #expect(try dir.entries().isEmpty)
  }
}
