// `output:` — where the job's files go and which ones.
//
//   output:
//     dir: demos                      # relative to the job file; default: the CLI's
//     formats: [mp4, gif]             # mp4 (default), gif, png (poster), sheet, webm, mov, apng, webp
//     mp4: { crf: 18, preset: medium }
//     mp4: { maxBytes: 10MB }         # two-pass at the rate that fills it (webm too);
//                                     # beside crf, or from a target: crf unless over it
//     mp4: { width: 720 }             # or height; also webm and mov (VideoSize.swift)
//     mp4: { frameRate: variable }    # holds coded once (FrameRateMode.swift); also webm; default constant
//     gif: { width: 360, fps: 30 }    # default: the writer's choice
//     gif:                            # every key optional
//       width: 360                    # pixels (16…65535, and --max-side² in all); height keeps the aspect ratio
//       fps: 30                       # 1…50
//       maxColors: 256                # 4…256, the transparent entry included
//       quality: 100                  # 1…100: colours 2.56 × quality (maxColors wins); per-frame: libimagequant's target
//       maxBytes: 2MB                 # lower colours, fps, width until the file fits (bytes, MB, MiB, …)
//       dither: none                  # none, bayer, sierra2_4a, floyd_steinberg
//       bayerScale: 5                 # 0…5 (default 5), only with dither: bayer
//       palette: auto                 # auto (default), global or per-frame
//       loop: forever                 # forever, or repeats after the first play (0: once)
//       lossy: 0                      # 0…255: most R/G/B difference from the lossless GIF (default: GIFOptions.defaultLossy)
//     png: { time: 1.2 }              # poster frame; default: mid first transition
//     sheet: { frames: 12, columns: 4, width: 1200 }   # contact sheet
//     webm: { crf: 31, speed: 2, maxBytes: 5MB }   # VP9: crf 0…63, speed (cpu-used) 0…5
//     apng: { loop: forever }         # animated PNG; loop as the GIF's
//     webp: { quality: 80, lossless: false, loop: forever }   # quality 0…100
//     matte: "#FFFFFF"                # mp4/gif behind a transparent canvas; default black
//     target: github                  # github, web, editor: settings for a destination (OutputTarget.swift)
//
// `formats` may also be one name (`formats: gif`). A format listed twice is
// an error, as is an empty list.

extension JobDecoder {
  static let outputKeys = ["dir", "formats", "mp4", "gif", "png", "sheet", "webm", "mov", "apng", "webp", "matte", "target"]
  static let webmKeys = ["crf", "speed", "maxBytes", "frameRate"] + videoSizeKeys
  static let movKeys = videoSizeKeys
  static let apngKeys = ["loop"]
  static let webpKeys = ["quality", "lossless", "loop"]
  static let mp4Keys = ["crf", "preset", "maxBytes", "frameRate"] + videoSizeKeys
  static let gifKeys = ["width", "fps", "maxColors", "maxBytes", "dither", "bayerScale", "palette", "loop", "quality", "lossy"]
  static let pngKeys = ["time"]
  static let sheetKeys = ["frames", "columns", "width"]

  func output(_ node: YAMLNode?) throws(Diagnostic) -> OutputSpec {
    var output = OutputSpec()
    guard let node else { return output }
    let fields = try fields(node, KeyPath.root.appending("output"), keys: JobDecoder.outputKeys, allowsNull: true)
    if let value = fields["dir"] {
      let dir = try filePath(value, fields.path("dir"), expected: "a directory path")
      output.directory = dir
      output.directoryLocation = value.location
    }
    if let value = fields["formats"] { output.formats = try formats(value, fields.path("formats")) }
    if let value = fields["mp4"] { output.mp4 = try mp4(value, fields.path("mp4")) }
    if let value = fields["gif"] { output.gif = try gif(value, fields.path("gif")) }
    if let value = fields["png"] { output.png = try png(value, fields.path("png")) }
    if let value = fields["sheet"] { output.sheet = try sheet(value, fields.path("sheet")) }
    if let value = fields["webm"] { output.webm = try webm(value, fields.path("webm")) }
    if let value = fields["mov"] {
      output.mov = MOVSettings(
        size: try videoSize(try self.fields(value, fields.path("mov"), keys: JobDecoder.movKeys, allowsNull: true), of: .mov))
    }
    if let value = fields["apng"] { output.apng = try apng(value, fields.path("apng")) }
    if let value = fields["webp"] { output.webp = try webp(value, fields.path("webp")) }
    if let value = fields["target"] {
      output.target = try choice(value, fields.path("target"), OutputTarget.self, what: "target")
    }
    if let value = fields["matte"] {
      output.matte = try color(value, fields.path("matte"))
      if output.matte.alpha < 1 {
        throw mismatch(value, fields.path("matte"), expected: "an opaque colour (mp4 and gif have no alpha)")
      }
    }
    return output
  }

