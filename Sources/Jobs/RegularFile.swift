// RegularFile: opening a file a job names — its job file, String Catalog
// or font file — only when it is a regular one. It is opened without
// blocking (a FIFO would wait for a writer) and refused unless `fstat`
// says regular (`/dev/zero` never ends), with errors such as "not a regular
// file (a FIFO)" (`Platform` in Media says the same of images and outputs).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum RegularFile {
  /// Why `path` names no file when its name was read from bytes that are not
  /// UTF-8 (a Latin-1 `caf\xE9.cfg` unpacked from an old archive): the
  /// folder listing and the command line hold U+FFFD in their place, and a
  /// path so spelled is another name, usually of nothing. nil for a path
  /// without U+FFFD.
  public static func notUTF8(_ path: String) -> String? {
    path.contains("\u{FFFD}") ? "its name is not valid UTF-8, and transvid opens files by UTF-8 names: rename it" : nil
  }

  /// Why a file could not be opened or read: `strerror`'s text, or that it
  /// is not a regular file (`kind`: "a FIFO", "a character device", …).
  public struct Failure: Error, CustomStringConvertible {
    public var code: Int32
    public var kind: String?

    public init(code: Int32, kind: String? = nil) {
      self.code = code
      self.kind = kind
    }

    public var description: String { kind.map { "not a regular file (\($0))" } ?? String(cString: strerror(code)) }
  }

  /// A descriptor of the regular file at `path` (the caller closes it) and
  /// its size, or why not.
  public static func open(_ path: String) -> Result<(fd: Int32, size: Int), Failure> {
    let fd = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return .failure(Failure(code: errno)) }
    var info = stat()
    let type = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
    guard type == S_IFREG else {
      let failure = type == 0 ? Failure(code: errno) : type == S_IFDIR ? Failure(code: EISDIR) : Failure(code: 0, kind: kind(type))
      close(fd)
      return .failure(failure)
    }
    return .success((fd, Int(info.st_size)))
  }

  /// The kind of file a `st_mode` file type (`mode & S_IFMT`) is.
  static func kind(_ type: mode_t) -> String {
    switch type {
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "a file of unknown kind"
    }
  }
}

/// `open(2)`, under a name of its own (inside `RegularFile`, `open` is the
/// method above).
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
  open(path, flags)
}
