import Motion

/// The spring solver's cost per sample at t ≈ 0.1 s and t ≈ 10 s: a closed
/// form costs the same at both; a stepping solver would cost 100× more late.
/// Returns nanoseconds per sample for each (median of `runs`).
func springCostPerSample(runs: Int, samples: Int = 1_000_000) -> (early: Double, late: Double) {
  // UIKit's usingSpringWithDamping: 0.55, initialSpringVelocity: 1/0.55 over 0.75 s,
  // evaluated as CASpringAnimation does (no snap: we want the solver itself).
  let spring = Spring(duration: 0.75, dampingRatio: 0.55, initialVelocity: 1 / 0.55)
  func measure(from start: Double) -> Double {
    var times: [Double] = []
    var sink = 0.0
    for _ in 0..<max(runs, 1) {
      let t0 = threadTime()
      for i in 0..<samples {
        // Distinct times, so nothing is hoisted out of the loop.
        sink += spring.position(at: start + Double(i) * 1e-9)
      }
      times.append((threadTime() - t0) / Double(samples) * 1e9)
    }
    if sink.isNaN { print("unexpected NaN") }
    return times.sorted()[times.count / 2]
  }
  return (measure(from: 0.1), measure(from: 10))
}
