#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs
import Media
import Raster
import Rendering
import Synchronization

/// Skips jobs whose outputs are up to date.
///
/// A job's key is the SHA-256 of everything its output bytes depend on:
/// - the transvid version (the renderer and encoders it was built with) and
///   the compositor's revision (`Compositor.revision`, which moves with its pixels)
///   and the image decoder's (`ImageDecoder.revision`, which moves with a photo's),
/// - the formats asked for, as a set (`keyOrder`: the order `--format` or
///   `formats:` lists them in changes no output's bytes), and each one's
///   writer key (`FormatWriter.cacheKey`: the encoder and the settings
///   transvid fixes, such as x264's thread count),
/// - the job as parsed (`CanonicalText`: comments, layout and key order of the
///   file do not matter; every value does, but the order of its formats and
///   its notes, which draw nothing),
/// - the bytes of every image the job uses, each beside its path as the job
///   writes it, of the fonts it draws with (`assetLines(of:)`: the system's,
///   its own files and the faces fontconfig finds for the families it names),
///   and of every file a writer reads (`FormatWriter.inputFiles`, the
///   contact sheet's font).
///
/// No path as typed on the command line or resolved on this machine enters
/// the key: the same job run from its own folder, from the folder above or
/// by absolute path, in another checkout or on another machine, has one key.
///
/// The key and each output's size, SHA-256 and stamp (device, inode,
/// modification time) are recorded in
/// `<output dir>/.transvid-cache/<job name>.<formats>.json` (the formats in
/// `keyOrder`, so one set of outputs has one record) after the job's
/// outputs are all in place. A later run trusts the record only when the
/// key matches and every output is still the file it put there: the same
/// size and stamp, or, when the stamp moved, the same bytes (a folder
/// restored from an archive or a CI cache has new inodes and whole-second
/// times; an output another run rewrote, for another list of formats, has
/// other bytes). `--force` ignores it.
/// Editing an asset changes the key of exactly the jobs that use it.
final class OutputCache: Sendable {
  /// Asset digests by path and stamp, so an asset several jobs share is hashed (or found in the memo) once.
  private let assetDigests = Mutex<[String: [AssetDigestMemo.Stamp: String]]>([:])
  /// The faces of each font family a job names, looked up once per family
  /// for this cache's run (a lookup reads fontconfig's whole configuration).
  private let familyFaces = Mutex<[String: [FontLibrary.FontFile]]>([:])
  /// The system fonts' key lines, worked out once for this cache's run:
  /// every text job reads the same couple of hundred files, which a batch of small cached
  /// jobs would otherwise stat once per job.
  private let systemFontLines = Mutex<[String]?>(nil)

  /// The cache key of a parsed job. `jobText` is the job's `jobText(of:)`,
  /// worked out once by a caller that keys the job more than once.
  func key(for job: PlannedJob, jobText: String? = nil) -> String {
    guard job.spec != nil else { return "" }
    var text = "transvid \(TransvidCommand.version) compositor \(Compositor.revision) images \(ImageDecoder.revision)\n"
    let formats = Self.keyOrder(job.formats)
    text += "formats \(formats.map(\.rawValue).joined(separator: ","))\n"
    for format in formats {
      text += "writer \(format.rawValue) \(format.writer.cacheKey)\n"
      for path in format.writer.inputFiles { text += "writer input \(assetDigest(path))\n" }
    }
    text += "job \(jobText ?? Self.jobText(of: job))\n"
    text += assetLines(of: job.spec!).joined()
    var hash = SHA256()
    hash.update(text)
    return hash.hexDigest()
  }

