import Jobs
import Media

#if canImport(Glibc)
import Glibc
#endif

/// Where a job's files go, checked before it renders, making nothing: its
/// output folder can be made (no file in its way), the folder of its cache
/// records is a folder or can be made one (no file, no symbolic link there),
/// and its record and every output is a regular file or nothing (no folder,
/// FIFO or device, which transvid never replaces). A job that passes
/// none of these fails every run whatever it draws, so `transvid check`
/// says the render's own error, and a render says it before drawing a frame.
enum OutputPlace {
  /// Throws the render's error for the first check `job` fails: an error
  /// about its output folder at the job's `output.dir` key when that folder is
  /// the job's own (no `-o`).
  static func check(_ job: PlannedJob, spec: JobSpec, options: Options) throws {
    do {
      try Platform.checkDirectories(job.directory)
    } catch {
      throw located(error, spec: spec, options: options)
    }
    try checkRecordsAndOutputs(of: job)
  }

  /// Throws the render's error when `job` would write where this process
  /// cannot add a file (a read-only mount, no write permission): its output
  /// folder, or while that is missing the deepest folder on its way, where
  /// the render fails to make it. A job up to date there (`upToDate`, asked
  /// only then) passes without `--force`, as its render leaves it be.
  static func checkWritable(_ job: PlannedJob, spec: JobSpec, options: Options, upToDate: () -> Bool) throws {
    let failure: MediaError
    do {
      try Platform.checkCanCreate(in: job.directory, operation: "write the outputs")
      return
    } catch {
      failure = error
    }
    guard options.force || !upToDate() else { return }
    var info = stat()
    guard stat(job.directory, &info) == 0 else {
      // The render makes the folder first and says why it could not, as mkdir(2) says it.
      let reason = failure.message.components(separatedBy: "cannot be written: ").last ?? failure.message
      throw located(MediaError("create folder '\(job.directory)'", reason), spec: spec, options: options)
    }
    throw located(failure, spec: spec, options: options)
  }

  /// `error`, from making or checking `spec`'s output folder, at its
  /// `output.dir` key when the folder is the job's own.
  static func located(_ error: any Error, spec: JobSpec, options: Options) -> any Error {
    guard options.outputDirectory == nil, spec.output.directory != nil else { return error }
    return Diagnostic(spec.output.directoryLocation, "output.dir: \(error)")
  }

  /// Throws when the folder of `job`'s cache records is a symbolic link
  /// (which would carry the records out of the output folder) or has a file
  /// in its way, or its record or an output is neither a regular file nor
  /// missing.
  static func checkRecordsAndOutputs(of job: PlannedJob) throws {
    let records = PathText.folder(of: job.recordPath)
    var info = stat()
    if lstat(records, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
      throw JobFailure(
        file: job.file,
        message: "'\(records)' is a symbolic link; transvid keeps its records in a folder of its own there")
    }
    try Platform.checkDirectories(records)
    try Platform.checkReplaceable(job.recordPath)
    for output in job.outputs { try Platform.checkReplaceable(output) }
  }
}
