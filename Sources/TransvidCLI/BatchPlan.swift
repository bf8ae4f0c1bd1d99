import Dispatch
import Foundation
import Jobs
import Media
import Rendering
import Synchronization

/// Why a job did not render: the text printed (`FILE:LINE:COL: error: …`) and,
/// when the problem is inside the job file, where. The one error type for a
/// failed job: parsing, planning, writing and the runner all throw or wrap it.
struct JobFailure: Error, Sendable, CustomStringConvertible {
  var description: String
  var location: SourceLocation?

  init(_ diagnostic: Diagnostic) {
    description = diagnostic.description
    location = diagnostic.location
  }

  init(file: String, message: String) {
    description = "\(SourceLocation.shown(file)): error: \(message)"
    location = nil
  }

  init(description: String, location: SourceLocation?) {
    self.description = description
    self.location = location
  }

  init(file: String, error: any Error) {
    if let diagnostic = error as? Diagnostic {
      self.init(diagnostic)
    } else if let failure = error as? JobFailure {
      self = failure
    } else {
      self.init(file: file, message: "\(error)")
    }
  }
}

/// The folders given hold no job file: exit status 1 (a CI step that
/// checks or renders nothing has failed), not a usage error.
struct NoJobsFound: Error, CustomStringConvertible {
  var inputs: [String]

  var description: String {
    "no jobs found in \(inputs.joined(separator: ", ")) (a folder stands for the "
      + BatchPlan.jobExtensions.map { "*.\($0)" }.joined(separator: ", ") + " files below it)"
  }
}

/// One job file of a batch, parsed and placed: where its outputs go, what it
/// costs, which shard renders it.
struct PlannedJob: Sendable {
  /// The job file's path as found.
  var file: String
  /// The parsed job, or nil when the file is broken.
  var spec: JobSpec?
  /// Set when the job cannot render (broken file, an output another job claims).
  var failure: JobFailure?
  /// The job's name, the outputs' (`<name>.<locale>.<appearance>`), also
  /// when it fails after parsing (an image missing, an output another job
  /// claims); the file name when the file does not parse.
  var name: String
  var formats: [OutputFormat] = []
  var directory: String = ""
  /// One path per format, `<dir>/<name>.<ext>`.
  var outputs: [String] = []
  /// Frames per output.
  var frames = 0
  var pixelWidth = 0, pixelHeight = 0
  /// Seconds of video: `frames` at the canvas rate (1.5 s at 25 fps is 38
  /// frames, 1.52 s), as the outputs' lines give it.
  var duration = 0.0
  /// Transition names in timeline order, without repeats.
  var transitions: [String] = []
  /// Estimated work: frames × pixels × formats, plus the pixels its
  /// screens' snapshots draw; 0 for a broken job.
  var cost = 0
  /// 1-based shard of `BatchPlan.shardCount`.
  var shard = 1
  /// Its place in the batch (0-based): the order the jobs are found in, the
  /// same in every shard, since each plans the whole batch.
  var position = 0
  /// Which of its file's jobs this is (one per locale and appearance), in `place`'s order.
  var unit = 0
  /// The String Catalog the job reads (`strings: FILE`), resolved against the job's folder.
  var catalog: String?
  /// Whether the job lists none of `--locale`'s codes (`BatchPlan.init` leaves it out, or fails it).
  var listsNoneWanted = false
  /// The locales its file lists (`locales:`).
  var listedLocales: [String] = []

  /// Which job of the batch this is: its file and its `unit` there (the
  /// jobs of one file, its locales and appearances, share the file).
  struct ID: Hashable, Sendable {
    var file: String
    var unit: Int
  }

  var id: ID { ID(file: file, unit: unit) }

  /// The file (as messages show it: `SourceLocation.shown`), and for one of
  /// a file's several jobs (a locale, an appearance) its name:
  /// `jobs/locales.cfg (locales.ar)`, for text rows.
  var label: String {
    let file = SourceLocation.shown(file)
    return spec?.locale != nil || spec?.appearance != nil ? "\(file) (\(name))" : file
  }

  /// The cache record beside the outputs, named by the job and its formats:
  /// two jobs of one name writing different formats into one folder keep
  /// one record each (`.transvid-cache/<name>.<format>+<format>.json`), and
  /// one set of formats has one, in whatever order listed (`OutputCache.keyOrder`).
  var recordPath: String {
    let formats = OutputCache.keyOrder(formats).map(\.rawValue).joined(separator: "+")
    return (directory as NSString).appendingPathComponent(".transvid-cache/\(name).\(formats).json")
  }
}

