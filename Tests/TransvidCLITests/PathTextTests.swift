import Foundation
import Testing

@testable import TransvidCLI

/// `PathText` gives NSString's answers, also for the paths NSString traps on
/// in swift-corelibs-foundation (`r`, `a/`, `a///`, `a//é`); and a report
/// path of one letter, which made the batch trap, gets its report.
@Suite struct PathTextTests {
  /// Paths NSString answers without trapping, and their answers (Apple's
  /// documented examples among them): folder, file name, extension, base name.
  static let answered: [(String, String, String, String, String)] = [
    ("/tmp/scratch.tiff", "/tmp", "scratch.tiff", "tiff", "scratch"),
    ("/tmp/lock/", "/tmp", "lock", "", "lock"),
    ("/tmp/", "/", "tmp", "", "tmp"),
    ("/tmp", "/", "tmp", "", "tmp"),
    ("/", "/", "/", "", "/"),
    ("scratch.tiff", "", "scratch.tiff", "tiff", "scratch"),
    ("jobs//a/intro.cfg", "jobs/a", "intro.cfg", "cfg", "intro"),
    ("a/b.c.gif", "a", "b.c.gif", "gif", "b.c"),
    ("a/.cfg", "a", ".cfg", "", ".cfg"),
    ("a/..", "a", "..", "", ".."),
    ("a/x.", "a", "x.", "", "x"),
    ("", "", "", "", ""),
  ]

  /// A JUnit class is the job's folder relative to the working folder when
  /// inside it, else absolute, `.` and `..` resolved from the text.
  @Test func junitClassNameIsTheFolderFromTheWorkingFolder() {
    #expect(BatchReport.junitClassName(file: "/ci/jobs/./x/../y/a.cfg", workingFolder: "/work") == "transvid./ci/jobs/y")
    #expect(BatchReport.junitClassName(file: "../jobs/a.cfg", workingFolder: "/ci/checkout") == "transvid./ci/jobs")
    #expect(BatchReport.junitClassName(file: "/ci/checkout/x/../a.cfg", workingFolder: "/ci/checkout/") == "transvid")
    #expect(BatchReport.junitClassName(file: "./a.cfg", workingFolder: "/ci/checkout") == "transvid")
    #expect(BatchReport.junitClassName(file: "/ci/jobs/a.cfg", workingFolder: "/") == "transvid.ci/jobs")
    #expect(BatchReport.junitClassName(file: "/ci/checkout2/a.cfg", workingFolder: "/ci/checkout") == "transvid./ci/checkout2")
  }

  @Test func answersAsNSStringDoes() {
    for (path, folder, name, ext, base) in Self.answered {
      let ns = path as NSString
      #expect(PathText.folder(of: path) == folder, "\(path)")
      #expect(PathText.folder(of: path) == ns.deletingLastPathComponent, "\(path)")
      #expect(PathText.fileName(of: path) == name, "\(path)")
      #expect(PathText.fileName(of: path) == ns.lastPathComponent, "\(path)")
      #expect(PathText.fileExtension(of: path) == ext, "\(path)")
      #expect(PathText.fileExtension(of: path) == ns.pathExtension, "\(path)")
      #expect(PathText.baseName(of: path) == base, "\(path)")
    }
  }

  /// Where NSString traps (not called here): the answers it gives the
  /// same paths written without the repeated or trailing slashes.
  @Test func answersWhereNSStringTraps() {
    #expect(PathText.folder(of: "r") == "")
    #expect(PathText.folder(of: "é") == "")
    #expect(PathText.folder(of: "a/") == "")
    #expect(PathText.folder(of: "./") == "")
    #expect(PathText.folder(of: "a///") == "")
    #expect(PathText.folder(of: "a//é") == "a")
    #expect(PathText.fileName(of: "a//é") == "é")
    #expect(PathText.fileName(of: "r") == "r")
    #expect(PathText.fileExtension(of: "jobs//é") == "")
    #expect(PathText.fileExtension(of: "a//é.cfg") == "cfg")
    #expect(PathText.baseName(of: "a//é.cfg") == "é")
  }

  /// `--report r` (a file of one letter in the current folder) wrote its
  /// report; it trapped after rendering the jobs.
  @Test func reportOfOneLetter() throws {
    let binary = try #require(transvidBinary(), "build the executable first (swift build --build-tests)")
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(smallJob(name: "j"), to: "j.cfg", in: dir)
    let process = Process()
    process.executableURL = binary
    process.arguments = ["j.cfg", "-q", "--report", "r"]
    process.currentDirectoryURL = URL(fileURLWithPath: dir)
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    let jobs = try reportJobs(path(dir, "r"))
    #expect(jobs.map { $0["status"] as? String } == ["rendered"])
    #expect((jobs.first?["outputs"] as? [[String: Any]])?.first?["file"] as? String == "out/j.mp4")
  }
}
