import Jobs
import Testing

@testable import TransvidCLI

/// The gallery shows each job by what its writers say their files are, not
/// by their names.
@Suite struct GalleryTests {
  /// A rendered job with `formats`, its files named `<name>.<anything>` so
  /// that only the formats can tell the page what they are.
  func result(_ name: String, _ formats: [OutputFormat]) -> JobResult {
    var job = PlannedJob(file: "\(name).cfg", name: name)
    job.formats = formats
    let outputs = formats.enumerated().map { i, _ in
      OutputSummary(path: "/demos/\(name).file\(i)", frames: 1, duration: 1, bytes: 10)
    }
    return JobResult(job: job, status: .rendered, outputs: outputs)
  }

  func card(_ formats: [OutputFormat]) -> String {
    let html = Gallery.html([result("j", formats)], in: "/demos")
    let start = html.range(of: "<figure")!.lowerBound, end = html.range(of: "</figure>")!.upperBound
    return String(html[start..<end])
  }

  /// Sizes are SI, as a job writes them: `maxBytes: 10MB` is 10 000 000
  /// bytes, and a file of that size is 10.0 MB on the page, not 9.5.
  @Test func sizesAreInTheUnitsJobsWriteThem() {
    func facts(_ bytes: [Int]) -> String {
      var r = result("j", bytes.map { _ in .png })
      r.outputs = bytes.enumerated().map { OutputSummary(path: "/demos/j.file\($0)", frames: 1, duration: 1, bytes: $1) }
      let html = Gallery.html([r], in: "/demos")
      let start = html.range(of: "<figcaption><strong>j</strong>\n        <span>")!.upperBound
      return String(html[start...].prefix { $0 != "<" })
    }
    #expect(facts([10_000_000]) == "10.0 MB · rendered")
    #expect(facts([5792, 334_686]) == "340 kB · rendered")
    #expect(facts([999_600]) == "1.0 MB · rendered")
    #expect(facts([999_499]) == "999 kB · rendered")
    #expect(facts([999]) == "999 bytes · rendered")
  }

