// The only file of transvid that calls the C library directly for the files a
// run reads from a job or writes for the user. Two rules live here and nowhere
// else:
//
// - Reading an input the user names (an image): it must be a regular file
//   (a FIFO would block forever, `/dev/zero` never ends) of at most a given
//   number of bytes, checked with `fstat` on the opened descriptor and again
//   while reading (a file can grow).
// - Writing a file: the bytes go to a new file created with
//   `O_EXCL | O_NOFOLLOW` and mode 0666 less the umask (`newFileMode`)
//   inside a fresh folder only this process can enter
//   (`mkdtemp`, mode 0700, beside the target so `rename` stays on one file
//   system), which is then renamed onto the target. A symlink planted where
//   the temp file will be cannot exist (the folder is new and private), and a
//   target that is not a regular file or symlink (a device node, a FIFO, a
//   folder) is refused rather than renamed over.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// File-system helpers for the media sinks and sources, and for every other
/// file the command line writes.
public enum Platform {
  /// Sequence number that keeps temp names unique within this process.
  private static let tempCounter = Atomic<Int>(0)

  /// The mode every file transvid writes is created with, less the umask:
  /// what `cp` and the shell's `>` give a new file (0644 under umask 022,
  /// 0664 under a shared folder's 002), the same for every format, whether
  /// rendered or copied from a store.
  static let newFileMode: mode_t = 0o666