  /// The job as its key reads it: the `CanonicalText` of its spec with the
  /// formats the run writes in `keyOrder`, and without what draws nothing.
  /// It is the costly part of a key (a walk of every value of the job), so
  /// a batch works it out once per job, for its key and its worker's request.
  static func jobText(of job: PlannedJob) -> String {
    guard var keyed = job.spec else { return "" }
    // The formats the run writes (`--format`'s or the job's own list) are the
    // key's `formats` line: the job's own list draws nothing besides.
    keyed.output.formats = keyOrder(job.formats)
    // What the run says of the job (the odd-canvas note lists its videos in the order asked) draws nothing;
    // nor do where its sizes were written (for errors) and which settings it writes (for a target, applied by now):
    // `output: { formats: [mp4] }` written or left to the default, or `--format mp4,gif` for the job's own
    // `formats: [mp4, gif]`, is one key.
    keyed.notes = []
    keyed.sizeSources = [:]
    keyed.writtenSettings = []
    return CanonicalText.of(keyed)
  }

  /// `formats` in `OutputFormat`'s own order (mp4, gif, png, sheet, …): the
  /// order a job or `--format` lists them in decides what the run shows first
  /// (its result lines, the gallery's `<source>`s), no output's bytes, so
  /// `mp4,gif` and `gif,mp4` have one key and one record.
  static func keyOrder(_ formats: [OutputFormat]) -> [OutputFormat] {
    formats.sorted { OutputFormat.allCases.firstIndex(of: $0)! < OutputFormat.allCases.firstIndex(of: $1)! }
  }

  /// The stamp (device, inode, size, mtime, ctime) of every file `key(for:)`
  /// reads for `job`, nil for one that cannot be stat'ed: taken before a
  /// render and after it, they differ when a file was saved meanwhile.
  func inputStamps(of job: PlannedJob) -> [String: AssetDigestMemo.Stamp?] {
    guard let spec = job.spec else { return [:] }
    let paths =
      Self.assetPaths(of: spec) + Self.fontFiles(of: spec) + faces(ofFamiliesIn: spec).flatMap { $0.faces.map(\.path) }
      + job.formats.flatMap(\.writer.inputFiles)
    return Dictionary(paths.map { ($0, AssetDigestMemo.Stamp(path: $0)) }, uniquingKeysWith: { a, _ in a })
  }

  /// The files a job reads besides itself, sorted: its images
  /// (`JobSpec.assets`) and, when it has text, the system fonts.
  static func assetPaths(of spec: JobSpec) -> [String] {
    var paths = Set(spec.assets.map(\.resolvedPath))
    if spec.hasText { paths.formUnion(fontPaths) }
    return paths.sorted()
  }

  /// Every system font the text renderer may draw with (script fonts and emoji included).
  private static let fontPaths = FontLibrary.files

  /// One line per file the job reads: `asset PATH DIGEST` for each image,
  /// PATH as the job writes it (relative to the job file, so the same
  /// wherever the job is run from), sorted; `font N DIGEST` for each
  /// system font when the job has text; `font file NAME DIGEST` for each of
  /// its own font files; `font family NAME face INDEX DIGEST` for each face
  /// fontconfig finds for a family it names (`none` without one), by name and
  /// bytes, not by path: an upgraded package or another face installed under
  /// the family's name changes the key.
  func assetLines(of spec: JobSpec) -> [String] {
    var images: [String: String] = [:]
    for asset in spec.assets where images[asset.path] == nil { images[asset.path] = asset.resolvedPath }
    var lines = images.keys.sorted().map { "asset \(String(reflecting: $0)) \(assetDigest(images[$0]!))\n" }
    if spec.hasText {
      if let known = systemFontLines.withLock({ $0 }) {
        lines += known
      } else {
        let fonts = Self.fontPaths.enumerated().map { "font \($0.offset) \(assetDigest($0.element))\n" }
        systemFontLines.withLock { $0 = $0 ?? fonts }
        lines += fonts
      }
    }
    // `font: { file: … }`: by name and bytes (`CanonicalText` keeps only the name).
    lines += Self.fontFiles(of: spec).map { "font file \(String(reflecting: PathText.fileName(of: $0))) \(assetDigest($0))\n" }
    for (family, faces) in faces(ofFamiliesIn: spec) {
      let name = String(reflecting: family)
      if faces.isEmpty { lines.append("font family \(name) none\n") }
      lines += faces.map { "font family \(name) face \($0.faceIndex) \(assetDigest($0.path))\n" }
    }
    return lines
  }

