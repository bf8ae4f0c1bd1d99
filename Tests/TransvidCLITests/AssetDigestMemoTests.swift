#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Media
import Testing

@testable import TransvidCLI

/// The asset digest memo reads a file only when its stamp (device, inode,
/// size, mtime) changes, and remembers across processes through its file.
@Suite struct AssetDigestMemoTests {
  /// Sets the file's modification time to `seconds` after the epoch.
  func setModified(_ path: String, seconds: Int) {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
  }

  /// Overwrites the file's bytes in place (same inode, same size).
  func overwrite(_ path: String, with text: String) throws {
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.write(Data(text.utf8))
    try handle.close()
  }

  @Test func anUnchangedStampIsNotReadAgainAcrossMemos() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let asset = try write("first", to: "a.png", in: dir)
    setModified(asset, seconds: 1_000_000_000)
    let memoFile = (dir as NSString).appendingPathComponent("memo/asset-digests")

    let memo = AssetDigestMemo(file: memoFile)
    #expect(memo.digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("first".utf8)))
    memo.save()
    #expect(FileManager.default.fileExists(atPath: memoFile))

    // Same size, same inode, mtime put back: a new memo (a later run) trusts
    // the stamp and does not read the file, so it still gives the old digest.
    try overwrite(asset, with: "other")
    setModified(asset, seconds: 1_000_000_000)
    let later = AssetDigestMemo(file: memoFile)
    #expect(later.digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("first".utf8)))

    // Any change of the stamp reads the file again.
    setModified(asset, seconds: 1_000_000_001)
    #expect(later.digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("other".utf8)))
    try write("longer text", to: "a.png", in: dir)
    setModified(asset, seconds: 1_000_000_001)
    #expect(later.digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("longer text".utf8)))
  }

  @Test func aFileModifiedJustNowIsHashedButNotRecorded() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let asset = try write("fresh", to: "b.png", in: dir)
    let memoFile = (dir as NSString).appendingPathComponent("asset-digests")
    let memo = AssetDigestMemo(file: memoFile)
    #expect(memo.digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("fresh".utf8)))
    memo.save()
    // Nothing recorded, so nothing written: the next run hashes it again.
    #expect(!FileManager.default.fileExists(atPath: memoFile))
  }

  @Test func missingFilesAndMalformedMemosAreHarmless() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let memoFile = try write("garbage line\n1 2 3\n", to: "asset-digests", in: dir)
    let memo = AssetDigestMemo(file: memoFile)
    #expect(memo.digest(of: (dir as NSString).appendingPathComponent("none.png"), maxBytes: 1 << 20) == "missing")
    #expect(memo.digest(of: dir, maxBytes: 1 << 20) == "missing")
    let asset = try write("x", to: "c.png", in: dir)
    setModified(asset, seconds: 1_000_000_000)
    #expect(memo.digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("x".utf8)))
  }
}
