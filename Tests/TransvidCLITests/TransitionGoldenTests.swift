import Foundation
import Jobs
import Media
import Raster
import Rendering
import Testing
import TestSupport

/// Mid-transition frames of every example job (a job with locales: its
/// right-to-left one) against committed goldens
/// (`Goldens/<job>.png`, rendered at 1× and looked at when they were made).
/// A rendering change that moves them fails here; after looking at the new
/// frames, regenerate with `TRANSVID_UPDATE_GOLDENS=1 scripts/test`.
@Suite struct TransitionGoldenTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let jobs = root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("jobs")
  static let goldens = root.appendingPathComponent("Goldens")

  static let examples: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: jobs.path)) ?? [])
    .filter { $0.hasSuffix(".cfg") }.sorted()

  /// The frame in the middle of the job's first transition, at 1×.
  static func midFrame(_ name: String) throws -> Bitmap {
    // A job with locales: its right-to-left locale, mirrored, if it has one.
    let units = try JobParser.load(path: jobs.appendingPathComponent(name).path).localizedJobs()
    var spec = units.first { $0.locale.map(Localization.isRightToLeft) ?? false } ?? units[0]
    spec.canvas.scale = 1
    let renderer = FrameRenderer(spec: spec)
    guard let segment = renderer.timeline.segments.first(where: {
      if case .transition = $0.content { return true } else { return false }
    }) else { throw GoldenError.noTransition(name) }
    let n = Int(((segment.start + segment.duration * 0.4) * Double(spec.canvas.fps)).rounded())
    return renderer.frame(n, width: spec.framePixelWidth, height: spec.framePixelHeight)
  }

  enum GoldenError: Error { case noTransition(String) }

  @Test(arguments: examples)
  func midFrameMatchesGolden(_ name: String) throws {
    let frame = try Self.midFrame(name)
    let golden = Self.goldens.appendingPathComponent((name as NSString).deletingPathExtension + ".png").path
    if ProcessInfo.processInfo.environment["TRANSVID_UPDATE_GOLDENS"] == "1" {
      try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
      try PNGWriter.write(frame, to: golden)
    }
    // Exact: rendering is deterministic, and the frames are opaque, so the
    // PNG round trip (straight alpha in the file) loses nothing.
    let expected = try ImageDecoder.decode(path: golden)
    #expect(expected.width == frame.width && expected.height == frame.height)
    // A Bool, so a failure reports the PSNR rather than both frames' bytes.
    let same = expected.bytes == frame.bytes
    #expect(same, "\(name): differs from \(golden) (PSNR \(psnr(frame, expected)) dB)")
  }
}
