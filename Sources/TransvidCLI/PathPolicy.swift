#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs

/// Which files a job file may make transvid read or write: a nightly runner
/// renders job files it did not write, so a job must not read `/etc/passwd`
/// as an image or write its outputs into `../../..`.
///
/// A job's images and its `output.dir` must lie inside the job file's own
/// folder, or inside a folder given with `--allow-outside DIR` (repeatable;
/// `--allow-outside /` allows everything). Paths are compared physically:
/// every part that exists is resolved with `realpath` (symbolic links and
/// `..` as the kernel follows them), so a link inside the job's folder that
/// points out of it counts as outside. The `output.dir` is compared where
/// it lands (`landing`): a `..` below a folder still to be made goes back up
/// through it, as the kernel follows it once the folder is made.
///
/// `-o DIR` on the command line is the user's own choice and is not checked.
struct PathPolicy: Sendable, Equatable {
  /// `--allow-outside` folders, as given.
  var allowed: [String] = []

  /// Throws at the first image or font file, or the `output.dir` when the
  /// command line gives no `-o`, that lies outside the job's folder and
  /// every allowed one.
  func check(_ spec: JobSpec, outputDirectoryGiven: Bool) throws(Diagnostic) {
    let jobFolder = PathText.folder(of: spec.file)
    let isAllowed = allows(jobFile: spec.file)
    let isWritable = allows(jobFile: spec.file, resolving: { Self.landing($0) })
    for asset in spec.assets where !isAllowed(asset.resolvedPath) {
      throw Self.refusal(asset.location, asset.key, asset.path, resolved: asset.resolvedPath)
    }
    for font in spec.fontFiles where !isAllowed(font.path) {
      throw Self.refusal(font.location, font.key, spec.writtenPath(of: font.path), resolved: font.path)
    }
    if !outputDirectoryGiven, let dir = spec.output.directory {
      let path = dir.hasPrefix("/") ? dir : (jobFolder as NSString).appendingPathComponent(dir)
      if !isWritable(path) {
        if let missing = Self.missing(path) {
          throw Diagnostic(spec.output.directoryLocation, "output.dir: cannot use '\(SourceLocation.shown(dir))': \(missing)")
        }
        throw Diagnostic(
          spec.output.directoryLocation, "output.dir: '\(SourceLocation.shown(dir))' is outside the job's folder (\(Self.hint))")
      }
    }
  }

  /// The rule for the job file at `jobFile`: whether a path lies inside its
  /// folder or an allowed one, both resolved by `resolving` (`resolve` for a
  /// file read, `landing` for a folder written).
  func allows(
    jobFile: String, resolving: @escaping @Sendable (String) -> String? = { PathPolicy.resolve($0) }
  ) -> @Sendable (String) -> Bool {
    let jobFolder = PathText.folder(of: jobFile)
    let roots = ([jobFolder.isEmpty ? "." : jobFolder] + allowed).compactMap(resolving)
    return { path in
      guard let resolved = resolving(path) else { return false }
      return roots.contains { $0 == "/" || resolved == $0 || resolved.hasPrefix($0 + "/") }
    }
  }

  /// What parsing the job file at `jobFile` may read (its String Catalog):
  /// the same folders; a path that resolves nowhere is said as missing.
  func access(jobFile: String) -> FileAccess {
    let isAllowed = allows(jobFile: jobFile)
    return FileAccess { path in
      if isAllowed(path) { return nil }
      return Self.missing(path).map { "cannot be read: \($0)" } ?? "is outside the job's folder (\(Self.hint))"
    }
  }

  /// Why `path` resolves nowhere, if it does not because something on it
  /// is missing: a link to nothing (itself or a folder on the way), with
  /// what it points to. Nil for a path that resolves, or fails otherwise.
  static func missing(_ path: String) -> String? {
    guard resolve(path) == nil else { return nil }
    var info = stat()
    guard stat(path, &info) != 0, errno == ENOENT else { return nil }
    // The first link on the way whose target is missing.
    var current = path.hasPrefix("/") ? "" : FileManager.default.currentDirectoryPath
    for part in path.split(separator: "/") where part != "." {
      current += "/" + part
      var linkInfo = stat()
      guard lstat(current, &linkInfo) == 0 else { break }
      if (linkInfo.st_mode & S_IFMT) == S_IFLNK, stat(current, &info) != 0 {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard readlink(current, &buffer, buffer.count - 1) >= 0 else { break }
        let target = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let name = part == path.split(separator: "/").last ? "" : " ('\(part)')"
        return "\(String(cString: strerror(ENOENT))) (a symbolic link\(name) to \(target))"
      }
    }
    return nil
  }

