import Foundation
import Jobs
import Media
import Raster

/// Renders a batch of jobs one after another. A job that fails is reported
/// and the others still run; the exit status says whether any failed.
struct BatchRunner {
  let options: Options
  let console: Console

  /// Every job file named by `inputs`: files as given, directories searched
  /// recursively for `*.cfg`, in a stable (sorted) order.
  static func findJobs(_ inputs: [String]) throws -> [String] {
    var jobs: [String] = []
    let fm = FileManager.default
    for input in inputs {
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
        throw Options.UsageError(description: "no such file or directory: \(input)")
      }
      if isDirectory.boolValue {
        let found = (fm.enumerator(atPath: input)?.allObjects as? [String] ?? [])
          .filter { $0.hasSuffix(".cfg") }
          .sorted()
          .map { (input as NSString).appendingPathComponent($0) }
        jobs.append(contentsOf: found)
      } else {
        jobs.append(input)
      }
    }
    return jobs
  }

  func run(inputs: [String]) -> Int32 {
    let jobs: [String]
    do {
      jobs = try Self.findJobs(inputs)
    } catch {
      console.error("transvid: \(error)")
      return 2
    }
    var failed = 0
    for path in jobs {
      do {
        try render(jobAt: path)
      } catch {
        failed += 1
        console.error("\(error)")
      }
    }
    return failed == 0 ? 0 : 1
  }

  /// The folder a job's outputs go to: `-o`, else the job's `output.dir`
  /// (relative to the job file), else `out`.
  func outputDirectory(for spec: JobSpec) -> String {
    if let dir = options.outputDirectory { return dir }
    if let dir = spec.output.directory {
      if dir.hasPrefix("/") { return dir }
      return ((spec.file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(dir)
    }
    return "out"
  }

  func render(jobAt path: String) throws {
    let spec = try JobParser.load(path: path)
    let formats = options.formats ?? spec.output.formats.map(\.rawValue)
    let directory = outputDirectory(for: spec)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let renderer = FrameRenderer(spec: spec)
    for format in formats {
      let output = (directory as NSString).appendingPathComponent("\(spec.name).\(format)")
      let summary = try OutputWriter.write(format: format, renderer: renderer, to: output)
      if !options.quiet { console.print(summary.line) }
    }
  }
}

/// A job that failed for a reason outside its file's contents.
struct JobError: Error, CustomStringConvertible {
  var job: String
  var message: String
  var description: String { "\(job): error: \(message)" }
}
