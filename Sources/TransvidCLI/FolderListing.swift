#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The files below a folder named on the command line (`transvid jobs/`,
/// `transvid gallery artifacts/`).
///
/// The folder is searched wherever it lives: a symbolic link to a folder
/// (`ln -s jobs lj; transvid lj`) stands for that folder. FileManager's
/// enumerator does not descend into a start that is a link (it listed
/// nothing), so it starts from the folder's resolved path
/// (`PathPolicy.resolve`); the paths it gives are relative, and the caller
/// joins them to the folder as the user spelled it. Below the start, links
/// are not followed into folders (a link to a folder is passed over, so no
/// loop of links can make the search endless); a link to a file is listed
/// like the file.
///
/// A folder the enumerator cannot open (no read permission) it passes over
/// without a word, so the listing names those too: their files are not
/// found, and the caller says so rather than lose them.
enum FolderListing {
  struct Listing {
    /// Every path below the folder, relative to it, in no set order.
    var paths: [String] = []
    /// The folder itself (`""`) or folders among `paths`, outside hidden
    /// ones (whose names start with `.`, which neither caller searches),
    /// that cannot be read, with why (`Permission denied`).
    var unreadable: [(path: String, reason: String)] = []
  }

  /// What is below `folder`, and which of its folders cannot be read.
  static func listing(below folder: String) -> Listing {
    let start = PathPolicy.resolve(folder) ?? folder
    var listing = Listing()
    listing.paths = FileManager.default.enumerator(atPath: start)?.allObjects as? [String] ?? []
    for path in [""] + listing.paths where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
      let full = path.isEmpty ? start : (start as NSString).appendingPathComponent(path)
      var info = stat()
      guard lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
      if let reason = unreadable(full) { listing.unreadable.append((path, reason)) }
    }
    return listing
  }

  /// Why the folder at `path` cannot be read (`Permission denied`), or nil when it can.
  static func unreadable(_ path: String) -> String? {
    guard let folder = opendir(path) else { return String(cString: strerror(errno)) }
    closedir(folder)
    return nil
  }
}
