// A valid job file decodes to exactly the spec it describes: canvas in
// points and pixels, colours, views, and a timeline whose pop inherits its
// push's transition and parameters.

import Geometry
import Motion
import Raster
import Testing
import Transitions

@testable import Jobs

@Suite enum JobParserTests {
  static let example = """
    # A full job, in the style of DESIGN.md.
    name: circle-demo
    canvas: { device: iphone-15, fps: 30, background: "#102030" }
    output:
      dir: demos
      formats: [mp4, gif, sheet]
      mp4: { crf: 20, preset: slow }
    screens:
      gallery:
        background: systemGroupedBackground
        views:
          - { id: nav, frame: [0, 0, 393, 100], color: "#FFFFFF" }
          - { id: photo3, frame: [16, 120, 170, 170], color: systemBlue, corner: 8 }
      detail:
        background: "#00000080"
        views:
          - { id: hero, frame: [0, 0, 393, 393], color: systemRed }
    timeline:
      - hold: 0.4
      - push: { from: gallery, to: detail, transition: circle-spread,
                origin: [16, 120, 170, 170], duration: 0.5, curve: easeOut }
      - hold: 1
      - pop: { duration: 0.25 }
      - hold: 0.5

    """

  @Test static func fullExample() throws {
    let job = try JobParser.parse(example, file: "jobs/demo.cfg")
    #expect(job.name == "circle-demo")
    #expect(job.file == "jobs/demo.cfg")
    var canvas = CanvasSpec(
      size: Size(width: 393, height: 852), scale: 3, fps: 30, background: Color(red8: 0x10, green8: 0x20, blue8: 0x30))
    canvas.device = "iphone-15"
    #expect(job.canvas == canvas)
    #expect(job.canvas.pixelWidth == 1179)
    #expect(job.canvas.pixelHeight == 2556)
    var output = OutputSpec(directory: "demos", formats: [.mp4, .gif, .sheet], mp4: MP4Settings(crf: 20, preset: "slow"))
    output.directoryLocation = SourceLocation(file: "jobs/demo.cfg", line: 5, column: 8)
    #expect(job.output == output)

    #expect(job.screens.map(\.name) == ["gallery", "detail"])
    let gallery = job.screens[0]
    #expect(gallery.background == Color(red8: 242, green8: 242, blue8: 247))
    #expect(gallery.location == SourceLocation(file: "jobs/demo.cfg", line: 9, column: 3))
    #expect(gallery.views.count == 2)
    #expect(gallery.views[1] == ViewSpec(
      id: "photo3", frame: Rect(x: 16, y: 120, width: 170, height: 170),
      color: Color(red8: 0, green8: 122, blue8: 255), cornerRadius: 8,
      location: SourceLocation(file: "jobs/demo.cfg", line: 13, column: 9)))
    #expect(job.screens[1].background == Color(red8: 0, green8: 0, blue8: 0, alpha8: 0x80))

    #expect(job.timeline.count == 5)
    #expect(job.timeline[0] == .hold(seconds: 0.4, location: SourceLocation(file: "jobs/demo.cfg", line: 19, column: 5)))
    let pushParameters = TransitionParameters([
      "origin": .rect(Rect(x: 16, y: 120, width: 170, height: 170)),
      "duration": .number(0.5),
      "curve": .curve(.easeOut),
    ])
    #expect(job.timeline[1] == .transition(TransitionStep(
      operation: .push, from: "gallery", to: "detail", transition: "circle-spread",
      parameters: pushParameters, location: SourceLocation(file: "jobs/demo.cfg", line: 20, column: 5))))
    // The pop reuses the push's transition and parameters; its duration wins.
    var popParameters = pushParameters
    popParameters.values["duration"] = .number(0.25)
    #expect(job.timeline[3] == .transition(TransitionStep(
      operation: .pop, from: "detail", to: "gallery", transition: "circle-spread",
      parameters: popParameters, location: SourceLocation(file: "jobs/demo.cfg", line: 23, column: 5))))
  }

  /// YAML 1.2's core schema spells a boolean `true`, `True` or `TRUE` (and
  /// `false` likewise), as Python and Ruby write them: each is the flag it
  /// says wherever a job takes one, a spring's `allowsOverdamping` too.
  @Test static func booleansInEveryCoreSchemaSpelling() throws {
    let spec = try JobParser.parse(
      """
      canvas: { device: iphone-15, fps: 10, homeIndicator: True }
      output: { formats: [webp], webp: { lossless: TRUE } }
      screens:
        a: {}
        b: {}
      timeline:
        - push: { to: b, transition: push, mirror: True, spring: { stiffness: 100, damping: 30, allowsOverdamping: TRUE } }
        - pop: { mirror: FALSE, touch: False }
      """, file: "b.cfg")
    let steps = spec.timeline.compactMap { if case .transition(let step) = $0 { step } else { nil } }
    #expect(spec.canvas.homeIndicator != nil && spec.output.webp.lossless)
    #expect(steps[0].mirror == true && steps[1].mirror == false && steps[1].touch == nil)
    let overdamped = Spring(mass: 1, stiffness: 100, damping: 30, allowsOverdamping: true)
    #expect(steps[0].parameters.curve(default: .linear) == .spring(overdamped))
  }

  /// YAML 1.2's core schema writes integers in base 16 and 8 too, `0x1E`
  /// and `0o17`: each is the number it says wherever a job takes one, a
  /// size in bytes, a spring's parameter and a string's argument too.
  @Test static func hexadecimalAndOctalIntegers() throws {
    let spec = try JobParser.parse(
      """
      canvas: { size: [0o620, 0x64], scale: 0x2, fps: 0x1E }
      output: { formats: [gif], gif: { maxBytes: 0x100000 } }
      screens:
        a: { views: [ { frame: [0x10, 0o20, 0x20, 0o40], color: red } ] }
        b: {}
      timeline:
        - push: { to: b, transition: push, spring: { stiffness: 0o144, damping: 0xA } }
      """, file: "h.cfg")
    #expect(spec.canvas.size == Size(width: 400, height: 100))
    #expect(spec.canvas.fps == 30 && spec.canvas.scale == 2)
    #expect(spec.output.gif.maxBytes == 1_048_576)
    #expect(spec.screens[0].views[0].frame == Rect(x: 16, y: 16, width: 32, height: 32))
    let steps = spec.timeline.compactMap { if case .transition(let step) = $0 { step } else { nil } }
    #expect(steps[0].parameters.curve(default: .linear) == .spring(Spring(mass: 1, stiffness: 100, damping: 10)))
    let here = SourceLocation(file: "h.cfg", line: 1, column: 1)
    let args = YAMLNode(.sequence(["0x7FFFFFFFFFFFFFFF", "0o17", "0X1"].map { YAMLNode(.scalar($0, .plain), at: here) }), at: here)
    let read = try JobDecoder(file: "h.cfg").formatArguments(args, .root)
    #expect(read == [.integer(.max), .integer(15), .text("0X1")])
  }

  @Test static func defaults() throws {
    let job = try JobParser.parse(
      """
      screens: { home: }
      timeline: [ hold: 1 ]
      """, file: "dir.v2/My_job.v1.cfg")
    #expect(job.name == "My_job.v1")
    var canvas = CanvasSpec(size: Size(width: 393, height: 852), scale: 3, fps: 60, background: .black)
    canvas.device = "iphone-15"
    #expect(job.canvas == canvas)
    #expect(job.output == OutputSpec())
    #expect(job.screens == [ScreenSpec(
      name: "home", background: nil, views: [], location: SourceLocation(file: "dir.v2/My_job.v1.cfg", line: 1, column: 12))])
  }

  /// A mapping of optional keys written with no value (`canvas: ~`, or
  /// `canvas:` above lines all commented out) is an empty one, its
  /// defaults, as `stage: ~` and a screen's `home:` are: `canvas: ~` was
  /// "expected a mapping, got ~".
  @Test static func aMappingWithNoValueIsEmpty() throws {
    let plain = try JobParser.parse("screens: { home: }\ntimeline: [ hold: 1 ]\n", file: "n.cfg")
    for written in [
      "canvas: ~", "canvas:\n  # device: iphone-se", "output: null", "output:",
      "output: { mp4: ~, gif: ~, png: ~, sheet: ~, webm: ~, mov: ~, apng: ~, webp: }",
    ] {
      let job = try JobParser.parse(written + "\nscreens: { home: }\ntimeline: [ hold: 1 ]\n", file: "n.cfg")
      let same = job.canvas == plain.canvas && job.output == plain.output
      #expect(same, "\(written)")
    }
  }
}
