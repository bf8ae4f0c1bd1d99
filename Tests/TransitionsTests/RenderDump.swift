#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Motion
import Raster
import Testing
import Transitions

/// Renders every transition through the compositor: the first and last
/// frames must be pixel-identical to the screens (or the resting composite),
/// at 0.1 px/pt to keep debug runs fast. With TRANSVID_DUMP set it also
/// writes contact sheets at 0.5 px/pt (`/tmp/transvid-<name>.pam`, one row
/// per direction, columns at 0, 0.1, ¼, ½, ¾, 1 of the duration); convert
/// with `ffmpeg -y -i f.pam f.png`.
@Suite struct RenderDump {
  static let dumping = getenv("TRANSVID_DUMP") != nil
  static let scale = dumping ? 0.5 : 0.1
  static let size = Size(width: 393, height: 852)

  static func box(_ frame: Rect, _ color: Color, corner: Double = 0) -> Layer {
    var l = Layer.init(frame: frame)
    l.backgroundColor = color
    l.cornerRadius = corner
    return l
  }

  static func screen(_ name: String, background: Color, views: [(String?, Layer)]) -> ScreenSnapshot {
    let compositor = Compositor(scale: scale, threadCount: 1)
    var root = Layer(frame: Rect(origin: .zero, size: size))
    root.backgroundColor = background
    root.sublayers = views.map(\.1)
    var frames: [String: Rect] = [:], images: [String: Bitmap] = [:], hidden: [String: Bitmap] = [:]
    for (i, (id, view)) in views.enumerated() {
      guard let id else { continue }
      frames[id] = view.frame
      var alone = view
      alone.position = Point(x: view.bounds.width / 2, y: view.bounds.height / 2)
      images[id] = compositor.snapshot(alone)
      var without = root
      without.sublayers[i].isHidden = true
      hidden[id] = compositor.snapshot(without)
    }
    return ScreenSnapshot(name: name, image: compositor.snapshot(root), viewFrames: frames, viewImages: images, imagesWithViewHidden: hidden)
  }

  static let list = screen("list", background: Color(red: 0.87, green: 0.93, blue: 1), views: [
    (nil, box(Rect(x: 0, y: 0, width: 393, height: 100), .white)),
    (nil, box(Rect(x: 16, y: 60, width: 120, height: 24), Color(red: 0.2, green: 0.2, blue: 0.2))),
    ("cell", box(Rect(x: 16, y: 120, width: 170, height: 170), Color(red: 1, green: 0.55, blue: 0.1), corner: 8)),
    (nil, box(Rect(x: 207, y: 120, width: 170, height: 170), Color(red: 0.3, green: 0.7, blue: 0.4), corner: 8)),
    (nil, box(Rect(x: 16, y: 310, width: 170, height: 170), Color(red: 0.4, green: 0.5, blue: 0.9), corner: 8)),
    (nil, box(Rect(x: 207, y: 310, width: 170, height: 170), Color(red: 0.9, green: 0.3, blue: 0.5), corner: 8)),
    (nil, box(Rect(x: 150, y: 760, width: 93, height: 44), Color(red: 0, green: 0.48, blue: 1), corner: 22)),
  ])
  static let detail = screen("detail", background: .white, views: [
    ("hero", box(Rect(x: 0, y: 100, width: 393, height: 393), Color(red: 1, green: 0.55, blue: 0.1))),
    (nil, box(Rect(x: 0, y: 0, width: 393, height: 100), Color(red: 0.95, green: 0.95, blue: 0.95))),
    (nil, box(Rect(x: 20, y: 520, width: 300, height: 28), Color(red: 0.1, green: 0.1, blue: 0.1))),
    (nil, box(Rect(x: 20, y: 570, width: 353, height: 16), Color(red: 0.6, green: 0.6, blue: 0.6))),
    (nil, box(Rect(x: 20, y: 600, width: 353, height: 16), Color(red: 0.6, green: 0.6, blue: 0.6))),
    (nil, box(Rect(x: 20, y: 630, width: 250, height: 16), Color(red: 0.6, green: 0.6, blue: 0.6))),
  ])

