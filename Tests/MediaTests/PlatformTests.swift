// Platform's two file rules, directly: reads take only regular files up to a
// cap; writes go through a private folder and never follow or replace
// anything but a regular file or a link.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@testable import Media
import TestSupport

@Suite struct PlatformTests {
  @Test func readsRefuseWhatIsNotASmallRegularFile() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try Data("12345".utf8).write(to: URL(fileURLWithPath: dir.path("five")))
    #expect(try Platform.readRegularFile(dir.path("five"), maxBytes: 5) == Array("12345".utf8))
    #expect(mkfifo(dir.path("fifo"), 0o644) == 0)
    for (path, limit, message) in [
      (dir.path("five"), 4, "the file is 5 bytes, over the limit of 4"),
      (dir.path("fifo"), 100, "not a regular file (a FIFO)"),
      ("/dev/zero", 100, "not a regular file (a character device)"),
      (dir.path("none"), 100, "No such file or directory"),
      (dir.path(""), 100, "Is a directory"),
    ] {
      let error = #expect(throws: MediaError.self) { try Platform.readRegularFile(path, maxBytes: limit) }
      #expect(error?.description == "read '\(path)': \(message)")
      let check = #expect(throws: MediaError.self) { try Platform.checkRegularFile(path, maxBytes: limit) }
      #expect(check == error)
    }
  }

  @Test func writesReplaceLinksNotTheirTargetsAndRefuseNodes() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    try Data("victim".utf8).write(to: URL(fileURLWithPath: dir.path("victim")))
    try FileManager.default.createSymbolicLink(atPath: dir.path("out"), withDestinationPath: "victim")
    try Platform.writeAtomically(Array("new".utf8), to: dir.path("out"))
    #expect(try String(contentsOfFile: dir.path("victim"), encoding: .utf8) == "victim")
    #expect(try String(contentsOfFile: dir.path("out"), encoding: .utf8) == "new")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir.path("out"))) == nil)  // a file now
    #expect(try dir.entries() == ["out", "victim"])

    #expect(mkfifo(dir.path("fifo"), 0o644) == 0)
    let error = #expect(throws: MediaError.self) { try Platform.writeAtomically([1], to: dir.path("fifo")) }
    #expect(error?.message == "it is a FIFO, not a regular file; transvid writes only regular files")
    let folder = #expect(throws: MediaError.self) { try Platform.writeAtomically([1], to: dir.path("")) }
    #expect(folder?.message == "it is a folder, not a regular file; transvid writes only regular files")
    #expect(try dir.entries() == ["fifo", "out", "victim"])
  }

  @Test func theTempFileLivesInAPrivateFolder() throws {
    let dir = try TempDirectory()
    defer { dir.cleanUp() }
    let file = try AtomicFile(replacing: dir.path("a/b/report.json"))
    var info = stat()
    #expect(lstat(file.folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_mode & 0o777 == 0o700)
    #expect((file.folder as NSString).lastPathComponent.hasPrefix(".report.json.tmp-"))
    try file.write([1, 2])
    #expect(throws: MediaError.self) { try file.write([3]) }  // O_EXCL: never a second open of the same name
    try file.commit()
    #expect(try Platform.readRegularFile(dir.path("a/b/report.json"), maxBytes: 10) == [1, 2])
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("a/b")) == ["report.json"])
  }
}