  /// Why `path` (at `key`) may not be read: a loop of links, and a link to
  /// nothing, are said as such (they resolve nowhere, so they would
  /// otherwise count as outside, even under `--allow-outside /`).
  static func refusal(_ location: SourceLocation, _ key: String, _ path: String, resolved: String) -> Diagnostic {
    var info = stat()
    if stat(resolved, &info) != 0 && errno == ELOOP {
      return Diagnostic(location, "\(key): cannot read '\(SourceLocation.shown(path))': \(String(cString: strerror(ELOOP)))")
    }
    if let missing = missing(resolved) {
      return Diagnostic(location, "\(key): cannot read '\(SourceLocation.shown(path))': \(missing)")
    }
    return Diagnostic(location, "\(key): '\(SourceLocation.shown(path))' is outside the job's folder (\(hint))")
  }

  static let hint = "jobs may reach only their own folder; allow another with --allow-outside DIR"

  /// `path` made absolute and resolved physically (see the type's note), or
  /// nil when it cannot be (a dangling link, `..` below a missing folder).
  static func resolve(_ path: String) -> String? {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let parts = absolute.split(separator: "/").map(String.init)
    var current = "/"
    for (i, part) in parts.enumerated() where part != "." {
      let candidate = current == "/" ? "/" + part : current + "/" + part
      var info = stat()
      guard lstat(candidate, &info) == 0 else {
        let rest = parts[i...].filter { $0 != "." }
        if rest.contains("..") { return nil }
        return (current == "/" ? "" : current) + "/" + rest.joined(separator: "/")
      }
      guard let next = entering(part, of: current, at: candidate, info) else { return nil }
      current = next
    }
    return current
  }

  /// The resolved path of `part`, an existing entry (`candidate`, whose
  /// `lstat` is `info`) of the resolved folder `current`. Only a link needs
  /// `realpath`: an entry of a resolved folder is itself resolved and `..`
  /// is its parent, where `realpath` of every part would walk the whole
  /// path again for each. Nil for a link `realpath` cannot follow.
  private static func entering(_ part: String, of current: String, at candidate: String, _ info: stat) -> String? {
    if part == ".." { return PathText.folder(of: current) }
    guard info.st_mode & S_IFMT == S_IFLNK else { return candidate }
    guard let real = realpath(candidate, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }

  /// Where a file written at `path` lands: `path` made absolute and
  /// resolved as the kernel follows it once the folders on the way that do
  /// not exist yet are made, as every writer makes them. Parts that exist
  /// are resolved physically (`resolve`); a `..` below a folder still to
  /// make goes back up through it (`new/../photo.png` lands on
  /// `photo.png`). Nil only where `resolve` fails on a part that exists.
  ///
  /// Checks that a write does not replace a file the run reads compare this,
  /// not `resolve`: that one gives nil for `new/..`, which would let a
  /// write through a folder it makes land on any file unchecked.
  static func landing(_ path: String) -> String? {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    var current = "/"
    // The folders below `current` that do not exist yet.
    var made: [String] = []
    for part in absolute.split(separator: "/").map(String.init) where part != "." {
      if !made.isEmpty {
        if part == ".." { made.removeLast() } else { made.append(part) }
        continue
      }
      let candidate = current == "/" ? "/" + part : current + "/" + part
      var info = stat()
      guard lstat(candidate, &info) == 0 else {
        made.append(part)
        continue
      }
      guard let next = entering(part, of: current, at: candidate, info) else { return nil }
      current = next
    }
    return made.isEmpty ? current : (current == "/" ? "" : current) + "/" + made.joined(separator: "/")
  }
}