  private func formats(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> [OutputFormat] {
    let names = OutputFormat.names
    let expected = "a list of formats (\(names.joined(separator: ", ")))"
    let items: [(YAMLNode, KeyPath)]
    if let list = node.items {
      items = list.enumerated().map { ($1, path.appending(index: $0)) }
    } else if node.text != nil {
      items = [(node, path)]
    } else {
      throw mismatch(node, path, expected: expected)
    }
    if items.isEmpty { throw mismatch(node, path, expected: "at least one format (\(names.joined(separator: ", ")))") }
    var formats: [OutputFormat] = []
    for (item, itemPath) in items {
      let name = try string(item, itemPath, expected: "a format name")
      guard let format = OutputFormat(rawValue: name) else {
        // `formats: gif, mp4`, as --format writes them: one text to YAML, a list in brackets meant.
        let listed = name.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        let hint =
          node.items == nil && listed.count > 1 && listed.allSatisfy({ OutputFormat(rawValue: $0) != nil })
          ? "; did you mean [\(listed.joined(separator: ", "))]? (a list is written in brackets)"
          : OutputFormat.hint(forUnknown: name)
        throw Diagnostic(item.location, "\(itemPath): unknown format \(YAMLNode.quoted(name))\(hint)")
      }
      if formats.contains(format) { throw Diagnostic(item.location, "\(itemPath): '\(name)' is listed twice") }
      formats.append(format)
    }
    return formats
  }

  private func mp4(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> MP4Settings {
    let fields = try fields(node, path, keys: JobDecoder.mp4Keys, allowsNull: true)
    var settings = MP4Settings()
    if let value = fields["crf"] { settings.crf = try integer(value, fields.path("crf"), in: 1...51) }
    if let value = fields["preset"] {
      let name = try string(value, fields.path("preset"), expected: "an x264 preset name")
      guard MP4Settings.presets.contains(name) else {
        throw Diagnostic(
          value.location,
          "\(fields.path("preset")): unknown x264 preset \(YAMLNode.quoted(name))"
            + Suggestion.hint(for: name, in: MP4Settings.presets))
      }
      settings.preset = name
    }
    if let value = fields["maxBytes"] { settings.maxBytes = try maxBytes(value, fields.path("maxBytes")) }
    settings.capsCRF = settings.maxBytes != nil && fields["crf"] != nil
    if let value = fields["frameRate"] { settings.frameRate = try frameRate(value, fields.path("frameRate")) }
    settings.size = try videoSize(fields, of: .mp4)
    return settings
  }

  /// `frameRate:` of mp4 and webm.
  private func frameRate(_ value: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> FrameRateMode {
    try choice(value, path, FrameRateMode.self, what: "frame rate")
  }

  private func gif(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> GIFSettings {
    let fields = try fields(node, path, keys: JobDecoder.gifKeys, allowsNull: true)
    var settings = GIFSettings()
    // At most a GIF's side; the frame's area against --max-side is checked with the job's (`checkOutputSizes`).
    if let value = fields["width"] {
      settings.width = try integer(value, fields.path("width"), in: GIFSettings.narrowestWidth...OutputSizes.largestSide(of: .gif)!.pixels)
    }
    if let value = fields["fps"] { settings.fps = try integer(value, fields.path("fps"), in: 1...50) }
    if let value = fields["maxColors"] {
      settings.maxColors = try integer(value, fields.path("maxColors"), in: 4...256)
    }
    if let value = fields["maxBytes"] {
      settings.maxBytes = try maxBytes(value, fields.path("maxBytes"))
    }
    if let value = fields["dither"] {
      settings.dither = try choice(value, fields.path("dither"), GIFSettings.Dither.self, what: "dither mode")
    }
    if let value = fields["bayerScale"] {
      settings.bayerScale = try integer(value, fields.path("bayerScale"), in: 0...5)
      // The other dithers have no scale: a scale without Bayer would change nothing.
      guard settings.dither == .bayer else {
        throw Diagnostic(
          value.location,
          "\(fields.path("bayerScale")): only with dither: bayer (the dither is \((settings.dither ?? .none).rawValue))")
      }
    }
    if let value = fields["palette"] {
      settings.palette = try choice(value, fields.path("palette"), GIFSettings.Palette.self, what: "palette mode")
    }
    if let value = fields["loop"] { settings.loop = try loop(value, fields.path("loop")) }
    if let value = fields["quality"] { settings.quality = try integer(value, fields.path("quality"), in: 1...100) }
    if let value = fields["lossy"] { settings.lossy = try integer(value, fields.path("lossy"), in: 0...255) }
    return settings
  }

  /// `maxBytes:` of gif, mp4 and webm: 1 KiB … 1 TiB, in bytes or with a unit.
  private func maxBytes(_ value: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> Int {
    try byteSize(value, path, in: 1024...(1 << 40))
  }

  /// `loop:` of an animation: `forever`, or repeats after the first play,
  /// at most `most`: a GIF stores the repeats (65535), APNG and WebP the
  /// plays (65535, so 65534 repeats).
  private func loop(_ value: YAMLNode, _ path: KeyPath, most: Int = 65535) throws(Diagnostic) -> AnimationLoop {
    let expected = "'forever' or a repeat count from 0 to \(most)"
    if value.text == "forever" { return .forever }
    if value.number != nil { return .repeat(try integer(value, path, in: 0...most)) }
    throw mismatch(value, path, expected: expected, hint: Suggestion.hint(for: value.text ?? "", in: ["forever"], listing: false))
  }

  private func webm(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> WebMSettings {
    let fields = try fields(node, path, keys: JobDecoder.webmKeys, allowsNull: true)
    var settings = WebMSettings()
    if let value = fields["crf"] { settings.crf = try integer(value, fields.path("crf"), in: 0...63) }
    if let value = fields["speed"] { settings.speed = try integer(value, fields.path("speed"), in: 0...5) }
    if let value = fields["maxBytes"] { settings.maxBytes = try maxBytes(value, fields.path("maxBytes")) }
    settings.capsCRF = settings.maxBytes != nil && fields["crf"] != nil
    if let value = fields["frameRate"] { settings.frameRate = try frameRate(value, fields.path("frameRate")) }
    settings.size = try videoSize(fields, of: .webm)
    return settings
  }

  private func apng(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> APNGSettings {
    let fields = try fields(node, path, keys: JobDecoder.apngKeys, allowsNull: true)
    var settings = APNGSettings()
    if let value = fields["loop"] { settings.loop = try loop(value, fields.path("loop"), most: 65534) }
    return settings
  }

  private func webp(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> WebPSettings {
    let fields = try fields(node, path, keys: JobDecoder.webpKeys, allowsNull: true)
    var settings = WebPSettings()
    if let value = fields["quality"] { settings.quality = try integer(value, fields.path("quality"), in: 0...100) }
    if let value = fields["lossless"] { settings.lossless = try boolean(value, fields.path("lossless")) }
    if let value = fields["loop"] { settings.loop = try loop(value, fields.path("loop"), most: 65534) }
    return settings
  }

  private func png(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> PNGSettings {
    let fields = try fields(node, path, keys: JobDecoder.pngKeys, allowsNull: true)
    var settings = PNGSettings()
    if let value = fields["time"] {
      settings.time = try number(value, fields.path("time"), in: 0...86_400, expected: "a time in seconds from 0 to 86400")
    }
    return settings
  }

  private func sheet(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> SheetSettings {
    let fields = try fields(node, path, keys: JobDecoder.sheetKeys, allowsNull: true)
    var settings = SheetSettings()
    if let value = fields["frames"] { settings.frames = try integer(value, fields.path("frames"), in: 1...100) }
    if let value = fields["columns"] { settings.columns = try integer(value, fields.path("columns"), in: 1...20) }
    // At most the sheet's side; its area against --max-side is checked with the job's (`checkOutputSizes`).
    if let value = fields["width"] {
      settings.width = try integer(value, fields.path("width"), in: 64...OutputSizes.largestSide(of: .sheet)!.pixels)
    }
    return settings
  }

  /// One of an enum's raw values, with a suggestion for a near miss.
  private func choice<T: RawRepresentable & CaseIterable>(
    _ node: YAMLNode, _ path: KeyPath, _ type: T.Type, what: String
  ) throws(Diagnostic) -> T where T.RawValue == String {
    let names = T.allCases.map(\.rawValue)
    let name = try string(node, path, expected: "a \(what) (\(names.joined(separator: ", ")))")
    guard let value = T(rawValue: name) else {
      throw Diagnostic(
        node.location,
        "\(path): unknown \(what) \(YAMLNode.quoted(name))"
          + Suggestion.hint(for: name, in: names))
    }
    return value
  }
}
