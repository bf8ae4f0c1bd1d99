// The golden vectors of shared/reference/timing_vectors.json (TIMING.md),
// decoded once. The file is found relative to this source file: the
// repository sits beside `shared/` (CI); elsewhere set TRANSVID_SHARED to
// the folder.
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

  enum LoadError: Error, CustomStringConvertible {
    case notFound([String])
    var description: String {
      switch self {
      case .notFound(let paths): "timing_vectors.json not found at \(paths.joined(separator: ", "))"
      }
    }
  }

  /// `<repo>/../shared/reference/timing_vectors.json`, else `$TRANSVID_SHARED/reference/…`.
  static func locate(from sourceFile: String = #filePath) throws -> URL {
    let repository = URL(fileURLWithPath: sourceFile)
      .deletingLastPathComponent()  // MotionTests
      .deletingLastPathComponent()  // Tests
      .deletingLastPathComponent()  // the repository
    let candidates = [
      repository.deletingLastPathComponent().appendingPathComponent("shared"),
      // A git worktree one level further down (`<work>/wt/<name>`).
      repository.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared"),
      ProcessInfo.processInfo.environment["TRANSVID_SHARED"].map { URL(fileURLWithPath: $0) },
    ].compactMap { $0 }.map { $0.appendingPathComponent("reference/timing_vectors.json") }
    if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
      return found
    }
    throw LoadError.notFound(candidates.map(\.path))
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