  static let parameters = TransitionParameters([
    "element": .element(from: "cell", to: "hero"),
    "origin": .rect(Rect(x: 150, y: 760, width: 93, height: 44)),
    "tap": .point(Point(x: 101, y: 205)),
  ])

  static func render(_ layer: Layer) -> Bitmap {
    var bitmap = Bitmap(width: Int(size.width * scale), height: Int(size.height * scale), fill: Pixel(r: 0, g: 0, b: 0, a: 255))
    Compositor(scale: scale, threadCount: 1).render(layer, into: &bitmap)
    return bitmap
  }

  /// The screen alone, full-screen (what a hold shows).
  static func plain(_ screen: ScreenSnapshot, _ ctx: TransitionContext) -> Bitmap {
    var container = Layer(frame: ctx.bounds)
    container.sublayers = [ctx.snapshotLayer(screen)]
    return render(container)
  }

  @Test(arguments: Catalog.all.map(\.name))
  func firstAndLastFramesMatchTheScreens(name: String) throws {
    let d = try #require(Catalog.descriptor(named: name))
    let t = d.make(Self.parameters)
    // The first frame before the animation's begin time (during a delay):
    // from the begin time on, the animation shows its start values.
    let delayed = d.make(Self.parameters.merging(TransitionParameters(["delay": .number(0.1)])))
    for op in [d.operations[0], d.operations[1]] {
      let ctx = TransitionContext(
        containerSize: Self.size, scale: Self.scale, operation: op,
        fromScreen: op.isReverse ? Self.detail : Self.list, toScreen: op.isReverse ? Self.list : Self.detail)
      let first = Self.render(delayed.layers(in: ctx, at: 0))
      let last = Self.render(t.layers(in: ctx, at: t.duration))
      let expectedFirst = op.isReverse ? Self.render(t.restingLayers(in: ctx.reversed)) : Self.plain(ctx.fromScreen, ctx)
      let expectedLast = op.isReverse ? Self.plain(ctx.toScreen, ctx) : Self.render(t.restingLayers(in: ctx))
      let firstOK = first == expectedFirst, lastOK = last == expectedLast
      #expect(firstOK, "\(name) \(op) first frame")
      #expect(lastOK, "\(name) \(op) last frame")
      if !op.isReverse, t.restingLayers(in: ctx).sublayers.count == 1 {
        let plain = last == Self.plain(ctx.toScreen, ctx)
        #expect(plain, "\(name) \(op) last frame is the to-screen")
      }
    }
    guard Self.dumping else { return }
    let fractions = [0.0, 0.1, 0.25, 0.5, 0.75, 1.0]
    let w = Int(Self.size.width * Self.scale), h = Int(Self.size.height * Self.scale), gap = 4
    var sheet = Bitmap(width: fractions.count * (w + gap), height: 2 * (h + gap), fill: Pixel(r: 255, g: 0, b: 255, a: 255))
    for (row, op) in [d.operations[0], d.operations[1]].enumerated() {
      let ctx = TransitionContext(
        containerSize: Self.size, scale: Self.scale, operation: op,
        fromScreen: op.isReverse ? Self.detail : Self.list, toScreen: op.isReverse ? Self.list : Self.detail)
      for (col, f) in fractions.enumerated() {
        let frame = Self.render(t.layers(in: ctx, at: f * t.duration))
        for y in 0..<h { for x in 0..<w { sheet[col * (w + gap) + x, row * (h + gap) + y] = frame[x, y] } }
      }
    }
    writePAM(sheet, to: "/tmp/transvid-\(name).pam")
  }
}

/// Writes `bitmap` as a PAM (RGB_ALPHA) file.
func writePAM(_ bitmap: Bitmap, to path: String) {
  guard let file = fopen(path, "wb") else { return }
  defer { fclose(file) }
  let header = "P7\nWIDTH \(bitmap.width)\nHEIGHT \(bitmap.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
  _ = header.withCString { fwrite($0, 1, strlen($0), file) }
  _ = bitmap.bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
}
