import Dispatch
import Jobs
import Media
import Raster
import Rendering
import Synchronization

/// Decodes what a job's screens need besides the job file: its images
/// (through `ImageDecoder`, so FFmpeg stays in Media) and, when it has
/// labels, the system fonts. Every failure is a `Diagnostic` at the key
/// that asked for the file, so a corrupt screenshot reads
/// `job.cfg:12:5: error: screens.detail.image: cannot decode 'assets/detail.png': …`.
///
/// Wiring (the runner and `transvid frame`):
///
///     let spec = try JobParser.load(path: path)
///     try policy.check(spec, …)           // PathPolicy: may the job reach these files?
///     try AssetLoader.checkFiles(of: spec)
///     let renderer = try AssetLoader.makeRenderer(for: spec)
///
/// Files are opened only through Media's `Platform` (via `ImageDecoder`):
/// regular files only, capped at `ImageDecoder.Limits.maxBytes`.
public enum AssetLoader {
  /// Checks, without reading them, that every image `spec` refers to is a
  /// regular file that can be opened and is not too big: otherwise
  /// `FILE:LINE:COL: error: KEY: cannot read 'PATH': REASON` at the `image` key.
  public static func checkFiles(
    of spec: JobSpec, limits: ImageDecoder.Limits = ImageDecoder.Limits()
  ) throws(Diagnostic) {
    for asset in spec.assets {
      do {
        try ImageDecoder.checkFile(path: asset.resolvedPath, limits: limits)
      } catch {
        throw Diagnostic(
          asset.location,
          "\(asset.key): cannot read '\(SourceLocation.shown(asset.path))': \(error.message)"
            + PathHint.hint(written: asset.path, resolved: asset.resolvedPath))
      }
    }
  }

  /// What `transvid check` knows of `spec`'s images without decoding them:
  /// each readable, an image by its header, within the limits one at a time
  /// and together (`images(for:)`'s errors, at the same keys).
  public static func checkImages(of spec: JobSpec, limits: ImageDecoder.Limits = ImageDecoder.Limits()) throws(Diagnostic) {
    _ = try read(spec, limits: limits)
  }

  /// `spec`'s image files, one per file however spelled (the physical path),
  /// read; each decode's cost in pixels from its header; and the reduction
  /// each may be decoded at (the smallest its spellings allow). Throws at the
  /// first image, in the job's order, that cannot be read, whose header
  /// `decode` would refuse, or that takes the job's images past
  /// `limits.maxTotalPixels`.
  private static func read(_ spec: JobSpec, limits: ImageDecoder.Limits) throws(Diagnostic) -> (
    assets: [AssetReference], files: [[UInt8]], costs: [Int],
    reduction: @Sendable (String) -> @Sendable (ImageDecoder.Info) -> Double
  ) {
    var seen: Set<String> = []
    let assets = spec.assets.filter { seen.insert(physicalPath(of: $0)).inserted }
    let spellings = Dictionary(grouping: Set(spec.assets.map(\.resolvedPath)), by: { path in PathPolicy.resolve(path) ?? path })
    let reduction: @Sendable (String) -> @Sendable (ImageDecoder.Info) -> Double = { path in
      // No larger than the screens draw it (a thumbnail's photo at 1/4 or 1/8), under every spelling.
      let paths = spellings[PathPolicy.resolve(path) ?? path] ?? [path]
      return { info in
        paths.map { ScreenBuilder.decodeReduction(ofImage: $0, width: info.width, height: info.height, in: spec) }.min() ?? 1
      }
    }
    // The files are read first (small beside decoding them), to know each decode's size.
    var files: [[UInt8]] = [], costs: [Int] = [], total = 0
    for asset in assets {
      let data: [UInt8]
      do {
        data = try Platform.readRegularFile(asset.resolvedPath, maxBytes: limits.maxBytes)
      } catch {
        throw Diagnostic(
          asset.location,
          "\(asset.key): cannot read '\(SourceLocation.shown(asset.path))': \(error.message)"
            + PathHint.hint(written: asset.path, resolved: asset.resolvedPath))
      }
      files.append(data)
      let info: ImageDecoder.Info
      do {
        info = try ImageDecoder.checkHeader(data: data, name: asset.resolvedPath, limits: limits)
      } catch {
        throw Diagnostic(asset.location, "\(asset.key): cannot decode '\(SourceLocation.shown(asset.path))': \(error.message)")
      }
      let cost = ImageDecoder.decodedPixels(info, allowedReduction: reduction(asset.resolvedPath))
      costs.append(cost)
      total += cost
      guard total > limits.maxTotalPixels else { continue }
      throw Diagnostic(
        asset.location,
        "\(asset.key): the job's images come to more than \(limits.maxTotalPixels) pixels decoded with "
          + "'\(SourceLocation.shown(asset.path))' "
          + "(\((total * 4) >> 20) MiB, all held while it renders); use smaller or fewer images")
    }
    return (assets, files, costs, reduction)
  }

