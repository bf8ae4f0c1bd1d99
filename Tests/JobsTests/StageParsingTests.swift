import Geometry
import Raster
import Testing

@testable import Jobs

/// `stage:`, `canvas.orientation` and `canvas.statusBar` as parsed: sizes,
/// defaults and the exact errors.
@Suite struct StageParsingTests {
  static func job(canvas: String = "{ device: iphone-15 }", stage: String, step: String = "") -> String {
    """
    name: s
    canvas: \(canvas)
    stage: \(stage)
    screens:
      a: {}
    timeline:
      - hold: 1\(step)
    """
  }

  static func error(_ text: String) -> String {
    do {
      _ = try JobParser.parse(text, file: "s.cfg")
      return "no error"
    } catch {
      return error.description
    }
  }

  /// A caption without `textColor` takes its ink from what it is drawn
  /// over (`Stage`); one with it keeps its own.
  @Test func aCaptionsInkFollowsItsBackgroundUnlessItSaysItsOwn() throws {
    func caption(_ stage: String) throws -> CaptionSpec? { try JobParser.parse(Self.job(stage: stage), file: "s.cfg").stage?.caption }
    #expect(try caption("{ background: \"#DDE3EE\", caption: Hi }")?.inkFollowsBackground == true)
    #expect(try caption("{ caption: { text: Hi, font: 20 } }")?.inkFollowsBackground == true)
    let own = try caption("{ caption: { text: Hi, textColor: \"#FF0000\" } }")
    #expect(own?.inkFollowsBackground == false && own?.style.color == Color(red: 1, green: 0, blue: 0))
  }