  /// The faces fontconfig finds for each family `spec` names
  /// (`FontLibrary.faces(ofFamilies:)`), sorted by family.
  func faces(ofFamiliesIn spec: JobSpec) -> [(family: String, faces: [FontLibrary.FontFile])] {
    let families = spec.fontFamilies
    let unknown = familyFaces.withLock { known in families.filter { known[$0] == nil } }
    if !unknown.isEmpty {
      let found = FontLibrary.faces(ofFamilies: unknown)
      familyFaces.withLock { $0.merge(found) { old, _ in old } }
    }
    return familyFaces.withLock { known in families.map { ($0, known[$0] ?? []) } }
  }

  /// The font files the job's own text names (`FontName.file`), sorted.
  static func fontFiles(of spec: JobSpec) -> [String] {
    Set(spec.fontFiles.map(\.path)).sorted()
  }

  /// The SHA-256 of a file's bytes, or `missing` (`AssetLoader.checkFiles`
  /// reports unreadable assets). The one place asset bytes are hashed.
  func assetDigest(_ path: String) -> String {
    let stamp = AssetDigestMemo.Stamp(path: path)
    if let stamp, let known = assetDigests.withLock({ $0[path]?[stamp] }) { return known }
    // Read by the same rule as the decoder (a regular file, capped), so a file swapped for a FIFO cannot hang the key.
    let digest = AssetDigestMemo.shared.digest(of: path, maxBytes: ImageDecoder.Limits().maxBytes)
    if let stamp { assetDigests.withLock { $0[path, default: [:]][stamp] = digest } }
    return digest
  }

  /// The record of a job's last successful render, when it is still valid:
  /// same key, and every output present with its recorded size and stamp,
  /// or size and bytes. Its outputs come in the job's order (a run that
  /// listed the formats in another order wrote it).
  static func validRecord(for job: PlannedJob, key: String) -> CacheRecord? {
    // A record is a few hundred bytes; anything but a small regular file is no record.
    guard let bytes = try? Platform.readRegularFile(job.recordPath, maxBytes: 1 << 20),
      var record = try? JSONDecoder().decode(CacheRecord.self, from: Data(bytes)), record.key == key
    else { return nil }
    let files = job.outputs.map { PathText.fileName(of: $0) }
    let outputs = files.compactMap { file in record.outputs.first { $0.file == file } }
    guard outputs.count == files.count, record.outputs.count == files.count else { return nil }
    record.outputs = outputs
    for output in record.outputs {
      let path = (job.directory as NSString).appendingPathComponent(output.file)
      var s = stat()
      guard lstat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG, s.st_size == output.bytes else { return nil }
      if let stamp = output.stamp, stamp == CacheRecord.Output.stamp(of: path) { continue }
      guard let sha256 = output.sha256, let bytes = try? Platform.readRegularFile(path, maxBytes: Int(s.st_size)),
        SHA256.hex(bytes) == sha256
      else { return nil }
    }
    return record
  }
}

/// What `.transvid-cache/<job>.<formats>.json` holds, and a `SharedCache`
/// entry's `manifest.json`.
struct CacheRecord: Codable, Sendable {
  struct Output: Codable, Sendable {
    /// The file name, in the record's output folder.
    var file: String
    var bytes: Int
    var frames: Int
    var duration: Double
    /// The output's format (in a `SharedCache` entry) and its bytes' SHA-256.
    var format: String? = nil
    var sha256: String? = nil
    /// In a record beside the outputs: the output file's `device:inode:mtime-ns`
    /// as it was put in place.
    var stamp: String? = nil

    /// The stamp of the regular file at `path` (`AssetDigestMemo.Stamp`'s
    /// device, inode and mtime), or nil.
    static func stamp(of path: String) -> String? {
      AssetDigestMemo.Stamp(path: path).map { "\($0.device):\($0.inode):\($0.modified)" }
    }
  }

  var key: String
  var job: String
  var version: String
  var outputs: [Output]

  func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)) ?? Data()
  }
}
