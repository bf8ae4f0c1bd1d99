import Foundation
import Testing

/// `transvid check` says of a job whose output folder the run may not write
/// in (a read-only mount) what its render says, `-o`'s folder or the job's
/// `output.dir`, made already or still to be made; a job up to date there
/// is fine, as its render leaves it be (unless `--force`).
@Suite(.serialized) struct CheckUnwritableFolderTests {
  @Test(.enabled(if: canMountTmpfs, "needs to mount a tmpfs (root)"))
  func aJobThatCannotWriteItsOutputsIsBroken() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let readOnly = path(dir, "jobs/ro")
    try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
    try write(
      tinyJob(name: "mine").replacingOccurrences(of: "output: { formats:", with: "output: { dir: ro, formats:"),
      to: "jobs/mine.cfg", in: dir)
    try write(tinyJob(name: "other"), to: "jobs/other.cfg", in: dir)
    #expect(mountTmpfs(at: readOnly, options: "size=1m"))
    defer { unmount(readOnly) }
    // Rendered while the mount could be written: then up to date there, read-only.
    #expect(try runTransvid(["jobs/mine.cfg", "-q"], in: dir).status == 0)
    let remount = Process()
    remount.executableURL = URL(fileURLWithPath: "/bin/mount")
    remount.arguments = ["-o", "remount,ro", readOnly]
    try remount.run()
    remount.waitUntilExit()
    #expect(remount.terminationStatus == 0)

    let own = try runTransvid(["check", "jobs", "-q"], in: dir)
    #expect(own.status == 0 && own.stderr.isEmpty, "\(own.status) \(own.stderr)")
    let forced = try runTransvid(["check", "jobs", "-q", "--force"], in: dir)
    let render = try runTransvid(["jobs", "-q", "--force"], in: dir)
    let mine = "jobs/mine.cfg:3:16: error: output.dir: write the outputs: 'jobs/ro' cannot be written: Read-only file system"
    #expect(forced.status == 1 && forced.errorLines == [mine], "\(forced.status) \(forced.stderr)")
    #expect(render.errorLines == forced.errorLines, "\(render.stderr)")

    let given = try runTransvid(["check", "jobs", "-o", "jobs/ro", "-q"], in: dir)
    let other = "jobs/other.cfg: error: write the outputs: 'jobs/ro' cannot be written: Read-only file system"
    #expect(given.status == 1 && given.errorLines == [other], "\(given.status) \(given.stderr)")
    // A folder still to be made there fails at its making, for both.
    let below = try runTransvid(["check", "jobs", "-o", "jobs/ro/new", "-q"], in: dir)
    let rendered = try runTransvid(["jobs", "-o", "jobs/ro/new", "-q"], in: dir)
    let made = ["mine", "other"].map { "jobs/\($0).cfg: error: create folder 'jobs/ro/new': Read-only file system" }
    #expect(below.status == 1 && below.errorLines == made, "\(below.status) \(below.stderr)")
    #expect(rendered.errorLines.sorted() == made, "\(rendered.stderr)")  // errors print as jobs end
  }
}