  @Test func unknownDeviceSuggestsTheNearest() {
    #expect(
      Self.error(Self.job(stage: "{ device: iphone-15pro }"))
        == "s.cfg:3:18: error: stage.device: unknown device \"iphone-15pro\"; did you mean 'iphone-15-pro'?")
    #expect(
      Self.error(Self.job(canvas: "{ device: ipad-12 }", stage: "{}"))
        == "s.cfg:2:19: error: canvas.device: unknown device \"ipad-12\"; did you mean 'ipad-11'?")
    #expect(
      Self.error(Self.job(stage: "{ color: titanium }"))
        == "s.cfg:3:17: error: stage.color: unknown finish \"titanium\"; expected one of: "
        + DeviceFinish.all.map(\.name).joined(separator: ", "))
  }

  /// A finish where no device is drawn is an error at it, as a corner
  /// radius beside a drawn device is (it was ignored: the same pixels).
  @Test func aFinishNeedsADrawnDevice() throws {
    #expect(
      Self.error(Self.job(stage: "{ device: none, color: red }"))
        == "s.cfg:3:31: error: stage.color: only with a drawn device (the stage draws none: name one with stage.device)")
    // A canvas size that is no device's draws none either.
    #expect(
      Self.error(Self.job(canvas: "{ size: 300x500 }", stage: "{ color: silver }"))
        == "s.cfg:3:17: error: stage.color: only with a drawn device (the stage draws none: name one with stage.device)")
    let named = try JobParser.parse(Self.job(canvas: "{ size: 300x500 }", stage: "{ device: iphone-se, color: red }"), file: "s.cfg")
    #expect(named.stage?.finish.name == "red")
  }

  @Test func aStageSmallerThanTheDeviceIsAnError() {
    // iPhone 15: 71.6 × 147.6 mm at 460 ppi @3x is 432.2 × 891 pt, plus 4 pt buttons each side.
    #expect(
      Self.error(Self.job(stage: "{ size: [400, 800] }"))
        == "s.cfg:3:16: error: stage.size: a 400x800-point stage is smaller than the iphone-15 (portrait), "
        + "441x900 points; make it at least that, or leave size out (522x980 with the padding)")
    // Without padding the fitted size is the least one, rounded to even pixels: no padding to name.
    let unpadded = Self.error(Self.job(stage: "{ size: [400, 800], padding: 0 }"))
    #expect(unpadded.hasSuffix("or leave size out (442x900)"), "\(unpadded)")
  }

  /// A stage's size is written as a canvas's is, `600x1000` or
  /// `[600, 1000]` (the job sweep): `stage: { size: 600x1000 }` said
  /// "stage.size: expected [WIDTH, HEIGHT] in points, got "600x1000"".
  @Test func aStagesSizeIsWrittenAsACanvassIs() throws {
    for written in ["600x1000", "[600, 1000]", "600 x 1000", "\"600x1000\""] {
      let size = try JobParser.parse(Self.job(stage: "{ size: \(written) }"), file: "s.cfg").stage?.size
      #expect(size == Size(width: 600, height: 1000), "\(written)")
    }
    let expected = "expected a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT]"
    #expect(Self.error(Self.job(stage: "{ size: 600 }")) == "s.cfg:3:16: error: stage.size: \(expected), got 600")
    #expect(Self.error(Self.job(stage: "{ size: 600x }")) == "s.cfg:3:16: error: stage.size: \(expected), got \"600x\"")
    #expect(Self.error(Self.job(stage: "{ size: [600] }")) == "s.cfg:3:16: error: stage.size: \(expected), got a list of 1 item")
    #expect(Self.error(Self.job(stage: "{ size: 1e9x1e9 }")) == "s.cfg:3:16: error: stage.size: \(expected), got \"1e9x1e9\"")
    #expect(Self.error(Self.job(stage: "{ size: 400x800 }")).hasPrefix("s.cfg:3:16: error: stage.size: a 400x800-point stage is smaller"))
  }

  @Test func stepCaptionsNeedAStageCaption() {
    #expect(
      Self.error(Self.job(stage: "{}", step: "\n    caption: \"Swipe\""))
        == "s.cfg:8:5: error: timeline[0].caption: there is no stage caption to replace; add stage: { caption: … } first")
  }

  /// An empty stage caption is one to replace (README): the strip is blank until the step's.
  @Test func anEmptyStageCaptionTakesStepCaptions() throws {
    let spec = try JobParser.parse(Self.job(stage: "{ caption: \"\" }", step: "\n    caption: Swipe"), file: "s.cfg")
    let stage = try #require(spec.stage)
    #expect(stage.caption?.text == "")
    #expect(stage.captionChanges.map(\.text) == ["Swipe"])
  }

  @Test func defaultSizeFitsDevicePaddingAndCaption() throws {
    let spec = try JobParser.parse(
      Self.job(stage: "{ padding: 10, caption: { text: Hi, font: 20, lines: 2 } }", step: "\n    caption: Bye"),
      file: "s.cfg")
    let stage = try #require(spec.stage)
    // 441 × 900 device, 2 × 25-pt lines and a 12-pt gap, 10 pt around; 461 pt
    // is 1383 px at 3x, so a point more makes the width even.
    #expect(stage.size == Size(width: 462, height: 900 + 50 + 12 + 20))
    #expect(spec.framePixelWidth == 462 * 3 && spec.framePixelHeight == 982 * 3)
    #expect(stage.captionChanges == [CaptionChange(step: 0, text: "Bye", location: SourceLocation(file: "s.cfg", line: 8, column: 5))])
    #expect(stage.device == "iphone-15")
  }

  @Test func landscapeTurnsTheCanvasAndTheStage() throws {
    let spec = try JobParser.parse(
      Self.job(canvas: "{ device: ipad-11, orientation: landscape }", stage: "{ padding: 0 }"), file: "s.cfg")
    #expect(spec.canvas.size == Size(width: 1194, height: 834))
    let preset = try #require(DevicePreset.named("ipad-11"))
    let stage = try #require(spec.stage)
    #expect(stage.size.width == (preset.bodySize.height + 8).rounded(.up))
    #expect(stage.size.height == (preset.bodySize.width + 8).rounded(.up))
  }

  /// `orientation` turns a device, the canvas's or the stage's: beside a
  /// `size` with neither it would turn nothing (the video was the portrait
  /// one), so it is an error at the key, as `contentMode` without an image is.
  @Test func orientationNeedsADeviceToTurn() throws {
    let plain = "canvas: { size: 390x844, scale: 1, orientation: landscape }\nscreens: { a: {} }\ntimeline: [hold: 1]\n"
    #expect(
      Self.error(plain)
        == "s.cfg:1:36: error: canvas.orientation: there is no 'device' to turn "
        + "(canvas.size is used as written; write 844x390 for landscape)")
    #expect(
      Self.error(plain.replacingOccurrences(of: "390x844", with: "844x390"))
        == "s.cfg:1:36: error: canvas.orientation: there is no 'device' to turn "
        + "(canvas.size is used as written; already landscape: leave orientation out)")
    #expect(
      Self.error(plain.replacingOccurrences(of: "landscape", with: "portrait").replacingOccurrences(of: "390x844", with: "844x390"))
        == "s.cfg:1:36: error: canvas.orientation: there is no 'device' to turn "
        + "(canvas.size is used as written; write 390x844 for portrait)")
    let device = try JobParser.parse(
      Self.job(canvas: "{ device: iphone-15, size: 852x393, orientation: landscape }", stage: "{}"), file: "s.cfg")
    #expect(device.canvas.orientation == .landscape && device.canvas.size == Size(width: 852, height: 393))
    let staged = try JobParser.parse(
      Self.job(canvas: "{ size: 852x393, scale: 1, orientation: landscape }", stage: "{ device: iphone-15 }"), file: "s.cfg")
    #expect(staged.stage?.orientation == .landscape && staged.stage?.device == "iphone-15")
    #expect(Self.error(Self.job(canvas: "{ size: 852x393, scale: 1, orientation: landscape }", stage: "{ device: none }")).hasPrefix(
      "s.cfg:2:36: error: canvas.orientation: there is no 'device' to turn"))
  }

  /// A `size` beside a `device` holds the device as the size is, as a size
  /// alone is held (the sweep of the README): `852x393` beside
  /// `device: iphone-15` was an upright iPhone 15, its status bar drawn
  /// across the landscape canvas and the stage's phone upright around it,
  /// and `393x852` with `orientation: landscape` a portrait canvas laid out
  /// as a phone held sideways (no status bar, a nav bar at the top). An
  /// orientation that says the other way is an error at it.
  @Test func aDeviceIsHeldAsTheSizeBesideItIs() throws {
    let turned = try JobParser.parse(
      Self.job(canvas: "{ device: iphone-15, size: 852x393, scale: 1, statusBar: { time: \"9:41\" } }", stage: "{ padding: 0 }"),
      file: "s.cfg")
    #expect(turned.canvas.orientation == .landscape && turned.canvas.hidesStatusBar && turned.canvas.shownStatusBar == nil)
    #expect(turned.notes.map(\.message).contains { $0.hasPrefix("canvas.statusBar: iOS shows no status bar on an iPhone in landscape") })
    let stage = try #require(turned.stage)
    #expect(stage.orientation == .landscape && stage.size.width > stage.size.height)
    let upright = try JobParser.parse(
      Self.job(canvas: "{ device: iphone-15, size: 393x852, scale: 1, statusBar: { time: \"9:41\" } }", stage: "{}"), file: "s.cfg")
    #expect(upright.canvas.orientation == .portrait && !upright.canvas.hidesStatusBar && upright.stage?.orientation == .portrait)
    #expect(
      Self.error(Self.job(canvas: "{ device: iphone-15, size: 393x852, orientation: landscape }", stage: "{}"))
        == "s.cfg:2:45: error: canvas.orientation: the iphone-15 is held as canvas.size is written (portrait); "
        + "write 852x393 for landscape, or leave orientation out")
    #expect(
      Self.error(Self.job(canvas: "{ device: ipad-11, size: 1194x834, orientation: portrait }", stage: "{}"))
        == "s.cfg:2:44: error: canvas.orientation: the ipad-11 is held as canvas.size is written (landscape); "
        + "write 834x1194 for portrait, or leave orientation out")
  }

  /// A canvas that names neither device nor size is an iPhone 15 and says
  /// so, as `device: iphone-15` would: a stage draws it at any scale, a
  /// drawn status bar has its 54 pt, and held in landscape it shows none.
  @Test func anUnnamedCanvasIsAnIPhone15() throws {
    for canvas in ["{ scale: 1 }", "{ scale: 2 }", "{ fps: 30 }"] {
      let spec = try JobParser.parse(Self.job(canvas: canvas, stage: "{}"), file: "s.cfg")
      #expect(spec.canvas.device == "iphone-15" && spec.stage?.device == "iphone-15", "\(canvas)")
    }
    let bare = try JobParser.parse("screens: { a: {} }\ntimeline: [hold: 1]\n", file: "s.cfg")
    #expect(bare.canvas.device == "iphone-15" && bare.canvas.scale == 3)
    let drawn = try JobParser.parse(Self.job(canvas: "{ statusBar: { time: \"9:41\" } }", stage: "{}"), file: "s.cfg")
    #expect(drawn.canvas.statusBar?.height == 54)
    let landscape = try JobParser.parse(
      Self.job(canvas: "{ orientation: landscape, statusBar: { time: \"9:41\" } }", stage: "{}"), file: "s.cfg")
    #expect(landscape.canvas.hidesStatusBar && landscape.stage?.orientation == .landscape)
    #expect(landscape.notes.map(\.message).contains { $0.hasPrefix("canvas.statusBar: iOS shows no status bar on an iPhone in landscape") })
  }

  /// A stage finds the device of a canvas given as a `size` by its points,
  /// at any scale, and holds it as the size is: 852x393 is an iPhone 15 in
  /// landscape. An orientation that says otherwise turns nothing, an error.
  @Test func aStageFindsTheDeviceOfACanvasSize() throws {
    for (size, scale, orientation) in [("393x852", 2, DeviceOrientation.portrait), ("852x393", 3, .landscape), ("852x393", 1, .landscape)] {
      let spec = try JobParser.parse(Self.job(canvas: "{ size: \(size), scale: \(scale) }", stage: "{}"), file: "s.cfg")
      #expect(spec.canvas.device == nil && spec.stage?.device == "iphone-15" && spec.stage?.orientation == orientation, "\(size) @\(scale)")
    }
    let agreeing = try JobParser.parse(
      Self.job(canvas: "{ size: 852x393, scale: 1, orientation: landscape }", stage: "{}"), file: "s.cfg")
    #expect(agreeing.stage?.orientation == .landscape)
    #expect(
      Self.error(Self.job(canvas: "{ size: 393x852, scale: 1, orientation: landscape }", stage: "{}"))
        == "s.cfg:2:36: error: canvas.orientation: the stage holds its iphone-15 as canvas.size is written (portrait); "
        + "write 852x393 for landscape, or leave orientation out")
    let other = try JobParser.parse(Self.job(canvas: "{ size: 400x800, scale: 1 }", stage: "{}"), file: "s.cfg")
    #expect(other.stage?.device == nil)
  }

  /// A canvas given only as a device's screen size is that device for
  /// what follows the device, as a stage finds it: `393x852` draws the
  /// iPhone 15's 54 pt status bar (not 59, its safe-area top), `852x393` is
  /// one held in landscape, which shows none (with the note), at any scale;
  /// `744x1133` is an iPad. A size that is no device's keeps the rules of a bare size.
  @Test func aCanvasOfADevicesSizeIsThatDevice() throws {
    let drawn = try JobParser.parse(Self.job(canvas: "{ size: 393x852, statusBar: { time: \"9:41\" } }", stage: "{}"), file: "s.cfg")
    #expect(drawn.canvas.statusBar?.height == 54 && !drawn.canvas.hidesStatusBar)
    for scale in [1, 3] {
      let landscape = try JobParser.parse(
        Self.job(canvas: "{ size: 852x393, scale: \(scale), statusBar: { time: \"9:41\" } }", stage: "{}"), file: "s.cfg")
      #expect(landscape.canvas.hidesStatusBar && landscape.canvas.shownStatusBar == nil, "@\(scale)")
      #expect(
        landscape.notes.map(\.message).contains { $0.hasPrefix("canvas.statusBar: iOS shows no status bar on an iPhone in landscape") })
    }
    let pad = try JobParser.parse(Self.job(canvas: "{ size: 744x1133 }", stage: "{}"), file: "s.cfg")
    #expect(pad.deviceFamily == "ipad")
    let other = try JobParser.parse(Self.job(canvas: "{ size: 400x800, statusBar: { time: \"9:41\" } }", stage: "{}"), file: "s.cfg")
    #expect(other.canvas.statusBar?.height == 20 && !other.canvas.hidesStatusBar && other.deviceFamily == "iphone")
  }

  /// A String Catalog's device variation follows the device a canvas of no
  /// device's size is laid out as (the stage sweep): `size: 800x400` in an
  /// iPad the stage names shows the iPad's status bar and nav bar, and read
  /// the `iphone` form; it reads the `ipad` one, and in an iPhone `iphone`.
  @Test func aCanvasInAStageIPadReadsTheIPadForm() throws {
    for (device, family) in [("ipad-mini", "ipad"), ("ipad-13", "ipad"), ("iphone-15", "iphone"), ("none", "iphone")] {
      let spec = try JobParser.parse(Self.job(canvas: "{ size: 800x400 }", stage: "{ device: \(device) }"), file: "s.cfg")
      #expect(spec.deviceFamily == family, "\(device)")
    }
  }

  /// A device the stage names is held as the canvas is: in landscape
  /// beside a canvas wider than tall, a device's screen turned (it drew it
  /// upright, the picture letterboxed in it, where the canvas hid the
  /// status bar as a phone held sideways) or a size of no device, `800x400`
  /// (laid out as a phone held sideways too: upright was the same mismatch,
  /// not a rule); a written orientation still says how it is held.
  @Test func aNamedStageDeviceIsHeldAsTheCanvasSizeIs() throws {
    for device in ["iphone-15", "iphone-16-pro", "ipad-mini"] {
      let spec = try JobParser.parse(
        Self.job(canvas: "{ size: 852x393, scale: 1 }", stage: "{ device: \(device), padding: 0 }"), file: "s.cfg")
      let stage = try #require(spec.stage)
      #expect(stage.orientation == .landscape && stage.size.width > stage.size.height, "\(device)")
    }
    let upright = try JobParser.parse(
      Self.job(canvas: "{ size: 393x852, scale: 1 }", stage: "{ device: iphone-15 }"), file: "s.cfg")
    #expect(upright.stage?.orientation == .portrait)
    let written = try JobParser.parse(
      Self.job(canvas: "{ size: 393x852, scale: 1, orientation: landscape }", stage: "{ device: iphone-15 }"), file: "s.cfg")
    #expect(written.stage?.orientation == .landscape)
    for (size, orientation) in [("800x400", DeviceOrientation.landscape), ("1000x700", .landscape), ("400x800", .portrait), ("500x500", .portrait)] {
      let other = try JobParser.parse(Self.job(canvas: "{ size: \(size), scale: 1 }", stage: "{ device: iphone-15 }"), file: "s.cfg")
      #expect(other.stage?.orientation == orientation, "\(size)")
    }
    let uprightWide = try JobParser.parse(
      Self.job(canvas: "{ size: 800x400, scale: 1, orientation: portrait }", stage: "{ device: iphone-15 }"), file: "s.cfg")
    #expect(uprightWide.stage?.orientation == .portrait)
  }

  @Test func aStageDeviceSetsAnUnsizedCanvas() throws {
    let spec = try JobParser.parse(Self.job(canvas: "{ fps: 30 }", stage: "{ device: ipad-mini }"), file: "s.cfg")
    #expect(spec.canvas.size == Size(width: 744, height: 1133) && spec.canvas.scale == 2)
  }

  /// A canvas that takes the stage's device has that device's status bar:
  /// an iPhone SE's 20 pt and an iPad mini's 24 pt held sideways, not the
  /// 54 of the iPhone 15 the canvas was before the stage named its device;
  /// a written height is checked against the stage device's screen.
  @Test func aCanvasTakingTheStagesDeviceTakesItsStatusBar() throws {
    let se = try JobParser.parse(
      Self.job(canvas: "{ scale: 1, statusBar: { time: \"9:41\" } }", stage: "{ device: iphone-se }"), file: "s.cfg")
    #expect(se.canvas.statusBar?.height == 20 && se.canvas.statusBar?.time == "9:41")
    let pad = try JobParser.parse(
      Self.job(canvas: "{ orientation: landscape, statusBar: { time: \"9:41\" } }", stage: "{ device: ipad-mini }"),
      file: "s.cfg")
    #expect(pad.canvas.statusBar?.height == 24 && !pad.canvas.hidesStatusBar)
    #expect(
      Self.error(Self.job(canvas: "{ orientation: landscape, statusBar: 190 }", stage: "{ device: iphone-se }"))
        == "s.cfg:2:46: error: canvas.statusBar: expected a height in points from 1 to 187, got 190")
  }

  @Test func statusBarForms() throws {
    let strip = try JobParser.parse(Self.job(canvas: "{ device: iphone-15, statusBar: 54 }", stage: "{}"), file: "s.cfg")
    #expect(strip.canvas.statusBar?.height == 54 && strip.canvas.statusBar?.isDrawn == false)
    let drawn = try JobParser.parse(
      Self.job(canvas: "{ device: iphone-14, statusBar: { time: \"10:09\", style: light } }", stage: "{}"), file: "s.cfg")
    #expect(
      drawn.canvas.statusBar
        == StatusBarSpec(
          height: 47, time: "10:09", style: .light, location: SourceLocation(file: "s.cfg", line: 2, column: 41)))
    #expect(
      Self.error(Self.job(canvas: "{ device: iphone-15, statusBar: { style: grey } }", stage: "{}"))
        == "s.cfg:2:50: error: canvas.statusBar.style: unknown status bar style \"grey\"; expected one of: auto, dark, light")
  }

  @Test func everyPresetHasItsFigures() {
    #expect(DevicePreset.all.count == 13)
    for d in DevicePreset.all {
      // The body is larger than the screen on every side, by 1.5 to 11 mm.
      let bezel = d.bezel
      #expect(bezel.width > 1.5 * d.pointsPerMillimetre && bezel.width < 11 * d.pointsPerMillimetre, "\(d.name)")
      #expect(bezel.height > 1.5 * d.pointsPerMillimetre && bezel.height < 18 * d.pointsPerMillimetre, "\(d.name)")
      #expect(d.bodyCornerRadius > d.screenCornerRadius)
      #expect(!d.buttons.isEmpty)
    }
  }
}
