// libavcodec, libavformat and libavfilter are opened when first used, not
// linked (Media's `FFmpegLibrary`), through the built executable. The
// loader is given, first on its path, a folder of files with those
// libraries' names that are not libraries: a command that encodes nothing
// must not touch them, and a job that needs one fails with the loader's
// reason while the rest of its batch is written.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct LibraryLoadingTests {
  static let broken = ["libavcodec.so.59", "libavformat.so.59", "libavfilter.so.8"]

  /// A folder of `names`, each a text file the loader cannot use.
  static func brokenLibraries(_ names: [String]) throws -> String {
    let dir = try makeTemporaryDirectory()
    for name in names { try write("not a shared library\n", to: name, in: dir) }
    return dir
  }

  @Test func commandsThatEncodeNothingNeverOpenTheCodecLibraries() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(smallJob(name: "good"), to: "good.cfg", in: dir)
    let libraries = try Self.brokenLibraries(Self.broken)
    defer { try? FileManager.default.removeItem(atPath: libraries) }
    let environment = ["LD_LIBRARY_PATH": libraries]

    for arguments in [["--version"], ["check", "good.cfg"], ["plan", "good.cfg"], ["list", "devices"]] {
      let run = try runTransvid(arguments, in: dir, environment: environment)
      #expect(run.status == 0, "transvid \(arguments.joined(separator: " ")): \(run.stderr)")
    }
    // The same folder breaks a command that encodes: the libraries were there to be found.
    let render = try runTransvid(["good.cfg", "-q", "-o", "out"], in: dir, environment: environment)
    #expect(render.status == 1)
    #expect(render.stderr.contains("load libavcodec.so.59: "), "\(render.stderr)")
    #expect(!FileManager.default.fileExists(atPath: path(dir, "out/good.mp4")))
    // A GIF without dithering needs none of the three (its pixels are mapped
    // by transvid's port of `paletteuse`'s search): the same file as with them.
    let gif = try runTransvid(["good.cfg", "-q", "--format", "gif", "-o", "gif"], in: dir, environment: environment)
    #expect(gif.status == 0, "\(gif.stderr)")
    let alone = try runTransvid(["good.cfg", "-q", "--format", "gif", "-o", "alone"], in: dir)
    #expect(alone.status == 0, "\(alone.stderr)")
    let written = try Data(contentsOf: URL(fileURLWithPath: path(dir, "gif/good.gif")))
    #expect(written.count > 100)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path(dir, "alone/good.gif"))) == written)
  }

  @Test func aLibraryThatCannotBeOpenedFailsOnlyTheJobsThatNeedIt() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(smallJob(name: "video"), to: "video.cfg", in: dir)
    // Dithering is `paletteuse`'s own, so this GIF needs libavfilter.
    try write(
      smallJob(name: "anim").replacingOccurrences(of: "formats: [mp4]", with: "formats: [gif], gif: { dither: bayer }"),
      to: "anim.cfg", in: dir)
    let libraries = try Self.brokenLibraries(["libavfilter.so.8"])
    defer { try? FileManager.default.removeItem(atPath: libraries) }

    let run = try runTransvid([".", "-q", "-o", "out"], in: dir, environment: ["LD_LIBRARY_PATH": libraries])
    #expect(run.reason == .exit && run.status == 1, "\(run.stderr)")
    // The loader's own reason, after what transvid was loading.
    let line = try #require(run.errorLines.first { $0.contains("load libavfilter.so.8: ") }, "\(run.stderr)")
    #expect(line.contains("anim.cfg"), "\(line)")
    #expect(line.contains("libavfilter.so.8: file too short") || line.contains("invalid ELF header"), "\(line)")
    // The MP4 job, which needs libavcodec and libavformat only, is written: the same file as
    // without the broken library, and it decodes.
    let video = try Data(contentsOf: URL(fileURLWithPath: path(dir, "out/video.mp4")))
    let alone = try runTransvid(["video.cfg", "-q", "-o", "alone"], in: dir)
    #expect(alone.status == 0, "\(alone.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path(dir, "alone/video.mp4"))) == video)
    #expect(try VideoReader(path: path(dir, "out/video.mp4")).readAll().count > 1)
    #expect(!FileManager.default.fileExists(atPath: path(dir, "out/anim.gif")))
    let left = try FileManager.default.contentsOfDirectory(atPath: path(dir, "out")).filter { $0.hasPrefix(".") }
    #expect(left.filter { !$0.hasPrefix(".transvid") || $0.contains("partial") }.isEmpty, "left behind: \(left)")
  }
}
