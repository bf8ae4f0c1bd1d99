import Testing

@testable import Motion

@Suite struct CurveSampleTests {
  @Test func timingFunctionTable() throws {
    let rows = AnimationCurve.linear.samples(count: 5)
    #expect(rows.map(\.time) == [0, 0.25, 0.5, 0.75, 1])
    #expect(rows.map(\.value).enumerated().allSatisfy { abs($1 - rows[$0].time) < 1e-12 })
    #expect(rows.allSatisfy { abs($0.velocity - 1) < 1e-12 })
    let eased = AnimationCurve.easeOut.samples(count: 3, duration: 2)
    #expect(eased.map(\.time) == [0, 1, 2])
    #expect(abs(eased[0].velocity - 1 / 0.58 / 2) < 1e-12)
    #expect(eased[2].value == 1 && abs(eased[2].velocity) < 1e-12)
  }

  @Test func springTableEndsSnapped() throws {
    let curve = try AnimationCurve(parsing: "spring(damping: 0.55, velocity: 1.818, duration: 0.75)")
    let rows = curve.samples(count: 4)
    #expect(rows.map(\.time) == [0, 0.25, 0.5, 0.75])
    #expect(rows[0].value == 0 && rows[0].velocity == 1.818)
    guard case .spring(let spring) = curve else { Issue.record("not a spring"); return }
    #expect(rows[1].value == spring.position(at: 0.25))
    #expect(rows[1].velocity == spring.velocity(at: 0.25))
    #expect(rows[3].value == 1 && rows[3].velocity == 0)
  }

  @Test func counts() {
    #expect(AnimationCurve.linear.samples(count: 0).isEmpty)
    #expect(AnimationCurve.linear.samples(count: 1) == [CurveSample(time: 0, value: 0, velocity: 1)])
  }

  @Test func csvFormat() {
    let text = CurveSample.csv(for: [
      CurveSample(time: 0, value: -0.0, velocity: 1.5),
      CurveSample(time: 0.25, value: 0.00001, velocity: -.infinity),
    ])
    #expect(text == "t,value,velocity\n0.0,0.0,1.5\n0.25,1e-05,-inf\n")
    #expect(CurveSample.csv(for: []) == "t,value,velocity\n")
    let lines = CurveSample.csv(for: AnimationCurve.easeInEaseOut.samples(count: 3)).split(separator: "\n")
    #expect(lines.count == 4)
    let middle = lines[2].split(separator: ",")
    #expect(middle.count == 3 && middle[0] == "0.5")
    #expect(abs((Double(middle[1]) ?? 0) - 0.5) < 1e-15)
  }
}
