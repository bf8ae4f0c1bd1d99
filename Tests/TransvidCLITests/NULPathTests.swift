// A path a job file names that holds a NUL (`"\0"` in a quoted string) names
// no file: the system ends a path at its first NUL, so such a path passed the
// check of what a job may reach as the whole text and was opened cut short,
// outside the job's folder.

import Foundation
import Media
import Raster
import Testing

@Suite struct NULPathTests {
  /// `output.dir: "../victim\0/../jobs/out"` was checked as jobs/out, and the
  /// batch made and then cleared ../victim, files and all, as its staging
  /// folder; `image: "../secret.png\0/../jobs/row.png"` drew ../secret.png.
  /// Both are now errors at their value, and nothing outside is touched.
  @Test func aPathWithANULReachesNothingOutsideTheJob() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let jobs = path(dir, "jobs"), victim = path(dir, "victim")
    for folder in [jobs, victim] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    try write("keep", to: "notes.txt", in: victim)
    try PNGWriter.write(Bitmap(width: 8, height: 8, fill: Pixel(r: 0, g: 0, b: 255, a: 255)), to: path(dir, "secret.png"))
    try PNGWriter.write(Bitmap(width: 8, height: 8, fill: Pixel(r: 255, g: 0, b: 0, a: 255)), to: path(jobs, "row.png"))
    try write(
      goodJob(name: "folder").replacingOccurrences(of: "output: {", with: "output: { dir: \"../victim\\0/../jobs/out\","),
      to: "folder.cfg", in: jobs)
    try write(
      goodJob(name: "image").replacingOccurrences(of: "color: \"#FF9500\"", with: "image: \"../secret.png\\0/../jobs/row.png\""),
      to: "image.cfg", in: jobs)
    let run = try runTransvid(["jobs", "-q", "--format", "png"], in: dir)
    #expect(run.reason == .exit && run.status == 1, "\(run.reason) \(run.status): \(run.stderr)")
    let nul = "without NUL characters (the system ends a path at the first)"
    #expect(run.errorLines == [
      "jobs/folder.cfg:3:16: error: output.dir: expected a directory path \(nul), got \"../victim\\u{0}/../jobs/out\"",
      "jobs/image.cfg:8:51: error: screens.list.views[0].image: expected the path of an image file (PNG, JPEG, WebP, GIF or BMP) "
        + "\(nul), got \"../secret.png\\u{0}/../jobs/row.png\"",
    ])
    #expect(FileManager.default.contents(atPath: path(victim, "notes.txt")) == Data("keep".utf8))
    #expect(!FileManager.default.fileExists(atPath: path(dir, "out/image.png")))
  }
}
