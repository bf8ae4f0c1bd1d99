// FileKind: what a path is when it is not the regular file a job needs —
// the words of errors such as "not a regular file (a FIFO)", shared by the
// readers of job files, String Catalogs and font files (`Platform` in
// Media says the same of images and outputs).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum FileKind {
  /// The kind of file a `st_mode` file type (`mode & S_IFMT`) is.
  public static func name(of type: mode_t) -> String {
    switch type {
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFDIR: "a folder"
    case S_IFLNK: "a symbolic link"
    case S_IFREG: "a regular file"
    default: "a file of unknown kind"
    }
  }
}
