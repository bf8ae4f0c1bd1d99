import Jobs
import Media

/// `transvid frame JOB.cfg --time T -o FRAME.png`: the frame a video would
/// show at `T` seconds (frame ⌊T·fps⌉, clamped to the last), at full canvas size.
enum FrameCommand {
  static func run(job: String, time: Double, output: String, paths: PathPolicy, console: Console) -> Int32 {
    do {
      let spec = try JobParser.load(path: job)
      try paths.check(spec, outputDirectoryGiven: true)
      try AssetLoader.checkFiles(of: spec)
      let renderer = try AssetLoader.makeRenderer(for: spec)
      let n = Swift.min(Int((time * Double(spec.canvas.fps)).rounded()), Swift.max(renderer.frameCount - 1, 0))
      let frame = renderer.frame(n, width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight)
      try PNGWriter.write(frame, to: output)
      console.print("\(output)  frame \(n) of \(renderer.frameCount)  \(frame.width)x\(frame.height)")
      return 0
    } catch {
      console.error(error is Diagnostic ? "\(error)" : "transvid: \(error)")
      return 1
    }
  }
}
