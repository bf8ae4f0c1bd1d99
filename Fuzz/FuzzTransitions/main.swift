// FuzzTransitions: transition parameters and curves → the renderer, at a
// tiny canvas. The input is the text of one push step's parameters (after
// its first byte, which picks the transition from the catalog), placed in a
// job of two 8×12-point screens; a second line, if any, becomes the pop's
// parameters. Whatever the text, the job must parse to a spec or a
// `Diagnostic`, and every frame of a parsed job must render without a trap
// and with only finite numbers in its layer trees (a NaN or infinity that
// reached the compositor is a bug even when the rasterizer drops it).
//
//   scripts/fuzz SECONDS transitions   runs libFuzzer on it
//   swift run FuzzTransitions FILE|DIR ...   replays inputs in a plain build

import FuzzSupport
import Jobs
import Rendering
import Raster
import Transitions

/// The job for an input: transition `name`, push parameters, pop parameters.
func job(transition name: String, push: String, pop: String) -> String {
  """
  canvas: { size: 8x12, scale: 1, fps: 10 }
  output: { formats: [png] }
  screens:
    a:
      background: "#FF0000"
      views: [{ id: v, frame: [1, 1, 3, 3], color: "#00FF00", corner: 1 }]
    b:
      background: "#0000FF"
      views: [{ id: w, frame: [2, 2, 4, 5], color: systemBlue }]
  timeline:
    - push: { to: b, transition: \(name), \(push) }
    - pop: { \(pop) }

  """
}

/// Traps (so libFuzzer reports the input) when a number in `value` — a layer
/// tree, walked by reflection — is NaN or infinite.
func requireFinite(_ value: Any, _ path: String = "layer") {
  if let d = value as? Double {
    if !d.isFinite { fatalError("\(path) = \(d) reached the compositor") }
    return
  }
  if let f = value as? Float {
    if !f.isFinite { fatalError("\(path) = \(f) reached the compositor") }
    return
  }
  // Bitmaps hold bytes only; skip their pixel arrays.
  if value is Bitmap || value is [UInt8] { return }
  for child in Mirror(reflecting: value).children {
    requireFinite(child.value, path + "." + (child.label ?? "?"))
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransitions(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 1 else { return 0 }
  let names = Catalog.all.map(\.name)
  let name = names[Int(data[0]) % names.count]
  let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
  let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
  let source = job(transition: name, push: String(lines[0]), pop: lines.count > 1 ? String(lines[1]) : "")
  // At most 40 frames: a longer job repeats the same code at more times, and
  // each frame's tree is walked by reflection (140 frames took 13 s under ASan).
  guard let spec = try? JobParser.parse(source, file: "fuzz.cfg", limits: JobLimits(maxFrames: 40)) else { return 0 }
  let renderer = FrameRenderer(spec: spec)
  for n in 0..<renderer.frameCount {
    if let layers = renderer.layers(ofFrame: n) { requireFinite(layers) }
    _ = renderer.frame(n, width: spec.canvas.pixelWidth, height: spec.canvas.pixelHeight)
  }
  return 0
}

exit(fuzzMain(fuzzTransitions))
