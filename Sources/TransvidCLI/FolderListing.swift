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
enum FolderListing {
  /// Every path below `folder`, relative to it, in no set order; empty
  /// when it cannot be read.
  static func relativePaths(below folder: String) -> [String] {
    let start = PathPolicy.resolve(folder) ?? folder
    return FileManager.default.enumerator(atPath: start)?.allObjects as? [String] ?? []
  }
}
