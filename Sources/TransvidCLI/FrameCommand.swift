import Jobs
import Media

/// `transvid frame JOB.cfg --time T -o FRAME.png`: the frame a video would
/// show at `T` seconds (frame ⌊T·fps⌉, clamped to the last), at full canvas size.
enum FrameCommand {
  static func run(job: String, time: Double, output: String, console: Console) -> Int32 {
    do {
      let renderer = try AssetLoader.makeRenderer(for: try JobParser.load(path: job))
      let spec = renderer.spec
      let n = Swift.min(Int((time * Double(spec.canvas.fps)).rounded()), Swift.max(renderer.frameCount - 1, 0))
      let frame = renderer.frame(n, width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight)
      try PNGWriter.write(frame, to: output)
      console.print("\(output)  frame \(n) of \(renderer.frameCount)  \(frame.width)x\(frame.height)")
      return 0
    } catch {
      console.error("\(error)")
      return 1
    }
  }
}
