#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs
import Media

/// `transvid watch JOB.cfg [-o DIR] [--format …] [--draft]`: the author's
/// loop. Renders the job at once, then again whenever the job file or a
/// file it reads (an image, a font, its String Catalog) changes, until
/// Ctrl-C (exit 130; `Cancellation` removes any unfinished output, so only
/// complete files are ever in place).
///
/// - Changes are seen through inotify on the folders that hold those files
///   (editors often save by writing a new file and renaming it over the old
///   one, which a watch on the file itself would lose), and a burst of events
///   is one change: rendering starts after `quiet` without another event.
///   Folders are watched from before the files in them are read, so an edit
///   saved while a render runs (the first included) renders again after it.
///   A folder not there yet (`shots/` of screenshots still to be exported),
///   or removed and made again, is watched for from the nearest folder above
///   it that is (`FileWatcher`).
/// - A render goes through `BatchRunner.render`, as in a batch: staged and
///   renamed into place, recorded in the cache, so an edit that changes no
///   pixel (a comment) renders nothing.
/// - A broken edit prints its `FILE:LINE:COL: error: …` and the watch goes
///   on, with the files of the last good version still watched. A locale
///   that fails alone (its screenshot not there yet, a string that cannot
///   take the `args`) fails as in a batch: the other locales render, and
///   every locale's files and the String Catalog stay watched.
/// - `--draft` renders at 1× and at most `draftFPS` frames per second.
/// - `<DIR>/<name>.preview.html` is the gallery page of the job; it reloads
///   itself when `<name>.preview.js`, rewritten after every render with the
///   render's cache key, names another key (a `<script>` is loaded again
///   every second: that works from `file://`, where fetching does not).
enum WatchCommand {
  static let draftFPS = 15
  static let quiet: Duration = .milliseconds(200)

  static func run(job: String, options: Options, console: Console) -> Int32 {
    var isFolder: ObjCBool = false
    guard !job.isEmpty else {
      console.error("transvid: a job file needs a path, got an empty argument")
      return 2
    }
    guard FileManager.default.fileExists(atPath: job, isDirectory: &isFolder) else {
      console.error("transvid: no such file: \(job)")
      return 2
    }
    guard !isFolder.boolValue else {
      console.error("transvid: 'watch' takes a job file; \(job) is a folder (render a folder with 'transvid \(job)')")
      return 2
    }
    let watcher: FileWatcher
    do {
      watcher = try FileWatcher()
    } catch {
      console.error("transvid: cannot watch files: \(error)")
      return 1
    }
    let runner = BatchRunner(options: options, console: console, environment: [:])
    var watched = [job]
    watcher.watch(watched)
    while true {
      if let files = renderOnce(job, runner: runner, console: console, watcher: watcher) {
        watched = files
      } else if let catalog = JobParser.catalogPath(ofJobAt: job).flatMap(PathPolicy.resolve), !watched.contains(catalog) {
        // A job whose String Catalog is not there yet does not parse: it waits for that file too.
        watched.append(catalog)
        watcher.watch(watched)
      }
      if !options.quiet { console.print("transvid: watching \(watched.count) file\(watched.count == 1 ? "" : "s"); Ctrl-C stops") }
      watcher.wait(forChangeTo: watched, quiet: quiet)
    }
  }

