import Foundation
import Jobs
import Media

/// `transvid frame JOB.cfg --time T -o FRAME.png`: the frame a video would
/// show at `T` seconds (frame ⌊T·fps⌋, the one on screen then:
/// `FrameRate.frame(at:)`), at full canvas size. A time past the last frame
/// shows the last frame and says so. `--locale L` picks one of a
/// job's locales and `--appearance light|dark` one of its appearances
/// (default: the first of each). `-q` prints errors only, as for a render.
/// A job file that is not there, or a
/// folder, is a usage error (exit 2).
enum FrameCommand {
  /// `--appearance` names one the job does not list.
  struct NoSuchAppearance: Error, CustomStringConvertible {
    var job: String, wanted: String, listed: [String]
    var description: String {
      "\(job) has no appearance '\(wanted)' ("
        + (listed.isEmpty ? "it is light only: add appearances: [light, dark]" : "it has \(listed.joined(separator: ", "))")
        + ")"
    }
  }

  /// `--locale` on a job without `locales:`: it has no other language to draw.
  struct NoLocales: Error, CustomStringConvertible {
    var job: String, wanted: String
    var description: String {
      "\(job) has no locale '\(wanted)' (it lists none: add locales: [\(LocaleSelection.listed(wanted))] and its strings)"
    }
  }

  static func run(
    job: String, time: Double, output: String, paths: PathPolicy, limits: JobLimits, locale: String? = nil,
    appearance: String? = nil, quiet: Bool = false, console: Console
  ) -> Int32 {
    // A job file named that is not there, or a folder, is a usage error, as
    // it is for a render, `check` and `watch`: nothing is drawn.
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: job, isDirectory: &isFolder), !isFolder.boolValue else {
      console.error(
        job.isEmpty
          ? "transvid: a job file needs a path, got an empty argument"
          : (isFolder.boolValue
          ? "transvid: 'frame' takes a job file; \(job) is a folder"
          : "transvid: no such file or directory: \(job)"))
      return 2
    }
    do {
      // One PNG: the job's own outputs are not made, so their sizes do not count.
      let parsed = try JobParser.load(path: job, limits: limits, access: paths.access(jobFile: job), formats: [.png])
      if let locale, parsed.localization?.locales.isEmpty ?? true { throw NoLocales(job: job, wanted: locale) }
      let looks = LocaleSelection.all(of: parsed, locales: locale.map { [$0] }) ?? []
      if looks.isEmpty, let locale, let localization = parsed.localization {
        throw LocaleSelection.missing([locale], in: localization)
      }
      // A job without `appearances:` has one, light.
      let chosen = appearance.map { wanted in looks.first { ($0.appearance ?? "light") == wanted } }
      guard let spec = chosen ?? looks.first else {
        throw NoSuchAppearance(job: job, wanted: appearance ?? "", listed: parsed.appearances)
      }
      try spec.checkLocale()
      try paths.check(spec, outputDirectoryGiven: true)
      let catalog = parsed.localization?.stringsFile.map(parsed.resolvedPath(of:))
      if let resolved = PathPolicy.landing(output), let what = BatchPlan.inputs([(job, spec, catalog)])[resolved] {
        console.error("transvid: -o '\(output)' would overwrite \(what); write the frame elsewhere")
        return 2
      }
      try AssetLoader.checkFiles(of: spec)
      let renderer = try AssetLoader.makeRenderer(for: spec)
      // Notes on the job, not on the videos it writes: a frame is a PNG.
      let videoNote = spec.oddCanvasNote(formats: spec.output.formats)
      for note in spec.notes where note != videoNote && !quiet { console.error(note.description) }
      let fps = spec.canvas.frameRate.value
      let last = Swift.max(renderer.frameCount - 1, 0)
      // The frame a player shows at `time`; compared as doubles: it may be beyond any Int.
      let wanted = spec.canvas.frameRate.frame(at: time)
      let n = wanted > Double(last) ? last : Int(wanted)
      // Past the end: at or after the video's end, not a time in the last frame's time on screen.
      if wanted >= Double(renderer.frameCount), !quiet {
        console.error(
          "transvid: note: --time \(String(format: "%g", time)) is past the end of \(job) "
            + "(\(renderer.frameCount) frame\(renderer.frameCount == 1 ? "" : "s"), the last at \(String(format: "%.2f", Double(last) / fps)) s); "
            + "writing the last frame")
      }
      let frame = renderer.frame(n, width: spec.framePixelWidth, height: spec.framePixelHeight)
      try PNGWriter.write(frame, to: output)
      if !quiet { console.print("\(output)  frame \(n) of \(renderer.frameCount)  \(frame.width)x\(frame.height)") }
      return 0
    } catch {
      console.error(error is Diagnostic ? "\(error)" : "transvid: \(error)")
      return 1
    }
  }
}