  /// Creates the file `path`, which must not exist (`O_EXCL`, and
  /// `O_NOFOLLOW`: a link there is refused, not followed), with
  /// `newFileMode`, open for writing; returns its descriptor.
  static func createExclusively(_ path: String, for target: String) throws(MediaError) -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, newFileMode)
    guard fd >= 0 else { throw MediaError("write '\(target)'", errnoMessage()) }
    return fd
  }

  /// Creates the empty file `path` as `createExclusively` does, for a
  /// writer that opens it by its name (FFmpeg's muxers).
  static func createEmpty(_ path: String, for target: String) throws(MediaError) {
    close(try createExclusively(path, for: target))
  }

  /// A temp path beside `path`, in the same directory so that `rename` is
  /// atomic: `dir/.<name>.tmp-<pid>-<n>`. Only for paths inside a folder the
  /// run owns (a staging folder); the writers create it with
  /// `createExclusively`.
  static func temporaryPath(besides path: String) -> String {
    let n = tempCounter.add(1, ordering: .relaxed).newValue
    let (dir, name) = split(path)
    return "\(dir).\(name).tmp-\(getpid())-\(n)"
  }

  /// `("dir/", "name")`; the directory part is empty for a bare name.
  static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return ("", path) }
    return (String(path[...slash]), String(path[path.index(after: slash)...]))
  }

  /// The text of the current `errno`.
  static func errnoMessage(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
  }

  /// What kind of file `mode` describes, for messages: "a FIFO", "a folder"…
  static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a folder"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    case S_IFREG: "a regular file"
    default: "a file of unknown kind"
    }
  }

  // MARK: - Reading

  /// Opens `path` for reading when it is a regular file of at most `maxBytes`
  /// bytes; returns the descriptor and the size. `O_NONBLOCK` keeps a FIFO
  /// from blocking the open (it is refused after `fstat`).
  private static func openRegular(_ path: String, maxBytes: Int) throws(MediaError) -> (Int32, Int) {
    let operation = "read '\(path)'"
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw MediaError(operation, errnoMessage()) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw MediaError(operation, errnoMessage(code))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      if info.st_mode & S_IFMT == S_IFDIR { throw MediaError(operation, errnoMessage(EISDIR)) }
      throw MediaError(operation, "not a regular file (\(kind(info.st_mode)))")
    }
    let size = Int(info.st_size)
    guard size <= maxBytes else {
      close(fd)
      throw MediaError(operation, tooBig(size, maxBytes))
    }
    return (fd, size)
  }

  private static func tooBig(_ size: Int, _ maxBytes: Int) -> String {
    "the file is \(size) bytes, over the limit of \(maxBytes)"
  }

  /// Checks, without reading it, that `path` is a regular file of at most
  /// `maxBytes` bytes that this process may open.
  public static func checkRegularFile(_ path: String, maxBytes: Int) throws(MediaError) {
    let (fd, _) = try openRegular(path, maxBytes: maxBytes)
    close(fd)
  }

  /// The whole content of the regular file at `path`, at most `maxBytes`
  /// bytes (a file that grows past it while being read is refused too).
  public static func readRegularFile(_ path: String, maxBytes: Int) throws(MediaError) -> [UInt8] {
    let (fd, size) = try openRegular(path, maxBytes: maxBytes)
    defer { close(fd) }
    var result: [UInt8] = []
    result.reserveCapacity(size)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw MediaError("read '\(path)'", errnoMessage())
      }
      if n == 0 { return result }
      guard result.count + n <= maxBytes else { throw MediaError("read '\(path)'", tooBig(result.count + n, maxBytes)) }
      result.append(contentsOf: chunk[0..<n])
    }
  }

  // MARK: - Folders

  /// Creates the folder `path` and any missing parents. An existing folder
  /// (or symlink to one) is fine; anything else in the way is an error
  /// naming it: `create folder 'out/x': 'out' is a regular file`.
  public static func createDirectories(_ path: String) throws(MediaError) {
    try walkDirectories(path, creating: true)
  }

  /// Throws what `createDirectories(path)` would for something in the way
  /// (a file where a folder should be), creating nothing.
  public static func checkDirectories(_ path: String) throws(MediaError) {
    try walkDirectories(path, creating: false)
  }

  /// Throws when this process could not add anything to the folder `path`
  /// (`""`: the working folder) or, while it is missing, to the deepest
  /// folder on its way that exists, where its missing folders would be
  /// made: a read-only mount, a folder without write permission for the
  /// effective user. Creates nothing; `operation` names what would be written.
  public static func checkCanCreate(in path: String, operation: String) throws(MediaError) {
    var folder = path
    while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
    if folder.isEmpty { folder = "." }
    var info = stat()
    while stat(folder, &info) != 0 {
      guard let slash = folder.lastIndex(of: "/") else {
        folder = "."
        break
      }
      folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
    }
    guard faccessat(AT_FDCWD, folder, W_OK | X_OK, AT_EACCESS) == 0 else {
      throw MediaError(operation, "'\(folder)' cannot be written: \(errnoMessage())")
    }
  }

  private static func walkDirectories(_ path: String, creating: Bool) throws(MediaError) {
    let operation = "create folder '\(path)'"
    guard !path.isEmpty else { throw MediaError(operation, "the path is empty") }
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += component
      var info = stat()
      if stat(prefix, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else {
          throw MediaError(operation, "'\(prefix)' is \(kind(info.st_mode))")
        }
      } else if let target = danglingLink(prefix) {
        // `mkdir` says such a link exists, and every file made through it that its folder does not.
        throw MediaError(operation, "'\(prefix)' is a symbolic link to '\(target)': \(errnoMessage())")
      } else if !creating {
        return
      } else if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
        throw MediaError(operation, errnoMessage())
      }
      prefix += "/"
    }
  }

  /// What the symbolic link `path` points to, when `path` is one that
  /// `stat` cannot follow (its target missing, or a loop); nil otherwise.
  /// Keeps `errno` as the failed `stat` left it.
  private static func danglingLink(_ path: String) -> String? {
    let code = errno
    defer { errno = code }
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Creates the folder `path` (its parent must exist), failing if anything
  /// is already there: a folder this process made and owns, mode 0700.
  public static func createPrivateDirectory(_ path: String) throws(MediaError) {
    guard mkdir(path, 0o700) == 0 else { throw MediaError("create folder '\(path)'", errnoMessage()) }
  }

  // MARK: - Writing

  /// Refuses a target that exists and is neither a regular file nor a
  /// symbolic link (renaming onto a link replaces the link, not its target).
  public static func checkReplaceable(_ path: String) throws(MediaError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    let type = info.st_mode & S_IFMT
    guard type == S_IFREG || type == S_IFLNK else {
      throw MediaError("write '\(path)'", "it is \(kind(info.st_mode)), not a regular file; transvid writes only regular files")
    }
  }

  /// Renames `source` to `destination`, replacing it atomically; a
  /// destination that is not a regular file is refused (see `checkReplaceable`).
  public static func move(_ source: String, to destination: String) throws(MediaError) {
    try checkReplaceable(destination)
    if rename(source, destination) != 0 {
      let code = errno
      throw MediaError("move into place '\(destination)'", errnoMessage(code))
    }
  }

  /// Removes `path`, ignoring a missing file.
  static func remove(_ path: String) {
    _ = unlink(path)
  }

  /// The size of the file at `path` in bytes, or `nil` when it cannot be stat'ed.
  static func fileSize(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_size)
  }

  /// Writes `bytes` to `path` atomically (see `AtomicFile`), creating
  /// missing parent folders. On failure `path` is untouched and nothing is
  /// left behind.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(MediaError) {
    let file = try AtomicFile(replacing: path)
    do {
      try file.write(bytes)
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
  }
}

