import Jobs
import Media
import Raster
import Rendering

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
        throw Diagnostic(asset.location, "\(asset.key): cannot read '\(asset.path)': \(error.message)")
      }
    }
  }

  /// Every image `spec` refers to, decoded (premultiplied, sRGB) and keyed by
  /// `AssetReference.resolvedPath`; a file named twice is decoded once.
  public static func images(
    for spec: JobSpec, limits: ImageDecoder.Limits = ImageDecoder.Limits()
  ) throws(Diagnostic) -> [String: Bitmap] {
    var images: [String: Bitmap] = [:]
    for asset in spec.assets where images[asset.resolvedPath] == nil {
      do {
        images[asset.resolvedPath] = try ImageDecoder.decode(path: asset.resolvedPath, limits: limits)
      } catch let error as MediaError {
        // The file was readable when the job loaded; it may have gone since.
        let verb = error.operation.hasPrefix("read ") ? "read" : "decode"
        throw Diagnostic(asset.location, "\(asset.key): cannot \(verb) '\(asset.path)': \(error.message)")
      } catch {
        throw Diagnostic(asset.location, "\(asset.key): cannot decode '\(asset.path)': \(error)")
      }
    }
    return images
  }

  /// The fonts for `spec`'s labels (`FontLibrary.system`), or `.empty` when it
  /// has none; missing fonts are an error at the first `text:` key.
  public static func fonts(for spec: JobSpec) throws(Diagnostic) -> FontSet {
    guard spec.hasText else { return .empty }
    switch FontLibrary.system {
    case .success(let fonts):
      return fonts
    case .failure(let error):
      let (location, key) = firstText(in: spec)
      throw Diagnostic(location, "\(key): \(error)")
    }
  }

  /// A renderer for `spec` with its images and fonts loaded.
  public static func makeRenderer(
    for spec: JobSpec, limits: ImageDecoder.Limits = ImageDecoder.Limits()
  ) throws(Diagnostic) -> FrameRenderer {
    let images = try images(for: spec, limits: limits)
    let fonts = try fonts(for: spec)
    try CaptionFit.check(spec, fonts: fonts)
    return FrameRenderer(spec: spec, assets: images, fonts: fonts)
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