  @Test func aVideoIsShownWithTheStillAsItsPoster() {
    let html = card([.gif, .sheet, .png, .mp4])
    #expect(
      html.contains(
        "<video poster=\"j.file2\" controls muted loop playsinline preload=\"auto\"><source src=\"j.file3\" type=\"video/mp4\"></video>"))
    #expect(!html.contains("<img"))
  }

  @Test func withoutVideoTheAnimationThenTheStillIsShown() {
    #expect(card([.png, .gif]).contains("<img src=\"j.file1\" alt=\"j\">"))
    #expect(card([.sheet, .png]).contains("<img src=\"j.file1\" alt=\"j\">"))
  }

  /// A contact sheet is linked, and shown only by a job with nothing else
  /// to show (a sheet-only job's card had no picture); a MOV, which a
  /// browser may not play, is only linked beside it.
  @Test func aContactSheetIsShownOnlyWhenNothingElseIs() {
    #expect(card([.sheet]).contains("<img src=\"j.file0\" alt=\"j\">"))
    #expect(card([.sheet]).contains("<a href=\"j.file0\">j.file0</a>"))
    #expect(card([.mov, .sheet]).contains("<img src=\"j.file1\" alt=\"j\">"))
    #expect(card([.sheet, .gif]).contains("<img src=\"j.file1\" alt=\"j\">"))
    #expect(card([.sheet, .png]).contains("<img src=\"j.file1\" alt=\"j\">"))
    let video = card([.sheet, .mp4])
    #expect(!video.contains("<img") && video.contains("<video controls"))
  }

  @Test func webMAndMP4AreSourcesOfOneVideoAndTheMOVIsOnlyLinked() {
    let html = card([.webm, .mp4, .mov, .png])
    #expect(
      html.contains(
        "<video poster=\"j.file3\" controls muted loop playsinline preload=\"auto\"><source src=\"j.file0\" type=\"video/webm\"><source src=\"j.file1\" type=\"video/mp4\"></video>"))
    #expect(!html.contains("video/quicktime") && html.contains("<a href=\"j.file2\">j.file2</a>"))
    // The WebM first whatever the format order: a browser takes the first source it plays, and every one plays H.264.
    #expect(
      card([.mp4, .png, .webm]).contains(
        "<source src=\"j.file2\" type=\"video/webm\"><source src=\"j.file0\" type=\"video/mp4\"></video>"))
  }

  @Test func anAnimatedPNGOrWebPIsAnImage() {
    #expect(card([.png, .apng]).contains("<img src=\"j.file1\" alt=\"j\">"))
    #expect(card([.webp, .png]).contains("<img src=\"j.file0\" alt=\"j\">"))
    #expect(card([.mov]).contains("<a href=\"j.file0\">") && !card([.mov]).contains("<video"))
  }

  /// A job whose only output is a MOV (`--target editor`), which most
  /// browsers do not play, says there is no preview and why above its link,
  /// where its card had its name and a link only, like a job that made no
  /// picture; with a poster or contact sheet, that is shown instead.
  @Test func aMOVAloneSaysThereIsNoPreview() {
    #expect(
      card([.mov]).contains(
        "<p class=\"no-preview\">no preview: most browsers do not play a MOV (ProRes; Safari and QuickTime do): "
          + "j.file0 is linked below</p>"))
    #expect(card([.mov]).contains("<a href=\"j.file0\">j.file0</a>"))
    #expect(!card([.mov, .png]).contains("no-preview") && !card([.mov, .sheet]).contains("no-preview"))
  }

  @Test func aReportWithoutFormatsIsReadByFileName() {
    #expect(GalleryCommand.format(ofFile: "out/a.mp4") == .mp4)
    #expect(GalleryCommand.format(ofFile: "out/a.png") == .png)
    #expect(GalleryCommand.format(ofFile: "out/a.sheet.png") == .sheet)
    #expect(GalleryCommand.format(ofFile: "out/a.apng.png") == .apng)
    #expect(GalleryCommand.format(ofFile: "out/a.txt") == nil)
  }

  /// A job a report lists as failed with some outputs (an older
  /// transvid's, which put each in place as it was written) shows them
  /// and why it stopped.
  @Test func aJobThatFailedPartWayShowsItsError() {
    var failed = result("j", [.png, .mp4])
    failed.status = .failed
    failed.outputs.removeLast()
    failed.failure = JobFailure(file: "j.cfg", message: "output.mp4.maxBytes: 3 kB is not reached")
    let html = Gallery.html([failed], in: "/demos")
    #expect(html.contains("<img src=\"j.file0\" alt=\"j\"><pre class=\"error\">j.cfg: error: output.mp4.maxBytes: 3 kB is not reached</pre>"))
  }

  /// The watch preview's script names its file and key in an inline script:
  /// no job name can close it.
  @Test func thePreviewScriptCannotBeClosedByAName() {
    let name = "</script><img src=x onerror=alert(1)>#"
    let html = Gallery.html([result("j", [.png])], in: "/demos", preview: (script: name + ".preview.js", key: "</script>"))
    #expect(html.components(separatedBy: "</script>").count == html.components(separatedBy: "<script>").count)
    #expect(html.contains("tag.src = \"%3C%2Fscript%3E%3Cimg%20src=x%20onerror=alert(1)%3E%23.preview.js\" + '?'"))
    #expect(html.contains("window.transvidPreviewKey !== \"\\u003c/script\\u003e\""))
  }

  /// An output folder whose name has a colon (`-o http:host:1`, a local
  /// folder) is linked as that folder, never read as a URL scheme.
  @Test func aColonInAFolderNameIsNoScheme() {
    var job = PlannedJob(file: "j.cfg", name: "j")
    job.formats = [.mp4]
    for folder in ["http:host:1", "javascript:alert(1)"] {
      let outputs = [OutputSummary(path: "/demos/\(folder)/j.mp4", frames: 1, duration: 1, bytes: 10)]
      let html = Gallery.html([JobResult(job: job, status: .rendered, outputs: outputs)], in: "/demos")
      let encoded = folder.replacingOccurrences(of: ":", with: "%3A")
      #expect(html.contains("<source src=\"\(encoded)/j.mp4\" type=\"video/mp4\">"), "\(folder)")
      #expect(html.contains("<a href=\"\(encoded)/j.mp4\">j.mp4</a>"), "\(folder)")
      #expect(!html.contains("=\"\(folder)"), "\(folder)")
    }
  }

  /// JSON lines (ndjson, `plan --json`) escape DEL and the C1 controls: the
  /// console wrote them as Swift's `\u{7f}`, which no JSON parser reads.
  @Test func jsonTextEscapesEveryControl() throws {
    let text = JSONText.string("out\u{7F}/\u{85}\u{9F}\u{1B}é")
    #expect(text == "\"out\\u007f/\\u0085\\u009f\\u001bé\"")
    #expect(Console.visible(text) == text)
  }

  /// JUnit attributes keep a name's line breaks and tabs as character
  /// references (a parser turns raw ones into spaces).
  @Test func junitAttributesKeepLineBreaks() {
    #expect(BatchReport.escape("a\nb\tc<", attribute: true) == "a&#10;b&#9;c&lt;")
    #expect(BatchReport.escape("a\nb\tc<") == "a\nb\tc&lt;")
  }
}