  /// Plans and renders the job (each of its locales and appearances the
  /// options select), writes the preview; the files it reads (job, images,
  /// fonts, catalog; watched by `watcher` before the render starts), or nil
  /// when it is broken (its error printed).
  static func renderOnce(_ job: String, runner: BatchRunner, console: Console, watcher: FileWatcher? = nil) -> [String]? {
    let plan = BatchPlan(files: [job], options: runner.options, shardCount: 1)
    if let unlisted = plan.unlistedLocales {
      console.error("transvid: \(unlisted)")
      return nil
    }
    let failures = plan.jobs.compactMap(\.failure)
    let files: [String]
    if failures.isEmpty {
      files = watching(job, BatchPlan.inputs(of: plan.jobs), watcher)
    } else {
      // A job that reads but names a file not there yet (an image still to be
      // exported) is watched for it too; a broken one keeps the last good files.
      guard let reads = inputsOfFailing(job, options: runner.options) else {
        console.error(failures[0].description)
        return nil
      }
      guard failures.count < plan.jobs.count else {
        console.error(failures[0].description)
        return watching(job, reads, watcher)
      }
      // The other locales render, as in a batch; each failure is said as its job fails.
      files = watching(job, reads.merging(BatchPlan.inputs(of: plan.jobs)) { first, _ in first }, watcher)
    }
    let mode = ProgressReporter.mode(.plain, quiet: runner.options.quiet, console: console)
    let reporter = ProgressReporter(mode: mode, console: console, jobs: plan.jobs)
    let staging = StagingArea()
    let results = plan.jobs.map { runner.render($0, cache: OutputCache(), staging: staging, reporter: reporter) }
    staging.removeAll()
    if let first = plan.jobs.first, results.allSatisfy({ $0.status != .failed }) {
      let name = unitName(first)
      let page = (first.directory as NSString).appendingPathComponent("\(name).preview.html")
      let script = "\(name).preview.js"
      let key = results.map(\.key).joined(separator: " ")
      do {
        try BatchRunner.writeAtomically(
          "window.transvidPreviewKey = \(JSONText.string(key));\n",
          to: (first.directory as NSString).appendingPathComponent(script))
        try BatchRunner.writeAtomically(
          Gallery.html(results, in: first.directory, preview: (script: script, key: key)), to: page)
        if runner.options.quiet == false { console.print("transvid: preview \(page)") }
      } catch {
        console.error("transvid: cannot write the preview '\(page)': \((error as? MediaError)?.message ?? "\(error)")")
      }
    }
    return files
  }

  /// What `job`, some of whose locales failed, reads: what each locale the
  /// options select reads (`shots/{locale}/x.png` as `shots/fr/x.png`) and
  /// its String Catalog, so that the save of a locale's screenshot, or of a
  /// string one locale could not take, is seen; nil when the file does not parse.
  static func inputsOfFailing(_ job: String, options: Options) -> [String: String]? {
    guard
      let spec = try? JobParser.load(
        path: job, limits: options.limits, access: options.paths.access(jobFile: job), formats: options.formats)
    else { return nil }
    let catalog = spec.localization?.stringsFile.map(spec.resolvedPath(of:))
    let units = LocaleSelection.all(of: spec, locales: options.locales) ?? [spec]
    return BatchPlan.inputs(units.map { (file: job, spec: $0, catalog: catalog) })
  }

  /// The job and every file it reads (`inputs`: images, fonts, String
  /// Catalog), watched by `watcher` from now on.
  static func watching(_ job: String, _ inputs: [String: String], _ watcher: FileWatcher?) -> [String] {
    let files = [job] + inputs.keys.sorted().filter { $0 != PathPolicy.resolve(job) }
    watcher?.watch(files)
    return files
  }

  /// The job's name without the locale and appearance its outputs add
  /// (`<name>.<locale>.<appearance>`): the preview's, for all of them.
  static func unitName(_ job: PlannedJob) -> String {
    var name = job.name
    for part in [job.spec?.appearance, job.spec?.locale].compactMap({ $0 }) where name.hasSuffix("." + part) {
      name.removeLast(part.count + 1)
    }
    return name
  }
}

/// inotify on the folders of some files: `wait(forChangeTo:quiet:)` returns
/// once one of the files was written, replaced, created or removed (since
/// `watch` first named its folder) and no further event about them came for
/// `quiet` (events of other files in those folders do not hold it up).
///
/// A file's folder may not be there yet (screenshots still to be exported to
/// `shots/`), or be removed and made again: each file is watched through the
/// nearest of its folders that exists and that folder's parent, and when a
/// folder on a file's way appears, goes or moves, the watches are set again
/// for what is there now. A folder that goes is a change; one that appears is
/// when a file of ours is already in it (copied in before its watch was set).
final class FileWatcher {
  private let fd: Int32
  /// Watch descriptor → absolute folder.
  private var folders: [Int32: String] = [:]

  init() throws {
    fd = inotify_init1(Int32(IN_CLOEXEC))
    guard fd >= 0 else { throw MediaError("inotify_init1", String(cString: strerror(errno))) }
  }

  deinit { close(fd) }

