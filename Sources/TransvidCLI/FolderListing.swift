#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The files below a folder named on the command line (`transvid jobs/`,
/// `transvid gallery artifacts/`).
///
/// The folder is searched wherever it lives: a symbolic link to a folder
/// (`ln -s jobs lj; transvid lj`) stands for that folder, so the search
/// starts from its resolved path (`PathPolicy.resolve`); the paths it gives
/// are relative, and the caller joins them to the folder as the user
/// spelled it. Below the start, links are not followed into folders (a link
/// to a folder is listed as an entry, never searched, so no loop of links
/// can make the search endless); a link to a file is listed like the file.
/// Hidden folders (names starting with `.`) are listed but not searched:
/// neither caller takes anything inside them.
///
/// Folders are opened by descriptor (`openat`, relative to an open folder
/// above them), never by their whole path, so a folder deeper than the
/// kernel opens by path (`PATH_MAX`, 4096 bytes) is still searched and its
/// files listed: the caller then says they cannot be opened by the path it
/// has, rather than lose them without a word. A folder that cannot be
/// opened (no read permission) is listed too, with why.
enum FolderListing {
  struct Listing {
    /// Every entry below the folder, relative to it, in no set order, but
    /// the folders it searched: files, links (to files or folders), and
    /// the folders in `unreadable`.
    var paths: [String] = []
    /// The folder itself (`""`) or folders among `paths`, outside hidden
    /// ones, that cannot be read, with why (`Permission denied`).
    var unreadable: [(path: String, reason: String)] = []
  }

  /// A folder's path below the start, as the path from the nearest open
  /// folder above it (an anchor) grows past this many bytes, it is kept
  /// open as the next anchor: every `openat` then names fewer than
  /// `anchorBytes` + 255 bytes, well within `PATH_MAX`.
  static let anchorBytes = 2048

  /// What is below `folder`, and which of its folders cannot be read.
  static func listing(below folder: String) -> Listing {
    let start = PathPolicy.resolve(folder) ?? folder
    var listing = Listing()
    let root = open(start, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard root >= 0 else {
      listing.unreadable.append(("", String(cString: strerror(errno))))
      return listing
    }
    // Open folders that deeper ones are opened from: (how many names deep, descriptor).
    var anchors: [(depth: Int, fd: Int32)] = [(0, root)]
    enum Work { case search([String]), release }
    var work: [Work] = [.search([])]
    while let next = work.popLast() {
      guard case .search(let names) = next else {
        close(anchors.removeLast().fd)
        continue
      }
      let anchor = anchors[anchors.count - 1]
      let relative = names[anchor.depth...].joined(separator: "/")
      let fd = relative.isEmpty ? dup(anchor.fd) : openat(anchor.fd, relative, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      let path = names.joined(separator: "/")
      guard fd >= 0 else {
        listing.unreadable.append((path, String(cString: strerror(errno))))
        listing.paths.append(path)
        continue
      }
      var folders: [String] = []
      let copy = dup(fd)
      if copy >= 0, let stream = fdopendir(copy) {
        while let entry = readdir(stream) {
          let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
          if name == "." || name == ".." { continue }
          var isFolder = Int32(entry.pointee.d_type) == DT_DIR
          if Int32(entry.pointee.d_type) == DT_UNKNOWN {
            var info = stat()
            isFolder = fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
          }
          if isFolder && !name.hasPrefix(".") {
            folders.append(name)
          } else {
            listing.paths.append(path.isEmpty ? name : path + "/" + name)
          }
        }
        closedir(stream)
      } else {
        if copy >= 0 { close(copy) }
        listing.unreadable.append((path, String(cString: strerror(errno))))
        listing.paths.append(path)
      }
      if !folders.isEmpty && relative.utf8.count > anchorBytes {
        anchors.append((names.count, fd))
        work.append(.release)
      } else {
        close(fd)
      }
      for name in folders.reversed() { work.append(.search(names + [name])) }
    }
    close(root)
    // The folder itself is no entry of its own.
    listing.paths.removeAll { $0.isEmpty }
    return listing
  }

  /// Why the folder at `path` cannot be read (`Permission denied`), or nil when it can.
  static func unreadable(_ path: String) -> String? {
    guard let folder = opendir(path) else { return String(cString: strerror(errno)) }
    closedir(folder)
    return nil
  }
}
