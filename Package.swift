// swift-tools-version:6.0
// transvid: iOS view-controller transitions rendered by a software compositor
// and encoded with the FFmpeg libraries. See README.md and DESIGN notes in each
// module's first file.
import PackageDescription

/// The pure modules use `rounded()`, `sqrt` and friends, which Glibc puts in libm.
let libm: [LinkerSetting] = [.linkedLibrary("m", .when(platforms: [.linux]))]

let package = Package(
  name: "transvid",
  products: [
    .executable(name: "transvid", targets: ["transvid"])
  ],
  targets: [
    // MARK: - System libraries
    .systemLibrary(
      name: "CFFmpeg",
      // libavcodec, libavformat and libavfilter are opened when first used
      // (Media's `FFmpegLibrary`), their headers still included: only
      // libswscale and libavutil are linked.
      pkgConfig: "libswscale libavutil",
      providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libswscale-dev", "libavutil-dev"])]
    ),
    .systemLibrary(
      name: "CYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"])]
    ),
    // GIF palettes (libimagequant, GPL-3) and GIF files (giflib, MIT).
    .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
    .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
    .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
    .systemLibrary(name: "CLCMS", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
    // A PNG's compressed ICC profile, inflated with a bound (`PNGAncillaryChunks`).
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // A header-only prefetch hint for the compositor's column walk.
    .systemLibrary(name: "CPrefetch"),
    // prctl(2) for the batch's worker processes (variadic in C, so a header-only shim).
    .systemLibrary(name: "CProcess"),
    .systemLibrary(
      name: "CFreeType",
      pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev"])]
    ),
    .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
    .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
    .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
    // Line breaking (UAX #14, with dictionaries for Thai and its neighbours)
    // and CLDR's plural rules. A C target, not a system library: its header
    // hides ICU's types from Swift (see cicu.h).
    .target(name: "CICU", linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icui18n")]),
    // JPEG decoding (libjpeg-turbo) and the EXIF orientation (libexif). A C
    // target: libjpeg reports errors by longjmp (see cjpeg.h).
    .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("exif")]),

    // MARK: - Pure modules (no I/O)
    .target(name: "Geometry", linkerSettings: libm),
    .target(name: "Motion", dependencies: ["Geometry"], linkerSettings: libm),
    .target(name: "Raster", dependencies: ["CFreeType", "CHarfBuzz", "CFriBidi", "CICU", "CPrefetch", "Geometry"], linkerSettings: libm),
    .target(name: "Transitions", dependencies: ["Geometry", "Motion", "Raster"], linkerSettings: libm),

    // MARK: - Edges (I/O)
    .target(name: "Media", dependencies: ["CFFmpeg", "CImageQuant", "CGIF", "CJPEG", "CWebP", "CLCMS", "CZlib", "Geometry", "Raster"]),
    .target(name: "Jobs", dependencies: ["CICU", "CYAML", "Geometry", "Motion", "Raster", "Transitions"]),
    .target(name: "Rendering", dependencies: ["CFontconfig", "Jobs", "Raster", "Transitions", "Geometry"]),
    .target(
      name: "TransvidCLI", dependencies: ["CProcess", "Jobs", "Rendering", "Media", "Transitions", "Raster", "Motion", "Geometry"]),
    .executableTarget(name: "transvid", dependencies: ["TransvidCLI"]),
    .executableTarget(
      name: "transvid-bench", dependencies: ["Raster", "Geometry", "Motion", "Transitions"],
      path: "Benchmarks/transvid-bench", linkerSettings: libm),

    // MARK: - Fuzz targets (plain executables that replay inputs; scripts/fuzz
    // builds them with -sanitize=fuzzer,address -DFUZZING to run libFuzzer)
    .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
    .executableTarget(name: "FuzzJobParser", dependencies: ["FuzzSupport", "Jobs"], path: "Fuzz/FuzzJobParser"),
    .executableTarget(name: "FuzzImageDecoder", dependencies: ["FuzzSupport", "Media"], path: "Fuzz/FuzzImageDecoder"),
    .executableTarget(
      name: "FuzzTransitions", dependencies: ["FuzzSupport", "Jobs", "Raster", "Rendering", "Transitions"], path: "Fuzz/FuzzTransitions"),
    .executableTarget(name: "FuzzCommandLine", dependencies: ["FuzzSupport", "TransvidCLI"], path: "Fuzz/FuzzCommandLine"),

    // MARK: - Tests
    // What several test targets share and no product ships: the decoders that
    // read back written files, PSNR, temporary folders.
    .target(
      name: "TestSupport", dependencies: ["CFFmpeg", "Media", "Raster"], path: "Tests/TestSupport",
      linkerSettings: [.linkedLibrary("avformat"), .linkedLibrary("avcodec")]),
    .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
    .testTarget(name: "MotionTests", dependencies: ["Motion"]),
    .testTarget(name: "RasterTests", dependencies: ["Raster", "Geometry", "TestSupport"], exclude: ["Goldens"]),
    .testTarget(name: "TransitionsTests", dependencies: ["Transitions", "Raster", "Motion", "Geometry"]),
    .testTarget(name: "MediaTests", dependencies: ["Media", "Raster", "Geometry", "TestSupport", "CLCMS", "CZlib"]),
    .testTarget(name: "JobsTests", dependencies: ["Jobs", "TestSupport"]),
    .testTarget(name: "RenderingTests", dependencies: ["Rendering", "Jobs", "Raster", "Transitions", "Geometry"]),
    .testTarget(
      name: "TransvidCLITests", dependencies: ["TransvidCLI", "Rendering", "Media", "Raster", "TestSupport"], exclude: ["Goldens"]),
  ]
)
