// A path a job file names: an image, a font file, its String Catalog, its
// output folder. The system's calls end a path at its first NUL, which a
// quoted YAML string can hold (`"\0"`, `"\x00"`), so `"../x.png\0/../a.png"`
// would open `../x.png` while every check of what a job may reach
// (`PathPolicy`) reads the whole text, and an `output.dir` written so would
// have the batch write, and clear its staging folder, outside the job's
// folder. Such a path names no file: it is an error at its value.

extension JobDecoder {
  /// The path written at `node`, for the key `path`: text, not empty
  /// (else "expected `expected`"), and without NUL.
  func filePath(_ node: YAMLNode, _ path: KeyPath, expected: String) throws(Diagnostic) -> String {
    guard let text = node.text, !text.isEmpty else { throw mismatch(node, path, expected: expected) }
    guard !text.utf8.contains(0) else {
      throw mismatch(node, path, expected: "\(expected) without NUL characters (the system ends a path at the first)")
    }
    return text
  }
}