/// Every job of a batch, in a stable order, before anything renders.
struct BatchPlan: Sendable {
  var jobs: [PlannedJob]
  var shardCount: Int
  /// A usage error: `--locale` names codes no job of the run lists.
  var unlistedLocales: String?
  /// Job files `--locale` leaves out: they list none of its codes.
  var notRendered: [String] = []

  /// The line saying which job files `--locale` leaves out, if any.
  func notRenderedNote(options: Options) -> String? {
    guard !notRendered.isEmpty, let wanted = options.locales else { return nil }
    let count = notRendered.count == 1 ? "1 job that lists" : "\(notRendered.count) jobs that list"
    return "transvid: note: --locale \(wanted.joined(separator: ",")) leaves out \(count) none of its locales: "
      + notRendered.joined(separator: ", ")
  }

  /// The extensions of job files a folder stands for (named files may have any).
  static let jobExtensions = ["cfg", "yaml", "yml"]

  /// Every job file named by `inputs`: files as given, directories searched
  /// recursively for `jobExtensions` (`FolderListing`: a linked folder
  /// where it lives, links inside to files only; a folder below it that
  /// cannot be read is listed too, and fails as a job), each directory's files sorted by path
  /// (bytewise, so every machine agrees), the same job (`identity(of:)`) never twice. No job
  /// at all is `NoJobsFound`.
  static func findJobs(_ inputs: [String]) throws -> [String] {
    var jobs: [String] = []
    var seen = Set<String>()
    let fm = FileManager.default
    for input in inputs {
      // A script's unset "$JOB": say so, as `-o ""` does, not "no such file" with no name.
      guard !input.isEmpty else {
        throw Options.UsageError(description: "a job file or folder needs a path, got an empty argument")
      }
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
        // Missing, or there but not to be reached (a loop of links, a folder not searchable): say which.
        var info = stat()
        let code = stat(input, &info) == 0 ? ENOENT : errno
        throw Options.UsageError(
          description: code == ENOENT
            ? "no such file or directory: \(input)" + (RegularFile.notUTF8(input).map { " (\($0))" } ?? "")
            : "cannot read '\(input)': \(String(cString: strerror(code)))")
      }
      var found: [String]
      if isDirectory.boolValue {
        let listing = FolderListing.listing(below: input)
        if let reason = listing.unreadable.first(where: { $0.path.isEmpty })?.reason {
          throw Options.UsageError(description: "cannot read '\(input)': \(reason)")
        }
        // A folder below it that cannot be read is listed as a job of its own, which fails saying so (`place`).
        let unreadable = Set(listing.unreadable.map(\.path))
        found = listing.paths
          .filter { path in
            if unreadable.contains(path) { return true }
            var folder: ObjCBool = false
            // A folder named `x.cfg` is no job file.
            return jobExtensions.contains(PathText.fileExtension(of: path))
              && !path.split(separator: "/").contains { $0.hasPrefix(".") }
              && !(fm.fileExists(atPath: (input as NSString).appendingPathComponent(path), isDirectory: &folder) && folder.boolValue)
          }
          .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
          .map { (input as NSString).appendingPathComponent($0) }
        // Each folder given must hold a job: one left empty among others is as wrong as alone.
        if found.isEmpty { throw NoJobsFound(inputs: [input]) }
      } else {
        found = [input]
      }
      // The same job however it is spelled ('good.cfg', './good.cfg', its absolute path, a linked folder).
      for path in found where seen.insert(identity(of: path)).inserted {
        jobs.append(path)
      }
    }
    guard !jobs.isEmpty else { throw NoJobsFound(inputs: inputs) }
    return jobs
  }

  /// Parses every job and places its outputs. A later job whose output path
  /// an earlier job already claims fails (it is never silently overwritten).
  ///
  /// The files are parsed and placed side by side (for a batch of cached
  /// jobs this is most of the run); the claims are then settled in the
  /// files' order, so the outcome is the same as one by one.
  init(files: [String], options: Options, shardCount: Int) {
    self.shardCount = shardCount
    let placed = Mutex([[PlannedJob]](repeating: [], count: files.count))
    DispatchQueue.concurrentPerform(iterations: files.count) { i in
      let jobs = Self.place(file: files[i], options: options)
      placed.withLock { $0[i] = jobs }
    }
    jobs = placed.withLock { $0.flatMap { $0 } }
    // A link to a job file beside it is the same job when the job names itself (its name and folder
    // decide its outputs): kept once, where first named. Without a `name:` it is named after the link.
    var units = Set<String>()
    jobs.removeAll { job in !units.insert(Self.sameFile(job.file) + "\u{0}\(job.unit)\u{0}" + job.name).inserted }
    if let wanted = options.locales {
      // A code no job lists is a mistake; a job that lists none of them is not rendered.
      let listed = Set(jobs.flatMap(\.listedLocales).map(LocaleSelection.tag))
      let unlisted = wanted.filter { !listed.contains(LocaleSelection.tag($0)) }
      if unlisted.count == wanted.count {
        for i in jobs.indices where jobs[i].listsNoneWanted {
          guard let spec = jobs[i].spec else { continue }
          jobs[i].failure = LocaleSelection.failure(of: spec, file: jobs[i].file, wanted: wanted)
          jobs[i].spec = nil
        }
      } else {
        if !unlisted.isEmpty {
          var all: [String] = []
          for code in jobs.flatMap(\.listedLocales) where !all.contains(code) { all.append(code) }
          all.sort()
          unlistedLocales = "--locale: no job lists \(unlisted.map { "'\($0)'" }.joined(separator: ", ")) (the jobs list \(all.joined(separator: ", ")))"
        }
        notRendered = jobs.filter(\.listsNoneWanted).map(\.file)
        jobs.removeAll { $0.listsNoneWanted }
      }
    }
    var claimed: [String: String] = [:]
    // An output is claimed as the file it lands on: through linked folders and `..`.
    func landing(_ output: String) -> String { PathPolicy.landing(output) ?? Self.absolute(output) }
    for i in jobs.indices {
      for output in jobs[i].outputs {
        if let other = claimed[landing(output)] {
          let message = "output '\(output)' is also written by \(other) (listed first); give one of the two jobs another name"
          // At the job's name, which makes the output's (its file's start when it has no `name`).
          jobs[i].failure =
            if let place = jobs[i].spec?.nameLocation { JobFailure(Diagnostic(place, message)) } else {
              JobFailure(file: jobs[i].file, message: message)
            }
          break
        }
      }
      if jobs[i].failure == nil {
        for output in jobs[i].outputs { claimed[landing(output)] = jobs[i].file }
      }
    }
    // Nor is a file the run reads: a poster named as its own screenshot, a job file named as an output.
    let inputs = Self.inputs(of: jobs)
    for i in jobs.indices where jobs[i].failure == nil {
      for output in jobs[i].outputs {
        guard let resolved = PathPolicy.landing(output), let what = inputs[resolved] else { continue }
        let message = "output '\(output)' would overwrite \(what), which the run reads; give the job another name or output.dir"
        jobs[i].failure =
          if let place = jobs[i].spec?.nameLocation { JobFailure(Diagnostic(place, message)) } else {
            JobFailure(file: jobs[i].file, message: message)
          }
        break
      }
    }
    let shards = Shard.assign(costs: jobs.map(\.cost), keys: Array(jobs.indices), count: shardCount)
    for i in jobs.indices {
      jobs[i].shard = shards[i]
      jobs[i].position = i
    }
  }

  /// Every file `jobs` read — job files, images, fonts (their own files and
  /// the faces fontconfig finds now for the families they name), String
  /// Catalogs — resolved (`PathPolicy.resolve`), with what it is.
  static func inputs(of jobs: [PlannedJob]) -> [String: String] {
    inputs(jobs.map { ($0.file, $0.spec, $0.catalog) })
  }

  /// `inputs(of:)` for job files, their specs if parsed, and their catalogs' resolved paths.
  static func inputs(_ jobs: [(file: String, spec: JobSpec?, catalog: String?)]) -> [String: String] {
    var inputs: [String: String] = [:]
    func take(_ path: String, _ what: String) {
      if let resolved = PathPolicy.resolve(path), inputs[resolved] == nil { inputs[resolved] = what }
    }
    let families = FontLibrary.faces(ofFamilies: Set(jobs.flatMap { $0.spec?.fontFamilies ?? [] }).sorted())
    for (file, spec, catalog) in jobs {
      take(file, "the job file \(file)")
      for asset in spec?.assets ?? [] { take(asset.resolvedPath, "the image '\(asset.path)' of \(file)") }
      for font in spec?.fontFiles ?? [] {
        take(font.path, "the font '\(spec?.writtenPath(of: font.path) ?? font.path)' of \(file)")
      }
      for family in spec?.fontFamilies ?? [] {
        for face in families[family] ?? [] { take(face.path, "the font '\(face.path)' (family '\(family)') of \(file)") }
      }
      if let catalog { take(catalog, "the String Catalog of \(file)") }
    }
    return inputs
  }

  /// The jobs of one file (one per locale, `JobSpec.localizedJobs`), parsed and
  /// placed; a broken file is one failed job.
  static func place(file: String, options: Options) -> [PlannedJob] {
    // A job file deeper than the kernel opens by path, found by descriptor (`FolderListing`): said, not lost.
    if let why = PathLimits.pathProblem(file) {
      var job = PlannedJob(file: file, name: PathText.baseName(of: file))
      job.failure = JobFailure(file: file, message: "cannot read this job file: \(why); move it to a folder less deep")
      return [job]
    }
    // A folder here is one `findJobs` could not read: the job files in it would be lost without a word.
    // So is a path of no job file's extension whose name is not UTF-8 (`d\xE9mos/`): a folder the listing
    // could not open by the name it spells (a job file, named or found, has a job file's extension).
    var info = stat()
    let found = stat(file, &info) == 0
    let misnamed = !found && !jobExtensions.contains(PathText.fileExtension(of: file)) ? RegularFile.notUTF8(file) : nil
    if found && info.st_mode & S_IFMT == S_IFDIR || misnamed != nil {
      var job = PlannedJob(file: file, name: PathText.fileName(of: file))
      job.failure = JobFailure(
        file: file,
        message: "cannot read this folder (\(misnamed ?? FolderListing.unreadable(file) ?? "it could not be listed")): "
          + "the job files in it are not rendered")
      return [job]
    }
    let units: [Result<JobSpec, Diagnostic>]
    var catalog: String?
    var listed: [String] = []
    do throws(Diagnostic) {
      let parsed = try StageTimings.measure(.parse) { () throws(Diagnostic) in
        try JobParser.load(
          path: file, limits: options.limits, access: options.paths.access(jobFile: file), formats: options.formats)
      }
      catalog = parsed.localization?.stringsFile.map(parsed.resolvedPath(of:))
      guard let chosen = LocaleSelection.all(of: parsed, locales: options.locales) else {
        // None of `--locale`'s codes: the batch decides (`BatchPlan.init`).
        var job = PlannedJob(file: file, name: parsed.name, catalog: catalog)
        job.spec = parsed
        job.listsNoneWanted = true
        job.listedLocales = parsed.localization?.locales ?? []
        return [job]
      }
      units = chosen.map { .success($0) }
      listed = parsed.localization?.locales ?? []
    } catch {
      units = [.failure(error)]
    }
    return units.enumerated().map { unit, parsed in
      var job = PlannedJob(file: file, name: PathText.baseName(of: file), unit: unit, catalog: catalog)
      job.listedLocales = listed
      do throws(Diagnostic) {
        var spec = try parsed.get()
        // A job that parses is known by its name (`<name>.<locale>.<appearance>`), failing or not.
        job.name = spec.name
        try spec.checkLocale()
        let parsedNote = spec.oddCanvasNote(formats: spec.output.formats)
        if options.draft {
          spec.canvas.scale = 1
          // At most 15 whole frames a second: an NTSC rate (29.97) drafts at 15, not at 15 × 1000/1001.
          if spec.canvas.frameRate.value > Double(WatchCommand.draftFPS) {
            spec.canvas.fps = WatchCommand.draftFPS
            spec.canvas.isFractional = false
          }
        }
        if let target = options.target {
          spec = spec.applying(target)
          try spec.checkOutputSizes(
            formats: spec.output.formats, limits: options.limits, frameCount: Timeline(spec: spec).frameCount)
        }
        try options.paths.check(spec, outputDirectoryGiven: options.outputDirectory != nil)
        try AssetLoader.checkFiles(of: spec)
        job.formats = options.formats ?? spec.output.formats
        try spec.checkPlayable(formats: job.formats)
        // The odd-canvas note names the videos this run writes (`--format`, `--target`, `--draft`'s 1x).
        let note = spec.oddCanvasNote(formats: job.formats)
        if let i = spec.notes.firstIndex(where: { $0 == parsedNote }) {
          if let note { spec.notes[i] = note } else { spec.notes.remove(at: i) }
        } else if let note {
          spec.notes.append(note)
        }
        job.spec = spec
        job.directory = Self.outputDirectory(for: spec, options: options)
        job.outputs = job.formats.map {
          (job.directory as NSString).appendingPathComponent("\(spec.name).\($0.writer.fileType.fileExtension)")
        }
        try Self.checkNameLengths(of: job)
        let timeline = Timeline(spec: spec)
        job.frames = timeline.frameCount
        // The video's length, as its writers give it: whole frames of 1/fps.
        job.duration = spec.canvas.frameRate.time(ofFrame: job.frames)
        job.pixelWidth = spec.framePixelWidth
        job.pixelHeight = spec.framePixelHeight
        // Its frames' pixels for each format, and the pixels its screens' snapshots draw, once
        // (`JobSpec.drawnPixels`: a job of few frames may draw for seconds first). Saturating:
        // `--max-pixels` may allow more than an Int holds.
        let framePixels = [job.pixelWidth, job.pixelHeight, max(1, job.formats.count)].reduce(job.frames) { product, factor in
          let (result, overflow) = product.multipliedReportingOverflow(by: factor)
          return overflow ? Int.max : result
        }
        let (cost, overflow) = framePixels.addingReportingOverflow(spec.drawnPixels)
        job.cost = overflow ? Int.max : cost
        for step in spec.timeline {
          if case .transition(let t) = step, !job.transitions.contains(t.transition) {
            job.transitions.append(t.transition)
          }
        }
      } catch {
        job.failure = JobFailure(error)
      }
      return job
    }
  }

  /// The longest file name a job may write: the file systems' 255 bytes,
  /// less the temporary name's `.` and `.tmp-<pid>-<n>` (`Platform`).
  static let maximumFileNameBytes = 255 - 25

  /// Throws at the job's name when a file it would write (an output, its
  /// cache record, whose name lists the formats) has a name longer than
  /// the file system allows: the name's 200 bytes with a locale, an
  /// appearance and eight formats come to more, and the job would render
  /// and then fail to rename its record, in every run.
  static func checkNameLengths(of job: PlannedJob) throws(Diagnostic) {
    guard let spec = job.spec else { return }
    for path in job.outputs + [job.recordPath] {
      let name = PathText.fileName(of: path)
      guard name.utf8.count > maximumFileNameBytes else { continue }
      let message =
        "the file '\(name)' this job writes has a name of \(name.utf8.count) bytes; file systems allow "
        + "\(maximumFileNameBytes) with transvid's temporary suffix (shorten the name\(spec.locale == nil ? "" : ", the locale") "
        + "or write fewer formats)"
      throw spec.nameLocation.map { Diagnostic($0, "name: " + message) } ?? Diagnostic(
        SourceLocation(file: spec.file, line: 1, column: 1), message)
    }
  }

  /// The folder a job's outputs go to: `-o`, else the job's `output.dir`
  /// (relative to the job file), else `out`.
  static func outputDirectory(for spec: JobSpec, options: Options) -> String {
    if let dir = options.outputDirectory { return dir }
    if let dir = spec.output.directory {
      if dir.hasPrefix("/") { return dir }
      return (PathText.folder(of: spec.file) as NSString).appendingPathComponent(dir)
    }
    return "out"
  }

  /// Which job the job file at `path` is: its folder made absolute and
  /// resolved physically (`PathPolicy.resolve`), then its own name as
  /// written. A job's images, fonts, catalog and `output.dir` are found from
  /// the folder the path names, and its default name is the file's, so
  /// `a.cfg`, `./a.cfg`, `jobs/../a.cfg`, the absolute path and the same
  /// file through a linked folder are one job, while a link to the file (in
  /// another folder, with its own images, or under another name) is a job
  /// of its own: resolving the file itself would render one of the two and
  /// silently drop the other. (A link beside the file, of a job that names
  /// itself, writes the same outputs: `init` keeps that one once.)
  static func identity(of path: String) -> String {
    let written = PathText.folder(of: path)
    let folder = written.isEmpty ? "." : written
    let resolved = PathPolicy.resolve(folder) ?? absolute(folder)
    return (resolved == "/" ? "" : resolved) + "/" + PathText.fileName(of: path)
  }

  /// The job file at `path` and the folder its paths are found from, both
  /// resolved physically: what two spellings of one job share even when one
  /// is a link beside the file under another name (`identity(of:)` tells
  /// those apart, as their default names differ). The file is its device
  /// and inode, so a hard link beside it is the file too, as a symbolic
  /// one is; its resolved path when it cannot be stat'ed.
  static func sameFile(_ path: String) -> String {
    let written = PathText.folder(of: path)
    let folder = written.isEmpty ? "." : written
    var info = stat()
    let file =
      stat(path, &info) == 0 ? "\(info.st_dev):\(info.st_ino)" : (PathPolicy.resolve(path) ?? absolute(path))
    return (PathPolicy.resolve(folder) ?? absolute(folder)) + "\u{0}" + file
  }

  /// `path` made absolute against the working directory, `.`/`..` resolved.
  static func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    return (full as NSString).standardizingPath
  }
}
