import Geometry
import Testing
@testable import Raster

/// A gradient's colours are looked up in a table with at least 256 entries
/// between any two stops, so a ramp over a short stretch of a long axis
/// changes a level at a time, as Core Animation draws it, not in bands.
@Suite struct GradientTableTests {
  /// Black to white over the first 5 % of a 1000-pixel axis, then white:
  /// pixel y is 255 · t / 0.05 (t = (y + ½) / 1000), within a level.
  @Test func aShortRampIsSmooth() {
    var root = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 1000))
    root.backgroundColor = .white
    var layer = Layer(frame: root.bounds)
    layer.gradient = Gradient(
      colors: [Color(red: 0, green: 0, blue: 0), .white, .white], locations: [0, 0.05, 1])
    root.sublayers = [layer]
    for kernels in [KernelSet.simd, .reference] {
      var bitmap = Bitmap(width: 8, height: 1000)
      Compositor(scale: 1, kernels: kernels).render(root, into: &bitmap)
      var worst = 0.0
      for y in 0..<80 {
        let expected = 255 * min(1, (Double(y) + 0.5) / 1000 / 0.05)
        worst = max(worst, abs(Double(bitmap[3, y].g) - expected))
      }
      #expect(worst <= 1, "\(kernels): worst \(worst) levels off the ramp")
    }
  }

  /// Two stops at the ends keep the 256 entries they always had; sixteen
  /// evenly spaced ones get 256 per interval; a hard stop adds none.
  @Test func tableSizes() {
    let black = Color(red: 0, green: 0, blue: 0)
    let sizes = [
      Gradient(colors: [black, .white]).tableSize,
      Gradient(colors: (0..<16).map { $0 % 2 == 0 ? black : .white }).tableSize,
      Gradient(colors: [black, black, .white, .white], locations: [0, 0.5, 0.5, 1]).tableSize,
      Gradient(colors: [black, .white], locations: [0.3, 0.3001]).tableSize,
    ]
    #expect(sizes == [256, 3826, 511, Gradient.maximumTableSize])
  }
}