/// One file being written: its bytes go to `<folder>/<name>`, where
/// `folder` is a fresh private folder beside `path` (`.<name>.tmp-XXXXXX`,
/// mode 0700, from `mkdtemp`) and the file is created with
/// `O_EXCL | O_NOFOLLOW` (`Platform.createExclusively`); `commit()` renames it onto `path` and removes the
/// folder, `discard()` removes both. A caller that may be interrupted by a
/// signal registers `folder` for deletion.
public struct AtomicFile: Sendable {
  /// Where the file goes.
  public let path: String
  /// The private folder holding the file until `commit()`.
  public let folder: String
  let temporary: String

  /// Creates the private folder (and missing parents of `path`), checking
  /// first that `path` is not something other than a regular file.
  public init(replacing path: String) throws(MediaError) {
    guard !path.isEmpty else { throw MediaError("write ''", "the path is empty") }
    try Self.checkLength(of: path)
    try Platform.checkReplaceable(path)
    let (dir, name) = Platform.split(path)
    // The folder is named without the slash `split` keeps: `create folder 'out'`, not 'out/'.
    if !dir.isEmpty { try Platform.createDirectories(dir == "/" ? dir : String(dir.dropLast())) }
    var template = Array("\(dir).\(name).tmp-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else { throw MediaError("write '\(path)'", Platform.errnoMessage()) }
    self.path = path
    folder = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    temporary = folder + "/" + name
  }

  /// Throws what `init(replacing: path)` would for `path` itself (not a
  /// regular file), for a folder on its way (a file where a folder should
  /// be) or for the folder it goes in (one that cannot be written, where
  /// neither the private folder nor a missing folder could be made),
  /// creating nothing: a target refused before any work is done.
  public static func check(replacing path: String) throws(MediaError) {
    guard !path.isEmpty else { throw MediaError("write ''", "the path is empty") }
    try checkLength(of: path)
    try Platform.checkReplaceable(path)
    let (dir, _) = Platform.split(path)
    if !dir.isEmpty { try Platform.checkDirectories(dir) }
    try Platform.checkCanCreate(in: dir, operation: "write '\(path)'")
  }

  /// Throws when the private folder or the file in it would have a name
  /// or path longer than the system takes: the folder is named by the
  /// file's name and 12 bytes more (`.` and `.tmp-XXXXXX`), at most
  /// NAME_MAX, and the file in it by a path under PATH_MAX.
  static func checkLength(of path: String) throws(MediaError) {
    let (dir, name) = Platform.split(path)
    let folderName = name.utf8.count + 12
    if folderName > PathLimits.longestName {
      throw MediaError(
        "write '\(path)'",
        "its name is \(name.utf8.count) bytes long; the system takes \(PathLimits.longestName - 12) with transvid's temporary suffix")
    }
    let temporary = dir.utf8.count + folderName + 1 + name.utf8.count
    if temporary > PathLimits.longestPath {
      throw MediaError(
        "write '\(path)'",
        "its path is \(path.utf8.count) bytes long; with transvid's temporary folder it would be \(temporary)"
          + PathLimits.pathClause)
    }
  }

  /// Writes all of `bytes` into the temp file (created here, exclusively).
  public func write(_ bytes: [UInt8]) throws(MediaError) {
    let fd = try Platform.createExclusively(temporary, for: path)
    var offset = 0
    var failure: Int32 = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        failure = errno
        break
      }
      offset += n
    }
    if close(fd) != 0 && failure == 0 { failure = errno }
    if failure != 0 { throw MediaError("write '\(path)'", Platform.errnoMessage(failure)) }
  }

  /// Renames the written file onto `path` and removes the private folder.
  public func commit() throws(MediaError) {
    try Platform.move(temporary, to: path)
    _ = rmdir(folder)
  }

  /// Removes the temp file and the private folder.
  public func discard() {
    Platform.remove(temporary)
    _ = rmdir(folder)
  }
}
