#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Media
import Testing

@testable import TransvidCLI

/// The asset digest memo reads a file only when its stamp (device, inode,
/// size, mtime, ctime) changes, and remembers across processes through its
/// file.
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

  /// A digest the memo could only have from its file, never from the asset.
  static let planted = String(repeating: "f", count: 64)

  /// An asset "first" in `dir`, hashed by a memo saved to its file: the
  /// asset's and the memo file's paths. No racy window: the asset's ctime
  /// is now, and cannot be set back.
  func remembered(in dir: String) throws -> (asset: String, memoFile: String) {
    let asset = try write("first", to: "a.png", in: dir)
    setModified(asset, seconds: 1_000_000_000)
    let memoFile = (dir as NSString).appendingPathComponent("memo/asset-digests")
    let memo = AssetDigestMemo(file: memoFile, racyWindow: 0)
    #expect(memo.digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("first".utf8)))
    memo.save()
    return (asset, memoFile)
  }

  @Test func anUnchangedStampIsNotReadAgainAcrossMemos() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (asset, memoFile) = try remembered(in: dir)
    // A later run trusts the stamp and does not read the file: it gives the digest its memo file says.
    let text = try String(contentsOfFile: memoFile, encoding: .utf8)
    try text.replacingOccurrences(of: SHA256.hex(Array("first".utf8)), with: Self.planted)
      .write(toFile: memoFile, atomically: true, encoding: .utf8)
    #expect(AssetDigestMemo(file: memoFile, racyWindow: 0).digest(of: asset, maxBytes: 1 << 20) == Self.planted)

    // Any change of the stamp reads the file again.
    let later = AssetDigestMemo(file: memoFile, racyWindow: 0)
    setModified(asset, seconds: 1_000_000_001)
    #expect(later.digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("first".utf8)))
    try write("longer text", to: "a.png", in: dir)
    setModified(asset, seconds: 1_000_000_001)
    #expect(later.digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("longer text".utf8)))
  }

  /// `tar -x`, `cp -p` and `touch -r` put mtime back after a write of the
  /// same size in the same inode; ctime still moves (the stale digest went
  /// on into the output cache and a shared `--cache` store).
  @Test func aRewriteWithItsOldTimesIsReadAgain() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (asset, memoFile) = try remembered(in: dir)
    // Past the kernel's timestamp tick, so the write moves ctime.
    usleep(50_000)
    try overwrite(asset, with: "other")
    setModified(asset, seconds: 1_000_000_000)
    #expect(AssetDigestMemo(file: memoFile, racyWindow: 0).digest(of: asset, maxBytes: 1 << 20) == SHA256.hex(Array("other".utf8)))
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

  /// The memo's folder comes from the environment as the XDG spec has it:
  /// an `XDG_CACHE_HOME` that is not absolute is ignored (it was a folder
  /// of that name in the working folder), and `~/.cache` is used only in a
  /// home that exists (a missing `HOME` was created). With no such folder
  /// the run works without a memo. The job's text draws with a system
  /// font, whose digest a run records.
  @Test func theMemoIsKeptOnlyInAFolderTheEnvironmentReallyGives() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fm = FileManager.default
    try fm.createDirectory(atPath: path(dir, "home"), withIntermediateDirectories: true)
    let job = goodJob(name: "t", formats: "[png]").replacingOccurrences(
      of: "background: \"#FFFFFF\"", with: "background: \"#FFFFFF\"\n    views: [{ frame: [5, 40, 50, 20], text: Hi, font: 12 }]")
    try write(job, to: "t.cfg", in: dir)
    for (environment, memo) in [
      (#"HOME="$PWD/home" XDG_CACHE_HOME=cache"#, "home/.cache/transvid/asset-digests"),
      (#"HOME="$PWD/missing" XDG_CACHE_HOME="#, nil),
      (#"HOME=missing XDG_CACHE_HOME=cache"#, nil),
      (#"HOME="$PWD/home" XDG_CACHE_HOME="$PWD/xdg""#, "xdg/transvid/asset-digests"),
    ] {
      let run = try runInShell("\(environment) exec \"$0\" \"$@\"", ["t.cfg", "-q", "--force"], in: dir)
      #expect(run.status == 0 && run.lines == [], "\(environment): \(run.stderr)")
      #expect(try fm.contentsOfDirectory(atPath: dir).sorted() == ["home", "out", "t.cfg"] + (memo?.hasPrefix("xdg") == true ? ["xdg"] : []),
        "\(environment)")
      #expect(try fm.contentsOfDirectory(atPath: path(dir, "home")) == (memo?.hasPrefix("home") == true ? [".cache"] : []), "\(environment)")
      if let memo {
        #expect(try String(contentsOfFile: path(dir, memo), encoding: .utf8).contains(" /usr/share/fonts/"), "\(environment)")
      }
      for made in ["home/.cache", "xdg"] { try? fm.removeItem(atPath: path(dir, made)) }
    }
  }
}
