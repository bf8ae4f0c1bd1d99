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
/// points out of it counts as outside. A part that does not exist yet (an
/// output folder to create) may not contain `..`.
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
    for asset in spec.assets where !isAllowed(asset.resolvedPath) {
      throw Self.refusal(asset.location, asset.key, asset.path, resolved: asset.resolvedPath)
    }
    for font in spec.fontFiles where !isAllowed(font.path) {
      throw Self.refusal(font.location, font.key, spec.writtenPath(of: font.path), resolved: font.path)
    }
    if !outputDirectoryGiven, let dir = spec.output.directory {
      let path = dir.hasPrefix("/") ? dir : (jobFolder as NSString).appendingPathComponent(dir)
      if !isAllowed(path) {
        throw Diagnostic(spec.output.directoryLocation, "output.dir: '\(dir)' is outside the job's folder (\(Self.hint))")
      }
    }
  }

  /// The rule for the job file at `jobFile`: whether a path lies inside its
  /// folder or an allowed one.
  func allows(jobFile: String) -> @Sendable (String) -> Bool {
    let jobFolder = PathText.folder(of: jobFile)
    let roots = ([jobFolder.isEmpty ? "." : jobFolder] + allowed).compactMap(Self.resolve)
    return { path in
      guard let resolved = Self.resolve(path) else { return false }
      return roots.contains { $0 == "/" || resolved == $0 || resolved.hasPrefix($0 + "/") }
    }
  }

  /// What parsing the job file at `jobFile` may read (its String Catalog):
  /// the same folders.
  func access(jobFile: String) -> FileAccess {
    let isAllowed = allows(jobFile: jobFile)
    return FileAccess { isAllowed($0) ? nil : "is outside the job's folder (\(Self.hint))" }
  }

  /// Why `path` (at `key`) may not be read: a loop of links, and a link to
  /// nothing, are said as such (they resolve nowhere, so they would
  /// otherwise count as outside, even under `--allow-outside /`).
  static func refusal(_ location: SourceLocation, _ key: String, _ path: String, resolved: String) -> Diagnostic {
    var info = stat()
    if stat(resolved, &info) != 0 {
      let failure = errno
      if failure == ELOOP {
        return Diagnostic(location, "\(key): cannot read '\(path)': \(String(cString: strerror(ELOOP)))")
      }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      if failure == ENOENT, lstat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
        readlink(resolved, &buffer, buffer.count - 1) >= 0
      {
        let target = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Diagnostic(
          location,
          "\(key): cannot read '\(path)': \(String(cString: strerror(ENOENT))) (a symbolic link to \(target))")
      }
    }
    return Diagnostic(location, "\(key): '\(path)' is outside the job's folder (\(hint))")
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
      guard let real = realpath(candidate, nil) else { return nil }
      current = String(cString: real)
      free(real)
    }
    return current
  }
}