  /// Every image `spec` refers to, decoded (premultiplied, sRGB) and keyed by
  /// `AssetReference.resolvedPath`; a file named twice, however it is spelled
  /// (`a.png`, `./a.png`, `../dir/a.png`, a link to it), is decoded once, a
  /// JPEG no larger than the screens draw it (`ScreenBuilder.decodeReduction`).
  /// The files' decoded sizes, from their headers, must come to at most
  /// `limits.maxTotalPixels` before any is decoded: otherwise an error at the
  /// image that passes it.
  ///
  /// The files are decoded side by side (a job's set-up is time its encoder
  /// waits, and one photo is one thread's work), the largest decodes first
  /// so that no thread is left with a big one at the end; each result goes
  /// to its asset's slot, so the order of work changes no pixel. When
  /// several fail, the error is the first failing asset's in the job's
  /// order, as if decoded one by one.
  public static func images(
    for spec: JobSpec, limits: ImageDecoder.Limits = ImageDecoder.Limits()
  ) throws(Diagnostic) -> [String: Bitmap] {
    let (assets, files, costs, reduction) = try read(spec, limits: limits)
    let order = assets.indices.sorted { (costs[$0], $1) > (costs[$1], $0) }
    let decoded = Mutex([Result<Bitmap, any Error>?](repeating: nil, count: assets.count))
    DispatchQueue.concurrentPerform(iterations: assets.count) { k in
      let i = order[k], path = assets[i].resolvedPath
      let result = Result<Bitmap, any Error> {
        try ImageDecoder.decode(data: files[i], name: path, limits: limits, allowedReduction: reduction(path))
      }
      decoded.withLock { $0[i] = result }
    }
    var images: [String: Bitmap] = [:]
    var byFile: [String: Bitmap] = [:]
    for (asset, result) in zip(assets, decoded.withLock { $0 }) {
      switch result! {
      case .success(let bitmap):
        byFile[physicalPath(of: asset)] = bitmap
      case .failure(let error as MediaError):
        throw Diagnostic(asset.location, "\(asset.key): cannot decode '\(SourceLocation.shown(asset.path))': \(error.message)")
      case .failure(let error):
        throw Diagnostic(asset.location, "\(asset.key): cannot decode '\(SourceLocation.shown(asset.path))': \(error)")
      }
    }
    // Every spelling shares its file's pixels (a copy on write, never written).
    for asset in spec.assets { images[asset.resolvedPath] = byFile[physicalPath(of: asset)] }
    return images
  }

  /// The file an asset names, however it is spelled (`PathPolicy.resolve`).
  private static func physicalPath(of asset: AssetReference) -> String {
    PathPolicy.resolve(asset.resolvedPath) ?? asset.resolvedPath
  }

  /// The fonts for `spec`'s labels (`FontLibrary.system`), or `.empty` when it
  /// has none; missing fonts are an error at the first `text:` key.
  public static func fonts(for spec: JobSpec) throws(Diagnostic) -> FontSet {
    guard spec.hasText else { return .empty }
    var fonts: FontSet
    switch FontLibrary.system {
    case .success(let system):
      fonts = system
    case .failure(let error):
      let (location, key) = firstText(in: spec)
      throw Diagnostic(location, "\(key): \(error)")
    }
    // The job's own fonts (views' and the caption's), each loaded once, an
    // error at the first `font:` that names it.
    var uses: [(name: String, key: String, location: SourceLocation)] = []
    for screen in spec.screens {
      for (i, view) in screen.views.enumerated() {
        guard view.text != nil, let name = view.textStyle.font else { continue }
        uses.append((name, "screens.\(screen.name).views[\(i)].font", view.fontLocation ?? view.location))
      }
    }
    if let caption = spec.stage?.caption, let name = caption.style.font {
      uses.append((name, "stage.caption.font", caption.fontLocation ?? caption.location))
    }
    for use in uses where fonts.named[use.name] == nil {
      do {
        fonts.named[use.name] = try FontLibrary.named(use.name)
      } catch {
        var message = "\(error)"
        if let path = FontName.path(of: use.name) {
          // The path as the job writes it, as an image's error names it.
          message = message.replacingOccurrences(of: "'\(path)'", with: "'\(SourceLocation.shown(spec.writtenPath(of: path)))'")
          message += PathHint.hint(written: spec.writtenPath(of: path), resolved: path)
        }
        throw Diagnostic(use.location, "\(use.key): \(message)")
      }
    }
    return fonts
  }

  /// A renderer for `spec` with its images and fonts loaded.
  public static func makeRenderer(
    for spec: JobSpec, limits: ImageDecoder.Limits = ImageDecoder.Limits()
  ) throws(Diagnostic) -> FrameRenderer {
    let decoded = try StageTimings.measure(.decode) { () throws(Diagnostic) -> ([String: Bitmap], FontSet) in
      // The fonts load beside the images (reading font files is one thread's
      // work); an image's error still comes first, as if loaded in turn.
      let fonts = FontsLoading()
      let loading = DispatchGroup()
      DispatchQueue.global().async(group: loading) {
        let result = Result { () throws(Diagnostic) in try Self.fonts(for: spec) }
        fonts.result.withLock { $0 = result }
      }
      let images = Result { () throws(Diagnostic) in try Self.images(for: spec, limits: limits) }
      loading.wait()
      return (try images.get(), try fonts.result.withLock { $0! }.get())
    }
    let (images, fonts) = decoded
    try CaptionFit.check(spec, fonts: fonts)
    return StageTimings.measure(.snapshot) { FrameRenderer(spec: spec, assets: images, fonts: fonts) }
  }

  /// Where the first label is: the view's place and `screens.NAME.views[I].text`.
  private static func firstText(in spec: JobSpec) -> (SourceLocation, String) {
    for screen in spec.screens {
      for (i, view) in screen.views.enumerated() where view.text != nil {
        return (view.location, "screens.\(screen.name).views[\(i)].text")
      }
    }
    return (SourceLocation(file: spec.file, line: 1, column: 1), "the job")
  }
}

/// The fonts `AssetLoader.makeRenderer` loads on another thread, handed back under a lock.
private final class FontsLoading: Sendable {
  let result = Mutex<Result<FontSet, Diagnostic>?>(nil)
}
