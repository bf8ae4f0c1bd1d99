// FuzzCommandLine: arguments and environment → `TransvidCommand.run`, the
// whole command line as the executable runs it (options, limits, shards from
// the environment, `frame`, `plan`, `curve`, renders of a tiny job).
//
// The input is NUL-separated fields; a field `NAME=VALUE` whose NAME is one
// of the scheduler variables transvid reads (`JOB_COMPLETION_INDEX`, …) goes
// into the environment, every other field is an argument. Any input must end
// in an exit status (0, 1 or 2), never a trap, a sanitizer report, a hang
// or a huge allocation. Each run happens in a fresh folder holding `j.cfg`
// and `d/k.cfg` (tiny jobs); inputs with a `/` or `..` in a field are
// skipped, so nothing is read or written outside that folder.
//
//   scripts/fuzz SECONDS cli          runs libFuzzer on it
//   swift run FuzzCommandLine FILE|DIR ...   replays inputs in a plain build

import Foundation
import FuzzSupport
import TransvidCLI

let environmentNames: Set<String> = [
  "JOB_COMPLETION_INDEX", "TRANSVID_SHARD_COUNT", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT",
  "SLURM_ARRAY_TASK_MIN",
]

let tinyJob = """
  canvas: { size: 8x12, scale: 1, fps: 10 }
  output: { formats: [mp4] }
  screens:
    a: { background: "#FF0000", views: [{ id: v, frame: [1, 1, 3, 3], color: "#00FF00" }] }
    b: { background: "#0000FF" }
  timeline:
    - hold: 0.1
    - push: { to: b, transition: circle-spread, duration: 0.2 }

  """

/// The folder every run happens in, with its two jobs; removed when the
/// fuzzer exits.
let folder: String = {
  let path = NSTemporaryDirectory() + "transvid-fuzz-cli-\(getpid())"
  try? FileManager.default.removeItem(atPath: path)
  try! FileManager.default.createDirectory(atPath: path + "/d", withIntermediateDirectories: true)
  atexit(removeFolder)
  try! tinyJob.write(toFile: path + "/j.cfg", atomically: false, encoding: .utf8)
  try! tinyJob.replacingOccurrences(of: "#FF0000", with: "#FFFF00").write(
    toFile: path + "/d/k.cfg", atomically: false, encoding: .utf8)
  return path
}()

/// Removes `folder` and all in it.
func removeFolder() { try? FileManager.default.removeItem(atPath: folder) }

/// Removes whatever a run wrote, keeping the two jobs.
func cleanUp() {
  let fm = FileManager.default
  for name in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] where name != "j.cfg" && name != "d" {
    try? fm.removeItem(atPath: folder + "/" + name)
  }
  for name in (try? fm.contentsOfDirectory(atPath: folder + "/d")) ?? [] where name != "k.cfg" {
    try? fm.removeItem(atPath: folder + "/d/" + name)
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
  guard fields.count <= 40, !fields.contains(where: { $0.contains("/") || $0.contains("..") }) else { return 0 }
  var arguments: [String] = []
  var environment: [String: String] = [:]
  for field in fields {
    if let eq = field.firstIndex(of: "="), environmentNames.contains(String(field[..<eq])) {
      environment[String(field[..<eq])] = String(field[field.index(after: eq)...])
    } else {
      arguments.append(field)
    }
  }
  // In the folder for the run only: libFuzzer's own paths are relative to where it started.
  let previous = FileManager.default.currentDirectoryPath
  _ = FileManager.default.changeCurrentDirectoryPath(folder)
  defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
  let quiet = Console(print: { _ in }, error: { _ in })
  let status = TransvidCommand.run(arguments, console: quiet, environment: environment)
  if ![0, 1, 2].contains(status) { fatalError("exit status \(status) for \(arguments) \(environment)") }
  cleanUp()
  return 0
}

exit(fuzzMain(fuzzCommandLine))