  /// Watches the folders of `files` from now on (the nearest that exists
  /// and its parent): their events queue until `wait` reads them.
  func watch(_ files: [String]) {
    let mask = UInt32(
      IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_FROM | IN_MOVE_SELF | IN_DELETE_SELF)
    var wanted = Set<String>()
    for file in files.flatMap(Self.paths) {
      var folder = PathText.folder(of: file)
      while folder != "/", !Self.isFolder(folder) { folder = PathText.folder(of: folder) }
      wanted.insert(folder)
      wanted.insert(PathText.folder(of: folder))
    }
    for folder in wanted {
      let wd = inotify_add_watch(fd, folder, mask)
      if wd >= 0 { folders[wd] = folder }
    }
  }

  /// Returns once one of `files` changed since it was first watched
  /// (events queued before this call count) and the burst is over.
  func wait(forChangeTo files: [String], quiet: Duration) {
    let targets = Set(files.flatMap(Self.paths))
    // The folders on the files' way, whose coming and going moves the watches.
    var ways = Set<String>()
    for target in targets {
      var folder = PathText.folder(of: target)
      while ways.insert(folder).inserted, folder != "/" { folder = PathText.folder(of: folder) }
    }
    watch(files)
    /// Whether `events` touch the files (`any`) and change them: an event of
    /// a file; a folder on the way that went, or came with a file of ours in
    /// it. A folder that came or went sets the watches again.
    func touched(_ events: [Event]) -> (changed: Bool, any: Bool) {
      if events.contains(where: { targets.contains($0.path) }) { return (true, true) }
      let moved = events.filter { ways.contains($0.path) && $0.mask & Event.cameOrWent != 0 }
      guard !moved.isEmpty else { return (false, false) }
      watch(files)
      let changed = moved.contains { event in
        event.mask & Event.came == 0
          || targets.contains { $0.hasPrefix(event.path + "/") && access($0, F_OK) == 0 }
      }
      return (changed, true)
    }
    // Block until a watched file changes, then until the burst is over.
    while !touched(readEvents(timeout: -1)).changed {}
    let milliseconds = Int32(quiet.components.seconds * 1000 + quiet.components.attoseconds / 1_000_000_000_000_000)
    while touched(readEvents(timeout: milliseconds)).any {}
  }

  /// An inotify event: the path it is about (a folder's own, when the folder
  /// itself went or moved) and its mask.
  struct Event {
    var path: String
    var mask: UInt32

    /// A name that came into a folder.
    static let came = UInt32(IN_CREATE | IN_MOVED_TO)
    /// A name that came or went, or a watched folder that went or moved.
    static let cameOrWent = came | UInt32(IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF)
  }

  /// Whether `path` is a folder (following links).
  private static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// Where `file` changes: its absolute path, and the file a link there
  /// leads to (a job linked from another folder is edited in that one).
  static func paths(of file: String) -> [String] {
    let absolute = BatchPlan.absolute(file)
    guard let resolved = realpath(absolute, nil) else { return [absolute] }
    defer { free(resolved) }
    let target = String(cString: resolved)
    return target == absolute ? [absolute] : [absolute, target]
  }

  /// The events that arrive within `timeout` ms (-1: wait for one).
  private func readEvents(timeout: Int32) -> [Event] {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&poller, 1, timeout)
    guard ready > 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return [] }
    var events: [Event] = []
    var offset = 0
    let header = MemoryLayout<inotify_event>.size
    while offset + header <= count {
      let (wd, mask, length) = buffer.withUnsafeBytes { raw in
        (
          raw.load(fromByteOffset: offset, as: Int32.self), raw.load(fromByteOffset: offset + 4, as: UInt32.self),
          Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self))
        )
      }
      let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }
      if let folder = folders[wd] {
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
          // The folder itself went, or moved (where its watch would name it
          // wrongly): the watch is dropped, `watch` sets one where it is now.
          if mask & UInt32(IN_MOVE_SELF) != 0 { inotify_rm_watch(fd, wd) }
          folders[wd] = nil
          events.append(Event(path: folder, mask: mask))
        } else {
          events.append(Event(path: (folder as NSString).appendingPathComponent(String(decoding: nameBytes, as: UTF8.self)), mask: mask))
        }
      }
      offset += header + length
    }
    return events
  }
}
