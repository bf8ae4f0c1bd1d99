// A job's JPEG photos are decoded no larger than its screens draw them
// (ScreenBuilder.decodeReduction → ImageDecoder's lowres), and what is drawn
// stays within a measured distance of the whole decode + area average.

import Foundation
import Jobs
import Media
import Raster
import Rendering
import Testing
import TransvidCLI

@Suite struct ReducedPhotoDecodeTests {
  /// A 1024×768 "photo": gradients, grain and blur (as `scripts/bench floor`'s), or
  /// testsrc2's hard edges and text; JPEG at FFmpeg's -q:v 3.
  static func photo(_ source: (String, String), in dir: String) throws -> String {
    let path = dir + "/photo.jpg"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", source.0, "-vf", source.1, "-frames:v", "1", "-q:v", "3", path,
    ]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return path
  }

  static let sources = [
    ("gradients=s=1024x768:c0=0x1d3b6e:c1=0xf2a65a:c2=0x6b8f3a:n=3:seed=1:speed=0.00001", "noise=alls=22:allf=u,gblur=sigma=1.2"),
    ("testsrc2=s=1024x768", "null"),
  ]

  static func job(view: String, image: String = "photo.jpg", scale: Int = 1) -> String {
    """
    canvas: { size: 400x400, scale: \(scale) }
    screens:
      home:
        views:
          - { id: a, frame: \(view), image: \(image) }
    timeline: [hold: 0.1]
    """
  }

  /// Peak signal-to-noise ratio (dB) of the colour channels of `a` and `b`
  /// inside `width × height` at the top left.
  static func psnr(_ a: Bitmap, _ b: Bitmap, width: Int, height: Int) -> Double {
    var squared = 0.0
    for y in 0..<height {
      for x in 0..<width {
        let p = a[x, y], q = b[x, y]
        for (u, v) in [(p.r, q.r), (p.g, q.g), (p.b, q.b)] {
          let d = Double(u) - Double(v)
          squared += d * d
        }
      }
    }
    let mse = squared / Double(width * height * 3)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
  }

  /// Each view size, the decoded size it asks for, and the least PSNR of the
  /// drawn view against the whole decode + area average, for the photo and
  /// for testsrc2's saturated hard edges and text. Measured: the photo
  /// 53.3…55.6 dB, testsrc2 29.9…36.1 dB (the scaled IDCT is a little softer
  /// at sharp edges; no colour bleeds, since twice the drawn size is kept).
  @Test(arguments: [
    ("[0, 0, 180, 180]", 512, 384, 50.0, 27.0),  // 240×180 drawn, 4.3× smaller: 1/2, then area-averaged
    ("[0, 0, 90, 90]", 256, 192, 50.0, 27.0),  // 120×90, 8.5×: 1/4
    ("[0, 0, 45, 45]", 128, 96, 50.0, 27.0),  // 60×45, 17×: 1/8
    ("[0, 0, 300, 225]", 1024, 768, .infinity, .infinity),  // 3.4× (sideways it would fill 300×400): whole
  ])
  func photoDecodesSmallerAndDrawsAlike(
    view: String, width: Int, height: Int, photoPSNR: Double, syntheticPSNR: Double
  ) throws {
    for (source, minimumPSNR) in zip(Self.sources, [photoPSNR, syntheticPSNR]) {
      let dir = try makeTemporaryDirectory()
      defer { try? FileManager.default.removeItem(atPath: dir) }
      let photo = try Self.photo(source, in: dir)
      let spec = try JobParser.load(path: try write(Self.job(view: view), to: "job.cfg", in: dir))
      let reduced = try AssetLoader.images(for: spec)
      let decoded = try #require(reduced[photo])
      #expect(decoded.width == width && decoded.height == height, "\(source.0): \(decoded.width)×\(decoded.height)")
      let whole = [photo: try ImageDecoder.decode(path: photo)]
      #expect(whole[photo]?.width == 1024)
      let frame = spec.screens[0].views[0].frame
      let drawn = try #require(ScreenBuilder(spec: spec, assets: reduced).snapshots()["home"]?.image)
      let reference = try #require(ScreenBuilder(spec: spec, assets: whole).snapshots()["home"]?.image)
      let quality = Self.psnr(drawn, reference, width: Int(frame.width), height: Int(frame.height))
      print("reduced decode, view \(view), \(source.0.prefix(9)): PSNR \(String(format: "%.2f", quality)) dB")
      #expect(quality >= minimumPSNR, "\(source.0)")
    }
  }

  /// A photo drawn at (nearly) its own size, and a PNG however small it is
  /// drawn, are decoded whole: the same bitmap as before.
  @Test func photoAtItsSizeAndPNGAreDecodedWhole() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let photo = try Self.photo(Self.sources[1], in: dir)
    // 260 pt at 2× is 520 px, more than a quarter of 1024: whole.
    let spec = try JobParser.load(
      path: try write(Self.job(view: "[0, 0, 260, 195]", scale: 2), to: "job.cfg", in: dir))
    let images = try AssetLoader.images(for: spec)
    let whole = try ImageDecoder.decode(path: photo)
    #expect(images[photo]?.bytes == whole.bytes)
    #expect(images[photo]?.width == 1024)

    let png = dir + "/shot.png"
    try PNGWriter.write(Bitmap(width: 800, height: 600, fill: Pixel(r: 10, g: 200, b: 30, a: 255)), to: png)
    let small = try JobParser.load(
      path: try write(Self.job(view: "[0, 0, 40, 30]", image: "shot.png"), to: "png.cfg", in: dir))
    let decoded = try AssetLoader.images(for: small)
    let wholePNG = try ImageDecoder.decode(path: png)
    #expect(decoded[png]?.width == 800 && decoded[png]?.bytes == wholePNG.bytes)
  }
}
