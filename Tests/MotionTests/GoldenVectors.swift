// The golden vectors of Tests/Fixtures/timing_vectors.json (see the README
// there and TIMING.md beside it), decoded once. The fixture is part of the
// repository, found relative to this source file.
import Foundation

struct GoldenVectors: Decodable, Sendable {
  struct TimingFunctions: Decodable, Sendable {
    struct Function: Decodable, Sendable {
      let controlPoints: [Double]
      let y: [Double]
    }
    let x: [Double]
    let functions: [String: Function]
  }
  struct Springs: Decodable, Sendable {
    struct Case: Decodable, Sendable {
      let id: String
      let mass, stiffness, damping, initialVelocity: Double
      let omega0, dampingRatio: Double
      let regime: String
      let position, velocity: [Double]
      let positionCaDefault, velocityCaDefault: [Double]?
    }
    let t: [Double]
    let cases: [Case]
  }
  struct UIKitMapping: Decodable, Sendable {
    struct Case: Decodable, Sendable {
      let duration, dampingRatio, initialVelocity: Double
      let mass, omega0, stiffness, damping: Double
      let stiffnessUikitFloatExpf, dampingUikitFloatExpf: Double
      let t, position: [Double]
      let gapAtEndBeforeSnap: Double
    }
    let cases: [Case]
  }
  struct ResponseMapping: Decodable, Sendable {
    struct Response: Decodable, Sendable {
      let dampingRatio, response, mass, stiffness, damping: Double
    }
    struct Bounce: Decodable, Sendable {
      let duration, bounce, dampingRatio, mass, stiffness, damping: Double
      let allowsOverdamping: Bool
    }
    let dampingRatioResponse: [Response]
    let durationBounce: [Bounce]
    // "dampingRatio_response" has a capital inside, which the snake-case
    // strategy does not round-trip; name the converted keys explicitly.
    enum CodingKeys: String, CodingKey {
      case dampingRatioResponse = "dampingratioResponse"
      case durationBounce
    }
  }
  struct PercentDriven: Decodable, Sendable {
    let duration, percentComplete, completionSpeed: Double
    let finishRemainingS, cancelRemainingS, timeOffsetDuringInteractionS: Double
  }

  let timingFunctions: TimingFunctions
  let springs: Springs
  let uikitSpringMapping: UIKitMapping
  let responseMapping: ResponseMapping
  let percentDriven: [PercentDriven]

  /// `Tests/Fixtures/timing_vectors.json` of this repository.
  static func locate(from sourceFile: String = #filePath) -> URL {
    URL(fileURLWithPath: sourceFile)
      .deletingLastPathComponent()  // MotionTests
      .deletingLastPathComponent()  // Tests
      .appendingPathComponent("Fixtures/timing_vectors.json")
  }

  static func load() throws -> GoldenVectors {
    let data = try Data(contentsOf: locate())
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(GoldenVectors.self, from: data)
  }

  /// Decoded once for all suites; a missing or malformed file fails every
  /// test that uses it.
  static let shared: Result<GoldenVectors, any Error> = Result { try load() }
  static func get() throws -> GoldenVectors { try shared.get() }
}

/// |a − b| / max(|b|, tiny).
func relativeError(_ a: Double, _ b: Double) -> Double {
  abs(a - b) / max(abs(b), .leastNormalMagnitude)
}
