// What the fuzz executables share: starting libFuzzer's driver (in a
// `-sanitize=fuzzer` build) and replaying files (in a plain build).

#if canImport(Glibc)
@_exported import Glibc
#endif

#if FUZZING
/// libFuzzer's entry for programs that have their own `main`
/// (compiler-rt `FuzzerInterface.h`).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Hands the command line to libFuzzer, which calls `callback` per input.
public func runLibFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  return LLVMFuzzerRunDriver(&argc, &argv, callback)
}
#endif

/// A fuzz executable's `main`: libFuzzer's driver calling `target` in a
/// `-sanitize=fuzzer` build (`-DFUZZING`), else a replay of the files and
/// folders on the command line through `target`. Returns the exit status.
public func fuzzMain(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
  #if FUZZING
  return runLibFuzzer(target)
  #else
  return replay(CommandLine.arguments.dropFirst()) { bytes in
    bytes.withUnsafeBufferPointer { _ = target($0.baseAddress, $0.count) }
  }
  #endif
}

/// Feeds every file named in `paths` (folders: every file inside, sorted) to
/// `body`; prints how many ran. Returns 0, or 2 for a path that cannot be read.
public func replay(_ paths: some Collection<String>, _ body: ([UInt8]) -> Void) -> CInt {
  if paths.isEmpty {
    print("usage: FILE|DIR ... (inputs to replay; scripts/fuzz runs libFuzzer)")
    return 2
  }
  var count = 0
  for path in paths {
    for file in files(at: path) {
      guard let bytes = read(file) else {
        print("cannot read \(file)")
        return 2
      }
      body(bytes)
      count += 1
    }
  }
  print("replayed \(count) inputs without a crash")
  return 0
}

/// `path` itself, or the regular files directly inside it when it is a folder.
private func files(at path: String) -> [String] {
  guard let dir = opendir(path) else { return [path] }
  defer { closedir(dir) }
  var names: [String] = []
  while let entry = readdir(dir) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    if name.hasPrefix(".") { continue }
    let full = path.hasSuffix("/") ? path + name : path + "/" + name
    var info = stat()
    if stat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG { names.append(full) }
  }
  return names.sorted()
}

private func read(_ path: String) -> [UInt8]? {
  guard let stream = fopen(path, "rb") else { return nil }
  defer { fclose(stream) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, stream) }
    bytes += chunk.prefix(n)
    if n < chunk.count { return ferror(stream) == 0 ? bytes : nil }
  }
}
